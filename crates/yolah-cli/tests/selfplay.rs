//! `yolah selfplay` and `yolah data stats` as a user runs them: a run killed and resumed
//! writes exactly the data of an uninterrupted run; data of another run, damaged data and
//! bad counts are refused.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random, with_enough_kills,
};

const SPEC: &str = "minimax:nodes=400";

fn selfplay(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "selfplay",
        SPEC,
        "--out",
        dir.to_str().unwrap(),
        "--seed",
        "4",
        "--random-plies",
        "6",
    ];
    args.extend_from_slice(extra);
    yolah(&args, "")
}

#[test]
fn a_killed_run_resumes_to_the_same_data() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    let output = selfplay(&whole, &["--games", "24", "--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = std::fs::read(whole.join("data.bin")).unwrap();

    let killed = root.path().join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args([
            "selfplay",
            SPEC,
            "--out",
            killed.to_str().unwrap(),
            "--seed",
            "4",
            "--random-plies",
            "6",
            "--games",
            "24",
            "--threads",
            "2",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    // A partial block at the end, as a kill in the middle of a write would leave.
    let data = killed.join("data.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    bytes.extend_from_slice(&[7, 0, 0, 0, 1, 2]);
    std::fs::write(&data, &bytes).unwrap();
    let output = yolah(
        &["selfplay", "--out", killed.to_str().unwrap(), "--resume"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // The kill may come after the last game on a fast machine: then nothing is played again.
    let said = stderr(&output);
    assert!(
        said.contains("cut 6 bytes after the last whole game")
            && (said.contains("is played again") || said.contains("all 24 games are there")),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&data).unwrap(),
        expected,
        "same data as the whole run"
    );

    let stats = yolah(&["data", "stats", killed.to_str().unwrap()], "");
    assert!(stats.status.success(), "{}", stderr(&stats));
    assert!(
        stdout(&stats).contains("games:      24"),
        "{}",
        stdout(&stats)
    );

    // Resuming a finished run with more games extends it.
    let output = yolah(
        &[
            "selfplay",
            "--out",
            killed.to_str().unwrap(),
            "--resume",
            "--games",
            "26",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("2 games this run (26 in all)"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn foreign_damaged_and_unbounded_runs_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let a = root.path().join("a");
    let b = root.path().join("b");
    assert!(selfplay(&a, &["--games", "2"]).status.success());
    let output = yolah(
        &[
            "selfplay",
            SPEC,
            "--out",
            b.to_str().unwrap(),
            "--seed",
            "5",
            "--games",
            "2",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // b's data under a's config: another run.
    std::fs::copy(b.join("data.bin"), a.join("data.bin")).unwrap();
    let output = yolah(&["selfplay", "--out", a.to_str().unwrap(), "--resume"], "");
    assert_clean_error(&output, "written by another self-play run");
    // A flipped byte in a record: the checksum says where.
    let data = b.join("data.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[50] ^= 0x40;
    std::fs::write(&data, &bytes).unwrap();
    let output = yolah(&["data", "stats", data.to_str().unwrap()], "");
    assert_clean_error(&output, "at byte 32: block checksum mismatch");
    let output = yolah(&["data", "stats", "Cargo.toml"], "");
    assert_clean_error(&output, "not a Yolah data file");
    // Counts and settings.
    let c = root.path().join("c");
    let out = c.to_str().unwrap();
    for (args, expected) in [
        (vec!["--games", "0"], "--games must be from 1"),
        (vec!["--games", "20000000"], "--games must be from 1"),
        (
            vec!["--games", "2", "--random-plies", "41"],
            "--random-plies must be at most 40",
        ),
        (vec!["--games", "2", "--threads", "0"], "--threads"),
        (
            vec!["mcts:depth=2", "--games", "2"],
            "mcts has no option 'depth'",
        ),
    ] {
        let mut full = vec!["selfplay", "--out", out];
        full.extend_from_slice(&args);
        let output = yolah(&full, "");
        assert_clean_error(&output, expected);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    let output = yolah(
        &[
            "selfplay",
            "--out",
            a.to_str().unwrap(),
            "--resume",
            "--seed",
            "3",
        ],
        "",
    );
    assert_clean_error(&output, "--resume takes its settings");

    assert!(
        !c.join("data.bin").exists(),
        "nothing written for a refused run"
    );
}

/// Exact values: their options checked (and refused on --resume), a run with them measured
/// by `data quality`, which refuses data without them and a bad network.
#[test]
fn exact_values_are_checked_and_measured() {
    let root = tempfile::tempdir().unwrap();
    let a = root.path().join("a");
    assert!(selfplay(&a, &["--games", "2"]).status.success());
    let c = root.path().join("c");
    for (args, expected) in [
        (
            vec!["--exact-free", "33"],
            "--exact-free must be from 1 to 32, not 33",
        ),
        (
            vec!["--exact-free", "20", "--exact-nodes", "0"],
            "--exact-nodes must be from 1 to 100000000, not 0",
        ),
        (vec!["--exact-nodes", "1000"], "missing --exact-free"),
    ] {
        let mut full = vec!["selfplay", "--out", c.to_str().unwrap(), "--games", "2"];
        full.extend_from_slice(&args);
        let output = yolah(&full, "");
        assert_clean_error(&output, expected);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    assert!(!c.exists(), "nothing written for a refused run");
    let output = yolah(
        &[
            "selfplay",
            "--out",
            a.to_str().unwrap(),
            "--resume",
            "--exact-free",
            "20",
        ],
        "",
    );
    assert_clean_error(&output, "--resume takes its settings");
    // Quality needs exact labels: data without them is a bad input file, exit 1.
    let output = yolah(&["data", "quality", a.to_str().unwrap()], "");
    assert_clean_error(&output, "no exact values");
    assert_eq!(output.status.code(), Some(1));
    let e = root.path().join("e");
    let output = yolah(
        &[
            "selfplay",
            SPEC,
            "--out",
            e.to_str().unwrap(),
            "--games",
            "2",
            "--exact-free",
            "12",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let output = yolah(
        &[
            "data",
            "quality",
            e.to_str().unwrap(),
            "--net",
            "Cargo.toml",
        ],
        "",
    );
    assert_clean_error(&output, "network Cargo.toml");
    let output = yolah(&["data", "quality", e.to_str().unwrap()], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("exact values of"), "{text}");
    assert!(text.contains("the data's game margins"), "{text}");
}

#[test]
fn three_shards_merge_into_the_unsharded_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    assert!(selfplay(&whole, &["--games", "10"]).status.success());
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = root.path().join(format!("part{k}"));
        let shard = format!("{k}/3");
        let output = selfplay(&part, &["--games", "10", "--shard", &shard]);
        assert!(output.status.success(), "{}", stderr(&output));
        let expected_games = [4, 3, 3][k - 1];
        assert!(
            stdout(&output).starts_with(&format!("{expected_games} games this run")),
            "{}",
            stdout(&output)
        );
        parts.push(part.to_str().unwrap().to_string());
    }
    let merged = root.path().join("merged");
    let mut args = vec!["data", "merge", merged.to_str().unwrap()];
    // Any order of the parts.
    args.extend([&parts[2], &parts[0], &parts[1]].map(String::as_str));
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        std::fs::read(merged.join("data.bin")).unwrap(),
        std::fs::read(whole.join("data.bin")).unwrap(),
        "shards + merge = the unsharded run"
    );

    // A missing, a repeated and a foreign shard are refused.
    let again = root.path().join("again");
    let out = again.to_str().unwrap();
    let output = yolah(&["data", "merge", out, &parts[0], &parts[1]], "");
    assert_clean_error(&output, "shard 3/3 is missing");
    let output = yolah(&["data", "merge", out, &parts[0], &parts[1], &parts[1]], "");
    assert_clean_error(&output, "shard 2/3 is given twice");
    let other = root.path().join("other");
    assert!(
        selfplay(&other, &["--games", "11", "--shard", "3/3"])
            .status
            .success()
    );
    let output = yolah(
        &[
            "data",
            "merge",
            out,
            &parts[0],
            &parts[1],
            other.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "is not a shard of the same run");
    let output = yolah(
        &["selfplay", "--out", out, "--games", "3", "--shard", "4/3"],
        "",
    );
    assert_clean_error(&output, "expected K/N");
    assert_eq!(output.status.code(), Some(2));
}

// Each shard's data proves which shard it is.
#[test]
fn another_shards_data_under_a_shards_name_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let parts: Vec<_> = (1..=3)
        .map(|k| {
            let part = root.path().join(format!("part{k}"));
            let output = selfplay(&part, &["--games", "6", "--shard", &format!("{k}/3")]);
            assert!(output.status.success(), "{}", stderr(&output));
            part
        })
        .collect();
    std::fs::copy(parts[2].join("data.bin"), parts[1].join("data.bin")).unwrap();
    let merged = root.path().join("merged");
    let mut args = vec!["data", "merge", merged.to_str().unwrap()];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let output = yolah(&args, "");
    assert_clean_error(
        &output,
        "holds the data of shard 3/3, but its run is shard 2/3",
    );
    let output = yolah(
        &["selfplay", "--resume", "--out", parts[1].to_str().unwrap()],
        "",
    );
    assert_clean_error(
        &output,
        "holds the data of shard 3/3, but its run is shard 2/3",
    );
}

// Whatever a kill leaves between the config and the data, --resume takes it
// over and ends with the data of an uninterrupted run.
#[test]
fn resume_takes_over_any_state_a_kill_can_leave() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    assert!(selfplay(&whole, &["--games", "3"]).status.success());
    let expected = std::fs::read(whole.join("data.bin")).unwrap();
    // Killed after the config, before the data file: none, or part of its header.
    for header_bytes in [None, Some(0), Some(13)] {
        let dir = root.path().join(format!("killed{header_bytes:?}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(whole.join("selfplay.json"), dir.join("selfplay.json")).unwrap();
        if let Some(n) = header_bytes {
            std::fs::write(dir.join("data.bin"), &expected[..n]).unwrap();
        }
        // A new run there is refused (it would lose the run); --resume takes it over.
        let output = selfplay(&dir, &["--games", "3"]);
        assert_clean_error(&output, "holds a self-play run already");
        let output = yolah(
            &["selfplay", "--resume", "--out", dir.to_str().unwrap()],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(std::fs::read(dir.join("data.bin")).unwrap(), expected);
    }
    // A data file without its config is another program's: not taken, not overwritten.
    let stray = root.path().join("stray");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("data.bin"), b"mine").unwrap();
    assert_clean_error(&selfplay(&stray, &["--games", "3"]), "is not empty");
    assert_eq!(std::fs::read(stray.join("data.bin")).unwrap(), b"mine");
    // Nor is a tournament's directory.
    let tournament = root.path().join("tournament");
    let output = yolah(
        &[
            "tournament",
            "random",
            "random:seed=2",
            "--games-per-pair",
            "2",
            "--out",
            tournament.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_clean_error(&selfplay(&tournament, &["--games", "3"]), "is not empty");
    assert!(!tournament.join("data.bin").exists());
}

// Junk after a finished run is cut, and the message says what happens.
#[test]
fn junk_after_a_finished_run_is_cut_and_said_so() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    assert!(selfplay(&dir, &["--games", "2"]).status.success());
    let data = dir.join("data.bin");
    let clean = std::fs::read(&data).unwrap();
    let mut junk = clean.clone();
    junk.extend_from_slice(b"junk!");
    std::fs::write(&data, &junk).unwrap();
    let output = yolah(
        &["selfplay", "--resume", "--out", dir.to_str().unwrap()],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("cut 5 bytes after the last whole game"),
        "{said}"
    );
    assert!(said.contains("all 2 games are there"), "{said}");
    assert!(!said.contains("played again"), "{said}");
    assert_eq!(std::fs::read(&data).unwrap(), clean);
}

// The self-play writer against the four enemies of every writer (`yolah_testkit::writers`):
// a kill at any write, a full disk, a second writer, a foreign file where ours is expected.

/// The whole games at the start of a run's data file (the bytes up to its last whole game):
/// none if there is no file yet or only part of its header.
fn whole_games(data: &Path) -> (usize, Vec<u8>) {
    let bytes = std::fs::read(data).unwrap_or_default();
    if bytes.len() < 32 {
        return (0, Vec::new());
    }
    let file = yolah_ai::data::read_file(data).unwrap_or_else(|e| panic!("{e}"));
    let valid = usize::try_from(file.valid_len).unwrap();
    (file.blocks.len(), bytes[..valid].to_vec())
}

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Killed (SIGKILL) again and again at random moments and resumed each time, a shard's run
/// keeps every game its file held at each kill, in order, none twice, and ends with the data
/// of an uninterrupted run.
#[test]
fn kills_at_random_lose_no_written_game_and_double_none() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let run = |dir: &Path| {
        vec![
            "selfplay".to_string(),
            SPEC.to_string(),
            "--out".to_string(),
            dir.to_str().unwrap().to_string(),
            "--seed".to_string(),
            "4".to_string(),
            "--random-plies".to_string(),
            "6".to_string(),
            "--games".to_string(),
            "240".to_string(),
            "--shard".to_string(),
            "2/3".to_string(),
            "--threads".to_string(),
            "1".to_string(),
        ]
    };
    let args = run(&straight);
    let timer = std::time::Instant::now();
    let output = yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));
    // The kills fall within the run however fast the machine is: between a 50th and a 10th
    // of the straight run's time (20-400 ms gave only 6 kills on an idle machine).
    let whole = timer.elapsed();
    let expected = std::fs::read(straight.join("data.bin")).unwrap();
    let (kills, checked) = with_enough_kills(8, |attempt| {
        let whole = whole / (1 << attempt);
        let delays =
            (whole / 50).max(Duration::from_millis(5))..(whole / 10).max(Duration::from_millis(20));
        killed_runs(
            &root.path().join(format!("killed-{attempt}")),
            delays,
            &run,
            &expected,
        )
    });
    eprintln!("{kills} kills, {checked} checks, 80 games, nothing lost or doubled");
}

/// The killed half of the test above: a shard's run in the fresh folder `killed`, killed
/// after each of `delays` and resumed, checked at each kill against `expected` (the straight
/// run's data). Returns (kills, checks).
fn killed_runs(
    killed: &Path,
    delays: std::ops::Range<Duration>,
    run: &dyn Fn(&Path) -> Vec<String>,
    expected: &[u8],
) -> (usize, usize) {
    let data = killed.join("data.bin");
    let start = run(killed);
    let resume = ["selfplay", "--out", killed.to_str().unwrap(), "--resume"];
    let mut kept = 0;
    let mut checked = 0;
    let kills = kill_at_random(
        14,
        42,
        delays,
        |_| {
            if killed.join("selfplay.json").exists() {
                spawn(&resume)
            } else {
                spawn(&start.iter().map(String::as_str).collect::<Vec<_>>())
            }
        },
        |k| {
            let (games, bytes) = whole_games(&data);
            assert!(
                games >= kept,
                "life {k}: {games} whole games, {kept} before"
            );
            assert!(
                expected.starts_with(&bytes),
                "life {k}: the {games} games differ from the uninterrupted run's"
            );
            kept = games;
            checked += 1;
        },
    );
    // The last kill may have come before the first checkpoint: then the run starts again.
    let start: Vec<&str> = start.iter().map(String::as_str).collect();
    let last: &[&str] = if killed.join("selfplay.json").exists() {
        &resume
    } else {
        &start
    };
    let output = yolah(last, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("(80 in all, shard 2/3 of 240 games)"),
        "{}",
        stdout(&output)
    );
    assert!(std::fs::read(&data).unwrap() == expected);
    (kills, checked)
}

/// On a full disk the run stops with one line saying so; its file holds whole games only,
/// those of the uninterrupted run; with room again, --resume ends with that run's data.
#[test]
fn a_full_disk_is_said_in_one_line_and_loses_no_game() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let output = selfplay(&straight, &["--games", "24", "--threads", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = std::fs::read(straight.join("data.bin")).unwrap();

    let disk = SmallDisk::new(256 * 1024);
    // About 16 KiB of room: half the run's data.
    disk.leave(16 * 1024);
    let dir = disk.path().join("run");
    let output = selfplay(&dir, &["--games", "24", "--threads", "1"]);
    assert!(!output.status.success(), "the run had room");
    let said = stderr(&output);
    assert_one_line(&said);
    assert!(said.contains("No space left on device"), "{said}");
    let file = yolah_ai::data::read_file(&dir.join("data.bin")).unwrap();
    assert!(file.damaged.is_none(), "{:?}", file.damaged);
    let kept = std::fs::read(dir.join("data.bin")).unwrap();
    assert!(
        !file.blocks.is_empty() && file.blocks.len() < 24,
        "{} games",
        file.blocks.len()
    );
    assert!(expected.starts_with(&kept));
    disk.free();
    let output = yolah(
        &["selfplay", "--out", dir.to_str().unwrap(), "--resume"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read(dir.join("data.bin")).unwrap() == expected);

    // A merge that runs out of room says so and leaves no run behind: merged again with
    // room, it is the whole run.
    let parts: Vec<String> = (1..=2)
        .map(|k| {
            let part = root.path().join(format!("part-{k}"));
            let shard = format!("{k}/2");
            let output = selfplay(
                &part,
                &["--games", "24", "--shard", &shard, "--threads", "1"],
            );
            assert!(output.status.success(), "{}", stderr(&output));
            part.to_str().unwrap().to_string()
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    disk.leave(16 * 1024);
    let merged = disk.path().join("merged");
    let merge = [
        "data",
        "merge",
        merged.to_str().unwrap(),
        &parts[0],
        &parts[1],
    ];
    let output = yolah(&merge, "");
    assert!(!output.status.success(), "the merge had room");
    assert_one_line(&stderr(&output));
    assert!(
        stderr(&output).contains("No space left on device"),
        "{}",
        stderr(&output)
    );
    let left: Vec<String> = std::fs::read_dir(&merged)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".lock")
        .collect();
    assert!(left.is_empty(), "a failed merge left {left:?}");
    disk.free();
    let output = yolah(&merge, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read(merged.join("data.bin")).unwrap() == expected);
}

/// A second writer into a running run's directory — a resume, a new run, a merge — is
/// refused with one line, and the first run ends as if alone.
#[test]
fn a_second_writer_is_refused_with_one_line() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    let mut first = spawn(&[
        "selfplay",
        SPEC,
        "--out",
        out,
        "--games",
        "100000",
        "--threads",
        "1",
    ]);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !dir.join("data.bin").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let part = root.path().join("part");
    assert!(
        selfplay(&part, &["--games", "3", "--shard", "1/1"])
            .status
            .success()
    );
    for args in [
        vec!["selfplay", "--out", out, "--resume"],
        vec!["selfplay", SPEC, "--out", out, "--games", "2"],
        vec!["data", "merge", out, part.to_str().unwrap()],
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, "is in use by another run");
        assert_one_line(&stderr(&output));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    // What the first wrote is its own run's, whole games then at most one cut short.
    let file = yolah_ai::data::read_file(&dir.join("data.bin")).unwrap();
    assert!(!file.blocks.is_empty());
}

/// A file that is not the run's where its own is expected — settings, data — is refused
/// with one line and left byte for byte; so is anything in the folder of a new run or of a
/// merge.
#[test]
fn files_not_ours_are_refused_and_left_byte_for_byte() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    assert!(selfplay(&dir, &["--games", "2"]).status.success());
    let part = root.path().join("part");
    assert!(
        selfplay(&part, &["--games", "2", "--shard", "1/1"])
            .status
            .success()
    );
    for (what, contents) in foreign_files() {
        for file in ["selfplay.json", "data.bin"] {
            let path = dir.join(file);
            let ours = std::fs::read(&path).unwrap();
            std::fs::write(&path, &contents).unwrap();
            let untouched = [
                Untouched::take(&dir.join("selfplay.json")),
                Untouched::take(&dir.join("data.bin")),
            ];
            let output = yolah(&["selfplay", "--out", out, "--resume", "--games", "3"], "");
            assert!(!output.status.success(), "{what} as {file} taken");
            assert_one_line(&stderr(&output));
            assert!(
                stderr(&output).contains(file),
                "{what}: {}",
                stderr(&output)
            );
            for u in &untouched {
                u.assert();
            }
            std::fs::write(&path, ours).unwrap();
        }
        // In the folder of a new run, or of a merge.
        let other = root.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        let note = other.join("notes.txt");
        std::fs::write(&note, &contents).unwrap();
        let untouched = Untouched::take(&note);
        let o = other.to_str().unwrap();
        for args in [
            vec!["selfplay", SPEC, "--out", o, "--games", "2"],
            vec!["data", "merge", o, part.to_str().unwrap()],
        ] {
            let output = yolah(&args, "");
            assert!(!output.status.success(), "{what}: {args:?}");
            assert_one_line(&stderr(&output));
            untouched.assert();
        }
        assert_eq!(
            std::fs::read_dir(&other)
                .unwrap()
                .filter(|e| e.as_ref().unwrap().file_name() != ".lock")
                .count(),
            1
        );
    }
}

//! `yolah learn` as a user runs it: generations of self-play, training, a sequential test and
//! a gauntlet into one directory; a candidate promoted only when the test accepts H1 and it
//! holds its ground against the gauntlet; a run killed again and again and resumed each time
//! ends exactly where an uninterrupted run ends; bad options refused before anything is
//! written; a run made before the gauntlet resumes as it ran.

mod common;

use common::{assert_clean_error, stderr, stdout, walk, yolah};
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random,
};
use yolah_train::learn::State;

/// A tiny run: small games, a small network, a test at a node budget (reproducible), one
/// thread (the test's games end in a fixed order). The test's bounds are wide and low, so
/// that a weak candidate is promoted quickly and the promotion path runs; the gauntlet is a
/// game pair against `random` (which every network beats: the candidate holds) and one
/// against each network promoted before the parent.
fn run_args(dir: &Path, generations: u32) -> Vec<String> {
    let generations = generations.to_string();
    [
        "learn",
        "--out",
        dir.to_str().unwrap(),
        "--generations",
        &generations,
        "--games",
        "30",
        "--nodes",
        "300",
        "--epochs",
        "3",
        "--hidden",
        "32,8",
        "--budget",
        "nodes=300",
        "--test-games",
        "100",
        "--threads",
        "1",
        "--sprt",
        "elo0=-700,elo1=-400,alpha=0.2,beta=0.2",
        "--gauntlet",
        "random",
        "--gauntlet",
        "previous",
        "--gauntlet-games",
        "2",
    ]
    .map(String::from)
    .to_vec()
}

fn digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// What a run decided, without its timings: the table's columns up to `promoted` and its
/// gauntlet column, every gauntlet result (the run's directory said `DIR`), the networks, the
/// data (after the file header, whose fingerprint holds the run's paths).
fn outcome(dir: &Path) -> Vec<String> {
    let mut seen = Vec::new();
    let mut table = csv::Reader::from_path(dir.join("generations.csv")).unwrap();
    let header = table.headers().unwrap().clone();
    let gauntlet = header.iter().position(|h| h == "gauntlet").unwrap();
    seen.push(header.iter().take(12).collect::<Vec<_>>().join(","));
    for row in table.records() {
        let row = row.unwrap();
        let mut kept: Vec<&str> = row.iter().take(12).collect();
        kept.push(&row[gauntlet]);
        seen.push(kept.join(","));
    }
    if let Ok(results) = std::fs::read_to_string(dir.join("gauntlet.csv")) {
        seen.push(results.replace(dir.to_str().unwrap(), "DIR"));
    }
    for generation in ["gen-001", "gen-002"] {
        if !dir.join(generation).exists() {
            continue;
        }
        let network = std::fs::read(dir.join(generation).join("network.yolahnet")).unwrap();
        seen.push(format!("{generation} network {:016x}", digest(&network)));
        let data = std::fs::read(dir.join(generation).join("selfplay/data.bin")).unwrap();
        seen.push(format!("{generation} data {:016x}", digest(&data[32..])));
    }
    seen
}

#[test]
fn generations_run_promote_and_resume_after_kills_to_the_same_end() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let args = run_args(&straight, 2);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("generation 1: candidate against the best network"),
        "{text}"
    );
    assert!(text.contains("learn: 2 generations"), "{text}");
    for file in [
        "learn.json",
        "state.json",
        "openings.txt",
        "generations.csv",
        "elo.png",
        "gen-001/selfplay/data.bin",
        "gen-001/network.yolahnet",
        "gen-001/network.train.csv",
        "gen-001/test.csv",
        "gen-001/test.json",
        "gen-002/network.yolahnet",
    ] {
        assert!(straight.join(file).exists(), "{file} missing");
    }
    let expected = outcome(&straight);
    assert_ne!(expected[4], expected[6], "the generations' networks differ");
    // The test's bounds promote the first candidate (it holds against random); the second
    // generation's self-play is then the first candidate's, and it is tested against it.
    assert!(expected[1].ends_with(",H1,true,held"), "{expected:?}");
    assert!(straight.join("best.yolahnet").exists());
    let test_games = std::fs::read_to_string(straight.join("gen-002/test.csv")).unwrap();
    assert!(
        test_games.contains("gen-001/network.yolahnet"),
        "{test_games}"
    );
    gauntlet_in_the_record(&straight, &text);

    // The same run, killed (SIGKILL) at random moments again and again, each time resumed:
    // after each kill, every generation a line announced is in the state (the line
    // came before the state that keeps it).
    let killed = root.path().join("killed");
    let start = run_args(&killed, 2);
    let resume = [
        "learn".to_string(),
        "--out".to_string(),
        killed.to_str().unwrap().to_string(),
        "--resume".to_string(),
        "--threads".to_string(),
        "1".to_string(),
    ];
    let log = |k: usize| root.path().join(format!("life-{k}.out"));
    let kills = kill_at_random(
        18,
        11,
        Duration::from_millis(20)..Duration::from_millis(250),
        |k| {
            let args: &[String] = if killed.join("learn.json").exists() {
                &resume
            } else {
                &start
            };
            Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(args.iter())
                .stdout(std::fs::File::create(log(k)).unwrap())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        },
        |k| {
            let said = std::fs::read_to_string(log(k)).unwrap();
            let state: Option<State> = std::fs::read_to_string(killed.join("state.json"))
                .ok()
                .map(|text| serde_json::from_str(&text).unwrap());
            for line in said.lines().filter(|l| l.starts_with("generation ")) {
                let n: usize = line["generation ".len()..]
                    .split(':')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let record = state
                    .as_ref()
                    .and_then(|s| s.records.get(n - 1))
                    .unwrap_or_else(|| panic!("life {k}: '{line}' said, not in the state"));
                assert_eq!(
                    record.promoted,
                    line.ends_with(": promoted"),
                    "life {k}: {line}"
                );
            }
        },
    );
    let output = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(resume.iter())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(kills >= 6, "killed only {kills} times");
    assert_eq!(outcome(&killed), expected, "after {kills} kills");
    eprintln!("{kills} kills, every generation said kept, the end an uninterrupted run's");
}

/// The gauntlet's results of a run of two generations whose first candidate was promoted
/// (`said`: what it printed): each opponent's results, the candidate's and the parent's, in
/// the state, in `gauntlet.csv` and in the printed lines; each generation's outcome in
/// `generations.csv`; the gauntlet's games in the generation's folder. The first generation's
/// parent is the start, so its gauntlet is `random` alone; the second's adds the start (the
/// network promoted before its parent).
fn gauntlet_in_the_record(dir: &Path, said: &str) {
    let state: State =
        serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).unwrap();
    let first: Vec<_> = state
        .gauntlet
        .iter()
        .filter(|f| f.generation == 1)
        .collect();
    assert_eq!(first.len(), 1, "{:?}", state.gauntlet);
    assert_eq!(first[0].opponent, "random");
    assert_eq!(
        (first[0].candidate_games, first[0].parent_games),
        (2, 2),
        "{first:?}"
    );
    assert!(first[0].held && state.records[0].gauntlet == "held");
    if state.records[1].verdict == "H1" {
        let second: Vec<&str> = state
            .gauntlet
            .iter()
            .filter(|f| f.generation == 2)
            .map(|f| f.opponent.as_str())
            .collect();
        assert_eq!(second, ["random", "minimax:nodes=300,eval=nn"]);
        let promoted = state.records[1].promoted;
        assert_eq!(promoted, state.records[1].gauntlet == "held");
        assert_eq!(
            promoted,
            state.gauntlet.iter().all(|f| f.held),
            "{:?}",
            state.gauntlet
        );
    }
    let table = std::fs::read_to_string(dir.join("gauntlet.csv")).unwrap();
    assert!(
        table.starts_with("generation,opponent,candidate_games,candidate_score,"),
        "{table}"
    );
    assert_eq!(table.lines().count(), 1 + state.gauntlet.len(), "{table}");
    for file in [
        "gen-001/gauntlet/01-candidate.csv",
        "gen-001/gauntlet/01-parent.csv",
    ] {
        assert!(dir.join(file).exists(), "{file} missing");
    }
    assert!(
        said.contains("\n  gauntlet against random: candidate 100.0 %"),
        "{said}"
    );
    assert!(said.contains("; parent 100.0 %"), "{said}");
}

/// A run killed in its gauntlet (the test done, the candidate's first games against the
/// first opponent under way) goes on from the gauntlet's games when resumed, and ends where
/// an uninterrupted run ends.
#[test]
fn a_run_killed_in_its_gauntlet_resumes_it() {
    let root = tempfile::tempdir().unwrap();
    let with_games = |dir: &Path| {
        let mut args = run_args(dir, 1);
        let games = args.iter().position(|a| a == "--gauntlet-games").unwrap() + 1;
        args[games] = "40".to_string();
        args
    };
    let straight = root.path().join("straight");
    let args = with_games(&straight);
    let started = std::time::Instant::now();
    let output = yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));
    // The whole run took this long on this machine as busy as it is now: the gauntlet starts
    // well within it (a fixed minute was too short beside six busy loops).
    let patience = started.elapsed().max(Duration::from_mins(1)) * 3;

    let killed = root.path().join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(with_games(&killed))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let games = killed.join("gen-001/gauntlet/01-candidate.csv");
    let deadline = std::time::Instant::now() + patience;
    while !games.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the gauntlet never started"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let state = std::fs::read_to_string(killed.join("state.json")).unwrap();
    assert!(state.contains(r#""phase": "gauntlet""#), "{state}");
    let output = yolah(
        &[
            "learn",
            "--out",
            killed.to_str().unwrap(),
            "--resume",
            "--threads",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("generation 1 at gauntlet"),
        "{}",
        stderr(&output)
    );
    assert_eq!(outcome(&killed), outcome(&straight));
}

/// The self-play of a generation run apart, as a scheduler's job array would: learn says the
/// command, the shards play their parts, `data merge` joins them into the generation's folder,
/// and `--resume` takes over where the run would have been.
#[test]
fn a_generations_self_play_run_as_shards_is_taken_over() {
    use std::io::BufRead;
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let args = run_args(&straight, 1);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));

    let sharded = root.path().join("sharded");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(run_args(&sharded, 1))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let prefix = "learn: this generation's self-play is: ";
    let command = std::io::BufReader::new(child.stderr.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .find_map(|line| line.strip_prefix(prefix).map(str::to_string))
        .expect("learn says the self-play command");
    child.kill().unwrap();
    child.wait().unwrap();
    let words = shell_words::split(&command).unwrap();
    assert_eq!(words[..2], ["yolah", "selfplay"], "{command}");
    let folder = sharded.join("gen-001").join("selfplay");
    assert_eq!(words.last().unwrap(), folder.to_str().unwrap());
    // Whatever self-play began before the kill goes: the shards play it all.
    if folder.exists() {
        std::fs::remove_dir_all(&folder).unwrap();
    }
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = sharded.join(format!("shard-{k}"));
        let mut args: Vec<String> = words[1..words.len() - 1].to_vec();
        args.extend([
            part.to_str().unwrap().to_string(),
            "--shard".to_string(),
            format!("{k}/2"),
        ]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = yolah(&args, "");
        assert!(output.status.success(), "{}", stderr(&output));
        parts.push(part.to_str().unwrap().to_string());
    }
    let mut merge = vec!["data", "merge", folder.to_str().unwrap()];
    merge.extend(parts.iter().map(String::as_str));
    let output = yolah(&merge, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let resume = [
        "learn",
        "--out",
        sharded.to_str().unwrap(),
        "--resume",
        "--threads",
        "1",
    ];
    let output = yolah(&resume, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("0 games this run (30 in all)"),
        "{}",
        stdout(&output)
    );
    assert_eq!(outcome(&sharded), outcome(&straight));
}

/// A tiny run of one generation into `dir`, finished: a test of 2 games, which cannot decide.
fn tiny_run(dir: &Path) {
    tiny_run_with(
        dir,
        &["--test-games", "2", "--gauntlet", "mcts:iterations=50"],
    );
}

/// One generation of 20 games at 50 nodes into `dir`, a 16,4 network, tested at 50 nodes,
/// with `extra` options; finished.
fn tiny_run_with(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "learn",
        "--out",
        dir.to_str().unwrap(),
        "--generations",
        "1",
        "--games",
        "20",
        "--nodes",
        "50",
        "--epochs",
        "1",
        "--hidden",
        "16,4",
        "--budget",
        "nodes=50",
    ];
    args.extend_from_slice(extra);
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    output
}

/// A run's files are checked when it resumes, and one that is not the run's is
/// refused with one line and left byte for byte — foreign contents in learn.json or
/// state.json, a state whose best network is no promoted generation's (it could name any
/// file), a config whose start is no network's name (said as the start's fault, not as
/// --nodes'). The test's verdict is one word in test.json and generations.csv
/// (`inconclusive`), and a state that says `undecided`, as runs did before, still reads.
#[test]
fn a_runs_files_are_checked_when_it_resumes_and_others_left_byte_for_byte() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    tiny_run(&dir);
    let table = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    assert!(table.contains(",inconclusive,false,"), "{table}");
    let tested = std::fs::read_to_string(dir.join("gen-001/test.json")).unwrap();
    assert!(tested.contains(r#""verdict":"inconclusive""#), "{tested}");

    let resume = ["learn", "--out", out, "--resume", "--generations", "2"];
    let refused = |file: &str, contents: &[u8], expected: &str| {
        let path = dir.join(file);
        let ours = std::fs::read(&path).unwrap();
        std::fs::write(&path, contents).unwrap();
        let untouched = Untouched::take(&path);
        let output = yolah(&resume, "");
        assert_clean_error(&output, expected);
        assert_one_line(&stderr(&output));
        untouched.assert();
        std::fs::write(&path, ours).unwrap();
    };
    for (_, contents) in foreign_files() {
        for file in ["learn.json", "state.json"] {
            refused(file, &contents, file);
        }
    }
    let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
    assert!(state.contains(r#""best": null"#), "{state}");
    for best in ["/etc/passwd", "gen-001/network.yolahnet", "learn.json"] {
        let forged = state.replace(r#""best": null"#, &format!(r#""best": "{best}""#));
        refused(
            "state.json",
            forged.as_bytes(),
            "is not the network of the run's last promoted generation",
        );
    }
    let config = std::fs::read_to_string(dir.join("learn.json")).unwrap();
    let forged = config.replace(r#""start": null"#, r#""start": "a,b.yolahnet""#);
    assert_ne!(forged, config);
    refused("learn.json", forged.as_bytes(), "start 'a,b.yolahnet'");
    let output = {
        std::fs::write(dir.join("learn.json"), &forged).unwrap();
        let output = yolah(&resume, "");
        std::fs::write(dir.join("learn.json"), &config).unwrap();
        output
    };
    assert!(!stderr(&output).contains("--nodes"), "{}", stderr(&output));

    // A state from before the one word reads, and the table says the word.
    std::fs::write(
        dir.join("state.json"),
        state.replace(r#""inconclusive""#, r#""undecided""#),
    )
    .unwrap();
    let output = yolah(&["learn", "--out", out, "--resume"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let table = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    assert!(table.contains(",inconclusive,false,"), "{table}");
}

/// A run made before the gauntlet (its learn.json and state.json without the gauntlet's
/// fields, no gauntlet.csv) resumes as it ran: no gauntlet, the test alone decides.
#[test]
fn a_run_made_before_the_gauntlet_resumes_without_one() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let args = run_args(&dir, 1);
    let output = yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));
    let strip = |file: &str, keys: &[&str]| {
        let path = dir.join(file);
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for key in keys {
            assert!(
                value.as_object_mut().unwrap().remove(*key).is_some(),
                "{key}"
            );
        }
        for record in value["records"].as_array_mut().into_iter().flatten() {
            let record = record.as_object_mut().unwrap();
            record.remove("gauntlet").unwrap();
            record.remove("gauntlet_seconds").unwrap();
        }
        std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    };
    strip("learn.json", &["gauntlet", "gauntlet_games"]);
    strip("state.json", &["gauntlet"]);
    std::fs::remove_file(dir.join("gauntlet.csv")).unwrap();
    let out = dir.to_str().unwrap();
    let output = yolah(
        &[
            "learn",
            "--out",
            out,
            "--resume",
            "--generations",
            "2",
            "--threads",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let state: State =
        serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).unwrap();
    let second = &state.records[1];
    assert_eq!(second.promoted, second.verdict == "H1", "{second:?}");
    assert_eq!(second.gauntlet, "");
    assert!(state.gauntlet.is_empty(), "{:?}", state.gauntlet);
    assert!(!dir.join("gen-002/gauntlet").exists());
    assert!(!dir.join("gauntlet.csv").exists());
    let config = std::fs::read_to_string(dir.join("learn.json")).unwrap();
    assert!(config.contains(r#""gauntlet": []"#), "{config}");
    eprintln!(
        "generation 2, without a gauntlet: {}, promoted {}",
        second.verdict, second.promoted
    );
}

#[test]
fn bad_options_are_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    for (extra, expected) in [
        (&["--generations", "0"][..], "--generations"),
        (&["--nodes", "0"], "--nodes"),
        (&["--hidden", "100"], "--hidden"),
        (
            &["--budget", "nodes=5,net=x.yolahnet"],
            "the networks are the run's",
        ),
        (&["--sprt", "elo0=1"], "--sprt"),
        (&["--games", "99999999999"], "--games"),
        (&["--start", "/nonexistent/net.yolahnet"], "--start"),
        (&["--gauntlet-games", "3"], "--gauntlet-games must be even"),
        (
            &["--gauntlet-games", "0"],
            "--gauntlet-games must be from 2",
        ),
        (&["--gauntlet", "chess"], "--gauntlet 'chess'"),
        (
            &["--gauntlet", "none", "--gauntlet", "mcts"],
            "--gauntlet none means no gauntlet",
        ),
        (
            &["--gauntlet", "minimax:net=/nonexistent/net.yolahnet"],
            "--gauntlet 'minimax:net=/nonexistent/net.yolahnet'",
        ),
        // The default gauntlet's MCTS takes no node limit: it must be given one.
        (&["--budget", "nodes=300"], "--gauntlet 'mcts'"),
        (
            &["--warm", "on", "--hidden", "32,8"],
            "--warm on starts each candidate from its parent, but the start network is a 193x512x32x1 network and --hidden/--buckets/--features ask for 193x32x8x1",
        ),
        (
            &["--learning-rate", "0"],
            "--learning-rate must be from 0.000001 to 1, not 0",
        ),
        (
            &["--exact-free", "33"],
            "--exact-free must be from 0 (none) to 32, not 33",
        ),
        (
            &["--exact-free", "0", "--exact-nodes", "5000"],
            "--exact-nodes is the solver's budget: it needs --exact-free above 0",
        ),
    ] {
        let mut args = vec!["learn", "--out", out];
        args.extend_from_slice(extra);
        assert_clean_error(&yolah(&args, ""), expected);
        assert!(!dir.exists(), "{extra:?} wrote {}", dir.display());
    }
    assert_clean_error(
        &yolah(&["learn", "--out", out, "--resume"], ""),
        "nothing to resume",
    );
    for extra in [
        ["--nodes", "5"],
        ["--gauntlet", "none"],
        ["--gauntlet-games", "4"],
        ["--warm", "on"],
        ["--learning-rate", "0.001"],
    ] {
        let mut args = vec!["learn", "--out", out, "--resume"];
        args.extend_from_slice(&extra);
        assert_clean_error(&yolah(&args, ""), "only --generations and --threads");
    }
    // A damaged state is refused with its file's name.
    std::fs::create_dir_all(&dir).unwrap();
    tiny_run(&dir);
    std::fs::write(dir.join("state.json"), "{ not json").unwrap();
    assert_clean_error(
        &yolah(&["learn", "--out", out, "--resume"], ""),
        "state.json is not a learning run's state",
    );
    // A second run into the same place is refused.
    assert_clean_error(&yolah(&["learn", "--out", out], ""), "add --resume");
}

/// Every file under `dir`, as it is now (each checked later to be left byte for byte).
fn snapshot(dir: &Path) -> Vec<Untouched> {
    walk(dir)
        .iter()
        .map(|p| Untouched::take(Path::new(p)))
        .collect()
}

/// On a full disk the run stops with one line saying so; a finished generation's files are
/// left byte for byte and nothing half-written lies beside them; with room again, --resume
/// ends where an uninterrupted run ends.
#[test]
fn a_full_disk_is_said_in_one_line_and_loses_no_generation() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let args = run_args(&straight, 2);
    let output = yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));

    let disk = SmallDisk::new(2 << 20);
    let dir = disk.path().join("run");
    let args = run_args(&dir, 1);
    let output = yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));
    let generation_1 = snapshot(&dir.join("gen-001"));
    // Little room left: the second generation runs out of it.
    disk.leave(96 * 1024);
    let resume = [
        "learn",
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--generations",
        "2",
        "--threads",
        "1",
    ];
    let output = yolah(&resume, "");
    assert!(!output.status.success(), "the run had room");
    let said = stderr(&output);
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
    assert_one_line(&errors.join("\n"));
    assert!(errors[0].contains("No space left on device"), "{said}");
    eprintln!("full: {}", errors[0]);
    for file in &generation_1 {
        file.assert();
    }
    let leftovers: Vec<String> = walk(&dir)
        .into_iter()
        .filter(|p| p.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "half-written: {leftovers:?}");
    disk.free();
    let output = yolah(&resume, "");
    assert!(output.status.success(), "{}", stderr(&output));
    for file in &generation_1 {
        file.assert();
    }
    assert_eq!(outcome(&dir), outcome(&straight));
}

/// A second writer into a running learning run — a resume, a new run, a phase's own command
/// into its folder — is refused with one line.
#[test]
fn a_second_writer_is_refused_with_one_line() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    let mut args = run_args(&dir, 1);
    let games = args.iter().position(|a| a == "--games").unwrap() + 1;
    args[games] = "1000000".to_string();
    let mut first = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let data = dir.join("gen-001").join("selfplay").join("data.bin");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !data.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let selfplay = dir.join("gen-001").join("selfplay");
    for args in [
        vec!["learn", "--out", out, "--resume"],
        vec!["learn", "--out", out, "--games", "20"],
        vec!["selfplay", "--out", selfplay.to_str().unwrap(), "--resume"],
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, "is in use by another run");
    }
    first.kill().unwrap();
    first.wait().unwrap();
}

/// `--warm on`: each candidate starts from its parent's weights (the run's start, then the
/// network last promoted) at the run's `--learning-rate`, as its training settings say.
#[test]
fn warm_candidates_start_from_their_parent() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let output = yolah(
        &[
            "selfplay",
            "minimax:nodes=100",
            "--games",
            "20",
            "--out",
            data.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let start = root.path().join("start.yolahnet");
    let output = yolah(
        &[
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            start.to_str().unwrap(),
            "--hidden",
            "32,8",
            "--epochs",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let dir = root.path().join("run");
    let mut args = run_args(&dir, 2);
    args.extend(
        [
            "--warm",
            "on",
            "--learning-rate",
            "0.0005",
            "--start",
            start.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let settings = |generation: &str| -> serde_json::Value {
        let path = dir.join(generation).join("network.train.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let first = settings("gen-001");
    assert_eq!(first["settings"]["learning_rate"], 0.0005);
    let absolute = std::path::absolute(&start).unwrap();
    assert_eq!(first["init"]["network"], absolute.to_str().unwrap());
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).unwrap();
    let parent = match state["records"][0]["promoted"].as_bool() {
        Some(true) => std::path::absolute(dir.join("gen-001/network.yolahnet")).unwrap(),
        _ => absolute,
    };
    assert_eq!(
        settings("gen-002")["init"]["network"],
        parent.to_str().unwrap(),
        "{state}"
    );
}

/// With a budget that repeats itself (a node limit), an opening played twice in one colour is
/// the same game twice: the test and the gauntlet play each opening once in each colour at
/// most, and say so.
#[test]
fn a_node_limited_test_plays_each_opening_once_a_colour() {
    let root = tempfile::tempdir().unwrap();
    let openings = root.path().join("two.txt");
    std::fs::write(
        &openings,
        "startpos moves e4:f4 e5:e8 f4:f6 d4:d2\nstartpos moves d5:a2 h1:c1 a2:a4 c1:e3\n",
    )
    .unwrap();
    let dir = root.path().join("run");
    let output = tiny_run_with(
        &dir,
        &[
            "--test-games",
            "100",
            "--sprt",
            "elo0=-700,elo1=-400,alpha=0.2,beta=0.2",
            "--gauntlet",
            "random",
            "--gauntlet-games",
            "10",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    assert!(
        stderr(&output).contains(
            "learn: the test plays at most 4 games, not 100: at nodes=50 the players repeat themselves, so each of the 2 openings is played once in each colour"
        ),
        "{}",
        stderr(&output)
    );
    let rows = |path: &Path| std::fs::read_to_string(path).unwrap().lines().count() - 1;
    assert!(rows(&dir.join("gen-001/test.csv")) <= 4);
    for file in std::fs::read_dir(dir.join("gen-001/gauntlet"))
        .into_iter()
        .flatten()
    {
        assert!(rows(&file.unwrap().path()) <= 4);
    }
}

//! The game-record writers — `--pgn FILE`, `match --out FILE` and a results directory's
//! `games.csv` — against the four enemies of every writer (`yolah_testkit::writers`): a kill
//! at any write, a full disk, a second writer, and a foreign or damaged file where ours is
//! expected; and `yolah replay` on a PGN file holding several runs.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yolah_ai::arena::pgn::{self, PgnGame};
use yolah_ai::arena::record::{GameRecord, RecordFile, Tail};
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random, with_enough_kills,
};

fn ok(args: &[&str]) -> String {
    let output = yolah(args, "");
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The games of a PGN file, which must read (a last block of ours cut short allowed).
fn pgn_games(path: &Path) -> Vec<PgnGame> {
    if !path.exists() {
        return Vec::new();
    }
    pgn::parse(&text(path))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .0
}

fn spawn(args: &[String], log: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_string()).collect()
}

// A file that is not ours where ours is expected — as `--pgn`, as the
// record file a match resumes, as a tournament's games.csv; directly or through a link — is
// refused with one line and left byte for byte.
#[test]
fn files_not_ours_are_refused_and_left_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let ours = path("ours.csv");
    ok(&[
        "match",
        "random",
        "random:seed=2",
        "-g",
        "2",
        "-o",
        ours.to_str().unwrap(),
    ]);
    let tournament = path("t");
    let t = tournament.to_str().unwrap();
    ok(&[
        "tournament",
        "random",
        "random:seed=2",
        "--games-per-pair",
        "2",
        "--out",
        t,
    ]);
    // Our record file, with or without its last newline, is foreign where a PGN file is
    // expected.
    let record = text(&ours);
    let mut cases: Vec<(&str, Vec<u8>, bool)> = foreign_files()
        .into_iter()
        .map(|(what, bytes)| (what, bytes, true))
        .collect();
    cases.push(("our record file", record.clone().into_bytes(), false));
    cases.push((
        "our record file without its last newline",
        record.trim_end().as_bytes().to_vec(),
        false,
    ));
    let mut refused = 0;
    for (what, bytes, foreign_csv) in cases {
        let file = path("file");
        std::fs::write(&file, &bytes).unwrap();
        let link = path("link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let before = Untouched::take(&file);
        for target in [&file, &link] {
            let target = target.to_str().unwrap();
            let play = ["match", "random", "random:seed=2", "-g", "2"];
            let as_pgn = yolah(&[&play[..], &["--pgn", target]].concat(), "");
            assert_clean_error(&as_pgn, "--pgn");
            before.assert();
            refused += 1;
            if foreign_csv {
                let resumed = yolah(&[&play[..], &["-o", target, "--resume"]].concat(), "");
                assert_clean_error(&resumed, "--resume");
                before.assert();
                refused += 1;
            }
        }
        if !foreign_csv {
            continue;
        }
        // As the games of a results directory, a copy and a link.
        let games = tournament.join("games.csv");
        let kept = std::fs::read(&games).unwrap();
        for link_it in [false, true] {
            std::fs::remove_file(&games).unwrap();
            if link_it {
                std::os::unix::fs::symlink(&file, &games).unwrap();
            } else {
                std::fs::write(&games, &bytes).unwrap();
            }
            let copy = Untouched::take(&games);
            let resumed = yolah(&["tournament", "--resume", "--out", t], "");
            assert_clean_error(&resumed, "games.csv");
            copy.assert();
            before.assert();
            refused += 1;
        }
        std::fs::remove_file(&games).unwrap();
        std::fs::write(&games, kept).unwrap();
        eprintln!("{what}: refused, untouched");
    }
    eprintln!("foreign files: {refused} refusals, every file left byte for byte");
}

// One run at a time writes a PGN file, as a results directory or a record
// file; the second is refused with one line and writes nothing.
#[test]
fn a_second_writer_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("shared.pgn");
    let csv = dir.path().join("first.csv");
    let log = dir.path().join("first.log");
    let first = [
        "match",
        "minimax:depth=1",
        "random",
        "-g",
        "1000",
        "-t",
        "1",
        "-o",
        csv.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    let mut running = spawn(&strings(&first), &log);
    let started = Instant::now();
    while !pgn.exists() || text(&pgn).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the first run starts"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let p = pgn.to_str().unwrap();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&pgn, &link).unwrap();
    for second in [
        vec!["match", "random", "random:seed=2", "-g", "2", "--pgn", p],
        vec![
            "match",
            "random",
            "random:seed=2",
            "-g",
            "2",
            "--pgn",
            link.to_str().unwrap(),
        ],
        vec![
            "tournament",
            "random",
            "random:seed=2",
            "--games-per-pair",
            "2",
            "--pgn",
            p,
        ],
    ] {
        assert_clean_error(&yolah(&second, ""), "is in use by another run");
    }
    let mut resume = first.to_vec();
    resume.push("--resume");
    assert_clean_error(&yolah(&resume, ""), "is in use by another run");
    running.kill().unwrap();
    running.wait().unwrap();
    // The lock went with its process: the file reads, and takes the next run's games.
    let before = pgn_games(&pgn).len();
    ok(&["match", "random", "random:seed=2", "-g", "2", "--pgn", p]);
    assert_eq!(pgn_games(&pgn).len(), before + 2);
}

// A last block that only starts with our first tags — a user's notes after
// `[Event "yolah match"]` and `[Site "yolah"]` — is refused and left byte for byte; a game of
// ours cut short is still cut, wherever the cut falls.
#[test]
fn a_last_block_that_only_starts_like_ours_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let p = pgn.to_str().unwrap();
    let run = ["match", "random", "random:seed=2", "-g", "2", "--pgn", p];
    ok(&run);
    let games = text(&pgn);
    let notes = format!(
        "{games}[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep me\"]\n\n{{{}",
        "my notes on the openings, kept for years\n".repeat(800)
    );
    std::fs::write(&pgn, &notes).unwrap();
    let before = Untouched::take(&pgn);
    let output = yolah(&run, "");
    assert_clean_error(&output, "--pgn");
    assert!(
        stderr(&output).contains("a tag Note where yolah writes Date"),
        "{}",
        stderr(&output)
    );
    before.assert();
    // Our first game whole, then our second cut short: cut, and the run's games added.
    let second = games[1..].find("[Event ").unwrap() + 1;
    let (first, block) = games.split_at(second);
    for at in [1, 30, block.len() / 2, block.trim_end().len() - 1] {
        std::fs::write(&pgn, format!("{first}{}", &block[..at])).unwrap();
        let output = yolah(&run, "");
        assert!(output.status.success(), "cut at {at}: {}", stderr(&output));
        assert!(stderr(&output).contains("cut short by an interruption"));
        let after = text(&pgn);
        assert!(after.starts_with(first), "cut at {at}");
        assert_eq!(pgn_games(&pgn).len(), 3, "cut at {at}");
    }
}

// A match or tournament refused for its `--pgn` file leaves nothing behind:
// no record file, no results folder; `--out` and `--pgn` naming one file are refused first.
#[test]
fn a_run_refused_for_its_pgn_file_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let play = ["match", "random", "random:seed=2", "-g", "2"];
    let same = path("same.csv");
    let s = same.to_str().unwrap();
    let output = yolah(&[&play[..], &["--out", s, "--pgn", s]].concat(), "");
    assert_clean_error(&output, "--out and --pgn name the same file");
    assert_eq!(output.status.code(), Some(2));
    // By another name: through a link to the folder.
    let link = path("link");
    std::os::unix::fs::symlink(dir.path(), &link).unwrap();
    let relative = link.join("same.csv");
    let relative = relative.to_str().unwrap();
    let output = yolah(&[&play[..], &["--out", s, "--pgn", relative]].concat(), "");
    assert_clean_error(&output, "--out and --pgn name the same file");
    assert!(!same.exists());
    // A PGN file that is not ours, with a new record file or a new results folder.
    let foreign = path("notes.pgn");
    std::fs::write(
        &foreign,
        "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep me\"]\n",
    )
    .unwrap();
    let before = Untouched::take(&foreign);
    let f = foreign.to_str().unwrap();
    let record = path("new.csv");
    let output = yolah(
        &[&play[..], &["--out", record.to_str().unwrap(), "--pgn", f]].concat(),
        "",
    );
    assert_clean_error(&output, "--pgn");
    let results = path("runs").join("t");
    let tournament = [
        "tournament",
        "random",
        "random:seed=2",
        "--games-per-pair",
        "2",
    ];
    let output = yolah(
        &[
            &tournament[..],
            &["--out", results.to_str().unwrap(), "--pgn", f],
        ]
        .concat(),
        "",
    );
    assert_clean_error(&output, "--pgn");
    before.assert();
    std::fs::remove_file(&link).unwrap();
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["notes.pgn"]);
}

/// Checks the files of a run that stopped: the record file reads whole (no damaged row), the
/// PGN file reads whole (no block cut short), and the PGN's games are the record file's games
/// in order, all of them or all but the last (the record file is written first). Returns the
/// records.
fn agree(csv: &Path, pgn: &Path) -> Vec<GameRecord> {
    let read = RecordFile::read(csv).unwrap();
    assert_eq!(read.tail, Tail::Clean, "{}", csv.display());
    let (games, cut) = pgn::parse(&text(pgn)).unwrap();
    assert_eq!(cut, None, "{}", pgn.display());
    assert!(
        games.len() == read.records.len() || games.len() + 1 == read.records.len(),
        "{} games in the PGN, {} in the record file",
        games.len(),
        read.records.len()
    );
    for (game, record) in games.iter().zip(&read.records) {
        assert_same(game, record);
    }
    read.records
}

fn assert_same(game: &PgnGame, record: &GameRecord) {
    let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    assert_eq!(game.tag("Game"), Some(record.game.to_string().as_str()));
    assert_eq!(moves.join(" "), record.moves, "game {}", record.game);
    assert_eq!(game.result, record.result, "game {}", record.game);
}

// The writers against a full disk: the error is said in one line, nothing written before is
// damaged or lost, and once there is room the run resumes to its end with every game in
// both files.
#[test]
fn a_full_disk_is_said_in_one_line_and_loses_nothing() {
    let disk = SmallDisk::new(512 * 1024);
    let on_disk = |name: &str| disk.path().join(name);
    // A match, then a gauntlet's results directory: each runs out of room half way.
    let pgn = on_disk("m.pgn");
    let csv = on_disk("m.csv");
    let (p, c) = (pgn.to_str().unwrap(), csv.to_str().unwrap());
    let t = on_disk("t");
    let t = t.to_str().unwrap();
    let tpgn = on_disk("t.pgn");
    let tp = tpgn.to_str().unwrap();
    let runs: [(Vec<&str>, PathBuf, PathBuf); 2] = [
        (
            vec![
                "match",
                "random",
                "random:seed=2",
                "-g",
                "120",
                "-t",
                "1",
                "-o",
                c,
                "--pgn",
                p,
            ],
            csv.clone(),
            pgn.clone(),
        ),
        (
            vec![
                "tournament",
                "--gauntlet",
                "random",
                "random:seed=2",
                "random:seed=3",
                "--games-per-pair",
                "60",
                "-t",
                "1",
                "--out",
                t,
                "--pgn",
                tp,
            ],
            on_disk("t").join("games.csv"),
            tpgn.clone(),
        ),
    ];
    for (args, csv, pgn) in runs {
        disk.leave(96 * 1024);
        let output = yolah(&args, "");
        assert!(!output.status.success(), "{args:?} had room");
        // One line says it (the others are the progress lines).
        let said = stderr(&output);
        let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
        assert_one_line(&errors.join("\n"));
        assert!(errors[0].contains("No space left on device"), "{said}");
        let kept = agree(&csv, &pgn);
        assert!(!kept.is_empty() && kept.len() < 120, "{}", kept.len());
        let (kept_csv, kept_pgn) = (std::fs::read(&csv).unwrap(), std::fs::read(&pgn).unwrap());
        disk.free();
        let mut resume = args.clone();
        if args[0] == "tournament" {
            resume = vec!["tournament", "--resume", "--out", t, "--pgn", tp];
        } else {
            resume.push("--resume");
        }
        ok(&resume);
        // Added to, never rewritten.
        assert!(std::fs::read(&csv).unwrap().starts_with(&kept_csv));
        assert!(std::fs::read(&pgn).unwrap().starts_with(&kept_pgn));
        let all = RecordFile::read(&csv).unwrap().records;
        let numbers: HashSet<u64> = all.iter().map(|r| r.game).collect();
        assert_eq!((all.len(), numbers.len()), (120, 120));
        let games = pgn_games(&pgn);
        assert_eq!(games.len(), 120);
        for (game, record) in games.iter().zip(&all) {
            assert_same(game, record);
        }
        eprintln!(
            "{}: full after {} games, resumed to 120, nothing lost",
            args[0],
            kept.len()
        );
    }
}

/// The games acknowledged before a kill: the last count a progress line printed
/// (`N games, …`, after both files are written), or the games a resumed run found.
fn acknowledged(log: &Path) -> usize {
    let mut count = 0;
    for line in std::fs::read_to_string(log).unwrap_or_default().lines() {
        let number = if let Some(rest) = line.strip_prefix("resuming: ") {
            rest.split(' ').next()
        } else if line.contains(" games, ") {
            line.split(' ').next()
        } else {
            None
        };
        if let Some(n) = number.and_then(|n| n.parse().ok()) {
            count = n;
        }
    }
    count
}

/// A run to kill: its command line in a folder (to start it with a number of games, or
/// resume it), the number of games it starts with, and where its record file is in that
/// folder.
struct Killable {
    args: fn(&Path, bool, u32) -> Vec<String>,
    games: u32,
    csv: fn(&Path) -> PathBuf,
}

/// The shortest a whole run may take for its kills to be many: a kill comes at least 30 ms
/// after a start, so on a fast machine a run of a fraction of a second ends after a few.
const LONG_ENOUGH: Duration = Duration::from_secs(2);

/// Plays the run once whole (the reference, which also times it; its games doubled until it
/// takes `LONG_ENOUGH`), then again in another
/// folder, killed (SIGKILL) again and again at random moments — between a fiftieth and a
/// sixth of the whole run's time after each start — and resumed. After each kill, checks that the
/// games acknowledged are in both files, whole, none twice, each the reference's game and the
/// PGN's each the record file's; then lets it finish and checks that both files hold every game
/// of the reference, once. Returns (kills, games checked).
fn kill_battery(root: &Path, seed: u64, run: &Killable) -> (usize, usize) {
    // The reference, its games doubled until it takes long enough on this machine.
    let mut games = run.games;
    let (whole, time) = loop {
        let whole = root.join(format!("whole-{games}"));
        std::fs::create_dir(&whole).unwrap();
        let started = Instant::now();
        ok(&(run.args)(&whole, false, games)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>());
        let time = started.elapsed();
        if time >= LONG_ENOUGH || games >= 64 * run.games {
            break (whole, time);
        }
        games *= 2;
    };
    let reference: BTreeMap<u64, GameRecord> = RecordFile::read(&(run.csv)(&whole))
        .unwrap()
        .records
        .into_iter()
        .map(|r| (r.game, r))
        .collect();
    with_enough_kills(5, |attempt| {
        let killed = root.join(format!("killed-{attempt}"));
        std::fs::create_dir(&killed).unwrap();
        killed_runs(&killed, seed, time / (1 << attempt), games, run, &reference)
    })
}

/// The killed half of `kill_battery`, in the fresh folder `killed`, its delays from `time`.
fn killed_runs(
    killed: &Path,
    seed: u64,
    time: Duration,
    games: u32,
    run: &Killable,
    reference: &BTreeMap<u64, GameRecord>,
) -> (usize, usize) {
    let (csv, pgn) = ((run.csv)(killed), killed.join("games.pgn"));
    let log = killed.join("run.log");
    let mut checked = 0;
    let mut most = 0;
    let from = (time / 50).max(Duration::from_millis(30));
    let kills = kill_at_random(
        16,
        seed,
        from..(time / 6).max(from * 2),
        |_| spawn(&(run.args)(killed, csv.exists(), games), &log),
        |k| {
            let acked = acknowledged(&log);
            if !csv.exists() {
                assert_eq!(acked, 0, "after kill {k}");
                return;
            }
            let read = RecordFile::read(&csv).unwrap_or_else(|e| panic!("after kill {k}: {e}"));
            let games = pgn_games(&pgn);
            let numbers: HashSet<u64> = read.records.iter().map(|r| r.game).collect();
            assert_eq!(numbers.len(), read.records.len(), "a game twice, kill {k}");
            assert!(
                read.records.len() >= acked,
                "kill {k}: lost acknowledged games"
            );
            assert!(
                games.len() >= acked,
                "kill {k}: the PGN lost acknowledged games"
            );
            for record in &read.records {
                assert_eq!(record.moves, reference[&record.game].moves, "kill {k}");
            }
            let by_number: BTreeMap<u64, &GameRecord> =
                read.records.iter().map(|r| (r.game, r)).collect();
            let mut in_pgn = HashSet::new();
            for game in &games {
                let number: u64 = game.tag("Game").unwrap().parse().unwrap();
                assert!(
                    in_pgn.insert(number),
                    "kill {k}: game {number} twice in the PGN"
                );
                let record = by_number
                    .get(&number)
                    .unwrap_or_else(|| panic!("kill {k}: game {number} only in the PGN"));
                assert_same(game, record);
            }
            checked += read.records.len() + games.len();
            most = most.max(read.records.len());
        },
    );
    ok(&(run.args)(killed, true, games)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    let all = RecordFile::read(&csv).unwrap().records;
    let numbers: HashSet<u64> = all.iter().map(|r| r.game).collect();
    assert_eq!(
        (all.len(), numbers.len()),
        (reference.len(), reference.len())
    );
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), reference.len());
    for game in &games {
        assert_same(
            game,
            &reference[&game.tag("Game").unwrap().parse::<u64>().unwrap()],
        );
    }
    assert!(most > 0, "{kills} kills, no game acknowledged at any");
    (kills, checked + 2 * reference.len())
}

// The writers against kill -9 at random moments: everything acknowledged is there after,
// nothing doubled, and the run resumes to the end with both files agreeing.
#[test]
fn kills_at_random_lose_nothing_acknowledged_in_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let run = Killable {
        args: |dir, resume, games| {
            let mut args = strings(&["match", "minimax:depth=1", "random", "-t", "1"]);
            args.extend([
                "-g".into(),
                games.to_string(),
                "-o".into(),
                dir.join("games.csv").display().to_string(),
                "--pgn".into(),
                dir.join("games.pgn").display().to_string(),
            ]);
            if resume {
                args.push("--resume".into());
            }
            args
        },
        games: 200,
        csv: |dir| dir.join("games.csv"),
    };
    let (kills, checked) = kill_battery(dir.path(), 42, &run);
    eprintln!("match: {kills} kills, {checked} games checked, nothing lost");
}

#[test]
fn kills_at_random_lose_nothing_acknowledged_in_a_gauntlet() {
    let dir = tempfile::tempdir().unwrap();
    let run = Killable {
        args: |dir, resume, games| {
            let out = dir.join("g").display().to_string();
            let pgn = dir.join("games.pgn").display().to_string();
            if resume {
                return strings(&["tournament", "--resume", "--out", &out, "--pgn", &pgn]);
            }
            strings(&[
                "tournament",
                "--gauntlet",
                "minimax:depth=1",
                "random",
                "random:seed=2",
                "--games-per-pair",
                &games.to_string(),
                "-t",
                "1",
                "--out",
                &out,
                "--pgn",
                &pgn,
            ])
        },
        games: 100,
        csv: |dir| dir.join("g").join("games.csv"),
    };
    let (kills, checked) = kill_battery(dir.path(), 7, &run);
    eprintln!("gauntlet: {kills} kills, {checked} games checked, nothing lost");
}

/// The `Run` tags of a PGN file, in order of first appearance.
fn runs(path: &Path) -> Vec<String> {
    let mut runs: Vec<String> = Vec::new();
    for game in pgn_games(path) {
        let run = game.tag("Run").unwrap().to_string();
        if !runs.contains(&run) {
            runs.push(run);
        }
    }
    runs
}

// `replay --game N` on a file of several runs: a new run adds all its
// games, even when the file holds the same command's; a game number in several runs is
// refused with one line that names them and says how to pick.
#[test]
fn runs_into_one_pgn_keep_all_their_games_and_replay_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("all.pgn");
    let p = pgn.to_str().unwrap();
    let play = |seed: &str| ok(&["match", "random", seed, "-g", "4", "--pgn", p]);
    play("random:seed=2");
    play("random:seed=2");
    assert_eq!(pgn_games(&pgn).len(), 8);
    // The same game twice (the same command, seeded the same) is one game to replay.
    let once = ok(&["replay", p, "--game", "1"]);
    assert!(once.starts_with("game 1: random:seed=2 (black)"), "{once}");
    play("random:seed=3");
    assert_eq!(pgn_games(&pgn).len(), 12);
    let [first, second] = &runs(&pgn)[..] else {
        panic!("two runs expected: {:?}", runs(&pgn));
    };
    let output = yolah(&["replay", p, "--game", "1"], "");
    assert_clean_error(&output, "--run");
    let said = stderr(&output);
    assert!(said.contains(first) && said.contains(second), "{said}");
    let picked = ok(&["replay", p, "--game", "1", "--run", second]);
    assert!(
        picked.starts_with("game 1: random:seed=3 (black)"),
        "{picked}"
    );
    assert_ne!(picked, once);
    assert_eq!(ok(&["replay", p, "--game", "1", "--run", first]), once);
    // Copies of one run that differ (the same command with players that vary): the copy is
    // picked by its rank.
    std::fs::write(&pgn, text(&pgn).replace(second.as_str(), first)).unwrap();
    let output = yolah(&["replay", p, "--game", "1", "--run", first], "");
    assert_clean_error(&output, &format!("--run {first}:K"));
    assert_eq!(
        ok(&["replay", p, "--game", "1", "--run", &format!("{first}:3")]),
        picked
    );
    assert_eq!(
        ok(&["replay", p, "--game", "1", "--run", &format!("{first}:1")]),
        once
    );
}

// A forged adjudication is refused by `replay`, with its line.
#[test]
fn replay_refuses_a_forged_adjudication() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("forged.pgn");
    let forged = "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Date \"2026.11.25\"]\n\
        [Round \"1\"]\n[Black \"a\"]\n[White \"b\"]\n[Result \"0-1\"]\n[Game \"0\"]\n\
        [Termination \"adjudication\"]\n[PlyCount \"2\"]\n\n\
        1. a1:c3 h1:f3 {adjudicated: proved final scores 2-40} 0-1\n\n";
    std::fs::write(&pgn, forged).unwrap();
    let output = yolah(&["replay", pgn.to_str().unwrap(), "--game", "0"], "");
    assert_clean_error(&output, "no proof");
    assert!(stderr(&output).contains("line 1"), "{}", stderr(&output));
    std::fs::write(
        &pgn,
        forged
            .replace("adjudication", "normal")
            .replace("\"2\"", "\"3\""),
    )
    .unwrap();
    let output = yolah(&["replay", pgn.to_str().unwrap(), "--game", "0"], "");
    assert_clean_error(&output, "PlyCount");
}

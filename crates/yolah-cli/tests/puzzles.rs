//! `yolah puzzles`: proven puzzles from game records (a record file and a PGN file of the
//! same games give the same puzzles), every line checked; and the writer against its four
//! enemies: killed at random and resumed it ends as a straight run does; a full disk is said
//! in one line and loses nothing; a second writer is refused; a foreign file is refused and
//! left as it was. Bad options are refused before anything is written.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use yolah_ai::puzzle::{Line, read_set};
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random,
};

/// 60 games of the tuned heuristic at 300 and 400 nodes a move from the shipped suite, as a record
/// file and a PGN file, made once for the tests of this file.
fn games() -> &'static (PathBuf, PathBuf) {
    static GAMES: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    GAMES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let csv = dir.join("games.csv");
        let pgn = dir.join("games.pgn");
        let suite = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../yolah-ai/data/openings-8ply.txt"
        );
        let output = yolah(
            &[
                "match",
                "minimax:nodes=300",
                "minimax:nodes=400",
                "--games",
                "60",
                "--openings",
                suite,
                "--threads",
                "1",
                "--out",
                csv.to_str().unwrap(),
                "--pgn",
                pgn.to_str().unwrap(),
            ],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        (csv, pgn)
    })
}

fn args(out: &Path, count: usize, games: &Path) -> Vec<String> {
    [
        "puzzles",
        "--count",
        &count.to_string(),
        "--out",
        out.to_str().unwrap(),
        games.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

fn run(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    yolah(&args, "")
}

fn resume(args: &[String]) -> Vec<String> {
    let mut args = args.to_vec();
    args.push("--resume".into());
    args
}

/// The ids of a puzzles file's puzzles, in order, each line checked.
fn ids(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    read_set(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .map(|p| p.puzzle.id)
        .collect()
}

/// A run over all the games without interruption into `dir`: its file and its puzzles' ids.
fn straight_run(dir: &Path, games: &Path) -> (PathBuf, Vec<String>) {
    let straight = dir.join("straight.jsonl");
    let output = run(&args(&straight, 1000, games));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("the games ran out before 1000"));
    let ids = ids(&straight);
    (straight, ids)
}

#[test]
fn puzzles_from_records_and_pgn_are_the_same_and_each_checks() {
    let (csv, pgn) = games();
    let root = tempfile::tempdir().unwrap();
    let from_csv = root.path().join("csv.jsonl");
    let output = run(&args(&from_csv, 8, csv));
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("puzzle 1 of 8: "), "{said}");
    let found = ids(&from_csv);
    assert!(!found.is_empty() && found.len() <= 8, "{said}");
    assert!(
        said.lines()
            .last()
            .unwrap()
            .starts_with(&format!("puzzles: {} in ", found.len())),
        "{said}"
    );
    // The header says how they were found; each puzzle names its game and ply.
    let text = std::fs::read_to_string(&from_csv).unwrap();
    let Ok(Line::Header(header)) = Line::parse(text.lines().next().unwrap()) else {
        panic!("{text}");
    };
    assert_eq!(header.settings, yolah_ai::puzzle::Settings::default());
    let puzzles = read_set(&text).unwrap();
    for puzzle in puzzles.iter().map(|p| &p.puzzle) {
        assert!(puzzle.source.contains(" game ") && puzzle.source.contains(" ply "));
        let position: yolah_core::Position = puzzle.position.parse().unwrap();
        assert!(64 - position.occupied().count() <= 20, "{puzzle:?}");
    }
    let from_pgn = root.path().join("pgn.jsonl");
    let output = run(&args(&from_pgn, 8, pgn));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        ids(&from_pgn),
        found,
        "the same games give the same puzzles"
    );
    // A larger count goes on with --resume to what a straight run finds.
    let (_, all) = straight_run(root.path(), csv);
    assert!(all.len() > found.len(), "{} puzzles in 60 games", all.len());
    let output = run(&resume(&args(&from_csv, 1000, csv)));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("going on"), "{}", stdout(&output));
    assert_eq!(ids(&from_csv), all);
}

#[test]
fn killed_at_random_it_resumes_to_a_straight_runs_end() {
    let (csv, _) = games();
    let root = tempfile::tempdir().unwrap();
    let (_, expected) = straight_run(root.path(), csv);
    let killed = root.path().join("killed.jsonl");
    let start = args(&killed, 1000, csv);
    let kills = kill_at_random(
        20,
        9,
        Duration::from_millis(5)..Duration::from_millis(150),
        |_| {
            let args = if killed.exists() {
                resume(&start)
            } else {
                start.clone()
            };
            Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        },
        |_| {
            // Whatever a kill left reads: a header first, every whole line ours; at most
            // the last cut short.
            let Ok(text) = std::fs::read_to_string(&killed) else {
                return;
            };
            let whole = text.rfind('\n').map_or("", |end| &text[..end]);
            for (k, line) in whole.lines().enumerate() {
                let parsed = Line::parse(line).unwrap_or_else(|e| panic!("line {k}: {e}"));
                assert_eq!(k == 0, matches!(parsed, Line::Header(_)), "{line}");
            }
        },
    );
    let output = run(&resume(&start));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(kills >= 5, "killed only {kills} times");
    assert_eq!(ids(&killed), expected, "after {kills} kills");
}

#[test]
fn a_full_disk_is_said_in_one_line_and_loses_nothing() {
    let (csv, _) = games();
    let root = tempfile::tempdir().unwrap();
    let (straight, expected) = straight_run(root.path(), csv);
    let size = std::fs::metadata(&straight).unwrap().len();
    // Room for one page of the tmpfs: less than the whole file.
    assert!(size > 4096, "{size} bytes");
    let disk = SmallDisk::new(64 * 1024);
    let out = disk.path().join("puzzles.jsonl");
    // No room even for the header: refused, and the file it made is gone.
    disk.leave(0);
    let output = run(&args(&out, 1000, csv));
    assert!(!output.status.success(), "the disk had room");
    assert_one_line(&stderr(&output));
    assert!(!out.exists(), "an empty file left behind");
    disk.free();
    disk.leave(4096);
    let start = args(&out, 1000, csv);
    let output = run(&start);
    assert!(!output.status.success(), "the disk had room");
    let said = stderr(&output);
    assert_one_line(&said);
    assert!(said.contains("No space left on device"), "{said}");
    // What it wrote reads, its last line whole.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'), "a half-written line");
    let part = ids(&out);
    assert_eq!(part[..], expected[..part.len()]);
    disk.free();
    let output = run(&resume(&start));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(ids(&out), expected);
}

#[test]
fn a_second_writer_is_refused_with_one_line() {
    let (csv, _) = games();
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("puzzles.jsonl");
    // A slow run: positions of 24 free squares proved, every move of each (a debug build takes
    // a second or more a game).
    let mut slow = args(&out, 1000, csv);
    slow.extend(["--free".to_string(), "24".to_string()]);
    let mut first = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(&slow)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = run(&resume(&slow));
    let _ = first.kill();
    let _ = first.wait();
    assert_clean_error(&output, "in use by another run");
}

#[test]
fn foreign_files_are_refused_and_left_as_they_are() {
    let (csv, _) = games();
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("puzzles.jsonl");
    let start = args(&out, 5, csv);
    for (name, contents) in foreign_files() {
        std::fs::write(&out, &contents).unwrap();
        let untouched = Untouched::take(&out);
        let output = run(&resume(&start));
        assert!(!output.status.success(), "{name} was taken");
        assert_one_line(&stderr(&output));
        assert!(!stderr(&output).contains("panicked"), "{name}");
        untouched.assert();
        // Without --resume an existing file is never written.
        assert_clean_error(&run(&start), "it exists");
        untouched.assert();
    }
    // Ours, made from other games or settings, is refused too.
    std::fs::remove_file(&out).unwrap();
    let output = run(&start);
    assert!(output.status.success(), "{}", stderr(&output));
    let untouched = Untouched::take(&out);
    let mut other = resume(&start);
    other.extend(["--free".into(), "19".into()]);
    assert_clean_error(&run(&other), "other games or settings");
    untouched.assert();
    // Ours, of version 1 (which counted copies of a game among the games read): served by
    // the board, but not resumed.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("{\"yolah_puzzles\":2,"), "{text}");
    std::fs::write(
        &out,
        text.replacen("\"yolah_puzzles\":2", "\"yolah_puzzles\":1", 1),
    )
    .unwrap();
    let untouched = Untouched::take(&out);
    assert_clean_error(&run(&resume(&start)), "a puzzles file of version 1");
    untouched.assert();
    assert!(yolah_ai::puzzle::read_set(&std::fs::read_to_string(&out).unwrap()).is_ok());
}

/// A bad game anywhere in the inputs is refused before the file is made (not hours in);
/// a hand-edited file with a puzzle twice, or more games read than given, is refused.
#[test]
fn bad_games_and_edited_files_are_refused_before_any_work() {
    let (csv, pgn) = games();
    let root = tempfile::tempdir().unwrap();
    let bad = root.path().join("bad.pgn");
    let mut text = std::fs::read_to_string(pgn).unwrap();
    text.push_str("\n[Event \"x\"]\n[Result \"*\"]\n\n1. zz:zz *\n");
    std::fs::write(&bad, text).unwrap();
    let out = root.path().join("puzzles.jsonl");
    let output = run(&args(&out, 5, &bad));
    assert!(!output.status.success());
    assert_one_line(&stderr(&output));
    assert!(!out.exists(), "made before the games were read");
    // Files with no finished game (empty, or a header alone) are refused as explorer build
    // refuses them, and nothing is made.
    let empty = root.path().join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    assert_clean_error(&run(&args(&out, 5, &empty)), "no finished game in");
    assert!(!out.exists(), "made for no game");
    // A puzzle twice.
    let output = run(&args(&out, 3, csv));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&out).unwrap();
    let second = text.lines().nth(1).unwrap();
    std::fs::write(&out, format!("{text}{second}\n")).unwrap();
    let untouched = Untouched::take(&out);
    assert_clean_error(&run(&resume(&args(&out, 5, csv))), "again");
    untouched.assert();
    // More games read than the inputs hold.
    let first = text.lines().next().unwrap();
    std::fs::write(&out, format!("{first}\n{{\"scanned\":99999}}\n")).unwrap();
    assert_clean_error(
        &run(&resume(&args(&out, 5, csv))),
        "the games given hold 60",
    );
}

#[test]
fn bad_options_are_refused_before_anything_is_written() {
    let (csv, _) = games();
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("puzzles.jsonl");
    let out_text = out.to_str().unwrap();
    let csv = csv.to_str().unwrap();
    for (options, expected) in [
        (
            vec!["--count", "0"],
            "--count must be from 1 to 100000, not 0",
        ),
        (
            vec!["--count", "5", "--free", "25"],
            "--free must be from 1 to 24",
        ),
        (
            vec!["--count", "5", "--nodes", "0"],
            "--nodes must be from 1",
        ),
        (
            vec!["--count", "5", "--length", "0"],
            "--length must be from 1 to 10",
        ),
    ] {
        let mut all = vec!["puzzles", "--out", out_text, csv];
        all.extend(options);
        assert_clean_error(&yolah(&all, ""), expected);
        assert!(!out.exists(), "{expected}: written");
    }
    let missing = root.path().join("missing.csv");
    assert_clean_error(
        &yolah(
            &[
                "puzzles",
                "--count",
                "5",
                "--out",
                out_text,
                missing.to_str().unwrap(),
            ],
            "",
        ),
        "cannot read",
    );
    assert!(!out.exists());
    assert_clean_error(
        &yolah(
            &[
                "puzzles", "--count", "5", "--out", out_text, csv, "--resume",
            ],
            "",
        ),
        "no such file to go on with",
    );
    // A directory in place of the file.
    assert_clean_error(
        &yolah(
            &[
                "puzzles",
                "--count",
                "5",
                "--out",
                root.path().to_str().unwrap(),
                csv,
            ],
            "",
        ),
        "not a regular file",
    );
}

//! `yolah explorer`: a database built from a match's record and PGN files
//! counts each position's moves as the games played them; bad input is refused in one line
//! and leaves nothing; its writer meets its four enemies.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yolah_ai::arena::record::RecordFile;
use yolah_testkit::writers::{
    SmallDisk, Untouched, foreign_files, kill_at_random, with_enough_kills,
};

fn ok(args: &[&str]) -> String {
    let output = yolah(args, "");
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A match of `games` random games into `dir`: its record file and its PGN file.
fn games(dir: &Path, games: u32) -> (PathBuf, PathBuf) {
    let (csv, pgn) = (dir.join("games.csv"), dir.join("games.pgn"));
    ok(&[
        "match",
        "random",
        "random:seed=2",
        "-g",
        &games.to_string(),
        "-t",
        "1",
        "-o",
        s(&csv),
        "--pgn",
        s(&pgn),
    ]);
    (csv, pgn)
}

/// Nothing of a refused build is left: neither the database nor its partial file.
fn nothing_left(db: &Path) {
    assert!(!db.exists(), "{} was written", db.display());
    let partial = yolah_ai::explorer::partial_path(db);
    assert!(!partial.exists(), "{} was left", partial.display());
}

#[test]
fn a_database_counts_the_moves_the_games_played() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, pgn) = games(dir.path(), 40);
    let db = dir.path().join("games.explorer");
    let said = ok(&["explorer", "build", s(&csv), s(&pgn), "--out", s(&db)]);
    assert!(
        said.starts_with("40 games (40 copies of games seen already left out) from 2 files: "),
        "each game once, though both files hold it: {said}"
    );
    // Each first move as often as the record file's games began with it.
    let records = RecordFile::read(&csv).unwrap().records;
    let mut first: BTreeMap<String, u64> = BTreeMap::new();
    let mut black_wins: BTreeMap<String, u64> = BTreeMap::new();
    for record in &records {
        let mv = record.moves.split(' ').next().unwrap().to_string();
        *first.entry(mv.clone()).or_default() += 1;
        if record.result == "1-0" {
            *black_wins.entry(mv).or_default() += 1;
        }
    }
    let json: Value = serde_json::from_str(&ok(&["explorer", s(&db), "--json"])).unwrap();
    assert_eq!(json["games"], 40);
    assert_eq!(json["side"], "black");
    let moves = json["moves"].as_array().unwrap();
    let counted: BTreeMap<String, u64> = moves
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counted, first);
    for m in moves {
        let name = m["move"].as_str().unwrap();
        assert_eq!(
            m["black"],
            black_wins.get(name).copied().unwrap_or(0),
            "{m}"
        );
        let games = m["games"].as_f64().unwrap();
        let score = (m["black"].as_f64().unwrap() + m["draws"].as_f64().unwrap() / 2.0) / games;
        assert!((m["score"].as_f64().unwrap() - score).abs() < 1e-9, "{m}");
    }
    // The most played first; the book's move marked where it was played.
    let games_of = |k: usize| moves[k]["games"].as_u64().unwrap();
    assert!((1..moves.len()).all(|k| games_of(k - 1) >= games_of(k)));
    // After a game's first two moves: that game (and any other that began so) is there.
    let record = &records[0];
    let two: Vec<&str> = record.moves.split(' ').take(2).collect();
    let after = format!("startpos moves {} {}", two[0], two[1]);
    let text = ok(&["explorer", s(&db), "-p", &after]);
    let third = record.moves.split(' ').nth(2).unwrap();
    assert!(text.lines().nth(1).unwrap().starts_with("move "), "{text}");
    assert!(
        text.lines().skip(2).any(|l| l.starts_with(third)),
        "{third} after {after}: {text}"
    );
    // A position no game reached: no move, and said so.
    let text = ok(&["explorer", s(&db), "-p", "startpos moves a1:a2 a8:a7 a2:a3"]);
    assert!(text.starts_with("0 games of 40 from "), "{text}");
    // --max-ply keeps the first plies only.
    let short = dir.path().join("short.explorer");
    ok(&[
        "explorer",
        "build",
        s(&csv),
        "--out",
        s(&short),
        "--max-ply",
        "1",
    ]);
    let text = ok(&["explorer", s(&short), "-p", &after]);
    assert!(text.starts_with("0 games of 40 "), "{text}");
}

#[test]
fn bad_input_is_refused_in_one_line_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 4);
    let db = dir.path().join("new.explorer");
    for (n, why) in [
        ("0", "--max-ply 0: from 1 to 200"),
        ("201", "from 1 to 200"),
    ] {
        let output = yolah(
            &[
                "explorer",
                "build",
                s(&csv),
                "--out",
                s(&db),
                "--max-ply",
                n,
            ],
            "",
        );
        assert_clean_error(&output, why);
        assert_eq!(output.status.code(), Some(2));
        nothing_left(&db);
    }
    // A file of neither kind, a missing file, a PGN with an illegal move: named, nothing
    // written.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes on the openings\n").unwrap();
    assert_clean_error(
        &yolah(
            &["explorer", "build", s(&csv), s(&notes), "--out", s(&db)],
            "",
        ),
        "notes.txt",
    );
    nothing_left(&db);
    assert_clean_error(
        &yolah(&["explorer", "build", "missing.csv", "--out", s(&db)], ""),
        "missing.csv",
    );
    nothing_left(&db);
    let illegal = dir.path().join("illegal.pgn");
    std::fs::write(
        &illegal,
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. a1:c3 a8:a1 1-0\n",
    )
    .unwrap();
    let output = yolah(&["explorer", "build", s(&illegal), "--out", s(&db)], "");
    assert_clean_error(&output, "illegal.pgn");
    nothing_left(&db);
    // Games without a result only: nothing to build, said so.
    let going = dir.path().join("going.pgn");
    std::fs::write(&going, "[Event \"x\"]\n[Result \"*\"]\n\n1. a1:c3 *\n").unwrap();
    let output = yolah(&["explorer", "build", s(&going), "--out", s(&db)], "");
    assert_clean_error(
        &output,
        "no finished game in this file: nothing to build (1 unfinished left out)",
    );
    nothing_left(&db);
    // Reading: a missing database, files that are not ours, a damaged one, a bad position.
    assert_clean_error(&yolah(&["explorer", "none.explorer"], ""), "none.explorer");
    for (what, bytes) in foreign_files() {
        let foreign = dir.path().join("foreign.explorer");
        std::fs::write(&foreign, &bytes).unwrap();
        let output = yolah(&["explorer", s(&foreign)], "");
        assert_clean_error(&output, "is not an explorer database");
        assert!(stderr(&output).contains("foreign.explorer"), "{what}");
    }
    let good = dir.path().join("good.explorer");
    ok(&["explorer", "build", s(&csv), "--out", s(&good)]);
    let mut bytes = std::fs::read(&good).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let damaged = dir.path().join("damaged.explorer");
    std::fs::write(&damaged, &bytes).unwrap();
    assert_clean_error(&yolah(&["explorer", s(&damaged)], ""), "checksum");
    assert_clean_error(
        &yolah(&["explorer", s(&good), "-p", "nonsense"], ""),
        "bad position",
    );
    assert_clean_error(&yolah(&["explorer"], ""), "missing <DB>");
}

// The four enemies of its writer.

#[test]
fn a_file_at_out_is_refused_and_left_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 4);
    let ours = dir.path().join("ours.explorer");
    ok(&["explorer", "build", s(&csv), "--out", s(&ours)]);
    let mut files: Vec<(String, Vec<u8>)> = foreign_files()
        .into_iter()
        .map(|(what, bytes)| (what.to_string(), bytes))
        .collect();
    files.push(("a database of ours".into(), std::fs::read(&ours).unwrap()));
    for (what, bytes) in files {
        let out = dir.path().join("taken.explorer");
        std::fs::write(&out, &bytes).unwrap();
        let before = Untouched::take(&out);
        let output = yolah(&["explorer", "build", s(&csv), "--out", s(&out)], "");
        assert_clean_error(&output, "exists");
        before.assert();
        assert!(
            !yolah_ai::explorer::partial_path(&out).exists(),
            "{what}: a partial file left"
        );
    }
}

#[test]
fn a_file_at_the_partial_name_that_is_not_ours_is_refused_and_left() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 4);
    // A user's file named as our partial file, given as an input too.
    let out = dir.path().join("foo");
    let partial = yolah_ai::explorer::partial_path(&out);
    std::fs::copy(&csv, &partial).unwrap();
    let before = Untouched::take(&partial);
    let output = yolah(&["explorer", "build", s(&partial), "--out", s(&out)], "");
    assert_clean_error(&output, "is in the way");
    before.assert();
    assert!(!out.exists());
    // A link there: refused, and what it points to left as it is.
    let kept = dir.path().join("keep.pgn");
    std::fs::write(&kept, "my games\n").unwrap();
    let linked = dir.path().join("x");
    std::os::unix::fs::symlink(&kept, yolah_ai::explorer::partial_path(&linked)).unwrap();
    let before = Untouched::take(&kept);
    let output = yolah(&["explorer", "build", s(&csv), "--out", s(&linked)], "");
    assert_clean_error(&output, "cannot write");
    before.assert();
    assert!(!linked.exists());
    // A broken link as --out is there all the same: refused, not replaced.
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("nowhere/x"), &dangling).unwrap();
    let output = yolah(&["explorer", "build", s(&csv), "--out", s(&dangling)], "");
    assert_clean_error(&output, "exists");
    assert!(
        dangling
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_second_writer_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 4);
    let db = dir.path().join("shared.explorer");
    // Another build holds the partial file's lock while it writes.
    let partial = yolah_ai::explorer::partial_path(&db);
    let held = std::fs::File::create(&partial).unwrap();
    held.lock().unwrap();
    let output = yolah(&["explorer", "build", s(&csv), "--out", s(&db)], "");
    assert_clean_error(&output, "is being written by another yolah explorer build");
    assert!(!db.exists());
    // Its lock gone (the build ended or was killed), the partial is written over.
    drop(held);
    ok(&["explorer", "build", s(&csv), "--out", s(&db)]);
    assert!(!partial.exists());
    assert!(ok(&["explorer", s(&db)]).starts_with("4 games of 4 "));
}

#[test]
fn a_full_disk_is_said_in_one_line_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 40);
    let disk = SmallDisk::new(64 * 1024);
    let db = disk.path().join("full.explorer");
    disk.leave(4096);
    let output = yolah(&["explorer", "build", s(&csv), "--out", s(&db)], "");
    assert_clean_error(&output, "No space left on device");
    nothing_left(&db);
    disk.free();
    ok(&["explorer", "build", s(&csv), "--out", s(&db)]);
    assert!(ok(&["explorer", s(&db)]).starts_with("40 games of 40 "));
}

#[test]
fn kills_at_random_leave_no_database_or_a_whole_one() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = games(dir.path(), 400);
    // The same file given many times: a build long enough to be killed often.
    let mut copies = 8;
    let args = |copies: usize, out: &Path| -> Vec<String> {
        let mut args = vec!["explorer".to_string(), "build".to_string()];
        args.extend(std::iter::repeat_n(s(&csv).to_string(), copies));
        args.extend(["--out".to_string(), s(out).to_string()]);
        args
    };
    let (reference, time) = loop {
        let reference = dir.path().join(format!("reference-{copies}.explorer"));
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_yolah"))
            .args(args(copies, &reference))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        let time = started.elapsed();
        if time >= Duration::from_secs(1) || copies >= 512 {
            break (std::fs::read(&reference).unwrap(), time);
        }
        copies *= 2;
    };
    let (kills, ()) = with_enough_kills(5, |attempt| {
        let db = dir.path().join(format!("killed-{attempt}.explorer"));
        let from = (time / (20 << attempt)).max(Duration::from_millis(10));
        let kills = kill_at_random(
            12,
            59 + u64::from(attempt),
            from..time.max(from * 2),
            |_| {
                Command::new(env!("CARGO_BIN_EXE_yolah"))
                    .args(args(copies, &db))
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            },
            |k| {
                // Either no database, or the whole one; never half of one. Then out of the
                // way for the next start (a whole one would be refused as existing).
                if db.exists() {
                    assert_eq!(std::fs::read(&db).unwrap(), reference, "kill {k}");
                    std::fs::remove_file(&db).unwrap();
                }
            },
        );
        (kills, ())
    });
    // After the kills, a build goes through, over the last one's partial file.
    let db = dir.path().join("after.explorer");
    let mut child: Child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args(copies, &db))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read(&db).unwrap(), reference);
    eprintln!("explorer build: {kills} kills, none left half a database");
}

/// The same file twice counts each game once; a last game cut short is left out with a word
/// (PGN and record files); a PGN file may start with a UTF-8 byte order mark.
#[test]
fn copies_and_cut_games_are_left_out_with_a_word_and_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, pgn) = games(dir.path(), 6);
    let db = dir.path().join("twice.explorer");
    let said = ok(&["explorer", "build", s(&pgn), s(&pgn), "--out", s(&db)]);
    assert!(
        said.starts_with("6 games (6 copies of games seen already left out) from 2 files"),
        "{said}"
    );
    // Cut inside the last game: PGN and CSV.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let last = text.rfind("[Event").unwrap();
    let cut_pgn = dir.path().join("cut.pgn");
    std::fs::write(&cut_pgn, &text[..last + 200]).unwrap();
    let rows = std::fs::read_to_string(&csv).unwrap();
    let cut_csv = dir.path().join("cut.csv");
    std::fs::write(&cut_csv, &rows[..rows.len() - 20]).unwrap();
    for cut in [&cut_pgn, &cut_csv] {
        let db = dir.path().join(format!("{}.explorer", cut.display()));
        let said = ok(&["explorer", "build", s(cut), "--out", s(&db)]);
        assert!(
            said.starts_with("5 games (1 game cut short at a file's end left out) from 1 file"),
            "{said}"
        );
    }
    // Its only game cut short: nothing to build, and the message says why.
    let first_cut = dir.path().join("first-cut.pgn");
    std::fs::write(&first_cut, &text[..200]).unwrap();
    let db = dir.path().join("none.explorer");
    let output = yolah(&["explorer", "build", s(&first_cut), "--out", s(&db)], "");
    assert_clean_error(&output, "(1 game cut short at a file's end left out)");
    // A record file whose header was cut short (killed as it was made) held no game: no
    // game is said to be cut short.
    let half = dir.path().join("half.csv");
    std::fs::write(&half, &rows[..15]).unwrap();
    let db = dir.path().join("half.explorer");
    let output = yolah(&["explorer", "build", s(&half), "--out", s(&db)], "");
    assert_clean_error(&output, "no finished game in this file: nothing to build");
    assert!(
        !stderr(&output).contains("cut short"),
        "{}",
        stderr(&output)
    );
    // A file of neither format: the game source names both, for every command that reads it.
    let neither = dir.path().join("notes.txt");
    std::fs::write(&neither, "my notes\n").unwrap();
    let db = dir.path().join("neither.explorer");
    let output = yolah(&["explorer", "build", s(&neither), "--out", s(&db)], "");
    assert_clean_error(&output, "is neither a PGN file");
    assert!(!db.exists());
    // A byte order mark before the first tag.
    let marked = dir.path().join("marked.pgn");
    std::fs::write(
        &marked,
        [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
    )
    .unwrap();
    let db = dir.path().join("marked.explorer");
    let said = ok(&["explorer", "build", s(&marked), "--out", s(&db)]);
    assert!(said.starts_with("6 games from 1 file"), "{said}");
    let replayed = ok(&["replay", s(&marked), "--game", "2"]);
    assert_eq!(replayed, ok(&["replay", s(&pgn), "--game", "2"]));
}

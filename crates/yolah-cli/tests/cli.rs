//! The `yolah` binary driven as a user would: outputs, exit codes, one-line errors.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::process::{Command, Stdio};

fn book_game(name: &str) -> String {
    let path = format!(
        "{}/../yolah-core/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let output = yolah(&["perft", "3"], "");
    assert!(output.status.success());
    assert_eq!(stdout(&output).lines().last(), Some("164512"));
    assert!(stderr(&output).contains("leaves/s"));
    let output = yolah(
        &[
            "perft",
            "2",
            "--position",
            "wx4xw/xx4xx/8/3bb3/3bb3/8/xx4xx/wx4xw b 6 6 12",
        ],
        "",
    );
    let one = yolah(
        &[
            "perft",
            "1",
            "--position",
            "wx4xw/xx4xx/8/3bb3/3bb3/8/xx4xx/wx4xw b 6 6 12",
        ],
        "",
    );
    assert_eq!(stdout(&output), stdout(&one), "white can only pass");
}

/// `-p` takes a position and moves from it, as opening suites and the engine
/// protocol write it (`startpos moves a1:c3`, or a notation then `moves …`), every command
/// alike; a bad move is said with its number.
#[test]
fn a_position_is_given_with_moves_from_it() {
    let after = "w6b/8/8/3bw3/3wb3/8/8/x1b4w w 1 0 1";
    let shown = |args: &[&str]| {
        let output = yolah(args, "");
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        stdout(&output)
    };
    let expected = shown(&["show", "-p", after]);
    assert_eq!(shown(&["show", "-p", "startpos moves a1:c1"]), expected);
    assert_eq!(
        shown(&[
            "show",
            "-p",
            "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0 moves a1:c1"
        ]),
        expected
    );
    assert_eq!(
        shown(&["moves", "-p", "startpos moves a1:c1"]),
        shown(&["moves", "-p", after])
    );
    let think = shown(&["think", "random", "-p", "startpos moves a1:c1 h1:h4"]);
    assert!(!think.is_empty());
    assert_eq!(
        shown(&["perft", "1", "-p", "startpos moves a1:c1"]),
        shown(&["perft", "1", "-p", after])
    );
    assert_clean_error(
        &yolah(&["show", "-p", "startpos moves a1:c1 a1:a2"], ""),
        "move 2 'a1:a2'",
    );
    assert_clean_error(
        &yolah(&["moves", "-p", "startpos a1:c1"], ""),
        "bad position",
    );
}

#[test]
fn moves_are_sorted_on_one_line() {
    let output = yolah(&["moves"], "");
    let line = stdout(&output);
    let moves: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(moves.len(), 56);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted);
    assert_eq!(line.lines().count(), 1);
    let walled = yolah(
        &[
            "moves",
            "-p",
            "wx4xw/xx4xx/8/3bb3/3bb3/8/xx4xx/wx4xw b 6 6 12",
        ],
        "",
    );
    assert!(stdout(&walled).contains("d4:"));
}

#[test]
fn replay_of_the_book_game_ends_24_32() {
    let output = yolah(&["replay", "-"], &book_game("book_game.txt"));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("score: black 24, white 32; game over"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.ends_with(" b 24 32 64"),
        "64 plies: black to move: {last}"
    );
    // The last line is a position the other commands accept.
    // A finished game has no moves (not even a pass), as replay has it.
    let moves = yolah(&["moves", "--position", last], "");
    assert!(moves.status.success());
    assert_eq!(stdout(&moves).trim(), "");
    assert!(stderr(&moves).contains("the game is over"));
}

#[test]
fn replay_stops_at_the_misprinted_pass() {
    let output = yolah(&["replay"], &book_game("book_game_printed.txt"));
    assert_clean_error(
        &output,
        "move 48 'a1:a1' (white to play) is illegal: white cannot pass",
    );
    assert!(
        stdout(&output).is_empty(),
        "nothing printed for a failed replay"
    );
}

#[test]
fn replay_reports_bad_moves_precisely() {
    assert_clean_error(
        &yolah(&["replay"], "a1:a2 h1:f3 e4g2"),
        "move 3: 'e4g2' is not a move",
    );
    assert_clean_error(
        &yolah(&["replay"], "a1:b3"),
        "a1:b3 does not follow a rank, file or diagonal",
    );
    assert_clean_error(
        &yolah(&["replay"], "d4:d3"),
        "d4 holds a white piece, not a black piece",
    );
    assert_clean_error(
        &yolah(&["replay"], "e4:c6"),
        "e4:c6 is blocked at d5 by a black piece",
    );
    assert_clean_error(
        &yolah(&["replay"], "a1:a2 a8:a1"),
        "a8:a1 is blocked at a2 by a black piece",
    );
    assert_clean_error(
        &yolah(&["replay"], "a1:a2 h1:a1"),
        "h1:a1 lands on a1, which holds a hole",
    );
    assert_clean_error(&yolah(&["replay"], "a1:a2 h1:a1"), "move 2");
    let finished = format!("{} a1:a1", book_game("book_game.txt"));
    assert_clean_error(
        &yolah(&["replay"], &finished),
        "the game is already over after ply 64",
    );
    assert_clean_error(
        &yolah(&["replay", "/no/such/file"], ""),
        "cannot read '/no/such/file'",
    );
}

#[test]
fn replay_from_a_position_with_comments() {
    let output = yolah(
        &["replay", "--position", "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0"],
        "# opening\na1:a2 # black\n",
    );
    assert!(output.status.success());
    assert_eq!(
        stdout(&output).lines().last(),
        Some("w6b/8/8/3bw3/3wb3/8/b7/x6w w 1 0 1")
    );
}

#[test]
fn replay_takes_a_one_game_pgn_as_review_does_and_names_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.pgn");
    std::fs::write(&one, "[Event \"x\"]\n[Game \"3\"]\n\n1. a1:b2 a8:b7 *\n").unwrap();
    let path = one.to_str().unwrap();
    let output = yolah(&["replay", path], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("game 3: ? (black) vs ? (white), *"),
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        Some("x6b/1w6/8/3bw3/3wb3/8/1b6/x6w b 1 1 2")
    );
    // The same game as --game 3 gives it.
    assert_eq!(stdout(&yolah(&["replay", path, "--game", "3"], "")), text);
    assert_clean_error(
        &yolah(&["replay", path, "-p", "startpos"], ""),
        "is a PGN file, whose games set their own start",
    );
    let two = dir.path().join("two.pgn");
    std::fs::write(&two, std::fs::read_to_string(&one).unwrap().repeat(2)).unwrap();
    assert_clean_error(
        &yolah(&["replay", two.to_str().unwrap()], ""),
        "holds more than one game: add --game N to pick one",
    );
    // A match's PGN cut inside its second game: the first is the file's one whole game, and
    // the cut one is said, read alone or asked for.
    let pgn = dir.path().join("m.pgn");
    let made = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "-g",
            "2",
            "--seed",
            "3",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert!(made.status.success(), "{}", stderr(&made));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let second = text[1..].find("[Event").unwrap() + 1;
    let cut = dir.path().join("cut.pgn");
    std::fs::write(&cut, &text[..second + 300]).unwrap();
    let cut = cut.to_str().unwrap();
    let output = yolah(&["replay", cut], "");
    assert!(output.status.success(), "{}", stderr(&output));
    // The games are written as they end: the whole one is game 0 or game 1.
    let whole = stdout(&output);
    let first: u32 = whole
        .strip_prefix("game ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{whole}"));
    assert!(first <= 1, "{whole}");
    assert!(
        stderr(&output).contains("skipped the last game"),
        "{}",
        stderr(&output)
    );
    let other = (1 - first).to_string();
    assert_clean_error(
        &yolah(&["replay", cut, "--game", &other], ""),
        &format!("has no game {other} (its last game, cut short"),
    );
    let neither = dir.path().join("notpgn.pgn");
    std::fs::write(&neither, "hello world\n").unwrap();
    let output = yolah(&["replay", neither.to_str().unwrap(), "--game", "0"], "");
    assert_clean_error(&output, "is neither a PGN file");
    assert_clean_error(
        &output,
        "nor a game record file (whose header starts `game,config,`)",
    );
}

#[test]
fn show_draws_the_board_with_the_reachable_squares() {
    let output = yolah(&["show"], "");
    let text = stdout(&output);
    assert!(output.status.success());
    let moves = stdout(&yolah(&["moves"], ""));
    let targets: std::collections::BTreeSet<&str> =
        moves.split_whitespace().map(|m| &m[3..]).collect();
    let board: String = text.lines().take(17).collect();
    assert_eq!(
        board.matches(" + |").count(),
        targets.len(),
        "one + per reachable square: {text}"
    );
    assert!(text.contains("black to move"));
    assert_eq!(text.lines().last(), Some(yolah_start()));
}

fn yolah_start() -> &'static str {
    "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0"
}

#[test]
fn random_games_report_rates() {
    let output = yolah(
        &[
            "random-games",
            "--games",
            "20000",
            "--seed",
            "5",
            "--threads",
            "2",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for label in ["black wins:", "white wins:", "draws:", "games/s"] {
        assert!(text.contains(label), "{text}");
    }
    let again = yolah(
        &[
            "random-games",
            "--games",
            "20000",
            "--seed",
            "5",
            "--threads",
            "1",
        ],
        "",
    );
    let results = |t: &str| {
        t.lines()
            .filter(|l| l.contains('%'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        results(&text),
        results(&stdout(&again)),
        "the seed fixes the results"
    );
}

#[test]
fn bad_input_is_one_clean_line_and_a_failure() {
    assert_clean_error(
        &yolah(&["moves", "--position", "nonsense"], ""),
        "expected 5 space-separated fields",
    );
    assert_clean_error(
        &yolah(&["show", "-p", "w6b/8/8/3bw3/3wb3/8/8/b6w w 0 0 0"], ""),
        "side to move is white but ply 0 is even",
    );
    assert_clean_error(&yolah(&["perft", "x"], ""), "invalid value 'x'");
    assert_clean_error(&yolah(&["perft", "99"], ""), "too deep");
    assert_clean_error(
        &yolah(&["random-games", "--games", "0"], ""),
        "--games must be from 1 to 100000000000, not 0",
    );
    assert_clean_error(
        &yolah(&["random-games", "--games", "10", "--threads", "0"], ""),
        "--threads must be from 1 to 1024, not 0",
    );
    assert_clean_error(
        &yolah(&["random-games", "--games", "10", "--path", "gpu"], ""),
        "--path 'gpu': expected avx512, avx2 or portable",
    );
    assert_clean_error(
        &yolah(&["bench", "--path", "gpu"], ""),
        "--path 'gpu': expected avx2 or portable",
    );
    assert_clean_error(
        &yolah(&["perft", "3", "--threads", "2000"], ""),
        "--threads must be from 1 to 1024, not 2000",
    );
    assert_clean_error(&yolah(&["frobnicate"], ""), "unrecognized subcommand");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["perft", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(!stderr(&output).contains("panicked"));
}

/// The symbols drawn on the boards of `text`, and its legend lines.
fn board_symbols(text: &str) -> (std::collections::BTreeSet<String>, Vec<&str>) {
    let symbols = text
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()) && line.contains(" |"))
        .flat_map(|line| line.split('|').skip(1))
        .map(|cell| cell.trim().to_string())
        .filter(|cell| !cell.is_empty())
        .collect();
    let legends = text.lines().filter(|l| l.starts_with("● black")).collect();
    (symbols, legends)
}

// Every symbol a board shows is in its legend, `.` included: in `show`,
// in `play` (with `+` on the reachable squares) and in `replay` (a finished game, no `+`).
#[test]
fn the_board_legend_explains_every_symbol_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.csv");
    let record = record.to_str().unwrap();
    let played = yolah(
        &["match", "random", "random:seed=2", "-g", "1", "-o", record],
        "",
    );
    assert!(played.status.success(), "{}", stderr(&played));
    for (args, input) in [
        (vec!["show", "-p", "startpos moves a1:b2 a8:b7"], ""),
        (vec!["play"], "quit\n"),
        (vec!["replay", record, "--game", "0"], ""),
    ] {
        let output = yolah(&args, input);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let text = stdout(&output);
        let (symbols, legends) = board_symbols(&text);
        assert!(
            symbols.len() >= 3 && !legends.is_empty(),
            "{args:?}: {text}"
        );
        for legend in legends {
            for symbol in &symbols {
                assert!(
                    legend.starts_with(&format!("{symbol} "))
                        || legend.contains(&format!("  {symbol} ")),
                    "{args:?}: {symbol} is not in the legend {legend:?}"
                );
            }
        }
    }
}

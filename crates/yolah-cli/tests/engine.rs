//! `yolah engine` as a program, and programs as players: our own engine driven through
//! `engine:cmd=…` in a match, and a deliberately broken engine (`tests/data/fake_engine.sh`)
//! that loses each game with the reason in the record.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::Path;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_yolah")
}

fn fake(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_engine.sh");
    format!(
        "engine:time=30ms,margin=100ms,cmd=sh {} {mode}",
        script.display()
    )
}

#[test]
fn the_engine_speaks_the_protocol_on_its_pipes() {
    let input = "yei\nisready\nposition startpos moves a1:c3\ngo movetime 30\nbogus\nquit\n";
    let output = yolah(&["engine", "--player", "mcts"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "id name Yolah");
    assert!(
        lines.contains(&"yeiok") && lines.contains(&"readyok"),
        "{text}"
    );
    let bestmoves: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(bestmoves.len(), 1, "{text}");
    // Quit may come before the search ends: the search is stopped, its move still given.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: unknown command 'bogus'")),
        "{text}"
    );
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));

    let output = yolah(&["engine", "--player", "mcts:depth=3"], "");
    assert_clean_error(&output, "mcts has no option 'depth'");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn our_engine_plays_a_match_as_an_external_program() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.csv");
    let spec = format!("engine:time=20ms,cmd={} engine --player mcts", binary());
    let output = yolah(
        &[
            "match",
            &spec,
            "random",
            "--games",
            "4",
            "--seed",
            "3",
            "--out",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    assert!(summary.contains("+4 =0 -0"), "MCTS beats random: {summary}");
    let records = std::fs::read_to_string(&file).unwrap();
    assert!(records.lines().next().unwrap().contains(",forfeit,"));
    // Every game played to its end: no forfeit, and each replays.
    for game in 0..4 {
        let output = yolah(
            &[
                "replay",
                file.to_str().unwrap(),
                "--game",
                &game.to_string(),
            ],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains("game over"), "{}", stdout(&output));
    }
    // `think` through the external program.
    let output = yolah(&["think", &spec, "--seed", "1"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("from '"), "{}", stdout(&output));
}

#[test]
fn a_broken_engine_loses_each_game_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, games, reason) in [
        ("illegal", 2, "bestmove 'a1:a1' is illegal"),
        ("silent", 2, "no move within 30ms + 100ms margin"),
        ("crash", 2, "the program exited (exit status: 3)"),
        (
            "garbage",
            2,
            "said 'I think therefore I am' instead of a move",
        ),
        ("mute", 1, "no 'yeiok' within 10s"),
    ] {
        let file = dir.path().join(format!("{mode}.csv"));
        let output = yolah(
            &[
                "match",
                &fake(mode),
                "random",
                "--games",
                &games.to_string(),
                "--seed",
                "5",
                "--out",
                file.to_str().unwrap(),
            ],
            "",
        );
        assert!(output.status.success(), "{mode}: {}", stderr(&output));
        let summary = stdout(&output);
        assert!(
            summary.contains(&format!("+0 =0 -{games}")),
            "{mode}: {summary}"
        );
        let records = std::fs::read_to_string(&file).unwrap();
        assert_eq!(records.lines().count(), games + 1, "{records}");
        for row in records.lines().skip(1) {
            assert!(row.contains(reason), "{mode}: {row}");
        }
        // The records read back: a forfeit is a legal end of a game.
        let output = yolah(&["replay", file.to_str().unwrap(), "--game", "0"], "");
        assert!(output.status.success(), "{mode}: {}", stderr(&output));
    }
    // Outside a match, the failure is the command's error.
    let output = yolah(&["think", &fake("crash")], "");
    assert_clean_error(&output, "cannot move: the program exited (exit status: 3)");
    let output = yolah(&["think", "engine:cmd=/no/such/program"], "");
    assert_clean_error(&output, "cannot start '/no/such/program'");
    // In `play`, the machine forfeits and the game ends.
    let output = yolah(
        &["play", "--black", &fake("garbage"), "--white", "random"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("game over: white wins by forfeit"),
        "{}",
        stdout(&output)
    );
}

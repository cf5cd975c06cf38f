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

/// The spec of our engine behind a shell that forks a long-lived helper, recording the
/// process ids in `pids`.
fn forking(pids: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/forking_engine.sh");
    format!(
        "engine:time=20ms,cmd=sh {} {} {}",
        script.display(),
        pids.display(),
        binary()
    )
}

fn assert_all_ended(pids: &Path) {
    yolah_testkit::assert_all_end(std::fs::read_to_string(pids).unwrap().lines());
}

// An engine's helpers end with its game, and with a match that is killed.
#[test]
fn an_engine_and_what_it_starts_end_with_the_game_and_with_a_killed_match() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let output = yolah(
        &[
            "match",
            &forking(&pids),
            "random",
            "--games",
            "4",
            "-t",
            "1",
            "-s",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let started = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(
        started.lines().count(),
        8,
        "two processes a game: {started}"
    );
    assert_all_ended(&pids);

    // A match stopped by a signal (`kill`, Ctrl-C) ends its engines on its way out.
    let killed = dir.path().join("killed");
    let mut child = std::process::Command::new(binary())
        .args([
            "match",
            &forking(&killed),
            "random",
            "--games",
            "400",
            "-t",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_to_string(&killed).map_or(0, |t| t.lines().count()) < 4 {
        assert!(std::time::Instant::now() < deadline, "the games start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert_all_ended(&killed);
}

/// `yolah engine` on pipes, for tests that watch the process while it runs.
struct Session {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Session {
    fn start() -> Session {
        let mut child = std::process::Command::new(binary())
            .args(["engine", "--player", "minimax"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.input.write_all(bytes).unwrap();
    }

    /// The next line that is not an `info` line other than an error.
    fn answer(&mut self) -> String {
        use std::io::BufRead;
        loop {
            let mut line = String::new();
            self.output.read_line(&mut line).unwrap();
            let line = line.trim_end().to_string();
            if !line.starts_with("info") || line.starts_with("info string error") {
                return line;
            }
        }
    }

    /// Every line up to and with the next `bestmove`.
    fn search(&mut self) -> Vec<String> {
        use std::io::BufRead;
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            self.output.read_line(&mut line).unwrap();
            lines.push(line.trim_end().to_string());
            if line.starts_with("bestmove") || line.is_empty() {
                return lines;
            }
        }
    }

    /// The most memory the process has held so far, MiB (its peak resident set).
    fn peak_mb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb / 1024
    }

    fn quit(mut self) {
        self.send(b"quit\n");
        assert!(self.child.wait().unwrap().success());
    }
}

// An over-long line is discarded as it comes, and a new player is
// built only once the old one is gone: the engine's memory stays flat.
#[test]
fn memory_stays_flat_under_long_lines_and_new_players() {
    let mut engine = Session::start();
    engine.send(b"isready\n");
    assert_eq!(engine.answer(), "readyok");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..400 {
        engine.send(&chunk);
    }
    engine.send(b"\nisready\n");
    assert_eq!(
        engine.answer(),
        "info string error: line longer than 65536 bytes"
    );
    assert_eq!(engine.answer(), "readyok");
    let after_line = engine.peak_mb();
    assert!(
        after_line < 100,
        "a 400 MiB line took the engine to {after_line} MiB"
    );
    // Tables of 256 MiB (the largest power of two in 300): the old one is dropped before the new one is made.
    engine.send(b"setoption name Hash value 300\nisready\n");
    assert_eq!(engine.answer(), "readyok");
    engine.send(b"newgame\nisready\n");
    assert_eq!(engine.answer(), "readyok");
    engine.send(b"setoption name Hash value 299\nisready\n");
    assert_eq!(engine.answer(), "readyok");
    let peak = engine.peak_mb();
    assert!(peak < 256 + 100, "two tables at once: {peak} MiB");
    engine.quit();
}

// The protocol follows the rules of the rest of the program: no move after
// the end of a game.
#[test]
fn no_move_is_accepted_after_the_end_of_a_game() {
    let over = "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64";
    let input = format!("position fen {over} moves a1:a1 a1:a1\nquit\n");
    let output = yolah(&["engine"], &input);
    assert!(
        stdout(&output)
            .contains("info string error: move 1 'a1:a1': the game is already over after ply 64"),
        "{}",
        stdout(&output)
    );
    // As `moves` lists nothing and `replay` refuses.
    assert_eq!(stdout(&yolah(&["moves", "-p", over], "")), "\n");
    let output = yolah(&["replay", "-p", over], "a1:a1");
    assert_clean_error(&output, "the game is already over");
}

// A program that cannot start is an error the user sees, not a quiet 0-2.
#[test]
fn a_program_that_never_ran_is_reported() {
    let missing = "engine:time=20ms,cmd=target/release/yolh engine";
    let output = yolah(&["match", "random", missing, "--games", "2"], "");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("never ran: cannot start 'target/release/yolh'"),
        "{err}"
    );
    // The match stops at the first game the program cannot start, with
    // no summary and no Elo of nothing.
    assert!(stdout(&output).is_empty(), "{}", stdout(&output));
    assert_eq!(err.lines().count(), 1, "{err}");
    // A tournament goes on, and names the player on stderr.
    let output = yolah(
        &[
            "tournament",
            "random",
            "random:seed=2",
            missing,
            "--games-per-pair",
            "2",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("forfeited all 4 games it played"),
        "{}",
        stderr(&output)
    );
    // In the terminal, the game ends with the reason and a non-zero exit.
    let output = yolah(&["play", "--black", missing, "--white", "random"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("never ran"), "{}", stderr(&output));
}

// `go wtime btime winc binc movestogo` (UCI's words): the side to move's time
// becomes its allotment (its time left over the moves to come), answered within it.
#[test]
fn a_clock_in_go_becomes_the_move_time() {
    let mut engine = Session::start();
    let time = |lines: &[String]| -> u64 {
        let last_info = lines.iter().rev().find(|l| l.contains(" time ")).unwrap();
        let rest = last_info.split(" time ").nth(1).unwrap();
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    // A fifth of black's 1000 ms (the default pace): 200 ms, of which minimax uses half or
    // more. (The upper bounds leave room for a machine busy with other tests: time limits
    // themselves are held to the millisecond by `yolah-ai`'s tests/time_limits.rs.)
    engine.send(b"position startpos\ngo wtime 60000 btime 1000 winc 0 binc 0\n");
    let lines = engine.search();
    assert!((90..=260).contains(&time(&lines)), "{lines:?}");
    // movestogo 4: a quarter of 300 ms, plus three quarters of the increment: 105 ms.
    engine.send(b"go btime 300 binc 40 movestogo 4 wtime 1\n");
    let lines = engine.search();
    assert!((45..=165).contains(&time(&lines)), "{lines:?}");
    engine.send(b"go wtime 5000\n");
    let lines = engine.search();
    assert_eq!(
        lines[0],
        "info string go has no btime for black, the side to move: no clock"
    );
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
    engine.quit();
}

//! The engine protocol's server, driven in this process through a pipe as a GUI would drive
//! `yolah engine`: the handshake, searches and their `info` lines, `isready` and `stop` while
//! searching, and bad lines that change nothing.

use std::io::{BufReader, Write};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use yolah_ai::Spec;
use yolah_ai::protocol::server;
use yolah_core::{Move, Position};

/// Collects what the engine writes, line by line.
struct Lines {
    sender: mpsc::Sender<String>,
    partial: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.partial)).unwrap();
                let _ = self.sender.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A running engine session: write commands, read answers.
struct Gui {
    input: std::io::PipeWriter,
    output: Receiver<String>,
    session: Option<std::thread::JoinHandle<()>>,
}

impl Gui {
    fn start(player: &str) -> Gui {
        let (reader, input) = std::io::pipe().unwrap();
        let (sender, output) = mpsc::channel();
        let spec: Spec = player.parse().unwrap();
        let session = std::thread::spawn(move || {
            let lines = Lines {
                sender,
                partial: Vec::new(),
            };
            server::serve(BufReader::new(reader), lines, spec).unwrap();
        });
        Gui {
            input,
            output,
            session: Some(session),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }

    /// The next line, waiting at most 10 s.
    fn line(&self) -> String {
        self.output
            .recv_timeout(Duration::from_secs(10))
            .expect("the engine answers")
    }

    /// Lines up to and including the first that starts with `word`.
    fn until(&self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Whether nothing is written for `wait`.
    fn silent_for(&self, wait: Duration) -> bool {
        self.output.recv_timeout(wait).is_err()
    }

    /// The move of a search: its lines up to `bestmove`, checked.
    fn search(&mut self, go: &str, position: &Position) -> (Move, Vec<String>) {
        self.send(go);
        self.bestmove(position)
    }

    /// The lines up to `bestmove`, and its move, checked.
    fn bestmove(&mut self, position: &Position) -> (Move, Vec<String>) {
        let lines = self.until("bestmove");
        let last = lines.last().unwrap();
        let mv: Move = last
            .strip_prefix("bestmove ")
            .unwrap()
            .parse()
            .unwrap_or_else(|e| panic!("{last}: {e}"));
        assert_eq!(position.check_move(mv), Ok(()), "{last} in {position}");
        (mv, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        self.session.take().unwrap().join().unwrap();
    }
}

#[test]
fn the_handshake_lists_the_options() {
    let mut gui = Gui::start("minimax");
    gui.send("yei");
    let lines = gui.until("yeiok");
    assert_eq!(lines[0], "id name Yolah");
    assert!(lines[1].starts_with("id version "), "{lines:?}");
    for option in ["Player type string", "Threads type spin", "Hash type spin"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option}"))),
            "{option}: {lines:?}"
        );
    }
    gui.send("isready");
    assert_eq!(gui.line(), "readyok");
    gui.quit();
}

#[test]
fn a_timed_search_reports_and_ends_with_one_bestmove() {
    let mut gui = Gui::start("minimax");
    gui.send("position startpos moves a1:c3");
    let mut position = Position::start();
    position.play("a1:c3".parse().unwrap());
    let start = Instant::now();
    let (mv, lines) = gui.search("go movetime 100", &position);
    let took = start.elapsed();
    // The search ends by itself; how close to its time is judged by tests/time_limits.rs,
    // which excuses what the kernel shows was the machine's load. A wide bound here, so that
    // other tests running beside this one cannot fail it.
    assert!(took < Duration::from_secs(2), "{took:?}");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 2, "{lines:?}");
    for info in &infos {
        for field in [
            " score margin ",
            " expect ",
            " nodes ",
            " nps ",
            " time ",
            " pv ",
        ] {
            assert!(info.contains(field), "{field} in {info}");
        }
    }
    // The last info's line starts with the move played.
    assert!(
        infos.last().unwrap().contains(&format!(" pv {mv}")),
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert!(
        gui.silent_for(Duration::from_millis(200)),
        "nothing after bestmove"
    );
    // Every player, with the limit it knows.
    for (player, go) in [
        ("mcts", "go iterations 2000"),
        ("montecarlo", "go iterations 2000"),
        ("random", "go"),
        ("minimax", "go depth 3"),
        ("minimax", "go nodes 5000"),
    ] {
        gui.send(&format!("setoption name Player value {player}"));
        let (_, lines) = gui.search(go, &position);
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{player}: {lines:?}"
        );
    }
    gui.quit();
}

#[test]
fn isready_and_stop_are_answered_while_searching() {
    for player in ["minimax", "mcts", "montecarlo"] {
        let mut gui = Gui::start(player);
        gui.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        gui.send("isready");
        let before = gui.until("readyok");
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{player}: {before:?}"
        );
        // Commands that need the player wait for the search to end.
        gui.send("position startpos moves a1:c3");
        assert!(gui.line().contains("a search is running"), "{player}");
        let start = Instant::now();
        gui.send("stop");
        gui.bestmove(&Position::start());
        // An infinite search ends on stop (a wide bound: the machine may be busy).
        assert!(start.elapsed() < Duration::from_secs(3), "{player}");
        // The position command above changed nothing: the next search is from the start.
        let (_, lines) = gui.search("go movetime 20", &Position::start());
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        gui.quit();
    }
}

#[test]
fn bad_lines_get_an_error_and_change_nothing() {
    let mut gui = Gui::start("minimax");
    let mut position = Position::start();
    position.play("a1:c3".parse().unwrap());
    gui.send("position startpos moves a1:c3");
    for (line, expected) in [
        ("hello", "unknown command 'hello'"),
        ("position startpos moves h1:h8", "move 1 'h1:h8'"),
        ("position fen 8/8/8 b 0 0 0", "bad position"),
        (
            "setoption name Player value mcts:depth=3",
            "mcts has no option 'depth'",
        ),
        ("setoption name Threads value 0", "from 1 to 256"),
        ("setoption name Hash value 99999", "from 1 to 16384"),
        ("setoption name Colour value red", "no option 'Colour'"),
        ("go movetime 0", "from 1 to 3600000"),
        ("go sideways", "go has no 'sideways'"),
        (&"x".repeat(70_000), "longer than"),
    ] {
        gui.send(line);
        let answer = gui.line();
        assert!(
            answer.starts_with("info string error: ") && answer.contains(expected),
            "{}: {answer}",
            &line[..line.len().min(40)]
        );
    }
    // Still minimax (the bad Player was refused), still after a1:c3 (the bad positions were).
    let (_, lines) = gui.search("go depth 2", &position);
    assert!(lines[0].starts_with("info depth 1"), "{lines:?}");
    gui.quit();
}

#[test]
fn options_limits_and_the_ends_of_a_game() {
    let mut gui = Gui::start("mcts");
    // A limit the player cannot honour is ignored, with a note; the search still happens.
    gui.send("go depth 3 movetime 30");
    let lines = gui.until("bestmove");
    assert_eq!(lines[0], "info string mcts ignores depth", "{lines:?}");
    gui.send("setoption name Player value random");
    gui.send("setoption name Hash value 64");
    assert_eq!(gui.line(), "info string random has no use for Hash");
    gui.send("setoption name player value minimax");
    gui.send("setoption name threads value 2");
    gui.send("setoption name HASH value 1");
    gui.send("newgame");
    gui.send("isready");
    assert_eq!(gui.line(), "readyok");
    // A finished game has no move; a side without a move passes at once.
    let over = "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64";
    gui.send(&format!("position fen {over}"));
    gui.send("go movetime 50");
    assert_eq!(gui.line(), "info string error: the game is over");
    assert_eq!(gui.line(), "bestmove none");
    // Black's four pieces walled in a corner.
    let pass: Position = "bbx5/bbx5/xxx5/8/8/8/8/wwww4 b 2 3 6".parse().unwrap();
    assert_eq!(pass.moves().as_slice(), [Move::PASS]);
    gui.send(&format!("position fen {pass}"));
    let (mv, _) = gui.search("go movetime 50", &pass);
    assert_eq!(mv, Move::PASS);
    gui.quit();
}

#[test]
fn the_end_of_input_ends_the_session() {
    let mut gui = Gui::start("mcts");
    gui.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let Gui { input, session, .. } = gui;
    drop(input);
    session.unwrap().join().unwrap();
}

// Every search player tells what it has found while it thinks, so a GUI (and the
// browser board) shows it live: `go infinite` is not silent until `stop`.
#[test]
fn every_search_player_reports_while_it_thinks() {
    for player in ["minimax", "mcts", "montecarlo"] {
        let mut gui = Gui::start(player);
        gui.send("go infinite");
        std::thread::sleep(Duration::from_millis(900));
        gui.send("stop");
        let (_, lines) = gui.bestmove(&Position::start());
        let infos = lines.iter().filter(|l| l.starts_with("info ")).count();
        // At least two reports before the final one.
        assert!(infos >= 3, "{player}: {lines:?}");
        gui.quit();
    }
}

/// The opening book answers timed moves only. `go infinite` searches until
/// `stop` and `go depth N` searches to depth N, even where the book has the position; a timed
/// move from the start is the book's.
#[test]
fn the_book_answers_timed_moves_and_analysis_searches() {
    let mut gui = Gui::start("minimax:eval=nn");
    let start = Position::start();
    gui.send("position startpos");
    let (_, timed) = gui.search("go movetime 50", &start);
    assert!(timed.iter().any(|l| l.contains("book")), "{timed:?}");

    gui.send("go infinite");
    // Still searching after a while: no bestmove until stop.
    assert!(
        gui.output
            .recv_timeout(Duration::from_millis(300))
            .is_ok_and(|l| !l.starts_with("bestmove")),
        "an infinite search reports and goes on"
    );
    gui.send("stop");
    let (_, infinite) = gui.bestmove(&start);
    assert!(!infinite.iter().any(|l| l.contains("book")), "{infinite:?}");
    assert!(
        infinite.iter().any(|l| l.contains(" depth ")),
        "{infinite:?}"
    );

    let (_, deep) = gui.search("go depth 3", &start);
    assert!(!deep.iter().any(|l| l.contains("book")), "{deep:?}");
    assert!(deep.iter().any(|l| l.contains("depth 3")), "{deep:?}");
    gui.quit();
}

/// An `engine:` player inside the engine that fails still gives a move (the
/// first legal one), and the GUI is told why in an `info string`.
#[test]
fn a_failing_inner_engine_says_why_its_move_is_a_replacement() {
    let mut gui = Gui::start("random");
    gui.send("setoption name Player value engine:time=20ms,cmd=/nonexistent/engine");
    let (_, lines) = gui.search("go", &Position::start());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string forfeit (cannot start")),
        "{lines:?}"
    );
    gui.quit();
}

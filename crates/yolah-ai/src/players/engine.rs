//! Another program as a player: it is started, spoken to in the engine protocol
//! (`docs/protocol.md`), and held to its time from our side. A program that crashes, hangs,
//! talks nonsense or sends an illegal move forfeits the game, with the reason.

use crate::limits::Limits;
use crate::player::{Forfeit, Player, Report};
use crate::protocol::info;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use yolah_core::text::quote;
use yolah_core::{Move, Position};

/// How long a program may take to start and answer `yei` and `isready`.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// The margin a program has past its move time when the spec sets none.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(200);
/// How long a search without a time limit (depth, nodes, iterations) may take.
pub const UNTIMED_CAP: Duration = Duration::from_mins(10);
/// The longest line read from a program.
const MAX_LINE: u64 = 64 * 1024;

/// A running program: its input, and its output lines as they come.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(command: &[String]) -> Result<Process, String> {
        let (program, arguments) = command.split_first().ok_or("an empty command")?;
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", quote(program)))?;
        let input = child.stdin.take().ok_or("no input pipe")?;
        let output = child.stdout.take().ok_or("no output pipe")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut bytes = Vec::new();
                match output.by_ref().take(MAX_LINE).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            input,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|_| self.gone())
    }

    /// Why the program no longer talks: its exit status if it has one.
    fn gone(&mut self) -> String {
        std::thread::sleep(Duration::from_millis(10));
        match self.child.try_wait() {
            Ok(Some(status)) => format!("the program exited ({status})"),
            _ => "the program closed its output".to_string(),
        }
    }

    /// The next line, by `deadline`.
    fn line(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }

    /// Reads until `expected`, by `deadline`, allowing `id`, `option` and `info` lines.
    fn expect(&mut self, expected: &str, deadline: Instant) -> Result<(), String> {
        loop {
            let Some(line) = self.line(deadline)? else {
                return Err(format!("no '{expected}' within {START_TIMEOUT:?}"));
            };
            let first = line.split_whitespace().next().unwrap_or("");
            match first {
                _ if first == expected => return Ok(()),
                "id" | "option" | "info" | "" => {}
                _ => return Err(format!("said {} before '{expected}'", quote(&line))),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A program speaking the engine protocol, started on its first move (once per game: each
/// game builds its own player) and stopped when the player is dropped.
pub struct Engine {
    command: Vec<String>,
    margin: Duration,
    process: Option<Process>,
}

impl Engine {
    /// The program `command` (program and arguments), given `margin` past each move time.
    pub fn new(command: Vec<String>, margin: Duration) -> Engine {
        Engine {
            command,
            margin,
            process: None,
        }
    }

    /// Starts the program and waits until it is ready (once).
    fn ready(&mut self) -> Result<&mut Process, String> {
        if self.process.is_none() {
            let mut process = Process::start(&self.command)?;
            let deadline = Instant::now() + START_TIMEOUT;
            process.send("yei")?;
            process.expect("yeiok", deadline)?;
            process.send("newgame")?;
            process.send("isready")?;
            process.expect("readyok", deadline)?;
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    fn play(&mut self, position: &Position, limits: Limits) -> Result<Report, String> {
        let margin = self.margin;
        let process = self.ready()?;
        process.send(&format!("position fen {position}"))?;
        let mut go = String::from("go");
        if let Some(time) = limits.time {
            let _ = write!(go, " movetime {}", time.as_millis().max(1));
        }
        if let Some(depth) = limits.depth {
            let _ = write!(go, " depth {depth}");
        }
        if let Some(nodes) = limits.nodes {
            let _ = write!(go, " nodes {nodes}");
        }
        if let Some(iterations) = limits.iterations {
            let _ = write!(go, " iterations {iterations}");
        }
        let start = Instant::now();
        process.send(&go)?;
        let allowed = limits.time.map_or(UNTIMED_CAP, |t| t + margin);
        let deadline = start + allowed;
        let mut report = Report::new(Move::PASS, Duration::ZERO);
        loop {
            let Some(line) = process.line(deadline)? else {
                let _ = process.send("stop");
                return Err(match limits.time {
                    Some(time) => format!("no move within {time:?} + {margin:?} margin"),
                    None => format!("no move within {allowed:?}"),
                });
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] | ["readyok"] => {}
                ["info", rest @ ..] => info::read(rest, &mut report),
                ["bestmove", text] => {
                    let mv: Move = text
                        .parse()
                        .map_err(|e| format!("bestmove {}: {e}", quote(text)))?;
                    position
                        .check_move(mv)
                        .map_err(|e| format!("bestmove {} is illegal: {e}", quote(text)))?;
                    report.mv = mv;
                    report.time = start.elapsed();
                    if report.pv.first() != Some(&mv) {
                        report.pv.clear();
                    }
                    report.detail = format!("from {}", quote(&self.command.join(" ")));
                    return Ok(report);
                }
                _ => return Err(format!("said {} instead of a move", quote(&line))),
            }
        }
    }
}

impl Player for Engine {
    /// For callers that cannot take a forfeit: a failing program's move is replaced by the
    /// first legal move, and the report says why.
    fn choose(&mut self, position: &Position, limits: Limits) -> Report {
        let start = Instant::now();
        self.try_choose(position, limits)
            .unwrap_or_else(|forfeit| Report {
                detail: format!(
                    "forfeit ({}); the first legal move played instead",
                    forfeit.reason
                ),
                ..Report::new(position.moves()[0], start.elapsed())
            })
    }

    fn try_choose(&mut self, position: &Position, limits: Limits) -> Result<Report, Forfeit> {
        self.play(position, limits).map_err(|reason| {
            // A program that failed once is not trusted again: the next move starts afresh.
            self.process = None;
            Forfeit { reason }
        })
    }
}

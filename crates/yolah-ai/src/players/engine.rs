//! Another program as a player: it is started, spoken to in the engine protocol
//! (`docs/protocol.md`), and held to its time from our side. A program that crashes, hangs,
//! talks nonsense or sends an illegal move forfeits the game, with the reason.
//!
//! Each program runs in a process group of its own, and the whole group is ended with the
//! game however the game ends (as cutechess and fastchess do): helpers a program forks die
//! with it, and the thread that reads its output ends with them. [`end_all`] ends every group
//! still running, for a command stopped by a signal.

use crate::limits::Limits;
use crate::options::{OptionInfo, Value, ValueKind};
use crate::player::{Forfeit, Player, PlayerInfo, Report, no_conflicts, small};
use crate::protocol::info;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use yolah_core::text::quote;
use yolah_core::{Color, Move, Position};

/// How a forfeit's reason starts when the program could not be started at all.
pub const CANNOT_START: &str = "cannot start";

/// How long a program may take to start and answer `yei` and `isready`.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// The margin a program has past its move time when the spec sets none.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(200);
/// How long a search without a time limit (depth, nodes, iterations) may take.
pub const UNTIMED_CAP: Duration = Duration::from_mins(10);
/// The longest line read from a program.
const MAX_LINE: u64 = 64 * 1024;
/// Lines read ahead of the game: past them the reader waits, and so does a program that
/// floods its output (the pipe fills), so its lines hold at most this many times
/// [`MAX_LINE`] of our memory.
const LINES_AHEAD: usize = 256;

/// The process groups of the programs running now, and whether the process is ending (then
/// no program is started any more).
static RUNNING: Mutex<(Vec<u32>, bool)> = Mutex::new((Vec::new(), false));

fn running() -> std::sync::MutexGuard<'static, (Vec<u32>, bool)> {
    RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Ends every program still running and everything it started, and starts none after: for a
/// command stopped by a signal (Ctrl-C, `kill`), before it exits.
pub fn end_all() {
    let mut running = running();
    running.1 = true;
    for &group in &running.0 {
        kill_group(group);
    }
}

/// Sends SIGKILL to the process group `group` (one that no longer exists is no error).
fn kill_group(group: u32) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: killpg takes plain integers and touches no memory of ours.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// A running program: its input, and its output lines as they come.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
}

impl Process {
    fn start(command: &[String]) -> Result<Process, String> {
        let (program, arguments) = command.split_first().ok_or("an empty command")?;
        let mut builder = Command::new(program);
        builder
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut builder, 0);
        // Registered while the lock is held, so end_all never misses a group being born.
        let mut groups = running();
        if groups.1 {
            return Err("the run is ending".to_string());
        }
        let mut child = builder
            .spawn()
            .map_err(|e| format!("{CANNOT_START} {}: {e}", quote(program)))?;
        groups.0.push(child.id());
        drop(groups);
        let input = child.stdin.take().ok_or("no input pipe")?;
        let output = child.stdout.take().ok_or("no output pipe")?;
        let (sender, lines) = mpsc::sync_channel(LINES_AHEAD);
        let reader = std::thread::spawn(move || {
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
            reader: Some(reader),
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

    /// The next line, by `deadline`: none once it has passed, however many lines wait (a
    /// program that floods its output still loses on time).
    fn line(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        let wait = deadline - now;
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }

    /// Reads until `expected`, by `deadline`, allowing `id`, `option` and `info` lines;
    /// returns the names of the options listed (`option name N type …`) and the first
    /// error reported (`info string error: …`).
    fn expect(&mut self, expected: &str, deadline: Instant) -> Result<Heard, String> {
        let mut heard = Heard::default();
        loop {
            let Some(line) = self.line(deadline)? else {
                return Err(format!("no '{expected}' within {START_TIMEOUT:?}"));
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [first, ..] if *first == expected => return Ok(heard),
                ["option", "name", rest @ ..] => {
                    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
                    heard.options.push(rest[..end].join(" "));
                }
                ["info", "string", "error:", ..] if heard.error.is_none() => {
                    heard.error = Some(line.trim().to_string());
                }
                [] | ["id" | "option" | "info", ..] => {}
                _ => return Err(format!("said {} before '{expected}'", quote(&line))),
            }
        }
    }
}

impl Drop for Process {
    /// `quit`, a moment to obey, then the whole process group is ended (helpers included),
    /// the program reaped, and the reader thread joined once the output pipe is closed.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let group = self.child.id();
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(5));
        }
        kill_group(group);
        let _ = self.child.wait();
        running().0.retain(|&g| g != group);
        // With the group gone nothing holds the pipe: the reader sees its end at once. A
        // program that left its group (setsid) could hold it still; the reader is then left
        // to end with that program rather than block the game.
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    if let Some(reader) = self.reader.take() {
                        let _ = reader.join();
                    }
                    return;
                }
                Err(RecvTimeoutError::Timeout) => return,
            }
        }
    }
}

/// What a program said while we waited for an answer.
#[derive(Default)]
struct Heard {
    /// The options it listed, by name.
    options: Vec<String>,
    /// The first error it reported.
    error: Option<String>,
}

/// A program speaking the engine protocol, started on its first move (once per game: each
/// game builds its own player) and stopped when the player is dropped.
pub struct Engine {
    command: Vec<String>,
    margin: Duration,
    send_clock: bool,
    options: Vec<(String, String)>,
    process: Option<Process>,
}

impl Engine {
    /// The program `command` (program and arguments), given `margin` past each move time.
    /// On a game clock, it is sent the clock (`go wtime … btime …`) when `send_clock`, else
    /// its move's share of it as a `movetime`.
    pub fn new(command: Vec<String>, margin: Duration, send_clock: bool) -> Engine {
        Engine {
            command,
            margin,
            send_clock,
            options: Vec::new(),
            process: None,
        }
    }

    /// This engine, sent `options` (name, value) after the handshake: `setoption name N
    /// value V` each, in order. A name the program does not list, or a value it reports an
    /// error for, keeps it from starting.
    #[must_use]
    pub fn with_options(mut self, options: Vec<(String, String)>) -> Engine {
        self.options = options;
        self
    }

    /// Starts the program and waits until it is ready (once).
    fn ready(&mut self) -> Result<&mut Process, String> {
        if self.process.is_none() {
            let mut process = Process::start(&self.command)?;
            let deadline = Instant::now() + START_TIMEOUT;
            let program = quote(&self.command.join(" "));
            process.send("yei")?;
            let listed = process.expect("yeiok", deadline)?.options;
            for (name, value) in &self.options {
                if !listed.iter().any(|l| l.eq_ignore_ascii_case(name)) {
                    return Err(format!(
                        "{CANNOT_START} {program}: it has no option {}; its options: {}",
                        quote(name),
                        if listed.is_empty() {
                            "none".to_string()
                        } else {
                            listed.join(", ")
                        }
                    ));
                }
                process.send(&format!("setoption name {name} value {value}"))?;
            }
            process.send("newgame")?;
            process.send("isready")?;
            if let Some(error) = process.expect("readyok", deadline)?.error {
                return Err(format!(
                    "{CANNOT_START} {program}: it refused its options: {error}"
                ));
            }
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    fn play(&mut self, position: &Position, limits: Limits) -> Result<Report, String> {
        let margin = self.margin;
        let clock = limits.clock.filter(|_| self.send_clock);
        let process = self.ready()?;
        process.send(&format!("position fen {position}"))?;
        let mut go = String::from("go");
        if let Some(clock) = clock {
            let ms = |d: Duration| d.as_millis();
            let (black, white) = match position.side_to_move() {
                Color::Black => (clock.left, clock.opponent_left),
                Color::White => (clock.opponent_left, clock.left),
            };
            let (binc, winc) = match position.side_to_move() {
                Color::Black => (clock.increment, clock.opponent_increment),
                Color::White => (clock.opponent_increment, clock.increment),
            };
            let _ = write!(
                go,
                " wtime {} btime {} winc {} binc {}",
                ms(white),
                ms(black),
                ms(winc),
                ms(binc)
            );
        } else if let Some(time) = limits.time {
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
        // On a clock the program may take all it has left (the arbiter judges); else its
        // move time and the margin.
        let allowed = match (clock, limits.time) {
            (Some(clock), _) => clock.left + margin,
            (None, Some(time)) => time + margin,
            (None, None) => UNTIMED_CAP,
        };
        let deadline = start + allowed;
        let mut report = Report::new(Move::PASS, Duration::ZERO);
        loop {
            let Some(line) = process.line(deadline)? else {
                let _ = process.send("stop");
                return Err(match (clock, limits.time) {
                    (Some(clock), _) => format!(
                        "lost on time: no move within its {:.3} s left + {margin:?} margin",
                        clock.left.as_secs_f64()
                    ),
                    (None, Some(time)) => format!("no move within {time:?} + {margin:?} margin"),
                    (None, None) => format!("no move within {allowed:?}"),
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
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        _progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        self.play(position, limits).map_err(|reason| {
            // A program that failed once is not trusted again: the next move starts afresh.
            self.process = None;
            Forfeit { reason }
        })
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "engine",
    about: "another program speaking the engine protocol (docs/protocol.md), started for each game",
    options: &[
        OptionInfo {
            name: "time",
            kind: ValueKind::Duration,
            default: "100ms if no depth, nodes or iterations",
            help: "move time sent with each go (movetime), enforced with the margin",
        },
        OptionInfo {
            name: "depth",
            kind: ValueKind::Depth,
            default: "none",
            help: "depth sent with each go",
        },
        OptionInfo {
            name: "nodes",
            kind: ValueKind::Count,
            default: "none",
            help: "nodes sent with each go",
        },
        OptionInfo {
            name: "iterations",
            kind: ValueKind::Count,
            default: "none",
            help: "iterations sent with each go",
        },
        OptionInfo {
            name: "clock",
            kind: ValueKind::Switch,
            default: "on",
            help: "on a game clock: send it (go wtime btime winc binc); off: send the move's \
                   share of it as movetime",
        },
        OptionInfo {
            name: "margin",
            kind: ValueKind::Duration,
            default: "200ms",
            help: "time allowed past the move time before the game is lost on time",
        },
        OptionInfo {
            name: "cmd",
            kind: ValueKind::Command,
            default: "required",
            help: "the program and its arguments: the rest of the spec, commas included",
        },
    ],
    seeded: true,
    build: |options, _| {
        let Some(Value::Command(command)) = options.value("cmd") else {
            unreachable!("a spec of the engine player has its command")
        };
        let margin = options.duration("margin").unwrap_or(DEFAULT_MARGIN);
        let send_clock = options.switch("clock") != Some(false);
        Box::new(
            Engine::new(command.clone(), margin, send_clock)
                .with_options(options.engine_options().to_vec()),
        )
    },
    check: no_conflicts,
    memory_mb: small,
};

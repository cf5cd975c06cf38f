//! The engine's side of the protocol (`yolah engine`): a loop over the GUI's lines, with the
//! search on its own thread so that `isready` and `stop` are answered while it thinks.

use super::command::{self, Command, Go};
use super::info;
use crate::limits::{Limits, StopFlag};
use crate::player::{Player, Report};
use crate::spec::Spec;
use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use yolah_core::{Color, Position};

/// The longest line read; longer ones are refused (and skipped to their end).
pub const MAX_LINE: usize = 64 * 1024;
/// The player of an engine that is told none.
pub use crate::catalogue::DEFAULT_PLAYER;

type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes `line` and a newline, then flushes. A GUI that has gone away makes writing fail;
/// the loop ends when its input does, so the error is not reported here.
fn say(output: &Output, line: &str) {
    let mut output = output
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = writeln!(output, "{line}");
    let _ = output.flush();
}

/// The options a GUI sets, and the player spec they make.
struct Options {
    player: Spec,
    threads: Option<u64>,
    hash: Option<u64>,
}

impl Options {
    /// The spec with `Threads` and `Hash` applied where the player has such options.
    fn spec(&self) -> Result<Spec, String> {
        let mut spec = self.player.clone();
        if let Some(threads) = self.threads
            && spec.has_option("threads")
        {
            spec = spec
                .with("threads", &threads.to_string())
                .map_err(|e| e.to_string())?;
        }
        if let Some(hash) = self.hash {
            for table in ["tt", "tree"] {
                if spec.has_option(table) {
                    spec = spec
                        .with(table, &hash.to_string())
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        Ok(spec)
    }
}

/// A search running on its own thread; it hands the player back when it ends.
struct Search {
    handle: JoinHandle<Box<dyn Player>>,
    /// Raised just before `bestmove` is written: from then on the GUI may send anything, and
    /// the session waits the few microseconds until the thread hands the player back.
    done: Arc<AtomicBool>,
}

/// One engine session.
struct Session {
    output: Output,
    options: Options,
    spec: Spec,
    /// The player, when no search holds it.
    player: Option<Box<dyn Player>>,
    position: Position,
    search: Option<Search>,
    stop: StopFlag,
}

impl Session {
    fn error(&self, why: &str) {
        say(&self.output, &format!("info string error: {why}"));
    }

    /// Waits for the running search, if any, to hand the player back.
    fn join(&mut self) {
        if let Some(search) = self.search.take() {
            if let Ok(player) = search.handle.join() {
                self.player = Some(player);
            } else {
                self.error("the search failed; the player is rebuilt");
                self.player = Some(self.fresh_player());
            }
            self.stop.lower();
        }
    }

    /// Whether a search is still running (one that has given its move is joined first).
    fn searching(&mut self) -> bool {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.done.load(Ordering::Acquire))
        {
            self.join();
        }
        self.search.is_some()
    }

    fn handle(&mut self, command: Command) {
        let busy = matches!(
            command,
            Command::SetOption { .. } | Command::NewGame | Command::Position(_) | Command::Go(_)
        );
        if busy && self.searching() {
            self.error("a search is running: send stop first");
            return;
        }
        match command {
            Command::Yei => self.identify(),
            Command::IsReady => say(&self.output, "readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => {
                // The old player (its table, its tree) goes before the new one is built.
                self.player = None;
                self.player = Some(self.fresh_player());
            }
            Command::Position(position) => self.position = position,
            Command::Go(go) => self.go(go),
            Command::Stop => {
                if self.search.is_some() {
                    self.stop.raise();
                    self.join();
                }
            }
            Command::Quit => {}
        }
    }

    fn identify(&self) {
        say(&self.output, "id name Yolah");
        say(
            &self.output,
            &format!("id version {}", env!("CARGO_PKG_VERSION")),
        );
        say(
            &self.output,
            &format!("option name Player type string default {DEFAULT_PLAYER}"),
        );
        say(
            &self.output,
            "option name Threads type spin default 1 min 1 max 256",
        );
        say(
            &self.output,
            &format!(
                "option name Hash type spin default {} min 1 max 16384",
                crate::players::minimax::DEFAULT_TT_MB
            ),
        );
        say(&self.output, "yeiok");
    }

    /// A new player (a seed from the spec if it sets one, else a random one).
    fn fresh_player(&self) -> Box<dyn Player> {
        self.spec.player(rand::random())
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let number = |low: u64, high: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (low..=high).contains(n))
                .ok_or_else(|| {
                    format!("{name} must be a whole number from {low} to {high}, not {value}")
                })
        };
        let mut options = Options {
            player: self.options.player.clone(),
            ..self.options
        };
        let changed = match name.to_ascii_lowercase().as_str() {
            "player" => value
                .parse::<Spec>()
                .map(|spec| options.player = spec)
                .map_err(|e| format!("Player {}: {e}", yolah_core::text::quote(value))),
            "threads" => number(1, 256).map(|n| options.threads = Some(n)),
            "hash" => number(1, 16_384).map(|n| options.hash = Some(n)),
            _ => Err(format!(
                "no option {}; options: Player, Threads, Hash",
                yolah_core::text::quote(name)
            )),
        };
        match changed.and_then(|()| options.spec()) {
            Ok(spec) => {
                let ignored = match name.to_ascii_lowercase().as_str() {
                    "threads" => !spec.has_option("threads"),
                    "hash" => !spec.has_option("tt") && !spec.has_option("tree"),
                    _ => false,
                };
                if ignored {
                    say(
                        &self.output,
                        &format!("info string {} has no use for {name}", spec.name()),
                    );
                }
                self.options = options;
                self.spec = spec;
                self.player = None;
                self.player = Some(self.fresh_player());
            }
            Err(why) => self.error(&why),
        }
    }

    /// The limits of a `go`: those the player honours, else its spec's defaults. A clock
    /// (`wtime`/`btime` of the side to move) becomes the move's time by the player's
    /// allotment, capped by a `movetime` or the spec's own time.
    fn limits(&self, go: Go) -> Limits {
        let mut limits = Limits {
            stop: Some(self.stop),
            ..Limits::default()
        };
        let side = self.position.side_to_move();
        let clock = go.clock(side);
        if clock.is_none() && (go.wtime.is_some() || go.btime.is_some()) {
            let word = match side {
                Color::Black => "btime",
                Color::White => "wtime",
            };
            say(
                &self.output,
                &format!("info string go has no {word} for {side}, the side to move: no clock"),
            );
        }
        let asked = [
            ("time", "movetime", go.movetime.is_some()),
            ("time", "wtime/btime", clock.is_some()),
            ("depth", "depth", go.depth.is_some()),
            ("nodes", "nodes", go.nodes.is_some()),
            ("iterations", "iterations", go.iterations.is_some()),
        ];
        for (option, word, given) in asked {
            if given && !self.spec.has_option(option) {
                say(
                    &self.output,
                    &format!("info string {} ignores {word}", self.spec.name()),
                );
            }
        }
        let honoured = |option: &str| self.spec.has_option(option);
        limits.time = go.movetime.filter(|_| honoured("time"));
        limits.depth = go.depth.filter(|_| honoured("depth"));
        limits.nodes = go.nodes.filter(|_| honoured("nodes"));
        limits.iterations = go.iterations.filter(|_| honoured("iterations"));
        let clock = clock.filter(|_| honoured("time") && !go.infinite);
        let none = limits.time.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.iterations.is_none()
            && clock.is_none();
        if none && !go.infinite {
            return Limits {
                stop: Some(self.stop),
                ..self.spec.limits()
            };
        }
        match clock {
            Some(clock) => limits.on_clock(
                clock,
                &self.position,
                limits.time.or(self.spec.explicit_time()),
                self.spec.pace(),
            ),
            None => limits,
        }
    }

    fn go(&mut self, go: Go) {
        if self.position.game_over() {
            self.error("the game is over");
            say(&self.output, "bestmove none");
            return;
        }
        let limits = self.limits(go);
        let mut player = self.player.take().unwrap_or_else(|| self.fresh_player());
        let position = self.position;
        let output = Arc::clone(&self.output);
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let handle = std::thread::spawn(move || {
            let report: Report = player.choose_observed(&position, limits, &mut |report| {
                for line in info::lines(report) {
                    say(&output, &line);
                }
            });
            for line in info::lines(&report) {
                say(&output, &line);
            }
            if report.detail.starts_with("forfeit (") {
                // A player that failed (an `engine:` program): the move is a replacement,
                // and the GUI is told why.
                say(&output, &format!("info string {}", report.detail));
            }
            finished.store(true, Ordering::Release);
            say(&output, &format!("bestmove {}", report.mv));
            player
        });
        self.search = Some(Search { handle, done });
    }
}

/// Reads lines into a channel on a thread of its own, so the session can take `stop` while
/// it searches. A line too long or not UTF-8 comes through as an error; the end of input
/// closes the channel.
fn read_lines(mut input: impl BufRead + Send + 'static) -> mpsc::Receiver<Result<String, String>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let mut bytes = Vec::new();
            let read = input
                .by_ref()
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut bytes);
            let line = match read {
                Ok(0) | Err(_) => break,
                Ok(_) if bytes.len() > MAX_LINE && !bytes.ends_with(b"\n") => {
                    drop(bytes);
                    if !skip_line(&mut input) {
                        break;
                    }
                    Err(format!("line longer than {MAX_LINE} bytes"))
                }
                Ok(_) => String::from_utf8(bytes)
                    .map(|text| text.trim_end_matches(['\n', '\r']).to_string())
                    .map_err(|_| "line is not UTF-8 text".to_string()),
            };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Discards input up to and including the next newline, without keeping it: memory stays
/// flat however long the line. False at the end of input or on an error.
fn skip_line(input: &mut impl BufRead) -> bool {
    loop {
        let (found, len) = match input.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, buffer.len()),
            },
        };
        input.consume(len);
        if found {
            return true;
        }
    }
}

/// Runs an engine session until `quit` or the end of input: commands from `input`, answers
/// to `output`. `player` is the `Player` option to start with.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    player: Spec,
) -> io::Result<()> {
    let output: Output = Arc::new(Mutex::new(output));
    let options = Options {
        player,
        threads: None,
        hash: None,
    };
    let spec = options.spec().map_err(io::Error::other)?;
    let mut session = Session {
        output,
        options,
        spec,
        player: None,
        position: Position::start(),
        search: None,
        stop: StopFlag::new(),
    };
    for line in read_lines(input) {
        match line.and_then(|line| command::parse(&line)) {
            Ok(Some(Command::Quit)) => break,
            Ok(Some(command)) => session.handle(command),
            Ok(None) => {}
            Err(why) => session.error(&why),
        }
    }
    if session.search.is_some() {
        session.stop.raise();
        session.join();
    }
    Ok(())
}

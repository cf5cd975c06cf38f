//! The GUI's side of the protocol: one line to one [`Command`], a pure function.

use crate::clock::Clock;
use std::time::Duration;
use yolah_core::text::quote;
use yolah_core::{Color, ParseLineError, Position, PositionLine};

/// The longest `go movetime`, in milliseconds: an hour, as for a spec's `time`.
pub const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The deepest `go depth`, as for a spec's `depth`.
pub const MAX_DEPTH: u32 = 127;

/// A command from the GUI (see `docs/protocol.md`).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `yei`: identify and list the options.
    Yei,
    /// `isready`.
    IsReady,
    /// `setoption name N value V`, the name as written.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (possibly with spaces).
        value: String,
    },
    /// `newgame`.
    NewGame,
    /// `position …`: the position after the moves, already checked.
    Position(Position),
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
}

/// The limits of a `go`; all `None` (and not infinite): the player's defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `movetime`.
    pub movetime: Option<Duration>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `iterations`.
    pub iterations: Option<u64>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// `wtime`: white's time left.
    pub wtime: Option<Duration>,
    /// `btime`: black's time left.
    pub btime: Option<Duration>,
    /// `winc`: white's increment.
    pub winc: Option<Duration>,
    /// `binc`: black's increment.
    pub binc: Option<Duration>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u32>,
}

impl Go {
    /// The clock of `side` (the side to move), if the `go` gives its time left.
    pub fn clock(&self, side: Color) -> Option<Clock> {
        let (own, increment, other, other_increment) = match side {
            Color::Black => (self.btime, self.binc, self.wtime, self.winc),
            Color::White => (self.wtime, self.winc, self.btime, self.binc),
        };
        own.map(|left| Clock {
            left,
            increment: increment.unwrap_or_default(),
            opponent_left: other.unwrap_or(left),
            opponent_increment: other_increment.unwrap_or_default(),
            moves_to_go: self.movestogo,
        })
    }
}

/// The most time left a `go wtime`/`btime` may give, in milliseconds: a day.
pub const MAX_CLOCK_MS: u64 = 86_400_000;
/// The largest `go movestogo`.
pub const MAX_MOVES_TO_GO: u64 = 1000;

/// Reads one line. An empty line is `Ok(None)`; an error says why, in one line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let bare = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(format!("'{first}' takes no arguments"))
        }
    };
    match first {
        "yei" => bare(Command::Yei),
        "isready" => bare(Command::IsReady),
        "newgame" => bare(Command::NewGame),
        "stop" => bare(Command::Stop),
        "quit" => bare(Command::Quit),
        "setoption" => set_option(&rest).map(Some),
        "position" => position(&rest).map(|p| Some(Command::Position(p))),
        "go" => go(&rest).map(|g| Some(Command::Go(g))),
        _ => Err(format!(
            "unknown command {}; commands: yei, isready, setoption, newgame, position, go, stop, quit",
            quote(first)
        )),
    }
}

fn set_option(words: &[&str]) -> Result<Command, String> {
    const USAGE: &str = "usage: setoption name <N> value <V>";
    if words.first() != Some(&"name") {
        return Err(format!("setoption needs 'name'; {USAGE}"));
    }
    let value_at = words
        .iter()
        .position(|w| *w == "value")
        .ok_or_else(|| format!("setoption needs 'value'; {USAGE}"))?;
    let name = words[1..value_at].join(" ");
    let value = words[value_at + 1..].join(" ");
    if name.is_empty() {
        return Err(format!("setoption has no option name; {USAGE}"));
    }
    if value.is_empty() {
        return Err(format!(
            "setoption name {} has no value; {USAGE}",
            quote(&name)
        ));
    }
    Ok(Command::SetOption { name, value })
}

fn position(words: &[&str]) -> Result<Position, String> {
    const USAGE: &str = "usage: position startpos|fen <notation> [moves <m1> …]";
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i..]),
        None => (words, &[][..]),
    };
    let notation = match setup.split_first() {
        Some((&"startpos", [])) => "startpos".to_string(),
        Some((&"startpos", _)) => return Err(format!("startpos takes nothing more; {USAGE}")),
        Some((&"fen", notation)) if !notation.is_empty() => notation.join(" "),
        Some((&"fen", _)) => return Err(format!("fen needs a position; {USAGE}")),
        _ => return Err(USAGE.to_string()),
    };
    // The position and its moves, read as the command line's --position reads them.
    format!("{notation} {}", moves.join(" "))
        .parse::<PositionLine>()
        .map(|line| line.position())
        .map_err(|error| match error {
            ParseLineError::Position(e) => format!("bad position: {e}"),
            error @ ParseLineError::Move { .. } => error.to_string(),
        })
}

fn go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if word == "infinite" {
            go.infinite = true;
            continue;
        }
        let value = |words: &mut std::slice::Iter<&str>| {
            words
                .next()
                .map(ToString::to_string)
                .ok_or_else(|| format!("go {word} needs a number"))
        };
        let number = |text: String, low: u64, high: u64| {
            text.parse::<u64>()
                .ok()
                .filter(|n| (low..=high).contains(n))
                .ok_or_else(|| {
                    format!(
                        "go {word} {}: expected a whole number from {low} to {high}",
                        quote(&text)
                    )
                })
        };
        match word {
            "movetime" => {
                let ms = number(value(&mut words)?, 1, MAX_MOVETIME_MS)?;
                go.movetime = Some(Duration::from_millis(ms));
            }
            "depth" => {
                go.depth = Some(number(value(&mut words)?, 1, u64::from(MAX_DEPTH))? as u32);
            }
            "wtime" | "btime" | "winc" | "binc" => {
                let high = if word.ends_with("inc") {
                    MAX_MOVETIME_MS
                } else {
                    MAX_CLOCK_MS
                };
                let time = Some(Duration::from_millis(number(value(&mut words)?, 0, high)?));
                match word {
                    "wtime" => go.wtime = time,
                    "btime" => go.btime = time,
                    "winc" => go.winc = time,
                    _ => go.binc = time,
                }
            }
            "movestogo" => {
                go.movestogo = Some(number(value(&mut words)?, 1, MAX_MOVES_TO_GO)? as u32);
            }
            "nodes" => go.nodes = Some(number(value(&mut words)?, 1, u64::MAX)?),
            "iterations" => go.iterations = Some(number(value(&mut words)?, 1, u64::MAX)?),
            _ => {
                return Err(format!(
                    "go has no {}; it takes wtime, btime, winc, binc, movestogo, movetime, depth, \
                     nodes, iterations, infinite",
                    quote(word)
                ));
            }
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn commands_parse() {
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(ok("yei"), Command::Yei);
        assert_eq!(ok(" isready \r"), Command::IsReady);
        assert_eq!(
            ok("setoption name Player value mcts:c=0.5,threads=2"),
            Command::SetOption {
                name: "Player".into(),
                value: "mcts:c=0.5,threads=2".into()
            }
        );
        assert_eq!(
            ok("position startpos"),
            Command::Position(Position::start())
        );
        let mut after = Position::start();
        after.play("a1:c3".parse().unwrap());
        assert_eq!(
            ok("position startpos moves a1:c3"),
            Command::Position(after)
        );
        assert_eq!(
            ok(&format!("position fen {after}")),
            Command::Position(after)
        );
        assert_eq!(
            ok("go movetime 100 depth 3 nodes 5 iterations 7 infinite"),
            Command::Go(Go {
                movetime: Some(Duration::from_millis(100)),
                depth: Some(3),
                nodes: Some(5),
                iterations: Some(7),
                infinite: true,
                ..Go::default()
            })
        );
        assert_eq!(ok("go"), Command::Go(Go::default()));
        assert_eq!(
            ok("go wtime 9000 btime 8000 winc 100 binc 50 movestogo 20"),
            Command::Go(Go {
                wtime: Some(Duration::from_secs(9)),
                btime: Some(Duration::from_secs(8)),
                winc: Some(Duration::from_millis(100)),
                binc: Some(Duration::from_millis(50)),
                movestogo: Some(20),
                ..Go::default()
            })
        );
        assert_eq!(
            ok("go btime 0"),
            Command::Go(Go {
                btime: Some(Duration::ZERO),
                ..Go::default()
            })
        );
    }

    #[test]
    fn bad_lines_say_why() {
        for (line, expected) in [
            ("hello", "unknown command 'hello'"),
            ("yei now", "takes no arguments"),
            ("setoption Player value x", "needs 'name'"),
            ("setoption name Player", "needs 'value'"),
            ("setoption name value 3", "no option name"),
            ("setoption name Hash value", "has no value"),
            ("position", "usage: position"),
            ("position startpos a1:c3", "startpos takes nothing more"),
            ("position fen", "fen needs a position"),
            ("position fen 8/8 b 0 0 0", "bad position"),
            ("position startpos moves a1:a1", "move 1 'a1:a1'"),
            ("position startpos moves a1:c3 e4:e9", "move 2 'e4:e9'"),
            ("go movetime", "needs a number"),
            ("go movetime 0", "from 1 to 3600000"),
            ("go movetime -5", "expected a whole number"),
            ("go wtime", "needs a number"),
            ("go btime 86400001", "from 0 to 86400000"),
            ("go winc -1", "expected a whole number"),
            ("go movestogo 0", "from 1 to 1000"),
            ("go depth 200", "from 1 to 127"),
            ("go nodes x", "expected a whole number"),
            ("go mate 3", "go has no 'mate'"),
        ] {
            let error = parse(line).expect_err(line);
            assert!(error.contains(expected), "{line}: {error}");
            assert!(!error.contains('\n'), "{line}: {error}");
        }
    }
}

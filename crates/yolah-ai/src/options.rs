//! The vocabulary of player options, below every player: the kinds of value an option takes,
//! how each is parsed and checked, the options several players share, and [`Options`], the
//! checked values a player is built from. Players, clocks and limits import this; it imports
//! none of them.

use crate::eval::Weights;
use crate::eval::network::Network;
use std::sync::Arc;
use std::time::Duration;

/// The type of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A duration with its unit: `250us`, `100ms`, `1.5s` (at most an hour).
    Duration,
    /// A whole number ≥ 1.
    Count,
    /// A thread count, 1 to 256.
    Threads,
    /// A finite real number ≥ 0.
    Real,
    /// A real number from 0 to 1.
    Fraction,
    /// A real number from 0 to 100 (a search's constants).
    Constant,
    /// Any whole number from 0 to 2^64 − 1.
    Seed,
    /// A search depth in plies, 1 to 127.
    Depth,
    /// A table size in MiB, 1 to 16384.
    Megabytes,
    /// A whole percentage, 1 to 100.
    Percent,
    /// A number of lines to show (multi-PV), 1 to 16.
    Lines,
    /// A number of free squares, 0 to 32 (0: never).
    FreeSquares,
    /// The path of a weights file (JSON, see `yolah_ai::eval::weights`).
    WeightsFile,
    /// The path of a network file (`docs/network-format.md`).
    NetworkFile,
    /// The path of a policy-value network file (`.yolahpv`, the `alphazero` player's).
    PolicyValueFile,
    /// An evaluation: `heuristic` or `nn`.
    Evaluation,
    /// `on` or `off`.
    Switch,
    /// A command line: the rest of the spec, commas and spaces included, split into words as
    /// a shell would (quotes group words). Always the last option of a spec.
    Command,
    /// A whole number from `min` to `max`, a search's constant that a tuner moves by `step`
    /// (`yolah players --tunable`, `yolah tune`).
    Tunable {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
        /// How far a tuner's perturbation moves it, at first.
        step: u64,
    },
}

impl ValueKind {
    /// How a value of this kind is written, for error messages and `yolah players`.
    pub fn expected(self) -> std::borrow::Cow<'static, str> {
        let text = match self {
            ValueKind::Tunable { min, max, .. } => {
                return format!("a whole number from {min} to {max}").into();
            }
            ValueKind::Duration => {
                "a duration with a unit (us, ms, s, min, h), like 250us, 100ms or 1.5s, at most 1h"
            }
            ValueKind::Count => "a whole number of at least 1",
            ValueKind::Threads => "a thread count from 1 to 256",
            ValueKind::Real => "a real number of at least 0, like 1.4",
            ValueKind::Fraction => "a real number from 0 to 1, like 0.25",
            ValueKind::Constant => "a real number from 0 to 100, like 1.5",
            ValueKind::Seed => "a whole number from 0 to 18446744073709551615",
            ValueKind::Depth => "a depth in plies from 1 to 127",
            ValueKind::Megabytes => "a size in MiB from 1 to 16384",
            ValueKind::Percent => "a whole percentage from 1 to 100",
            ValueKind::Lines => "a number of lines from 1 to 16",
            ValueKind::FreeSquares => "a number of free squares from 0 (never) to 32",
            ValueKind::WeightsFile => "the path of a weights file",
            ValueKind::NetworkFile => "the path of a network file",
            ValueKind::PolicyValueFile => "the path of a policy-value network file (.yolahpv)",
            ValueKind::Evaluation => "heuristic or nn",
            ValueKind::Switch => "on or off",
            ValueKind::Command => {
                "a command line, last in the spec (quotes group words), like cmd=yolah engine"
            }
        };
        text.into()
    }

    /// Whether a value of this kind names a file to read (never allowed from a web page).
    pub fn is_file(self) -> bool {
        matches!(
            self,
            ValueKind::WeightsFile | ValueKind::NetworkFile | ValueKind::PolicyValueFile
        )
    }

    /// Whether its values keep their case (paths and command lines); other words are
    /// lower-cased.
    pub fn keeps_case(self) -> bool {
        self.is_file() || self == ValueKind::Command
    }
}

/// One option of a player.
#[derive(Debug)]
pub struct OptionInfo {
    /// Its name in specs.
    pub name: &'static str,
    /// The type of its value.
    pub kind: ValueKind,
    /// Its default, as words.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// The most lines a search shows at once (`lines=N`, multi-PV).
pub const MAX_LINES: u64 = 16;

/// The per-move time of a search player given neither `time` nor `iterations`.
pub const DEFAULT_TIME: Duration = Duration::from_millis(100);

/// The seed of a player's random numbers.
pub const SEED: OptionInfo = OptionInfo {
    name: "seed",
    kind: ValueKind::Seed,
    default: "given by the command (from its --seed, 1 by default); in a match, mixed with each game's",
    help: "seed of the player's random numbers",
};
/// Thinking time per move.
pub const TIME: OptionInfo = OptionInfo {
    name: "time",
    kind: ValueKind::Duration,
    default: "100ms if iterations is not given, else none",
    help: "thinking time per move",
};
/// Search iterations per move.
pub const ITERATIONS: OptionInfo = OptionInfo {
    name: "iterations",
    kind: ValueKind::Count,
    default: "none",
    help: "search iterations per move (with time: whichever ends first)",
};
/// How a game clock's time left is shared over the moves to come.
pub const PACE: OptionInfo = OptionInfo {
    name: "pace",
    kind: ValueKind::Count,
    default: "5, or the moves left when fewer",
    help: "under a game clock: the moves its time left is shared over (each move takes 1/pace)",
};
/// The endgame solver asked first near a game's end (`minimax`, `alphazero`).
pub const SOLVE: OptionInfo = OptionInfo {
    name: "solve",
    kind: ValueKind::FreeSquares,
    default: "0 (never)",
    help: "with at most this many free squares, the endgame solver is asked first (its own \
           table, kept from move to move) and a proved move played: within half the move's time \
           (minimax: timed moves only, one line), or 40 nodes a visit under alphazero's \
           iterations",
};
/// Search threads.
pub const THREADS: OptionInfo = OptionInfo {
    name: "threads",
    kind: ValueKind::Threads,
    default: "1",
    help: "search threads, each with its own tree or playouts (capped at the machine's cores)",
};

/// A checked option value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A duration.
    Duration(Duration),
    /// A whole number: counts, sizes, depths, seeds; a switch is 1 (on) or 0 (off); an
    /// evaluation is 0 (heuristic) or 1 (nn).
    Whole(u64),
    /// A real number.
    Real(f64),
    /// Heuristic weights read from a file.
    Weights(Weights),
    /// A network read from a file.
    Network(Arc<Network>),
    /// A policy-value network read from a file.
    PolicyValue(Arc<crate::players::alphazero::network::Parameters>),
    /// A command line, split into words.
    Command(Vec<String>),
}

/// Why an option's text is not a value of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Not of the kind's form.
    Form,
    /// A file that could not be used: what was wrong, with the path.
    File(String),
}

impl Value {
    /// Parses `text` as a value of `kind`, reading the file it names for the file kinds.
    pub fn parse(kind: ValueKind, text: &str) -> Result<Value, ValueError> {
        let whole_in = |range: std::ops::RangeInclusive<u64>| {
            text.parse()
                .ok()
                .filter(|n| range.contains(n))
                .map(Value::Whole)
        };
        let real_in = |high: f64| {
            text.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..=high).contains(x))
                .map(Value::Real)
        };
        let parsed = match kind {
            ValueKind::Duration => parse_duration(text).map(Value::Duration),
            ValueKind::Count => whole_in(1..=u64::MAX),
            ValueKind::Threads => whole_in(1..=256),
            ValueKind::Real => real_in(f64::INFINITY),
            ValueKind::Fraction => real_in(1.0),
            ValueKind::Constant => real_in(100.0),
            ValueKind::Seed => whole_in(0..=u64::MAX),
            ValueKind::Depth => whole_in(1..=127),
            ValueKind::Megabytes => whole_in(1..=16_384),
            ValueKind::Percent => whole_in(1..=100),
            ValueKind::Lines => whole_in(1..=MAX_LINES),
            ValueKind::FreeSquares => whole_in(0..=32),
            ValueKind::Tunable { min, max, .. } => whole_in(min..=max),
            ValueKind::Switch => match text {
                "on" => Some(Value::Whole(1)),
                "off" => Some(Value::Whole(0)),
                _ => None,
            },
            ValueKind::Command => shell_words::split(text)
                .ok()
                .filter(|words| !words.is_empty() && !text.chars().any(char::is_control))
                .map(Value::Command),
            ValueKind::Evaluation => match text {
                "heuristic" => Some(Value::Whole(0)),
                "nn" => Some(Value::Whole(1)),
                _ => None,
            },
            ValueKind::WeightsFile => {
                return Weights::load(std::path::Path::new(text))
                    .map(Value::Weights)
                    .map_err(|error| ValueError::File(error.to_string()));
            }
            ValueKind::PolicyValueFile => {
                return crate::players::alphazero::network::Parameters::load(std::path::Path::new(
                    text,
                ))
                .map(|network| Value::PolicyValue(Arc::new(network)))
                .map_err(ValueError::File);
            }
            ValueKind::NetworkFile => {
                return Network::load(std::path::Path::new(text))
                    .map(|network| Value::Network(Arc::new(network)))
                    .map_err(|error| ValueError::File(error.to_string()));
            }
        };
        parsed.ok_or(ValueError::Form)
    }
}

/// `250us`, `100ms`, `1.5s`, `2min`, `1h`: more than zero, at most an hour.
pub fn parse_duration(text: &str) -> Option<Duration> {
    parse_duration_or_zero(text).filter(|d| !d.is_zero())
}

/// [`parse_duration`], zero allowed (`0s`, `0ms`: an increment of nothing).
pub fn parse_duration_or_zero(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let seconds = match unit {
        "us" => number / 1e6,
        "ms" => number / 1e3,
        "s" => number,
        "min" => number * 60.0,
        "h" => number * 3600.0,
        _ => return None,
    };
    (seconds.is_finite() && (0.0..=3600.0).contains(&seconds))
        .then(|| Duration::from_secs_f64(seconds))
}

/// Two options of one player that cannot go together, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The first.
    pub first: String,
    /// The other.
    pub second: String,
}

/// The checked option values of one player: what a spec gives, and all a player is built from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    values: Vec<(&'static str, Value)>,
    /// `option.NAME=VALUE` items of an external program's spec, sent to it as they are.
    engine: Vec<(String, String)>,
}

impl Options {
    /// Sets `name` (replacing its value if it had one).
    pub fn set(&mut self, name: &'static str, value: Value) {
        self.values.retain(|(n, _)| *n != name);
        self.values.push((name, value));
    }

    /// Adds an option to send to an external program (`setoption name NAME value VALUE`).
    pub fn add_engine_option(&mut self, name: &str, value: &str) {
        self.engine.push((name.to_string(), value.to_string()));
    }

    /// The options to send to an external program, in the spec's order.
    pub fn engine_options(&self) -> &[(String, String)] {
        &self.engine
    }

    /// The value of `name`, if given.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, value)| value)
    }

    /// Whether `name` is given.
    pub fn has(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    /// The whole-number value of `name` (counts, sizes, depths, seeds, switches as 0/1).
    pub fn whole(&self, name: &str) -> Option<u64> {
        match self.value(name) {
            Some(Value::Whole(n)) => Some(*n),
            _ => None,
        }
    }

    /// The value of the switch `name`: `Some(true)` for on.
    pub fn switch(&self, name: &str) -> Option<bool> {
        self.whole(name).map(|n| n != 0)
    }

    /// The duration `name`, if given.
    pub fn duration(&self, name: &str) -> Option<Duration> {
        match self.value(name) {
            Some(Value::Duration(d)) => Some(*d),
            _ => None,
        }
    }

    /// The real number `name`, if given.
    pub fn real(&self, name: &str) -> Option<f64> {
        match self.value(name) {
            Some(Value::Real(x)) => Some(*x),
            _ => None,
        }
    }

    /// The search threads: as given (1 by default), but no more than the machine's cores.
    /// Threads beyond the cores only share them, and their start-up and switching would break
    /// the time promise.
    pub fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        self.whole("threads").map_or(1, |n| n as usize).min(cores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("100ms"), Some(Duration::from_millis(100)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250us"), Some(Duration::from_micros(250)));
        for bad in [
            "100", "ms", "0ms", "-1s", "2h", "1e9s", "NaNs", "1 s", "", "1e-12s",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
        for zero in ["0s", "0ms", "0us", "0.0min"] {
            assert_eq!(parse_duration_or_zero(zero), Some(Duration::ZERO), "{zero}");
        }
        assert_eq!(parse_duration_or_zero("-0s"), Some(Duration::ZERO));
        assert_eq!(parse_duration_or_zero("-1ms"), None);
    }

    #[test]
    fn values_are_checked_against_their_kind() {
        assert_eq!(
            Value::parse(ValueKind::Percent, "100"),
            Ok(Value::Whole(100))
        );
        assert_eq!(Value::parse(ValueKind::Switch, "off"), Ok(Value::Whole(0)));
        for (kind, bad) in [
            (ValueKind::Percent, "0"),
            (ValueKind::Percent, "101"),
            (ValueKind::Threads, "257"),
            (ValueKind::Count, "0"),
            (ValueKind::Real, "inf"),
            (ValueKind::Switch, "yes"),
            (ValueKind::Command, ""),
        ] {
            assert_eq!(
                Value::parse(kind, bad),
                Err(ValueError::Form),
                "{kind:?} {bad}"
            );
        }
        assert!(matches!(
            Value::parse(ValueKind::NetworkFile, "/nonexistent/x.yolahnet"),
            Err(ValueError::File(_))
        ));
    }

    #[test]
    fn options_hold_one_value_each() {
        let mut options = Options::default();
        options.set("tt", Value::Whole(8));
        options.set("tt", Value::Whole(16));
        options.set("lmr", Value::Whole(0));
        assert_eq!(options.whole("tt"), Some(16));
        assert_eq!(options.switch("lmr"), Some(false));
        assert_eq!(options.duration("tt"), None);
        assert!(!options.has("time"));
    }
}

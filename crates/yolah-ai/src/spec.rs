//! Player specs: `name[:option=value,…]`, e.g. `random:seed=7`, `montecarlo:time=100ms`,
//! `mcts:iterations=20000,c=1.4,threads=2`. [`PLAYERS`] is the catalogue: every player, its
//! options and their defaults; a spec is checked against it when parsed, so building the
//! player cannot fail.

use crate::eval::Weights;
use crate::eval::network::Network;
use crate::limits::Limits;
use crate::player::Player;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use yolah_core::text::quote;

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
    /// Any whole number from 0 to 2^64 − 1.
    Seed,
    /// A search depth in plies, 1 to 127.
    Depth,
    /// A table size in MiB, 1 to 16384.
    Megabytes,
    /// A whole percentage, 1 to 100.
    Percent,
    /// The path of a weights file (JSON, see `yolah_ai::eval::weights`).
    WeightsFile,
    /// The path of a network file (`docs/network-format.md`).
    NetworkFile,
    /// An evaluation: `heuristic` or `nn`.
    Evaluation,
    /// `on` or `off`.
    Switch,
    /// A command line: the rest of the spec, commas and spaces included, split into words as
    /// a shell would (quotes group words). Always the last option of a spec.
    Command,
}

impl ValueKind {
    /// How a value of this kind is written, for error messages and `yolah players`.
    pub fn expected(self) -> &'static str {
        match self {
            ValueKind::Duration => {
                "a duration with a unit (us, ms, s, min, h), like 250us, 100ms or 1.5s, at most 1h"
            }
            ValueKind::Count => "a whole number of at least 1",
            ValueKind::Threads => "a thread count from 1 to 256",
            ValueKind::Real => "a real number of at least 0, like 1.4",
            ValueKind::Seed => "a whole number from 0 to 18446744073709551615",
            ValueKind::Depth => "a depth in plies from 1 to 127",
            ValueKind::Megabytes => "a size in MiB from 1 to 16384",
            ValueKind::Percent => "a whole percentage from 1 to 100",
            ValueKind::WeightsFile => "the path of a weights file",
            ValueKind::NetworkFile => "the path of a network file",
            ValueKind::Evaluation => "heuristic or nn",
            ValueKind::Switch => "on or off",
            ValueKind::Command => {
                "a command line, last in the spec (quotes group words), like cmd=yolah engine"
            }
        }
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

/// One kind of player.
#[derive(Debug)]
pub struct PlayerInfo {
    /// Its name in specs.
    pub name: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    /// Its options.
    pub options: &'static [OptionInfo],
    /// Builds the player from a spec naming it, with this seed.
    pub(crate) build: fn(&Spec, u64) -> Box<dyn Player>,
    /// Checks what single options cannot (options that do not go together), if anything.
    pub(crate) check: Option<Check>,
}

/// The per-move time of a search player given neither `time` nor `iterations`.
pub const DEFAULT_TIME: Duration = Duration::from_millis(100);

/// The player of every command, page and protocol session that is told none: the strongest
/// (minimax with the network, at its default 100 ms a move).
pub const DEFAULT_PLAYER: &str = "minimax:eval=nn";

pub(crate) const SEED: OptionInfo = OptionInfo {
    name: "seed",
    kind: ValueKind::Seed,
    default: "given by the command (from its --seed, 1 by default)",
    help: "seed of the player's random numbers",
};
pub(crate) const TIME: OptionInfo = OptionInfo {
    name: "time",
    kind: ValueKind::Duration,
    default: "100ms if iterations is not given, else none",
    help: "thinking time per move",
};
pub(crate) const ITERATIONS: OptionInfo = OptionInfo {
    name: "iterations",
    kind: ValueKind::Count,
    default: "none",
    help: "search iterations per move (with time: whichever ends first)",
};
pub(crate) const PACE: OptionInfo = OptionInfo {
    name: "pace",
    kind: ValueKind::Count,
    default: "5, or the moves left when fewer",
    help: "under a game clock: the moves its time left is shared over (each move takes 1/pace)",
};
pub(crate) const THREADS: OptionInfo = OptionInfo {
    name: "threads",
    kind: ValueKind::Threads,
    default: "1",
    help: "search threads, each with its own tree or playouts (capped at the machine's cores)",
};

/// Every player, with its options: each family declares its own beside its code.
pub static PLAYERS: &[PlayerInfo] = &[
    crate::players::random::PLAYER,
    crate::players::montecarlo::PLAYER,
    crate::players::mcts::PLAYER,
    crate::players::minimax::PLAYER,
    crate::players::engine::PLAYER,
];

/// A player's check of its options together: its name and the checked values.
pub(crate) type Check = fn(&'static str, &[(&'static str, Value)]) -> Result<(), SpecError>;

/// A checked option value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Duration(Duration),
    Whole(u64),
    Real(f64),
    Weights(Weights),
    Network(Arc<Network>),
    Command(Vec<String>),
}

/// A parsed, checked player spec.
#[derive(Clone, Debug)]
pub struct Spec {
    text: String,
    info: &'static PlayerInfo,
    values: Vec<(&'static str, Value)>,
}

/// Why a text is not a player spec; each case lists what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// No player name.
    Empty,
    /// No player of this name.
    UnknownPlayer(String),
    /// The player has no such option.
    UnknownOption {
        /// The player.
        player: &'static str,
        /// The option as written.
        option: String,
    },
    /// An option without `=value`.
    MissingValue {
        /// The player.
        player: &'static str,
        /// The option.
        option: String,
    },
    /// A required option not given.
    Required {
        /// The player.
        player: &'static str,
        /// The option.
        option: &'static str,
        /// An example of it.
        example: &'static str,
    },
    /// An option given twice.
    Repeated {
        /// The player.
        player: &'static str,
        /// The option.
        option: &'static str,
    },
    /// A value of the wrong form.
    BadValue {
        /// The player.
        player: &'static str,
        /// The option.
        option: &'static str,
        /// The value as written.
        value: String,
        /// Its expected form.
        kind: ValueKind,
    },
    /// Two options that cannot go together.
    Conflict {
        /// The player.
        player: &'static str,
        /// The options, as written.
        first: String,
        /// The other.
        second: String,
    },
    /// A file named by an option could not be used.
    BadFile {
        /// The player.
        player: &'static str,
        /// The option.
        option: &'static str,
        /// What was wrong, with the path.
        reason: String,
    },
}

fn names<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

fn info(player: &str) -> &'static PlayerInfo {
    PLAYERS
        .iter()
        .find(|p| p.name == player)
        .expect("errors name catalogued players")
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = |player: &str| names(info(player).options.iter().map(|o| o.name));
        match self {
            SpecError::Empty => write!(
                f,
                "empty player spec; players: {}",
                names(PLAYERS.iter().map(|p| p.name))
            ),
            SpecError::UnknownPlayer(name) => write!(
                f,
                "unknown player {}; players: {} (see `yolah players`)",
                quote(name),
                names(PLAYERS.iter().map(|p| p.name))
            ),
            SpecError::UnknownOption { player, option } => write!(
                f,
                "{player} has no option {}; its options: {}",
                quote(option),
                options(player)
            ),
            SpecError::MissingValue { player, option } => {
                write!(
                    f,
                    "{player} option {} needs a value, like {}=…",
                    quote(option),
                    quote(option).trim_matches('\'')
                )
            }
            SpecError::Required {
                player,
                option,
                example,
            } => write!(f, "{player} needs the option {option}, like {example}"),
            SpecError::Repeated { player, option } => {
                write!(f, "{player} option '{option}' is given twice")
            }
            SpecError::BadValue {
                player,
                option,
                value,
                kind,
            } => write!(
                f,
                "{player} option {option}={}: expected {}",
                quote(value),
                kind.expected()
            ),
            SpecError::BadFile {
                player,
                option,
                reason,
            } => write!(f, "{player} option {option}: {reason}"),
            SpecError::Conflict {
                player,
                first,
                second,
            } => write!(
                f,
                "{player} options {first} and {second} cannot go together"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

/// The evaluation options agree: no network with `eval=heuristic`, no weights with a network.
fn parse_value(kind: ValueKind, text: &str) -> Option<Value> {
    match kind {
        ValueKind::Duration => parse_duration(text).map(Value::Duration),
        ValueKind::Count => text.parse().ok().filter(|&n| n >= 1).map(Value::Whole),
        ValueKind::Threads => text
            .parse()
            .ok()
            .filter(|n| (1..=256).contains(n))
            .map(Value::Whole),
        ValueKind::Real => text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .map(Value::Real),
        ValueKind::Seed => text.parse().ok().map(Value::Whole),
        ValueKind::Depth => text
            .parse()
            .ok()
            .filter(|n| (1..=127).contains(n))
            .map(Value::Whole),
        ValueKind::Megabytes => text
            .parse()
            .ok()
            .filter(|n| (1..=16_384).contains(n))
            .map(Value::Whole),
        ValueKind::Percent => text
            .parse()
            .ok()
            .filter(|n| (1..=100).contains(n))
            .map(Value::Whole),
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
        ValueKind::WeightsFile | ValueKind::NetworkFile => {
            unreachable!("files are read by the caller")
        }
    }
}

/// `250us`, `100ms`, `1.5s`, `2min`, `1h`: more than zero, at most an hour.
pub fn parse_duration(text: &str) -> Option<Duration> {
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
    (seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0)
        .then(|| Duration::from_secs_f64(seconds))
        .filter(|d| !d.is_zero())
}

/// The `option=value` items of a spec's options: split at commas, except that an option
/// taking a command line takes the rest of the text. Empty items are dropped.
fn split_options<'a>(info: &PlayerInfo, options: &'a str) -> Vec<&'a str> {
    let mut items = Vec::new();
    let mut rest = options;
    while !rest.is_empty() {
        rest = rest.trim_start();
        let greedy = info.options.iter().any(|o| {
            o.kind == ValueKind::Command
                && rest
                    .get(..o.name.len())
                    .is_some_and(|name| name.eq_ignore_ascii_case(o.name))
                && rest[o.name.len()..].trim_start().starts_with('=')
        });
        let (item, tail) = if greedy {
            (rest, "")
        } else {
            rest.split_once(',').unwrap_or((rest, ""))
        };
        if !item.is_empty() {
            items.push(item);
        }
        rest = tail;
    }
    items
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        // Words are trimmed and their case ignored (`Minimax: Time=1s, eval=NN`); file names
        // and command lines keep theirs.
        let text = text.trim();
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let info = PLAYERS
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SpecError::UnknownPlayer(name.to_string()))?;
        let player = info.name;
        let mut values: Vec<(&'static str, Value)> = Vec::new();
        let mut items: Vec<String> = Vec::new();
        for item in split_options(info, options) {
            let (option, value) = item
                .split_once('=')
                .map(|(o, v)| (o.trim(), v.trim()))
                .ok_or_else(|| SpecError::MissingValue {
                    player,
                    option: item.trim().to_string(),
                })?;
            let option_info = info
                .options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(option))
                .ok_or_else(|| SpecError::UnknownOption {
                    player,
                    option: option.to_string(),
                })?;
            let value = match option_info.kind {
                ValueKind::WeightsFile | ValueKind::NetworkFile | ValueKind::Command => {
                    value.to_string()
                }
                _ => value.to_ascii_lowercase(),
            };
            let value = value.as_str();
            items.push(format!("{}={value}", option_info.name));
            if values.iter().any(|(name, _)| *name == option_info.name) {
                return Err(SpecError::Repeated {
                    player,
                    option: option_info.name,
                });
            }
            let bad_file = |reason: String| SpecError::BadFile {
                player,
                option: option_info.name,
                reason,
            };
            let parsed = if option_info.kind == ValueKind::WeightsFile {
                Weights::load(std::path::Path::new(value))
                    .map(Value::Weights)
                    .map_err(|error| bad_file(error.to_string()))?
            } else if option_info.kind == ValueKind::NetworkFile {
                Network::load(std::path::Path::new(value))
                    .map(|network| Value::Network(Arc::new(network)))
                    .map_err(|error| bad_file(error.to_string()))?
            } else {
                parse_value(option_info.kind, value).ok_or_else(|| SpecError::BadValue {
                    player,
                    option: option_info.name,
                    value: value.to_string(),
                    kind: option_info.kind,
                })?
            };
            values.push((option_info.name, parsed));
        }
        if let Some(check) = info.check {
            check(player, &values)?;
        }
        for option in info.options {
            if option.kind == ValueKind::Command && !values.iter().any(|(n, _)| *n == option.name) {
                return Err(SpecError::Required {
                    player,
                    option: option.name,
                    example: "engine:time=100ms,cmd=yolah engine --player mcts",
                });
            }
        }
        // The canonical text: `mcts:` and `mcts` are one player, and so are `mcts:,c=1,`
        // and `mcts:c=1`.
        let text = if items.is_empty() {
            player.to_string()
        } else {
            format!("{player}:{}", items.join(","))
        };
        Ok(Spec { text, info, values })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        self.text == other.text
    }
}

impl Eq for Spec {}

impl Spec {
    /// The player's name (`mcts`).
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    pub(crate) fn value(&self, option: &str) -> Option<Value> {
        self.values
            .iter()
            .find(|(name, _)| *name == option)
            .map(|(_, value)| value.clone())
    }

    pub(crate) fn whole(&self, option: &str) -> Option<u64> {
        match self.value(option) {
            Some(Value::Whole(n)) => Some(n),
            _ => None,
        }
    }

    /// Whether this kind of player has the option `name`.
    pub fn has_option(&self, name: &str) -> bool {
        self.info.options.iter().any(|o| o.name == name)
    }

    /// Whether the spec sets `option`.
    pub fn sets(&self, option: &str) -> bool {
        self.value(option).is_some()
    }

    /// The whole-number value the spec gives `option` (counts, sizes, threads, depth, seed).
    pub fn number(&self, option: &str) -> Option<u64> {
        self.whole(option)
    }

    /// This spec with `option` set to `value` (replacing what it had), checked like any spec.
    pub fn with(&self, option: &str, value: &str) -> Result<Spec, SpecError> {
        let (name, options) = self.text.split_once(':').unwrap_or((&self.text, ""));
        let others = split_options(self.info, options)
            .into_iter()
            .filter(|item| item.split_once('=').map_or(*item, |(o, _)| o) != option);
        // First, so that an option taking the rest of the spec stays last.
        let items: Vec<String> = std::iter::once(format!("{option}={value}"))
            .chain(others.map(str::to_string))
            .collect();
        format!("{name}:{}", items.join(",")).parse()
    }

    /// The most memory the player holds, MiB: its transposition table, or its trees (one per
    /// thread); 1 for a player without either.
    pub fn memory_mb(&self) -> u64 {
        match self.name() {
            "minimax" => self
                .whole("tt")
                .unwrap_or(crate::players::minimax::DEFAULT_TT_MB as u64),
            "mcts" => {
                let tree = self
                    .whole("tree")
                    .unwrap_or(crate::players::mcts::DEFAULT_TREE_MB as u64);
                tree * self.threads() as u64
            }
            _ => 1,
        }
    }

    /// The seed the spec sets, if any.
    pub fn seed(&self) -> Option<u64> {
        self.whole("seed")
    }

    /// The limits of each move: `time`, `iterations`, `depth` and `nodes` as given,
    /// [`DEFAULT_TIME`] for a search player given none of them, none for the random player.
    pub fn limits(&self) -> Limits {
        let time = match self.value("time") {
            Some(Value::Duration(d)) => Some(d),
            _ => None,
        };
        let iterations = self.whole("iterations");
        let depth = self.whole("depth").map(|d| d as u32);
        let nodes = self.whole("nodes");
        let searches = self.info.options.iter().any(|o| o.name == "time");
        let unlimited = iterations.is_none() && depth.is_none() && nodes.is_none();
        Limits {
            time: time.or((searches && unlimited).then_some(DEFAULT_TIME)),
            iterations,
            depth,
            nodes,
            stop: None,
            clock: None,
        }
    }

    /// The time the spec itself sets (`time=`), not its default.
    pub fn explicit_time(&self) -> Option<Duration> {
        match self.value("time") {
            Some(Value::Duration(d)) => Some(d),
            _ => None,
        }
    }

    /// The moves a game clock is shared over (`pace=`), if the spec sets it.
    pub fn pace(&self) -> Option<u32> {
        self.whole("pace")
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Builds the player this spec describes with this seed (the spec's own seed wins).
    pub fn player(&self, seed: u64) -> Box<dyn Player> {
        (self.info.build)(self, self.seed().unwrap_or(seed))
    }

    /// The search threads: as given (1 by default), but no more than the machine's cores.
    /// Threads beyond the cores only share them, and their start-up and switching would break
    /// the time promise.
    pub(crate) fn threads(&self) -> usize {
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
        for bad in ["100", "ms", "0ms", "-1s", "2h", "1e9s", "NaNs", "1 s", ""] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}

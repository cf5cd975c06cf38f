//! Player specs: `name[:option=value,…]`, e.g. `random:seed=7`, `montecarlo:time=100ms`,
//! `mcts:iterations=20000,c=1.4,threads=2`: the text, parsed and checked against the
//! catalogue ([`PLAYERS`]: every player, its options and their defaults) into the player's
//! [`Options`], so building the player cannot fail.

use crate::catalogue::{self, PLAYERS};
use crate::clock::TimeControl;
use crate::limits::Limits;
use crate::options::{DEFAULT_TIME, Options, Value, ValueError, ValueKind};
use crate::player::{Player, PlayerInfo};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use yolah_core::text::quote;

/// A parsed, checked player spec.
///
/// ```
/// use yolah_ai::Spec;
/// use yolah_core::Position;
/// let spec: Spec = "minimax:depth=3".parse().unwrap();
/// assert_eq!(spec.to_string(), "minimax:depth=3");
/// let report = spec.agent(1).choose(&Position::start());
/// assert!(Position::start().check_move(report.mv).is_ok());
/// let error = "minimax:depth=0".parse::<Spec>().unwrap_err();
/// assert!(error.to_string().contains("depth"), "{error}");
/// ```
#[derive(Clone, Debug)]
pub struct Spec {
    text: String,
    info: &'static PlayerInfo,
    options: Options,
    time_control: Option<TimeControl>,
}

/// The option every player takes in a match or a tournament: its own game clock.
pub const TC_OPTION: &str = "tc";
/// How the options sent to an external program start (`option.Hash=64`).
pub const ENGINE_OPTION_PREFIX: &str = "option.";

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
    /// An option that names a file, where no file may be read (a spec from a web page).
    FileRefused {
        /// The player.
        player: &'static str,
        /// The option.
        option: &'static str,
    },
    /// A game clock (`tc=`) of the wrong form.
    BadClock {
        /// The player.
        player: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// An `option.NAME=VALUE` given to a player that is not an external program, or with an
    /// empty name, or a name or value the protocol cannot carry.
    BadEngineOption {
        /// The player.
        player: &'static str,
        /// The item as written.
        item: String,
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
    catalogue::find(player).expect("errors name catalogued players")
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
            SpecError::BadClock { player, reason } => write!(f, "{player} option tc={reason}"),
            SpecError::BadEngineOption { player, item } if player == &"engine" => write!(
                f,
                "engine {}: an option for the program is option.NAME=VALUE, the name one word \
                 and the value without the word 'value'",
                quote(item)
            ),
            SpecError::BadEngineOption { player, item } => write!(
                f,
                "{player} {}: option.NAME=VALUE is for external programs (engine:); \
                 {player}'s own options are set as NAME=VALUE",
                quote(item)
            ),
            SpecError::FileRefused { player, option } => {
                write!(f, "{player} option {option}: no file can be read here")
            }
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

/// A player's own game clock (`tc=`), parsed; `given` if the spec set one already.
fn arena_clock(player: &'static str, value: &str, given: bool) -> Result<TimeControl, SpecError> {
    if given {
        return Err(SpecError::Repeated {
            player,
            option: TC_OPTION,
        });
    }
    value
        .to_ascii_lowercase()
        .parse()
        .map_err(|reason| SpecError::BadClock { player, reason })
}

/// The NAME of an `option.NAME` item, if it is one (the prefix in any case).
fn engine_option_name(option: &str) -> Option<&str> {
    option
        .get(..ENGINE_OPTION_PREFIX.len())
        .filter(|p| p.eq_ignore_ascii_case(ENGINE_OPTION_PREFIX))
        .map(|_| &option[ENGINE_OPTION_PREFIX.len()..])
}

/// Refuses an `option.NAME=VALUE` that the protocol cannot carry (`setoption name NAME value
/// VALUE` on one line), that is given twice, or that is given to a player that runs no
/// program.
fn check_engine_option(
    info: &'static PlayerInfo,
    values: &Options,
    name: &str,
    value: &str,
    item: &str,
) -> Result<(), SpecError> {
    let player = info.name;
    let carried = |t: &str| !t.chars().any(char::is_control);
    if !info.options.iter().any(|o| o.kind == ValueKind::Command)
        || name.is_empty()
        || name.contains(char::is_whitespace)
        || name.eq_ignore_ascii_case("value")
        || !carried(value)
        || value.split_whitespace().any(|w| w == "value")
    {
        return Err(SpecError::BadEngineOption {
            player,
            item: item.trim().to_string(),
        });
    }
    if values
        .engine_options()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return Err(SpecError::BadEngineOption {
            player,
            item: format!("{} (given twice)", item.trim()),
        });
    }
    Ok(())
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        Spec::parse(text, true)
    }
}

impl Spec {
    /// A spec from someone who may not name files (a web page): refused, before anything is
    /// read, if any option names one, in any spelling (`WEIGHTS=`, ` net =`).
    pub fn parse_without_files(text: &str) -> Result<Spec, SpecError> {
        Spec::parse(text, false)
    }

    fn parse(text: &str, read_files: bool) -> Result<Spec, SpecError> {
        // Words are trimmed and their case ignored (`Minimax: Time=1s, eval=NN`); file names
        // and command lines keep theirs.
        let text = text.trim();
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let info =
            catalogue::find(name).ok_or_else(|| SpecError::UnknownPlayer(name.to_string()))?;
        let player = info.name;
        let mut values = Options::default();
        let mut items: Vec<String> = Vec::new();
        let mut time_control = None;
        for item in split_options(info, options) {
            let (option, value) = item
                .split_once('=')
                .map(|(o, v)| (o.trim(), v.trim()))
                .ok_or_else(|| SpecError::MissingValue {
                    player,
                    option: item.trim().to_string(),
                })?;
            if option.eq_ignore_ascii_case(TC_OPTION) {
                let tc = arena_clock(player, value, time_control.is_some())?;
                items.push(format!("{TC_OPTION}={tc}"));
                time_control = Some(tc);
                continue;
            }
            if let Some(name) = engine_option_name(option) {
                check_engine_option(info, &values, name, value, item)?;
                items.push(format!("{ENGINE_OPTION_PREFIX}{name}={value}"));
                values.add_engine_option(name, value);
                continue;
            }
            let option_info = info
                .options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(option))
                .ok_or_else(|| SpecError::UnknownOption {
                    player,
                    option: option.to_string(),
                })?;
            if option_info.kind.is_file() && !read_files {
                return Err(SpecError::FileRefused {
                    player,
                    option: option_info.name,
                });
            }
            let value = if option_info.kind.keeps_case() {
                value.to_string()
            } else {
                value.to_ascii_lowercase()
            };
            items.push(format!("{}={value}", option_info.name));
            if values.has(option_info.name) {
                return Err(SpecError::Repeated {
                    player,
                    option: option_info.name,
                });
            }
            let parsed = Value::parse(option_info.kind, &value).map_err(|error| match error {
                ValueError::Form => SpecError::BadValue {
                    player,
                    option: option_info.name,
                    value: value.clone(),
                    kind: option_info.kind,
                },
                ValueError::File(reason) => SpecError::BadFile {
                    player,
                    option: option_info.name,
                    reason,
                },
            })?;
            values.set(option_info.name, parsed);
        }
        (info.check)(&values).map_err(|conflict| SpecError::Conflict {
            player,
            first: conflict.first,
            second: conflict.second,
        })?;
        for option in info.options {
            if option.kind == ValueKind::Command && !values.has(option.name) {
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
        Ok(Spec {
            text,
            info,
            options: values,
            time_control,
        })
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

    /// The kind of player, as the catalogue describes it.
    pub fn info(&self) -> &'static PlayerInfo {
        self.info
    }

    /// The player's checked options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether this kind of player has the option `name`.
    pub fn has_option(&self, name: &str) -> bool {
        self.info.options.iter().any(|o| o.name == name)
    }

    /// Whether the spec sets `option`.
    pub fn sets(&self, option: &str) -> bool {
        self.options.has(option)
    }

    /// Whether this player takes `key` as a spec item could add it (`--each`): one of its own
    /// options but the command line, the game clock `tc`, or `option.NAME` for an external
    /// program. Names are compared ignoring case, as the parser does.
    pub fn takes(&self, key: &str) -> bool {
        if key.eq_ignore_ascii_case(TC_OPTION) {
            return true;
        }
        if engine_option_name(key).is_some() {
            return self
                .info
                .options
                .iter()
                .any(|o| o.kind == ValueKind::Command);
        }
        self.info
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(key) && o.kind != ValueKind::Command)
    }

    /// Whether the spec gives `key` a value already (see [`Spec::takes`]).
    pub fn gives(&self, key: &str) -> bool {
        if key.eq_ignore_ascii_case(TC_OPTION) {
            return self.time_control.is_some();
        }
        if let Some(name) = engine_option_name(key) {
            return self
                .engine_options()
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name));
        }
        self.info
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(key) && self.options.has(o.name))
    }

    /// The whole-number value the spec gives `option` (counts, sizes, threads, depth, seed).
    pub fn number(&self, option: &str) -> Option<u64> {
        self.options.whole(option)
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
        (self.info.memory_mb)(&self.options)
    }

    /// The player's own game clock in a match or tournament (`tc=BASE+INC`), overriding the
    /// run's `--tc`.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.time_control
    }

    /// The options an external program is sent after its handshake (`option.NAME=VALUE`),
    /// names and values as written, in the spec's order.
    pub fn engine_options(&self) -> &[(String, String)] {
        self.options.engine_options()
    }

    /// The seed the spec sets, if any.
    pub fn seed(&self) -> Option<u64> {
        self.options.whole("seed")
    }

    /// The limits of each move: `time`, `iterations`, `depth` and `nodes` as given,
    /// [`DEFAULT_TIME`] for a search player given none of them, none for the random player.
    pub fn limits(&self) -> Limits {
        let time = self.explicit_time();
        let iterations = self.options.whole("iterations");
        let depth = self.options.whole("depth").map(|d| d as u32);
        let nodes = self.options.whole("nodes");
        let searches = self.has_option("time");
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
        self.options.duration("time")
    }

    /// The moves a game clock is shared over (`pace=`), if the spec sets it.
    pub fn pace(&self) -> Option<u32> {
        self.options
            .whole("pace")
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Builds the player this spec describes with this seed (the spec's own seed wins).
    pub fn player(&self, seed: u64) -> Box<dyn Player> {
        (self.info.build)(&self.options, self.seed().unwrap_or(seed))
    }

    /// The search threads: as given (1 by default), but no more than the machine's cores.
    pub fn threads(&self) -> usize {
        self.options.threads()
    }

    /// Whether this player makes the same moves in the same positions in every game: no time
    /// limit, one thread, and a player whose moves do not depend on its seed or a seed the
    /// spec fixes (`minimax:nodes=20000`, `mcts:iterations=1000,seed=3`).
    pub fn repeats_itself(&self) -> bool {
        (!self.info.seeded || self.seed().is_some())
            && self.limits().time.is_none()
            && self.time_control().is_none()
            && self.threads() <= 1
    }
}

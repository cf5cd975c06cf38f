//! The generation loop's plan and bookkeeping (`yolah learn`): what a run is (its [`Config`]),
//! where it is ([`State`]: the generation and phase in progress, the best network so far,
//! every finished generation's [`Record`]), and the players and data each phase uses. The
//! command line runs the phases (self-play, training, the sequential test) with the same
//! code as `yolah selfplay`, `yolah train` and `yolah match`.

use crate::train::Target;
use serde::{Deserialize, Serialize};
use std::fmt;
use yolah_ai::arena::sprt::Sprt;
use yolah_ai::eval::network::Shape;
use yolah_ai::spec::Spec;

/// The most generations a run may ask for.
pub const MAX_GENERATIONS: u32 = 1000;
/// The most self-play games a generation may ask for.
pub const MAX_GAMES: u64 = 1_000_000;
/// The most nodes a self-play move may search.
pub const MAX_NODES: u64 = 10_000_000;
/// The most games a generation's test may play.
pub const MAX_TEST_GAMES: u32 = 100_000;
/// The most generations of data a candidate trains on.
pub const MAX_WINDOW: u32 = 100;
/// The most epochs a candidate trains.
pub const MAX_EPOCHS: u32 = 1000;

/// What decides a run; `DIR/learn.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Generations to run (a resumed run may raise it).
    pub generations: u32,
    /// Self-play games per generation.
    pub games: u64,
    /// Nodes per self-play move (a node limit: the same run gives the same data).
    pub nodes: u64,
    /// Random plies before self-play's player takes over.
    pub random_plies: u32,
    /// The candidates' layers behind the inputs, like `256,32`.
    pub hidden: String,
    /// The candidates' output buckets.
    pub buckets: usize,
    /// Whether the candidates see the heuristic's features.
    pub features: bool,
    /// What the candidates learn.
    pub target: Target,
    /// Epochs of training per candidate.
    pub epochs: u32,
    /// A candidate trains on the data of this many generations, its own and those before it,
    /// each position once an epoch (so each generation weighs by its size).
    pub window: u32,
    /// The budget of both players in the test, as spec options, like `time=50ms` or
    /// `nodes=20000`.
    pub budget: String,
    /// The sequential test a candidate must pass to become the best network.
    pub sprt: String,
    /// The most games of a test; a test still inconclusive there fails the candidate.
    pub test_games: u32,
    /// The test's openings, one suite line each (as `yolah openings` writes them).
    pub openings: Vec<String>,
    /// The network the run starts from: a file, or none for the one shipped in the crate.
    pub start: Option<String>,
    /// The run's seed.
    pub seed: u64,
}

impl Config {
    /// Checks every field; the error names the option.
    pub fn check(&self) -> Result<(), String> {
        let within = |name: &str, value: u64, low: u64, high: u64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(format!(
                    "--{name} must be from {low} to {high}, not {value}"
                ))
            }
        };
        within(
            "generations",
            u64::from(self.generations),
            1,
            u64::from(MAX_GENERATIONS),
        )?;
        within("games", self.games, 20, MAX_GAMES)?;
        within("nodes", self.nodes, 1, MAX_NODES)?;
        within(
            "random-plies",
            u64::from(self.random_plies),
            0,
            u64::from(crate::selfplay::MAX_RANDOM_PLIES),
        )?;
        within("epochs", u64::from(self.epochs), 1, u64::from(MAX_EPOCHS))?;
        within("window", u64::from(self.window), 1, u64::from(MAX_WINDOW))?;
        within(
            "test-games",
            u64::from(self.test_games),
            2,
            u64::from(MAX_TEST_GAMES),
        )?;
        self.shape()?;
        self.sprt()?;
        yolah_ai::arena::opening::parse_suite(&self.openings.join("\n"))
            .map_err(|e| format!("--openings: {e}"))?;
        if self
            .budget
            .split(',')
            .any(|o| o.starts_with("net=") || o.starts_with("eval="))
        {
            return Err(format!(
                "--budget '{}': the networks are the run's; give only the search's budget",
                self.budget
            ));
        }
        // The players of a test and of self-play parse (with the shipped network in place of
        // the run's files), and the start names a network as a spec takes it.
        Spec::parse_without_files(&selfplay_spec(self.nodes, "eval=nn"))
            .map_err(|e| format!("--nodes: {e}"))?;
        if let Some(start) = &self.start {
            Spec::parse_without_files(&format!("minimax:net={start}"))
                .map_err(|e| format!("--start '{start}': {e}"))?;
        }
        Spec::parse_without_files(&test_spec(&self.budget, "eval=nn"))
            .map_err(|e| format!("--budget '{}': {e}", self.budget))?;
        Ok(())
    }

    /// The candidates' shape.
    pub fn shape(&self) -> Result<Shape, String> {
        let shape = Shape {
            buckets: self.buckets,
            features: self.features,
            ..self
                .hidden
                .parse::<Shape>()
                .map_err(|e| format!("--hidden: {e}"))?
        };
        shape
            .check()
            .map_err(|e| format!("--hidden/--buckets: {e}"))?;
        Ok(shape)
    }

    /// The sequential test.
    pub fn sprt(&self) -> Result<Sprt, String> {
        self.sprt
            .parse::<Sprt>()
            .map_err(|e| format!("--sprt '{}': {e}", self.sprt))
    }

    /// The self-play player of a generation whose best network is `best` (none: the run's
    /// start): node-limited with a small table (a table is cleared for every game, and a
    /// large one costs more to clear than the game's search).
    pub fn selfplay_spec(&self, best: Option<&str>) -> String {
        selfplay_spec(self.nodes, &self.network_option(best))
    }

    /// The option that names a network: `net=FILE`, or `eval=nn` for the shipped one.
    pub fn network_option(&self, best: Option<&str>) -> String {
        match best.or(self.start.as_deref()) {
            Some(path) => format!("net={path}"),
            None => "eval=nn".to_string(),
        }
    }

    /// The seed of generation `generation`'s self-play, training and test.
    pub fn generation_seed(&self, generation: u32) -> u64 {
        self.seed
            .wrapping_mul(1000)
            .wrapping_add(u64::from(generation))
    }

    /// The generations whose data generation `generation`'s candidate trains on.
    pub fn window_of(&self, generation: u32) -> std::ops::RangeInclusive<u32> {
        generation.saturating_sub(self.window - 1).max(1)..=generation
    }
}

/// Self-play's player at `nodes` a move with `network` (`eval=nn`, `net=FILE`).
fn selfplay_spec(nodes: u64, network: &str) -> String {
    format!("minimax:nodes={nodes},tt=1,{network}")
}

/// A test's player: minimax at the run's budget with a network, a file or an option
/// (`eval=nn`, `net=FILE`).
pub fn test_spec(budget: &str, network: &str) -> String {
    let network = if network.starts_with("eval=") || network.starts_with("net=") {
        network.to_string()
    } else {
        format!("net={network}")
    };
    format!("minimax:{budget},{network}")
}

/// The phases of a generation, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Games of the best network against itself, written as data.
    SelfPlay,
    /// A candidate trained on the window's data.
    Train,
    /// The candidate against the best network, until the test decides.
    Test,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::SelfPlay => "self-play",
            Phase::Train => "training",
            Phase::Test => "testing",
        })
    }
}

/// One finished generation, as `DIR/generations.csv` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// From 1.
    pub generation: u32,
    /// Self-play positions of this generation.
    pub positions: u64,
    /// Positions the candidate trained on (the window's), validation included.
    pub trained_on: u64,
    /// The candidate's last validation loss.
    pub validation_loss: f32,
    /// Games of the test.
    pub games: u64,
    /// The candidate's score against the best network.
    pub score: f64,
    /// Its Elo against the best network.
    pub elo: f64,
    /// The low end of the Elo's 95 % interval.
    pub elo_low: f64,
    /// The high end of the Elo's 95 % interval.
    pub elo_high: f64,
    /// The test's log-likelihood ratio.
    pub llr: f64,
    /// The test's verdict: `H1`, `H0` or `inconclusive`, the word of `yolah match` (runs
    /// before issue 42 wrote `undecided`, read as `inconclusive`).
    #[serde(deserialize_with = "verdict")]
    pub verdict: String,
    /// Whether the candidate became the best network.
    pub promoted: bool,
    /// The best network's Elo over the run's start after this generation: the sum of the
    /// promoted candidates' estimates.
    pub best_elo: f64,
    /// Seconds of self-play (of the processes that ran it; a kill loses the time of the
    /// part cut off).
    pub selfplay_seconds: f64,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Seconds of the test (of the process that finished it).
    pub test_seconds: f64,
}

/// The test's word for a test that did not decide, in the table and the state.
pub const INCONCLUSIVE: &str = "inconclusive";

/// A record's verdict, the former `undecided` read as [`INCONCLUSIVE`].
fn verdict<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let word = String::deserialize(deserializer)?;
    Ok(if word == "undecided" {
        INCONCLUSIVE.to_string()
    } else {
        word
    })
}

impl Record {
    /// Seconds the generation took.
    pub fn seconds(&self) -> f64 {
        self.selfplay_seconds + self.train_seconds + self.test_seconds
    }
}

/// Where a run is; `DIR/state.json`, written after every phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The generation in progress, from 1 (past the config's last: the run is done).
    pub generation: u32,
    /// Its phase in progress.
    pub phase: Phase,
    /// The best network so far, a path inside the run's directory; none: the start.
    pub best: Option<String>,
    /// The finished generations.
    pub records: Vec<Record>,
    /// Seconds of the phases of the generation in progress that are done.
    pub seconds: [f64; 3],
}

impl State {
    /// A new run's.
    pub fn new() -> State {
        State {
            generation: 1,
            phase: Phase::SelfPlay,
            best: None,
            records: Vec::new(),
            seconds: [0.0; 3],
        }
    }

    /// Checks that the state is one a run writes: a record for each finished generation, in
    /// order, and the best network that of the last promoted one (`best_of` names a
    /// generation's network), none if none was promoted: a state naming any other file is not
    /// this run's.
    pub fn check(&self, best_of: impl Fn(u32) -> String) -> Result<(), String> {
        if self.generation == 0 || self.records.len() as u32 != self.generation - 1 {
            return Err(format!(
                "{} finished generations for generation {} in progress",
                self.records.len(),
                self.generation
            ));
        }
        if let Some(r) = (1..).zip(&self.records).find(|(g, r)| r.generation != *g) {
            return Err(format!(
                "the record of generation {} is numbered {}",
                r.0, r.1.generation
            ));
        }
        let promoted = self
            .records
            .iter()
            .rev()
            .find(|r| r.promoted)
            .map(|r| best_of(r.generation));
        if self.best != promoted {
            return Err(format!(
                "the best network {} is not the network of the run's last promoted generation \
                 ({})",
                self.best
                    .as_deref()
                    .map_or_else(|| "(none)".to_string(), |b| format!("'{b}'")),
                promoted.as_deref().unwrap_or("none was promoted")
            ));
        }
        Ok(())
    }

    /// The best network's Elo over the start.
    pub fn best_elo(&self) -> f64 {
        self.records.last().map_or(0.0, |r| r.best_elo)
    }

    /// The time left for the generations after the finished ones, from the mean of those
    /// finished; none before the first is done.
    pub fn eta(&self, config: &Config, in_progress_seconds: f64) -> Option<f64> {
        let done = self.records.len();
        if done == 0 {
            return None;
        }
        let mean = self.records.iter().map(Record::seconds).sum::<f64>() / done as f64;
        let left = f64::from(config.generations.saturating_sub(done as u32));
        Some((mean * left - in_progress_seconds).max(0.0))
    }
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

/// A duration for a progress line: `42 s`, `7 min`, `2 h 05 min`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            generations: 3,
            games: 100,
            nodes: 500,
            random_plies: 8,
            hidden: "256,32".to_string(),
            buckets: 1,
            features: true,
            target: Target::Score,
            epochs: 5,
            window: 2,
            budget: "time=50ms".to_string(),
            sprt: "elo0=0,elo1=10".to_string(),
            test_games: 400,
            openings: vec!["startpos".to_string()],
            start: None,
            seed: 1,
        }
    }

    type Change = fn(&mut Config);

    #[test]
    fn a_config_is_checked_option_by_option() {
        assert_eq!(config().check(), Ok(()));
        let cases: [(Change, &str); 8] = [
            (|c| c.generations = 0, "--generations"),
            (|c| c.nodes = 0, "--nodes"),
            (|c| c.hidden = "100".to_string(), "--hidden"),
            (|c| c.sprt = "elo0=x".to_string(), "--sprt"),
            (|c| c.budget = "time=forever".to_string(), "--budget"),
            (
                |c| c.budget = "nodes=5,net=x".to_string(),
                "the networks are the run's",
            ),
            (|c| c.window = 0, "--window"),
            (
                |c| c.start = Some("a,b.yolahnet".to_string()),
                "--start 'a,b.yolahnet'",
            ),
        ];
        for (change, expected) in cases {
            let mut c = config();
            change(&mut c);
            let error = c.check().unwrap_err();
            assert!(error.contains(expected), "{error}");
        }
    }

    #[test]
    fn players_windows_and_seeds() {
        let c = config();
        assert_eq!(c.selfplay_spec(None), "minimax:nodes=500,tt=1,eval=nn");
        assert_eq!(
            c.selfplay_spec(Some("run/gen-002/network.yolahnet")),
            "minimax:nodes=500,tt=1,net=run/gen-002/network.yolahnet"
        );
        assert_eq!(
            test_spec("time=50ms", "eval=nn"),
            "minimax:time=50ms,eval=nn"
        );
        assert_eq!(
            test_spec("nodes=9", "a.yolahnet"),
            "minimax:nodes=9,net=a.yolahnet"
        );
        assert_eq!(c.window_of(1), 1..=1);
        assert_eq!(c.window_of(5), 4..=5);
        assert_ne!(c.generation_seed(1), c.generation_seed(2));
        assert_eq!(duration(42.4), "42 s");
        assert_eq!(duration(7.0 * 60.0 + 5.0), "7 min");
        assert_eq!(duration(2.0 * 3600.0 + 5.0 * 60.0), "2 h 05 min");
    }
}

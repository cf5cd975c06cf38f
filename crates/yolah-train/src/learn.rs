//! The generation loop's plan and bookkeeping (`yolah learn`): what a run is (its [`Config`]),
//! where it is ([`State`]: the generation and phase in progress, the best network so far,
//! every finished generation's [`Record`]), and the players and data each phase uses. The
//! command line runs the phases (self-play, training, the sequential test, the gauntlet) with
//! the same code as `yolah selfplay`, `yolah train` and `yolah match`.
//!
//! The gauntlet: a candidate the test accepts against its parent must also hold
//! its ground against other opponents (the tuned heuristic, MCTS, the networks promoted
//! before its parent), so that a gain against the parent alone, which can be a cycle, is not
//! promoted. [`decide`] states the rule.

use crate::train::Target;
use serde::{Deserialize, Serialize};
use std::fmt;
use yolah_ai::arena::sprt::{Sprt, expected_score};
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
/// The most games a side plays against each gauntlet opponent.
pub const MAX_GAUNTLET_GAMES: u32 = 100_000;
/// The most entries of a gauntlet.
pub const MAX_GAUNTLET: usize = 16;
/// The gauntlet's word for the networks promoted before the parent.
pub const PREVIOUS: &str = "previous";
/// How many of the networks promoted before the parent `previous` names (the start counts).
pub const PREVIOUS_NETWORKS: usize = 2;
/// A new run's gauntlet: the tuned heuristic, MCTS, the networks promoted before the parent.
pub const DEFAULT_GAUNTLET: [&str; 3] = ["minimax", "mcts", PREVIOUS];
/// A new run's games per side and opponent.
pub const DEFAULT_GAUNTLET_GAMES: u32 = 100;
/// The options of a spec that limit a move's search: an opponent that has one must play
/// under one (the test's budget, or its own).
const LIMITS: [&str; 4] = ["time", "nodes", "depth", "iterations"];

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
    /// Exact values for self-play's positions the solver proves (none in runs made before
    /// them); the candidates learn them where there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<crate::selfplay::Exact>,
    /// The opponents a candidate that passed the test meets, and its parent too: player
    /// specs, each played at the test's budget (the budget's options it takes and does not
    /// set), and [`PREVIOUS`] for the networks promoted before the parent. Empty (and so in
    /// runs made before the gauntlet): the test alone decides.
    #[serde(default)]
    pub gauntlet: Vec<String>,
    /// Games the candidate, and the parent, play against each gauntlet opponent (colour
    /// pairs, from the test's openings).
    #[serde(default = "default_gauntlet_games")]
    pub gauntlet_games: u32,
    /// Whether a candidate starts from its parent's weights (fine-tuned on the window's
    /// data) rather than fresh ones; the parent must have the candidates' shape. False in
    /// runs made before.
    #[serde(default)]
    pub warm: bool,
    /// The candidates' first learning rate (none: the trainer's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
}

fn default_gauntlet_games() -> u32 {
    DEFAULT_GAUNTLET_GAMES
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
        within(
            "gauntlet-games",
            u64::from(self.gauntlet_games),
            2,
            u64::from(MAX_GAUNTLET_GAMES),
        )?;
        if !self.gauntlet_games.is_multiple_of(2) {
            return Err(format!(
                "--gauntlet-games must be even (games come in colour pairs), not {}",
                self.gauntlet_games
            ));
        }
        self.shape()?;
        if let Some(rate) = self.learning_rate {
            crate::train::check_learning_rate(rate)?;
        }
        if let Some(exact) = self.exact {
            exact.check()?;
        }
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
            format!("minimax:net={start}")
                .parse::<Spec>()
                .map_err(|e| format!("--start '{start}': {e}"))?;
        }
        Spec::parse_without_files(&test_spec(&self.budget, "eval=nn"))
            .map_err(|e| format!("--budget '{}': {e}", self.budget))?;
        self.check_gauntlet()
    }

    /// The gauntlet's entries: at most [`MAX_GAUNTLET`], none twice, each a spec that plays
    /// at the test's budget (its network files read) or [`PREVIOUS`].
    fn check_gauntlet(&self) -> Result<(), String> {
        if self.gauntlet.len() > MAX_GAUNTLET {
            return Err(format!(
                "--gauntlet: at most {MAX_GAUNTLET} opponents, not {}",
                self.gauntlet.len()
            ));
        }
        for (k, entry) in self.gauntlet.iter().enumerate() {
            if self.gauntlet[..k].contains(entry) {
                return Err(format!("--gauntlet '{entry}' is given twice"));
            }
            if entry != PREVIOUS {
                at_budget(entry, &self.budget)?;
            }
        }
        Ok(())
    }

    /// The gauntlet's opponents as played, in order, each once: the entries at the test's
    /// budget, [`PREVIOUS`] as `previous` (the networks promoted before the parent, oldest
    /// first: files, none for the run's start), none the parent's own spec (`parent`: the
    /// candidate met it in the test).
    pub fn gauntlet_specs(
        &self,
        previous: &[Option<String>],
        parent: &str,
    ) -> Result<Vec<String>, String> {
        let mut specs: Vec<String> = Vec::new();
        for entry in &self.gauntlet {
            if entry == PREVIOUS {
                specs.extend(
                    previous
                        .iter()
                        .map(|p| test_spec(&self.budget, &self.network_option(p.as_deref()))),
                );
            } else {
                specs.push(at_budget(entry, &self.budget)?);
            }
        }
        let mut seen = std::collections::HashSet::new();
        specs.retain(|s| s != parent && seen.insert(s.clone()));
        Ok(specs)
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

    /// Whether the test's players play an opening the same way each time it comes back
    /// ([`Spec::repeats_itself`]: a budget without `time=`, like nodes or depth, on one
    /// thread).
    pub fn repeats_itself(&self) -> bool {
        Spec::parse_without_files(&test_spec(&self.budget, "eval=nn"))
            .is_ok_and(|spec| spec.repeats_itself())
    }

    /// The most games a test or gauntlet match plays of the `wanted`: with a budget that
    /// repeats itself, two an opening (one in each colour), since more would count the same
    /// games again (the runner cycles through the openings).
    pub fn games_at_most(&self, wanted: u32) -> u32 {
        if self.repeats_itself() {
            let openings = u32::try_from(self.openings.len()).unwrap_or(u32::MAX);
            wanted.min(openings.saturating_mul(2).max(2))
        } else {
            wanted
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

/// A gauntlet opponent at the test's budget: `entry` (a player spec) with each of the
/// budget's options it takes and does not set itself, like `--each` gives them. An opponent
/// that has a limit option (time, nodes, depth, iterations) but sets none after that would
/// play at its own default: refused, so that a node-limited run stays reproducible.
pub fn at_budget(entry: &str, budget: &str) -> Result<String, String> {
    let refused = |e: &dyn fmt::Display| format!("--gauntlet '{entry}': {e}");
    let mut spec = entry.parse::<Spec>().map_err(|e| refused(&e))?;
    for item in budget.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (key, value) = item.split_once('=').unwrap_or((item, ""));
        if spec.takes(key) && !spec.gives(key) {
            spec = spec.with(key, value).map_err(|e| refused(&e))?;
        }
    }
    if LIMITS.iter().any(|l| spec.has_option(l)) && !LIMITS.iter().any(|l| spec.sets(l)) {
        return Err(format!(
            "--gauntlet '{entry}': --budget '{budget}' gives {name} no limit it takes; give it \
             one, like {name}:time=50ms",
            name = spec.name()
        ));
    }
    Ok(spec.to_string())
}

/// One side's results against an opponent, as `yolah match --json` gives them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Games played.
    pub games: u64,
    /// Points per game of the finished pairs.
    pub score: f64,
    /// The Elo of that score.
    pub elo: f64,
    /// The low end of the Elo's 95 % interval.
    pub elo_low: f64,
    /// The high end of the Elo's 95 % interval.
    pub elo_high: f64,
}

impl Results {
    /// Half the width of the score's 95 % interval (the Elo interval taken back to scores:
    /// robust where a lopsided score makes the Elo's huge).
    fn score_half_width(&self) -> f64 {
        (expected_score(self.elo_high) - expected_score(self.elo_low)) / 2.0
    }
}

/// The candidate's and the parent's results against one gauntlet opponent, a row of
/// `DIR/gauntlet.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Faced {
    /// The generation of the candidate.
    pub generation: u32,
    /// The opponent, as played.
    pub opponent: String,
    /// The candidate's games.
    pub candidate_games: u64,
    /// The candidate's score.
    pub candidate_score: f64,
    /// The candidate's Elo against the opponent.
    pub candidate_elo: f64,
    /// The low end of its 95 % interval.
    pub candidate_elo_low: f64,
    /// The high end.
    pub candidate_elo_high: f64,
    /// The parent's games.
    pub parent_games: u64,
    /// The parent's score.
    pub parent_score: f64,
    /// The parent's Elo against the opponent.
    pub parent_elo: f64,
    /// The low end of its 95 % interval.
    pub parent_elo_low: f64,
    /// The high end.
    pub parent_elo_high: f64,
    /// Whether the candidate held its ground (see [`decide`]).
    pub held: bool,
}

impl Faced {
    /// The results of both sides against `opponent`, judged.
    pub fn new(generation: u32, opponent: &str, candidate: Results, parent: Results) -> Faced {
        // The drop is significant when it exceeds the two 95 % half-widths combined: the
        // difference of two independent estimates has the variance of both.
        let drop = parent.score - candidate.score;
        let allowed = candidate
            .score_half_width()
            .hypot(parent.score_half_width());
        Faced {
            generation,
            opponent: opponent.to_string(),
            candidate_games: candidate.games,
            candidate_score: candidate.score,
            candidate_elo: candidate.elo,
            candidate_elo_low: candidate.elo_low,
            candidate_elo_high: candidate.elo_high,
            parent_games: parent.games,
            parent_score: parent.score,
            parent_elo: parent.elo,
            parent_elo_low: parent.elo_low,
            parent_elo_high: parent.elo_high,
            held: drop <= allowed,
        }
    }

    /// `against mcts: candidate 41.0 %, Elo -63 [-120, -8]; parent 52.0 %, Elo +14 [-40, +68]`.
    pub fn line(&self) -> String {
        format!(
            "against {}: candidate {:.1} %, Elo {:+.0} [{:+.0}, {:+.0}]; parent {:.1} %, Elo \
             {:+.0} [{:+.0}, {:+.0}]",
            self.opponent,
            100.0 * self.candidate_score,
            self.candidate_elo,
            self.candidate_elo_low,
            self.candidate_elo_high,
            100.0 * self.parent_score,
            self.parent_elo,
            self.parent_elo_low,
            self.parent_elo_high
        )
    }
}

/// A record's gauntlet word when the candidate held against every opponent.
pub const HELD: &str = "held";

/// Whether a candidate is promoted: the test against its parent must accept H1 (`verdict`,
/// a record's word), then against every gauntlet opponent the candidate must hold its ground
/// — its score there not below the parent's by more than the two scores' 95 % half-widths
/// combined (`√(h_c² + h_p²)`), that is, the games must not show at 95 % that it does worse
/// than its parent against that opponent. Playing the same openings makes the two scores
/// agree more than independent ones would, so the allowance is generous: the gauntlet
/// refuses only a loss its games show. Err: why not, every opponent lost ground against.
pub fn decide(verdict: &str, faced: &[Faced]) -> Result<(), String> {
    if verdict != "H1" {
        return Err(format!("the test's verdict is {verdict}"));
    }
    let lost: Vec<String> = faced
        .iter()
        .filter(|f| !f.held)
        .map(|f| {
            format!(
                "{}, {:.1} % (Elo {:+.0} [{:+.0}, {:+.0}]) vs the parent's {:.1} % (Elo {:+.0} \
                 [{:+.0}, {:+.0}])",
                f.opponent,
                100.0 * f.candidate_score,
                f.candidate_elo,
                f.candidate_elo_low,
                f.candidate_elo_high,
                100.0 * f.parent_score,
                f.parent_elo,
                f.parent_elo_low,
                f.parent_elo_high
            )
        })
        .collect();
    if lost.is_empty() {
        Ok(())
    } else {
        Err(format!("lost ground against {}", lost.join("; against ")))
    }
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
    /// A candidate the test accepted, and its parent, against each gauntlet opponent.
    Gauntlet,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::SelfPlay => "self-play",
            Phase::Train => "training",
            Phase::Test => "testing",
            Phase::Gauntlet => "gauntlet",
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
    /// of older builds wrote `undecided`, read as `inconclusive`).
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
    /// The gauntlet's outcome: empty when none was played (the test did not accept H1, or
    /// the run has no gauntlet), [`HELD`], or why the candidate was not promoted ([`decide`]).
    /// Each opponent's results are in the state's `gauntlet` and `DIR/gauntlet.csv`.
    #[serde(default)]
    pub gauntlet: String,
    /// Seconds of the gauntlet (of the process that finished it).
    #[serde(default)]
    pub gauntlet_seconds: f64,
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
        self.selfplay_seconds + self.train_seconds + self.test_seconds + self.gauntlet_seconds
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
    /// Seconds of the phases of the generation in progress that are done (self-play,
    /// training, the test).
    pub seconds: [f64; 3],
    /// The gauntlet results of the finished generations, by generation and opponent (none
    /// in runs made before the gauntlet).
    #[serde(default)]
    pub gauntlet: Vec<Faced>,
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
            gauntlet: Vec::new(),
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
        if let Some(f) = self
            .gauntlet
            .iter()
            .find(|f| f.generation == 0 || f.generation >= self.generation)
        {
            return Err(format!(
                "a gauntlet result of generation {}, which is not finished",
                f.generation
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

    /// The networks promoted before the best one (the parent of the generation in progress),
    /// at most [`PREVIOUS_NETWORKS`], oldest first: as `best_of` names a generation's network,
    /// none for the run's start.
    pub fn previous(&self, best_of: impl Fn(u32) -> String) -> Vec<Option<String>> {
        let promoted: Vec<Option<String>> = std::iter::once(None)
            .chain(
                self.records
                    .iter()
                    .filter(|r| r.promoted)
                    .map(|r| Some(best_of(r.generation))),
            )
            .collect();
        // The last is the best network itself.
        let before = &promoted[..promoted.len() - 1];
        before[before.len().saturating_sub(PREVIOUS_NETWORKS)..].to_vec()
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
mod tests;

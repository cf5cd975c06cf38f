//! `yolah zero --out DIR`: `AlphaZero` from zero on this machine. Each generation: self-play of
//! the `alphazero` player with the latest network (Dirichlet noise at the root, moves drawn by
//! their visits early in the game), training on the last generations' positions (visit shares
//! and results, or results mixed with the search's values), then matches of the new network
//! against fixed opponents, the learning curve.
//! As `AlphaZero` does (and `AlphaGo` Zero did not), the latest network always plays the next
//! self-play: the matches measure, they do not gate. Resumable: self-play is kept in chunks
//! of games, every file is written whole, and `DIR/state.json` says where the run is.
//!
//! ```text
//! DIR/zero.json              the run's config      DIR/state.json          where it is
//! DIR/generations.csv        a row per generation, each opponent's score and Elo
//! DIR/learning.png           each opponent's score by generation and by hours
//! DIR/gen-000/network.yolahpv   the random start   DIR/gen-000/vs-01.csv   its matches
//! DIR/gen-001/games-0000.bin … its self-play (chunks of games), network.yolahpv, vs-NN.csv
//! ```

use super::matches::versus::Tested;
use super::{UsageError, read_json, usage, write_atomic};
use anyhow::{Context, Result, ensure};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::players::alphazero::network::{DEFAULT_HIDDEN, MAX_HIDDEN, Parameters};
use yolah_train::selfplay::Exact;
use yolah_train::zero::{
    PlayoutCap, SelfPlay, Trainer, play_games, samples_from_bytes, samples_to_bytes,
};

/// The options of `yolah zero`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The run's directory (created; with --resume, the run to go on with).
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Generations, 1 to 1000 (with --resume: raises the total) [default: 20].
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// Self-play games per generation, 8 to 100000 [default: 400].
    #[arg(long, short, value_name = "N")]
    pub games: Option<u64>,
    /// Visits per self-play move, 2 to 100000 [default: 200].
    #[arg(long, value_name = "N")]
    pub visits: Option<u64>,
    /// Self-play with Gumbel `AlphaZero`'s root (Danihelka et al., 2022) considering M moves,
    /// 2 to 64: Sequential Halving shares the visits among them, the policy target is its
    /// improved policy, the move played the one it chose [default: PUCT's root, Dirichlet
    /// noise, the policy target the visit shares]. The matches play PUCT either way.
    #[arg(long, value_name = "M")]
    pub gumbel: Option<u32>,
    /// `KataGo`'s playout cap randomisation: most moves searched fast at N visits (1 to
    /// --visits − 1, no noise, the most visited played) and not recorded, a share of them
    /// (--full-share) searched at --visits and recorded [default: every move searched at
    /// --visits and recorded].
    #[arg(long, value_name = "N")]
    pub fast_visits: Option<u64>,
    /// With --fast-visits, the share of moves searched fully and recorded, above 0 and at
    /// most 1 [default: 0.25].
    #[arg(long, value_name = "SHARE", requires = "fast_visits")]
    pub full_share: Option<f64>,
    /// Plies at the start of each self-play game whose move is drawn in proportion to its
    /// visits (PUCT's root), 0 to 200; the most visited move is played after them [default:
    /// 20].
    #[arg(long, value_name = "PLIES")]
    pub explore: Option<u32>,
    /// The network's hidden units, 8 to 1024, a multiple of 8 [default: 128].
    #[arg(long, value_name = "H")]
    pub hidden: Option<usize>,
    /// Whether the network also reads the heuristic's 22 features (mobility, territories,
    /// regions…, computed from the rules), on or off [default: off: the board alone].
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    pub features: Option<String>,
    /// Passes over the window's positions per generation, 1 to 100 [default: 4].
    #[arg(long, short, value_name = "N")]
    pub epochs: Option<u32>,
    /// Generations of self-play the network trains on (its own and those before), 1 to 50
    /// [default: 4].
    #[arg(long, value_name = "N")]
    pub window: Option<u32>,
    /// Adam's step size, 0.000001 to 0.1 [default: 0.001].
    #[arg(long, value_name = "RATE")]
    pub learning_rate: Option<f64>,
    /// The search's share of the value target, 0 to 1: the network learns
    /// (1 − MIX)·result + MIX·(the search's value at the root) [default: 0, the result alone].
    #[arg(long, value_name = "MIX")]
    pub value_mix: Option<f64>,
    /// `KataGo`'s score target: the network's margin head learns each game's final margin
    /// (in units of 16 points), its squared error weighted W, 0 to 10, beside the value's and
    /// the policy's losses; its gradient shapes the layers the heads share. The player never
    /// reads the head [default: 0, no margin target].
    #[arg(long, value_name = "W")]
    pub margin_weight: Option<f64>,
    /// The solver's exact values as targets: each game's positions with at most N free
    /// squares, 1 to 32, that the solver proves (from the last back) learn their result and
    /// final margin with best play instead of the game's [default: off, the game's].
    #[arg(long, value_name = "N")]
    pub exact_free: Option<u32>,
    /// The solver's budget per position for --exact-free, 1 to 100000000 nodes [default:
    /// 1000000].
    #[arg(long, value_name = "NODES", requires = "exact_free")]
    pub exact_nodes: Option<u64>,
    /// An opponent every generation's network plays (at --visits, no noise); repeat it for
    /// more [default: random, mcts:iterations=1000].
    #[arg(long, value_name = "SPEC")]
    pub opponent: Vec<String>,
    /// Games against each opponent per generation, even, 2 to 10000 [default: 40].
    #[arg(long, value_name = "N")]
    pub test_games: Option<u32>,
    /// Gate each new network, as `AlphaGo` Zero did: it plays N games (even, 2 to 10000) against
    /// the network self-play uses, and replaces it only with at least 55 % [default: no gate,
    /// as `AlphaZero`: the latest network always plays].
    #[arg(long, value_name = "N")]
    pub gate: Option<u32>,
    /// The run's seed [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Games played at once, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// Go on with the run in --out where it stopped.
    #[arg(long)]
    pub resume: bool,
}

/// A run's settings, kept in `DIR/zero.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    generations: u32,
    games: u64,
    visits: u64,
    hidden: usize,
    /// Whether the network reads the features. Runs made before them have none.
    #[serde(default)]
    features: bool,
    epochs: u32,
    window: u32,
    learning_rate: f64,
    /// The search's share of the value target. Runs made before it have 0.
    #[serde(default)]
    value_mix: f64,
    /// The margin head's loss's weight. Runs made before it have 0.
    #[serde(default)]
    margin_weight: f64,
    opponents: Vec<String>,
    test_games: u32,
    seed: u64,
    /// Games of the gate (0: none). Runs made before the gate have none.
    #[serde(default)]
    gate: u32,
    /// Moves a Gumbel root considers in self-play (0: PUCT's root). Runs made before it
    /// have 0.
    #[serde(default)]
    gumbel: u32,
    /// Visits of playout cap randomisation's fast searches (0: none, every move searched
    /// fully). Runs made before it have 0.
    #[serde(default)]
    fast_visits: u64,
    /// The share of moves searched fully with a playout cap. Runs made before it have 0.
    #[serde(default)]
    full_share: f64,
    /// The solver's exact values as targets, if asked. Runs made before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exact: Option<Exact>,
    /// Plies whose self-play move is drawn by its visits. Runs made before it drew 20.
    #[serde(default = "default_explore")]
    explore: u32,
}

/// Plies whose self-play move is drawn by its visits, unless told.
const DEFAULT_EXPLORE: u32 = 20;

fn default_explore() -> u32 {
    DEFAULT_EXPLORE
}

/// The score a gated network needs against the one self-play uses, as `AlphaGo` Zero's.
const GATE_SCORE: f64 = 0.55;

impl Config {
    fn check(&self) -> Result<(), String> {
        let within = |name: &str, value: u64, low: u64, high: u64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(format!("{name} is {value}: {low} to {high}"))
            }
        };
        within("generations", u64::from(self.generations), 1, 1000)?;
        within("games", self.games, 8, 100_000)?;
        within("visits", self.visits, 2, 100_000)?;
        within("hidden", self.hidden as u64, 8, MAX_HIDDEN as u64)?;
        if !self.hidden.is_multiple_of(8) {
            return Err(format!("hidden is {}: a multiple of 8", self.hidden));
        }
        within("epochs", u64::from(self.epochs), 1, 100)?;
        within("window", u64::from(self.window), 1, 50)?;
        within("explore", u64::from(self.explore), 0, 200)?;
        within("test games", u64::from(self.test_games), 2, 10_000)?;
        if self.gate != 0 {
            within("gate games", u64::from(self.gate), 2, 10_000)?;
            if !self.gate.is_multiple_of(2) {
                return Err(format!("gate games is {}: an even number", self.gate));
            }
        }
        if self.gumbel != 0 {
            within("gumbel", u64::from(self.gumbel), 2, 64)?;
        }
        if self.fast_visits != 0 {
            within("fast visits", self.fast_visits, 1, self.visits - 1)?;
            if !(self.full_share > 0.0 && self.full_share <= 1.0) {
                return Err(format!(
                    "full share is {}: above 0 and at most 1",
                    self.full_share
                ));
            }
        }
        if !self.test_games.is_multiple_of(2) {
            return Err(format!("test games is {}: an even number", self.test_games));
        }
        if !(1e-6..=0.1).contains(&self.learning_rate) {
            return Err(format!(
                "learning rate is {}: 0.000001 to 0.1",
                self.learning_rate
            ));
        }
        if !(0.0..=1.0).contains(&self.value_mix) {
            return Err(format!("value mix is {}: 0 to 1", self.value_mix));
        }
        if !(0.0..=10.0).contains(&self.margin_weight) {
            return Err(format!("margin weight is {}: 0 to 10", self.margin_weight));
        }
        if let Some(exact) = self.exact {
            exact.check()?;
        }
        if self.opponents.len() > 16 {
            return Err("at most 16 opponents".into());
        }
        for spec in &self.opponents {
            spec.parse::<yolah_ai::spec::Spec>()
                .map_err(|e| format!("opponent {spec}: {e}"))?;
        }
        Ok(())
    }

    /// The player a generation's network is in matches.
    fn candidate(&self, network: &Path) -> Result<String> {
        Ok(format!(
            "alphazero:iterations={},net={}",
            self.visits,
            path_text(network)?
        ))
    }
}

/// Where a run is.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    /// The generation in progress (0: the random start's matches).
    generation: u32,
    /// Its phase: `selfplay`, `train` or `test`.
    phase: String,
    /// Seconds spent by the finished phases, all generations together.
    seconds: f64,
    /// With a gate: the generation whose network self-play uses (without one, the last).
    #[serde(default)]
    best: u32,
}

const CONFIG: &str = "zero.json";
const STATE: &str = "state.json";
const TABLE: &str = "generations.csv";
const NETWORK: &str = "network.yolahpv";
const PLOT: &str = "learning.png";
/// Self-play games kept per file: a kill loses at most these.
const CHUNK: u64 = 16;

fn folder(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("gen-{generation:03}"))
}

fn path_text(path: &Path) -> Result<String> {
    let text = path
        .to_str()
        .with_context(|| format!("{} is not UTF-8", path.display()))?;
    ensure!(
        !text.contains(',') && !text.contains('=') && text.trim() == text,
        "'{text}': a run's path cannot hold ',' or '=' nor start or end with a space (it goes into player specs)"
    );
    Ok(text.to_string())
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(threads) = options.threads {
        usage!(
            (1..=1024).contains(&threads),
            "--threads is {threads}: 1 to 1024"
        );
    }
    let (config, mut state, _lock) = if options.resume {
        resume(options)?
    } else {
        start(options)?
    };
    let dir = &options.out;
    let threads = options.threads.unwrap_or_else(num_cpus);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the self-play threads")?;
    while state.generation <= config.generations {
        let generation = state.generation;
        let here = folder(dir, generation);
        std::fs::create_dir_all(&here).with_context(|| format!("creating {}", here.display()))?;
        let started = Instant::now();
        match state.phase.as_str() {
            "selfplay" => {
                let player = if config.gate > 0 {
                    state.best
                } else {
                    generation - 1
                };
                writeln!(
                    out,
                    "zero: generation {generation} self-play with generation {player}'s network"
                )?;
                pool.install(|| self_play(dir, &config, generation, player))?;
                state.phase = "train".into();
            }
            "train" => {
                let positions = pool.install(|| train(dir, &config, generation))?;
                writeln!(
                    out,
                    "zero: generation {generation} trained on {positions} positions"
                )?;
                state.phase = "test".into();
            }
            _ => {
                if test(out, dir, &config, &state, generation, threads)? {
                    state.best = generation;
                }
                state.generation += 1;
                state.phase = "selfplay".into();
            }
        }
        state.seconds += started.elapsed().as_secs_f64();
        write_atomic(&dir.join(STATE), &serde_json::to_string_pretty(&state)?)?;
    }
    writeln!(
        out,
        "zero: {} generations done in {:.1} h; the last network: {}",
        config.generations,
        state.seconds / 3600.0,
        folder(dir, config.generations).join(NETWORK).display()
    )?;
    Ok(())
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

fn start(options: &Options) -> Result<(Config, State, DirLock)> {
    let opponents = if options.opponent.is_empty() {
        vec!["random".to_string(), "mcts:iterations=1000".to_string()]
    } else {
        options.opponent.clone()
    };
    if let Some(m) = options.gumbel
        && !(2..=64).contains(&m)
    {
        return Err(UsageError(format!("gumbel is {m}: 2 to 64")).into());
    }
    if options.fast_visits == Some(0) {
        return Err(UsageError("fast visits is 0: 1 to --visits − 1".into()).into());
    }
    let config = Config {
        generations: options.generations.unwrap_or(20),
        games: options.games.unwrap_or(400),
        visits: options.visits.unwrap_or(200),
        hidden: options.hidden.unwrap_or(DEFAULT_HIDDEN),
        features: options.features.as_deref() == Some("on"),
        epochs: options.epochs.unwrap_or(4),
        window: options.window.unwrap_or(4),
        learning_rate: options.learning_rate.unwrap_or(0.001),
        value_mix: options.value_mix.unwrap_or(0.0),
        margin_weight: options.margin_weight.unwrap_or(0.0),
        opponents,
        test_games: options.test_games.unwrap_or(40),
        gate: options.gate.unwrap_or(0),
        gumbel: options.gumbel.unwrap_or(0),
        fast_visits: options.fast_visits.unwrap_or(0),
        full_share: if options.fast_visits.is_some() {
            options.full_share.unwrap_or(0.25)
        } else {
            0.0
        },
        exact: options.exact_free.map(|free| Exact {
            free,
            nodes: options
                .exact_nodes
                .unwrap_or(super::selfplay::DEFAULT_EXACT_NODES),
        }),
        explore: options.explore.unwrap_or(DEFAULT_EXPLORE),
        seed: options.seed.unwrap_or(1),
    };
    config.check().map_err(UsageError)?;
    let dir = &options.out;
    // The networks' paths go into player specs: checked before anything is made.
    path_text(&folder(dir, 0).join(NETWORK)).map_err(|e| UsageError(format!("--out: {e}")))?;
    // A start killed while it wrote its config leaves the lock and the config's temporary:
    // this start writes the config again.
    let lock = super::new_dir(dir, || yolah_ai::files::ensure_empty_but(dir, Some(CONFIG)))?;
    yolah_ai::files::remove_temporaries_of(dir, CONFIG).map_err(anyhow::Error::msg)?;
    write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&config)?)?;
    let state = first_generation(dir, &config)?;
    Ok((config, state, lock))
}

/// Generation 0 of a run whose config is written: its network of random weights (drawn from
/// the run's seed, so the same every time) and the state before its test. A start killed
/// before its state was written is finished so by `--resume`.
fn first_generation(dir: &Path, config: &Config) -> Result<State> {
    let first = folder(dir, 0);
    std::fs::create_dir_all(&first)?;
    let network = Parameters::random(config.hidden, config.features, config.seed);
    super::write_bytes(&first.join(NETWORK), &network.to_bytes())?;
    let state = State {
        generation: 0,
        phase: "test".into(),
        seconds: 0.0,
        best: 0,
    };
    write_atomic(&dir.join(STATE), &serde_json::to_string_pretty(&state)?)?;
    Ok(state)
}

fn resume(options: &Options) -> Result<(Config, State, DirLock)> {
    usage!(
        options.games.is_none()
            && options.visits.is_none()
            && options.hidden.is_none()
            && options.features.is_none()
            && options.epochs.is_none()
            && options.window.is_none()
            && options.learning_rate.is_none()
            && options.value_mix.is_none()
            && options.margin_weight.is_none()
            && options.opponent.is_empty()
            && options.test_games.is_none()
            && options.gate.is_none()
            && options.gumbel.is_none()
            && options.fast_visits.is_none()
            && options.full_share.is_none()
            && options.explore.is_none()
            && options.exact_free.is_none()
            && options.exact_nodes.is_none()
            && options.seed.is_none(),
        "--resume takes its settings from {CONFIG}: only --generations and --threads may be given"
    );
    let dir = &options.out;
    ensure!(
        dir.join(CONFIG).is_file(),
        "nothing to resume: '{}' holds no AlphaZero run ({CONFIG} is missing)",
        dir.display()
    );
    let lock = DirLock::take(dir)?;
    let mut config: Config = read_json(&dir.join(CONFIG), "an AlphaZero run's config")?;
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(CONFIG).display()))?;
    let state: State = if dir.join(STATE).exists() || folder(dir, 1).exists() {
        read_json(&dir.join(STATE), "an AlphaZero run's state")?
    } else {
        // A start killed after its config: nothing of generation 0 is kept yet.
        first_generation(dir, &config)?
    };
    let phases = if state.generation == 0 {
        &["test"][..]
    } else {
        &["selfplay", "train", "test"]
    };
    ensure!(
        phases.contains(&state.phase.as_str())
            && state.generation <= config.generations + 1
            && state.seconds.is_finite()
            && state.seconds >= 0.0
            && state.best <= state.generation,
        "{} is not this run's state: generation {} at {:?} in a run of {} generations, {} seconds",
        dir.join(STATE).display(),
        state.generation,
        state.phase,
        config.generations,
        state.seconds
    );
    // The start's network, which every run has: a config that disagrees with it is refused
    // before anything is written.
    load_network(&folder(dir, 0).join(NETWORK), &config)?;
    if let Some(generations) = options.generations {
        usage!(
            (state.generation.saturating_sub(1)..=1000).contains(&generations),
            "--generations is {generations}: at least the {} finished, at most 1000",
            state.generation.saturating_sub(1)
        );
        config.generations = generations;
        write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&config)?)?;
    }
    eprintln!(
        "zero: resuming at generation {} ({}), {:.1} h so far",
        state.generation,
        state.phase,
        state.seconds / 3600.0
    );
    Ok((config, state, lock))
}

/// A network of the run, which must have the shape `zero.json` says.
fn load_network(path: &Path, config: &Config) -> Result<Parameters> {
    let network = Parameters::load(path).map_err(anyhow::Error::msg)?;
    let with = |features: bool| if features { "with" } else { "without" };
    ensure!(
        network.hidden == config.hidden && network.features == config.features,
        "{} has {} hidden units {} features where {CONFIG} says {} {} features",
        path.display(),
        network.hidden,
        with(network.features),
        config.hidden,
        with(config.features)
    );
    Ok(network)
}

/// The generation's self-play with generation `player`'s network, chunk by chunk; chunks
/// already written are kept.
fn self_play(dir: &Path, config: &Config, generation: u32, player: u32) -> Result<()> {
    let network = Arc::new(load_network(&folder(dir, player).join(NETWORK), config)?);
    let here = folder(dir, generation);
    let play = SelfPlay {
        visits: config.visits,
        noise: 0.25,
        explore: config.explore,
        gumbel: (config.gumbel > 0).then_some(config.gumbel as usize),
        cap: (config.fast_visits > 0).then_some(PlayoutCap {
            fast: config.fast_visits,
            full: config.full_share,
        }),
        exact: config.exact,
    };
    let seed = config.seed ^ (u64::from(generation) << 32);
    let chunks = config.games.div_ceil(CHUNK);
    let started = Instant::now();
    for chunk in 0..chunks {
        let path = here.join(format!("games-{chunk:04}.bin"));
        if path.is_file() {
            continue;
        }
        let games = chunk * CHUNK..((chunk + 1) * CHUNK).min(config.games);
        let samples = play_games(&network, play, seed, games.clone());
        super::write_bytes(&path, &samples_to_bytes(&samples))?;
        eprintln!(
            "zero: generation {generation} self-play: {} of {} games, {} positions in this chunk, {:.0} s",
            games.end,
            config.games,
            samples.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The samples of a generation's self-play.
fn samples_of(
    dir: &Path,
    config: &Config,
    generation: u32,
) -> Result<Vec<yolah_train::zero::Sample>> {
    let here = folder(dir, generation);
    let mut all = Vec::new();
    for chunk in 0..config.games.div_ceil(CHUNK) {
        let path = here.join(format!("games-{chunk:04}.bin"));
        let bytes = yolah_ai::files::read_bounded(&path, 1 << 30)
            .with_context(|| format!("cannot read {}", path.display()))?;
        all.extend(
            samples_from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        );
    }
    Ok(all)
}

/// Trains the last network on the window's positions into this generation's: how many.
fn train(dir: &Path, config: &Config, generation: u32) -> Result<usize> {
    let first = generation.saturating_sub(config.window - 1).max(1);
    let mut samples = Vec::new();
    for g in first..=generation {
        samples.extend(samples_of(dir, config, g)?);
    }
    let network = load_network(&folder(dir, generation - 1).join(NETWORK), config)?;
    let mut trainer = Trainer::new(network, config.learning_rate as f32);
    trainer.value_mix = config.value_mix as f32;
    trainer.margin_weight = config.margin_weight as f32;
    let started = Instant::now();
    let mut log = String::new();
    // Against the mixed target the value's loss has less spread: said, so that runs with
    // different mixes are not compared by it.
    let value = if config.value_mix > 0.0 {
        format!("value (against the mix {})", config.value_mix)
    } else {
        "value".to_string()
    };
    trainer.train(
        &samples,
        config.epochs,
        256,
        true,
        config.seed ^ u64::from(generation),
        &mut |epoch, losses| {
            let margin = if config.margin_weight > 0.0 {
                format!(", margin {:.4}", losses.margin)
            } else {
                String::new()
            };
            let line = format!(
                "generation {generation} epoch {epoch}: policy {:.4}, {value} {:.4}{margin}, {} positions, {:.0} s",
                losses.policy,
                losses.value,
                samples.len(),
                started.elapsed().as_secs_f64()
            );
            eprintln!("zero: {line}");
            log.push_str(&line);
            log.push('\n');
        },
    );
    let here = folder(dir, generation);
    write_atomic(&here.join("train.log"), &log)?;
    super::write_bytes(&here.join(NETWORK), &trainer.network.to_bytes())?;
    Ok(samples.len())
}

/// A match of the run from random openings, resumed from its record: `first`'s result.
fn play_match(
    players: [&str; 2],
    games: u32,
    seed: u64,
    threads: usize,
    record: PathBuf,
) -> Result<Tested> {
    let pairing = super::Pairing {
        seed: Some(seed),
        threads: Some(threads),
        ..super::Pairing::default()
    };
    let players = players.map(str::to_string);
    Ok(super::matches::recorded::recorded(
        players,
        games,
        None,
        pairing,
        record,
        &crate::slurm::ClusterOptions::default(),
    )?
    .0)
}

/// The generation's network against each opponent, and with a gate against the network
/// self-play uses; a row of the table. Whether the network passed the gate (without a gate,
/// always).
fn test(
    out: &mut impl Write,
    dir: &Path,
    config: &Config,
    state: &State,
    generation: u32,
    threads: usize,
) -> Result<bool> {
    let here = folder(dir, generation);
    let candidate = config.candidate(&here.join(NETWORK))?;
    let seed = config.seed ^ u64::from(generation);
    let mut row = format!("{generation},{:.3}", state.seconds / 3600.0);
    for (k, opponent) in config.opponents.iter().enumerate() {
        let record = here.join(format!("vs-{:02}.csv", k + 1));
        let tested = play_match(
            [&candidate, opponent],
            config.test_games,
            seed,
            threads,
            record,
        )?;
        writeln!(
            out,
            "zero: generation {generation} against {opponent}: {:.1} % of {} games, Elo {:+.0} [{:+.0}, {:+.0}]",
            100.0 * tested.score,
            tested.games,
            tested.elo,
            tested.elo_low,
            tested.elo_high
        )?;
        write!(
            row,
            ",{:.4},{:.1},{:.1},{:.1}",
            tested.score, tested.elo, tested.elo_low, tested.elo_high
        )?;
    }
    let mut promoted = true;
    if config.gate > 0 {
        let (score, passed) = if generation == 0 {
            (0.5, true)
        } else {
            let best = config.candidate(&folder(dir, state.best).join(NETWORK))?;
            let tested = play_match(
                [&candidate, &best],
                config.gate,
                seed,
                threads,
                here.join("gate.csv"),
            )?;
            (tested.score, tested.score >= GATE_SCORE)
        };
        promoted = passed;
        writeln!(
            out,
            "zero: generation {generation} against generation {}'s network (the gate): {:.1} % of {} games: {}",
            state.best,
            100.0 * score,
            config.gate,
            if passed { "promoted" } else { "not promoted" }
        )?;
        write!(row, ",{score:.4},{passed}")?;
    }
    let table = dir.join(TABLE);
    let mut text = if table.is_file() {
        yolah_ai::files::read_text_bounded(&table, 1 << 20)?
    } else {
        let mut header = "generation,hours".to_string();
        for k in 1..=config.opponents.len() {
            write!(header, ",score_{k},elo_{k},elo_low_{k},elo_high_{k}")?;
        }
        if config.gate > 0 {
            header.push_str(",gate_score,promoted");
        }
        header + "\n"
    };
    // A test cut short by a kill may have written its row already.
    let prefix = format!("{generation},");
    if !text.lines().any(|line| line.starts_with(&prefix)) {
        text.push_str(&row);
        text.push('\n');
    }
    write_atomic(&table, &text)?;
    draw(&dir.join(PLOT), &text, &config.opponents)?;
    Ok(promoted)
}

/// The learning curve: each opponent's score by generation, and by hours of the run.
fn draw(path: &Path, table: &str, opponents: &[String]) -> Result<()> {
    let rows: Vec<Vec<f64>> = table
        .lines()
        .skip(1)
        .map(|line| {
            line.split(',')
                .map(|cell| cell.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    let colors = [
        plotters::style::RGBColor(40, 80, 200),
        plotters::style::RGBColor(200, 60, 40),
        plotters::style::RGBColor(40, 150, 60),
        plotters::style::RGBColor(150, 60, 170),
        plotters::style::RGBColor(220, 150, 20),
    ];
    let names: Vec<String> = opponents
        .iter()
        .map(|o| super::plot::short_spec(o))
        .collect();
    let series = |x: usize| -> Vec<super::plot::Series<'_>> {
        names
            .iter()
            .enumerate()
            .map(|(k, name)| super::plot::Series {
                name,
                points: rows
                    .iter()
                    .filter(|row| row.len() > 2 + 4 * k)
                    .map(|row| (row[x], 100.0 * row[2 + 4 * k]))
                    .collect(),
                color: colors[k % colors.len()],
            })
            .collect()
    };
    super::plot::lines(
        path,
        "AlphaZero from zero: score against each opponent (%)",
        "generation (left), hours (right)",
        &[
            super::plot::Panel {
                y_label: "score by generation (%)",
                series: series(0),
            },
            super::plot::Panel {
                y_label: "score by hours of the run (%)",
                series: series(1),
            },
        ],
        false,
    )
}

//! `yolah learn --out DIR`: generations of self-play, training, a sequential test and a
//! gauntlet, the candidate promoted only when the test accepts H1 and it holds its ground
//! against every gauntlet opponent (`learn::decide`). Each phase is the command that does it
//! alone (`selfplay`, `train`, `match --sprt`, `match` against each opponent), run into the
//! generation's folder and resumed the way that command resumes; `DIR/state.json`, written
//! after every phase, says where the run is, so `--resume` loses at most the game or epoch in
//! progress.
//!
//! ```text
//! DIR/learn.json        the run's config            DIR/state.json    where it is
//! DIR/openings.txt      the test's openings         DIR/best.yolahnet the best network
//! DIR/generations.csv   a row per generation        DIR/elo.png       Elo by generation
//! DIR/gauntlet.csv      a row per generation and gauntlet opponent
//! DIR/gen-001/selfplay/ the generation's data       DIR/gen-001/network.yolahnet (+ its log)
//! DIR/gen-001/test.csv  the test's games            DIR/gen-001/test.json its result
//! DIR/gen-001/gauntlet/ the gauntlet's games, 01-candidate.csv, 01-parent.csv, … by opponent
//! ```

use super::matches::versus::Tested;
use super::{UsageError, plot, read_json, usage, write_atomic};
use anyhow::{Context, Result, ensure};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_train::learn::{self, Config, Faced, Phase, Record, State};
use yolah_train::train::Target;

/// The options of `yolah learn`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The run's directory (created; with --resume, the run to go on with).
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Generations, 1 to 1000 (with --resume: raises the total) [default: 10].
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// Self-play games per generation, 20 to 1000000 (a tenth of the games is set aside for
    /// validation) [default: 25000].
    #[arg(long, short, value_name = "N")]
    pub games: Option<u64>,
    /// Nodes per self-play move, 1 to 10000000 [default: 5000].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Random plies before self-play's player takes over, 0 to 40 [default: 8].
    #[arg(long, short, value_name = "K")]
    pub random_plies: Option<u32>,
    /// Self-play's positions with at most N free squares that the solver proves get their
    /// exact value, which the candidates learn (`yolah selfplay --exact-free`); 0 to 32, 0
    /// for none [default: 20].
    #[arg(long, value_name = "N")]
    pub exact_free: Option<u32>,
    /// The solver's budget per position, 1 to 100000000 nodes [default: 200000].
    #[arg(long, value_name = "NODES")]
    pub exact_nodes: Option<u64>,
    /// The candidates' layers, like 256,32 or 1024,64,32 (see `yolah train --hidden`)
    /// [default: 256,32].
    #[arg(long, value_name = "H[,L2[,L3]]")]
    pub hidden: Option<String>,
    /// The candidates' output buckets, 1 to 8 [default: 1].
    #[arg(long, value_name = "N")]
    pub buckets: Option<usize>,
    /// Whether the candidates see the heuristic's 22 features, on or off [default: on].
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    pub features: Option<String>,
    /// What the candidates learn (see `yolah train --target`) [default: score].
    #[arg(long, value_name = "TARGET", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<Target>()))]
    pub target: Option<Target>,
    /// Epochs per candidate, 1 to 1000 [default: 20].
    #[arg(long, short, value_name = "N")]
    pub epochs: Option<u32>,
    /// Generations of data a candidate trains on (its own and those before), 1 to 100
    /// [default: 3].
    #[arg(long, value_name = "N")]
    pub window: Option<u32>,
    /// The budget of both players in the test, as minimax options, like time=50ms or
    /// nodes=20000 [default: time=50ms].
    #[arg(long, value_name = "OPTIONS")]
    pub budget: Option<String>,
    /// The test a candidate must pass, as `yolah match --sprt` takes it
    /// [default: elo0=0,elo1=10].
    #[arg(long, value_name = "TEST")]
    pub sprt: Option<String>,
    /// The most games of a test, 2 to 100000; a test inconclusive there fails the candidate
    /// [default: 2000].
    #[arg(long, value_name = "N")]
    pub test_games: Option<u32>,
    /// The test's openings (a suite file) [default: the shipped suite].
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The network the run starts from [default: the shipped network].
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// An opponent that a candidate which passed the test, and its parent, each play: a
    /// player spec at --budget (like minimax, mcts, minimax:net=FILE), or `previous` for the
    /// two networks promoted before the parent; repeat it for more, or `none` for no
    /// gauntlet. The candidate is promoted only if against none of them it does worse than
    /// its parent by more than the games can tell [default: minimax, mcts, previous].
    #[arg(long, value_name = "SPEC")]
    pub gauntlet: Vec<String>,
    /// Games the candidate and its parent each play against each gauntlet opponent, even, 2
    /// to 100000 [default: 100].
    #[arg(long, value_name = "N")]
    pub gauntlet_games: Option<u32>,
    /// Whether a candidate starts from its parent's weights, fine-tuned on the window's data,
    /// rather than from fresh ones (see `yolah train --init`); with on, the start network
    /// must have the candidates' shape [default: off].
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    pub warm: Option<String>,
    /// The candidates' first learning rate (see `yolah train --learning-rate`)
    /// [default: the trainer's, 0.002].
    #[arg(long, value_name = "RATE")]
    pub learning_rate: Option<f64>,
    /// The run's seed [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Games (self-play, test) played at once, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// Go on with the run in --out where it stopped.
    #[arg(long)]
    pub resume: bool,
    #[command(flatten)]
    pub cluster: crate::slurm::ClusterOptions,
    /// What the training job of `--slurm` runs: generation N's training in --out, whose
    /// learning command holds the run.
    #[arg(long, value_name = "N", hide = true)]
    pub train_generation: Option<u32>,
}

/// Self-play's exact values by default: positions with at most this many free squares...
const DEFAULT_EXACT_FREE: u32 = 20;
/// ...proved within this many nodes each.
const DEFAULT_EXACT_NODES: u64 = 200_000;
const CONFIG: &str = "learn.json";
const STATE: &str = "state.json";
const OPENINGS: &str = "openings.txt";
const BEST: &str = "best.yolahnet";
const TABLE: &str = "generations.csv";
const GAUNTLET_TABLE: &str = "gauntlet.csv";
const PLOT: &str = "elo.png";

/// The opening suite that ships (`crates/yolah-ai/data/openings-8ply.txt`).
const SHIPPED_OPENINGS: &str = include_str!("../../../yolah-ai/data/openings-8ply.txt");
/// The largest opening suite a run takes (it is kept in the config).
const MAX_SUITE: u64 = 512 << 10;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(generation) = options.train_generation {
        return train_job(out, &options.out, generation);
    }
    let threads = super::threads(options.threads)?;
    let (config, mut state, _lock) = if options.resume {
        resume(options)?
    } else {
        start(options)?
    };
    let dir = &options.out;
    let started = Instant::now();
    while state.generation <= config.generations {
        let generation = state.generation;
        let folder = dir.join(generation_folder(generation));
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let in_progress: f64 = state.seconds.iter().sum();
        eprintln!(
            "learn: generation {generation} of {}, {} ({} so far this run{})",
            config.generations,
            state.phase,
            learn::duration(started.elapsed().as_secs_f64()),
            state
                .eta(&config, in_progress)
                .map_or_else(String::new, |s| format!(
                    ", about {} left",
                    learn::duration(s)
                ))
        );
        let phase_started = Instant::now();
        match state.phase {
            Phase::SelfPlay => {
                self_play(
                    out,
                    dir,
                    &config,
                    &state,
                    &folder,
                    threads,
                    &options.cluster,
                )?;
                state.seconds[0] += phase_started.elapsed().as_secs_f64();
                state.phase = Phase::Train;
            }
            Phase::Train => {
                if options.cluster.slurm {
                    train_on_slurm(dir, generation, &folder, &options.cluster)?;
                } else {
                    train(out, dir, &config, &state, generation, &folder)?;
                }
                state.seconds[1] += phase_started.elapsed().as_secs_f64();
                state.phase = Phase::Test;
            }
            Phase::Test => {
                let tested = test(dir, &config, &state, &folder, threads, &options.cluster)?;
                if tested.accepted() && !opponents(dir, &config, &state)?.is_empty() {
                    state.seconds[2] += phase_started.elapsed().as_secs_f64();
                    state.phase = Phase::Gauntlet;
                } else {
                    let said =
                        finish(dir, &config, &mut state, &tested, Vec::new(), phase_started)?;
                    // Said once the state that keeps it is written: a kill never takes back a
                    // generation this line announced.
                    writeln!(out, "{said}")?;
                    continue;
                }
            }
            Phase::Gauntlet => {
                let tested: Tested = read_json(&folder.join("test.json"), "a test's result")?;
                let faced = gauntlet(dir, &config, &state, &folder, threads, &options.cluster)?;
                let said = finish(dir, &config, &mut state, &tested, faced, phase_started)?;
                writeln!(out, "{said}")?;
                continue;
            }
        }
        write_state(dir, &state)?;
    }
    if !state.records.is_empty() {
        // Again, in case a kill came between the state and the plot.
        write_tables(dir, &state)?;
        draw(&dir.join(PLOT), &state.records, &config)?;
    }
    let best = if state.best.is_some() {
        dir.join(BEST).display().to_string()
    } else {
        "the start".to_string()
    };
    writeln!(
        out,
        "learn: {} generations, {} promoted; the best network ({best}) is {:+.0} Elo over the start; table {}, plot {}",
        state.records.len(),
        state.records.iter().filter(|r| r.promoted).count(),
        state.best_elo(),
        dir.join(TABLE).display(),
        dir.join(PLOT).display(),
    )?;
    Ok(())
}

fn generation_folder(generation: u32) -> String {
    format!("gen-{generation:03}")
}

/// The best network's path in the state once `generation` is promoted (inside the run's
/// directory).
fn best_network(generation: u32) -> String {
    format!("{}/network.yolahnet", generation_folder(generation))
}

/// The path of a file of the run, as the specs name it (inside `--out` as given).
fn path_text(path: &Path) -> Result<String> {
    path.to_str().map(str::to_string).ok_or_else(|| {
        anyhow::anyhow!(
            "'{}': the run's paths must be UTF-8 (they go into player specs)",
            path.display()
        )
    })
}

/// Self-play's exact values as `--exact-free` and `--exact-nodes` ask (0 free squares: none,
/// and then no solver's budget may be given).
fn exact(options: &Options) -> Result<Option<yolah_train::selfplay::Exact>> {
    let free = options.exact_free.unwrap_or(DEFAULT_EXACT_FREE);
    let max = yolah_train::selfplay::MAX_EXACT_FREE;
    usage!(
        free <= max,
        "--exact-free must be from 0 (none) to {max}, not {free}"
    );
    if free == 0 {
        usage!(
            options.exact_nodes.is_none(),
            "--exact-nodes is the solver's budget: it needs --exact-free above 0"
        );
        return Ok(None);
    }
    Ok(Some(yolah_train::selfplay::Exact {
        free,
        nodes: options.exact_nodes.unwrap_or(DEFAULT_EXACT_NODES),
    }))
}

fn start(options: &Options) -> Result<(Config, State, DirLock)> {
    let start = options.start.as_deref().map(path_text).transpose()?;
    let start_shape = match &options.start {
        Some(path) => {
            let bytes = yolah_ai::files::read_bounded(
                path,
                yolah_ai::eval::network::parameters::MAX_FILE_SIZE,
            )
            .with_context(|| format!("--start: cannot read {}", path.display()))?;
            yolah_ai::eval::network::Parameters::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("--start {}: {e}", path.display()))?
                .shape
        }
        None => {
            yolah_ai::eval::network::Parameters::from_bytes(yolah_ai::eval::network::SHIPPED)
                .expect("the shipped network loads")
                .shape
        }
    };
    let openings = match &options.openings {
        // The suite goes into the config, which is read back bounded.
        Some(path) => yolah_ai::files::read_text_bounded(path, MAX_SUITE)
            .with_context(|| format!("cannot read the openings '{}'", path.display()))?,
        None => SHIPPED_OPENINGS.to_string(),
    };
    let suite = yolah_ai::arena::opening::parse_suite(&openings)
        .map_err(|e| anyhow::anyhow!("--openings: {e}"))?;
    let gauntlet = match options.gauntlet.as_slice() {
        [] => learn::DEFAULT_GAUNTLET.map(String::from).to_vec(),
        [none] if none == "none" => Vec::new(),
        given => {
            usage!(
                !given.iter().any(|g| g == "none"),
                "--gauntlet none means no gauntlet: give it alone"
            );
            given.to_vec()
        }
    };
    let config = Config {
        generations: options.generations.unwrap_or(10),
        games: options.games.unwrap_or(25_000),
        nodes: options.nodes.unwrap_or(5000),
        random_plies: options.random_plies.unwrap_or(8),
        hidden: options
            .hidden
            .clone()
            .unwrap_or_else(|| "256,32".to_string()),
        buckets: options.buckets.unwrap_or(1),
        features: options.features.as_deref() != Some("off"),
        target: options.target.unwrap_or(Target::Score),
        epochs: options.epochs.unwrap_or(20),
        window: options.window.unwrap_or(3),
        budget: options
            .budget
            .clone()
            .unwrap_or_else(|| "time=50ms".to_string()),
        sprt: options
            .sprt
            .clone()
            .unwrap_or_else(|| "elo0=0,elo1=10".to_string()),
        test_games: options.test_games.unwrap_or(2000),
        openings: suite
            .iter()
            .map(yolah_ai::arena::opening::Opening::to_line)
            .collect(),
        start,
        seed: options.seed.unwrap_or(1),
        exact: exact(options)?,
        gauntlet,
        gauntlet_games: options
            .gauntlet_games
            .unwrap_or(learn::DEFAULT_GAUNTLET_GAMES),
        warm: options.warm.as_deref() == Some("on"),
        learning_rate: options.learning_rate,
    };
    config.check().map_err(UsageError)?;
    if config.warm {
        let shape = config.shape().map_err(UsageError)?;
        usage!(
            shape == start_shape,
            "--warm on starts each candidate from its parent, but the start network is a {start_shape} network and --hidden/--buckets/--features ask for {shape}"
        );
    }
    let dir = &options.out;
    path_text(dir)?;
    let lock = super::new_run_dir(dir, CONFIG, "a learning run")?;
    // The config is the run: from the moment it is written, whatever a kill leaves,
    // --resume takes it over (a missing state is the start).
    write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&config)?)?;
    Ok((config, State::new(), lock))
}

fn resume(options: &Options) -> Result<(Config, State, DirLock)> {
    usage!(
        options.games.is_none()
            && options.nodes.is_none()
            && options.random_plies.is_none()
            && options.hidden.is_none()
            && options.buckets.is_none()
            && options.features.is_none()
            && options.target.is_none()
            && options.epochs.is_none()
            && options.window.is_none()
            && options.budget.is_none()
            && options.sprt.is_none()
            && options.test_games.is_none()
            && options.openings.is_none()
            && options.start.is_none()
            && options.seed.is_none()
            && options.exact_free.is_none()
            && options.exact_nodes.is_none()
            && options.gauntlet.is_empty()
            && options.gauntlet_games.is_none()
            && options.warm.is_none()
            && options.learning_rate.is_none(),
        "--resume takes its settings from {CONFIG}: only --generations and --threads may be given"
    );
    let dir = &options.out;
    ensure!(
        dir.join(CONFIG).is_file(),
        "nothing to resume: '{}' holds no learning run ({CONFIG} is missing)",
        dir.display()
    );
    let lock = DirLock::take(dir)?;
    let mut config: Config = read_json(&dir.join(CONFIG), "a learning run's config")?;
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(CONFIG).display()))?;
    let state: State = if dir.join(STATE).exists() {
        read_json(&dir.join(STATE), "a learning run's state")?
    } else {
        State::new()
    };
    state
        .check(best_network)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(STATE).display()))?;
    if let Some(generations) = options.generations {
        usage!(
            generations >= state.records.len() as u32,
            "--generations {generations} is fewer than the {} generations already finished",
            state.records.len()
        );
        config.generations = generations;
        config.check().map_err(UsageError)?;
        write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&config)?)?;
    }
    eprintln!(
        "resuming: {} of {} generations finished, generation {} at {}",
        state.records.len(),
        config.generations,
        state.generation,
        state.phase
    );
    Ok((config, state, lock))
}

fn write_state(dir: &Path, state: &State) -> Result<()> {
    write_atomic(&dir.join(STATE), &serde_json::to_string_pretty(state)?)
}

/// The best network's file (the promoted generation's own, so that a spec names it for
/// good), or none for the run's start.
fn best_file(dir: &Path, state: &State) -> Result<Option<String>> {
    state
        .best
        .as_ref()
        .map(|best| path_text(&dir.join(best)))
        .transpose()
}

/// The generation's self-play into `folder/selfplay`: here, or with `--slurm` as a job array
/// of shards merged there (the same data).
fn self_play(
    out: &mut impl Write,
    dir: &Path,
    config: &Config,
    state: &State,
    folder: &Path,
    threads: usize,
    cluster: &crate::slurm::ClusterOptions,
) -> Result<()> {
    let target = folder.join("selfplay");
    let resume = target.join("selfplay.json").is_file();
    let player = best_file(dir, state)?;
    if !resume {
        // The same run by hand or as shards under a scheduler: run its parts with
        // `--shard K/N`, `yolah data merge` them into this folder, and --resume goes on.
        let spec = config.selfplay_spec(player.as_deref());
        let mut args = vec![
            spec,
            "--games".to_string(),
            config.games.to_string(),
            "--random-plies".to_string(),
            config.random_plies.to_string(),
            "--seed".to_string(),
            config.generation_seed(state.generation).to_string(),
        ];
        if let Some(exact) = config.exact {
            args.extend([
                "--exact-free".to_string(),
                exact.free.to_string(),
                "--exact-nodes".to_string(),
                exact.nodes.to_string(),
            ]);
        }
        let command = args
            .iter()
            .map(|w| super::shell_word(w))
            .collect::<Vec<_>>()
            .join(" ");
        eprintln!(
            "learn: this generation's self-play is: yolah selfplay {command} --out {}",
            super::shell_word(&path_text(&target)?)
        );
        if cluster.slurm {
            return super::selfplay_on_slurm::run(
                out,
                &args,
                &folder.join("shards"),
                &target,
                cluster,
            );
        }
    }
    let options = super::selfplay::Options {
        spec: (!resume).then(|| config.selfplay_spec(player.as_deref())),
        games: Some(config.games),
        out: target,
        random_plies: (!resume).then_some(config.random_plies),
        seed: (!resume).then(|| config.generation_seed(state.generation)),
        threads: Some(threads),
        shard: None,
        exact_free: config.exact.filter(|_| !resume).map(|e| e.free),
        exact_nodes: config.exact.filter(|_| !resume).map(|e| e.nodes),
        resume,
    };
    super::selfplay::run(out, &options)
}

fn train(
    out: &mut impl Write,
    dir: &Path,
    config: &Config,
    state: &State,
    generation: u32,
    folder: &Path,
) -> Result<()> {
    let network = folder.join("network.yolahnet");
    let resume = folder.join("network.train.json").is_file();
    let shape = config.shape().map_err(anyhow::Error::msg)?;
    // A warm candidate starts from its parent: the best network, else the run's start.
    let init = match (config.warm, best_file(dir, state)?) {
        (false, _) => None,
        (true, Some(best)) => Some(best),
        (true, None) => Some(
            config
                .start
                .clone()
                .unwrap_or_else(|| "shipped".to_string()),
        ),
    };
    let given_shape = !resume && init.is_none();
    let options = super::train::Options {
        data: config
            .window_of(generation)
            .map(|g| dir.join(generation_folder(g)).join("selfplay"))
            .collect(),
        out: network,
        epochs: Some(config.epochs),
        seed: (!resume).then(|| config.generation_seed(generation)),
        target: (!resume).then_some(config.target),
        hidden: given_shape.then_some(shape),
        buckets: given_shape.then_some(shape.buckets),
        features: given_shape.then(|| if shape.features { "on" } else { "off" }.to_string()),
        exact: None,
        init: init.filter(|_| !resume),
        learning_rate: config.learning_rate.filter(|_| !resume),
        resume,
    };
    super::train::run(out, &options)
}

/// The marker the training job writes once generation's candidate is whole.
const TRAINED: &str = "trained";

/// The training job's work (`--train-generation N`): the run's generation N in training, its
/// candidate trained (resumed where a job before was cut short), then the marker. The run's
/// command holds the run's lock and waits for the marker.
fn train_job(out: &mut impl Write, dir: &Path, generation: u32) -> Result<()> {
    let config: Config = read_json(&dir.join(CONFIG), "a learning run's config")?;
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(CONFIG).display()))?;
    let state: State = read_json(&dir.join(STATE), "a learning run's state")?;
    state
        .check(best_network)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(STATE).display()))?;
    ensure!(
        state.generation == generation && state.phase == Phase::Train,
        "'{}' is not training generation {generation} (it is at generation {}, {})",
        dir.display(),
        state.generation,
        state.phase
    );
    let folder = dir.join(generation_folder(generation));
    train(out, dir, &config, &state, generation, &folder)?;
    write_atomic(&folder.join(TRAINED), "")
}

/// Generation `generation`'s training as a Slurm job of one task (on a node with the cores
/// the cluster gives it, not the submitting machine), followed until its marker is there; a
/// job Slurm lost is submitted again and resumes the training.
fn train_on_slurm(
    dir: &Path,
    generation: u32,
    folder: &Path,
    cluster: &crate::slurm::ClusterOptions,
) -> Result<()> {
    let jobs = folder.join("train");
    std::fs::create_dir_all(&jobs).with_context(|| format!("cannot create {}", jobs.display()))?;
    let exe = std::env::current_exe().context("the path of this program")?;
    let script = jobs.join("task.sh");
    write_atomic(
        &script,
        &format!(
            "#!/bin/sh\n# Written by `yolah learn --slurm`: generation {generation}'s training.\n\
             exec {} learn --out {} --train-generation {generation}\n",
            super::shell_word(&exe.display().to_string()),
            super::shell_word(&std::path::absolute(dir)?.display().to_string()),
        ),
    )?;
    let name = crate::slurm::job_name("yolah-train", &jobs)?;
    let mut array = crate::slurm::Array::new(&name, &script, 1);
    let mut last_line = String::new();
    loop {
        let queue = array.queue()?;
        let done: Vec<u32> = if folder.join(TRAINED).exists() {
            vec![1]
        } else {
            Vec::new()
        };
        if !done.is_empty() {
            return Ok(());
        }
        if let Some((job, _)) = array.submit_lost(&queue, &done, cluster)? {
            eprintln!("training: submitted as job {job}");
            continue;
        }
        let line = format!("training: {}", crate::slurm::progress(&queue, 0, 1));
        if line != last_line {
            eprintln!("{line}");
            last_line = line;
        }
        array.wait();
    }
}

impl Tested {
    /// Whether the test accepted H1.
    fn accepted(&self) -> bool {
        self.verdict.as_deref() == Some("H1 accepted")
    }

    /// The test's word in the record: `H1`, `H0` or inconclusive.
    fn word(&self) -> &'static str {
        match self.verdict.as_deref() {
            Some("H1 accepted") => "H1",
            Some("H0 accepted") => "H0",
            _ => learn::INCONCLUSIVE,
        }
    }

    fn results(&self) -> learn::Results {
        learn::Results {
            games: self.games,
            score: self.score,
            elo: self.elo,
            elo_low: self.elo_low,
            elo_high: self.elo_high,
        }
    }
}

/// The run's openings as a suite file (`DIR/openings.txt`): the config's, written again
/// whenever the file says otherwise (the config is the run: a file left from other openings
/// would play them while the test's length counts the config's).
fn openings_file(dir: &Path, config: &Config) -> Result<PathBuf> {
    suite_file(dir, &config.openings)
}

/// `openings` as `DIR/openings.txt`, unless the file already says exactly that.
fn suite_file(dir: &Path, openings: &[String]) -> Result<PathBuf> {
    let openings_path = dir.join(OPENINGS);
    let text = openings.join("\n") + "\n";
    if std::fs::read_to_string(&openings_path).ok().as_deref() != Some(text.as_str()) {
        write_atomic(&openings_path, &text)?;
    }
    Ok(openings_path)
}

/// Where a run's games are played: here, `threads` at once, or on the cluster.
#[derive(Clone, Copy)]
struct Workers<'a> {
    threads: usize,
    cluster: &'a crate::slurm::ClusterOptions,
}

/// A match of the run (the test, or one side of the gauntlet against an opponent): the
/// openings shuffled by `seed` (the generation's), its games in `record_file`, resumed from
/// it. Its result, and as `yolah match --json` prints it.
fn play(
    players: [String; 2],
    games: u32,
    sprt: Option<yolah_ai::arena::sprt::Sprt>,
    openings: PathBuf,
    seed: u64,
    record_file: PathBuf,
    workers: Workers,
) -> Result<(Tested, String)> {
    let pairing = super::Pairing {
        openings: Some(openings),
        shuffle_openings: true,
        random_plies: None,
        seed: Some(seed),
        threads: Some(workers.threads),
        ..super::Pairing::default()
    };
    super::matches::recorded::recorded(players, games, sprt, pairing, record_file, workers.cluster)
}

/// The generation's test, its result also written to `test.json`.
fn test(
    dir: &Path,
    config: &Config,
    state: &State,
    folder: &Path,
    threads: usize,
    cluster: &crate::slurm::ClusterOptions,
) -> Result<Tested> {
    let candidate = path_text(&folder.join("network.yolahnet"))?;
    let best = config.network_option(best_file(dir, state)?.as_deref());
    let games = config.games_at_most(config.test_games);
    if games < config.test_games {
        eprintln!(
            "learn: the test plays at most {games} games, not {}: at {} the players repeat themselves, so each of the {} openings is played once in each colour",
            config.test_games,
            config.budget,
            config.openings.len()
        );
    }
    let (tested, json) = play(
        [
            learn::test_spec(&config.budget, &candidate),
            learn::test_spec(&config.budget, &best),
        ],
        games,
        Some(config.sprt().map_err(anyhow::Error::msg)?),
        openings_file(dir, config)?,
        config.generation_seed(state.generation),
        folder.join("test.csv"),
        Workers { threads, cluster },
    )?;
    write_atomic(&folder.join("test.json"), &json)?;
    Ok(tested)
}

/// The best network's spec in the test: the parent of the generation in progress.
fn parent_spec(dir: &Path, config: &Config, state: &State) -> Result<String> {
    Ok(learn::test_spec(
        &config.budget,
        &config.network_option(best_file(dir, state)?.as_deref()),
    ))
}

/// The gauntlet's opponents for the generation in progress, as played.
fn opponents(dir: &Path, config: &Config, state: &State) -> Result<Vec<String>> {
    let previous = state
        .previous(best_network)
        .iter()
        .map(|p| p.as_ref().map(|p| path_text(&dir.join(p))).transpose())
        .collect::<Result<Vec<_>>>()?;
    config
        .gauntlet_specs(&previous, &parent_spec(dir, config, state)?)
        .map_err(anyhow::Error::msg)
}

/// The gauntlet: the candidate, then its parent, against each opponent, each match in its
/// own file under `gauntlet/` (resumed from it after a kill, as the test is).
fn gauntlet(
    dir: &Path,
    config: &Config,
    state: &State,
    folder: &Path,
    threads: usize,
    cluster: &crate::slurm::ClusterOptions,
) -> Result<Vec<Faced>> {
    let candidate = learn::test_spec(
        &config.budget,
        &path_text(&folder.join("network.yolahnet"))?,
    );
    let parent = parent_spec(dir, config, state)?;
    let opponents = opponents(dir, config, state)?;
    let games = folder.join("gauntlet");
    std::fs::create_dir_all(&games)
        .with_context(|| format!("cannot create {}", games.display()))?;
    let mut faced = Vec::new();
    for (k, opponent) in opponents.iter().enumerate() {
        let mut results = Vec::new();
        for (who, side) in [("candidate", &candidate), ("parent", &parent)] {
            eprintln!(
                "learn: gauntlet, opponent {} of {}: the {who} against {opponent}",
                k + 1,
                opponents.len()
            );
            let (tested, _) = play(
                [side.clone(), opponent.clone()],
                config.games_at_most(config.gauntlet_games),
                None,
                openings_file(dir, config)?,
                config.generation_seed(state.generation),
                games.join(format!("{:02}-{who}.csv", k + 1)),
                Workers { threads, cluster },
            )?;
            results.push(tested.results());
        }
        faced.push(Faced::new(
            state.generation,
            opponent,
            results[0],
            results[1],
        ));
    }
    Ok(faced)
}

/// Ends a generation: its record (the candidate promoted only as `learn::decide` says), the
/// promotion (the candidate copied to `best.yolahnet` first), the tables and the plot, then
/// the state that moves on. The lines that say the generation's outcome.
fn finish(
    dir: &Path,
    config: &Config,
    state: &mut State,
    tested: &Tested,
    faced: Vec<Faced>,
    phase_started: Instant,
) -> Result<String> {
    let generation = state.generation;
    let folder = dir.join(generation_folder(generation));
    let decision = learn::decide(tested.word(), &faced);
    let promoted = decision.is_ok();
    // The counts the training run took of its data (the window, this generation's last).
    let (counts, validation_loss) = super::train::outcome(&folder.join("network.yolahnet"))?;
    let elapsed = phase_started.elapsed().as_secs_f64();
    let in_gauntlet = state.phase == Phase::Gauntlet;
    let record = Record {
        generation,
        positions: counts.last().map_or(0, |&n| n as u64),
        trained_on: counts.iter().map(|&n| n as u64).sum(),
        validation_loss,
        games: tested.games,
        score: tested.score,
        elo: tested.elo,
        elo_low: tested.elo_low,
        elo_high: tested.elo_high,
        llr: tested.llr.unwrap_or(0.0),
        verdict: tested.word().to_string(),
        promoted,
        best_elo: state.best_elo() + if promoted { tested.elo } else { 0.0 },
        selfplay_seconds: state.seconds[0],
        train_seconds: state.seconds[1],
        test_seconds: state.seconds[2] + if in_gauntlet { 0.0 } else { elapsed },
        gauntlet: match (&decision, faced.is_empty()) {
            (_, true) => String::new(),
            (Ok(()), false) => learn::HELD.to_string(),
            (Err(reason), false) => reason.clone(),
        },
        gauntlet_seconds: if in_gauntlet { elapsed } else { 0.0 },
    };
    let mut said = format!(
        "generation {generation}: candidate against the best network: {} games, score {:.1} %, Elo {:+.1} [{:+.1}, {:+.1}], {}: {}",
        tested.games,
        100.0 * tested.score,
        tested.elo,
        tested.elo_low,
        tested.elo_high,
        tested.verdict.as_deref().unwrap_or(learn::INCONCLUSIVE),
        match &decision {
            Ok(()) => "promoted".to_string(),
            Err(_) if faced.is_empty() => "not promoted".to_string(),
            Err(reason) => format!("not promoted: {reason}"),
        }
    );
    for f in &faced {
        let _ = write!(
            said,
            "\n  gauntlet {}: {}",
            f.line(),
            if f.held { "held" } else { "lost ground" }
        );
    }
    if promoted {
        let candidate = folder.join("network.yolahnet");
        let bytes = std::fs::read(&candidate)
            .with_context(|| format!("cannot read {}", candidate.display()))?;
        super::write_bytes(&dir.join(BEST), &bytes)?;
        state.best = Some(best_network(generation));
    }
    state.records.push(record);
    state.gauntlet.extend(faced);
    state.generation += 1;
    state.phase = Phase::SelfPlay;
    state.seconds = [0.0; 3];
    write_tables(dir, state)?;
    write_state(dir, state)?;
    draw(&dir.join(PLOT), &state.records, config)?;
    Ok(said)
}

/// `generations.csv`, and `gauntlet.csv` once a gauntlet was played.
fn write_tables(dir: &Path, state: &State) -> Result<()> {
    write_table(&dir.join(TABLE), &state.records)?;
    if !state.gauntlet.is_empty() {
        write_table(&dir.join(GAUNTLET_TABLE), &state.gauntlet)?;
    }
    Ok(())
}

fn write_table<T: serde::Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer.into_inner().context("writing the table")?;
    write_atomic(
        path,
        &String::from_utf8(bytes).expect("csv of numbers is UTF-8"),
    )
}

/// Two panels: each candidate's Elo against the best network of its day (with the ends of
/// its interval), and the best network's Elo over the start.
fn draw(path: &Path, records: &[Record], config: &Config) -> Result<()> {
    let series = |name, color, value: fn(&Record) -> f64| plot::Series {
        name,
        points: records
            .iter()
            .map(|r| (f64::from(r.generation), value(r)))
            .collect(),
        color,
    };
    let title = format!(
        "Elo by generation ({}, test at {})",
        config.shape().map(|s| s.to_string()).unwrap_or_default(),
        config.budget
    );
    plot::lines(
        path,
        &title,
        "generation",
        &[
            plot::Panel {
                y_label: "candidate against the best network (Elo)",
                series: vec![
                    series("estimate", plotters::style::RGBColor(40, 80, 200), |r| {
                        r.elo
                    }),
                    series("95 % low", plotters::style::RGBColor(160, 170, 220), |r| {
                        r.elo_low
                    }),
                    series("95 % high", plotters::style::RGBColor(160, 170, 220), |r| {
                        r.elo_high
                    }),
                ],
            },
            plot::Panel {
                y_label: "best network over the start (Elo)",
                series: vec![plot::Series {
                    name: "best (generation 0: the start)",
                    points: std::iter::once((0.0, 0.0))
                        .chain(
                            records
                                .iter()
                                .map(|r| (f64::from(r.generation), r.best_elo)),
                        )
                        .collect(),
                    color: plotters::style::RGBColor(40, 150, 60),
                }],
            },
        ],
        false,
    )
}

#[cfg(test)]
mod tests;

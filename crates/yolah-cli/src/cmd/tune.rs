//! `yolah tune`: the genetic algorithm over the heuristic weights (`--spsa`: SPSA over a
//! player's search constants, in `spsa.rs`). After each generation it
//! writes, in this order, `checkpoint.json` (everything needed to go on), `log.csv`,
//! `best-weights.json`, and last the cosmetic `log.png`; each file is written whole to a
//! temporary name and renamed, so a kill never leaves half a file. `--resume` goes on from the
//! checkpoint exactly as if the run had not stopped.

use super::{UsageError, plot, progress_bar, usage, write_atomic};
use anyhow::{Result, ensure};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::eval::Weights;
use yolah_train::ga::{self, Checkpoint, Config, START_JSON};

/// The options of `yolah tune`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Directory of the run.
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Go on with the run in --out (its settings are kept; --generations may extend it).
    #[arg(long)]
    pub resume: bool,
    /// Generations, 1 to 10000 [default: 30].
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// Individuals per generation, 2 to 1000 [default: 24].
    #[arg(long, value_name = "N")]
    pub population: Option<usize>,
    /// Best individuals kept unchanged, fewer than the population [default: 3].
    #[arg(long, value_name = "N")]
    pub elite: Option<usize>,
    /// Openings per opponent per generation, each played with both colours, 1 to 1000
    /// [default: 8].
    #[arg(long, value_name = "N")]
    pub openings: Option<u32>,
    /// Nodes per move of every minimax search, 1 to 100000000 [default: 5000].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// An opponent of the panel: `start` (minimax with the starting weights) or a player
    /// spec; repeat for several [default: start, mcts:iterations=5000].
    #[arg(long = "opponent", value_name = "SPEC")]
    pub opponents: Vec<String>,
    /// Random plies of each opening, 0 to 40 [default: 4].
    #[arg(long, short, value_name = "K")]
    pub random_plies: Option<u32>,
    /// Seed of the run [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Games played at once, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// Once the run is finished, decide whether its best weights beat the starting ones:
    /// game pairs at the run's nodes per move until this test decides,
    /// `elo0=E0,elo1=E1[,alpha,beta]` (as `match --sprt`); the games go to
    /// DIR/sprt-gen<N>.csv, and the same command resumes them.
    #[arg(long, value_name = "TEST", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::sprt::Sprt>()))]
    pub sprt: Option<yolah_ai::arena::sprt::Sprt>,
    /// SPSA instead of the genetic algorithm: tune this player's search constants through
    /// games, like `minimax:nodes=20000` (its limits and other options are kept).
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["generations", "population", "elite", "openings", "nodes", "opponents", "sprt"])]
    pub spsa: Option<String>,
    /// With --spsa: the constants tuned, comma-separated [default: all the player's, as
    /// `yolah players --tunable` lists them].
    #[arg(long, value_name = "NAMES")]
    pub params: Option<String>,
    /// With --spsa: iterations, 1 to 1000000 [default: 1000].
    #[arg(long, value_name = "N")]
    pub iterations: Option<u32>,
    /// With --spsa: game pairs an iteration, 1 to 1000 [default: 1].
    #[arg(long, value_name = "N")]
    pub pairs: Option<u32>,
    /// With --spsa: instead of the perturbed players against each other, each plays this
    /// player (repeat for a panel).
    #[arg(long = "against", value_name = "SPEC")]
    pub against: Vec<String>,
    /// With --spsa: the gain's scale a, in steps [default: 2].
    #[arg(long = "spsa-a", value_name = "A")]
    pub spsa_a: Option<f64>,
    /// With --spsa: the perturbation's scale c, in steps [default: 1].
    #[arg(long = "spsa-c", value_name = "C")]
    pub spsa_c: Option<f64>,
    /// With --spsa and --slurm: each iteration's games over a job array.
    #[command(flatten)]
    pub cluster: crate::slurm::ClusterOptions,
    /// What a task of `--spsa --slurm` runs: part K of N of the checkpoint's iteration in
    /// --out.
    #[arg(long, value_name = "K/N", hide = true, value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::shard::Shard>()))]
    pub spsa_part: Option<yolah_ai::arena::shard::Shard>,
}

const CHECKPOINT: &str = "checkpoint.json";
/// The largest checkpoint read back: a population of 1000 and a log of 10000 generations
/// take a few MiB.
const MAX_CHECKPOINT: u64 = 64 << 20;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let spsa_only = options.params.is_some()
        || options.iterations.is_some()
        || options.pairs.is_some()
        || !options.against.is_empty()
        || options.spsa_a.is_some()
        || options.spsa_c.is_some()
        || options.cluster.slurm;
    usage!(
        !spsa_only,
        "--params, --iterations, --pairs, --against, --spsa-a, --spsa-c and --slurm are SPSA's: \
         give --spsa SPEC (or --resume an SPSA run)"
    );
    let threads = super::threads(options.threads)?;
    let dir = &options.out;
    // The lock is held until the run ends: a second run on this directory is refused.
    let (mut run, _lock) = if options.resume {
        resume(options)?
    } else {
        start(options)?
    };
    run.config.check().map_err(anyhow::Error::msg)?;
    let per_generation =
        (run.config.population as u64) * u64::from(run.config.games_per_individual());
    let total = per_generation * u64::from(run.config.generations);
    let bar = progress_bar(total, "games");
    bar.set_position(per_generation * u64::from(run.generation));
    let started = Instant::now();
    if run.finished() && run.generation > 0 {
        // A finished run resumed: its files are written again (the same data; the plot as
        // this version draws it).
        save(dir, &run)?;
    }
    while !run.finished() {
        run.step(threads, &|| bar.inc(1))
            .map_err(anyhow::Error::msg)?;
        save(dir, &run)?;
        let row = run.log.last().expect("a generation was logged");
        bar.suspend(|| {
            eprintln!(
                "generation {}: best {:.3} over {} games, mean {:.3}, {:.0} s",
                row.generation,
                row.best,
                row.best_games,
                row.mean,
                started.elapsed().as_secs_f64()
            );
        });
    }
    bar.finish_and_clear();
    let best = run.best().expect("at least one generation");
    writeln!(out, "{}", best.to_json().trim_end())?;
    writeln!(
        out,
        "best weights in {} ({} generations, {:.0} s this session)",
        dir.join("best-weights.json").display(),
        run.generation,
        started.elapsed().as_secs_f64()
    )?;
    if let Some(sprt) = options.sprt {
        verify(out, dir, &run, sprt, threads)?;
    }
    Ok(())
}

/// The decision on a finished run: the best weights against the starting ones, as minimax at
/// the run's nodes per move, in game pairs until `sprt` decides. The games go to
/// `sprt-gen<N>.csv` (N the generations behind the weights), which a second `--sprt` resumes.
fn verify(
    out: &mut impl Write,
    dir: &Path,
    run: &Checkpoint,
    sprt: yolah_ai::arena::sprt::Sprt,
    threads: usize,
) -> Result<()> {
    let start = dir.join("start-weights.json");
    if !start.exists() {
        write_atomic(&start, START_JSON)?;
    }
    let spec = |file: &str| {
        format!(
            "minimax:nodes={},weights={}",
            run.config.nodes,
            dir.join(file).display()
        )
    };
    let record = dir.join(format!("sprt-gen{}.csv", run.generation));
    writeln!(
        out,
        "SPRT: the best weights against the starting ones ({})",
        record.display()
    )?;
    super::matches::versus::run(
        out,
        &super::matches::versus::Options {
            first: spec("best-weights.json"),
            second: spec("start-weights.json"),
            games: None,
            sprt: Some(sprt),
            pairing: super::Pairing {
                seed: Some(run.config.seed),
                random_plies: Some(run.config.random_plies),
                threads: Some(threads),
                ..super::Pairing::default()
            },
            resume: record.exists(),
            out: Some(record),
            json: false,
            shard: None,
            cluster: crate::slurm::ClusterOptions::default(),
        },
    )
}

fn start(options: &Options) -> Result<(Checkpoint, DirLock)> {
    let defaults = Config::default();
    let config = Config {
        population: options.population.unwrap_or(defaults.population),
        generations: options.generations.unwrap_or(defaults.generations),
        elite: options.elite.unwrap_or(defaults.elite),
        openings: options.openings.unwrap_or(defaults.openings),
        nodes: options.nodes.unwrap_or(defaults.nodes),
        opponents: if options.opponents.is_empty() {
            defaults.opponents
        } else {
            options.opponents.clone()
        },
        random_plies: options.random_plies.unwrap_or(defaults.random_plies),
        seed: options.seed.unwrap_or(defaults.seed),
    };
    config.check().map_err(UsageError)?;
    let dir = &options.out;
    let lock = super::new_run_dir(dir, CHECKPOINT, "a tuning run")?;
    let start = Weights::from_json(START_JSON).expect("the starting weights are valid");
    let run = Checkpoint::new(config, start);
    write_atomic(&dir.join(CHECKPOINT), &serde_json::to_string_pretty(&run)?)?;
    Ok((run, lock))
}

fn resume(options: &Options) -> Result<(Checkpoint, DirLock)> {
    let given = options.population.is_some()
        || options.elite.is_some()
        || options.openings.is_some()
        || options.nodes.is_some()
        || !options.opponents.is_empty()
        || options.random_plies.is_some()
        || options.seed.is_some();
    usage!(
        !given,
        "--resume takes its settings from the checkpoint: only --generations and --threads may be given"
    );
    let (mut run, lock): (Checkpoint, DirLock) =
        super::checkpoint(&options.out, CHECKPOINT, MAX_CHECKPOINT, "a tuning run")?;
    let path = options.out.join(CHECKPOINT);
    ensure!(
        run.population.len() == run.config.population
            && run.population.iter().all(|i| i.genes.len() == ga::GENES)
            && run.log.len() == run.generation as usize,
        "{} is inconsistent (population size, genes or log length)",
        path.display()
    );
    if let Some(generations) = options.generations {
        run.config.generations = generations;
    }
    Ok((run, lock))
}

/// Writes the run's files: checkpoint, log, best weights, then the plot.
fn save(dir: &Path, run: &Checkpoint) -> Result<()> {
    write_atomic(&dir.join(CHECKPOINT), &serde_json::to_string_pretty(run)?)?;
    let mut log = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "generation".to_string(),
        "best".into(),
        "mean".into(),
        "best_games".into(),
    ];
    for phase in ["early", "late"] {
        for feature in yolah_ai::eval::Feature::ALL {
            header.push(format!("{phase}_{}", feature.name()));
        }
    }
    log.write_record(&header)?;
    for row in &run.log {
        let mut record = vec![
            row.generation.to_string(),
            format!("{:.4}", row.best),
            format!("{:.4}", row.mean),
            row.best_games.to_string(),
        ];
        record.extend(row.genes.iter().map(ToString::to_string));
        log.write_record(&record)?;
    }
    let log = String::from_utf8(log.into_inner()?)?;
    write_atomic(&dir.join("log.csv"), &log)?;
    let best = run.best().expect("a generation was logged");
    write_atomic(&dir.join("best-weights.json"), &best.to_json())?;
    let points = |f: fn(&ga::LogRow) -> f64| {
        run.log
            .iter()
            .map(|r| (f64::from(r.generation), f(r)))
            .collect()
    };
    plot::lines(
        &dir.join("log.png"),
        "Genetic algorithm: fitness against the panel",
        "generation",
        &[plot::Panel {
            y_label: "share of points",
            series: vec![
                plot::Series {
                    name: "best (all its games)",
                    points: points(|r| r.best),
                    color: plotters::style::RGBColor(200, 40, 40),
                },
                plot::Series {
                    name: "generation mean",
                    points: points(|r| r.mean),
                    color: plotters::style::RGBColor(40, 80, 200),
                },
            ],
        }],
        false,
    )
}

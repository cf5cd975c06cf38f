//! `yolah tune --spsa SPEC`: SPSA over a player's tunable search constants
//! ([`yolah_train::spsa`]). After each iteration it writes, in this order, `spsa.json`
//! (everything needed to go on), `spsa.csv` (each parameter's path) and `tuned.txt` (the
//! player as tuned so far, as a spec); the plot `spsa.png` (each parameter's path in steps
//! from its default) every ten iterations and at the end. Each file is written whole to a
//! temporary name and renamed, so a kill never leaves half a file; `--resume` goes on from
//! `spsa.json` exactly as if the run had not stopped.

use super::tune::Options;
use super::{UsageError, plot, progress_bar, usage, write_atomic};
use anyhow::{Context, Result, ensure};
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::options::ValueKind;
use yolah_train::spsa::{Config, Run};

/// The checkpoint's name in the run's folder.
pub const CHECKPOINT: &str = "spsa.json";
/// Each parameter's path, a row an iteration.
const LOG: &str = "spsa.csv";
/// The largest checkpoint read back (a million iterations of a dozen parameters is ~200 MiB;
/// a run that long should start again from its result).
const MAX_CHECKPOINT: u64 = 256 << 20;

/// Whether `yolah tune` with `options` is SPSA's: `--spsa`, or `--resume` of an SPSA run.
pub fn applies(options: &Options) -> bool {
    // A run whose checkpoint is lost is still an SPSA run by its other files: its resume
    // names the checkpoint it lacks, not the genetic algorithm's.
    let spsa_files = [CHECKPOINT, LOG, "tuned.txt"];
    options.spsa.is_some()
        || options.spsa_part.is_some()
        || (options.resume && spsa_files.iter().any(|f| options.out.join(f).exists()))
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(part) = options.spsa_part {
        // A task of a run on the cluster: the run's command holds the folder's lock.
        let path = options.out.join(CHECKPOINT);
        let text = yolah_ai::files::read_text_bounded(&path, MAX_CHECKPOINT)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let run: Run = serde_json::from_str(&text)
            .with_context(|| format!("{} is not the checkpoint of an SPSA run", path.display()))?;
        return super::spsa_on_slurm::play_part(&options.out, part, &run);
    }
    let threads = super::threads(options.threads)?;
    let dir = &options.out;
    let (mut run, _lock) = if options.resume {
        resume(options)?
    } else {
        start(options)?
    };
    let per_iteration = u64::from(games_per_iteration(&run.config));
    let bar = progress_bar(per_iteration * u64::from(run.config.iterations), "games");
    bar.set_position(per_iteration * u64::from(run.iteration));
    let started = Instant::now();
    if run.finished() {
        save(dir, &run, true)?;
    }
    while !run.finished() {
        if options.cluster.slurm {
            super::spsa_on_slurm::step(dir, &mut run, &options.cluster)?;
            bar.inc(per_iteration);
        } else {
            run.step(threads, &|| bar.inc(1))
                .map_err(anyhow::Error::msg)?;
        }
        let last = run.finished();
        save(dir, &run, last || run.iteration.is_multiple_of(10))?;
        let values: Vec<String> = run
            .params
            .iter()
            .map(|p| format!("{}={:.1}", p.name, p.value))
            .collect();
        bar.set_message(values.join(" "));
        if run.iteration.is_multiple_of(50) || last {
            bar.suspend(|| {
                eprintln!(
                    "iteration {}: {} ({:.0} s)",
                    run.iteration,
                    values.join(" "),
                    started.elapsed().as_secs_f64()
                );
            });
        }
    }
    bar.finish_and_clear();
    if options.cluster.slurm {
        super::spsa_on_slurm::finish(dir)?;
    }
    let tuned = run.tuned_spec().map_err(anyhow::Error::msg)?;
    writeln!(out, "{tuned}")?;
    writeln!(
        out,
        "tuned over {} iterations ({} games); paths in {}",
        run.iteration,
        run.log.iter().map(|r| u64::from(r.games)).sum::<u64>(),
        dir.join(LOG).display()
    )?;
    Ok(())
}

/// The games an iteration plays.
fn games_per_iteration(config: &Config) -> u32 {
    let sides = if config.against.is_empty() {
        1
    } else {
        2 * config.against.len() as u32
    };
    2 * config.pairs * sides
}

fn start(options: &Options) -> Result<(Run, DirLock)> {
    let base = options.spsa.clone().expect("--spsa is given");
    let params = match &options.params {
        Some(list) => list
            .split(',')
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect(),
        // Every tunable constant of the player the spec names, if it parses.
        None => base
            .parse::<yolah_ai::Spec>()
            .map(|spec| {
                spec.info()
                    .options
                    .iter()
                    .filter(|o| matches!(o.kind, ValueKind::Tunable { .. }))
                    .map(|o| o.name.to_string())
                    .collect()
            })
            .unwrap_or_default(),
    };
    let config = Config {
        base,
        params,
        against: options.against.clone(),
        iterations: options.iterations.unwrap_or(1000),
        big_a: Config::stability(options.iterations.unwrap_or(1000)),
        pairs: options.pairs.unwrap_or(1),
        a: options.spsa_a.unwrap_or(2.0),
        c: options.spsa_c.unwrap_or(1.0),
        random_plies: options.random_plies.unwrap_or(4),
        seed: options.seed.unwrap_or(1),
    };
    let run = Run::new(config).map_err(UsageError)?;
    let dir = &options.out;
    let lock = super::new_run_dir(dir, CHECKPOINT, "an SPSA run")?;
    write_atomic(&dir.join(CHECKPOINT), &serde_json::to_string_pretty(&run)?)?;
    Ok((run, lock))
}

fn resume(options: &Options) -> Result<(Run, DirLock)> {
    let given = options.spsa.is_some()
        || options.params.is_some()
        || options.pairs.is_some()
        || !options.against.is_empty()
        || options.spsa_a.is_some()
        || options.spsa_c.is_some()
        || options.random_plies.is_some()
        || options.seed.is_some();
    usage!(
        !given,
        "--resume takes the SPSA run's settings from {CHECKPOINT}: only --iterations and \
         --threads may be given"
    );
    let (mut run, lock): (Run, DirLock) =
        super::checkpoint(&options.out, CHECKPOINT, MAX_CHECKPOINT, "an SPSA run")?;
    let path = options.out.join(CHECKPOINT);
    // Checked as a new run's settings, and against what the checkpoint holds.
    let params = run
        .config
        .check()
        .map_err(|e| anyhow::anyhow!("{} holds settings that do not check: {e}", path.display()))?;
    ensure!(
        run.params.len() == params.len()
            && run.params.iter().zip(&params).all(|(a, b)| {
                a.name == b.name
                    && (a.min, a.max, a.step) == (b.min, b.max, b.step)
                    && (a.min..=a.max).contains(&a.value)
            })
            && run.log.len() == run.iteration as usize
            && run.log.iter().all(|r| r.values.len() == params.len()),
        "{} is inconsistent (its parameters, their ranges or its log)",
        path.display()
    );
    if let Some(iterations) = options.iterations {
        usage!(
            iterations >= run.iteration,
            "--iterations {iterations}: the run has done {} already",
            run.iteration
        );
        run.config.iterations = iterations;
        run.config.check().map_err(UsageError)?;
    }
    Ok((run, lock))
}

/// Writes the run's files: checkpoint, path, tuned spec, then (when `plot`) the plot.
fn save(dir: &Path, run: &Run, plot: bool) -> Result<()> {
    write_atomic(&dir.join(CHECKPOINT), &serde_json::to_string(run)?)?;
    write_atomic(&dir.join(LOG), &run.csv())?;
    let tuned = run.tuned_spec().map_err(anyhow::Error::msg)?;
    write_atomic(&dir.join("tuned.txt"), &format!("{tuned}\n"))?;
    if plot && !run.log.is_empty() {
        draw(dir, run)?;
    }
    Ok(())
}

/// Each parameter's path, in steps from where it started.
fn draw(dir: &Path, run: &Run) -> Result<()> {
    // Ten colours apart (Tableau's), one a parameter; then again.
    const COLOURS: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    let starts: Vec<f64> = run
        .config
        .check()
        .map_err(anyhow::Error::msg)?
        .iter()
        .map(|p| p.value)
        .collect();
    let series = run
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (r, g, b) = COLOURS[i % COLOURS.len()];
            plot::Series {
                name: &p.name,
                points: run
                    .log
                    .iter()
                    .map(|row| {
                        (
                            f64::from(row.iteration + 1),
                            (row.values[i] - starts[i]) / p.step,
                        )
                    })
                    .collect(),
                color: plotters::style::RGBColor(r, g, b),
            }
        })
        .collect();
    plot::lines(
        &dir.join("spsa.png"),
        &format!("SPSA: {}", run.config.base),
        "iteration",
        &[plot::Panel {
            y_label: "steps from the default",
            series,
        }],
        false,
    )
}

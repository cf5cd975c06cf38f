//! `yolah suite FILE [SPEC]`: a player's move on each position of a suite of exact values
//! ([`yolah_ai::suite`]), and what the moves came to: the share of positions where the move
//! kept the proved value and the points given away, each with its 95 % interval.

use super::{DEFAULT_SEED, UsageError, parse_spec, quote};
use anyhow::{Result, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use yolah_ai::catalogue::DEFAULT_PLAYER;
use yolah_ai::suite::{MAX_POSITIONS, Score, SuitePosition};

/// The longest line of a suite file.
const MAX_LINE: usize = 1 << 16;

/// The options of `yolah suite`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The suite: JSON lines, a position and every legal move's proved margin each
    /// (benches/results/middle-game-suite makes one).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The player, `name[:option=value,…]` with its limits, like `minimax:eval=nn,time=100ms`.
    #[arg(value_name = "SPEC", default_value = DEFAULT_PLAYER)]
    pub spec: String,
    /// Only the first N positions, 1 to 100000 [default: all].
    #[arg(long, value_name = "N")]
    pub positions: Option<usize>,
    /// Seed of a player without one [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Print one JSON object (positions, kept and its interval, mean loss and its interval,
    /// each position's move and loss).
    #[arg(long)]
    pub json: bool,
}

/// The suite's positions, every line checked before any is played.
fn read(options: &Options) -> Result<Vec<SuitePosition>> {
    let shown = quote(&options.file.display().to_string());
    let file = yolah_ai::files::open_regular(&options.file)
        .map_err(|e| anyhow::anyhow!("cannot read {shown}: {e}"))?;
    let lines = yolah_ai::files::BoundedLines::new(std::io::BufReader::new(file), MAX_LINE);
    let mut positions = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (number, line) in (1..).zip(std::io::BufReader::new(lines).lines()) {
        let line = line.map_err(|e| anyhow::anyhow!("{shown} line {number}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        if positions.len() == MAX_POSITIONS {
            bail!("{shown} holds more than {MAX_POSITIONS} positions");
        }
        let position = SuitePosition::parse(&line)
            .map_err(|e| anyhow::anyhow!("{shown} line {number}: {e}"))?;
        if let Some(first) = seen.insert(position.position.to_string(), number) {
            bail!("{shown} line {number}: the position of line {first} again");
        }
        positions.push(position);
    }
    if positions.is_empty() {
        bail!("{shown} holds no position");
    }
    Ok(positions)
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(n) = options.positions
        && !(1..=MAX_POSITIONS).contains(&n)
    {
        return Err(UsageError(format!(
            "--positions must be from 1 to {MAX_POSITIONS}, not {n}"
        ))
        .into());
    }
    let spec = parse_spec(&options.spec)?;
    let mut positions = read(options)?;
    positions.truncate(options.positions.unwrap_or(usize::MAX));
    let bar = super::progress_bar(positions.len() as u64, "positions");
    let mut score = Score::default();
    let mut played = Vec::with_capacity(positions.len());
    for (i, suite) in positions.iter().enumerate() {
        // A player afresh for each position: nothing learnt on one helps the next.
        let seed = options.seed.unwrap_or(DEFAULT_SEED).wrapping_add(i as u64);
        let report = spec
            .agent(seed)
            .try_choose(&suite.position)
            .map_err(|forfeit| anyhow::anyhow!("{spec} cannot move: {forfeit}"))?;
        let loss = suite
            .loss(report.mv)
            .ok_or_else(|| anyhow::anyhow!("{spec} played {} , not a legal move", report.mv))?;
        score.losses.push(loss);
        played.push(report.mv);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (kept, kept_low, kept_high) = score.kept();
    let (loss, loss_low, loss_high) = score.mean_loss();
    if options.json {
        let each: Vec<serde_json::Value> = positions
            .iter()
            .zip(&played)
            .zip(&score.losses)
            .map(|((suite, m), loss)| {
                serde_json::json!({
                    "position": suite.position.to_string(),
                    "played": m.to_string(),
                    "loss": loss,
                })
            })
            .collect();
        let json = serde_json::json!({
            "player": spec.to_string(),
            "positions": score.positions(),
            "kept": kept,
            "kept_interval": [kept_low, kept_high],
            "mean_loss": loss,
            "mean_loss_interval": [loss_low, loss_high],
            "moves": each,
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{spec}: {} positions, kept the proved value in {:.1} % [{:.1}, {:.1}], gave away {:.2} points a position [{:.2}, {:.2}]",
        score.positions(),
        100.0 * kept,
        100.0 * kept_low,
        100.0 * kept_high,
        loss,
        loss_low,
        loss_high
    )?;
    Ok(())
}

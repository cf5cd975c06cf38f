//! `yolah match A B`: two players over paired openings, a summary line with the Elo difference.

use super::{DEFAULT_RANDOM_PLIES, Pairing, play_games, standings};
use anyhow::{Context, Result, ensure};
use std::io::Write;
use std::path::Path;
use yolah_ai::arena::record::RecordWriter;
use yolah_ai::arena::tournament::{Config, Crosstable};

pub fn run(
    out: &mut impl Write,
    first: String,
    second: String,
    count: u32,
    pairing: &Pairing,
    file: Option<&Path>,
) -> Result<()> {
    ensure!(count > 0, "--games must be at least 1");
    let threads = pairing.threads()?;
    let config = Config {
        specs: vec![first, second],
        games_per_pair: count,
        random_plies: pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: pairing.seed.unwrap_or_else(rand::random),
    };
    let specs = config.players()?;
    let writer = match file {
        Some(path) => Some(RecordWriter::create(path).with_context(|| {
            format!(
                "cannot create '{}' (an existing file is never overwritten)",
                path.display()
            )
        })?),
        None => None,
    };
    let schedule = config.schedule();
    let mut records = Vec::new();
    play_games(
        &config,
        &specs,
        &schedule,
        threads,
        writer,
        &mut records,
        schedule.len(),
    )?;
    let table = Crosstable::new(&config.specs, &records).map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "{}",
        standings::match_summary(&config.specs, &table, table.fit().as_ref())
    )?;
    Ok(())
}

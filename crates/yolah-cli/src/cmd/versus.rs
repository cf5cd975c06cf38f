//! `yolah match A B`: two players over paired openings, a summary line with the Elo difference.

use super::{DEFAULT_RANDOM_PLIES, Pairing, canonical_specs, play_games, standings, usage};
use anyhow::{Result, bail};
use std::io::Write;
use std::path::Path;
use yolah_ai::arena::record::RecordWriter;
use yolah_ai::arena::tournament::{Config, Crosstable};

pub fn run(
    out: &mut impl Write,
    first: &str,
    second: &str,
    count: u32,
    pairing: &Pairing,
    file: Option<&Path>,
) -> Result<()> {
    usage!(count > 0, "--games must be at least 1");
    let threads = pairing.threads()?;
    let config = Config {
        specs: canonical_specs(&[first.to_string(), second.to_string()])?,
        games_per_pair: count,
        random_plies: pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: pairing.seed.unwrap_or_else(rand::random),
        shard: None,
    };
    let specs = config.players()?;
    // The record file is new (never overwritten), so no other run writes to it.
    let writer = file.map(create_record_file).transpose()?;
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

/// Creates a record file that does not exist yet, with errors that say which part of the path
/// is wrong.
fn create_record_file(path: &Path) -> Result<RecordWriter> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "--out '{}': the folder '{}' does not exist",
            path.display(),
            folder.display()
        );
    }
    if path.exists() {
        bail!(
            "--out '{}' exists: a record file is never overwritten; choose another name",
            path.display()
        );
    }
    RecordWriter::create(path)
        .map_err(|e| anyhow::anyhow!("--out '{}': cannot create it: {e}", path.display()))
}

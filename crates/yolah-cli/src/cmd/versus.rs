//! `yolah match A B`: two players over paired openings, a summary line with the Elo difference
//! (or, with `--json`, one object with the same facts).

use super::{
    DEFAULT_RANDOM_PLIES, DEFAULT_SEED, Pairing, canonical_specs, play_games, standings, usage,
};
use anyhow::{Result, bail};
use std::io::Write;
use std::path::{Path, PathBuf};
use yolah_ai::arena::record::RecordWriter;
use yolah_ai::arena::tournament::{Config, Crosstable};

/// `yolah match`'s options, as given.
pub struct Options {
    pub first: String,
    pub second: String,
    pub games: u32,
    pub pairing: Pairing,
    pub out: Option<PathBuf>,
    pub json: bool,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    usage!(options.games > 0, "--games must be at least 1");
    let threads = options.pairing.threads()?;
    let config = Config {
        specs: canonical_specs(&[options.first.clone(), options.second.clone()])?,
        games_per_pair: options.games,
        random_plies: options.pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: options.pairing.seed.unwrap_or(DEFAULT_SEED),
        shard: None,
    };
    let specs = config.players()?;
    // The record file is new (never overwritten), so no other run writes to it.
    let writer = options.out.as_deref().map(create_record_file).transpose()?;
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
    let fit = table.fit();
    if options.json {
        let [wins, draws, losses] = table.wdl[0][1];
        let elo = fit.as_ref().map(|fit| fit.difference(0, 1));
        let object = serde_json::json!({
            "first": config.specs[0],
            "second": config.specs[1],
            "games": records.len(),
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "score": table.points(0) / f64::from(table.games(0).max(1)),
            "elo": elo.map(|e| e.0),
            "elo_low": elo.map(|e| e.1),
            "elo_high": elo.map(|e| e.2),
            "seed": config.seed,
            "random_plies": config.random_plies,
            "forfeits": records.iter().filter(|r| !r.forfeit.is_empty()).count(),
        });
        writeln!(out, "{object}")?;
    } else {
        writeln!(
            out,
            "{}",
            standings::match_summary(&config.specs, &table, fit.as_ref())
        )?;
    }
    if let Some((spec, reason)) = super::report_forfeits(&config.specs, &records).first() {
        bail!("{spec} never ran: {reason}");
    }
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

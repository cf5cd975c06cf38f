//! `yolah match A B`: two players over paired openings, a summary line with the Elo difference.

use super::tournament::DEFAULT_RANDOM_PLIES;
use super::{progress_bar, standings};
use anyhow::{Context, Result, ensure};
use std::io::Write;
use std::path::Path;
use yolah_ai::record::RecordWriter;
use yolah_ai::tournament::{Config, Crosstable, run_games};

pub struct Options<'a> {
    pub first: String,
    pub second: String,
    pub games: u32,
    pub random_plies: Option<u32>,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub out: Option<&'a Path>,
}

pub fn run(out: &mut impl Write, options: Options) -> Result<()> {
    ensure!(options.games > 0, "--games must be at least 1");
    ensure!(options.threads != Some(0), "--threads must be at least 1");
    let config = Config {
        specs: vec![options.first, options.second],
        games_per_pair: options.games,
        random_plies: options.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: options.seed.unwrap_or_else(rand::random),
    };
    let specs = config.players()?;
    let mut writer = match options.out {
        Some(path) => Some(RecordWriter::create(path).with_context(|| {
            format!(
                "cannot create '{}' (an existing file is never overwritten)",
                path.display()
            )
        })?),
        None => None,
    };
    let schedule = config.schedule();
    let bar = progress_bar(schedule.len() as u64, "games");
    let mut records = Vec::new();
    run_games(
        &config,
        &specs,
        &schedule,
        options.threads.unwrap_or_else(super::cores),
        |record| {
            if let Some(writer) = writer.as_mut() {
                writer
                    .write(&record)
                    .context("writing the games file (the games so far are kept)")?;
            }
            records.push(record);
            bar.inc(1);
            anyhow::Ok(())
        },
    )?;
    bar.finish_and_clear();
    let table = Crosstable::new(&config.specs, &records).map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "{}",
        standings::match_summary(&config.specs, &table, table.fit().as_ref())
    )?;
    Ok(())
}

//! `yolah data stats`: what a training data file holds: counts, result balance, duplicates
//! and the game phases.

use anyhow::Result;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use yolah_ai::data::{self, DataFile};

/// A data file, or a self-play directory's `data.bin`, read and checked; a last block cut
/// short is noted on stderr and left out. Returns the file's path with it.
pub fn read(path: &Path) -> Result<(PathBuf, DataFile)> {
    let path = if path.is_dir() {
        path.join("data.bin")
    } else {
        path.to_path_buf()
    };
    let file = data::read_file(&path).map_err(anyhow::Error::msg)?;
    if let Some(damage) = &file.damaged {
        eprintln!(
            "note: the last block of {} is damaged ({damage}); it is left out",
            path.display()
        );
    }
    Ok((path, file))
}

pub fn stats(out: &mut impl Write, path: &Path) -> Result<()> {
    let (path, file) = read(path)?;
    let samples = &file.samples;
    let n = samples.len();
    let percent = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    let count = |result: i8| samples.iter().filter(|s| s.result == result).count();
    let distinct: HashSet<u64> = samples.iter().map(|s| s.position.hash()).collect();
    writeln!(out, "file:       {}", path.display())?;
    writeln!(out, "games:      {}", file.blocks.len())?;
    writeln!(out, "positions:  {n}")?;
    writeln!(
        out,
        "results:    {:.1} % won, {:.1} % drawn, {:.1} % lost (for the side to move)",
        percent(count(1)),
        percent(count(0)),
        percent(count(-1))
    )?;
    writeln!(
        out,
        "duplicates: {} ({:.1} %; {} distinct positions)",
        n - distinct.len(),
        percent(n - distinct.len()),
        distinct.len()
    )?;
    let mean_margin = samples
        .iter()
        .map(|s| f64::from(s.margin).abs())
        .sum::<f64>()
        / n.max(1) as f64;
    writeln!(out, "mean |final margin|: {mean_margin:.2} points")?;
    let exact = samples.iter().filter(|s| s.exact.is_some()).count();
    writeln!(
        out,
        "exact values: {exact} ({:.1} %, proved by the solver)",
        percent(exact)
    )?;
    writeln!(out, "free squares   positions           exact")?;
    let mut phases = [(0usize, 0usize); 8];
    for sample in samples {
        let free = 64 - sample.position.occupied().count() as usize;
        let phase = &mut phases[(free / 8).min(7)];
        phase.0 += 1;
        phase.1 += usize::from(sample.exact.is_some());
    }
    for (bucket, &(k, exact)) in phases.iter().enumerate().rev() {
        if k > 0 {
            writeln!(
                out,
                "  {:>2}–{:<2}       {k:>9}  {:5.1} %  {exact:>9}  {:5.1} %",
                bucket * 8,
                bucket * 8 + 7,
                percent(k),
                100.0 * exact as f64 / k as f64
            )?;
        }
    }
    Ok(())
}

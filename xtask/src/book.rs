//! `cargo xtask gen-book`: searches the positions of the book's lines ([`yolah_ai::book::walk`])
//! and writes `tables/book.rs`.
//!
//! Each search is the network player with a node limit and one thread, from a fresh table,
//! so the book depends only on its settings and the engine, not on threads or order. Every
//! result is appended at once to a progress file (`target/book/…csv`, named by the
//! settings), so a killed run resumes where it stopped; the book is written at the end.

use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use yolah_ai::Spec;
use yolah_ai::book::walk::{Level, first_level, next_level};
use yolah_ai::book::{Entry, Settings, source};
use yolah_core::{Move, Position};

/// The longest book: its positions grow about fifty-fold every two plies.
pub const MAX_PLIES: u32 = 6;
/// Plies where every move is followed: a third would be ~150,000 positions to search.
pub const MAX_FULL_PLIES: u32 = 2;
/// Node limits a search may have.
pub const NODES: std::ops::RangeInclusive<u64> = 1_000..=1_000_000_000;

/// Builds the book for `settings` on `threads` threads into each of `dirs` (the workspace's
/// `tables/` and the copy that travels inside `yolah-ai`), resuming from the progress file
/// under `target`.
pub fn generate(
    dirs: &[PathBuf],
    target: &Path,
    settings: &Settings,
    threads: usize,
) -> Result<()> {
    ensure!(
        (1..=MAX_PLIES).contains(&settings.plies),
        "--plies must be 1 to {MAX_PLIES}"
    );
    ensure!(
        settings.full_plies <= MAX_FULL_PLIES.min(settings.plies),
        "--full-plies must be 0 to {MAX_FULL_PLIES} (and at most --plies)"
    );
    ensure!(
        NODES.contains(&settings.nodes),
        "--nodes must be {} to {}",
        NODES.start(),
        NODES.end()
    );
    let spec: Spec = settings.spec().parse().context("the book's player")?;
    let progress_path = target.join("book").join(format!(
        "progress-{}-{}-{}.csv",
        settings.plies, settings.full_plies, settings.nodes
    ));
    let mut known = read_progress(&progress_path)?;
    let progress = Mutex::new(open_progress(&progress_path)?);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut level: Level = first_level();
    for ply in 0..settings.plies {
        let todo: Vec<(u64, Position)> = level
            .iter()
            .filter(|(key, node)| node.wanted() && !known.contains_key(key))
            .map(|(&key, node)| (key, node.position))
            .collect();
        let wanted = level.values().filter(|node| node.wanted()).count();
        eprintln!("ply {ply}: {wanted} positions, {} to search", todo.len());
        let bar = ProgressBar::new(todo.len() as u64).with_style(
            ProgressStyle::with_template("  {bar:40} {pos}/{len} positions, {per_sec}, {eta} left")
                .expect("a valid template"),
        );
        let found: Vec<Result<(u64, Entry)>> = pool.install(|| {
            todo.par_iter()
                .map(|(key, position)| {
                    let entry = search(&spec, position);
                    let line = progress_line(*key, ply, entry, position);
                    let mut file = progress.lock().expect("no thread panics holding it");
                    file.write_all(line.as_bytes())
                        .and_then(|()| file.flush())
                        .with_context(|| format!("writing {}", progress_path.display()))?;
                    bar.inc(1);
                    // No bar on a pipe or a log file: a line every 50 positions instead.
                    let done = bar.position();
                    if bar.is_hidden()
                        && (done.is_multiple_of(50) || done == bar.length().unwrap_or(0))
                    {
                        eprintln!(
                            "  {done}/{} positions, {:.0} s",
                            todo.len(),
                            bar.elapsed().as_secs_f64()
                        );
                    }
                    Ok((*key, entry))
                })
                .collect()
        });
        bar.finish_and_clear();
        for result in found {
            let (key, entry) = result?;
            known.insert(key, entry);
        }
        if ply + 1 < settings.plies {
            level = next_level(&level, ply, settings, |key| {
                known.get(&key).map(|entry| Move::from_raw(entry.mv))
            })
            .map_err(|key| anyhow::anyhow!("no move found for position {key:#x}"))?;
        }
    }
    let mut entries = Vec::new();
    yolah_ai::book::walk::walk(
        settings,
        |key| known.get(&key).map(|entry| Move::from_raw(entry.mv)),
        |_, key, _| entries.push((key, known[&key])),
    )
    .map_err(|key| anyhow::anyhow!("no move found for position {key:#x}"))?;
    let text = source(settings, &entries);
    for dir in dirs {
        let path = dir.join("book.rs");
        let temporary = dir.join("book.rs.tmp");
        fs::write(&temporary, &text)?;
        fs::rename(&temporary, &path)?;
        eprintln!("wrote {} ({} positions)", path.display(), entries.len());
    }
    Ok(())
}

/// The book entry of one search.
fn search(spec: &Spec, position: &Position) -> Entry {
    let report = spec.agent(1).choose(position);
    let points = report.margin.map_or(0.0, |margin| margin.points);
    Entry {
        mv: report.mv.raw(),
        value: (points * 100.0).round().clamp(-30_000.0, 30_000.0) as i16,
        depth: report.depth.unwrap_or(0).min(255) as u8,
    }
}

/// `key,ply,move,value,depth,position` (the canonical image, in notation).
fn progress_line(key: u64, ply: u32, entry: Entry, position: &Position) -> String {
    format!(
        "{key:#018x},{ply},{},{},{},{position}\n",
        Move::from_raw(entry.mv),
        entry.value,
        entry.depth
    )
}

/// The entries of a progress file (none if there is none). An unfinished last line (a run
/// killed while writing it) is cut off; any other damage is an error naming the line.
fn read_progress(path: &Path) -> Result<HashMap<u64, Entry>> {
    let mut known = HashMap::new();
    let Ok(text) = fs::read_to_string(path) else {
        return Ok(known);
    };
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    if complete < text.len() {
        eprintln!(
            "{}: an unfinished last line, searched again",
            path.display()
        );
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(complete as u64)?;
    }
    for (number, line) in text[..complete].lines().enumerate() {
        let (key, entry) = parse_line(line)
            .with_context(|| format!("{} line {}: {line:?}", path.display(), number + 1))?;
        known.insert(key, entry);
    }
    if !known.is_empty() {
        eprintln!("resuming: {} positions already searched", known.len());
    }
    Ok(known)
}

fn parse_line(line: &str) -> Result<(u64, Entry)> {
    let fields: Vec<&str> = line.splitn(6, ',').collect();
    let [key, _ply, mv, value, depth, position] = fields[..] else {
        bail!("expected 6 fields");
    };
    let key = u64::from_str_radix(key.trim_start_matches("0x"), 16)?;
    let position: Position = position.parse()?;
    let mv: Move = mv.parse()?;
    ensure!(
        yolah_ai::book::canonical(&position).0 == key,
        "the key is not the position's"
    );
    position.check_move(mv)?;
    Ok((
        key,
        Entry {
            mv: mv.raw(),
            value: value.parse()?,
            depth: depth.parse()?,
        },
    ))
}

fn open_progress(path: &PathBuf) -> Result<File> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

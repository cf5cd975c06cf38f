//! `yolah puzzles --count N --out FILE GAMES…`: proven puzzles ([`yolah_ai::puzzle`]) from
//! game records — PGN files (the board's export, `match --pgn`) and record files (`match
//! --out`, a tournament's games.csv) — at most one a game (its first), none twice.
//!
//! The file is JSON lines: a header (the settings and the inputs), then puzzles, and now and
//! then how many games were read (`{"scanned":K}`). Each line is appended whole and synced
//! before it is counted, under a lock; `--resume` goes on after the last whole line (a line a
//! kill cut short is cut off), with the same inputs and settings, and finds no puzzle twice.

use super::{UsageError, quote, usage};
use anyhow::{Context, Result, bail};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use yolah_ai::arena::source::GameSource;
use yolah_ai::puzzle::{Finder, Header, Line, Scanned, Settings, VERSION};
use yolah_core::{Move, Position};

/// The most puzzles one file is asked for.
pub const MAX_COUNT: usize = 100_000;
/// The longest line of a puzzles file read back (a header naming many games is long).
const MAX_LINE: usize = 16 << 20;
/// A `scanned` line at least this often, in games.
const CHECKPOINT_GAMES: u64 = 16;

/// The options of `yolah puzzles`.
#[derive(clap::Args)]
pub struct Options {
    /// Game records: PGN files, record files (`match --out`, a tournament's games.csv).
    #[arg(value_name = "GAMES", required = true)]
    pub games: Vec<PathBuf>,
    /// Puzzles to find, 1 to 100000 (the run ends sooner if the games run out).
    #[arg(long, value_name = "N")]
    pub count: usize,
    /// The puzzles file (JSON lines), new unless --resume.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Positions with at most this many free squares are tried, 1 to 24 [default: 20].
    #[arg(long, value_name = "N")]
    pub free: Option<u32>,
    /// The solver's nodes for each position, 1 to 100000000 [default: 2000000].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The most moves of the solver's in a solution, 1 to 10 [default: 3].
    #[arg(long, value_name = "N")]
    pub length: Option<usize>,
    /// Go on with --out: the same games and settings, after the last game it read.
    #[arg(long)]
    pub resume: bool,
}

/// What a puzzles file holds so far.
struct Sofar {
    ids: HashSet<String>,
    scanned: u64,
    /// The length of its whole lines.
    len: u64,
}

/// The header of the file `options` ask for, its numbers checked and its games readable.
fn header(options: &Options) -> Result<Header> {
    let defaults = Settings::default();
    let settings = Settings {
        free: options.free.unwrap_or(defaults.free),
        nodes: options.nodes.unwrap_or(defaults.nodes),
        length: options.length.unwrap_or(defaults.length),
    };
    settings.check().map_err(UsageError)?;
    usage!(
        (1..=MAX_COUNT).contains(&options.count),
        "--count must be from 1 to {MAX_COUNT}, not {}",
        options.count
    );
    for path in &options.games {
        yolah_ai::files::open_regular(path)
            .with_context(|| format!("cannot read {}", quote(&path.display().to_string())))?;
    }
    Ok(Header {
        yolah_puzzles: VERSION,
        settings,
        games: options
            .games
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
    })
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let header = header(options)?;
    let settings = header.settings;
    let shown = quote(&options.out.display().to_string());
    usage!(
        serde_json::to_string(&header)?.len() < MAX_LINE,
        "the games' names are longer than a puzzles file's header holds ({MAX_LINE} bytes)"
    );
    // Every game read and checked before anything is written.
    let (total, counting) = count_games(&options.games)?;
    let (mut file, sofar) =
        open(&options.out, &header, options.resume).with_context(|| format!("--out {shown}"))?;
    if !counting.left_out().is_empty() {
        eprintln!("note: left out {}", counting.left_out());
    }
    if sofar.scanned > total {
        bail!(
            "--out {shown} says {} games were read; the games given hold {total}",
            sofar.scanned
        );
    }
    let Sofar {
        mut ids,
        mut scanned,
        mut len,
    } = sofar;
    let mut append = |line: String, len: &mut u64| -> Result<()> {
        let bytes = format!("{line}\n");
        yolah_ai::files::append_whole(&mut file, len, bytes.as_bytes())
            .and_then(|()| file.sync_data())
            .with_context(|| format!("--out {shown}"))
    };
    let mut found = ids.len();
    if found >= options.count {
        writeln!(out, "puzzles: {found} in {shown}, as many as asked")?;
        return Ok(());
    }
    if scanned > 0 {
        writeln!(
            out,
            "puzzles: {found} found in the first {scanned} games; going on"
        )?;
    }
    let mut finder = Finder::new(settings);
    let mut source = GameSource::new();
    let mut index = 0u64;
    let mut since = 0u64;
    for path in &options.games {
        let name = path.display().to_string();
        let mut each = |number: String, start: Position, moves: Vec<Move>| -> Result<bool> {
            index += 1;
            if index <= scanned {
                return Ok(true);
            }
            if let Some((ply, position, puzzle)) = finder.in_game(&start, &moves) {
                let id = yolah_ai::puzzle::id_of(&position);
                if ids.insert(id) {
                    let puzzle =
                        puzzle.puzzle(&position, format!("{name} game {number} ply {ply}"));
                    append(serde_json::to_string(&puzzle)?, &mut len)?;
                    found += 1;
                    writeln!(
                        out,
                        "puzzle {found} of {}: {}: {} to {} ({})",
                        options.count,
                        puzzle.source,
                        position.side_to_move().name(),
                        puzzle.goal.task(),
                        puzzle.solution.join(" ")
                    )?;
                }
            }
            since += 1;
            scanned = index;
            if since >= CHECKPOINT_GAMES || found >= options.count {
                append(serde_json::to_string(&Scanned { scanned })?, &mut len)?;
                since = 0;
            }
            Ok(found < options.count)
        };
        if !games(&mut source, path, &mut each)? {
            break;
        }
    }
    if since > 0 {
        append(serde_json::to_string(&Scanned { scanned })?, &mut len)?;
    }
    let short = if found < options.count {
        format!(" (the games ran out before {})", options.count)
    } else {
        String::new()
    };
    writeln!(
        out,
        "puzzles: {found} in {shown} from {scanned} games{short}"
    )?;
    Ok(())
}

/// The games of `paths`, each once, and what was left out of them; refused when there is
/// no finished game at all (as `explorer build` refuses it).
fn count_games(paths: &[PathBuf]) -> Result<(u64, GameSource)> {
    let mut total = 0u64;
    let mut source = GameSource::new();
    for path in paths {
        games(&mut source, path, &mut |_, _, _| {
            total += 1;
            Ok(true)
        })?;
    }
    if total == 0 {
        let names: Vec<String> = paths
            .iter()
            .map(|p| quote(&p.display().to_string()))
            .collect();
        bail!(
            "no finished game in {}: nothing to find puzzles in",
            names.join(", ")
        );
    }
    Ok((total, source))
}

/// Calls `each(number, start, moves)` for every game of the record or PGN file at `path` that
/// `source` has not seen, in order, while it returns true; returns false if it stopped.
fn games(
    source: &mut GameSource,
    path: &Path,
    each: &mut impl FnMut(String, Position, Vec<Move>) -> Result<bool>,
) -> Result<bool> {
    let mut failed = None;
    let went_through = source
        .read(path, |game| {
            match each(game.number, game.start, game.moves) {
                Ok(more) => Ok(more),
                Err(error) => {
                    let reason = error.to_string();
                    failed = Some(error);
                    Err(reason)
                }
            }
        })
        .map_err(anyhow::Error::msg);
    match failed {
        Some(error) => Err(error),
        None => went_through,
    }
}

/// A resumed file's header (`text` as read) against the one this run would write: the same
/// version, games and settings.
fn same_header(theirs: &Header, header: &Header, text: &str) -> Result<()> {
    if theirs.yolah_puzzles != header.yolah_puzzles {
        bail!(
            "it is a puzzles file of version {}, whose count of the games read \
             differs from this yolah's (version {}): start a new file",
            theirs.yolah_puzzles,
            header.yolah_puzzles
        );
    }
    if theirs != header {
        bail!(
            "it was made from other games or settings ({}); --resume needs the same",
            text.chars().take(200).collect::<String>()
        );
    }
    Ok(())
}

/// Writes the header of a puzzles file that holds nothing yet, synced.
fn write_header(file: &mut File, sofar: &mut Sofar, header: &Header) -> Result<()> {
    let header = format!("{}\n", serde_json::to_string(header)?);
    yolah_ai::files::append_whole(file, &mut sofar.len, header.as_bytes())?;
    file.sync_data()?;
    Ok(())
}

/// Opens the puzzles file under its lock: a new one (refused if it exists), or with
/// `resume` one of ours with the same header, read through and checked, cut after its last
/// whole line (an empty file, one a kill left before its header, is taken as new).
fn open(path: &Path, header: &Header, resume: bool) -> Result<(File, Sofar)> {
    if let Ok(metadata) = std::fs::metadata(path)
        && !metadata.is_file()
    {
        bail!("it is not a regular file");
    }
    if !resume && path.exists() {
        bail!("it exists: --resume goes on with it, or give another file");
    }
    if resume && !path.exists() {
        bail!("there is no such file to go on with");
    }
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(!resume)
        .open(path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            bail!("in use by another run; wait for it to end or choose another file")
        }
        Err(std::fs::TryLockError::Error(e)) => bail!("cannot lock it: {e}"),
    }
    let mut sofar = Sofar {
        ids: HashSet::new(),
        scanned: 0,
        len: 0,
    };
    if !resume {
        // A file this run made and could not write its header into (a full disk) goes, so
        // nothing is left to be refused as existing next time.
        if let Err(error) = write_header(&mut file, &mut sofar, header) {
            let _ = std::fs::remove_file(path);
            return Err(error);
        }
        return Ok((file, sofar));
    }
    let mut reader = std::io::BufReader::new(&file);
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.last() != Some(&b'\n') {
            if n > MAX_LINE {
                bail!("line {number} is longer than {MAX_LINE} bytes: not a puzzles file");
            }
            // Cut short by a kill or a full disk: not counted, cut off below. A first line
            // is ours cut short only if it begins the header this run would write.
            if number == 1 && !serde_json::to_string(header)?.as_bytes().starts_with(&line) {
                bail!("its first line is not a puzzles file's header");
            }
            break;
        }
        let text = std::str::from_utf8(&line[..n - 1])
            .map_err(|_| anyhow::anyhow!("line {number} is not UTF-8: not a puzzles file"))?;
        let line = Line::parse(text);
        if number == 1 && !matches!(line, Ok(Line::Header(_))) {
            bail!("its first line is not a puzzles file's header");
        }
        match line.map_err(|e| anyhow::anyhow!("line {number}: {e}"))? {
            Line::Header(theirs) if number == 1 => same_header(&theirs, header, text)?,
            Line::Header(_) => bail!("line {number} is a second header"),
            Line::Scanned(scanned) => sofar.scanned = sofar.scanned.max(scanned),
            Line::Puzzle(puzzle) => {
                puzzle
                    .check()
                    .map_err(|e| anyhow::anyhow!("line {number}: {e}"))?;
                if !sofar.ids.insert(puzzle.id.clone()) {
                    bail!("line {number}: puzzle {} again", puzzle.id);
                }
            }
        }
        sofar.len += n as u64;
    }
    if file.metadata()?.len() > sofar.len {
        file.set_len(sofar.len)?;
        file.sync_data()?;
    }
    // Empty, as a kill before its header leaves it: the header now.
    if sofar.len == 0 {
        write_header(&mut file, &mut sofar, header)?;
    }
    Ok((file, sofar))
}

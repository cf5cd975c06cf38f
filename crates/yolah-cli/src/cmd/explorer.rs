//! `yolah explorer build FILES… --out DB`: an opening explorer's database from PGN and record
//! files; `yolah explorer DB [-p POSITION] [--json]`: the moves played from a position, each
//! with its games and how they ended, the opening book's move marked.

use super::{PositionArg, UsageError, quote};
use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use yolah_ai::arena::source::GameSource;
use yolah_ai::explorer::{Builder, Explorer};
use yolah_core::{Color, Outcome};

/// The most plies of each game a database takes.
const MAX_PLY: u32 = 200;

/// The options of `yolah explorer build`.
#[derive(clap::Args)]
pub struct BuildOptions {
    /// PGN files (`--pgn`, the board's export) and record files (`match --out`, a
    /// tournament's games.csv), any number.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The database to write: a new file.
    #[arg(long, short, value_name = "DB")]
    pub out: PathBuf,
    /// Only the first N plies of each game, 1 to 200 [default: every ply].
    #[arg(long, value_name = "N")]
    pub max_ply: Option<u32>,
}

/// The options of `yolah explorer DB`.
#[derive(clap::Args)]
pub struct ShowOptions {
    /// A database `yolah explorer build` wrote.
    #[arg(value_name = "DB", required = true)]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub position: PositionArg,
    /// Print the moves as JSON.
    #[arg(long)]
    pub json: bool,
}

/// How a game's result tag reads: `None` for a game without one (`*`, still going on).
fn outcome(result: &str) -> Result<Option<Outcome>> {
    Ok(match result {
        "1-0" => Some(Outcome::Win(Color::Black)),
        "0-1" => Some(Outcome::Win(Color::White)),
        "1/2-1/2" => Some(Outcome::Draw),
        "*" => None,
        other => anyhow::bail!("result {} is none of 1-0, 0-1, 1/2-1/2, *", quote(other)),
    })
}

pub fn build(out: &mut impl Write, options: &BuildOptions) -> Result<()> {
    let max_ply = match options.max_ply {
        Some(n) if !(1..=MAX_PLY).contains(&n) => {
            return Err(UsageError(format!("--max-ply {n}: from 1 to {MAX_PLY}")).into());
        }
        n => n.map_or(usize::MAX, |n| n as usize),
    };
    // Refused before any game is read (a link, even a broken one, is there too).
    if options.out.symlink_metadata().is_ok() {
        return Err(UsageError(format!(
            "'{}' exists: the explorer writes a new database; remove it or choose another --out",
            options.out.display()
        ))
        .into());
    }
    let folder = match options.out.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return Err(UsageError(format!(
            "--out '{}': the folder '{}' does not exist",
            options.out.display(),
            folder.display()
        ))
        .into());
    }
    let started = Instant::now();
    let mut builder = Builder::new();
    let mut unfinished = 0u64;
    let mut source = GameSource::new();
    let progress = super::progress_bar(options.files.len() as u64, "files");
    for path in &options.files {
        let shown = path.display();
        source
            .read(path, |game| {
                let Some(outcome) = outcome(&game.result)
                    .map_err(|e| format!("'{shown}', game {}: {e}", game.number))?
                else {
                    unfinished += 1;
                    return Ok(true);
                };
                let moves = &game.moves[..game.moves.len().min(max_ply)];
                builder
                    .add(&game.start, moves, outcome)
                    .map_err(|e| format!("'{shown}', game {}: {e}", game.number))?;
                Ok(true)
            })
            .map_err(anyhow::Error::msg)?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    let mut left_out = Vec::new();
    if unfinished > 0 {
        left_out.push(format!("{unfinished} unfinished"));
    }
    if !source.left_out().is_empty() {
        left_out.push(source.left_out());
    }
    let left_out = if left_out.is_empty() {
        String::new()
    } else {
        format!(" ({} left out)", left_out.join(", "))
    };
    anyhow::ensure!(
        builder.games() > 0,
        "no finished game in {}: nothing to build{left_out}",
        if options.files.len() == 1 {
            "this file"
        } else {
            "these files"
        }
    );
    builder.write(&options.out).map_err(anyhow::Error::msg)?;
    let bytes = std::fs::metadata(&options.out).map_or(0, |m| m.len());
    writeln!(
        out,
        "{} game{}{} from {} file{}: {} moves of positions into {} ({:.1} MB) in {:.1} s",
        builder.games(),
        if builder.games() == 1 { "" } else { "s" },
        left_out,
        options.files.len(),
        if options.files.len() == 1 { "" } else { "s" },
        builder.entries(),
        options.out.display(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

pub fn show(out: &mut impl Write, options: &ShowOptions) -> Result<()> {
    let db = options
        .db
        .as_deref()
        .ok_or_else(|| UsageError("missing <DB>".into()))?;
    let position = options.position.get()?;
    let explorer = Explorer::open(db).map_err(anyhow::Error::msg)?;
    let answer = explorer.answer(&position);
    if options.json {
        writeln!(out, "{}", serde_json::to_string(&answer)?)?;
        return Ok(());
    }
    let (games, side) = (answer.games, &answer.side);
    writeln!(
        out,
        "{games} game{} of {} from {position} ({side} to move)",
        if games == 1 { "" } else { "s" },
        explorer.games()
    )?;
    if answer.moves.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "move      games   black won   drawn   white won   {side}'s score"
    )?;
    for m in &answer.moves {
        let share = |n: u32| 100.0 * f64::from(n) / m.games as f64;
        writeln!(
            out,
            "{:<6}{} {:>7}   {:>7.1} %  {:>5.1} %   {:>7.1} %   {:>9.1} %",
            m.mv,
            if m.book { "*" } else { " " },
            m.games,
            share(m.black),
            share(m.draws),
            share(m.white),
            100.0 * m.score
        )?;
    }
    if let Some(mv) = &answer.book {
        if answer.moves.iter().any(|m| m.book) {
            writeln!(out, "* the opening book's move")?;
        } else {
            writeln!(
                out,
                "the opening book's move, {mv}, is in none of these games"
            )?;
        }
    }
    Ok(())
}

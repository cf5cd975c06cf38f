//! `yolah replay`: plays a list of moves, stopping at the first illegal one; or, with
//! `--game N`, the moves of game N of a record file (`yolah match --out`, a tournament's
//! `games.csv`).

use super::PositionArg;
use super::{UsageError, quote};
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use yolah_ai::arena::record::{RecordFile, Tail};
use yolah_core::{Diagram, Move};

/// The options of `yolah replay`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// A file of whitespace-separated moves (`#` starts a comment), `-` or nothing for
    /// stdin; or, with --game, a record file.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub position: PositionArg,
    /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv),
    /// which starts from the start (so no --position with it).
    #[arg(long, value_name = "N", conflicts_with = "position")]
    pub game: Option<u64>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let (file, game) = (options.file.as_deref(), options.game);
    let mut position = options.position.get()?;
    let text = if let Some(number) = game {
        {
            let Some(path) = file.filter(|p| *p != Path::new("-")) else {
                return Err(UsageError("--game needs a record file".into()).into());
            };
            let read = RecordFile::read(path)?;
            if let Tail::Damaged { line, reason, .. } = &read.tail {
                eprintln!(
                    "note: skipped the damaged last row of '{}' (line {line}: {reason})",
                    path.display()
                );
            }
            let record = read
                .records
                .into_iter()
                .find(|r| r.game == number)
                .with_context(|| format!("'{}' has no game {number}", path.display()))?;
            writeln!(
                out,
                "game {number}: {} (black) vs {} (white), {} {}-{}",
                record.black, record.white, record.result, record.black_score, record.white_score
            )?;
            // Checked when the file was read: a bad start is not kept.
            position = record.start_position().map_err(anyhow::Error::msg)?;
            record.moves
        }
    } else {
        {
            let text = read_input(file)?;
            if text.starts_with("game,") {
                return Err(UsageError(format!(
                    "'{}' is a record file: add --game N to replay its game N",
                    file.map_or("-".into(), |p| p.display().to_string())
                ))
                .into());
            }
            text
        }
    };
    let tokens = text
        .lines()
        .flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace());
    for (number, token) in (1..).zip(tokens) {
        let side = position.side_to_move();
        let m: Move = token.parse().with_context(|| format!("move {number}"))?;
        if position.game_over() {
            bail!(
                "move {number} {}: the game is already over after ply {}",
                quote(token),
                position.ply()
            );
        }
        if let Err(reason) = position.check_move(m) {
            bail!(
                "move {number} {} ({side} to play) is illegal: {reason}",
                quote(token)
            );
        }
        position.play(m);
    }
    writeln!(out, "{}", Diagram::new(&position))?;
    writeln!(out, "{position}")?;
    Ok(())
}

/// The largest moves file read: a game has at most 121 moves; comments may add some.
const MAX_MOVES_FILE: u64 = 1 << 20;

fn read_input(file: Option<&Path>) -> Result<String> {
    let bytes = match file {
        None => yolah_ai::files::read_stream_bounded(std::io::stdin().lock(), MAX_MOVES_FILE)
            .context("reading moves from stdin")?,
        Some(path) if path == Path::new("-") => {
            yolah_ai::files::read_stream_bounded(std::io::stdin().lock(), MAX_MOVES_FILE)
                .context("reading moves from stdin")?
        }
        Some(path) => yolah_ai::files::read_bounded(path, MAX_MOVES_FILE)
            .with_context(|| format!("cannot read '{}'", path.display()))?,
    };
    String::from_utf8(bytes).context("the moves are not UTF-8 text")
}

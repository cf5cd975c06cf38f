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
    /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv) or of
    /// a PGN file (`--pgn`; its `Game` tag, or the N-th game from 0 in a file without them),
    /// which sets its own start (so no --position with it).
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
            if is_pgn(path)? {
                return replay_pgn(out, path, number);
            }
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
            if text.trim_start().starts_with('[') {
                return Err(UsageError(format!(
                    "'{}' is a PGN file: add --game N to replay its game N",
                    file.map_or("-".into(), |p| p.display().to_string())
                ))
                .into());
            }
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

/// Whether the file at `path` is a PGN file: its first character that is not a space is `[`.
fn is_pgn(path: &Path) -> Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let mut file = yolah_ai::files::open_regular(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let n = file
        .read(&mut head)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    Ok(head[..n]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'['))
}

/// Replays game `number` of the PGN file at `path`: its players and result, then its final
/// position.
fn replay_pgn(out: &mut impl Write, path: &Path, number: u64) -> Result<()> {
    let (games, cut) = yolah_ai::arena::pgn::read(path).map_err(anyhow::Error::msg)?;
    if cut.is_some() {
        eprintln!(
            "note: skipped the last game of '{}', cut short",
            path.display()
        );
    }
    let tagged = games.iter().any(|g| g.tag("Game").is_some());
    let game = if tagged {
        games
            .iter()
            .find(|g| g.tag("Game") == Some(number.to_string().as_str()))
    } else {
        usize::try_from(number).ok().and_then(|i| games.get(i))
    }
    .with_context(|| format!("'{}' has no game {number}", path.display()))?;
    let tag = |name: &str| game.tag(name).unwrap_or("?");
    writeln!(
        out,
        "game {number}: {} (black) vs {} (white), {}",
        tag("Black"),
        tag("White"),
        game.result
    )?;
    let end = game.end();
    writeln!(out, "{}", Diagram::new(&end))?;
    writeln!(out, "{end}")?;
    Ok(())
}

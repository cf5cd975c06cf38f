//! `yolah review FILE [--game N]`: every move of a finished game judged by the engine, and
//! near the end by the solver ([`yolah_ai::review`]): each move's class, the better move and
//! its line, each side's accuracy, and where a move changed a proved result, which moves kept
//! it. `--json` for scripts.

use super::replay::{Picked, format, only_game, pick_game, play_moves, read_input};
use super::{PositionArg, UsageError, quote};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use yolah_ai::arena::source::Format;
use yolah_ai::eval::network::Network;
use yolah_ai::review::{Class, Judged, Review, Reviewer, Settings, Value};
use yolah_core::Color;

/// The options of `yolah review`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// A PGN file (`--pgn`, the board's export), a record file (`match --out`, a
    /// tournament's games.csv) with --game, or a file of moves as `yolah replay` reads them
    /// (`-` for stdin), played from --position.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub position: PositionArg,
    /// The game to review: its number, as `yolah replay --game` takes it [default: a PGN
    /// file's only game].
    #[arg(long, value_name = "N", conflicts_with = "position")]
    pub game: Option<u64>,
    /// In a file holding several runs, the run of game N (`RUN[:K]`, as `replay --run`).
    #[arg(long, value_name = "RUN", requires = "game")]
    pub run: Option<String>,
    /// The engine's nodes for each position, 1 to 100000000 [default: 100000].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Positions with more free squares are not given to the solver, 0 to 56, 0 for none
    /// [default: 56, no limit but the solver's nodes].
    #[arg(long, value_name = "N")]
    pub exact_free: Option<u32>,
    /// The solver's budget: its nodes for each position, 1 to 100000000; positions are proved
    /// from the end back until two in a row are not [default: 1000000].
    #[arg(long, value_name = "N")]
    pub exact_nodes: Option<u64>,
    /// The most the review takes, 1s to 1h, like 30s: the engine's searches share half of it,
    /// the solver has the rest; what it has no time to prove the engine judges [default: 20s].
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    /// The network the engine searches with [default: the shipped network].
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Print the review as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let defaults = Settings::default();
    let settings = Settings {
        nodes: options.nodes.unwrap_or(defaults.nodes),
        exact_free: options.exact_free.unwrap_or(defaults.exact_free),
        exact_nodes: options.exact_nodes.unwrap_or(defaults.exact_nodes),
        time: match &options.time {
            None => defaults.time,
            Some(text) => yolah_ai::options::parse_duration(text).ok_or_else(|| {
                UsageError(format!(
                    "--time must be a duration from 1s to 1h, like 30s or 5min, not {}",
                    quote(text)
                ))
            })?,
        },
    };
    settings.check().map_err(UsageError)?;
    let network = options
        .net
        .as_deref()
        .map(|path| {
            Network::load(path)
                .map(Arc::new)
                .map_err(|e| anyhow::anyhow!("--net {}: {e}", quote(&path.display().to_string())))
        })
        .transpose()?;
    let stdin = options.file == Path::new("-");
    let game = match options.game {
        Some(number) if !stdin => pick_game(&options.file, number, options.run.as_deref())?,
        Some(_) => return Err(UsageError("--game needs a record or PGN file".into()).into()),
        None if !stdin && format(&options.file)? == Format::Pgn => {
            if options.position.position.is_some() {
                return Err(UsageError(format!(
                    "'{}' is a PGN file, whose games set their own start: --position is for a file of moves",
                    options.file.display()
                ))
                .into());
            }
            only_game(&options.file)?
        }
        None => moves_game(&options.file, &options.position)?,
    };
    anyhow::ensure!(
        !game.moves.is_empty(),
        "'{}' holds no move to review",
        options.file.display()
    );
    let bar = ProgressBar::new(1).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} searches, eta {eta}")
            .expect("the template is valid"),
    );
    let review =
        Reviewer::new(settings, network).review(&game.start, &game.moves, |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        });
    bar.finish_and_clear();
    if options.json {
        let json = serde_json::json!({
            "game": game.title,
            "start": game.start.to_string(),
            "moves": game.moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "review": review,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    print_review(out, &game, &review)
}

/// The moves of a file (or stdin) as `yolah replay` reads them, from `--position`.
fn moves_game(file: &Path, position: &PositionArg) -> Result<Picked> {
    let text = read_input(Some(file))?;
    if text.starts_with("game,") {
        return Err(UsageError(format!(
            "'{}' is a record file: add --game N to review its game N",
            file.display()
        ))
        .into());
    }
    let start = position.get()?;
    let mut end = start;
    let moves = play_moves(&text, &mut end)?;
    Ok(Picked {
        title: format!(
            "{} {} from {start}",
            moves.len(),
            if moves.len() == 1 { "move" } else { "moves" }
        ),
        start,
        moves,
    })
}

/// A value in the mover's words: `+1.25`, or `won by 3`, `drawn`, `lost by 2` when proved.
/// (The end of a game is always proved; a review of an unfinished one ends on an estimate.)
fn value_text(value: &Value) -> String {
    if !value.proved {
        return format!("{:+.2}", value.margin);
    }
    match value.margin {
        m if m > 0.0 => format!("won by {m}"),
        m if m < 0.0 => format!("lost by {}", -m),
        _ => "drawn".to_string(),
    }
}

fn print_review(out: &mut impl Write, game: &Picked, review: &Review) -> Result<()> {
    // A title's names come from the file: no control character reaches the terminal.
    let title: String = game
        .title
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    writeln!(out, "{title}")?;
    let exact = match review.exact_free {
        0 => "no position proved".to_string(),
        yolah_ai::review::MAX_EXACT_FREE => format!(
            "the solver proves what it can at {} nodes a position",
            review.exact_nodes
        ),
        free => format!(
            "the solver proves what it can of at most {free} free squares, {} nodes a position",
            review.exact_nodes
        ),
    };
    writeln!(
        out,
        "the engine at {} nodes a position; {exact}",
        review.nodes
    )?;
    writeln!(
        out,
        "{:>5}  {:<5}  {:<5}  {:<10}  {:>10}  {:>10}  the engine's move and line",
        "no.", "side", "move", "class", "before", "after"
    )
    .context("writing the review")?;
    for judged in &review.moves {
        writeln!(out, "{}", move_line(judged))?;
    }
    for side in [Color::Black, Color::White] {
        let accuracy = review.accuracy[side as usize].map_or_else(
            || "no move judged".to_string(),
            |a| format!("accuracy {a:.1} %"),
        );
        let count = |class, one: &str, many: &str| match review.count(side, class) {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        writeln!(
            out,
            "{side}: {accuracy}, {}, {}, {}",
            count(Class::Inaccuracy, "inaccuracy", "inaccuracies"),
            count(Class::Mistake, "mistake", "mistakes"),
            count(Class::Blunder, "blunder", "blunders")
        )?;
    }
    let end = &review.end;
    let end = if end.proved {
        value_text(end)
    } else {
        format!("{} (the engine's estimate)", value_text(end))
    };
    writeln!(out, "end: black {end}")?;
    if review.out_of_time {
        writeln!(
            out,
            "the review's time ran out before the solver was done: the positions before those \
             proved are the engine's judgement (a longer --time may prove more)"
        )?;
    }
    Ok(())
}

/// The move of ply `ply` (from 0) numbered as the board, the PGN files and chess players
/// number them: in pairs from the game's first move, "17." for the first of a pair, "17…"
/// for the second.
fn move_number(ply: u16) -> String {
    format!(
        "{}{}",
        ply / 2 + 1,
        if ply.is_multiple_of(2) { "." } else { "…" }
    )
}

fn move_line(judged: &Judged) -> String {
    let mut line = format!(
        "{:>5}  {:<5}  {:<5}  {:<10}  {:>10}  {:>10}",
        move_number(judged.ply),
        judged.side,
        judged.played,
        judged.class.name(),
        value_text(&judged.before),
        value_text(&judged.after)
    );
    if let Some(verdict) = judged
        .exact
        .as_ref()
        .filter(|v| v.before.signum() != v.after.signum())
    {
        line.push_str("  ");
        line.push_str(&verdict.text());
    } else if judged.class != Class::Best && judged.class != Class::Only {
        line.push_str("  ");
        line.push_str(&judged.line.join(" "));
    }
    line
}

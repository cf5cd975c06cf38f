//! `yolah replay`: plays a list of moves, stopping at the first illegal one; or, with
//! `--game N`, the moves of game N of a record file (`yolah match --out`, a tournament's
//! `games.csv`).

use super::PositionArg;
use super::{UsageError, quote};
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use yolah_ai::arena::pgn::PgnGame;
use yolah_ai::arena::record::{RecordFile, Tail};
use yolah_ai::arena::source::Format;
use yolah_core::{Diagram, Move, Position};

/// The options of `yolah replay`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// A file of whitespace-separated moves (`#` starts a comment), `-` or nothing for
    /// stdin; a PGN file of one game; or, with --game, a record or PGN file.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub position: PositionArg,
    /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv) or of
    /// a PGN file (`--pgn`; its `Game` tag, or the N-th game from 0 in a file without them),
    /// which sets its own start (so no --position with it).
    #[arg(long, value_name = "N", conflicts_with = "position")]
    pub game: Option<u64>,
    /// With --game, in a file holding several runs: the run whose game N to replay (its PGN
    /// `Run` tag, the record file's `config`); `RUN:K` picks the K-th game N of that run
    /// when the same command was run more than once into one PGN file.
    #[arg(long, value_name = "RUN", requires = "game")]
    pub run: Option<String>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let file = options.file.as_deref();
    let mut position = options.position.get()?;
    let text = if let Some(number) = options.game {
        let Some(path) = file.filter(|p| *p != Path::new("-")) else {
            return Err(UsageError("--game needs a record file".into()).into());
        };
        return print_game(out, &pick_game(path, number, options.run.as_deref())?);
    } else {
        if let Some(path) = file.filter(|p| *p != Path::new("-") && p.is_file())
            && format(path)? == Format::Pgn
        {
            if options.position.position.is_some() {
                return Err(UsageError(format!(
                    "'{}' is a PGN file, whose games set their own start: --position is for a file of moves",
                    path.display()
                ))
                .into());
            }
            return print_game(out, &only_game(path)?);
        }
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
    };
    play_moves(&text, &mut position)?;
    writeln!(out, "{}", Diagram::new(&position))?;
    writeln!(out, "{position}")?;
    Ok(())
}

/// A picked game as replay prints it: its title, the board at its end and that position.
fn print_game(out: &mut impl Write, game: &Picked) -> Result<()> {
    writeln!(out, "{}", game.title)?;
    let mut end = game.start;
    for &m in &game.moves {
        end.play(m);
    }
    writeln!(out, "{}", Diagram::new(&end))?;
    writeln!(out, "{end}")?;
    Ok(())
}

/// Plays the whitespace-separated moves of `text` (`#` starts a comment) from `position`,
/// each checked; the moves played. The first bad one stops it with its number and reason.
pub(super) fn play_moves(text: &str, position: &mut Position) -> Result<Vec<Move>> {
    let tokens = text
        .lines()
        .flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace());
    Ok(yolah_core::play_moves(position, tokens)?)
}

/// A game picked from a file by its number.
pub(super) struct Picked {
    /// `game N: BLACK (black) vs WHITE (white), RESULT…`, as replay prints it.
    pub title: String,
    /// The position it starts from.
    pub start: Position,
    /// Its moves, each legal.
    pub moves: Vec<Move>,
}

impl Picked {
    /// A PGN game, numbered `number`.
    pub(super) fn of_pgn(number: &str, game: PgnGame) -> Picked {
        let tag = |name: &str| game.tag(name).unwrap_or("?");
        Picked {
            title: format!(
                "game {number}: {} (black) vs {} (white), {}",
                tag("Black"),
                tag("White"),
                game.result
            ),
            start: game.start,
            moves: game.moves,
        }
    }
}

/// Game `number` of a record file (`yolah match --out`, a tournament's games.csv) or a PGN
/// file, of the run `run` names (`RUN[:K]`) when the file holds several.
pub(super) fn pick_game(path: &Path, number: u64, run: Option<&str>) -> Result<Picked> {
    let pick = run.map(Pick::parse).transpose()?;
    match format(path)? {
        Format::Pgn => {
            return Ok(Picked::of_pgn(
                &number.to_string(),
                pgn_game(path, number, pick.as_ref())?,
            ));
        }
        Format::Other => bail!(Format::neither(path)),
        Format::Record => {}
    }
    let read = RecordFile::read(path)?;
    if let Tail::Damaged { line, reason, .. } = &read.tail {
        eprintln!(
            "note: skipped the damaged last row of '{}' (line {line}: {reason})",
            path.display()
        );
    }
    if pick.as_ref().is_some_and(|p| p.copy.is_some()) {
        return Err(UsageError(
            "--run RUN:K picks among the copies of a run in a PGN file; a record file holds \
             each game once"
                .into(),
        )
        .into());
    }
    let record = read
        .records
        .into_iter()
        .find(|r| r.game == number && pick.as_ref().is_none_or(|p| p.run == r.config))
        .with_context(|| {
            format!(
                "'{}' has no game {number}{}",
                path.display(),
                of_run(pick.as_ref())
            )
        })?;
    // Checked when the file was read: a bad start or move is not kept.
    let start = record.start_position().map_err(anyhow::Error::msg)?;
    let mut position = start;
    let moves = yolah_core::play_moves(&mut position, record.moves.split_whitespace())
        .map_err(|e| anyhow::anyhow!("game {number}, {e}"))?;
    Ok(Picked {
        title: format!(
            "game {number}: {} (black) vs {} (white), {} {}-{}",
            record.black, record.white, record.result, record.black_score, record.white_score
        ),
        start,
        moves,
    })
}

/// The largest moves file read: a game has at most 121 moves; comments may add some.
const MAX_MOVES_FILE: u64 = 1 << 20;

pub(super) fn read_input(file: Option<&Path>) -> Result<String> {
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

/// The file's game when it holds only one (a PGN file; a record file names its game).
pub(super) fn only_game(path: &Path) -> Result<Picked> {
    let mut reader = yolah_ai::arena::pgn::PgnReader::open(path).map_err(anyhow::Error::msg)?;
    let first = reader
        .next()
        .transpose()
        .map_err(|e| anyhow::anyhow!("'{}' {e}", path.display()))?;
    let Some(first) = first else {
        if reader.cut().is_some() {
            anyhow::bail!(
                "'{}' holds one game, cut short (a kill or a full disk as it was written): \
                 nothing whole to read",
                path.display()
            );
        }
        return Err(UsageError(format!(
            "'{}' holds no PGN game: give a PGN file, or a record file with --game N",
            path.display()
        ))
        .into());
    };
    if reader.next().is_some() {
        return Err(UsageError(format!(
            "'{}' holds more than one game: add --game N to pick one",
            path.display()
        ))
        .into());
    }
    if reader.cut().is_some() {
        note_cut(path);
    }
    let number = first.tag("Game").unwrap_or("0").to_string();
    Ok(Picked::of_pgn(&number, first))
}

/// Says on stderr that the PGN file at `path` ended inside a game, which was left out.
fn note_cut(path: &Path) {
    eprintln!(
        "note: skipped the last game of '{}', cut short (a kill or a full disk as it was written)",
        path.display()
    );
}

/// What the games file at `path` is: PGN, a record file, or neither.
pub(super) fn format(path: &Path) -> Result<Format> {
    Format::of(path).map_err(anyhow::Error::msg)
}

/// `--run RUN[:K]`: a run, and which copy of its game when it was run more than once.
struct Pick {
    run: String,
    copy: Option<usize>,
}

impl Pick {
    fn parse(text: &str) -> Result<Pick> {
        let (run, copy) = match text.rsplit_once(':') {
            Some((run, k)) => match k.parse::<usize>() {
                Ok(k) if k >= 1 => (run, Some(k)),
                _ => {
                    return Err(UsageError(format!(
                        "--run {}: after the run, `:K` counts the copies from 1",
                        quote(text)
                    ))
                    .into());
                }
            },
            None => (text, None),
        };
        Ok(Pick {
            run: run.to_string(),
            copy,
        })
    }
}

fn of_run(pick: Option<&Pick>) -> String {
    pick.map_or_else(String::new, |p| format!(" in run {}", quote(&p.run)))
}

/// The most runs an ambiguous game number lists.
const MAX_RUNS_LISTED: usize = 4;

/// What a read through a PGN file found of game `number`.
struct Search<'a> {
    number: u64,
    wanted: String,
    pick: Option<&'a Pick>,
    /// Whether any game has a `Game` tag; if none has, the `number`-th game.
    tagged: bool,
    nth: Option<PgnGame>,
    /// The game found (the first, or the copy picked), the runs holding the number (the
    /// first few), and the copies of the game in the first run (or the picked one).
    found: Option<PgnGame>,
    runs: Vec<String>,
    more_runs: bool,
    copies: usize,
    copies_differ: bool,
}

impl Search<'_> {
    /// Looks at game `index` of the file.
    fn add(&mut self, index: usize, game: PgnGame) {
        let same = |a: &PgnGame, b: &PgnGame| {
            a.moves == b.moves && a.start == b.start && a.result == b.result
        };
        self.tagged |= game.tag("Game").is_some();
        if !self.tagged && index as u64 == self.number {
            self.nth = Some(game.clone());
        }
        if game.tag("Game") != Some(self.wanted.as_str()) {
            return;
        }
        let run = game.tag("Run").unwrap_or("").to_string();
        if let Some(pick) = self.pick {
            if run == pick.run {
                self.copies += 1;
                match (&self.found, pick.copy) {
                    (None, None) => self.found = Some(game),
                    (Some(first), None) => self.copies_differ |= !same(first, &game),
                    (_, Some(k)) if k == self.copies => self.found = Some(game),
                    _ => {}
                }
            }
            return;
        }
        if !self.runs.contains(&run) {
            if self.runs.len() < MAX_RUNS_LISTED {
                self.runs.push(run.clone());
            } else {
                self.more_runs = true;
            }
        }
        match &self.found {
            None => {
                self.found = Some(game);
                self.copies = 1;
            }
            Some(first) if first.tag("Run").unwrap_or("") == run => {
                self.copies += 1;
                self.copies_differ |= !same(first, &game);
            }
            Some(_) => {}
        }
    }

    /// The game, or why there is none, or why it is ambiguous (then one line that says how
    /// to pick).
    fn result(self, name: &str) -> Result<PgnGame> {
        let number = self.number;
        if !self.tagged {
            return self
                .nth
                .with_context(|| format!("'{name}' has no game {number}"));
        }
        if self.runs.len() > 1 {
            let mut listed: Vec<String> = self
                .runs
                .iter()
                .map(|r| {
                    if r.is_empty() {
                        "(no Run tag)".to_string()
                    } else {
                        r.clone()
                    }
                })
                .collect();
            if self.more_runs {
                listed.push("…".to_string());
            }
            return Err(UsageError(format!(
                "'{name}' has a game {number} in more than one run ({}): add --run RUN to pick one",
                listed.join(", ")
            ))
            .into());
        }
        if self.copies_differ {
            let run = self.found.as_ref().and_then(|g| g.tag("Run")).unwrap_or("");
            return Err(UsageError(format!(
                "'{name}' has {} games {number} of run {run}, not all the same (the same command \
                 was run more than once into it): add --run {run}:K to pick the K-th, from 1",
                self.copies
            ))
            .into());
        }
        let pick = self.pick;
        self.found.with_context(|| {
            let copy = pick
                .and_then(|p| p.copy)
                .map_or_else(String::new, |k| format!(" (copy {k})"));
            format!("'{name}' has no game {number}{}{copy}", of_run(pick))
        })
    }
}

/// Game `number` of the PGN file at `path` (its `Game` tag; in a file without them, the
/// `number`-th game from 0). The file is read through, game by game, each checked, holding
/// one game at a time besides the one found. A number found in several runs is refused
/// unless `pick` says which; copies of one run's game (the same command run twice into the
/// file) are one game if they are the same game, else `pick` says which copy.
fn pgn_game(path: &Path, number: u64, pick: Option<&Pick>) -> Result<PgnGame> {
    let mut reader = yolah_ai::arena::pgn::PgnReader::open(path).map_err(anyhow::Error::msg)?;
    let mut search = Search {
        number,
        wanted: number.to_string(),
        pick,
        tagged: false,
        nth: None,
        found: None,
        runs: Vec::new(),
        more_runs: false,
        copies: 0,
        copies_differ: false,
    };
    for (index, game) in reader.by_ref().enumerate() {
        search.add(
            index,
            game.map_err(|e| anyhow::anyhow!("'{}' {e}", path.display()))?,
        );
    }
    let cut = reader.cut().is_some();
    let game = search
        .result(&path.display().to_string())
        .map_err(|error| {
            if cut {
                anyhow::anyhow!(
                    "{error} (its last game, cut short by a kill or a full disk as it was written, \
                 was left out)"
                )
            } else {
                error
            }
        })?;
    if cut {
        note_cut(path);
    }
    Ok(game)
}

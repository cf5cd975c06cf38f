//! Reading games from the files a user names: PGN files (`match --pgn`, the board's export) and
//! record files (`match --out`, a tournament's `games.csv`), told apart by their first
//! character. A [`GameSource`] reads one file after another and recognises a game it has
//! seen already — the same file given twice, or a match's PGN file beside its record file —
//! by the run and number both formats carry (the PGN `Run` and `Game` tags, the record's
//! `config` and `game`) and its moves, and counts the copies it leaves out and the games cut short at a
//! file's end (a kill or a full disk while the game was written), so that a caller can say so.

use crate::arena::pgn::{BYTE_ORDER_MARK, PgnReader};
use crate::arena::record::{RecordFile, Tail};
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use yolah_core::{Move, Position};

/// A game read from a file.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// Its number in its file: the PGN `Game` tag or the record's `game`, else its place in
    /// the file from 0.
    pub number: String,
    /// The position it starts from.
    pub start: Position,
    /// Its moves, checked legal.
    pub moves: Vec<Move>,
    /// Its result as the file writes it (`1-0`, `0-1`, `1/2-1/2`, or `*` for a PGN game
    /// without one).
    pub result: String,
}

/// What makes two games one: the run, the number and the moves when the file says the run
/// and number (two runs of one command share their fingerprint, and players on a clock play
/// other games in each: the moves tell them apart), else the file itself and the game's place
/// in it.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
enum Identity {
    Run(String, String, u64),
    Place(PathBuf, usize),
}

/// A hash of a game's start and moves.
fn moves_hash(start: &Position, moves: &[Move]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    start.to_string().hash(&mut hasher);
    for m in moves {
        m.raw().hash(&mut hasher);
    }
    hasher.finish()
}

/// Reads the games of files one after another, each game once.
#[derive(Debug, Default)]
pub struct GameSource {
    seen: HashSet<Identity>,
    /// Games left out because an earlier file (or the same one) had them already.
    pub copies: u64,
    /// Files whose last game was cut short and left out.
    pub cut_short: u64,
}

/// What a games file is, told by its first bytes (past a byte order mark and white space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PGN: it starts with a tag, `[`.
    Pgn,
    /// A game record file: it starts with its header, `game,` (or a start of it, as a kill
    /// at its first write leaves it, or nothing).
    Record,
    /// Neither.
    Other,
}

impl Format {
    /// The format of the file at `path`.
    pub fn of(path: &Path) -> Result<Format, String> {
        let mut head = [0u8; 256];
        let mut file = crate::files::open_regular(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let n = file
            .read(&mut head)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let head = head[..n]
            .strip_prefix(BYTE_ORDER_MARK)
            .unwrap_or(&head[..n]);
        let start = head
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(head.len());
        let head = &head[start..];
        Ok(if head.starts_with(b"[") {
            Format::Pgn
        } else if head.starts_with(b"game,") || b"game,".starts_with(head) {
            Format::Record
        } else {
            Format::Other
        })
    }

    /// The error for a file of [`Format::Other`], naming both formats.
    pub fn neither(path: &Path) -> String {
        format!(
            "'{}' is neither a PGN file (whose first line is a tag, such as `[Event \"…\"]`) \
             nor a game record file (whose header starts `game,config,`)",
            path.display()
        )
    }
}

impl GameSource {
    /// A source that has seen no game yet.
    pub fn new() -> GameSource {
        GameSource::default()
    }

    /// Calls `each` with every game of the file at `path` not seen before, in file order,
    /// while it returns `Ok(true)`; returns whether it went through the whole file. An error
    /// names the file (and the game's line or number).
    pub fn read(
        &mut self,
        path: &Path,
        mut each: impl FnMut(SourceGame) -> Result<bool, String>,
    ) -> Result<bool, String> {
        let shown = path.display();
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let format = Format::of(path)?;
        if format == Format::Other {
            return Err(Format::neither(path));
        }
        if format == Format::Pgn {
            let mut reader = PgnReader::open(path)?;
            for (index, game) in reader.by_ref().enumerate() {
                let game = game.map_err(|e| format!("'{shown}' {e}"))?;
                let number = game.tag("Game").map(str::to_string);
                let identity = match (game.tag("Run"), &number) {
                    (Some(run), Some(number)) if !run.is_empty() => Identity::Run(
                        run.to_string(),
                        number.clone(),
                        moves_hash(&game.start, &game.moves),
                    ),
                    _ => Identity::Place(canonical.clone(), index),
                };
                if !self.seen.insert(identity) {
                    self.copies += 1;
                    continue;
                }
                let game = SourceGame {
                    number: number.unwrap_or_else(|| index.to_string()),
                    start: game.start,
                    moves: game.moves,
                    result: game.result,
                };
                if !each(game)? {
                    return Ok(false);
                }
            }
            if reader.cut().is_some() {
                self.cut_short += 1;
            }
            return Ok(true);
        }
        let file = RecordFile::read(path).map_err(|e| e.to_string())?;
        // A damaged last row is a game cut short; a header cut short (line 1) held no game.
        if matches!(file.tail, Tail::Damaged { line, .. } if line > 1) {
            self.cut_short += 1;
        }
        for (index, record) in file.records.into_iter().enumerate() {
            let game = format!("'{shown}', game {}", record.game);
            let start = record
                .start_position()
                .map_err(|e| format!("{game}: {e}"))?;
            let moves = record
                .moves
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<Vec<Move>, _>>()
                .map_err(|e| format!("{game}: {e}"))?;
            let identity = if record.config.is_empty() {
                Identity::Place(canonical.clone(), index)
            } else {
                Identity::Run(
                    record.config.clone(),
                    record.game.to_string(),
                    moves_hash(&start, &moves),
                )
            };
            if !self.seen.insert(identity) {
                self.copies += 1;
                continue;
            }
            let game = SourceGame {
                number: record.game.to_string(),
                start,
                moves,
                result: record.result,
            };
            if !each(game)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// What was left out, for a note after the games (empty when nothing was): `2 copies of
    /// games seen already, 1 game cut short at a file's end`.
    pub fn left_out(&self) -> String {
        let mut parts = Vec::new();
        match self.copies {
            0 => {}
            1 => parts.push("1 copy of a game seen already".to_string()),
            n => parts.push(format!("{n} copies of games seen already")),
        }
        match self.cut_short {
            0 => {}
            1 => parts.push("1 game cut short at a file's end".to_string()),
            n => parts.push(format!("{n} games cut short at a file's end")),
        }
        parts.join(", ")
    }
}

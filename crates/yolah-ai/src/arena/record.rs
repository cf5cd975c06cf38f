//! Game records: one CSV row per game, shared by `yolah match --out` and the tournament's
//! `games.csv`, read back by `yolah replay --game N` and by `--resume`.
//!
//! A row holds the game's number in its schedule, both specs, the result, the scores, the
//! thinking times and every move from the start. Rows read back are replayed and checked, so a
//! damaged file is reported, never half-trusted.

use crate::arena::game::Game;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use yolah_core::{Color, Move, Outcome, Position};

/// One finished game, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its schedule (0-based).
    pub game: u64,
    /// Black's spec.
    pub black: String,
    /// White's spec.
    pub white: String,
    /// `1-0` (black won), `0-1` (white won) or `1/2-1/2`.
    pub result: String,
    /// Black's final score.
    pub black_score: u8,
    /// White's final score.
    pub white_score: u8,
    /// How many of the moves were the random opening's.
    pub opening_plies: u32,
    /// Black's total thinking time, ms.
    pub black_ms: f64,
    /// White's total thinking time, ms.
    pub white_ms: f64,
    /// Black's longest move, ms.
    pub black_max_ms: f64,
    /// White's longest move, ms.
    pub white_max_ms: f64,
    /// Every move from the start, space-separated.
    pub moves: String,
}

/// The result as written in records.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::Black) => "1-0",
        Outcome::Win(Color::White) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

fn ms(duration: std::time::Duration) -> f64 {
    (duration.as_secs_f64() * 1e4).round() / 10.0
}

impl GameRecord {
    /// The record of `game`, number `number`, between `black` and `white`.
    pub fn new(number: u64, black: &str, white: &str, game: &Game) -> GameRecord {
        let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
        GameRecord {
            game: number,
            black: black.to_string(),
            white: white.to_string(),
            result: result_text(game.outcome).to_string(),
            black_score: game.scores[0],
            white_score: game.scores[1],
            opening_plies: game.opening_plies as u32,
            black_ms: ms(game.thinking[0]),
            white_ms: ms(game.thinking[1]),
            black_max_ms: ms(game.longest[0]),
            white_max_ms: ms(game.longest[1]),
            moves: moves.join(" "),
        }
    }

    /// The result as written (not checked against the moves: see [`GameRecord::check`]).
    pub fn outcome(&self) -> Option<Outcome> {
        [
            Outcome::Win(Color::Black),
            Outcome::Win(Color::White),
            Outcome::Draw,
        ]
        .into_iter()
        .find(|&outcome| result_text(outcome) == self.result)
    }

    /// Replays the moves and checks that they are legal, that the game is over at the end,
    /// and that scores and result agree with it.
    pub fn check(&self) -> Result<(), String> {
        let mut position = Position::start();
        let mut plies = 0;
        for (number, token) in (1..).zip(self.moves.split_whitespace()) {
            let m: Move = token
                .parse()
                .map_err(|e| format!("move {number} '{token}': {e}"))?;
            if position.game_over() {
                return Err(format!("move {number} '{token}' comes after the end"));
            }
            position
                .check_move(m)
                .map_err(|e| format!("move {number} '{token}' is illegal: {e}"))?;
            position.play(m);
            plies += 1;
        }
        let outcome = position
            .outcome()
            .ok_or_else(|| format!("the game is not over after {plies} moves"))?;
        let scores = [position.score(Color::Black), position.score(Color::White)];
        if scores != [self.black_score, self.white_score] || self.result != result_text(outcome) {
            return Err(format!(
                "the moves end {} {}-{}, the record says {} {}-{}",
                result_text(outcome),
                scores[0],
                scores[1],
                self.result,
                self.black_score,
                self.white_score
            ));
        }
        Ok(())
    }
}

/// A record file that cannot be read, and where.
#[derive(Debug)]
pub enum RecordError {
    /// The file could not be opened or read.
    Io(PathBuf, io::Error),
    /// A row is malformed or its game does not check; `line` counts from 1, header included.
    Row {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io(path, error) => write!(f, "cannot read '{}': {error}", path.display()),
            RecordError::Row { path, line, reason } => {
                write!(f, "'{}' line {line}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Reads and checks every record of a file.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let file = File::open(path).map_err(|e| RecordError::Io(path.to_path_buf(), e))?;
    let mut reader = csv::Reader::from_reader(file);
    let mut records = Vec::new();
    for row in reader.deserialize::<GameRecord>() {
        let row_error = |line: u64, reason: String| RecordError::Row {
            path: path.to_path_buf(),
            line,
            reason,
        };
        let record = row.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            row_error(line, e.to_string())
        })?;
        // Data rows start on line 2, after the header; games hold no newlines.
        let line = records.len() as u64 + 2;
        record
            .check()
            .map_err(|reason| row_error(line, format!("game {}: {reason}", record.game)))?;
        records.push(record);
    }
    Ok(records)
}

/// Cuts a trailing partial row (a write interrupted by a kill) off a record file. Returns
/// whether anything was cut.
pub fn cut_partial_row(path: &Path) -> io::Result<bool> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep == bytes.len() {
        return Ok(false);
    }
    file.set_len(keep as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok(true)
}

/// Appends records to a file, each flushed as soon as it is written.
pub struct RecordWriter {
    writer: csv::Writer<File>,
}

impl RecordWriter {
    /// Creates `path` (it must not exist: records are never overwritten) with its header.
    pub fn create(path: &Path) -> io::Result<RecordWriter> {
        let file = OpenOptions::new().write(true).create_new(true).open(path)?;
        Ok(RecordWriter {
            writer: csv::Writer::from_writer(file),
        })
    }

    /// Opens `path` to add records at its end; the header is written first if the file is
    /// empty (a run killed before its first game ended).
    pub fn append(path: &Path) -> io::Result<RecordWriter> {
        let file = OpenOptions::new().append(true).open(path)?;
        let empty = file.metadata()?.len() == 0;
        Ok(RecordWriter {
            writer: csv::WriterBuilder::new()
                .has_headers(empty)
                .from_writer(file),
        })
    }

    /// Writes one record and flushes it to the file.
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        self.writer.serialize(record).map_err(io::Error::other)?;
        self.writer.flush()
    }
}

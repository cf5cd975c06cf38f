//! Game records: one CSV row per game, shared by `yolah match --out` and the tournament's
//! `games.csv`, read back by `yolah replay --game N` and by `--resume`.
//!
//! A row holds the game's number in its schedule, both specs, the result, the scores, the
//! thinking times and every move from the start. Rows read back are replayed and checked, so a
//! damaged file is reported, never half-trusted. The one exception is a last row cut short by an
//! interruption (no newline after it): it is set aside as the file's damaged [`Tail`], which a
//! resumed run cuts off and a reader skips.

use crate::arena::game::{Game, adjudication};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use yolah_core::text::quote;
use yolah_core::{Color, Outcome, Position, play_moves};

/// One finished game, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its schedule (0-based).
    pub game: u64,
    /// The fingerprint of the match or tournament it belongs to ([`Config::fingerprint`]);
    /// empty in files written before it was recorded.
    ///
    /// [`Config::fingerprint`]: crate::arena::tournament::Config::fingerprint
    #[serde(default)]
    pub config: String,
    /// Black's spec.
    pub black: String,
    /// White's spec.
    pub white: String,
    /// `1-0` (black won), `0-1` (white won) or `1/2-1/2`.
    pub result: String,
    /// Why the loser forfeited (an external program that crashed, hung, talked nonsense or
    /// sent an illegal move); empty for a game played to its end.
    #[serde(default)]
    pub forfeit: String,
    /// Black's final score.
    pub black_score: u8,
    /// White's final score.
    pub white_score: u8,
    /// How many of the moves were the opening's.
    pub opening_plies: u32,
    /// The position the game started from, in notation; empty for the start (and in files
    /// written before it was recorded).
    #[serde(default)]
    pub start: String,
    /// Black's total thinking time, ms (timed by the arbiter around each move).
    pub black_ms: f64,
    /// White's total thinking time, ms.
    pub white_ms: f64,
    /// Black's longest move, ms.
    pub black_max_ms: f64,
    /// White's longest move, ms.
    pub white_max_ms: f64,
    /// With a game clock, the time black had left at the end, ms; empty without one (and in
    /// files written before clocks).
    #[serde(default)]
    pub black_left_ms: Option<f64>,
    /// With a game clock, the time white had left at the end, ms.
    #[serde(default)]
    pub white_left_ms: Option<f64>,
    /// Black's game clock (`10s+100ms`), empty without one.
    #[serde(default)]
    pub black_tc: String,
    /// White's game clock: another than black's in a time-odds match.
    #[serde(default)]
    pub white_tc: String,
    /// `proved` when the game was stopped once its final scores were proved (`--adjudicate`):
    /// the scores are then the proved ones; empty for a game played to its end.
    #[serde(default)]
    pub adjudicated: String,
    /// Every move from the start, space-separated.
    pub moves: String,
}

/// The `adjudicated` value of a game stopped once its result was proved.
pub const PROVED: &str = "proved";

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
    /// The record of `game`, number `number` of the run with fingerprint `config`, between
    /// `black` and `white`.
    pub fn new(number: u64, config: &str, black: &str, white: &str, game: &Game) -> GameRecord {
        let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
        GameRecord {
            game: number,
            config: config.to_string(),
            black: black.to_string(),
            white: white.to_string(),
            result: result_text(game.outcome).to_string(),
            forfeit: game.forfeit.as_deref().map_or_else(String::new, one_line),
            black_score: game.scores[0],
            white_score: game.scores[1],
            opening_plies: game.opening_plies as u32,
            start: if game.start == Position::start() {
                String::new()
            } else {
                game.start.to_string()
            },
            black_ms: ms(game.thinking[0]),
            white_ms: ms(game.thinking[1]),
            black_max_ms: ms(game.longest[0]),
            white_max_ms: ms(game.longest[1]),
            black_left_ms: game.clock_left.map(|left| ms(left[0])),
            white_left_ms: game.clock_left.map(|left| ms(left[1])),
            black_tc: game
                .time_controls
                .map_or_else(String::new, |tc| tc[0].to_string()),
            white_tc: game
                .time_controls
                .map_or_else(String::new, |tc| tc[1].to_string()),
            adjudicated: if game.adjudicated {
                PROVED.to_string()
            } else {
                String::new()
            },
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

    /// The position the game started from.
    pub fn start_position(&self) -> Result<Position, String> {
        if self.start.is_empty() {
            Ok(Position::start())
        } else {
            self.start
                .parse()
                .map_err(|e| format!("bad start position: {e}"))
        }
    }

    /// Replays the moves and checks that they are legal, that the game is over at the end
    /// (or, for a forfeit, not over, and lost by the side to move), and that scores and
    /// result agree with it.
    pub fn check(&self) -> Result<(), String> {
        let mut position = self.start_position()?;
        let plies = play_moves(&mut position, self.moves.split_whitespace())
            .map_err(|e| e.to_string())?
            .len();
        let adjudicated = match self.adjudicated.as_str() {
            "" => None,
            PROVED if self.forfeit.is_empty() => Some(
                adjudication(&position)
                    .ok_or_else(|| format!("no proof of the result after {plies} moves"))?,
            ),
            other => return Err(format!("bad adjudication {}", quote(other))),
        };
        let outcome = if let Some([black, white]) = adjudicated {
            Outcome::from_scores(black, white)
        } else if self.forfeit.is_empty() {
            position
                .outcome()
                .ok_or_else(|| format!("the game is not over after {plies} moves"))?
        } else if position.game_over() {
            return Err(format!(
                "a forfeit after the end of the game ({plies} moves)"
            ));
        } else {
            Outcome::Win(position.side_to_move().opponent())
        };
        let scores =
            adjudicated.unwrap_or([position.score(Color::Black), position.score(Color::White)]);
        for tc in [&self.black_tc, &self.white_tc] {
            if !tc.is_empty() {
                tc.parse::<crate::clock::TimeControl>()?;
            }
        }
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

/// A forfeit's reason as stored: one line, at most 200 characters.
fn one_line(reason: &str) -> String {
    reason
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect()
}

/// The header of a record file, column by column.
pub const COLUMNS: [&str; 20] = [
    "game",
    "config",
    "black",
    "white",
    "result",
    "forfeit",
    "black_score",
    "white_score",
    "opening_plies",
    "start",
    "black_ms",
    "white_ms",
    "black_max_ms",
    "white_max_ms",
    "black_left_ms",
    "white_left_ms",
    "black_tc",
    "white_tc",
    "adjudicated",
    "moves",
];

/// Columns added since the first files; files without them are still read (their values are
/// empty), but not added to.
const ADDED_COLUMNS: [&str; 8] = [
    "config",
    "forfeit",
    "start",
    "black_left_ms",
    "white_left_ms",
    "black_tc",
    "white_tc",
    "adjudicated",
];

/// Whether `header` is [`COLUMNS`], or [`COLUMNS`] without some of the columns added since.
fn known_header(header: &csv::StringRecord) -> bool {
    let mut expected = COLUMNS.iter().peekable();
    for name in header {
        while expected
            .next_if(|&&e| e != name && ADDED_COLUMNS.contains(&e))
            .is_some()
        {}
        if expected.next() != Some(&name) {
            return false;
        }
    }
    expected.all(|e| ADDED_COLUMNS.contains(e))
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

/// How a record file ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tail {
    /// With a newline, or the file is empty.
    Clean,
    /// Its last row is whole but has no newline (the newline's write was lost): the row counts.
    MissingNewline,
    /// Its last row is incomplete (a kill or a full disk during its write): it does not count.
    Damaged {
        /// The row's line.
        line: u64,
        /// The byte where it starts.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
}

/// The checked records of a file, and how it ends.
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// Every whole row, checked, in file order.
    pub records: Vec<GameRecord>,
    /// How the file ends.
    pub tail: Tail,
    /// Whether the header lacks a column new rows cannot do without (`config`, `forfeit`,
    /// `start`): rows can be read, not added.
    pub older_format: bool,
    /// The columns of its header ([`COLUMNS`] for an empty file): new rows are written with
    /// these, so a file from before the clock columns still takes rows without a clock.
    pub header: Vec<String>,
    /// Whether the header has the `config` column: then every row must carry its run's
    /// fingerprint (an empty one is not a row of this format).
    pub fingerprinted: bool,
}

impl RecordFile {
    /// Reads and checks every record of a file. A damaged row is an error, except the last
    /// one when the file does not end with a newline: that one was cut short by an
    /// interruption, and is reported in [`RecordFile::tail`] rather than refused.
    pub fn read(path: &Path) -> Result<RecordFile, RecordError> {
        let io_error = |e| RecordError::Io(path.to_path_buf(), e);
        let mut file = crate::files::open_regular(path).map_err(io_error)?;
        let unterminated = last_byte(&mut file)
            .map_err(io_error)?
            .is_some_and(|b| b != b'\n');
        let row_error = |line: u64, reason: String| RecordError::Row {
            path: path.to_path_buf(),
            line,
            reason,
        };
        // Read in pieces, each row bounded: a file of any size or shape is never held whole.
        // Flexible, so that a last row cut short is read as far as it goes; every row is
        // checked to have the header's fields below.
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(crate::files::BoundedLines::new(
                io::BufReader::new(file),
                MAX_ROW,
            ));
        let mut rows = reader.byte_records().peekable();
        let mut records = Vec::new();
        let mut tail = Tail::Clean;
        let Some(header) = rows.next() else {
            return Ok(RecordFile {
                records,
                tail,
                older_format: false,
                header: COLUMNS.map(String::from).to_vec(),
                fingerprinted: true,
            });
        };
        let header_error = || {
            format!(
                "not a game record file: its header must be `{}`",
                COLUMNS.join(",")
            )
        };
        let header = header
            .ok()
            .and_then(|h| csv::StringRecord::from_byte_record(h).ok());
        let header = match header {
            Some(header) if known_header(&header) => header,
            // A header cut short: the file was created and interrupted at once.
            _ if unterminated && rows.peek().is_none() => {
                // Its bytes, not its fields: a quoted or spaced variant is another program's.
                let complete = COLUMNS.join(",");
                let written = crate::files::read_bounded(path, complete.len() as u64);
                if written.is_ok_and(|bytes| complete.as_bytes().starts_with(&bytes)) {
                    tail = Tail::Damaged {
                        line: 1,
                        offset: 0,
                        reason: "the header is incomplete".to_string(),
                    };
                    return Ok(RecordFile {
                        records,
                        tail,
                        older_format: false,
                        header: COLUMNS.map(String::from).to_vec(),
                        fingerprinted: true,
                    });
                }
                return Err(row_error(1, header_error()));
            }
            _ => return Err(row_error(1, header_error())),
        };
        while let Some(row) = rows.next() {
            let last = rows.peek().is_none();
            let (line, offset) = match &row {
                Ok(row) => row.position().map_or((0, 0), |p| (p.line(), p.byte())),
                Err(e) => e.position().map_or((0, 0), |p| (p.line(), p.byte())),
            };
            let cut_short = row
                .as_ref()
                .is_ok_and(|row| cut_short_row(row, header.len()));
            let record = checked_row(row, &header);
            match record {
                Ok(record) => {
                    if last && unterminated {
                        tail = Tail::MissingNewline;
                    }
                    records.push(record);
                }
                Err(reason) if last && unterminated && cut_short => {
                    tail = Tail::Damaged {
                        line,
                        offset,
                        reason,
                    };
                }
                Err(reason) => return Err(row_error(line, reason)),
            }
        }
        let older_format = ["config", "forfeit", "start"]
            .iter()
            .any(|column| !header.iter().any(|name| name == *column));
        let fingerprinted = header.iter().any(|name| name == "config");
        Ok(RecordFile {
            records,
            tail,
            older_format,
            header: header.iter().map(String::from).collect(),
            fingerprinted,
        })
    }
}

/// The record of `row` (read with the file's `header`), checked: its fields, then its game.
fn checked_row(
    row: csv::Result<csv::ByteRecord>,
    header: &csv::StringRecord,
) -> Result<GameRecord, String> {
    let row = csv::StringRecord::from_byte_record(row.map_err(|e| e.to_string())?)
        .map_err(|_| "it is not UTF-8 text".to_string())?;
    if row.len() != header.len() {
        return Err(format!(
            "{} fields, where the header has {}",
            row.len(),
            header.len()
        ));
    }
    let record = row
        .deserialize::<GameRecord>(Some(header))
        .map_err(|e| e.to_string())?;
    record
        .check()
        .map_err(|reason| format!("game {}: {reason}", record.game))?;
    Ok(record)
}

/// Whether `row`, the last of a file and without its newline, can be a row of ours cut short
/// (a kill or a full disk during its write): at most `columns` fields, a game number first,
/// and UTF-8 text but for a character cut in two at its very end.
fn cut_short_row(row: &csv::ByteRecord, columns: usize) -> bool {
    let last = row.len().saturating_sub(1);
    row.len() <= columns
        && row
            .get(0)
            .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
        && row
            .iter()
            .enumerate()
            .all(|(i, field)| match std::str::from_utf8(field) {
                Ok(_) => true,
                Err(e) => i == last && e.error_len().is_none(),
            })
}

/// The longest row a record file may have: a game has at most 121 moves; the specs are
/// bounded by what a command line or a config holds.
pub const MAX_ROW: usize = 64 * 1024;

/// The file's last byte, if it has one; the file is left at its start.
fn last_byte(file: &mut File) -> io::Result<Option<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    if file.metadata()?.len() == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut byte = [0];
    file.read_exact(&mut byte)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(Some(byte[0]))
}

/// Appends records to a file, each written whole with one write. A write that fails is
/// undone (the file is cut back to where the row began), so the file never keeps a partial
/// row of this run.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
    len: u64,
    /// The file's columns, as indices into [`COLUMNS`].
    columns: Vec<usize>,
}

impl RecordWriter {
    /// Creates `path` (it must not exist: records are never overwritten) with its header.
    pub fn create(path: &Path) -> io::Result<RecordWriter> {
        let file = OpenOptions::new().write(true).create_new(true).open(path)?;
        let mut writer = RecordWriter {
            file,
            len: 0,
            columns: (0..COLUMNS.len()).collect(),
        };
        writer.write_bytes(format!("{}\n", COLUMNS.join(",")).as_bytes())?;
        Ok(writer)
    }

    /// Takes the record file at `path` for this run (its lock first, so that no other run
    /// writes it while it is read), reads it, lets `check` refuse it (a file of another run),
    /// and only then continues it as [`RecordWriter::append`] does: the rows read, and the
    /// writer. A file another run holds, or that `check` refuses, is left unchanged.
    pub fn resume(
        path: &Path,
        check: impl FnOnce(&RecordFile) -> Result<(), String>,
    ) -> Result<(RecordWriter, RecordFile), String> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| e.to_string())?;
        let mut writer = RecordWriter {
            file,
            len: 0,
            columns: Vec::new(),
        };
        writer.try_lock()?;
        let read = RecordFile::read(path).map_err(|e| e.to_string())?;
        check(&read)?;
        // The repair goes through a second handle; the locked one is kept for the run.
        let continued = RecordWriter::append(path, &read).map_err(|e| e.to_string())?;
        writer.len = continued.len;
        writer.columns = continued.columns;
        Ok((writer, read))
    }

    /// Opens the file `read` came from to add records at its end: cuts its damaged last row
    /// if it has one, ends a last row that lacks its newline, and writes the header into a
    /// file that has none.
    pub fn append(path: &Path, read: &RecordFile) -> io::Result<RecordWriter> {
        if read.older_format {
            return Err(io::Error::other(
                "it was written by an older yolah (without the forfeit or start column): its games can \
                 be read and replayed, but new ones cannot be added",
            ));
        }
        let file = OpenOptions::new().append(true).open(path)?;
        if let Tail::Damaged { offset, .. } = read.tail {
            file.set_len(offset)?;
        }
        let len = file.metadata()?.len();
        let columns = read
            .header
            .iter()
            .filter_map(|name| COLUMNS.iter().position(|c| c == name))
            .collect();
        let mut writer = RecordWriter { file, len, columns };
        if len == 0 {
            writer.write_bytes(format!("{}\n", COLUMNS.join(",")).as_bytes())?;
        } else if read.tail == Tail::MissingNewline {
            writer.write_bytes(b"\n")?;
        }
        Ok(writer)
    }

    /// Takes the file for this run alone (an advisory lock, released by the system when the
    /// process ends): a second run writing to it is refused.
    pub fn try_lock(&self) -> Result<(), String> {
        match self.file.try_lock() {
            Ok(()) => Ok(()),
            Err(std::fs::TryLockError::WouldBlock) => Err("is in use by another run".to_string()),
            Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock it: {e}")),
        }
    }

    /// Writes one record, in the file's columns. A value for a column the file lacks (a
    /// clock's, in a file from before clocks) is refused rather than dropped.
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        let mut whole = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        whole.serialize(record).map_err(io::Error::other)?;
        let whole = whole
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        if self.columns.len() == COLUMNS.len() {
            return self.write_bytes(&whole);
        }
        let fields = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(whole.as_slice())
            .records()
            .next()
            .transpose()
            .map_err(io::Error::other)?
            .unwrap_or_default();
        for (i, field) in fields.iter().enumerate() {
            if !field.is_empty() && !self.columns.contains(&i) {
                return Err(io::Error::other(format!(
                    "the file has no {} column (it was written by an older yolah)",
                    COLUMNS[i]
                )));
            }
        }
        let mut row = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        row.write_record(self.columns.iter().map(|&i| &fields[i]))
            .map_err(io::Error::other)?;
        let row = row
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.write_bytes(&row)
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        crate::files::append_whole(&mut self.file, &mut self.len, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yolah_testkit::writers::{Untouched, foreign_files};

    /// Resumes the record file at `path` as a match does (any run's rows accepted).
    fn resume(path: &Path) -> Result<(RecordWriter, RecordFile), String> {
        RecordWriter::resume(path, |_| Ok(()))
    }

    // A record file that is not ours is refused and left byte for byte,
    // directly or through a link; only a row (or header) of ours cut short is cut.
    #[test]
    fn a_foreign_file_or_last_row_is_refused_not_cut() {
        let dir = tempfile::tempdir().unwrap();
        let header = format!("{}\n", COLUMNS.join(","));
        let mut foreign = foreign_files();
        foreign.push(("a quoted header", b"\"game\",\"config".to_vec()));
        foreign.push((
            "our header, then a note",
            format!("{header}see the other file").into_bytes(),
        ));
        foreign.push((
            "our header, then binary junk",
            [header.as_bytes(), &[0xff, 0x00, b',', 0x80]].concat(),
        ));
        for (what, bytes) in foreign {
            let path = dir.path().join("games.csv");
            std::fs::write(&path, &bytes).unwrap();
            let link = dir.path().join("link.csv");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&path, &link).unwrap();
            let before = Untouched::take(&path);
            for target in [&path, &link] {
                let error = resume(target)
                    .err()
                    .unwrap_or_else(|| panic!("{what}: taken"));
                yolah_testkit::writers::assert_one_line(&error);
                before.assert();
            }
        }
        // Ours, cut short: the header, or a row after it.
        for cut in [
            "game,config,bl",
            &format!("{header}4,00000000000000aa,rand"),
        ] {
            let path = dir.path().join("cut.csv");
            std::fs::write(&path, cut).unwrap();
            let (_, read) = resume(&path).unwrap();
            assert!(matches!(read.tail, Tail::Damaged { .. }), "{cut}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), header);
            std::fs::remove_file(&path).unwrap();
        }
    }
}

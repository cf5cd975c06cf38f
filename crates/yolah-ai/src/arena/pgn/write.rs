//! Writing PGN files: one block a game, with one write, appended to a file held by its run.

use super::game::RESIGNED;
use super::game::{PgnGame, escape};
use super::read::PgnReader;
use crate::arena::record::{GameRecord, PROVED};
use crate::clock::TimeControl;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// A time control as PGN writes it: seconds, `base+increment` (`10+0.1`).
pub fn time_control_tag(tc: TimeControl) -> String {
    let seconds = |d: std::time::Duration| {
        let text = format!("{:.3}", d.as_secs_f64());
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if tc.increment.is_zero() {
        seconds(tc.base)
    } else {
        format!("{}+{}", seconds(tc.base), seconds(tc.increment))
    }
}

/// Today's date as PGN writes it (`2026.11.25`, UTC).
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date(i64::try_from(seconds).unwrap_or(0))
}

/// The `Date` tag of a moment, seconds since 1970 (UTC): `2026.11.25`.
pub fn date(seconds: i64) -> String {
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    format!("{year:04}.{month:02}.{day:02}")
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
pub(super) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// What a run tells every game's block: its name and date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The `Event` tag (`yolah match`, `yolah tournament`, `yolah gauntlet`).
    pub name: String,
    /// The `Date` tag.
    pub date: String,
}

/// The PGN block of one game record: the seven tags every PGN reader knows (Event, Site,
/// Date, Round, Black, White, Result) — Black first, as Black moves first — then ours, the
/// moves and the result.
pub fn block(event: &Event, record: &GameRecord) -> String {
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(text, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &event.name);
    tag("Site", "yolah");
    tag("Date", &event.date);
    tag("Round", &(record.game + 1).to_string());
    tag("Black", &record.black);
    tag("White", &record.white);
    tag("Result", &record.result);
    tag("Game", &record.game.to_string());
    if !record.config.is_empty() {
        tag("Run", &record.config);
    }
    let clock = |tc: &str| {
        tc.parse::<TimeControl>()
            .map_or_else(|_| "-".to_string(), time_control_tag)
    };
    if record.black_tc.is_empty() && record.white_tc.is_empty() {
        tag("TimeControl", "-");
    } else if record.black_tc == record.white_tc {
        tag("TimeControl", &clock(&record.black_tc));
    } else {
        tag("BlackTimeControl", &clock(&record.black_tc));
        tag("WhiteTimeControl", &clock(&record.white_tc));
    }
    if !record.start.is_empty() {
        tag("SetUp", "1");
        tag("FEN", &record.start);
    }
    let moves: Vec<&str> = record.moves.split_whitespace().collect();
    let opening = &moves[..(record.opening_plies as usize).min(moves.len())];
    tag(
        "Opening",
        &if opening.is_empty() {
            "none".to_string()
        } else {
            opening.join(" ")
        },
    );
    let (termination, comment) = ending(record);
    tag("Termination", termination);
    tag("PlyCount", &moves.len().to_string());
    tag("BlackScore", &record.black_score.to_string());
    tag("WhiteScore", &record.white_score.to_string());
    text.push('\n');
    let mut line = String::new();
    let mut flush = |line: &mut String, word: &str| {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            text.push_str(line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    };
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            flush(&mut line, &format!("{}.", i / 2 + 1));
        }
        flush(&mut line, m);
    }
    if let Some(comment) = comment {
        flush(&mut line, &comment);
    }
    flush(&mut line, &record.result);
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// How a record's game ended, as PGN says it: its `Termination` tag, and the comment before
/// the result when it ended before the rules ended it.
pub(super) fn ending(record: &GameRecord) -> (&'static str, Option<String>) {
    if record.result == "*" {
        // A game still going on (the board's export of an unfinished game).
        ("unterminated", None)
    } else if record.forfeit == RESIGNED {
        let loser = if record.result == "1-0" {
            "white"
        } else {
            "black"
        };
        ("normal", Some(format!("{{{loser} resigns}}")))
    } else if !record.forfeit.is_empty() {
        let comment = Some(format!("{{{}}}", record.forfeit.replace('}', ")")));
        if record.forfeit.starts_with("lost on time") {
            ("time forfeit", comment)
        } else {
            ("rules infraction", comment)
        }
    } else if record.adjudicated == PROVED {
        let comment = format!(
            "{{adjudicated: proved final scores {}-{}}}",
            record.black_score, record.white_score
        );
        ("adjudication", Some(comment))
    } else {
        ("normal", None)
    }
}

/// Appends game blocks to a PGN file, each with one write, holding the file for its run alone.
#[derive(Debug)]
pub struct PgnWriter {
    file: File,
    len: u64,
    event: Event,
    /// What the next block needs before it: a newline when the file does not end with one.
    separator: &'static str,
}

impl PgnWriter {
    /// Opens `path` to add games (created if missing) and takes it for this run: an advisory
    /// lock that the system releases when the process ends, however it ends, so a file
    /// another run writes is refused. An existing file is then read through, game by game,
    /// and must be a PGN file whose games all check (else it is refused, and left as it is);
    /// a last game of ours cut short by an interruption is cut off. Last, the games of `done`
    /// (those a resumed run had played) that the file lacks — no game there with the same
    /// `Run`, `Game`, start, moves and result — are added, in their order.
    pub fn open(path: &Path, event: Event, done: &[GameRecord]) -> Result<PgnWriter, String> {
        let fail = |e: &dyn std::fmt::Display| format!("--pgn '{}': {e}", path.display());
        if let Ok(metadata) = std::fs::metadata(path)
            && !metadata.is_file()
        {
            return Err(fail(&"it is not a regular file"));
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| fail(&e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(fail(
                    &"is in use by another run; wait for it to end or choose another file",
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(fail(&format!("cannot lock it: {e}")));
            }
        }
        // Under the lock: read it, then repair it.
        // The games of `done` by run and number, until found in the file.
        let mut missing: HashMap<&str, HashMap<u64, Vec<usize>>> = HashMap::new();
        for (i, record) in done.iter().enumerate() {
            missing
                .entry(record.config.as_str())
                .or_default()
                .entry(record.game)
                .or_default()
                .push(i);
        }
        let mut reader = PgnReader::new(io::BufReader::with_capacity(64 * 1024, &file));
        for game in reader.by_ref() {
            let game = game.map_err(|e| fail(&e))?;
            let (Some(run), Some(Ok(number))) = (game.tag("Run"), game.tag("Game").map(str::parse))
            else {
                continue;
            };
            if let Some(records) = missing.get_mut(run).and_then(|run| run.get_mut(&number)) {
                records.retain(|&i| !same_game(&game, &done[i]));
            }
        }
        let len = file.metadata().map_err(|e| fail(&e))?.len();
        if reader.offset() != len {
            return Err(fail(
                &"it changed while it was read (another program writes it?)",
            ));
        }
        let mut len = len;
        if let Some(at) = reader.cut() {
            file.set_len(at).map_err(|e| fail(&e))?;
            len = at;
            eprintln!(
                "cut the last game of '{}', cut short by an interruption",
                path.display()
            );
        }
        let separator = if last_byte(&file, len)
            .map_err(|e| fail(&e))?
            .is_some_and(|b| b != b'\n')
        {
            "\n"
        } else {
            ""
        };
        let mut writer = PgnWriter {
            file,
            len,
            event,
            separator,
        };
        let mut missing: Vec<usize> = missing
            .into_values()
            .flat_map(HashMap::into_values)
            .flatten()
            .collect();
        missing.sort_unstable();
        for i in missing {
            writer.write(&done[i]).map_err(|e| fail(&e))?;
        }
        Ok(writer)
    }

    /// Adds the game of `record`. A write that fails is undone (cut back to where the block
    /// began) unless something else has written to the file since: its bytes are never cut.
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        let mut text = self.separator.to_string();
        text.push_str(&block(&self.event, record));
        crate::files::append_whole(&mut self.file, &mut self.len, text.as_bytes())?;
        self.separator = "";
        Ok(())
    }
}

/// Whether the PGN `game` is the game of `record` (same start, moves and result).
pub(super) fn same_game(game: &PgnGame, record: &GameRecord) -> bool {
    game.result == record.result
        && game.tag("FEN").unwrap_or("") == record.start
        && game
            .moves
            .iter()
            .map(ToString::to_string)
            .eq(record.moves.split_whitespace().map(str::to_string))
}

/// The byte before `len` in `file`, if there is one.
pub(super) fn last_byte(mut file: &File, len: u64) -> io::Result<Option<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    if len == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut byte = [0];
    file.read_exact(&mut byte)?;
    Ok(Some(byte[0]))
}

//! Game records other programs read: PGN-style text (`docs/pgn.md` has the grammar). Each
//! game is a block of tags — `[Name "value"]` — then its moves in our notation with move
//! numbers, and its result. Written by `match`, `tournament` and `gauntlet` with `--pgn`
//! (one block a game, appended as each game ends), read back by `yolah replay`.
//!
//! A block is written with one write, so a file cut by a kill ends with at most one partial
//! block; [`PgnWriter::open`] cuts it off, and a resumed run appends the games its record file
//! has and the PGN file lacks, so the two agree again.

use crate::arena::record::{GameRecord, PROVED};
use crate::clock::TimeControl;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;
use yolah_core::text::quote;
use yolah_core::{Move, Position};

/// The `forfeit` of a record whose loser resigned (the board's games): PGN's `Termination` is
/// then `normal`, as in chess.
pub const RESIGNED: &str = "resigned";

/// The largest PGN file read (a million games of ~1 KiB).
pub const MAX_PGN_FILE: u64 = 1 << 30;
/// The most tags a game may have, and the longest tag value: bounds for untrusted files.
const MAX_TAGS: usize = 64;
const MAX_TAG_VALUE: usize = 4096;

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The position it starts from (the `FEN` tag, or the start).
    pub start: Position,
    /// Its moves, checked legal.
    pub moves: Vec<Move>,
    /// The result token at its end (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// The position after every move.
    pub fn end(&self) -> Position {
        let mut position = self.start;
        for &m in &self.moves {
            position.play(m);
        }
        position
    }
}

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
fn civil_from_days(days: i64) -> (i64, u32, u32) {
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

/// Escapes a tag value: `\` and `"` get a backslash, control characters become spaces.
fn escape(value: &str) -> String {
    let mut text = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                text.push('\\');
                text.push(c);
            }
            c if c.is_control() => text.push(' '),
            c => text.push(c),
        }
    }
    text
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
fn ending(record: &GameRecord) -> (&'static str, Option<String>) {
    if record.forfeit == RESIGNED {
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

/// A PGN file that cannot be read, and where: one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PgnError {}

/// The games of a PGN text, each checked: tags well formed, moves legal from its start, no
/// move after the end, and a result that agrees with the final position when the game was
/// played to its end. Also returns the byte where the last whole game ends, when the text
/// ends inside a game (a block cut short): that game is left out, not refused.
pub fn parse(text: &str) -> Result<(Vec<PgnGame>, Option<usize>), PgnError> {
    let mut games = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    let mut line = 1;
    loop {
        let skipped = rest.len() - rest.trim_start().len();
        line += rest[..skipped].matches('\n').count();
        offset += skipped;
        rest = &rest[skipped..];
        if rest.is_empty() {
            return Ok((games, None));
        }
        // Blocks are written whole and end with a newline: a last block without one was cut
        // short, whatever it reads as.
        let last_cut = !text.ends_with('\n') && cut_short(rest);
        if last_cut {
            return Ok((games, Some(offset)));
        }
        match game(rest, line) {
            Ok((game, used)) => {
                line += rest[..used].matches('\n').count();
                offset += used;
                rest = &rest[used..];
                games.push(game);
            }
            Err(Cut) if cut_short(rest) => {
                return Ok((games, Some(offset)));
            }
            Err(Bad(error)) => return Err(error),
            Err(Cut) => {
                return Err(PgnError {
                    line,
                    reason: "the game has no result at its end".to_string(),
                });
            }
        }
    }
}

/// Whether `rest` (from the start of an unfinished game) is a last block cut short: nothing
/// after it looks like another game.
fn cut_short(rest: &str) -> bool {
    !rest.contains("\n\n[")
}

/// Why a game could not be read.
enum Failure {
    /// The text ended before its result.
    Cut,
    /// It is malformed.
    Bad(PgnError),
}
use Failure::{Bad, Cut};

/// A game's tags, names and values, in file order.
type Tags = Vec<(String, String)>;

/// The value of tag `name` among `tags`.
fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The tag lines at the start of `text` (line `line`): the tags, the byte where the moves
/// start and their line.
fn tag_lines(text: &str, line: usize) -> Result<(Tags, usize, usize), Failure> {
    let bad = |at: usize, reason: String| Bad(PgnError { line: at, reason });
    let mut tags: Tags = Vec::new();
    let mut at = line;
    let mut used = 0;
    for raw in text.split_inclusive('\n') {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            used += raw.len();
            at += 1;
            if tags.is_empty() {
                continue;
            }
            return Ok((tags, used, at));
        }
        if !trimmed.starts_with('[') {
            if tags.is_empty() {
                return Err(bad(
                    at,
                    format!(
                        "expected a tag like [Event \"…\"], found {}",
                        quote(short(trimmed))
                    ),
                ));
            }
            return Ok((tags, used, at));
        }
        if !raw.ends_with('\n') {
            return Err(Cut);
        }
        let (name, value) = tag(trimmed).map_err(|reason| bad(at, reason))?;
        if tags.len() >= MAX_TAGS {
            return Err(bad(at, format!("more than {MAX_TAGS} tags")));
        }
        tags.push((name, value));
        used += raw.len();
        at += 1;
    }
    Err(Cut)
}

/// Reads one game from the start of `text` (its first tag at line `line`); returns it and
/// the bytes it used.
fn game(text: &str, line: usize) -> Result<(PgnGame, usize), Failure> {
    let bad = |at: usize, reason: String| Bad(PgnError { line: at, reason });
    let (tags, start_of_moves, at) = tag_lines(text, line)?;
    let start = match find_tag(&tags, "FEN") {
        Some(fen) => fen
            .parse::<Position>()
            .map_err(|e| bad(line, format!("FEN {}: {e}", quote(short(fen)))))?,
        None => Position::start(),
    };
    // The moves, to the result.
    let body = &text[start_of_moves..];
    let (moves, position, result, end) = movetext(body, start, at)?;
    let termination = find_tag(&tags, "Termination").unwrap_or("normal");
    // A game over by the rules must have the result of its position; a `normal` game that is
    // not over ended by resignation (or agreement), and its result stands.
    if termination == "normal"
        && result != "*"
        && let Some(outcome) = position.outcome()
    {
        let expected = crate::arena::record::result_text(outcome);
        if expected != result {
            return Err(bad(
                line,
                format!("the moves end {expected}, the result says {result}"),
            ));
        }
    }
    let game = PgnGame {
        tags,
        start,
        moves,
        result,
    };
    Ok((game, start_of_moves + end))
}

/// The moves of `body` from `start` (line `at`) up to the result: the moves, the final
/// position, the result and the byte after it.
fn movetext(
    body: &str,
    start: Position,
    at: usize,
) -> Result<(Vec<Move>, Position, String, usize), Failure> {
    let bad = |at: usize, reason: String| Bad(PgnError { line: at, reason });
    let mut position = start;
    let mut moves = Vec::new();
    let mut chars = body.char_indices().peekable();
    let mut at = at;
    let mut result = None;
    let mut end = body.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' => at += 1,
            c if c.is_whitespace() => {}
            '{' => {
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        at += 1;
                    }
                    if c == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return Err(Cut);
                }
            }
            '[' => {
                return Err(bad(
                    at,
                    "a tag inside the moves: the game before has no result".to_string(),
                ));
            }
            _ => {
                let mut j = body.len();
                while let Some(&(k, c)) = chars.peek() {
                    if c.is_whitespace() || c == '{' {
                        j = k;
                        break;
                    }
                    chars.next();
                }
                let word = &body[i..j];
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                    result = Some(word.to_string());
                    end = j;
                    break;
                }
                let word = word.trim_start_matches(|c: char| c.is_ascii_digit());
                let word = word.trim_start_matches('.');
                if word.is_empty() {
                    continue;
                }
                let m: Move = word
                    .parse()
                    .map_err(|e| bad(at, format!("move {}: {e}", quote(short(word)))))?;
                if position.game_over() {
                    return Err(bad(
                        at,
                        format!("move {} comes after the end of the game", quote(word)),
                    ));
                }
                position
                    .check_move(m)
                    .map_err(|e| bad(at, format!("move {} is illegal: {e}", quote(word))))?;
                position.play(m);
                moves.push(m);
            }
        }
    }
    let Some(result) = result else {
        return Err(Cut);
    };
    Ok((moves, position, result, end))
}

fn short(text: &str) -> &str {
    match text.char_indices().nth(60) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `[Name "value"]`, the value unescaped.
fn tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("a tag is [Name \"value\"], not {}", quote(short(line))))?;
    let (name, quoted) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("a tag is [Name \"value\"], not {}", quote(short(line))))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad tag name {}", quote(short(name))));
    }
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| format!("tag {name}: its value must be in double quotes"))?;
    let mut value = String::new();
    let mut escaped = false;
    for c in body.chars() {
        match (escaped, c) {
            (false, '\\') => escaped = true,
            (false, '"') => {
                return Err(format!("tag {name}: a quote inside its value must be \\\""));
            }
            (_, c) => {
                value.push(c);
                escaped = false;
            }
        }
    }
    if escaped {
        return Err(format!("tag {name}: its value ends with a lone backslash"));
    }
    if value.len() > MAX_TAG_VALUE {
        return Err(format!(
            "tag {name}: its value is longer than {MAX_TAG_VALUE} bytes"
        ));
    }
    Ok((name.to_string(), value))
}

/// Reads and checks a PGN file (at most [`MAX_PGN_FILE`] bytes); a last game cut short is
/// left out and its start returned.
pub fn read(path: &Path) -> Result<(Vec<PgnGame>, Option<usize>), String> {
    let text = crate::files::read_text_bounded(path, MAX_PGN_FILE)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    parse(&text).map_err(|e| format!("'{}' {e}", path.display()))
}

/// Appends game blocks to a PGN file, each with one write; a failed write is cut back.
#[derive(Debug)]
pub struct PgnWriter {
    file: File,
    len: u64,
    event: Event,
    /// The (run, game) of every game in the file, so a resumed run adds only what is missing.
    written: std::collections::HashSet<(String, u64)>,
}

impl PgnWriter {
    /// Opens `path` to add games (created if missing): an existing file must be a PGN file
    /// (checked whole); a last game cut short by a kill is cut off.
    pub fn open(path: &Path, event: Event) -> Result<PgnWriter, String> {
        let where_ = |e: &dyn std::fmt::Display| format!("--pgn '{}': {e}", path.display());
        let mut written = std::collections::HashSet::new();
        let mut keep = None;
        if path.exists() {
            let (games, cut) = read(path).map_err(|e| format!("--pgn: {e}"))?;
            for game in &games {
                if let (Some(run), Some(Ok(number))) =
                    (game.tag("Run"), game.tag("Game").map(str::parse))
                {
                    written.insert((run.to_string(), number));
                }
            }
            keep = cut;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| where_(&e))?;
        if let Some(offset) = keep {
            file.set_len(offset as u64).map_err(|e| where_(&e))?;
            eprintln!(
                "cut the last game of '{}', cut short by an interruption",
                path.display()
            );
        }
        let len = file.metadata().map_err(|e| where_(&e))?.len();
        Ok(PgnWriter {
            file,
            len,
            event,
            written,
        })
    }

    /// Adds the game of `record` unless the file has it already (same run and number).
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        let key = (record.config.clone(), record.game);
        if !record.config.is_empty() && self.written.contains(&key) {
            return Ok(());
        }
        let text = block(&self.event, record);
        crate::files::append_whole(&mut self.file, &mut self.len, text.as_bytes())?;
        self.written.insert(key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_417), (2025, 11, 25));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn time_controls_are_written_in_seconds() {
        let tc = |t: &str| time_control_tag(t.parse().unwrap());
        assert_eq!(tc("10s+100ms"), "10+0.1");
        assert_eq!(tc("1min"), "60");
        assert_eq!(tc("500ms+5ms"), "0.5+0.005");
    }

    #[test]
    fn tags_are_escaped_and_read_back() {
        let value = r#"engine:cmd=sh -c "echo \x""#;
        let line = format!("[Black \"{}\"]", escape(value));
        assert_eq!(tag(&line), Ok(("Black".to_string(), value.to_string())));
        assert!(tag("[Black unquoted]").is_err());
        assert!(tag("[Black \"a\"b\"]").is_err());
        assert!(tag("[B!ack \"x\"]").is_err());
    }
}

//! Game records other programs read: PGN-style text (`docs/pgn.md` has the grammar). Each
//! game is a block of tags — `[Name "value"]` — then its moves in our notation with move
//! numbers, and its result. Written by `match`, `tournament` and `gauntlet` with `--pgn`
//! (one block a game, appended as each game ends), read back by `yolah replay`.
//!
//! A block is written with one write, so a file cut by a kill ends with at most one partial
//! block; [`PgnWriter::open`] cuts it off, and a resumed run appends the games its record file
//! has and the PGN file lacks, so the two agree again.

use crate::arena::game::adjudication;
use crate::arena::record::{GameRecord, PROVED, result_text};
use crate::clock::TimeControl;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead as _, Read as _};
use std::path::Path;
use yolah_core::text::quote;
use yolah_core::{Color, Move, Outcome, Position};

/// The `forfeit` of a record whose loser resigned (the board's games): PGN's `Termination` is
/// then `normal`, as in chess.
pub const RESIGNED: &str = "resigned";

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

/// The longest line a PGN file may have, and the most text one game may take: bounds for
/// untrusted files, far above what a writer produces (a tag line with the longest value is
/// under 9 KiB, a game of ours about 1 KiB).
pub const MAX_LINE: usize = 64 * 1024;
/// See [`MAX_LINE`].
pub const MAX_GAME_TEXT: usize = 1 << 20;

/// The `Event` of the blocks yolah writes: a last block cut short is cut off only when it is
/// provably one of them ([`ours`]).
const OUR_EVENTS: [&str; 4] = [
    "yolah match",
    "yolah tournament",
    "yolah gauntlet",
    "yolah serve",
];

/// The words that end a game's moves.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The games of a PGN text, each checked as [`PgnReader`] checks them. Also returns the byte
/// where a last game cut short starts, when the text ends inside a block of ours (left out,
/// not refused).
pub fn parse(text: &str) -> Result<(Vec<PgnGame>, Option<usize>), PgnError> {
    let mut reader = PgnReader::new(text.as_bytes());
    let games = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok((games, reader.cut().map(|at| at as usize)))
}

/// Reads the games of a PGN text one at a time, holding no more than the line and the game
/// being read (at most [`MAX_LINE`] and [`MAX_GAME_TEXT`] bytes), so a file of any size is read
/// in bounded memory.
///
/// Each game is checked: tags well formed, moves legal from its start, no move after the end,
/// and every tag that can be checked against the moves — `Result`, `PlyCount`, `SetUp` and
/// `FEN`, `Round` against `Game`, `Date`, the time controls, `Opening`, the scores, and
/// `Termination`: a game ended by the rules has the result of its last position, an
/// adjudication's proof is found again, a forfeit comes before the end and is the loss of the
/// side to move. The first fault ends the reading with its error.
///
/// The text may end inside a game. When that game is provably one of ours cut short by an
/// interruption (byte for byte the start of a block as [`block`] writes it, and nothing in it
/// wrong but its missing end), the reading ends without an error and [`PgnReader::cut`] says
/// where it starts; anything else unfinished is an error, so a file that is not ours is never
/// taken for one of ours cut short.
pub struct PgnReader<R> {
    input: R,
    /// The line being read, and how much of it has been taken (a game may end mid-line).
    bytes: Vec<u8>,
    used: usize,
    /// Where `bytes` starts: its byte in the input and its line (from 1).
    line_offset: u64,
    line: usize,
    /// The game being read.
    game: Scan,
    cut: Option<u64>,
    finished: bool,
}

/// The text of the game being read, and how far the search for its end has come.
#[derive(Default)]
struct Scan {
    /// From its first tag; empty between games.
    text: String,
    /// Its first byte and line.
    start: u64,
    line: usize,
    /// Whether its moves have started, and whether they are inside a comment.
    moves: bool,
    comment: bool,
}

impl Scan {
    /// Takes `piece` (a line, or what is left of one), which starts at byte `offset` of line
    /// `line`: returns how many of its bytes end the game (its result, or the first sign that
    /// it is malformed), or `None` when all were taken and the game goes on.
    fn take(&mut self, piece: &str, line: usize, offset: u64) -> Result<Option<usize>, PgnError> {
        let mut skipped = 0;
        if self.text.is_empty() {
            let trimmed = piece.trim_start();
            if trimmed.is_empty() {
                return Ok(None);
            }
            skipped = piece.len() - trimmed.len();
            // A new game (the text's memory is kept from the last).
            self.start = offset + skipped as u64;
            self.line = line;
            self.moves = false;
            self.comment = false;
        }
        let piece = &piece[skipped..];
        if self.text.len() + piece.len() > MAX_GAME_TEXT {
            return Err(PgnError {
                line: self.line,
                reason: format!("a game of more than {MAX_GAME_TEXT} bytes"),
            });
        }
        if !self.moves {
            let trimmed = piece.trim();
            let first = self.text.is_empty();
            if trimmed.starts_with('[') || first {
                self.text.push_str(piece);
                // A game that does not start with a tag is refused as soon as it is seen.
                return Ok(first
                    .then_some(skipped + piece.len())
                    .filter(|_| !trimmed.starts_with('[')));
            }
            self.moves = true;
        }
        let mut chars = piece.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if self.comment {
                self.comment = c != '}';
                continue;
            }
            match c {
                c if c.is_whitespace() => {}
                '{' => self.comment = true,
                // A tag inside the moves: the game is malformed, as the parser will say.
                '[' => {
                    self.text.push_str(&piece[..=i]);
                    return Ok(Some(skipped + i + 1));
                }
                _ => {
                    let mut j = piece.len();
                    while let Some(&(k, c)) = chars.peek() {
                        if c.is_whitespace() || c == '{' {
                            j = k;
                            break;
                        }
                        chars.next();
                    }
                    if RESULTS.contains(&&piece[i..j]) {
                        self.text.push_str(&piece[..j]);
                        return Ok(Some(skipped + j));
                    }
                }
            }
        }
        self.text.push_str(piece);
        Ok(None)
    }
}

/// The UTF-8 byte order mark, which a file may start with.
pub const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

impl<R: io::BufRead> PgnReader<R> {
    /// A reader of the PGN text of `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            bytes: Vec::new(),
            used: 0,
            line_offset: 0,
            line: 0,
            game: Scan::default(),
            cut: None,
            finished: false,
        }
    }

    /// Once the games are read: where the last game, cut short, starts (a byte of the
    /// input), if the input ended inside a block of ours.
    pub fn cut(&self) -> Option<u64> {
        self.cut
    }

    /// The bytes of input read so far.
    pub fn offset(&self) -> u64 {
        self.line_offset + self.bytes.len() as u64
    }

    /// The memory the reader holds for the text it reads (its line and its game): at most
    /// about [`MAX_LINE`] + [`MAX_GAME_TEXT`], whatever the size of the input.
    pub fn held(&self) -> usize {
        self.bytes.capacity() + self.game.text.capacity()
    }

    fn next_game(&mut self) -> Result<Option<PgnGame>, PgnError> {
        loop {
            if self.used == self.bytes.len() && !self.next_line()? {
                return self.end();
            }
            let piece = &self.bytes[self.used..];
            let piece = match std::str::from_utf8(piece) {
                Ok(text) => text,
                // A character cut short at the very end of the input.
                Err(e) if e.error_len().is_none() && !piece.ends_with(b"\n") => {
                    std::str::from_utf8(&piece[..e.valid_up_to()]).expect("checked valid")
                }
                Err(_) => {
                    return Err(PgnError {
                        line: self.line,
                        reason: "it is not UTF-8 text".to_string(),
                    });
                }
            };
            let offset = self.line_offset + self.used as u64;
            match self.game.take(piece, self.line, offset)? {
                None => self.used = self.bytes.len(),
                Some(taken) => {
                    self.used += taken;
                    let text = std::mem::take(&mut self.game.text);
                    let parsed = game(&text, self.game.line);
                    // The game's text is kept for the next game, its memory reused.
                    self.game.text = text;
                    self.game.text.clear();
                    return match parsed {
                        Ok((game, _)) => Ok(Some(game)),
                        Err(Bad(error)) => Err(error),
                        Err(Cut) => Err(PgnError {
                            line: self.game.line,
                            reason: "the game has no result at its end".to_string(),
                        }),
                    };
                }
            }
        }
    }

    /// Reads the next line into `bytes`; false at the end of the input.
    fn next_line(&mut self) -> Result<bool, PgnError> {
        self.line_offset += self.bytes.len() as u64;
        self.line += 1;
        self.bytes.clear();
        self.used = 0;
        let read = (&mut self.input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.bytes)
            .map_err(|e| PgnError {
                line: self.line,
                reason: format!("cannot read it: {e}"),
            })?;
        if self.bytes.len() > MAX_LINE && self.bytes.last() != Some(&b'\n') {
            return Err(PgnError {
                line: self.line,
                reason: format!("a line longer than {MAX_LINE} bytes"),
            });
        }
        // A UTF-8 byte order mark at the start of the file (some editors write one) is not
        // text: passed over.
        if self.line == 1 && self.bytes.starts_with(BYTE_ORDER_MARK) {
            self.used = BYTE_ORDER_MARK.len();
        }
        Ok(read > 0)
    }

    /// The end of the input: nothing more, a block of ours cut short, or an error.
    fn end(&mut self) -> Result<Option<PgnGame>, PgnError> {
        let text = std::mem::take(&mut self.game.text);
        if text.is_empty() {
            return Ok(None);
        }
        // The last word may be cut short too: a move or a result half written.
        let kept = if self.game.moves && !self.game.comment {
            text.trim_end_matches(|c: char| !c.is_whitespace() && c != '}')
                .len()
        } else {
            text.len()
        };
        match game(&text[..kept], self.game.line) {
            Ok((game, _)) => Ok(Some(game)),
            Err(Bad(error)) => Err(error),
            Err(Cut) => match ours(&text) {
                Ok(()) => {
                    self.cut = Some(self.game.start);
                    Ok(None)
                }
                Err(reason) => Err(PgnError {
                    line: self.game.line,
                    reason: format!(
                        "the last game has no result at its end, and it is not the start of a \
                         block as yolah writes it (one cut short by a kill): {reason}"
                    ),
                }),
            },
        }
    }
}

impl<R: io::BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let next = self.next_game().transpose();
        self.finished = !matches!(next, Some(Ok(_)));
        next
    }
}

impl PgnReader<io::BufReader<File>> {
    /// A reader of the PGN file at `path` (a regular file).
    pub fn open(path: &Path) -> Result<PgnReader<io::BufReader<File>>, String> {
        let file = crate::files::open_regular(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Ok(PgnReader::new(io::BufReader::with_capacity(
            64 * 1024,
            file,
        )))
    }
}

/// Whether the unfinished block `text` is provably the start of one our writer wrote (see
/// [`block`]), cut short by a kill: byte for byte what [`block`] writes, as far as it goes —
/// its tags, in its order and its spelling, with values it can write, then its moves, laid out
/// in its lines, and only the comment its `Termination` calls for. Anything else (a note, a tag
/// of another program, a comment of a user's) says why it is not, and is never cut.
fn ours(text: &str) -> Result<(), String> {
    let (head, body) = match text.find("\n\n") {
        Some(i) => (&text[..=i], Some(&text[i + 2..])),
        None => (text, None),
    };
    let mut tags: Tags = Vec::new();
    let mut partial = None;
    for line in head.split_inclusive('\n') {
        let Some(line) = line.strip_suffix('\n') else {
            partial = Some(line);
            break;
        };
        let (name, value) = tag(line)?;
        if line != format!("[{name} \"{}\"]", escape(&value)) {
            return Err(format!(
                "{} is not spelled as yolah writes it",
                quote(short(line))
            ));
        }
        our_tag_value(&name, &value)?;
        tags.push((name, value));
    }
    let names: Vec<&str> = tags.iter().map(|(name, _)| name.as_str()).collect();
    let orders = our_tag_orders();
    // The tags so far must start one of our orders.
    let (orders, names) = (&orders, &names);
    let fitting = move |n: usize| {
        orders
            .iter()
            .filter(move |order| order.len() >= n && order[..n] == names[..n])
    };
    if let Some(i) = (0..names.len()).find(|&i| fitting(i + 1).next().is_none()) {
        let mut expected: Vec<&str> = fitting(i).filter_map(|o| o.get(i).copied()).collect();
        expected.dedup();
        return Err(if expected.is_empty() {
            format!("a tag {} after yolah's last tag", names[i])
        } else {
            format!(
                "a tag {} where yolah writes {}",
                names[i],
                expected.join(" or ")
            )
        });
    }
    let get = |name: &str| find_tag(&tags, name);
    if let (Some(round), Some(number)) = (get("Round"), get("Game"))
        && number
            .parse::<u64>()
            .ok()
            .map(|n| (n + 1).to_string())
            .as_deref()
            != Some(round)
    {
        return Err(format!("Round {} but Game {}", quote(round), quote(number)));
    }
    if let (Some(result), Some(termination)) = (get("Result"), get("Termination"))
        && (result == "*") != (termination == "unterminated")
    {
        return Err(format!(
            "Result {} with Termination {}",
            quote(result),
            quote(termination)
        ));
    }
    let done = fitting(names.len()).any(|order| order.len() == names.len());
    if let Some(line) = partial {
        let fits = fitting(names.len())
            .filter_map(|order| order.get(names.len()))
            .any(|name| partial_tag_fits(line, name));
        if !fits {
            return Err(format!(
                "{} is not the start of yolah's next tag",
                quote(short(line))
            ));
        }
    }
    match body {
        None => Ok(()),
        Some(_) if !done => Err(format!(
            "its tags end after {} (yolah's end with WhiteScore)",
            names.last().unwrap_or(&"nothing")
        )),
        Some(body) => our_movetext(body, &tags),
    }
}

/// The tags our writer puts in a block, in its order ([`block`]): one sequence for each kind
/// of block it writes — with a `Run` or not, one clock or one a side, a `FEN` or not.
fn our_tag_orders() -> Vec<Vec<&'static str>> {
    const FIRST: [&str; 8] = [
        "Event", "Site", "Date", "Round", "Black", "White", "Result", "Game",
    ];
    const LAST: [&str; 5] = [
        "Opening",
        "Termination",
        "PlyCount",
        "BlackScore",
        "WhiteScore",
    ];
    let mut orders = Vec::new();
    for run in [&[][..], &["Run"]] {
        for clocks in [
            &["TimeControl"][..],
            &["BlackTimeControl", "WhiteTimeControl"],
        ] {
            for start in [&[][..], &["SetUp", "FEN"]] {
                orders.push([&FIRST[..], run, clocks, start, &LAST].concat());
            }
        }
    }
    orders
}

/// The `Termination` values our writer gives ([`ending`]).
const OUR_TERMINATIONS: [&str; 5] = [
    "normal",
    "unterminated",
    "adjudication",
    "time forfeit",
    "rules infraction",
];

/// Whether `value` is one our writer can give tag `name`.
fn our_tag_value(name: &str, value: &str) -> Result<(), String> {
    let number = |max: u64| {
        value
            .parse::<u64>()
            .is_ok_and(|n| n <= max && n.to_string() == value)
    };
    let fits = match name {
        "Event" => OUR_EVENTS.contains(&value),
        "Site" => value == "yolah",
        "Date" => is_date(value),
        "Round" | "Game" => number(u64::MAX),
        // At most 56 moves (the free squares), each pass answered by a move.
        "PlyCount" => number(112),
        "BlackScore" | "WhiteScore" => number(u64::from(u8::MAX)),
        "Result" => RESULTS.contains(&value),
        "TimeControl" | "BlackTimeControl" | "WhiteTimeControl" => is_time_control(value),
        "SetUp" => value == "1",
        "FEN" => value.parse::<Position>().is_ok(),
        "Termination" => OUR_TERMINATIONS.contains(&value),
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "{name} {} is not a value yolah writes",
            quote(short(value))
        ))
    }
}

/// Whether `line`, the last line and cut short, is the start of a tag line `name` as our
/// writer spells it.
fn partial_tag_fits(line: &str, name: &str) -> bool {
    let head = format!("[{name} \"");
    if head.starts_with(line) {
        return true;
    }
    let Some(rest) = line.strip_prefix(&head) else {
        return false;
    };
    let start_of = |value: &str| format!("{value}\"]").starts_with(rest);
    match name {
        "Event" => OUR_EVENTS.iter().any(|event| start_of(event)),
        "Site" => start_of("yolah"),
        "SetUp" => start_of("1"),
        _ => {
            // A value escaped as `escape` does, as far as it goes, then perhaps its end.
            let mut chars = rest.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if !matches!(chars.next(), None | Some('\\' | '"')) => return false,
                    '"' => return matches!(chars.as_str(), "" | "]"),
                    c if c.is_control() => return false,
                    _ => {}
                }
            }
            true
        }
    }
}

/// What our writer puts at one place of a block's moves.
#[derive(Clone, Copy)]
enum Word<'a> {
    /// Exactly this text: a move number, a comment known from the tags, the result.
    Exact(&'a str),
    /// A move: `a1:b2`.
    Move,
    /// The comment of a forfeit: `{…}` on one line, starting with `prefix`.
    Forfeit(&'a str),
}

impl Word<'_> {
    /// Whether `word` is this word whole.
    fn is(self, word: &str) -> bool {
        match self {
            Word::Move => word.len() == 5 && self.starts(word),
            Word::Exact(text) => word == text,
            Word::Forfeit(prefix) => word.strip_suffix('}').is_some_and(|inner| {
                inner.len() > 1 && inner.starts_with(prefix) && !inner.contains(['}', '\n'])
            }),
        }
    }

    /// Whether `word` is the start of this word (cut short).
    fn starts(self, word: &str) -> bool {
        match self {
            Word::Move => {
                let shape = [
                    b"abcdefgh".as_slice(),
                    b"12345678",
                    b":",
                    b"abcdefgh",
                    b"12345678",
                ];
                word.len() <= 5
                    && word
                        .bytes()
                        .zip(shape)
                        .all(|(b, allowed)| allowed.contains(&b))
            }
            Word::Exact(text) => text.starts_with(word),
            Word::Forfeit(prefix) => {
                (word.starts_with(prefix) || prefix.starts_with(word))
                    && !word.contains(['}', '\n'])
            }
        }
    }

    /// Its length, when it is known.
    fn len(self) -> Option<usize> {
        match self {
            Word::Move => Some(5),
            Word::Exact(text) => Some(text.len()),
            Word::Forfeit(_) => None,
        }
    }
}

/// The longest line of moves our writer makes (but for a word longer alone).
const MOVE_LINE: usize = 79;

/// Whether `body`, the moves of an unfinished block whose tags are `tags`, is what our writer
/// writes as far as it goes: the numbered moves the `PlyCount` tag counts, the comment its
/// `Termination` calls for, the result; each word after a space, or a newline where the line
/// would pass [`MOVE_LINE`] characters.
fn our_movetext(body: &str, tags: &[(String, String)]) -> Result<(), String> {
    let get = |name: &str| find_tag(tags, name).unwrap_or_default();
    let plies: usize = get("PlyCount").parse().unwrap_or_default();
    let result = get("Result");
    let loser = if result == "1-0" { "white" } else { "black" };
    let resigns = format!("{{{loser} resigns}}");
    let adjudicated = format!(
        "{{adjudicated: proved final scores {}-{}}}",
        get("BlackScore"),
        get("WhiteScore")
    );
    // The words after the moves: the comments that may come first, and whether one must.
    let (comments, needed): (Vec<Word>, bool) = match get("Termination") {
        "normal" => (vec![Word::Exact(&resigns)], false),
        "adjudication" => (vec![Word::Exact(&adjudicated)], true),
        "time forfeit" => (vec![Word::Forfeit("{lost on time")], true),
        "rules infraction" => (vec![Word::Forfeit("{")], true),
        _ => (Vec::new(), false),
    };
    let refuse = |word: &str, what: &str| Err(format!("{} is not {what}", quote(short(word))));
    let mut moves = 0;
    let mut numbered = false;
    let mut commented = false;
    let mut line = 0;
    let mut rest = body;
    loop {
        // What may come next.
        let number = format!("{}.", moves / 2 + 1);
        let next: Vec<Word> = if moves < plies {
            if moves % 2 == 0 && !numbered {
                vec![Word::Exact(&number)]
            } else {
                vec![Word::Move]
            }
        } else if commented || comments.is_empty() {
            vec![Word::Exact(result)]
        } else if needed {
            comments.clone()
        } else {
            [comments.as_slice(), &[Word::Exact(result)]].concat()
        };
        let separator = if line == 0 {
            None
        } else {
            let Some(c) = rest.chars().next() else {
                return Ok(());
            };
            if c != ' ' && c != '\n' {
                return Err(format!(
                    "{} where yolah writes a space or a new line",
                    quote(short(rest))
                ));
            }
            rest = &rest[1..];
            Some(c)
        };
        // A word our writer puts after `separator`, for a word of `len` bytes (any, unknown).
        let fits = |len: Option<usize>| match (separator, len) {
            (Some(c), Some(len)) => (c == '\n') == (line + 1 + len > MOVE_LINE),
            // The first word, or a forfeit's comment of any length.
            (None, _) | (Some(_), None) => true,
        };
        let end = if rest.starts_with('{') {
            rest.find('}').map(|i| i + 1)
        } else {
            rest.find([' ', '\n', '{'])
        };
        let Some(end) = end else {
            // The last word, cut short (or whole, the kill just after it).
            let word = rest;
            let fits_next = next.iter().any(|w| {
                w.starts(word) && fits(w.len().or((separator == Some(' ')).then_some(word.len())))
            });
            return if fits_next {
                Ok(())
            } else {
                refuse(word, "what yolah writes there")
            };
        };
        let word = &rest[..end];
        let Some(&kind) = next.iter().find(|w| w.is(word)) else {
            return refuse(word, "what yolah writes there");
        };
        if !fits(Some(word.len())) {
            return refuse(word, "laid out as yolah writes it");
        }
        match kind {
            Word::Move => {
                moves += 1;
                numbered = false;
            }
            _ if moves < plies => numbered = true,
            _ if word == result && (commented || !needed) => {
                // The result, whole: the block would have been read whole.
                return Ok(());
            }
            _ => commented = true,
        }
        line = if separator == Some('\n') || line == 0 {
            word.len()
        } else {
            line + 1 + word.len()
        };
        rest = &rest[end..];
    }
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
    check_tags(&tags, &moves, &position, &result).map_err(|reason| bad(line, reason))?;
    let game = PgnGame {
        tags,
        start,
        moves,
        result,
    };
    Ok((game, start_of_moves + end))
}

/// Checks every tag of a game that its moves can check (see [`PgnReader`]); `end` is its
/// last position and `result` the result at the end of its moves.
fn check_tags(
    tags: &[(String, String)],
    moves: &[Move],
    end: &Position,
    result: &str,
) -> Result<(), String> {
    let get = |name: &str| find_tag(tags, name);
    if let Some(tag) = get("Result")
        && tag != result
    {
        return Err(format!(
            "the Result tag says {}, the moves end with {result}",
            quote(short(tag))
        ));
    }
    if let Some(count) = get("PlyCount")
        && count.parse::<usize>().ok() != Some(moves.len())
    {
        return Err(format!(
            "PlyCount {} but the game has {} moves",
            quote(short(count)),
            moves.len()
        ));
    }
    match (get("SetUp"), get("FEN").is_some()) {
        (None | Some("1"), true) | (None | Some("0"), false) => {}
        (Some("1"), false) => return Err("SetUp \"1\" without a FEN tag".to_string()),
        (Some("0"), true) => return Err("a FEN tag with SetUp \"0\"".to_string()),
        (Some(other), _) => {
            return Err(format!("SetUp {}: it is 0 or 1", quote(short(other))));
        }
    }
    if let Some(game) = get("Game") {
        let number: u64 = game
            .parse()
            .map_err(|_| format!("Game {}: not a game number", quote(short(game))))?;
        if let Some(round) = get("Round")
            && round != (number + 1).to_string()
        {
            return Err(format!(
                "Round {} but Game {number}: the round is the game's number from 1",
                quote(short(round))
            ));
        }
    }
    if let Some(date) = get("Date")
        && !is_date(date)
    {
        return Err(format!("Date {}: it is YYYY.MM.DD", quote(short(date))));
    }
    for name in ["TimeControl", "BlackTimeControl", "WhiteTimeControl"] {
        if let Some(tc) = get(name)
            && !is_time_control(tc)
        {
            return Err(format!(
                "{name} {}: it is - or seconds, like 10+0.1",
                quote(short(tc))
            ));
        }
    }
    if let Some(opening) = get("Opening") {
        let plies: Vec<&str> = if opening == "none" {
            Vec::new()
        } else {
            opening.split(' ').collect()
        };
        let played = moves.iter().take(plies.len()).map(ToString::to_string);
        if plies.len() > moves.len() || !played.eq(plies.iter().map(|p| (*p).to_string())) {
            return Err(format!(
                "Opening {}: the game does not start with it",
                quote(short(opening))
            ));
        }
    }
    let termination = get("Termination").unwrap_or("normal");
    let scores = final_scores(termination, moves, end, result)?;
    for (name, score) in [("BlackScore", scores[0]), ("WhiteScore", scores[1])] {
        if let Some(tag) = get(name)
            && tag.parse::<u8>().ok() != Some(score)
        {
            return Err(format!(
                "{name} {} but the final score is {score}",
                quote(short(tag))
            ));
        }
    }
    Ok(())
}

/// The final scores of a game that ended as `termination` says, checked against its moves:
/// a game ended by the rules has the result of its last position `end`, an adjudication's
/// proof is found again, a forfeit comes before the end and is the loss of the side to move.
fn final_scores(
    termination: &str,
    moves: &[Move],
    end: &Position,
    result: &str,
) -> Result<[u8; 2], String> {
    Ok(match termination {
        // Played to its end, or resigned (or going on, `*`) before it.
        "normal" => {
            if let Some(outcome) = end.outcome() {
                let expected = result_text(outcome);
                if expected != result {
                    return Err(format!(
                        "the moves end {expected}, the result says {result}"
                    ));
                }
            }
            [end.score(Color::Black), end.score(Color::White)]
        }
        // Still going on: no result yet, and none its moves have reached.
        "unterminated" => {
            if result != "*" || end.game_over() {
                return Err(format!(
                    "Termination \"unterminated\" needs the result * and a game not over (the result says {result})"
                ));
            }
            [end.score(Color::Black), end.score(Color::White)]
        }
        // Stopped once its final scores were proved: the proof must be found again.
        "adjudication" => {
            let proved = adjudication(end).ok_or_else(|| {
                format!(
                    "Termination \"adjudication\", but there is no proof of the result after {} \
                     moves",
                    moves.len()
                )
            })?;
            let expected = result_text(Outcome::from_scores(proved[0], proved[1]));
            if expected != result {
                return Err(format!(
                    "the proved final scores {}-{} make {expected}, the result says {result}",
                    proved[0], proved[1]
                ));
            }
            proved
        }
        // The side to move lost on time, or broke the rules (a program that failed).
        termination @ ("time forfeit" | "rules infraction") => {
            if end.game_over() {
                return Err(format!(
                    "Termination {}: a forfeit after the end of the game ({} moves)",
                    quote(termination),
                    moves.len()
                ));
            }
            let expected = result_text(Outcome::Win(end.side_to_move().opponent()));
            if expected != result {
                return Err(format!(
                    "Termination {}: {} was to move and forfeits, the result says {result}",
                    quote(termination),
                    end.side_to_move()
                ));
            }
            [end.score(Color::Black), end.score(Color::White)]
        }
        other => {
            return Err(format!(
                "Termination {}: it is normal, adjudication, time forfeit, rules infraction or unterminated",
                quote(short(other))
            ));
        }
    })
}

/// Whether `text` is a PGN date, `YYYY.MM.DD` (`?` for an unknown digit).
fn is_date(text: &str) -> bool {
    let digit = |c: char| c.is_ascii_digit() || c == '?';
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 3
        && [4, 2, 2]
            .iter()
            .zip(&parts)
            .all(|(&n, part)| part.len() == n && part.chars().all(digit))
}

/// Whether `text` is a PGN time control: `-`, `?`, or periods joined by `:`, each
/// `[moves/]seconds[+increment]` (seconds with decimals, as we write them).
fn is_time_control(text: &str) -> bool {
    let number = |t: &str| {
        let (whole, fraction) = t.split_once('.').unwrap_or((t, "0"));
        !whole.is_empty()
            && !fraction.is_empty()
            && whole
                .chars()
                .chain(fraction.chars())
                .all(|c| c.is_ascii_digit())
    };
    let period = |p: &str| {
        let (moves, time) = p.split_once('/').unwrap_or(("1", p));
        let (base, increment) = time.split_once('+').unwrap_or((time, "0"));
        moves.chars().all(|c| c.is_ascii_digit())
            && !moves.is_empty()
            && number(base)
            && number(increment)
    };
    text == "-" || text == "?" || text.split(':').all(period)
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
fn same_game(game: &PgnGame, record: &GameRecord) -> bool {
    game.result == record.result
        && game.tag("FEN").unwrap_or("") == record.start
        && game
            .moves
            .iter()
            .map(ToString::to_string)
            .eq(record.moves.split_whitespace().map(str::to_string))
}

/// The byte before `len` in `file`, if there is one.
fn last_byte(mut file: &File, len: u64) -> io::Result<Option<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    if len == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut byte = [0];
    file.read_exact(&mut byte)?;
    Ok(Some(byte[0]))
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

    /// A game of random legal moves from the start, played to its end, as the runner records
    /// it (game `number` of run `run`).
    fn random_record(seed: u64, number: u64, run: &str) -> GameRecord {
        let mut position = Position::start();
        let mut moves = Vec::new();
        let mut state = seed | 1;
        while !position.game_over() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let legal = position.moves();
            let m = legal.as_slice()[(state >> 33) as usize % legal.len()];
            position.play(m);
            moves.push(m.to_string());
        }
        let outcome = position.outcome().expect("the game is over");
        GameRecord {
            game: number,
            config: run.to_string(),
            black: "random".to_string(),
            white: "random:seed=2".to_string(),
            result: crate::arena::record::result_text(outcome).to_string(),
            forfeit: String::new(),
            black_score: position.score(yolah_core::Color::Black),
            white_score: position.score(yolah_core::Color::White),
            opening_plies: 2,
            start: String::new(),
            black_ms: 1.0,
            white_ms: 1.0,
            black_max_ms: 1.0,
            white_max_ms: 1.0,
            black_left_ms: None,
            white_left_ms: None,
            black_tc: String::new(),
            white_tc: String::new(),
            adjudicated: String::new(),
            moves: moves.join(" "),
        }
    }

    fn event() -> Event {
        Event {
            name: "yolah match".to_string(),
            date: "2026.11.25".to_string(),
        }
    }

    /// Two whole games of ours.
    fn two_games() -> String {
        let mut text = block(&event(), &random_record(1, 0, "00000000000000aa"));
        text.push_str(&block(&event(), &random_record(2, 1, "00000000000000aa")));
        text
    }

    // Issue 42, item 2: a file that is not ours is refused, whatever its end; only a block of
    // ours cut short, after whole games, is cut.
    #[test]
    fn only_a_last_block_of_ours_cut_short_is_cut() {
        for foreign in [
            "my notes on the openings\nthe second line has no end",
            "no newline at all",
            "name,score\nalice,3",
            "[Event \"club\"]\n[White \"a\"]\n[Black \"b\"]",
            "[Event \"club\"]\n[Site \"yolah\"]\n\n1. a1:b2",
            "[Event \"yolah match\"]\n[Site \"elsewhere\"]\n",
        ] {
            assert!(
                parse(foreign).is_err(),
                "{foreign:?} was taken for a cut game"
            );
            let after_games = format!("{}{foreign}", two_games());
            assert!(parse(&after_games).is_err(), "{foreign:?} after games");
        }
        // Every prefix of a block of ours, after two whole games, is cut at the block's start
        // (or, once its result is there, read whole).
        let whole = two_games();
        let third = block(&event(), &random_record(3, 2, "00000000000000aa"));
        let result_end = third.trim_end().len();
        for k in 1..third.len() {
            let text = format!("{whole}{}", &third[..k]);
            let (games, cut) = parse(&text).unwrap_or_else(|e| panic!("prefix {k}: {e}"));
            if k >= result_end {
                assert_eq!((games.len(), cut), (3, None), "prefix {k}");
            } else {
                assert_eq!((games.len(), cut), (2, Some(whole.len())), "prefix {k}");
            }
        }
        // A block of ours cut short with nothing whole before it.
        let (games, cut) = parse(&third[..40]).unwrap();
        assert_eq!((games.len(), cut), (0, Some(0)));
    }

    /// The blocks of every kind our writer makes: with and without a run, one clock or one a
    /// side, a start position, each way a game ends (a forfeit's comment longer than a line).
    fn blocks_of_every_kind() -> Vec<String> {
        let base = random_record(3, 2, "00000000000000aa");
        let first: Vec<&str> = base.moves.split_whitespace().take(9).collect();
        let cut = GameRecord {
            moves: first.join(" "),
            // White is to move after nine moves.
            result: "0-1".to_string(),
            ..base.clone()
        };
        let kinds = [
            base.clone(),
            GameRecord {
                config: String::new(),
                black_tc: "10s+100ms".to_string(),
                white_tc: "1s".to_string(),
                start: "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0".to_string(),
                ..base.clone()
            },
            GameRecord {
                forfeit: "lost on time: thought 2 s with 1 s left".to_string(),
                ..cut.clone()
            },
            GameRecord {
                forfeit: format!("illegal move {}", "x}y ".repeat(30)),
                ..cut.clone()
            },
            GameRecord {
                forfeit: RESIGNED.to_string(),
                ..cut.clone()
            },
            GameRecord {
                adjudicated: PROVED.to_string(),
                ..base.clone()
            },
            GameRecord {
                result: "*".to_string(),
                ..cut
            },
        ];
        kinds.iter().map(|record| block(&event(), record)).collect()
    }

    // Issue 55, item A: a last block is cut only when it is, byte for byte, the start of one
    // our writer wrote; a block that merely starts with our first tags (a user's notes) is
    // refused, and so is any change to one of ours.
    #[test]
    fn a_block_that_only_starts_like_ours_is_not_cut() {
        let whole = two_games();
        for third in blocks_of_every_kind() {
            let result_end = third.trim_end().len();
            for k in 1..result_end {
                let text = format!("{whole}{}", &third[..k]);
                let (games, cut) = parse(&text).unwrap_or_else(|e| panic!("{third}\n{k}: {e}"));
                assert_eq!(
                    (games.len(), cut),
                    (2, Some(whole.len())),
                    "{third}\nprefix {k}"
                );
            }
        }
        let ours = block(&event(), &random_record(3, 2, "00000000000000aa"));
        let (tags, moves) = ours.split_once("\n\n").unwrap();
        let first_line = moves.lines().next().unwrap();
        let one_line = moves.replace('\n', " ");
        let foreign = [
            // The issue's file: our first two tags, then a user's.
            "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep me\"]\n\n{my notes\n\
             on the openings\n"
                .to_string(),
            "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep".to_string(),
            "[Event \"yolah match\"]\n[Site \"yolah\"]\nmy notes".to_string(),
            // Our tags, then a user's comment, note or tag.
            format!("{tags}\n\n{{my notes"),
            format!("{tags}\n\n{{my notes}} 1. "),
            format!("{tags}\n\nmy notes"),
            format!("{tags}\n[Note \"keep me\"]\n"),
            format!("{tags}\n{{my notes"),
            // Our tags, spelled or ordered otherwise, or with values we never write.
            tags.replacen("[Site \"yolah\"]", "[Site  \"yolah\"]", 1),
            tags.replacen("[Site \"yolah\"]\n[Date", "[Date", 1),
            tags.replacen("[Round \"3\"]", "[Round \"4\"]", 1) + "\n",
            tags.replacen("[Termination \"normal\"]", "[Termination \"bored\"]", 1),
            tags.replacen(
                "[PlyCount \"71\"]",
                "[PlyCount \"18446744073709551615\"]",
                1,
            ) + "\n\n1. ",
            // Our moves, then a user's comment; or laid out otherwise.
            format!("{tags}\n\n{first_line} {{my notes"),
            format!("{tags}\n\n{}\n", first_line.replace(' ', "\n")),
            format!("{tags}\n\n{first_line}  "),
            format!(
                "{tags}\n\n{} ",
                &one_line[..one_line[..120].rfind(' ').unwrap()]
            ),
        ];
        for text in &foreign {
            assert!(parse(text).is_err(), "{text:?} was taken for a cut game");
            let after_games = format!("{whole}{text}");
            assert!(parse(&after_games).is_err(), "{text:?} after games");
        }
        let error = parse(&format!("{whole}{}", foreign[0])).unwrap_err();
        assert_eq!(error.line, whole.lines().count() + 1, "{error}");
        assert!(
            error.reason.contains("a tag Note where yolah writes Date"),
            "{error}"
        );
    }

    /// An endless input of copies of `block`, `copies` times: never held whole.
    struct Copies {
        block: Vec<u8>,
        copies: usize,
        at: usize,
    }

    impl io::Read for Copies {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.copies == 0 {
                return Ok(0);
            }
            let n = out.len().min(self.block.len() - self.at);
            out[..n].copy_from_slice(&self.block[self.at..self.at + n]);
            self.at += n;
            if self.at == self.block.len() {
                self.at = 0;
                self.copies -= 1;
            }
            Ok(n)
        }
    }

    // Issue 42, item 10: a file is read game by game, holding one game's text at most and
    // reading no further ahead than the line after it.
    #[test]
    fn a_file_is_read_game_by_game_in_bounded_memory() {
        let block = two_games().into_bytes();
        let copies = 4000; // 8000 games, 9 MB
        let mut reader = PgnReader::new(io::BufReader::new(Copies {
            block: block.clone(),
            copies,
            at: 0,
        }));
        let mut games = 0;
        let mut most_held = 0;
        while let Some(game) = reader.next() {
            let game = game.unwrap();
            games += 1;
            assert_eq!(
                game.tag("Game"),
                Some(if games % 2 == 1 { "0" } else { "1" })
            );
            most_held = most_held.max(reader.held());
            // Read no further than the end of this game's last line.
            let pair_end = (games as u64).div_ceil(2) * block.len() as u64;
            assert!(reader.offset() <= pair_end, "game {games} read ahead");
        }
        assert_eq!((games, reader.cut()), (2 * copies, None));
        assert!(
            most_held < 8 * 1024,
            "held {most_held} bytes for games of {} bytes",
            block.len() / 2
        );
        // Bounds for what a hostile file holds: a line, a game.
        let long_line = format!("[Event \"{}\"]\n", "x".repeat(MAX_LINE));
        let error = parse(&long_line).unwrap_err();
        assert!(error.reason.contains("a line longer than"), "{error}");
        let long_game = format!(
            "[Event \"x\"]\n\n{}",
            "{a comment}\n".repeat(MAX_GAME_TEXT / 12 + 1)
        );
        let error = parse(&long_game).unwrap_err();
        assert!(error.reason.contains("a game of more than"), "{error}");
    }

    fn writer_at(path: &Path, done: &[GameRecord]) -> Result<PgnWriter, String> {
        PgnWriter::open(path, event(), done)
    }

    fn games_in(path: &Path) -> Vec<PgnGame> {
        parse(&std::fs::read_to_string(path).unwrap()).unwrap().0
    }

    // Issue 42, item 5: a new run adds all its games, even to a file holding the same run's
    // games; a resumed run adds those it missed, once.
    #[test]
    fn a_new_run_adds_all_its_games_and_a_resumed_run_those_it_missed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        let run: Vec<GameRecord> = (0..4)
            .map(|n| random_record(10 + n, n, "00000000000000bb"))
            .collect();
        for _ in 0..2 {
            let mut writer = writer_at(&path, &[]).unwrap();
            for record in &run {
                writer.write(record).unwrap();
            }
        }
        assert_eq!(games_in(&path).len(), 8);
        // A third run, killed after two games (the record file had three)...
        {
            let mut writer = writer_at(&path, &[]).unwrap();
            writer.write(&run[0]).unwrap();
            writer.write(&run[1]).unwrap();
        }
        // ... resumed: the third game of the record file is added, and nothing else.
        let third = random_record(99, 2, "00000000000000bb");
        writer_at(&path, &[run[0].clone(), run[1].clone(), third.clone()]).unwrap();
        let games = games_in(&path);
        assert_eq!(games.len(), 11);
        assert!(same_game(&games[10], &third));
        // Resumed again: nothing is missing.
        writer_at(&path, &[run[0].clone(), run[1].clone(), third]).unwrap();
        assert_eq!(games_in(&path).len(), 11);
    }

    // Issue 42, item 6: one run at a time writes a PGN file.
    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        let mut first = writer_at(&path, &[]).unwrap();
        first
            .write(&random_record(1, 0, "00000000000000cc"))
            .unwrap();
        let before = yolah_testkit::writers::Untouched::take(&path);
        let error = writer_at(&path, &[]).unwrap_err();
        yolah_testkit::writers::assert_one_line(&error);
        assert!(error.contains("in use by another run"), "{error}");
        // Through a link to it too.
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(writer_at(&link, &[]).is_err());
        before.assert();
        drop(first);
        writer_at(&link, &[]).unwrap();
    }

    /// Appends newlines to `path` (blank lines between games) until `room` bytes are left in
    /// its last page: a block written next fills the page and needs another.
    fn pad_to_page_end(path: &Path, room: u64) {
        let len = std::fs::metadata(path).unwrap().len();
        let pad = (4096 - room + 4096 - len % 4096) % 4096;
        let mut file = OpenOptions::new().append(true).open(path).unwrap();
        io::Write::write_all(&mut file, &vec![b'\n'; pad as usize]).unwrap();
    }

    // Issue 42, item 6: a write that fails (a full disk) is cut back, but never past bytes
    // another writer added meanwhile; the games before it stay.
    #[test]
    fn a_failed_write_never_cuts_another_writers_bytes() {
        let disk = yolah_testkit::writers::SmallDisk::new(64 * 1024);
        let path = disk.path().join("games.pgn");
        let mut writer = writer_at(&path, &[]).unwrap();
        writer
            .write(&random_record(1, 0, "00000000000000dd"))
            .unwrap();
        // Another program appends, ignoring the lock; then the disk fills up.
        let other = block(&event(), &random_record(2, 7, "00000000000000ee"));
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        io::Write::write_all(&mut file, other.as_bytes()).unwrap();
        pad_to_page_end(&path, 300);
        let before = std::fs::read_to_string(&path).unwrap();
        disk.fill();
        let error = writer.write(&random_record(3, 1, "00000000000000dd"));
        assert!(error.is_err(), "the disk is full");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&before), "the other writer's game was cut");
        // What this write left is the start of a block of ours: cut when read.
        let (games, cut) = parse(&text).unwrap();
        assert_eq!((games.len(), cut), (2, Some(before.len())));
        // Alone, a write that fails half way is undone whole.
        disk.free();
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "").unwrap();
        pad_to_page_end(&path, 300);
        let mut writer = writer_at(&path, &[]).unwrap();
        let kept = std::fs::read(&path).unwrap();
        disk.fill();
        assert!(
            writer
                .write(&random_record(4, 1, "00000000000000dd"))
                .is_err()
        );
        assert_eq!(std::fs::read(&path).unwrap(), kept);
    }

    // Issue 42, item 2: a file that is not ours, or not only ours, is refused and left byte
    // for byte, directly or through a link.
    #[test]
    fn a_foreign_file_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let mut foreign = yolah_testkit::writers::foreign_files();
        foreign.push(("a CSV record file", b"game,config\n0,x".to_vec()));
        foreign.push((
            "games of ours, then a note",
            format!("{}my note", two_games()).into_bytes(),
        ));
        for (what, bytes) in foreign {
            let path = dir.path().join("foreign.pgn");
            std::fs::write(&path, &bytes).unwrap();
            let link = dir.path().join("link.pgn");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&path, &link).unwrap();
            let before = yolah_testkit::writers::Untouched::take(&path);
            for target in [&path, &link] {
                let error = writer_at(target, &[]).expect_err(what);
                yolah_testkit::writers::assert_one_line(&error);
                before.assert();
            }
        }
    }

    // Issue 42, item 11: every tag that can be checked is checked; an adjudication is proved
    // again.
    #[test]
    fn forged_tags_and_adjudications_are_refused() {
        let record = random_record(5, 0, "00000000000000aa");
        let good = block(&event(), &record);
        parse(&good).unwrap();
        let plies = record.moves.split_whitespace().count();
        let scores = format!("[BlackScore \"{}\"]", record.black_score);
        let forgeries = [
            (
                format!("[PlyCount \"{plies}\"]"),
                format!("[PlyCount \"{}\"]", plies + 1),
                "PlyCount",
            ),
            (
                format!("[Result \"{}\"]", record.result),
                "[Result \"*\"]".to_string(),
                "Result",
            ),
            (
                scores.clone(),
                format!("[BlackScore \"{}\"]", record.black_score + 1),
                "BlackScore",
            ),
            (
                "[Termination \"normal\"]".to_string(),
                "[Termination \"bored\"]".to_string(),
                "Termination",
            ),
            // A finished game is not going on.
            (
                "[Termination \"normal\"]".to_string(),
                "[Termination \"unterminated\"]".to_string(),
                "Termination",
            ),
            (
                "[Round \"1\"]".to_string(),
                "[Round \"7\"]".to_string(),
                "Round",
            ),
            (
                "[Date \"2026.11.25\"]".to_string(),
                "[Date \"yesterday\"]".to_string(),
                "Date",
            ),
            (
                "[TimeControl \"-\"]".to_string(),
                "[TimeControl \"fast\"]".to_string(),
                "TimeControl",
            ),
        ];
        for (from, to, name) in forgeries {
            assert!(good.contains(&from), "{from}");
            let forged = good.replacen(&from, &to, 1);
            let error = parse(&forged).expect_err(name);
            assert!(error.reason.contains(name), "{name}: {error}");
        }
        let opening = good.lines().find(|l| l.starts_with("[Opening ")).unwrap();
        let forged = good.replacen(opening, "[Opening \"h8:h7 a8:a7\"]", 1);
        assert!(parse(&forged).unwrap_err().reason.contains("Opening"));
        // An adjudication after two moves, with nothing proved: refused.
        let moves: Vec<&str> = record.moves.split_whitespace().take(2).collect();
        let forged = GameRecord {
            moves: moves.join(" "),
            adjudicated: PROVED.to_string(),
            result: "0-1".to_string(),
            black_score: 2,
            white_score: 40,
            ..record.clone()
        };
        let error = parse(&block(&event(), &forged)).unwrap_err();
        assert!(error.reason.contains("no proof"), "{error}");
        // A game over by the rules whose score tags are not its position's.
        let forged = good.replacen(&scores, "[BlackScore \"0\"]", 1);
        if record.black_score != 0 {
            assert!(parse(&forged).is_err());
        }
        // A forfeit after the end of the game.
        let forfeit = GameRecord {
            forfeit: "lost on time: thought 2 s with 1 s left".to_string(),
            ..record
        };
        assert!(parse(&block(&event(), &forfeit)).is_err());
    }
}

//! Reading PGN files: a game at a time in bounded memory, each checked whole; a last block
//! of ours cut short is told from anything else unfinished.

use super::game::{PgnGame, find_tag};
use super::ours::ours;
use super::tags::{RESULTS, Tags, is_date, is_time_control, short, tag};
use crate::arena::game::adjudication;
use crate::arena::record::result_text;
use std::fs::File;
use std::io::{self, BufRead as _, Read as _};
use std::path::Path;
use yolah_core::text::quote;
use yolah_core::{Color, Move, Outcome, Position, play_move};

/// The most tags a game may have: a bound for untrusted files.
pub(super) const MAX_TAGS: usize = 64;

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
/// interruption (byte for byte the start of a block as [`block`](super::block) writes it, and nothing in it
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
pub(super) struct Scan {
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

/// Why a game could not be read.
pub(super) enum Failure {
    /// The text ended before its result.
    Cut,
    /// It is malformed.
    Bad(PgnError),
}
use Failure::{Bad, Cut};

/// The tag lines at the start of `text` (line `line`): the tags, the byte where the moves
/// start and their line.
pub(super) fn tag_lines(text: &str, line: usize) -> Result<(Tags, usize, usize), Failure> {
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
pub(super) fn game(text: &str, line: usize) -> Result<(PgnGame, usize), Failure> {
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
pub(super) fn check_tags(
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
pub(super) fn final_scores(
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

/// The moves of `body` from `start` (line `at`) up to the result: the moves, the final
/// position, the result and the byte after it.
pub(super) fn movetext(
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
                let m = play_move(&mut position, word).map_err(|e| bad(at, e.to_string()))?;
                moves.push(m);
            }
        }
    }
    let Some(result) = result else {
        return Err(Cut);
    };
    Ok((moves, position, result, end))
}

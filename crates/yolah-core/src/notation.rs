//! Position notation, like chess FEN: `<ranks> <side> <black_score> <white_score> <ply>`.
//!
//! Ranks 8 down to 1 separated by `/`, files a→h; `b` a black piece, `w` a white piece,
//! `x` a hole, a digit 1–8 for that many free squares. The start is
//! `w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0`.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::mv::Move;
use crate::play_moves::{BadMove, play_moves};
use crate::position::{Cell, Position};
use crate::square::Square;
use crate::text::quote;
use std::fmt::{self, Write as _};
use std::str::FromStr;

/// The starting position in notation.
pub const START: &str = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0";

/// Why a text is not a valid position; each case says where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not five space-separated fields.
    FieldCount(usize),
    /// The board field does not have eight `/`-separated ranks.
    RankCount(usize),
    /// A character other than `b`, `w`, `x`, `1`–`8` in a rank.
    BadChar {
        /// The rank, 1–8.
        rank: i8,
        /// The character.
        ch: char,
    },
    /// Two digits in a row in a rank (write `8`, not `44`).
    AdjacentDigits {
        /// The rank, 1–8.
        rank: i8,
    },
    /// A rank does not describe exactly eight squares.
    RankLength {
        /// The rank, 1–8.
        rank: i8,
        /// How many squares it describes.
        squares: u32,
    },
    /// The side is neither `b` nor `w`.
    BadSide(String),
    /// A score or the ply is not a number in range.
    BadNumber {
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// A side does not have four pieces.
    PieceCount {
        /// The side.
        color: Color,
        /// Its piece count.
        found: u32,
    },
    /// The side to move does not match the ply's parity (black moves at even plies).
    SideMismatch {
        /// The side given.
        side: Color,
        /// The ply given.
        ply: u16,
    },
    /// Each point leaves one hole, so the holes must equal the sum of the scores.
    HoleCount {
        /// Holes on the board.
        holes: u32,
        /// Black's score.
        black: u8,
        /// White's score.
        white: u8,
    },
    /// A side has more points than it has had turns.
    TooManyPoints {
        /// The side.
        color: Color,
        /// Its score.
        score: u8,
        /// Its turns so far.
        turns: u16,
    },
    /// More plies than a game with this many moves can have: every pass is followed by a move
    /// of the other side, so passes outnumber moves by at most one.
    PlyTooLarge {
        /// The ply.
        ply: u16,
        /// The largest possible with these points.
        max: u16,
    },
    /// Two of the sets (black pieces, white pieces, holes) share a square (positions read
    /// from bits rather than text).
    Overlap,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError as E;
        match self {
            E::FieldCount(n) => write!(
                f,
                "expected 5 space-separated fields (<ranks> <side> <black_score> <white_score> <ply>), found {n}"
            ),
            E::RankCount(n) => write!(f, "expected 8 ranks separated by '/', found {n}"),
            E::BadChar { rank, ch } => write!(
                f,
                "rank {rank}: unexpected '{ch}' (expected b, w, x or a digit 1-8)"
            ),
            E::AdjacentDigits { rank } => {
                write!(
                    f,
                    "rank {rank}: two digits in a row (write free squares as one digit)"
                )
            }
            E::RankLength { rank, squares } => {
                write!(f, "rank {rank}: describes {squares} squares, expected 8")
            }
            E::BadSide(text) => write!(
                f,
                "side to move: expected 'b' or 'w', found {}",
                quote(text)
            ),
            E::BadNumber { field, text } => {
                write!(f, "{field}: {} is not a valid number", quote(text))
            }
            E::PieceCount { color, found } => {
                write!(f, "{color} has {found} pieces, expected 4")
            }
            E::SideMismatch { side, ply } => write!(
                f,
                "side to move is {side} but ply {ply} is {} (black moves at even plies)",
                if ply % 2 == 0 { "even" } else { "odd" }
            ),
            E::HoleCount {
                holes,
                black,
                white,
            } => write!(
                f,
                "{holes} holes but the scores add up to {} ({black} + {white}); every point leaves one hole",
                u32::from(*black) + u32::from(*white)
            ),
            E::TooManyPoints {
                color,
                score,
                turns,
            } => write!(
                f,
                "{color} has {score} points but only {turns} turns by this ply"
            ),
            E::PlyTooLarge { ply, max } => write!(
                f,
                "ply {ply} cannot be reached with these points (at most {max}: two plies a \
                 point, a pass being followed by a move)"
            ),
            E::Overlap => write!(f, "pieces and holes share a square"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// A position in notation, or `startpos` (any case) for the start, as the engine
    /// protocol names it.
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        use ParsePositionError as E;
        if text.trim().eq_ignore_ascii_case("startpos") {
            return Ok(Position::start());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, black, white, ply] = fields[..] else {
            return Err(E::FieldCount(fields.len()));
        };
        let (pieces, holes) = parse_board(board)?;
        let side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(E::BadSide(other.to_owned())),
        };
        let number = |field: &'static str, text: &str| E::BadNumber {
            field,
            text: text.to_owned(),
        };
        let black: u8 = black.parse().map_err(|_| number("black score", black))?;
        let white: u8 = white.parse().map_err(|_| number("white score", white))?;
        let ply: u16 = ply.parse().map_err(|_| number("ply", ply))?;

        if Color::to_move_at(ply) != side {
            return Err(E::SideMismatch { side, ply });
        }
        Position::from_parts_checked(pieces, holes, [black, white], ply)
    }
}

impl Position {
    /// A position from its parts, checked as the notation parser checks them (the side to
    /// move is the ply's): four pieces a side, pieces and holes apart, one hole per point, a
    /// ply a game with these points can reach.
    pub fn from_parts_checked(
        pieces: [Bitboard; 2],
        holes: Bitboard,
        scores: [u8; 2],
        ply: u16,
    ) -> Result<Position, ParsePositionError> {
        use ParsePositionError as E;
        let [black, white] = scores;
        for color in Color::ALL {
            let found = pieces[color.index()].count();
            if found != 4 {
                return Err(E::PieceCount { color, found });
            }
        }
        if (pieces[0].0 & pieces[1].0) | ((pieces[0].0 | pieces[1].0) & holes.0) != 0 {
            return Err(E::Overlap);
        }
        if holes.count() != u32::from(black) + u32::from(white) {
            return Err(E::HoleCount {
                holes: holes.count(),
                black,
                white,
            });
        }
        let max = 2 * (u16::from(black) + u16::from(white)) + 1;
        if ply > max {
            return Err(E::PlyTooLarge { ply, max });
        }
        let turns = [ply.div_ceil(2), ply / 2];
        for (color, score) in [(Color::Black, black), (Color::White, white)] {
            let turns = turns[color.index()];
            if u16::from(score) > turns {
                return Err(E::TooManyPoints {
                    color,
                    score,
                    turns,
                });
            }
        }
        Ok(Position::from_parts(pieces, holes, [black, white], ply))
    }
}

/// A position and moves played from it, as one line of text gives them: a position in
/// notation or `startpos`, then optionally `moves m1 m2 …` (`startpos moves a1:c3 h1:h4`),
/// each move checked in turn. The one way the command line's `--position` and the engine
/// protocol's `position` read a position with moves.
///
/// ```
/// use yolah_core::PositionLine;
/// let line: PositionLine = "startpos moves a1:c3 h1:h4".parse().unwrap();
/// assert_eq!(line.moves.len(), 2);
/// assert_eq!(line.position().ply(), 2);
/// assert!("startpos moves a1:c3 a1:c4".parse::<PositionLine>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// The position the moves start from.
    pub start: Position,
    /// The moves, legal in turn.
    pub moves: Vec<Move>,
}

impl PositionLine {
    /// The position after the moves.
    pub fn position(&self) -> Position {
        let mut position = self.start;
        for &m in &self.moves {
            position.play(m);
        }
        position
    }
}

/// Why a line is not a position with moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseLineError {
    /// The position before `moves` is not one.
    Position(ParsePositionError),
    /// A move is not a move, or not legal where it is played.
    Move(BadMove),
}

impl fmt::Display for ParseLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseLineError::Position(error) => error.fmt(f),
            ParseLineError::Move(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ParseLineError {}

impl FromStr for PositionLine {
    type Err = ParseLineError;

    fn from_str(text: &str) -> Result<PositionLine, ParseLineError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (setup, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let start: Position = setup.join(" ").parse().map_err(ParseLineError::Position)?;
        let mut position = start;
        let moves =
            play_moves(&mut position, moves.iter().copied()).map_err(ParseLineError::Move)?;
        Ok(PositionLine { start, moves })
    }
}

fn parse_board(board: &str) -> Result<([Bitboard; 2], Bitboard), ParsePositionError> {
    use ParsePositionError as E;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(E::RankCount(ranks.len()));
    }
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut holes = Bitboard::EMPTY;
    for (row, text) in ranks.iter().enumerate() {
        let rank = 7 - row as i8;
        let mut file: u32 = 0;
        let mut previous_digit = false;
        for ch in text.chars() {
            let (width, cell) = match ch {
                '1'..='8' if previous_digit => return Err(E::AdjacentDigits { rank: rank + 1 }),
                '1'..='8' => (ch as u32 - '0' as u32, None),
                'b' => (1, Some(Cell::Piece(Color::Black))),
                'w' => (1, Some(Cell::Piece(Color::White))),
                'x' => (1, Some(Cell::Hole)),
                _ => return Err(E::BadChar { rank: rank + 1, ch }),
            };
            previous_digit = cell.is_none();
            if let Some(cell) = cell
                && let Some(square) = Square::from_coords(file as i8, rank)
            {
                let bit = Bitboard::from_square(square);
                match cell {
                    Cell::Piece(color) => pieces[color.index()] |= bit,
                    _ => holes |= bit,
                }
            }
            file += width;
        }
        if file != 8 {
            return Err(E::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok((pieces, holes))
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut free = 0;
            for file in 0..8 {
                let square = Square::from_coords(file, rank).expect("on the board");
                let ch = match self.cell(square) {
                    Cell::Empty => {
                        free += 1;
                        continue;
                    }
                    Cell::Piece(color) => color.letter(),
                    Cell::Hole => 'x',
                };
                if free > 0 {
                    write!(f, "{free}")?;
                    free = 0;
                }
                f.write_char(ch)?;
            }
            if free > 0 {
                write!(f, "{free}")?;
            }
            if rank > 0 {
                f.write_char('/')?;
            }
        }
        write!(
            f,
            " {} {} {} {}",
            self.side_to_move().letter(),
            self.score(Color::Black),
            self.score(Color::White),
            self.ply()
        )
    }
}

//! `Move`: a departure and an arrival square in 16 bits; `a1:a1` is the pass (book §2.3.3).

use crate::square::{ParseSquareError, Square};
use crate::text::quote;
use std::fmt;
use std::str::FromStr;

/// A move, `from | to << 6`. Only the pass has `from == to`.
///
/// ```
/// use yolah_core::{Move, Square};
/// let m: Move = "e4:g2".parse().unwrap();
/// assert_eq!((m.from(), m.to()), ("e4".parse::<Square>().unwrap(), "g2".parse().unwrap()));
/// assert_eq!(m.to_string(), "e4:g2");
/// assert!("a1:a1".parse::<Move>().unwrap().is_pass());
/// assert!("e4g2".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    /// The pass `a1:a1`, legal only for a side with no move.
    pub const PASS: Move = Move(0);

    /// The move from `from` to `to`. Giving the same square twice makes the pass only for a1.
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// The departure square.
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x3f) as u32)
    }

    /// The arrival square.
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 0x3f) as u32)
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }

    /// The 16-bit encoding.
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move whose [`Move::raw`] is `raw` (only its low 12 bits are read).
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw & 0x0fff)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.from(), self.to())
    }
}

/// Why a piece of text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not of the form `<from>:<to>`.
    Shape(String),
    /// One side of the colon is not a square.
    Square(ParseSquareError),
    /// `from` and `to` are the same square other than a1.
    Null(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Shape(text) => {
                write!(
                    f,
                    "{} is not a move (expected <from>:<to>, like e4:g2, or a1:a1 to pass)",
                    quote(text)
                )
            }
            ParseMoveError::Square(error) => write!(f, "bad move: {error}"),
            ParseMoveError::Null(text) => write!(
                f,
                "{} is not a move: a piece must leave its square (only a1:a1, the pass, repeats a square)",
                quote(text)
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let (from, to) = text
            .split_once(':')
            .ok_or_else(|| ParseMoveError::Shape(text.to_owned()))?;
        let from: Square = from.parse().map_err(ParseMoveError::Square)?;
        let to: Square = to.parse().map_err(ParseMoveError::Square)?;
        if from == to && from != Square::A1 {
            return Err(ParseMoveError::Null(text.to_owned()));
        }
        Ok(Move::new(from, to))
    }
}

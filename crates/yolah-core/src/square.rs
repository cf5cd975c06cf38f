//! Squares of the 8×8 board, numbered as in the book: a1 = 0, b1 = 1, …, h8 = 63.
//!
//! This file is table-independent: `xtask` compiles it too, so the generator and the
//! engine share one definition of the board.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares, `rank * 8 + file`.
///
/// ```
/// use yolah_core::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!((e4.file(), e4.rank(), e4.index()), (4, 3, 28));
/// assert_eq!(e4.offset(1, 1).unwrap().to_string(), "f5");
/// assert_eq!(Square::all().count(), 64);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// a1, the lowest square (and both ends of the pass `a1:a1`).
    pub const A1: Square = Square(0);
    /// h8, the highest square.
    pub const H8: Square = Square(63);

    /// The square with this index, or `None` outside `0..64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = 1), or `None` off the board.
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `index & 63`. Callers pass an index already below 64 (a bit
    /// position, a 6-bit field); the mask keeps the invariant `index < 64` even if one does not.
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The index `0..64`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        // Every constructor keeps the index below 64; saying so lets table lookups skip their
        // bounds checks.
        // SAFETY: `new` and `from_coords` check the range, `from_index_unchecked` masks it, and
        // `FromStr` builds only a1..h8. No other code creates a `Square`.
        unsafe { std::hint::assert_unchecked(self.0 < 64) };
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> i8 {
        (self.0 & 7) as i8
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> i8 {
        (self.0 >> 3) as i8
    }

    /// The square `df` files and `dr` ranks away, or `None` off the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + self.file() as u8);
        let rank = char::from(b'1' + self.rank() as u8);
        write!(f, "{file}{rank}")
    }
}

/// Why a piece of text is not a square name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a square (expected a file a-h then a rank 1-8, like e4)",
            crate::text::quote(&self.0)
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        match text.as_bytes() {
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                Ok(Square((rank - b'1') * 8 + (file - b'a')))
            }
            _ => Err(ParseSquareError(text.to_owned())),
        }
    }
}

//! The two sides.

use std::fmt;

/// Black or white. Black moves first.
///
/// ```
/// use yolah_core::Color;
/// assert_eq!(Color::Black.opponent(), Color::White);
/// assert_eq!(Color::to_move_at(1), Color::White);
/// assert_eq!(Color::White.to_string(), "white");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves at even plies.
    Black = 0,
    /// Moves at odd plies.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side to move at `ply`.
    pub const fn to_move_at(ply: u16) -> Color {
        if ply & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// `b` or `w`, as in the position notation.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

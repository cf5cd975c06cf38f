//! A text picture of a position, as in the book's listing 27: pieces, holes, and `+` on
//! marked squares (usually the legal targets of the side to move).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::{Cell, Position};
use crate::square::Square;
use std::fmt;

/// A position drawn with `marks` shown as `+`.
///
/// ```
/// use yolah_core::{Diagram, Position};
/// let text = Diagram::new(&Position::start()).to_string();
/// assert!(text.contains("score: black 0, white 0; black to move"));
/// ```
pub struct Diagram<'a> {
    position: &'a Position,
    marks: Bitboard,
}

impl<'a> Diagram<'a> {
    /// The position alone.
    pub fn new(position: &'a Position) -> Diagram<'a> {
        Diagram {
            position,
            marks: Bitboard::EMPTY,
        }
    }

    /// The position with `+` on the squares the side to move can reach.
    pub fn with_targets(position: &'a Position) -> Diagram<'a> {
        let marks = position
            .moves()
            .iter()
            .filter(|m| !m.is_pass())
            .map(|m| m.to())
            .collect();
        Diagram { position, marks }
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.position.side_to_move();
        let separator = "  +---+---+---+---+---+---+---+---+";
        writeln!(f, "{separator}")?;
        for rank in (0..8).rev() {
            write!(f, "{} |", rank + 1)?;
            for file in 0..8 {
                let square = Square::from_coords(file, rank).expect("on the board");
                let symbol = match self.position.cell(square) {
                    // Not `x`: in the notation `x` is a hole.
                    _ if self.marks.contains(square) => '+',
                    Cell::Empty => '.',
                    Cell::Piece(Color::Black) => '●',
                    Cell::Piece(Color::White) => '○',
                    Cell::Hole => '■',
                };
                write!(f, " {symbol} |")?;
            }
            writeln!(f)?;
            writeln!(f, "{separator}")?;
        }
        writeln!(f, "    a   b   c   d   e   f   g   h")?;
        // Every symbol drawn is explained; the `+` only where it is drawn, and then `.` is an
        // empty square out of reach.
        if self.marks == Bitboard::EMPTY {
            writeln!(f, "● black  ○ white  ■ hole  . empty")?;
        } else {
            writeln!(f, "● black  ○ white  ■ hole  + reachable  . out of reach")?;
        }
        let (black, white) = (
            self.position.score(Color::Black),
            self.position.score(Color::White),
        );
        write!(f, "score: black {black}, white {white}; ")?;
        match self.position.outcome() {
            Some(_) => write!(f, "game over"),
            None => write!(f, "{side} to move"),
        }
    }
}

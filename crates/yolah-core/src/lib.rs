//! The Yolah engine: the rules of the game and nothing else (book chapter 2).
//!
//! Yolah is played on an 8×8 board; each side has four pieces that move like chess queens.
//! The square a piece leaves becomes a hole that nobody may cross or land on. Every move scores
//! a point; a side with no move passes (`a1:a1`); the game ends when neither side can move.
//!
//! ```
//! use yolah_core::{Position, perft};
//! let mut position: Position = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0".parse().unwrap();
//! assert_eq!(position.moves().len(), 56);
//! assert_eq!(perft(&mut position, 2), 2_988);
//! ```

/// The crate's README, whose example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod diagram;
pub mod legality;
pub mod magic;
pub mod move_list;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod play_moves;
pub mod playout;
pub mod position;
pub mod random_games;
pub mod slider;
pub mod square;
pub mod symmetry;
pub mod tally;
pub mod text;
pub mod wide;
pub mod zobrist;

pub use attacks::attacks;
pub use bitboard::Bitboard;
pub use color::Color;
pub use diagram::Diagram;
pub use legality::IllegalMove;
pub use move_list::{MAX_MOVES, MoveList};
pub use mv::{Move, ParseMoveError};
pub use notation::{ParseLineError, ParsePositionError, PositionLine, START};
pub use perft::perft;
pub use play_moves::{BadMove, play_move, play_moves};
pub use playout::Playout;
pub use position::{Cell, Outcome, Position};
pub use square::Square;
pub use symmetry::Symmetry;

//! Whether an arbitrary move is legal, and why not.

use crate::color::Color;
use crate::mv::Move;
use crate::position::{Cell, Position};
use crate::square::Square;
use std::fmt;

/// Why a move is not legal in a position.
///
/// ```
/// use yolah_core::{Move, Position};
/// let start = Position::start();
/// let error = start.check_move("a1:b3".parse().unwrap()).unwrap_err();
/// assert_eq!(error.to_string(), "a1:b3 does not follow a rank, file or diagonal");
/// assert!(start.check_move("a1:b2".parse().unwrap()).is_ok());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game is over: neither side can move, and no move (not even a pass) follows.
    GameOver,
    /// The pass was played by a side that can move.
    CannotPass {
        /// The side to move.
        side: Color,
        /// How many moves it has.
        moves: u32,
    },
    /// The departure square holds no piece of the side to move.
    NotYourPiece {
        /// The departure square.
        square: Square,
        /// The side to move.
        side: Color,
        /// What is there instead.
        found: Cell,
    },
    /// The arrival square is not on a rank, file or diagonal through the departure square.
    NotALine {
        /// The move.
        mv: Move,
    },
    /// A square on the way, or the arrival square itself, is not free.
    Blocked {
        /// The move.
        mv: Move,
        /// The first square that is not free.
        at: Square,
        /// What stands there.
        found: Cell,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => {
                f.write_str("the game is over: no move, not even a pass, follows its end")
            }
            IllegalMove::CannotPass { side, moves } => write!(
                f,
                "{side} cannot pass (a1:a1): a side passes only when it has no move, and {side} has {moves}"
            ),
            IllegalMove::NotYourPiece {
                square,
                side,
                found,
            } => {
                write!(f, "{square} holds {found}, not a {side} piece")
            }
            IllegalMove::NotALine { mv } => {
                write!(f, "{mv} does not follow a rank, file or diagonal")
            }
            IllegalMove::Blocked { mv, at, found } if at == mv.to() => {
                write!(f, "{mv} lands on {at}, which holds {found}")
            }
            IllegalMove::Blocked { mv, at, found } => {
                write!(f, "{mv} is blocked at {at} by {found}")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// `Ok` when the side to move may play `m` here; otherwise the reason. Agrees with
    /// [`Position::moves`] on every move (tested), but walks the board square by square.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason when the move is not legal here.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let side = self.side_to_move();
        if self.game_over() {
            return Err(IllegalMove::GameOver);
        }
        if m.is_pass() {
            let moves = self.count_moves(side);
            return if moves == 0 {
                Ok(())
            } else {
                Err(IllegalMove::CannotPass { side, moves })
            };
        }
        let (from, to) = (m.from(), m.to());
        let found = self.cell(from);
        if found != Cell::Piece(side) {
            return Err(IllegalMove::NotYourPiece {
                square: from,
                side,
                found,
            });
        }
        let df = to.file() - from.file();
        let dr = to.rank() - from.rank();
        if from == to || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return Err(IllegalMove::NotALine { mv: m });
        }
        let mut at = from;
        while at != to {
            at = at
                .offset(df.signum(), dr.signum())
                .expect("the line ends on the board at `to`");
            let found = self.cell(at);
            if found != Cell::Empty {
                return Err(IllegalMove::Blocked { mv: m, at, found });
            }
        }
        Ok(())
    }
}

//! Moves given as text, parsed, checked and played: [`play_move`] for one, [`play_moves`] for
//! a list, and [`BadMove`], which says which move is bad and why. The readers of moves (the
//! protocol's `position`, records, PGN, opening suites, the board's games, `replay` and
//! `review`) play them here; the two that read a word at a time with other meanings (a typed
//! word in `yolah play` may be a command; a puzzle attempt is held against its solution) keep
//! their own wording.

use crate::color::Color;
use crate::legality::IllegalMove;
use crate::mv::{Move, ParseMoveError};
use crate::position::Position;
use crate::text::quote;
use std::fmt;

/// Why a move's text cannot be played where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The text is not a move.
    NotAMove(ParseMoveError),
    /// The game was over before it, after this many plies.
    AfterTheEnd {
        /// The plies played when the game ended.
        ply: u16,
    },
    /// A move, but not a legal one for the side to move.
    Illegal {
        /// The side to move.
        side: Color,
        /// Why not.
        reason: IllegalMove,
    },
}

/// A move that cannot be played: its place in its list (from 1; none for a move alone), its
/// text and why.
///
/// ```
/// use yolah_core::{Position, play_moves};
/// let mut position = Position::start();
/// let error = play_moves(&mut position, ["a1:c3", "a1:c4"]).unwrap_err();
/// assert_eq!(error.number, Some(2));
/// assert_eq!(
///     error.to_string(),
///     "move 2 'a1:c4' (white to play) is illegal: a1 holds a hole, not a white piece"
/// );
/// // The moves before the bad one are played.
/// assert_eq!(position.ply(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// Its place in the list, from 1 (none for a move given alone).
    pub number: Option<usize>,
    /// Its text.
    pub text: String,
    /// Why it cannot be played.
    pub why: Why,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = quote(&self.text);
        // A text that is no move says so itself, with its quote.
        let named = match self.number {
            Some(number) => format!("move {number} {text}"),
            None => format!("move {text}"),
        };
        match &self.why {
            // A bad square's message does not show the move it is in.
            Why::NotAMove(error @ ParseMoveError::Square(_)) => write!(f, "{named}: {error}"),
            Why::NotAMove(error) => match self.number {
                Some(number) => write!(f, "move {number}: {error}"),
                None => error.fmt(f),
            },
            Why::AfterTheEnd { ply } => {
                write!(f, "{named}: the game is already over after ply {ply}")
            }
            Why::Illegal { side, reason } => {
                write!(f, "{named} ({side} to play) is illegal: {reason}")
            }
        }
    }
}

impl std::error::Error for BadMove {}

/// Parses `text` as a move and plays it in `position` if it is legal there; the move played.
///
/// ```
/// use yolah_core::{Position, play_move};
/// let mut position = Position::start();
/// assert_eq!(play_move(&mut position, "a1:c3").unwrap().to_string(), "a1:c3");
/// assert_eq!(
///     play_move(&mut position, "a1:a1").unwrap_err().to_string(),
///     "move 'a1:a1' (white to play) is illegal: white cannot pass (a1:a1): a side passes \
///      only when it has no move, and white has 54"
/// );
/// ```
pub fn play_move(position: &mut Position, text: &str) -> Result<Move, BadMove> {
    let bad = |why| BadMove {
        number: None,
        text: text.to_string(),
        why,
    };
    let m: Move = text.parse().map_err(|e| bad(Why::NotAMove(e)))?;
    if position.game_over() {
        return Err(bad(Why::AfterTheEnd {
            ply: position.ply(),
        }));
    }
    let side = position.side_to_move();
    position
        .check_move(m)
        .map_err(|reason| bad(Why::Illegal { side, reason }))?;
    position.play(m);
    Ok(m)
}

/// Plays `moves`, each parsed and checked, in `position`; the moves played, or the first bad
/// one with its number (the moves before it stay played).
pub fn play_moves<'a>(
    position: &mut Position,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Move>, BadMove> {
    let moves = moves.into_iter();
    let mut played = Vec::with_capacity(moves.size_hint().0);
    for (number, text) in (1..).zip(moves) {
        let m = play_move(position, text).map_err(|error| BadMove {
            number: Some(number),
            ..error
        })?;
        played.push(m);
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_move_says_its_number_and_why() {
        let mut position = Position::start();
        let error = play_moves(&mut position, ["a1:c3", "zz"]).unwrap_err();
        assert_eq!(error.number, Some(2));
        assert!(matches!(error.why, Why::NotAMove(_)));
        assert_eq!(
            error.to_string(),
            "move 2: 'zz' is not a move (expected <from>:<to>, like e4:g2, or a1:a1 to pass)"
        );
        assert_eq!(position.ply(), 1);
        // A game's end: every move after it is refused as such.
        let over: Position =
            "bbbbwwww/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx b 28 28 56"
                .parse()
                .unwrap();
        assert!(over.game_over());
        let error = play_moves(&mut over.clone(), ["a1:a1"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "move 1 'a1:a1': the game is already over after ply 56"
        );
        assert_eq!(play_moves(&mut Position::start(), []).unwrap(), []);
        let error = play_moves(&mut Position::start(), ["a1:c3", "e4:e9"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "move 2 'e4:e9': bad move: 'e9' is not a square (expected a file a-h then a rank \
             1-8, like e4)"
        );
    }
}

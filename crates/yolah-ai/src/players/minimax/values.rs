//! What the search's numbers mean: a finished game's value beyond every heuristic one, the
//! exact margin a proven value stands for, and the deepest ply.

use yolah_core::Position;

/// The value of a won game before its margin is added: above every heuristic value.
pub const WIN: i32 = 10_000;
/// Deepest ply a search reaches (a game has at most 121 plies).
pub const MAX_PLY: usize = 128;

/// The value of a finished game for the side to move.
pub fn terminal_value(position: &Position) -> i32 {
    let margin = margin(position);
    margin + WIN * margin.signum()
}

/// The side to move's points less the other side's: a finished game's final margin.
pub fn margin(position: &Position) -> i32 {
    let us = position.side_to_move();
    i32::from(position.score(us)) - i32::from(position.score(us.opponent()))
}

/// The final margin a proven value stands for, `None` for a heuristic value.
pub fn proven_margin(value: i32) -> Option<i32> {
    (value.abs() > WIN).then(|| value - WIN * value.signum())
}

//! `MoveList`: the legal moves of a position, on the stack.

use crate::mv::Move;
use std::ops::Deref;

/// The most moves a side can ever have. The book's 75 is the largest count seen in random
/// games plus two; a position typed by a user is not bound by that. Four pieces on an otherwise
/// empty board reach at most 100 squares (b3, c5, e4, f6), and other pieces or holes only
/// remove squares; `tests/move_list_capacity.rs` checks every placement.
pub const MAX_MOVES: usize = 100;

/// Up to [`MAX_MOVES`] moves, without allocation.
///
/// ```
/// use yolah_core::Position;
/// let mut moves = Position::start().moves();
/// assert_eq!(moves.len(), 56);
/// moves.retain(|m| m.from().to_string() == "a1");
/// assert_eq!(moves.len(), 14);
/// ```
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; the list must not be full.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Keeps the moves `keep` accepts, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    /// The moves as a mutable slice (to sort or shuffle them).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

//! The two halves of a queen's move — orthogonal and diagonal — computed the slow, obvious way.
//!
//! Table-independent (shared with `xtask`): the generator builds the attack tables from
//! [`Slider::reachable`], and the tests use it as the trusted reference for the magic lookups.

use crate::bitboard::{Bitboard, FILE_A, FILE_H, RANK_1, RANK_8};
use crate::square::Square;

/// Orthogonal (rook-like) or diagonal (bishop-like) movement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slider {
    /// Along ranks and files.
    Orthogonal,
    /// Along diagonals.
    Diagonal,
}

impl Slider {
    /// Both kinds, orthogonal first.
    pub const ALL: [Slider; 2] = [Slider::Orthogonal, Slider::Diagonal];

    /// The four (file, rank) steps of this kind of movement.
    pub const fn directions(self) -> [(i8, i8); 4] {
        match self {
            Slider::Orthogonal => [(0, 1), (0, -1), (1, 0), (-1, 0)],
            Slider::Diagonal => [(1, 1), (1, -1), (-1, -1), (-1, 1)],
        }
    }

    /// The squares a piece on `from` reaches by sliding until the board edge or the square
    /// before the first member of `blockers` (a blocker is never reached: Yolah has no captures).
    pub fn reachable(self, from: Square, blockers: Bitboard) -> Bitboard {
        let mut reached = Bitboard::EMPTY;
        for (df, dr) in self.directions() {
            let mut at = from;
            while let Some(next) = at.offset(df, dr) {
                if blockers.contains(next) {
                    break;
                }
                reached |= Bitboard::from_square(next);
                at = next;
            }
        }
        reached
    }

    /// The squares whose occupancy matters for a piece on `from`: its empty-board moves minus
    /// the board edges it moves towards (book §2.3.2). The last square of a ray never hides
    /// another square, so it needs no bit in the index.
    pub fn relevant_mask(self, from: Square) -> Bitboard {
        let edges = ((RANK_1 | RANK_8) & !Bitboard::rank(from.rank()))
            | ((FILE_A | FILE_H) & !Bitboard::file(from.file()));
        self.reachable(from, Bitboard::EMPTY) & !edges
    }
}

/// Every subset of `mask`, the empty set first (the "carry-rippler" enumeration).
pub fn subsets(mask: Bitboard) -> impl Iterator<Item = Bitboard> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask.0) & mask.0;
        next = if following == 0 {
            None
        } else {
            Some(following)
        };
        Some(Bitboard(current))
    })
}

//! Move generation (book §2.3.4) and the branchless random move (book listing 37).

use crate::attacks::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::move_list::MoveList;
use crate::mv::Move;
use crate::position::Position;
use rand::{Rng, RngExt};

impl Position {
    /// The legal moves of the side to move; just the pass when it has none.
    pub fn moves(&self) -> MoveList {
        self.moves_for(self.side_to_move())
    }

    /// The moves `color` would have here, whoever is to move; just the pass when it has none.
    pub fn moves_for(&self, color: Color) -> MoveList {
        let mut list = MoveList::new();
        let occupied = self.occupied();
        for from in self.pieces(color).squares() {
            for to in attacks(from, occupied).squares() {
                list.push(Move::new(from, to));
            }
        }
        if list.is_empty() {
            list.push(Move::PASS);
        }
        list
    }

    /// How many moves `color` has here (the pass not counted).
    #[inline]
    pub fn count_moves(&self, color: Color) -> u32 {
        count_moves(self.pieces(color), self.occupied())
    }

    /// A uniformly random legal move of the side to move, without building the move list:
    /// the four pieces' target sets are counted, one target index is drawn, and the
    /// set and square holding it are selected with comparisons instead of branches.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        let occupied = self.occupied();
        let pieces = self.pieces(self.side_to_move());
        let mut own = pieces;
        let targets = [(); 4].map(|()| attacks(own.pop_lowest(), occupied));
        let n0 = targets[0].count();
        let n01 = n0 + targets[1].count();
        let n012 = n01 + targets[2].count();
        let n = n012 + targets[3].count();
        if n == 0 {
            return Move::PASS;
        }
        let k = rng.random_range(0..n);
        let piece = usize::from(k >= n0) + usize::from(k >= n01) + usize::from(k >= n012);
        let before = [0, n0, n01, n012][piece];
        // The departure square is found again with `nth` rather than kept in an array: four
        // byte-sized stores read back as one word stall store forwarding (seen with perf).
        Move::new(pieces.nth(piece as u32), targets[piece].nth(k - before))
    }
}

/// The number of moves of the pieces `pieces` given the obstacles `occupied`.
#[inline]
pub(crate) fn count_moves(pieces: Bitboard, occupied: Bitboard) -> u32 {
    pieces
        .squares()
        .map(|from| attacks(from, occupied).count())
        .sum()
}

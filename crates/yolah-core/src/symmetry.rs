//! The board's eight symmetries (rotations and reflections of the square). Queens move the same
//! way on a transformed board, and the start position maps to itself or to its colour-consistent
//! images, so a game transformed square by square is a legal game with the same scores: eight
//! positions of training data for one.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;

/// One of the eight symmetries of the square: first swap files and ranks if `transpose`, then
/// mirror the files if `flip_files`, then the ranks if `flip_ranks`.
///
/// ```
/// use yolah_core::{Position, Symmetry};
/// let mut position = Position::start();
/// position.play("a1:c3".parse().unwrap());
/// for symmetry in Symmetry::ALL {
///     let image = symmetry.position(&position);
///     assert_eq!(image.moves().len(), position.moves().len());
///     assert_eq!(symmetry.inverse().position(&image), position);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    flip_files: bool,
    flip_ranks: bool,
}

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry {
        transpose: false,
        flip_files: false,
        flip_ranks: false,
    };

    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry::IDENTITY; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                transpose: i & 4 != 0,
                flip_files: i & 1 != 0,
                flip_ranks: i & 2 != 0,
            };
            i += 1;
        }
        all
    };

    /// The image of `square`.
    pub const fn square(self, square: Square) -> Square {
        let (mut file, mut rank) = (square.file(), square.rank());
        if self.transpose {
            (file, rank) = (rank, file);
        }
        if self.flip_files {
            file = 7 - file;
        }
        if self.flip_ranks {
            rank = 7 - rank;
        }
        match Square::from_coords(file, rank) {
            Some(image) => image,
            None => unreachable!(),
        }
    }

    /// The image of a set of squares.
    pub fn bitboard(self, bitboard: Bitboard) -> Bitboard {
        bitboard.squares().fold(Bitboard::EMPTY, |image, square| {
            Bitboard(image.0 | 1 << self.square(square).index())
        })
    }

    /// The image of a move; the pass stays the pass.
    pub const fn mv(self, m: Move) -> Move {
        if m.is_pass() {
            return m;
        }
        Move::new(self.square(m.from()), self.square(m.to()))
    }

    /// The image of a position: pieces and holes moved, side, scores and ply kept.
    pub fn position(self, position: &Position) -> Position {
        Position::from_parts(
            [
                self.bitboard(position.pieces(Color::Black)),
                self.bitboard(position.pieces(Color::White)),
            ],
            self.bitboard(position.holes()),
            [position.score(Color::Black), position.score(Color::White)],
            position.ply(),
        )
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        *Symmetry::ALL
            .iter()
            .find(|s| Square::all().all(|square| s.square(self.square(square)) == square))
            .expect("the symmetries form a group")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_distinct_symmetries_each_with_its_inverse() {
        let h1 = Square::from_coords(7, 0).unwrap();
        let b1 = Square::from_coords(1, 0).unwrap();
        let images: std::collections::HashSet<(Square, Square)> = Symmetry::ALL
            .iter()
            .map(|s| (s.square(h1), s.square(b1)))
            .collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            for square in Square::all() {
                assert_eq!(s.inverse().square(s.square(square)), square);
            }
        }
        assert_eq!(Symmetry::ALL[0], Symmetry::IDENTITY);
    }
}

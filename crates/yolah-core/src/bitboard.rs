//! `Bitboard`: a set of squares in one `u64`, bit `i` for square `i`.
//!
//! Table-independent (shared with `xtask`). Everything here is a `const fn` or a plain bit
//! operation; the one CPU-specific trick, `pdep`, has a portable fallback beside it.

use crate::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
///
/// ```
/// use yolah_core::{Bitboard, Square};
/// let corners = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::H8);
/// assert_eq!(corners.count(), 2);
/// assert!(corners.contains(Square::H8));
/// assert_eq!(corners.squares().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "h8"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

/// The a-file.
pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
/// The h-file.
pub const FILE_H: Bitboard = Bitboard(FILE_A.0 << 7);
/// Rank 1.
pub const RANK_1: Bitboard = Bitboard(0xff);
/// Rank 8.
pub const RANK_8: Bitboard = Bitboard(RANK_1.0 << 56);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(u64::MAX);

    /// The set holding only `square`.
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square.index())
    }

    /// The file (0 = a) as a set.
    pub const fn file(file: i8) -> Bitboard {
        Bitboard(FILE_A.0 << file)
    }

    /// The rank (0 = rank 1) as a set.
    pub const fn rank(rank: i8) -> Bitboard {
        Bitboard(RANK_1.0 << (8 * rank))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `square` is in the set.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.index()) != 0
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square; the set must not be empty.
    pub const fn lowest(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros())
    }

    /// Removes and returns the lowest square; the set must not be empty.
    pub fn pop_lowest(&mut self) -> Square {
        let square = self.lowest();
        self.0 &= self.0 - 1;
        square
    }

    /// Every square one king step away from a square of the set (the set itself excluded
    /// unless a member is next to another member).
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let not_a = !FILE_A.0;
        let not_h = !FILE_H.0;
        let horizontal = ((b & not_h) << 1) | ((b & not_a) >> 1);
        let row = b | horizontal;
        Bitboard(horizontal | (row << 8) | (row >> 8))
    }

    /// The `n`-th lowest square of the set (`n` from 0); `n` must be below `self.count()`.
    #[inline]
    pub fn nth(self, n: u32) -> Square {
        debug_assert!(n < self.count());
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            self.nth_pdep(n)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            self.nth_portable(n)
        }
    }

    /// `nth` with the BMI2 `pdep` instruction: deposit a single bit at the `n`-th set bit.
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    #[inline]
    pub fn nth_pdep(self, n: u32) -> Square {
        // SAFETY: this function is compiled only when the target has BMI2.
        let bit = unsafe { core::arch::x86_64::_pdep_u64(1 << n, self.0) };
        Square::from_index_unchecked(bit.trailing_zeros())
    }

    /// `nth` without special instructions: clear the `n` lowest bits, take the lowest left.
    #[inline]
    pub fn nth_portable(self, n: u32) -> Square {
        let mut b = self.0;
        for _ in 0..n {
            b &= b - 1;
        }
        Square::from_index_unchecked(b.trailing_zeros())
    }

    /// The squares of the set, lowest first.
    pub fn squares(self) -> Squares {
        Squares(self)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Squares(Bitboard);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lowest())
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

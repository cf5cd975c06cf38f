//! The magic perfect hash (book §2.3.1–2.3.2): `((occupied & mask) * magic) >> shift`.
//!
//! Table-independent (shared with `xtask`), so the generator fills the tables with exactly the
//! index formula the engine looks them up with.

use crate::bitboard::Bitboard;

/// Where one square's attack sets live in a table and how to hash an occupancy to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The relevant occupancy squares.
    pub mask: u64,
    /// The multiplier.
    pub magic: u64,
    /// Start of this square's slice of the attack table.
    pub offset: u32,
    /// `64 - popcount(mask)`.
    pub shift: u32,
}

impl Magic {
    /// The table index for the occupancy `occupied`.
    #[inline(always)]
    pub const fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize + self.local_index(occupied)
    }

    /// The index inside this square's slice.
    #[inline(always)]
    pub const fn local_index(&self, occupied: Bitboard) -> usize {
        ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

//! Queen moves by magic lookup in the tables generated into `tables/` (book §2.3.2).
//!
//! Everything here is `static` data built at compile time: no initialisation function, no lazy
//! statics.

use crate::bitboard::Bitboard;
use crate::magic::Magic;
use crate::square::Square;

#[allow(clippy::unreadable_literal, missing_docs)]
mod generated {
    include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/magics.rs"));
}
pub use generated::{D_MAGIC, D_TABLE_SIZE, O_MAGIC, O_TABLE_SIZE};

/// Orthogonal attack sets, 102,400 entries.
#[allow(clippy::unreadable_literal)]
static ORTHOGONAL_ATTACKS: [u64; O_TABLE_SIZE] = include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/orthogonal_attacks.rs"
));

/// Diagonal attack sets, 5,248 entries.
#[allow(clippy::unreadable_literal)]
static DIAGONAL_ATTACKS: [u64; D_TABLE_SIZE] = include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/diagonal_attacks.rs"
));

/// Both magics of a square side by side, so one square's lookups touch one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct SquareMagics {
    /// For orthogonal moves.
    pub orthogonal: Magic,
    /// For diagonal moves.
    pub diagonal: Magic,
}

/// The magics of every square, assembled at compile time from the generated arrays.
pub static MAGICS: [SquareMagics; 64] = {
    use generated::{D_MASK, D_OFFSET, D_SHIFT, O_MASK, O_OFFSET, O_SHIFT};
    let mut out = [SquareMagics {
        orthogonal: Magic {
            mask: 0,
            magic: 0,
            offset: 0,
            shift: 0,
        },
        diagonal: Magic {
            mask: 0,
            magic: 0,
            offset: 0,
            shift: 0,
        },
    }; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = SquareMagics {
            orthogonal: Magic {
                mask: O_MASK[i],
                magic: O_MAGIC[i],
                offset: O_OFFSET[i],
                shift: O_SHIFT[i],
            },
            diagonal: Magic {
                mask: D_MASK[i],
                magic: D_MAGIC[i],
                offset: D_OFFSET[i],
                shift: D_SHIFT[i],
            },
        };
        i += 1;
    }
    out
};

// Every square's slice `offset .. offset + 2^(64 - shift)` lies inside its table, and the
// shifts leave at most 12 index bits. Checked at compile time, so `attacks` may index without
// bounds checks: `local_index` is below `2^(64 - shift)` by construction.
const _: () = {
    let mut i = 0;
    while i < 64 {
        let (o, d) = (&MAGICS[i].orthogonal, &MAGICS[i].diagonal);
        assert!(o.shift >= 52 && o.shift < 64 && d.shift >= 52 && d.shift < 64);
        assert!(o.offset as usize + (1 << (64 - o.shift)) <= O_TABLE_SIZE);
        assert!(d.offset as usize + (1 << (64 - d.shift)) <= D_TABLE_SIZE);
        i += 1;
    }
};

/// The squares a piece on `from` can move to: along its eight lines, up to the board edge or
/// the first occupied square, never onto one (`occupied` holds pieces and holes).
///
/// ```
/// use yolah_core::{Bitboard, Square, attacks};
/// // A queen alone on a1 reaches its rank, its file and its diagonal.
/// assert_eq!(attacks(Square::A1, Bitboard(1)).count(), 21);
/// ```
#[inline(always)]
pub fn attacks(from: Square, occupied: Bitboard) -> Bitboard {
    let m = &MAGICS[from.index()];
    // SAFETY: the compile-time check above bounds both indices by the table sizes.
    let (orthogonal, diagonal) = unsafe {
        (
            *ORTHOGONAL_ATTACKS.get_unchecked(m.orthogonal.index(occupied)),
            *DIAGONAL_ATTACKS.get_unchecked(m.diagonal.index(occupied)),
        )
    };
    // The masks leave out the edges, so an occupied edge square can show up: drop it.
    Bitboard((orthogonal | diagonal) & !occupied.0)
}

//! Zobrist keys, fixed at compile time (nothing is initialised at start-up).
//!
//! The hash covers everything that decides the rest of the game and its result: both sides'
//! pieces, the holes, the side to move and the score split. The ply count is left out: two
//! positions that differ only by passes play on identically.

/// Keys for a piece of each colour on each square.
pub(crate) static PIECE: [[u64; 64]; 2] = [keys::<64>(1), keys::<64>(2)];
/// Keys for a hole on each square.
pub(crate) static HOLE: [u64; 64] = keys::<64>(3);
/// Keys for each colour's score (0..=64).
pub(crate) static SCORE: [[u64; 65]; 2] = [keys::<65>(4), keys::<65>(5)];
/// Toggled when white is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix64(0x5eed_0000_0000_0006);

/// FNV-1a, 64 bits: a small, stable hash of bytes (config fingerprints in result files).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The splitmix64 finaliser: a well-mixed 64-bit value from any input (also used to derive
/// seeds).
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn keys<const N: usize>(stream: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix64((stream << 32) | i as u64);
        i += 1;
    }
    out
}

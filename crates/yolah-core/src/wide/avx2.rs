//! Four games to a register: AVX2, BMI2 for `pdep`. What AVX2 lacks is built from what it
//! has: per-lane popcounts from a nibble table (`vpshufb`) summed by `vpsadbw`, the bit
//! reversal from a byte shuffle and two nibble tables, the lanes' flags as all-ones lanes.

use super::kernel::{self, MAX_LANES, Simd};
use crate::tally::Tally;
use crate::{Move, Outcome, Position};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_blendv_epi8, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64,
    _mm256_loadu_si256, _mm256_movemask_pd, _mm256_mul_epu32, _mm256_or_si256, _mm256_sad_epu8,
    _mm256_set_epi64x, _mm256_set1_epi8, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sllv_epi64, _mm256_srli_epi16, _mm256_srlv_epi64,
    _mm256_storeu_si256, _mm256_sub_epi64, _mm256_xor_si256,
};

/// Whether this CPU has the features.
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2")
}

/// [`kernel::play`] compiled for these features.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) fn play<const TRACE: bool>(
    games: u64,
    seed: u64,
    traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
) -> Tally {
    kernel::play::<Avx2, TRACE>(games, seed, traced)
}

/// [`kernel::interleaved`] compiled for these features.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) fn interleaved<T: Copy>(
    seed: u64,
    next: &mut dyn FnMut() -> Option<(T, Position)>,
    done: &mut dyn FnMut(T, Outcome),
) {
    kernel::interleaved::<Avx2, T>(seed, next, done);
}

/// The instruction set, for [`Simd`].
pub(super) struct Avx2;

/// The low nibble of each byte of `a`, and the high one, each in its byte's low four bits.
#[inline(always)]
fn nibbles(a: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is available: `nibbles` is inlined only into the impl below (see its note).
    unsafe {
        let low = _mm256_set1_epi8(0x0f);
        (
            _mm256_and_si256(a, low),
            _mm256_and_si256(_mm256_srli_epi16::<4>(a), low),
        )
    }
}

/// A byte table for `vpshufb`: the sixteen bytes `low` (bytes 0–7) and `high` (8–15), little
/// endian, in both halves of the register.
#[inline(always)]
fn repeat(low: u64, high: u64) -> __m256i {
    let (low, high) = (low.cast_signed(), high.cast_signed());
    // SAFETY: AVX2 is available: `repeat` is inlined only into the impl below (see its note).
    unsafe { _mm256_set_epi64x(high, low, high, low) }
}

// SAFETY (every `unsafe` below): these functions are inlined only into `play` and
// `interleaved` above, which are compiled for the features and called after `available`.
impl Simd for Avx2 {
    const LANES: usize = 4;
    type V = __m256i;
    type M = __m256i;

    #[inline(always)]
    fn splat(x: u64) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_set1_epi64x(x.cast_signed()) }
    }
    #[inline(always)]
    fn load(x: &[u64; MAX_LANES]) -> __m256i {
        // SAFETY: also reads the first 32 of the 64 bytes of `x`.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(x: __m256i) -> [u64; MAX_LANES] {
        let mut out = [0u64; MAX_LANES];
        // SAFETY: also writes the first 32 of the 64 bytes of `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), x) };
        out
    }
    #[inline(always)]
    fn add(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn and(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    fn or(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    fn xor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn andnot(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_andnot_si256(a, b) }
    }
    #[inline(always)]
    fn shl(a: __m256i, n: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_sllv_epi64(a, n) }
    }
    #[inline(always)]
    fn shr(a: __m256i, n: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_srlv_epi64(a, n) }
    }
    /// Each nibble's count from a table, the bytes of a lane summed against zero.
    #[inline(always)]
    fn popcnt(a: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe {
            let table = repeat(0x0302_0201_0201_0100, 0x0403_0302_0302_0201);
            let (low, high) = nibbles(a);
            let bytes = _mm256_add_epi8(
                _mm256_shuffle_epi8(table, low),
                _mm256_shuffle_epi8(table, high),
            );
            _mm256_sad_epu8(bytes, _mm256_setzero_si256())
        }
    }
    #[inline(always)]
    fn mul32(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_mul_epu32(a, b) }
    }
    /// Bytes reversed by a shuffle; each byte's bits from its nibbles' reversals, swapped.
    #[inline(always)]
    fn reverse(a: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe {
            let bytes = repeat(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
            let flipped = _mm256_shuffle_epi8(a, bytes);
            // A nibble's bits reversed, in the high nibble and in the low one.
            let high = repeat(0xe060_a020_c040_8000, 0xf070_b030_d050_9010);
            let low = repeat(0x0e06_0a02_0c04_0800, 0x0f07_0b03_0d05_0901);
            let (lo, hi) = nibbles(flipped);
            _mm256_or_si256(_mm256_shuffle_epi8(high, lo), _mm256_shuffle_epi8(low, hi))
        }
    }
    #[inline(always)]
    fn eq(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_cmpeq_epi64(a, b) }
    }
    /// Signed: the lanes compared here are below 2⁶³.
    #[inline(always)]
    fn gt(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_cmpgt_epi64(a, b) }
    }
    #[inline(always)]
    fn testn(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_cmpeq_epi64(_mm256_and_si256(a, b), _mm256_setzero_si256()) }
    }
    #[inline(always)]
    fn blend(m: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_blendv_epi8(a, b, m) }
    }
    #[inline(always)]
    fn mask(bits: u8) -> __m256i {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe {
            let lane_bits = _mm256_set_epi64x(8, 4, 2, 1);
            let spread = _mm256_and_si256(Self::splat(u64::from(bits)), lane_bits);
            _mm256_cmpeq_epi64(spread, lane_bits)
        }
    }
    #[inline(always)]
    fn bits(m: __m256i) -> u8 {
        // SAFETY: AVX2 is available: see the note above the impl.
        unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(m)) as u8 }
    }
    #[inline(always)]
    fn m_and(a: __m256i, b: __m256i) -> __m256i {
        Self::and(a, b)
    }
    #[inline(always)]
    fn m_or(a: __m256i, b: __m256i) -> __m256i {
        Self::or(a, b)
    }
    #[inline(always)]
    fn m_xor(a: __m256i, b: __m256i) -> __m256i {
        Self::xor(a, b)
    }
    #[inline(always)]
    fn m_andnot(a: __m256i, b: __m256i) -> __m256i {
        Self::andnot(b, a)
    }
}

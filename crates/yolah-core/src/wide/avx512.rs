//! Eight games to a register: AVX-512 F, DQ, BW and VPOPCNTDQ, GFNI for the bit reversal,
//! BMI2 for `pdep`; mask registers for the lanes' flags.

use super::kernel::{self, MAX_LANES, Simd};
use crate::tally::Tally;
use crate::{Move, Outcome, Position};
use std::arch::x86_64::{
    __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_cmpeq_epi64_mask, _mm512_cmpgt_epu64_mask, _mm512_gf2p8affine_epi64_epi8,
    _mm512_loadu_si512, _mm512_mask_blend_epi64, _mm512_mul_epu32, _mm512_or_si512,
    _mm512_popcnt_epi64, _mm512_set_epi8, _mm512_set1_epi64, _mm512_shuffle_epi8,
    _mm512_sllv_epi64, _mm512_srlv_epi64, _mm512_storeu_si512, _mm512_sub_epi64,
    _mm512_testn_epi64_mask, _mm512_xor_si512,
};

/// Whether this CPU has the features.
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vpopcntdq")
        && std::is_x86_feature_detected!("gfni")
        && std::is_x86_feature_detected!("bmi2")
}

/// [`kernel::play`] compiled for these features.
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
pub(super) fn play<const TRACE: bool>(
    games: u64,
    seed: u64,
    traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
) -> Tally {
    kernel::play::<Avx512, TRACE>(games, seed, traced)
}

/// [`kernel::interleaved`] compiled for these features.
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
pub(super) fn interleaved<T: Copy>(
    seed: u64,
    next: &mut dyn FnMut() -> Option<(T, Position)>,
    done: &mut dyn FnMut(T, Outcome),
) {
    kernel::interleaved::<Avx512, T>(seed, next, done);
}

/// The instruction set, for [`Simd`].
pub(super) struct Avx512;

// SAFETY (every `unsafe` below): these functions are inlined only into `play` and
// `interleaved` above, which are compiled for the features and called after `available`.
impl Simd for Avx512 {
    const LANES: usize = 8;
    type V = __m512i;
    type M = __mmask8;

    #[inline(always)]
    fn splat(x: u64) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_set1_epi64(x.cast_signed()) }
    }
    #[inline(always)]
    fn load(x: &[u64; MAX_LANES]) -> __m512i {
        // SAFETY: also reads exactly the 64 bytes of `x`.
        unsafe { _mm512_loadu_si512(x.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(x: __m512i) -> [u64; MAX_LANES] {
        let mut out = [0u64; MAX_LANES];
        // SAFETY: also writes exactly the 64 bytes of `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), x) };
        out
    }
    #[inline(always)]
    fn add(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn and(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn or(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    fn xor(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn andnot(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_andnot_si512(a, b) }
    }
    #[inline(always)]
    fn shl(a: __m512i, n: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_sllv_epi64(a, n) }
    }
    #[inline(always)]
    fn shr(a: __m512i, n: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_srlv_epi64(a, n) }
    }
    #[inline(always)]
    fn popcnt(a: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_popcnt_epi64(a) }
    }
    #[inline(always)]
    fn mul32(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_mul_epu32(a, b) }
    }
    /// Bytes reversed by a shuffle, bits within bytes by a GF(2) affine map.
    #[inline(always)]
    fn reverse(a: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe {
            let bytes = _mm512_set_epi8(
                8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
            );
            let flipped = _mm512_shuffle_epi8(a, bytes);
            _mm512_gf2p8affine_epi64_epi8::<0>(flipped, Self::splat(0x8040_2010_0804_0201))
        }
    }
    #[inline(always)]
    fn eq(a: __m512i, b: __m512i) -> __mmask8 {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_cmpeq_epi64_mask(a, b) }
    }
    #[inline(always)]
    fn gt(a: __m512i, b: __m512i) -> __mmask8 {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_cmpgt_epu64_mask(a, b) }
    }
    #[inline(always)]
    fn testn(a: __m512i, b: __m512i) -> __mmask8 {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_testn_epi64_mask(a, b) }
    }
    #[inline(always)]
    fn blend(m: __mmask8, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 is available: see the note above the impl.
        unsafe { _mm512_mask_blend_epi64(m, a, b) }
    }
    #[inline(always)]
    fn mask(bits: u8) -> __mmask8 {
        bits
    }
    #[inline(always)]
    fn bits(m: __mmask8) -> u8 {
        m
    }
    #[inline(always)]
    fn m_and(a: __mmask8, b: __mmask8) -> __mmask8 {
        a & b
    }
    #[inline(always)]
    fn m_or(a: __mmask8, b: __mmask8) -> __mmask8 {
        a | b
    }
    #[inline(always)]
    fn m_xor(a: __mmask8, b: __mmask8) -> __mmask8 {
        a ^ b
    }
    #[inline(always)]
    fn m_andnot(a: __mmask8, b: __mmask8) -> __mmask8 {
        a & !b
    }
}

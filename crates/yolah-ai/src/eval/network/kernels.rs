//! The inference's hot loops, chosen at run time for the CPU: the accumulator's update by a
//! move (three rows of `i16`) and the second layer on the first.
//!
//! The second layer reads the first as `u8` and weighs it with `i8`, as x86's byte dot
//! products want: the clipped accumulator (`0..=QA`) halved, rounded half to even, to
//! `0..=QH` (128, so 1.0 is 127.5), and each unit's weights scaled so the largest is ±[`QW`]
//! (127) with a float scale per unit, so no weight is clipped. Each group of four inputs
//! is a 32-bit word; the weights are stored group by group, each group's four weights of
//! every unit side by side ([`SecondLayer`]), so one word broadcast against one register
//! of weights gives 8 (AVX2) or 16 (AVX-512) units their four products at once, with no
//! sum across a register at the end; and a group whose four inputs are all 0 is skipped
//! (clipped to 0: 86% of the shipped network's inputs, 55% of its groups, on the positions
//! of random games). The groups not 0 are listed by vector code too: AVX-512 compresses
//! the indices of sixteen groups at once, AVX2 looks eight groups' offsets up in a table.
//! The products: AVX2 `vpmaddubsw` (`u8 × i8`, pairs added in `i16`)
//! then `vpmaddwd` by 1 (pairs added in `i32`); AVX-512BW the same on 512 bits; with
//! AVX-512 VNNI one `vpdpbusd` does both. `vpmaddubsw` saturates its pair sums, but here
//! they are at most `2 × 128 × 127 = 32 512 < 32 767`, so it never does: the sums are
//! exact, and an `i32` sum of at most 2048 × 128 × 127 cannot overflow.
//!
//! Each kernel is compiled three (or four) times: for AVX-512 (with VNNI or without), for
//! AVX2 and for any x86-64 or other CPU (the portable fallback, plain loops on the same
//! integers), so one binary is fast everywhere and a build without `target-cpu=native`
//! loses nothing where the CPU has the instructions. The integer sums are exact, so every
//! level gives the same answer bit for bit; a test checks each level the machine runs
//! against the portable one. The machine the code was written on has AVX2 but no AVX-512:
//! the AVX-512 kernels were compiled there but not run (the test runs them where they can).

use super::shape::{MAX_HIDDEN, MAX_LAYER};
use std::sync::OnceLock;

/// Scale of the accumulator: a clipped-ReLU output of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The largest input of the second layer: `clamp(acc, 0, QA)` halved, rounded half to even.
pub const QH: i32 = 128;
/// The largest magnitude of a second-layer weight on the first as `i8`: each unit's weights
/// are scaled so that the largest is `QW`.
pub const QW: i32 = 127;
/// The second layer's units are stored in blocks of this many (one AVX-512 register of
/// `i32`), the last padded with zero weights.
pub const UNIT_BLOCK: usize = 16;

/// The instructions a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Any CPU: what the build targets.
    Portable,
    /// x86-64 with AVX2.
    Avx2,
    /// x86-64 with AVX-512 (F and BW).
    Avx512,
    /// x86-64 with AVX-512 (F and BW) and its byte dot product (VNNI).
    Avx512Vnni,
}

impl Level {
    /// Every level this CPU can run, the portable one first.
    pub fn available() -> Vec<Level> {
        let mut levels = vec![Level::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(Level::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                levels.push(Level::Avx512);
                if std::arch::is_x86_feature_detected!("avx512vnni") {
                    levels.push(Level::Avx512Vnni);
                }
            }
        }
        levels
    }

    /// The best level this CPU runs (detected once), unless `YOLAH_SIMD` names another it
    /// runs (`portable`, `avx2`, `avx512`, `avx512vnni`: for measuring them against each
    /// other).
    pub fn detected() -> Level {
        static LEVEL: OnceLock<Level> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            let available = Level::available();
            let asked = std::env::var("YOLAH_SIMD").ok().and_then(|name| {
                available
                    .iter()
                    .copied()
                    .find(|level| level.name() == name.trim())
            });
            asked.unwrap_or(*available.last().expect("the portable level"))
        })
    }

    /// Its name, as `YOLAH_SIMD` and the reports say it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
            Level::Avx512Vnni => "avx512vnni",
        }
    }
}

/// The second layer's weights on the first, as the kernels read them: `i8`, each unit's
/// scaled so its largest magnitude is [`QW`], with a float per unit to undo that scale.
#[derive(Clone, Debug, PartialEq)]
pub struct SecondLayer {
    hidden: usize,
    units: usize,
    /// `units` rounded up to a multiple of [`UNIT_BLOCK`].
    padded: usize,
    /// Group-major: for each group of four inputs, `padded` units' four weights (input
    /// `4g + k` of unit `u` at `(g · padded + u) · 4 + k`).
    weights: Vec<i8>,
    /// For each unit, what one unit of its integer sum is worth in the float network.
    scales: Vec<f32>,
}

impl SecondLayer {
    /// The layer of `units` units on `hidden` inputs (a multiple of 4) from its float
    /// weights, unit-major (`hidden` for each unit, as the file holds them).
    pub fn new(hidden: usize, units: usize, rows: &[f32]) -> SecondLayer {
        assert!(
            hidden.is_multiple_of(4) && hidden <= MAX_HIDDEN,
            "{hidden} inputs"
        );
        assert!(
            units <= MAX_HIDDEN && rows.len() == hidden * units,
            "{units} units"
        );
        let padded = units.next_multiple_of(UNIT_BLOCK);
        let mut weights = vec![0i8; hidden * padded];
        let mut scales = vec![0.0f32; padded];
        for (u, row) in rows.chunks_exact(hidden).enumerate() {
            let largest = row.iter().fold(0.0f32, |m, w| m.max(w.abs()));
            if largest == 0.0 {
                continue;
            }
            let step = largest / QW as f32;
            // One unit of the sum: a weight step times an input step (1.0 is QA / 2).
            scales[u] = step * (2.0 / QA as f32);
            for (i, &w) in row.iter().enumerate() {
                weights[(i / 4 * padded + u) * 4 + i % 4] =
                    (w / step).round().clamp(-QW as f32, QW as f32) as i8;
            }
        }
        SecondLayer {
            hidden,
            units,
            padded,
            weights,
            scales,
        }
    }

    /// Its units.
    pub fn units(&self) -> usize {
        self.units
    }

    /// Its units rounded up to a whole block: the length [`byte_sums`] writes.
    pub fn padded(&self) -> usize {
        self.padded
    }

    /// What one unit of each unit's integer sum is worth when an input of 1.0 is `QA / 2`.
    pub fn scales(&self) -> &[f32] {
        &self.scales[..self.units]
    }
}

/// A matrix of `i8` rows for dot products with `u8` vectors: each row scaled so that its
/// largest magnitude is [`QW`], with a float per row to undo that scale.
#[derive(Clone, Debug, PartialEq)]
pub struct ByteRows {
    width: usize,
    weights: Vec<i8>,
    scales: Vec<f32>,
}

impl ByteRows {
    /// The rows of `width` floats each in `rows`, row-major.
    pub fn new(width: usize, rows: &[f32]) -> ByteRows {
        assert!(
            width > 0 && rows.len().is_multiple_of(width),
            "{width} wide"
        );
        let mut weights = vec![0i8; rows.len()];
        let mut scales = vec![0.0f32; rows.len() / width];
        for ((row, out), scale) in rows
            .chunks_exact(width)
            .zip(weights.chunks_exact_mut(width))
            .zip(&mut scales)
        {
            let largest = row.iter().fold(0.0f32, |m, w| m.max(w.abs()));
            if largest == 0.0 {
                continue;
            }
            let step = largest / QW as f32;
            *scale = step;
            for (o, &w) in out.iter_mut().zip(row) {
                *o = (w / step).round().clamp(-QW as f32, QW as f32) as i8;
            }
        }
        ByteRows {
            width,
            weights,
            scales,
        }
    }

    /// A row's weight step: its float weights are about its `i8` ones times this.
    pub fn scale(&self, row: usize) -> f32 {
        self.scales[row]
    }
}

/// `layer`'s integer sums on `h`, its inputs already bytes of at most [`QH`] (one for each of
/// the layer's inputs), into `sums` (at least [`SecondLayer::padded`] long, overwritten), the
/// groups of four inputs all 0 skipped, at `level` (one [`Level::available`] lists).
pub fn byte_sums(level: Level, h: &[u8], layer: &SecondLayer, sums: &mut [i32]) {
    assert!(h.len() == layer.hidden && sums.len() >= layer.padded);
    let sums = &mut sums[..layer.padded];
    sums.fill(0);
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512Vnni => unsafe { byte_sums_vnni(h, layer, sums) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx512 => unsafe { byte_sums_avx512(h, layer, sums) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { byte_sums_avx2(h, layer, sums) },
        _ => byte_sums_with(h, layer, sums, groups_portable, sums_portable),
    }
}

/// [`byte_sums`] with `find` for the groups and `kernel` for the sums.
#[inline(always)]
fn byte_sums_with(
    h: &[u8],
    layer: &SecondLayer,
    sums: &mut [i32],
    find: impl Fn(&[u8], &mut [u16]) -> usize,
    kernel: impl Fn(&[u8], &[u16], &SecondLayer, &mut [i32]),
) {
    let mut groups = [0u16; MAX_HIDDEN / 4];
    let count = find(h, &mut groups);
    kernel(h, &groups[..count], layer, sums);
}

/// The dot product of `x` (bytes of at most [`QH`]) with each row of `rows` listed in
/// `which`, in order, into `out` (as long as `which`), at `level` (one [`Level::available`]
/// lists).
pub fn byte_dots(level: Level, x: &[u8], rows: &ByteRows, which: &[usize], out: &mut [i32]) {
    assert!(x.len() == rows.width && out.len() == which.len());
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512Vnni => unsafe { byte_dots_vnni(x, rows, which, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx512 => unsafe { byte_dots_avx512(x, rows, which, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { byte_dots_avx2(x, rows, which, out) },
        _ => byte_dots_with(x, rows, which, out, dot_portable),
    }
}

/// [`byte_dots`] with `dot` for one row.
#[inline(always)]
fn byte_dots_with(
    x: &[u8],
    rows: &ByteRows,
    which: &[usize],
    out: &mut [i32],
    dot: impl Fn(&[u8], &[i8]) -> i32,
) {
    let w = rows.width;
    for (o, &r) in out.iter_mut().zip(which) {
        *o = dot(x, &rows.weights[r * w..][..w]);
    }
}

/// `x · row`, plain loops.
#[inline(always)]
fn dot_portable(x: &[u8], row: &[i8]) -> i32 {
    x.iter()
        .zip(row)
        .map(|(&a, &b)| i32::from(a) * i32::from(b))
        .sum()
}

/// `to = from + plus_a + plus_b − minus` (a move: the piece's new square and the hole in,
/// its old square out), wrapping as `i16` does (so the sums are exact whatever the order).
/// The sizes that ship are sliced to their constant length, so that once inlined the loop's
/// length is known.
#[inline(always)]
fn update_body(from: &[i16], to: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    match to.len() {
        n @ (128 | 256 | 512 | 1024) => update_n(from, &mut to[..n], plus_a, plus_b, minus),
        _ => update_n(from, to, plus_a, plus_b, minus),
    }
}

#[inline(always)]
fn update_n(from: &[i16], to: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    let n = to.len();
    let (from, plus_a, plus_b, minus) = (&from[..n], &plus_a[..n], &plus_b[..n], &minus[..n]);
    for i in 0..n {
        to[i] = from[i]
            .wrapping_add(plus_a[i])
            .wrapping_add(plus_b[i])
            .wrapping_sub(minus[i]);
    }
}

/// The second layer's inputs: `clamp(acc + side, 0, QA)` (the side's row when white is to
/// move; the sum fits `i16`, see `MAX_INPUT_WEIGHT`) halved, rounded half to even (so the
/// halving adds no bias), into `h`, of the first layer's size.
#[inline(always)]
fn inputs(acc: &[i16], side: Option<&[i16]>, h: &mut [u8]) {
    let n = h.len();
    let acc = &acc[..n];
    let halve = |x: i16| {
        let x = x.clamp(0, QA as i16);
        ((x + ((x >> 1) & 1)) >> 1) as u8
    };
    match side {
        Some(side) => {
            let side = &side[..n];
            for i in 0..n {
                h[i] = halve(acc[i].wrapping_add(side[i]));
            }
        }
        None => {
            for i in 0..n {
                h[i] = halve(acc[i]);
            }
        }
    }
}

/// The groups of four inputs of `h` not all 0, in order, into `groups` (at least
/// `h.len() / 4` long). Returns how many groups that is.
#[inline(always)]
fn groups_portable(h: &[u8], groups: &mut [u16]) -> usize {
    groups_from(0, h, groups)
}

/// The same for inputs `h` that are the first layer's from group `first` on: the groups'
/// numbers count from `first`.
#[inline(always)]
fn groups_from(first: usize, h: &[u8], groups: &mut [u16]) -> usize {
    let mut count = 0;
    for (g, word) in h.chunks_exact(4).enumerate() {
        groups[count] = (first + g) as u16;
        count += usize::from(word != [0; 4]);
    }
    count
}

/// The four inputs of group `g` as one little-endian word (input `4g` in the low byte).
#[inline(always)]
fn word(h: &[u8], g: u16) -> u32 {
    let g = usize::from(g) * 4;
    u32::from_le_bytes([h[g], h[g + 1], h[g + 2], h[g + 3]])
}

/// The integer sums of every (padded) unit on the groups listed, plain loops.
#[inline(always)]
fn sums_portable(h: &[u8], groups: &[u16], layer: &SecondLayer, sums: &mut [i32]) {
    let p = layer.padded;
    let sums = &mut sums[..p];
    for &g in groups {
        let at = usize::from(g) * 4;
        let x = [h[at], h[at + 1], h[at + 2], h[at + 3]].map(i32::from);
        let weights = &layer.weights[at * p..(at + 4) * p];
        for (sum, w) in sums.iter_mut().zip(weights.chunks_exact(4)) {
            *sum += x[0] * i32::from(w[0])
                + x[1] * i32::from(w[1])
                + x[2] * i32::from(w[2])
                + x[3] * i32::from(w[3]);
        }
    }
}

/// The second layer on the first with `find` for the groups not all 0 and `sums` for the
/// integer sums: inputs, groups, sums, and each real unit's sum at its scale added to `z`.
#[inline(always)]
fn second_with(
    acc: &[i16],
    side: Option<&[i16]>,
    layer: &SecondLayer,
    z: &mut [f32],
    find: impl Fn(&[u8], &mut [u16]) -> usize,
    kernel: impl Fn(&[u8], &[u16], &SecondLayer, &mut [i32]),
) {
    let mut sums = [0i32; MAX_LAYER];
    // The sizes that ship get buffers of their own size (loops of known length once
    // inlined), others slices of the largest.
    match layer.hidden {
        n @ (128 | 256 | 512 | 1024) => {
            let mut h = [0u8; 1024];
            let mut groups = [0u16; 1024 / 4];
            inputs(acc, side, &mut h[..n]);
            let count = find(&h[..n], &mut groups);
            kernel(&h[..n], &groups[..count], layer, &mut sums);
        }
        n => {
            let mut h = [0u8; MAX_HIDDEN];
            let mut groups = [0u16; MAX_HIDDEN / 4];
            inputs(acc, side, &mut h[..n]);
            let count = find(&h[..n], &mut groups);
            kernel(&h[..n], &groups[..count], layer, &mut sums);
        }
    }
    for ((z, &sum), &scale) in z.iter_mut().zip(&sums).zip(&layer.scales[..layer.units]) {
        *z += sum as f32 * scale;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The second layer's sums with x86's byte dot products, in passes over 32 units (the
    //! last pass 16 if that is what is left), one register of `i32` sums for each 8 (AVX2)
    //! or 16 (AVX-512) units of the pass.
    // SAFETY (every `unsafe` below): the loads and stores read and write inside slices
    // whose lengths were checked just before (`weights[at..at + 32 × R]`, `sums[u..u + 32]`).

    use crate::eval::network::kernels::{SecondLayer, dot_portable, groups_from, word};
    use std::arch::x86_64::{
        __m512i, _mm_add_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_set1_epi16,
        _mm_shuffle_epi32, _mm_storeu_si128, _mm256_add_epi32, _mm256_castsi256_ps,
        _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_movemask_ps, _mm256_set1_epi16,
        _mm256_set1_epi32, _mm256_setzero_si256, _mm256_storeu_si256, _mm512_add_epi32,
        _mm512_cvtepi32_epi16, _mm512_dpbusd_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
        _mm512_maddubs_epi16, _mm512_maskz_compress_epi32, _mm512_reduce_add_epi32,
        _mm512_set1_epi16, _mm512_set1_epi32, _mm512_setr_epi32, _mm512_setzero_si512,
        _mm512_storeu_si512, _mm512_test_epi32_mask,
    };

    /// For each set of eight groups (a byte, bit `k` for group `k`), the offsets of those
    /// in it, in order, then zeros.
    static OFFSETS: [[u16; 8]; 256] = {
        let mut table = [[0u16; 8]; 256];
        let mut mask = 0;
        while mask < 256 {
            let (mut k, mut count) = (0, 0);
            while k < 8 {
                if mask & (1 << k) != 0 {
                    table[mask][count] = k as u16;
                    count += 1;
                }
                k += 1;
            }
            mask += 1;
        }
        table
    };

    /// The groups not all 0 by AVX2: eight groups a register, their mask's offsets from
    /// [`OFFSETS`] stored as eight `u16` (those past the count are overwritten by the next
    /// register's), the last groups by plain code.
    #[target_feature(enable = "avx2")]
    pub(super) fn groups_avx2(h: &[u8], groups: &mut [u16]) -> usize {
        let mut count = 0;
        let chunks = h.chunks_exact(32);
        let tail = chunks.remainder();
        for (c, chunk) in chunks.enumerate() {
            // SAFETY: `chunk` is 32 bytes: the load reads exactly it.
            let words = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
            let zero = _mm256_cmpeq_epi32(words, _mm256_setzero_si256());
            let mask = !_mm256_movemask_ps(_mm256_castsi256_ps(zero)) as usize & 0xff;
            // SAFETY: a row of `OFFSETS` is eight `u16`, the 16 bytes the load reads.
            let offsets = unsafe { _mm_loadu_si128(OFFSETS[mask].as_ptr().cast()) };
            let indices = _mm_add_epi16(offsets, _mm_set1_epi16((8 * c) as i16));
            // At most 8 × (chunks so far) groups are counted, so the 8 slots from `count`
            // lie within the first `h.len() / 4`.
            let slots = &mut groups[count..count + 8];
            // SAFETY: `slots` is eight `u16`, the 16 bytes the store writes.
            unsafe { _mm_storeu_si128(slots.as_mut_ptr().cast(), indices) };
            count += mask.count_ones() as usize;
        }
        let first = (h.len() - tail.len()) / 4;
        count + groups_from(first, tail, &mut groups[count..])
    }

    /// The groups not all 0 by AVX-512 (F): sixteen groups a register, the indices of
    /// those not 0 compressed to the front and stored as sixteen `u16` (those past the
    /// count are overwritten by the next register's), the last groups by plain code.
    #[target_feature(enable = "avx512f")]
    pub(super) fn groups_avx512(h: &[u8], groups: &mut [u16]) -> usize {
        let mut count = 0;
        let mut index = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let chunks = h.chunks_exact(64);
        let tail = chunks.remainder();
        for chunk in chunks {
            // SAFETY: `chunk` is 64 bytes: the load reads exactly it.
            let words = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
            let mask = _mm512_test_epi32_mask(words, words);
            let packed = _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(mask, index));
            // At most 16 × (chunks so far) groups are counted, so the 16 slots from
            // `count` lie within the first `h.len() / 4`.
            let slots = &mut groups[count..count + 16];
            // SAFETY: `slots` is sixteen `u16`, the 32 bytes the store writes.
            unsafe { _mm256_storeu_si256(slots.as_mut_ptr().cast(), packed) };
            count += mask.count_ones() as usize;
            index = _mm512_add_epi32(index, _mm512_set1_epi32(16));
        }
        let first = (h.len() - tail.len()) / 4;
        count + groups_from(first, tail, &mut groups[count..])
    }

    /// The sums by AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn sums_avx2(h: &[u8], groups: &[u16], layer: &SecondLayer, sums: &mut [i32]) {
        let mut u = 0;
        while u + 32 <= layer.padded {
            pass_avx2::<4>(h, groups, layer, u, &mut sums[u..u + 32]);
            u += 32;
        }
        if u < layer.padded {
            pass_avx2::<2>(h, groups, layer, u, &mut sums[u..u + 16]);
        }
    }

    /// The sums of the `8 × R` units from `u`.
    #[target_feature(enable = "avx2")]
    fn pass_avx2<const R: usize>(
        h: &[u8],
        groups: &[u16],
        layer: &SecondLayer,
        u: usize,
        sums: &mut [i32],
    ) {
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_si256(); R];
        for &g in groups {
            let x = _mm256_set1_epi32(word(h, g) as i32);
            let at = (usize::from(g) * layer.padded + u) * 4;
            let weights = &layer.weights[at..at + 32 * R];
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `weights` holds `32 * R` bytes, so 32 remain from `32 * r` for every `r < R`.
                let w = unsafe { _mm256_loadu_si256(weights[32 * r..].as_ptr().cast()) };
                let pairs = _mm256_maddubs_epi16(x, w);
                *acc = _mm256_add_epi32(*acc, _mm256_madd_epi16(pairs, ones));
            }
        }
        let sums = &mut sums[..8 * R];
        for (r, acc) in acc.into_iter().enumerate() {
            // SAFETY: `sums` holds `8 * R` words, so 8 remain from `8 * r` for every `r < R`.
            unsafe { _mm256_storeu_si256(sums[8 * r..].as_mut_ptr().cast(), acc) };
        }
    }

    /// The sums by AVX-512 (BW), or with `VNNI` by its `vpdpbusd` (AVX-512 VNNI).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn sums_avx512(h: &[u8], groups: &[u16], layer: &SecondLayer, sums: &mut [i32]) {
        let mut u = 0;
        while u + 32 <= layer.padded {
            pass_avx512::<2>(h, groups, layer, u, &mut sums[u..u + 32]);
            u += 32;
        }
        if u < layer.padded {
            pass_avx512::<1>(h, groups, layer, u, &mut sums[u..u + 16]);
        }
    }

    /// The sums of the `16 × R` units from `u`.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn pass_avx512<const R: usize>(
        h: &[u8],
        groups: &[u16],
        layer: &SecondLayer,
        u: usize,
        sums: &mut [i32],
    ) {
        let ones = _mm512_set1_epi16(1);
        let mut acc: [__m512i; R] = [_mm512_setzero_si512(); R];
        for &g in groups {
            let x = _mm512_set1_epi32(word(h, g) as i32);
            let at = (usize::from(g) * layer.padded + u) * 4;
            let weights = &layer.weights[at..at + 64 * R];
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `weights` holds `64 * R` bytes, so 64 remain from `64 * r` for every `r < R`.
                let w = unsafe { _mm512_loadu_si512(weights[64 * r..].as_ptr().cast()) };
                let pairs = _mm512_maddubs_epi16(x, w);
                *acc = _mm512_add_epi32(*acc, _mm512_madd_epi16(pairs, ones));
            }
        }
        let sums = &mut sums[..16 * R];
        for (r, acc) in acc.into_iter().enumerate() {
            // SAFETY: `sums` holds `16 * R` words, so 16 remain from `16 * r` for every `r < R`.
            unsafe { _mm512_storeu_si512(sums[16 * r..].as_mut_ptr().cast(), acc) };
        }
    }

    /// The sums by AVX-512 VNNI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) fn sums_vnni(h: &[u8], groups: &[u16], layer: &SecondLayer, sums: &mut [i32]) {
        let mut u = 0;
        while u + 32 <= layer.padded {
            pass_vnni::<2>(h, groups, layer, u, &mut sums[u..u + 32]);
            u += 32;
        }
        if u < layer.padded {
            pass_vnni::<1>(h, groups, layer, u, &mut sums[u..u + 16]);
        }
    }

    /// The sums of the `16 × R` units from `u`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    fn pass_vnni<const R: usize>(
        h: &[u8],
        groups: &[u16],
        layer: &SecondLayer,
        u: usize,
        sums: &mut [i32],
    ) {
        let mut acc: [__m512i; R] = [_mm512_setzero_si512(); R];
        for &g in groups {
            let x = _mm512_set1_epi32(word(h, g) as i32);
            let at = (usize::from(g) * layer.padded + u) * 4;
            let weights = &layer.weights[at..at + 64 * R];
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `weights` holds `64 * R` bytes, so 64 remain from `64 * r` for every `r < R`.
                let w = unsafe { _mm512_loadu_si512(weights[64 * r..].as_ptr().cast()) };
                *acc = _mm512_dpbusd_epi32(*acc, x, w);
            }
        }
        let sums = &mut sums[..16 * R];
        for (r, acc) in acc.into_iter().enumerate() {
            // SAFETY: `sums` holds `16 * R` words, so 16 remain from `16 * r` for every `r < R`.
            unsafe { _mm512_storeu_si512(sums[16 * r..].as_mut_ptr().cast(), acc) };
        }
    }

    /// `bytes · row` by AVX2, 32 bytes a step, the rest by plain code.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn dot_avx2(bytes: &[u8], row: &[i8]) -> i32 {
        let whole = bytes.len().min(row.len()) / 32 * 32;
        let ones = _mm256_set1_epi16(1);
        let mut acc = _mm256_setzero_si256();
        let mut at = 0;
        while at < whole {
            // SAFETY: both slices are 32 bytes (`at + 32 <= whole`), the bytes the loads read.
            let left = unsafe { _mm256_loadu_si256(bytes[at..at + 32].as_ptr().cast()) };
            // SAFETY: as above, for `row`.
            let right = unsafe { _mm256_loadu_si256(row[at..at + 32].as_ptr().cast()) };
            acc = _mm256_add_epi32(
                acc,
                _mm256_madd_epi16(_mm256_maddubs_epi16(left, right), ones),
            );
            at += 32;
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let pairs = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let sum = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(sum) + dot_portable(&bytes[whole..], &row[whole..])
    }

    /// `bytes · row` by AVX-512 (BW), 64 bytes a step, the rest by plain code.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn dot_avx512(bytes: &[u8], row: &[i8]) -> i32 {
        let whole = bytes.len().min(row.len()) / 64 * 64;
        let ones = _mm512_set1_epi16(1);
        let mut acc = _mm512_setzero_si512();
        let mut at = 0;
        while at < whole {
            // SAFETY: both slices are 64 bytes (`at + 64 <= whole`), the bytes the loads read.
            let left = unsafe { _mm512_loadu_si512(bytes[at..at + 64].as_ptr().cast()) };
            // SAFETY: as above, for `row`.
            let right = unsafe { _mm512_loadu_si512(row[at..at + 64].as_ptr().cast()) };
            acc = _mm512_add_epi32(
                acc,
                _mm512_madd_epi16(_mm512_maddubs_epi16(left, right), ones),
            );
            at += 64;
        }
        _mm512_reduce_add_epi32(acc) + dot_portable(&bytes[whole..], &row[whole..])
    }

    /// `bytes · row` by AVX-512 VNNI, 64 bytes a step, the rest by plain code.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    pub(super) fn dot_vnni(bytes: &[u8], row: &[i8]) -> i32 {
        let whole = bytes.len().min(row.len()) / 64 * 64;
        let mut acc = _mm512_setzero_si512();
        let mut at = 0;
        while at < whole {
            // SAFETY: both slices are 64 bytes (`at + 64 <= whole`), the bytes the loads read.
            let left = unsafe { _mm512_loadu_si512(bytes[at..at + 64].as_ptr().cast()) };
            // SAFETY: as above, for `row`.
            let right = unsafe { _mm512_loadu_si512(row[at..at + 64].as_ptr().cast()) };
            acc = _mm512_dpbusd_epi32(acc, left, right);
            at += 64;
        }
        _mm512_reduce_add_epi32(acc) + dot_portable(&bytes[whole..], &row[whole..])
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(from: &[i16], to: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    update_body(from, to, plus_a, plus_b, minus);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn update_avx512(from: &[i16], to: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    update_body(from, to, plus_a, plus_b, minus);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn second_avx2(acc: &[i16], side: Option<&[i16]>, layer: &SecondLayer, z: &mut [f32]) {
    // The closure has this function's target features.
    second_with(
        acc,
        side,
        layer,
        z,
        |h, g| x86::groups_avx2(h, g),
        |h, g, l, s| x86::sums_avx2(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn second_avx512(acc: &[i16], side: Option<&[i16]>, layer: &SecondLayer, z: &mut [f32]) {
    // The closure has this function's target features.
    second_with(
        acc,
        side,
        layer,
        z,
        |h, g| x86::groups_avx512(h, g),
        |h, g, l, s| x86::sums_avx512(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn second_vnni(acc: &[i16], side: Option<&[i16]>, layer: &SecondLayer, z: &mut [f32]) {
    // The closure has this function's target features.
    second_with(
        acc,
        side,
        layer,
        z,
        |h, g| x86::groups_avx512(h, g),
        |h, g, l, s| x86::sums_vnni(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn byte_sums_avx2(h: &[u8], layer: &SecondLayer, sums: &mut [i32]) {
    // The closures have this function's target features.
    byte_sums_with(
        h,
        layer,
        sums,
        |h, g| x86::groups_avx2(h, g),
        |h, g, l, s| x86::sums_avx2(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn byte_sums_avx512(h: &[u8], layer: &SecondLayer, sums: &mut [i32]) {
    // The closures have this function's target features.
    byte_sums_with(
        h,
        layer,
        sums,
        |h, g| x86::groups_avx512(h, g),
        |h, g, l, s| x86::sums_avx512(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn byte_sums_vnni(h: &[u8], layer: &SecondLayer, sums: &mut [i32]) {
    // The closures have this function's target features.
    byte_sums_with(
        h,
        layer,
        sums,
        |h, g| x86::groups_avx512(h, g),
        |h, g, l, s| x86::sums_vnni(h, g, l, s),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn byte_dots_avx2(x: &[u8], rows: &ByteRows, which: &[usize], out: &mut [i32]) {
    // The closure has this function's target features.
    byte_dots_with(x, rows, which, out, |x, r| x86::dot_avx2(x, r));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn byte_dots_avx512(x: &[u8], rows: &ByteRows, which: &[usize], out: &mut [i32]) {
    // The closure has this function's target features.
    byte_dots_with(x, rows, which, out, |x, r| x86::dot_avx512(x, r));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn byte_dots_vnni(x: &[u8], rows: &ByteRows, which: &[usize], out: &mut [i32]) {
    // The closure has this function's target features.
    byte_dots_with(x, rows, which, out, |x, r| x86::dot_vnni(x, r));
}

/// `to = from + plus_a + plus_b − minus` at `level` (which must be one [`Level::available`]
/// lists).
#[inline]
pub fn update(
    level: Level,
    from: &[i16],
    to: &mut [i16],
    plus_a: &[i16],
    plus_b: &[i16],
    minus: &[i16],
) {
    debug_assert_eq!(from.len(), to.len());
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512 | Level::Avx512Vnni => unsafe {
            update_avx512(from, to, plus_a, plus_b, minus);
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { update_avx2(from, to, plus_a, plus_b, minus) },
        _ => update_body(from, to, plus_a, plus_b, minus),
    }
}

/// Adds the second layer's values on the first to `z`, one for each of `layer`'s units: the
/// accumulator `acc` with the side's row when white is to move, clipped, through `layer`,
/// at `level` (which must be one [`Level::available`] lists).
#[inline]
pub fn second(level: Level, acc: &[i16], side: Option<&[i16]>, layer: &SecondLayer, z: &mut [f32]) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512Vnni => unsafe { second_vnni(acc, side, layer, z) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx512 => unsafe { second_avx512(acc, side, layer, z) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { second_avx2(acc, side, layer, z) },
        _ => second_with(acc, side, layer, z, groups_portable, sums_portable),
    }
}

#[cfg(test)]
mod tests;

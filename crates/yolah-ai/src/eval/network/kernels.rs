//! The inference's hot loops, chosen at run time for the CPU: the accumulator's update by a
//! move (three rows of `i16`) and the second layer on the first (`i16` products summed in
//! `i32`). Each kernel is one generic body compiled three times: for AVX-512, for AVX2 and
//! for any x86-64 or other CPU (the portable fallback), so one binary is fast everywhere and
//! a build without `target-cpu=native` loses nothing where the CPU has the instructions. The
//! integer sums are exact, so every level gives the same answer bit for bit (a test checks
//! each level the machine has against the portable one).

use super::shape::MAX_HIDDEN;
use std::sync::OnceLock;

/// Scale of the accumulator: a clipped-ReLU output of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Scale of the second layer's integer weights on the first.
pub const QW: i32 = 256;

/// The instructions a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Any CPU: what the build targets.
    Portable,
    /// x86-64 with AVX2.
    Avx2,
    /// x86-64 with AVX-512 (F and BW).
    Avx512,
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
            }
        }
        levels
    }

    /// The best level this CPU runs (detected once), unless `YOLAH_SIMD` names another it
    /// runs (`portable`, `avx2`, `avx512`: for measuring them against each other).
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
        }
    }
}

/// `acc += plus_a + plus_b − minus` (a move: the piece's new square and the hole in, its
/// old square out), or with `UNDO` the opposite, wrapping as `i16` does (so the sums are
/// exact whatever the order). The sizes that ship are sliced to their constant length, so
/// that once inlined the loop's length is known.
#[inline(always)]
fn update_body<const UNDO: bool>(acc: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    match acc.len() {
        n @ (128 | 256 | 512 | 1024) => update_n::<UNDO>(&mut acc[..n], plus_a, plus_b, minus),
        _ => update_n::<UNDO>(acc, plus_a, plus_b, minus),
    }
}

#[inline(always)]
fn update_n<const UNDO: bool>(acc: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    let n = acc.len();
    let (plus_a, plus_b, minus) = (&plus_a[..n], &plus_b[..n], &minus[..n]);
    for i in 0..n {
        let change = plus_a[i].wrapping_add(plus_b[i]).wrapping_sub(minus[i]);
        acc[i] = if UNDO {
            acc[i].wrapping_sub(change)
        } else {
            acc[i].wrapping_add(change)
        };
    }
}

/// Adds the second layer's sums on the first to `z`: `clamp(acc + side, 0, QA)` (the side's
/// row when white is to move), kept in `h` (of the first layer's size), times each unit's
/// integer weights, in `i32`, at scale `1 / (QA · QW)`.
#[inline(always)]
fn second_n(acc: &[i16], side: Option<&[i16]>, weights: &[i16], z: &mut [f32], h: &mut [i16]) {
    let n = h.len();
    let acc = &acc[..n];
    match side {
        Some(side) => {
            let side = &side[..n];
            for i in 0..n {
                h[i] = (i32::from(acc[i]) + i32::from(side[i])).clamp(0, QA) as i16;
            }
        }
        None => {
            for i in 0..n {
                h[i] = i32::from(acc[i]).clamp(0, QA) as i16;
            }
        }
    }
    for (z, row) in z.iter_mut().zip(weights.chunks_exact(n)) {
        let row = &row[..n];
        let mut sum = 0i32;
        for i in 0..n {
            sum += i32::from(row[i]) * i32::from(h[i]);
        }
        *z += sum as f32 * (1.0 / (QA * QW) as f32);
    }
}

/// The second layer by size: the sizes that ship get a buffer of their own size (a loop of
/// known length once inlined), others a slice of the largest.
#[inline(always)]
fn second_by_size(acc: &[i16], side: Option<&[i16]>, weights: &[i16], z: &mut [f32]) {
    match acc.len() {
        128 => second_n(acc, side, weights, z, &mut [0; 128]),
        256 => second_n(acc, side, weights, z, &mut [0; 256]),
        512 => second_n(acc, side, weights, z, &mut [0; 512]),
        1024 => second_n(acc, side, weights, z, &mut [0; 1024]),
        n => second_n(acc, side, weights, z, &mut [0; MAX_HIDDEN][..n]),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2<const UNDO: bool>(acc: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    update_body::<UNDO>(acc, plus_a, plus_b, minus);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn update_avx512<const UNDO: bool>(acc: &mut [i16], plus_a: &[i16], plus_b: &[i16], minus: &[i16]) {
    update_body::<UNDO>(acc, plus_a, plus_b, minus);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn second_avx2(acc: &[i16], side: Option<&[i16]>, weights: &[i16], z: &mut [f32]) {
    second_by_size(acc, side, weights, z);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn second_avx512(acc: &[i16], side: Option<&[i16]>, weights: &[i16], z: &mut [f32]) {
    second_by_size(acc, side, weights, z);
}

/// `acc += plus_a + plus_b − minus` (`UNDO`: `−=`) at `level` (which must be one
/// [`Level::available`] lists).
#[inline]
pub fn update<const UNDO: bool>(
    level: Level,
    acc: &mut [i16],
    plus_a: &[i16],
    plus_b: &[i16],
    minus: &[i16],
) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512 => unsafe { update_avx512::<UNDO>(acc, plus_a, plus_b, minus) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { update_avx2::<UNDO>(acc, plus_a, plus_b, minus) },
        _ => update_body::<UNDO>(acc, plus_a, plus_b, minus),
    }
}

/// The second layer on the first at `level` (which must be one [`Level::available`] lists).
#[inline]
pub fn second(level: Level, acc: &[i16], side: Option<&[i16]>, weights: &[i16], z: &mut [f32]) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is one the CPU was found to run (Level::available).
        Level::Avx512 => unsafe { second_avx512(acc, side, weights, z) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { second_avx2(acc, side, weights, z) },
        _ => second_by_size(acc, side, weights, z),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn random(n: usize, bound: i16, rng: &mut SmallRng) -> Vec<i16> {
        (0..n).map(|_| rng.random_range(-bound..=bound)).collect()
    }

    /// Every level the machine runs gives what the portable code gives, for every size that
    /// ships and one that does not, with and without the side's row.
    #[test]
    fn every_level_is_the_portable_code() {
        let mut rng = SmallRng::seed_from_u64(1);
        for hidden in [16, 128, 256, 512, 1024, 48] {
            for _ in 0..20 {
                let acc = random(hidden, 400, &mut rng);
                let side = random(hidden, 100, &mut rng);
                let weights = random(32 * hidden, 8000, &mut rng);
                let rows: Vec<Vec<i16>> = (0..3).map(|_| random(hidden, 300, &mut rng)).collect();
                let mut expected_z = vec![0.5f32; 32];
                second(
                    Level::Portable,
                    &acc,
                    Some(&side),
                    &weights,
                    &mut expected_z,
                );
                let mut expected_acc = acc.clone();
                update::<false>(
                    Level::Portable,
                    &mut expected_acc,
                    &rows[0],
                    &rows[1],
                    &rows[2],
                );
                for level in Level::available() {
                    let mut z = vec![0.5f32; 32];
                    second(level, &acc, Some(&side), &weights, &mut z);
                    assert_eq!(z, expected_z, "{level:?}, {hidden} units");
                    let mut no_side = vec![0.0f32; 32];
                    let mut no_side_portable = vec![0.0f32; 32];
                    second(level, &acc, None, &weights, &mut no_side);
                    second(Level::Portable, &acc, None, &weights, &mut no_side_portable);
                    assert_eq!(no_side, no_side_portable, "{level:?}, {hidden} units");
                    let mut updated = acc.clone();
                    update::<false>(level, &mut updated, &rows[0], &rows[1], &rows[2]);
                    assert_eq!(updated, expected_acc, "{level:?}, {hidden} units");
                    update::<true>(level, &mut updated, &rows[0], &rows[1], &rows[2]);
                    assert_eq!(updated, acc, "{level:?}, {hidden} units: undone");
                }
            }
        }
        assert!(Level::available().contains(&Level::detected()));
    }
}

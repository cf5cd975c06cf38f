//! The unit tests of `kernels.rs`.

use super::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn random(n: usize, bound: i16, rng: &mut SmallRng) -> Vec<i16> {
    (0..n).map(|_| rng.random_range(-bound..=bound)).collect()
}

/// The second layer at `level` on `acc` (and `side`), from `z` all 0.5.
fn second_at(level: Level, acc: &[i16], side: Option<&[i16]>, layer: &SecondLayer) -> Vec<f32> {
    let mut z = vec![0.5f32; layer.units()];
    second(level, acc, side, layer, &mut z);
    z
}

/// Every level the machine runs gives what the portable code gives, for every size that
/// ships and one that does not, second layers of 16, 32 and sizes that are not a whole
/// block, with and without the side's row; and at the extremes, where a byte dot
/// product that saturated would show it: every input at its largest and every weight
/// of a unit ±127.
#[test]
fn every_level_is_the_portable_code() {
    let mut rng = SmallRng::seed_from_u64(1);
    for (hidden, units) in [
        (16, 16),
        (128, 16),
        (256, 32),
        (512, 32),
        (1024, 32),
        (48, 5),
        (80, 16),
        (256, 40),
    ] {
        for round in 0..20 {
            let acc = random(hidden, 400, &mut rng);
            let side = random(hidden, 100, &mut rng);
            let floats: Vec<f32> = match round {
                0 => vec![0.75; units * hidden],
                1 => (0..units * hidden)
                    .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
                    .collect(),
                _ => (0..units * hidden)
                    .map(|_| rng.random_range(-1.0..1.0))
                    .collect(),
            };
            let layer = SecondLayer::new(hidden, units, &floats);
            let acc = match round {
                0 | 1 => vec![QA as i16 + 7; hidden],
                // Mostly 0 once clipped, as the shipped network's inputs are: most
                // groups skipped.
                2..=5 => acc.iter().map(|x| x - 330).collect(),
                _ => acc,
            };
            let rows: Vec<Vec<i16>> = (0..3).map(|_| random(hidden, 300, &mut rng)).collect();
            let expected = second_at(Level::Portable, &acc, Some(&side), &layer);
            let expected_no_side = second_at(Level::Portable, &acc, None, &layer);
            let mut expected_acc = vec![0; hidden];
            update(
                Level::Portable,
                &acc,
                &mut expected_acc,
                &rows[0],
                &rows[1],
                &rows[2],
            );
            let by_hand: Vec<i16> = (0..hidden)
                .map(|i| acc[i] + rows[0][i] + rows[1][i] - rows[2][i])
                .collect();
            assert_eq!(expected_acc, by_hand, "{hidden} units");
            for level in Level::available() {
                let z = second_at(level, &acc, Some(&side), &layer);
                assert_eq!(z, expected, "{level:?}, {hidden} units");
                let no_side = second_at(level, &acc, None, &layer);
                assert_eq!(no_side, expected_no_side, "{level:?}, {hidden} units");
                let mut updated = vec![0; hidden];
                update(level, &acc, &mut updated, &rows[0], &rows[1], &rows[2]);
                assert_eq!(updated, expected_acc, "{level:?}, {hidden} units");
            }
        }
    }
    assert!(Level::available().contains(&Level::detected()));
}

/// Every level's list of the groups not all 0 is the portable one, group for group, on
/// inputs mostly 0, for sizes with and without a remainder past the vectors, up to the
/// largest (where the last vector store ends at the buffer's end).
#[test]
fn every_level_lists_the_same_groups() {
    let mut rng = SmallRng::seed_from_u64(3);
    for n in [16, 48, 80, 112, 512, 1024, 2048] {
        for zeros in [0.0, 0.8, 0.97, 1.0] {
            let h: Vec<u8> = (0..n)
                .map(|_| {
                    if rng.random::<f64>() < zeros {
                        0
                    } else {
                        rng.random_range(1..=128)
                    }
                })
                .collect();
            let mut expected = [0u16; MAX_HIDDEN / 4];
            let count = groups_portable(&h, &mut expected);
            for level in Level::available() {
                let mut groups = [u16::MAX; MAX_HIDDEN / 4];
                let found = match level {
                    // SAFETY: the levels the CPU runs (Level::available).
                    #[cfg(target_arch = "x86_64")]
                    Level::Avx2 => unsafe { x86::groups_avx2(&h, &mut groups) },
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: the levels the CPU runs (`Level::available`).
                    Level::Avx512 | Level::Avx512Vnni => unsafe {
                        x86::groups_avx512(&h, &mut groups)
                    },
                    _ => groups_portable(&h, &mut groups),
                };
                assert_eq!(
                    &groups[..found],
                    &expected[..count],
                    "{level:?}, {n} inputs, {zeros} of them 0"
                );
            }
        }
    }
}

/// Every level's byte products are the portable code's and the exact integer sums, for
/// widths with and without a remainder past the vectors, on bytes mostly 0 and at the
/// extremes (every byte [`QH`], every weight ±127), where a saturating pair would show.
#[test]
fn every_level_multiplies_bytes_exactly() {
    let mut rng = SmallRng::seed_from_u64(4);
    for width in [8, 16, 40, 64, 72, 128, 136, 512, 1024] {
        for round in 0..6 {
            let x: Vec<u8> = (0..width)
                .map(|_| match round {
                    0 => QH as u8,
                    1 | 2 if rng.random::<f64>() < 0.8 => 0,
                    _ => rng.random_range(0..=QH as u8),
                })
                .collect();
            let rows = 20;
            let floats: Vec<f32> = (0..rows * width)
                .map(|i| match round {
                    0 => [1.0, -1.0][i % 2],
                    _ => rng.random_range(-1.0..1.0),
                })
                .collect();
            let matrix = ByteRows::new(width, &floats);
            let which: Vec<usize> = (0..30).map(|_| rng.random_range(0..rows)).collect();
            let exact: Vec<i32> = which
                .iter()
                .map(|&r| {
                    let row = &matrix.weights[r * width..][..width];
                    let sum: i64 = x
                        .iter()
                        .zip(row)
                        .map(|(&a, &b)| i64::from(a) * i64::from(b))
                        .sum();
                    i32::try_from(sum).expect("fits")
                })
                .collect();
            let layer = SecondLayer::new(width, rows, &floats);
            let mut expected_sums = vec![0i32; layer.padded()];
            byte_sums(Level::Portable, &x, &layer, &mut expected_sums);
            for (u, &sum) in expected_sums[..rows].iter().enumerate() {
                let exact: i64 = (0..width)
                    .map(|i| {
                        i64::from(x[i])
                            * i64::from(layer.weights[(i / 4 * layer.padded + u) * 4 + i % 4])
                    })
                    .sum();
                assert_eq!(i64::from(sum), exact, "{width} wide, unit {u}");
            }
            for level in Level::available() {
                let mut out = vec![0i32; which.len()];
                byte_dots(level, &x, &matrix, &which, &mut out);
                assert_eq!(out, exact, "{level:?}, {width} wide, round {round}");
                let mut sums = vec![7i32; layer.padded()];
                byte_sums(level, &x, &layer, &mut sums);
                assert_eq!(
                    sums, expected_sums,
                    "{level:?}, {width} wide, round {round}"
                );
            }
        }
    }
}

/// The portable code is the arithmetic it states: each unit's sum of its `i8` weights
/// times the halved inputs (exact, in `i64`), at its scale; and that is the float layer
/// on the clipped accumulator within the two roundings.
#[test]
fn the_layer_is_its_arithmetic_and_near_the_floats() {
    let mut rng = SmallRng::seed_from_u64(2);
    let (hidden, units) = (256, 20);
    let floats: Vec<f32> = (0..units * hidden)
        .map(|_| rng.random_range(-0.3..0.3))
        .collect();
    let layer = SecondLayer::new(hidden, units, &floats);
    for u in 0..units {
        let largest = (0..hidden)
            .map(|i| i32::from(layer.weights[(i / 4 * layer.padded + u) * 4 + i % 4]).abs())
            .max();
        assert_eq!(largest, Some(QW), "unit {u}: the largest weight is ±QW");
    }
    let mut squares = 0.0f64;
    let mut count = 0.0f64;
    for _ in 0..50 {
        let acc = random(hidden, 300, &mut rng);
        let z = second_at(Level::Portable, &acc, None, &layer);
        for u in 0..units {
            let mut exact = 0i64;
            let mut float = 0.5f32;
            for i in 0..hidden {
                let clipped = acc[i].clamp(0, QA as i16);
                let x = (clipped + ((clipped >> 1) & 1)) >> 1;
                let w = layer.weights[(i / 4 * layer.padded + u) * 4 + i % 4];
                exact += i64::from(x) * i64::from(w);
                float += floats[u * hidden + i] * f32::from(clipped) / QA as f32;
            }
            let stated = 0.5 + exact as f32 * layer.scales[u];
            assert_eq!(z[u].to_bits(), stated.to_bits(), "unit {u}");
            let error = f64::from(z[u] - float);
            squares += error * error;
            count += 1.0;
            // Each weight is off by at most half a step (0.3 / 127), each odd input by
            // 1/255; over 256 inputs these errors mostly cancel: a few hundredths.
            assert!(error.abs() < 0.04, "unit {u}: {} against {float}", z[u]);
        }
    }
    let rms = (squares / count).sqrt();
    assert!(rms < 0.01, "root mean square error {rms}");
}

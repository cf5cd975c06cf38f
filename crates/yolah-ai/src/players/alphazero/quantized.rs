//! The policy-value network in integer arithmetic, for play: the same network as
//! [`Parameters::forward`], its two large products in bytes.
//!
//! - The first layer stays in floats (a sum of the columns of the inputs that are on, and
//!   the features): it is cheap and feeds both of the others.
//! - The residual block `W2·h1` (H × H) and the policy rows of the legal moves (H each) are
//!   the time of a forward pass in floats. Their weights are `i8`, each unit's or row's scaled
//!   so its largest magnitude is 127 (a float per unit or row undoes it), and their inputs
//!   `u8`: `h1` and `h2` are relus, so each is scaled, position by position, so that its
//!   largest value is 127.5 (rounded: 0 to 128), the scale kept to undo it. The products are
//!   the minimax network's kernels ([`crate::eval::network::kernels`]): AVX-512 VNNI's
//!   `vpdpbusd`, AVX-512 and AVX2's `vpmaddubsw`, or plain loops, chosen at run time; the
//!   block skips groups of four inputs that are all 0, as half of `h1` is.
//! - The value head (one dot product) and the softmax stay in floats.
//!
//! Every level computes the same integers, so the same evaluation bit for bit; the tests
//! check that, and that the evaluation is near the float network's.

use super::network::{Evaluation, Parameters, dot, move_row, softmax};
use crate::eval::network::kernels::{ByteRows, Level, SecondLayer, byte_dots, byte_sums};
use std::sync::Arc;
use yolah_core::{Move, Position};

/// The largest value of a relu's output once it is scaled to bytes.
const TOP: f32 = 127.5;

/// The network with its block and policy in bytes.
#[derive(Clone, Debug)]
pub struct Quantized {
    parameters: Arc<Parameters>,
    block: SecondLayer,
    policy: ByteRows,
    level: Level,
}

/// The scratch space of a forward pass, kept from one to the next.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    inputs: Vec<u16>,
    dense: Vec<f32>,
    a1: Vec<f32>,
    bytes: Vec<u8>,
    sums: Vec<i32>,
    h2: Vec<f32>,
    rows: Vec<usize>,
    dots: Vec<i32>,
    logits: Vec<f32>,
}

/// `x` scaled so its largest value is [`TOP`], rounded to bytes, into `out`; returns what a
/// byte is worth (0 if every value is 0). Every value of `x` is at least 0.
#[inline(always)]
fn to_bytes(x: &[f32], out: &mut Vec<u8>) -> f32 {
    let top = x.iter().copied().fold(0.0f32, f32::max);
    out.clear();
    if top <= 0.0 {
        out.resize(x.len(), 0);
        return 0.0;
    }
    let k = TOP / top;
    out.extend(x.iter().map(|&v| (v * k + 0.5) as u8));
    top / TOP
}

impl Quantized {
    /// `parameters` in bytes, run by the best kernels this CPU has (or `YOLAH_SIMD`'s).
    pub fn new(parameters: Arc<Parameters>) -> Quantized {
        Quantized::with_level(parameters, Level::detected())
    }

    /// The same with the kernels of `level`, which must be one [`Level::available`] lists
    /// (checked: a level the CPU lacks is refused with a panic).
    pub fn with_level(parameters: Arc<Parameters>, level: Level) -> Quantized {
        assert!(
            Level::available().contains(&level),
            "{} is not a level this CPU runs",
            level.name()
        );
        let h = parameters.hidden;
        let block = SecondLayer::new(h, h, &parameters.w2);
        let policy = ByteRows::new(h, &parameters.policy);
        Quantized {
            parameters,
            block,
            policy,
            level,
        }
    }

    /// The float network it was made from.
    pub fn parameters(&self) -> &Arc<Parameters> {
        &self.parameters
    }

    /// Priors of `moves` (the legal moves of `position`, which is not over) and the value.
    pub fn forward(
        &self,
        position: &Position,
        moves: &[Move],
        scratch: &mut Scratch,
    ) -> Evaluation {
        #[cfg(target_arch = "x86_64")]
        if self.level != Level::Portable && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.forward_avx2(position, moves, scratch) };
        }
        self.forward_body(position, moves, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn forward_avx2(
        &self,
        position: &Position,
        moves: &[Move],
        scratch: &mut Scratch,
    ) -> Evaluation {
        self.forward_body(position, moves, scratch)
    }

    /// The pass, inlined into each function above so its float loops are compiled for its
    /// instructions.
    #[inline(always)]
    fn forward_body(&self, position: &Position, moves: &[Move], s: &mut Scratch) -> Evaluation {
        let p = &*self.parameters;
        p.first_layer(position, &mut s.inputs, &mut s.dense, &mut s.a1);
        for a in &mut s.a1 {
            *a = a.max(0.0);
        }
        let h1 = &s.a1;
        // The block: h2 = h1 + relu(W2·h1 + b2).
        // The block's scales are for an input of 1.0 at TOP (the minimax network's QA / 2).
        let unit = to_bytes(h1, &mut s.bytes) * TOP;
        s.sums.resize(self.block.padded(), 0);
        byte_sums(self.level, &s.bytes, &self.block, &mut s.sums);
        s.h2.clear();
        s.h2.extend(
            h1.iter()
                .zip(&s.sums)
                .zip(self.block.scales())
                .zip(&p.b2)
                .map(|(((&x, &sum), &scale), &b)| x + (sum as f32 * scale * unit + b).max(0.0)),
        );
        let value = (dot(&p.value, &s.h2) + p.value_bias).tanh();
        // The policy: the legal moves' rows on h2.
        let unit = to_bytes(&s.h2, &mut s.bytes);
        s.rows.clear();
        s.rows.extend(moves.iter().map(|&m| move_row(m)));
        s.dots.resize(s.rows.len(), 0);
        byte_dots(self.level, &s.bytes, &self.policy, &s.rows, &mut s.dots);
        s.logits.clear();
        s.logits.extend(
            s.rows
                .iter()
                .zip(&s.dots)
                .map(|(&r, &d)| d as f32 * self.policy.scale(r) * unit + p.policy_bias[r]),
        );
        Evaluation {
            priors: softmax(&s.logits),
            value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::alphazero::network::Activations;
    use crate::players::alphazero::player::shipped;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Positions not over from random games drawn from `seed`, a few from each.
    fn positions(games: usize, seed: u64) -> Vec<Position> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut position = Position::start();
            while !position.game_over() {
                if rng.random_range(0..4) == 0 {
                    out.push(position);
                }
                let moves = position.moves();
                position.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        out
    }

    /// The shipped network in bytes is near the float one on positions of random games: the
    /// value within 0.1 (of −1 to +1), the priors within 0.05 in total variation (0.01 on
    /// average), and the same most likely move in at least 98 % of them. (Measured when this
    /// was written: 0.043, 0.017, 0.0047 and 99.3 %.)
    #[test]
    fn bytes_are_near_the_floats() {
        let float = shipped();
        let mut act = Activations::default();
        let mut scratch = Scratch::default();
        for level in Level::available() {
            let quantized = Quantized::with_level(Arc::clone(&float), level);
            let (mut worst_value, mut worst_tv, mut total_tv, mut same) = (0.0f32, 0.0f32, 0.0, 0);
            let positions = positions(100, 1);
            for position in &positions {
                let moves = position.moves();
                let a = float.forward(position, moves.as_slice(), &mut act);
                let b = quantized.forward(position, moves.as_slice(), &mut scratch);
                worst_value = worst_value.max((a.value - b.value).abs());
                let tv = a
                    .priors
                    .iter()
                    .zip(&b.priors)
                    .map(|(x, y)| (x - y).abs())
                    .sum::<f32>()
                    / 2.0;
                worst_tv = worst_tv.max(tv);
                total_tv += tv;
                let top = |v: &[f32]| {
                    (0..v.len())
                        .max_by(|&i, &j| v[i].total_cmp(&v[j]))
                        .expect("a move")
                };
                same += usize::from(top(&a.priors) == top(&b.priors));
            }
            let n = positions.len();
            assert!(n > 1000, "{n} positions");
            assert!(worst_value < 0.1, "{level:?}: value off by {worst_value}");
            assert!(worst_tv < 0.05, "{level:?}: priors off by {worst_tv}");
            assert!(
                total_tv / (n as f32) < 0.01,
                "{level:?}: priors off by {total_tv} in all"
            );
            assert!(
                same * 100 >= n * 98,
                "{level:?}: the same top move in {same} of {n}"
            );
        }
    }

    /// Every level the machine runs gives the portable code's evaluation bit for bit (the
    /// integer sums are exact), for the shipped network and random ones of sizes with and
    /// without a remainder past the vectors, with and without the features.
    #[test]
    fn every_level_is_the_portable_code() {
        let mut networks = vec![shipped()];
        for (hidden, features, seed) in
            [(8, false, 1), (40, true, 2), (72, true, 3), (136, false, 4)]
        {
            networks.push(Arc::new(Parameters::random(hidden, features, seed)));
        }
        let positions = positions(20, 2);
        for network in networks {
            let portable = Quantized::with_level(Arc::clone(&network), Level::Portable);
            let mut scratch = Scratch::default();
            let expected: Vec<Evaluation> = positions
                .iter()
                .map(|p| portable.forward(p, p.moves().as_slice(), &mut scratch))
                .collect();
            for level in Level::available() {
                let quantized = Quantized::with_level(Arc::clone(&network), level);
                for (position, expected) in positions.iter().zip(&expected) {
                    let got =
                        quantized.forward(position, position.moves().as_slice(), &mut scratch);
                    assert_eq!(&got, expected, "{level:?}, {} units", network.hidden);
                }
            }
        }
    }

    /// A network whose relus are all 0 (every first-layer weight and bias negative) gives
    /// bytes of 0 and the float network's evaluation: the biases alone.
    #[test]
    fn a_network_of_zeros_is_its_biases() {
        let mut parameters = Parameters::random(16, true, 9);
        for w in parameters.w1.iter_mut().chain(&mut parameters.b1) {
            *w = -w.abs() - 1.0;
        }
        parameters.wf.fill(0.0);
        // h2 = relu(b2) stays 0 with b2 below 0; the heads' biases alone make the output.
        parameters.b2.fill(-0.5);
        let mut rng = SmallRng::seed_from_u64(10);
        for b in &mut parameters.policy_bias {
            *b = rng.random_range(-2.0..2.0);
        }
        parameters.value_bias = 0.7;
        let parameters = Arc::new(parameters);
        let quantized = Quantized::new(Arc::clone(&parameters));
        let position = Position::start();
        let moves = position.moves();
        let got = quantized.forward(&position, moves.as_slice(), &mut Scratch::default());
        let float = parameters.forward(&position, moves.as_slice(), &mut Activations::default());
        assert_eq!(got, float);
        assert!((got.value - 0.7f32.tanh()).abs() < 1e-6, "{}", got.value);
        assert!(got.priors.iter().any(|&p| (p - got.priors[0]).abs() > 1e-3));
    }
}

//! The integer network the search runs, of any [`Shape`]: the first layer as `i16` sums at
//! scale [`QA`] updated from the position before by each move (the clipped `ReLU` is a clamp to
//! `0..=QA`); the second layer reads it halved as `u8` and weighs it with `i8` weights, each
//! unit's scaled to ±[`QW`] with a float scale of its own, summed exactly in `i32`
//! ([`SecondLayer`]); the dense inputs and the small layers behind are float. Quantized
//! when loaded, from the float [`Parameters`] (the file holds floats); tested against
//! [`Parameters::forward`].

use super::inputs::{BOARD_INPUTS, active_inputs, dense_inputs, free_squares, input};
#[cfg(doc)]
use super::kernels::QW;
use super::kernels::{self, Level, QA, SecondLayer};
use super::parameters::{NetworkError, Parameters, crelu};
use super::shape::MAX_LAYER;
use super::shape::Shape;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use yolah_core::{Color, Move, Position};

/// The network that ships in the crate (see the README for how it was made).
pub const SHIPPED: &[u8] = include_bytes!("../../../data/network.yolahnet");

/// The layers behind the first for one bucket, as the search runs them.
#[derive(Clone, Debug, PartialEq)]
struct Stack {
    /// Weights on the first layer, `i8`.
    hidden: SecondLayer,
    /// Weights on the dense inputs, input-major: the units' sums are then independent, and
    /// vectorise (a float dot product of 22 would be a chain of dependent additions).
    dense: Vec<f32>,
    bias2: Vec<f32>,
    /// Third layer's weights, input-major (as `dense`: a unit-major dot product of 32 is a
    /// chain of 32 dependent additions, and made a third layer of 32 cost a quarter of the
    /// search's time).
    third: Vec<f32>,
    bias3: Vec<f32>,
    output: Vec<f32>,
    skip: Vec<f32>,
    bias_out: f32,
}

/// The integer network the search runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    shape: Shape,
    /// The kernels' instructions, found for this CPU.
    level: Level,
    /// First layer at scale [`QA`], input-major: `hidden` weights for each input.
    input: Vec<i16>,
    bias1: Vec<i16>,
    stacks: Vec<Stack>,
    parameters: Parameters,
}

/// The first layer's sums for one position (without the side to move, which
/// [`Network::evaluate`] adds): what [`Network::played`] follows move by move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

impl Accumulator {
    /// Its first-layer units.
    pub fn units(&self) -> usize {
        self.values.len()
    }
}

impl Network {
    /// The integer network of `parameters` (checked as the file reader checks them).
    pub fn new(parameters: Parameters) -> Network {
        let shape = parameters.shape;
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i32 as i16;
        let d = shape.dense();
        let stacks = parameters
            .stacks
            .iter()
            .map(|s| Stack {
                hidden: SecondLayer::new(shape.hidden, shape.second, &s.hidden),
                dense: (0..d)
                    .flat_map(|k| (0..shape.second).map(move |j| (j, k)))
                    .map(|(j, k)| s.dense[j * d + k])
                    .collect(),
                bias2: s.bias2.clone(),
                third: (0..shape.second)
                    .flat_map(|j| (0..shape.third).map(move |k| (j, k)))
                    .map(|(j, k)| s.third[k * shape.second + j])
                    .collect(),
                bias3: s.bias3.clone(),
                output: s.output.clone(),
                skip: s.skip.clone(),
                bias_out: s.bias_out,
            })
            .collect();
        Network {
            shape,
            level: Level::detected(),
            input: parameters.input.iter().map(|&w| q(w, QA)).collect(),
            bias1: parameters.bias1.iter().map(|&w| q(w, QA)).collect(),
            stacks,
            parameters,
        }
    }

    /// Reads and checks a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = crate::files::read_bounded(path, super::parameters::MAX_FILE_SIZE)
            .map_err(|e| NetworkError::Io(path.display().to_string(), e))?;
        Ok(Network::new(Parameters::from_bytes(&bytes)?))
    }

    /// The shipped network, parsed once.
    pub fn shipped() -> Arc<Network> {
        static SHIPPED_NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        SHIPPED_NETWORK
            .get_or_init(|| {
                Arc::new(Network::new(
                    Parameters::from_bytes(SHIPPED).expect("the shipped network is valid"),
                ))
            })
            .clone()
    }

    /// The float parameters this network was made from.
    pub fn parameters(&self) -> &Parameters {
        &self.parameters
    }

    /// Its sizes.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The first-layer weights of input `i`.
    #[inline]
    fn row(&self, i: usize) -> &[i16] {
        let h = self.shape.hidden;
        &self.input[i * h..(i + 1) * h]
    }

    /// The accumulator of `position`, computed from scratch.
    pub fn accumulator(&self, position: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: self.bias1.clone(),
        };
        for i in active_inputs(position) {
            add(&mut acc.values, self.row(i));
        }
        acc
    }

    /// Sets `to` to the accumulator after `mover` plays `m` where `from` is the one before:
    /// its piece leaves `from` for `to`, and `from` becomes a hole (three inputs; a pass
    /// changes none).
    #[inline]
    pub fn played(&self, from: &Accumulator, to: &mut Accumulator, mover: Color, m: Move) {
        if m.is_pass() {
            to.values.copy_from_slice(&from.values);
            return;
        }
        let plane = mover.index();
        let (square, target) = (m.from().index(), m.to().index());
        kernels::update(
            self.level,
            &from.values,
            &mut to.values,
            self.row(input(plane, target)),
            self.row(input(2, square)),
            self.row(input(plane, square)),
        );
    }

    /// The network's value of the rest of the game for black, in points, from `acc` (which
    /// must be `position`'s).
    #[inline(always)]
    pub fn rest_for_black(&self, acc: &Accumulator, position: &Position) -> f32 {
        let shape = self.shape;
        let side = (position.side_to_move() == Color::White).then(|| self.row(BOARD_INPUTS));
        let stack = if self.stacks.len() == 1 {
            &self.stacks[0]
        } else {
            &self.stacks[shape.bucket(free_squares(position))]
        };
        let all_dense;
        let dense: &[f32] = if shape.features {
            all_dense = dense_inputs(position);
            &all_dense
        } else {
            &[]
        };
        // Second layers of the sizes that ship get arrays of their own size (loops of known
        // length); others a slice of a buffer.
        match shape.second {
            16 => self.behind(acc, side, stack, dense, &mut [0.0; 16]),
            32 => self.behind(acc, side, stack, dense, &mut [0.0; 32]),
            n => self.behind(acc, side, stack, dense, &mut [0.0; MAX_LAYER][..n]),
        }
    }

    /// The layers behind the first, the second layer's sums in `z` (of its size).
    #[inline(always)]
    fn behind(
        &self,
        acc: &Accumulator,
        side: Option<&[i16]>,
        stack: &Stack,
        dense: &[f32],
        z: &mut [f32],
    ) -> f32 {
        match z.len() {
            16 => z.copy_from_slice(&dense_sums::<16>(stack, dense)),
            32 => z.copy_from_slice(&dense_sums::<32>(stack, dense)),
            second => {
                z.copy_from_slice(&stack.bias2);
                for (weights, &d) in stack.dense.chunks_exact(second).zip(dense) {
                    for (z, &w) in z.iter_mut().zip(weights) {
                        *z += w * d;
                    }
                }
            }
        }
        kernels::second(self.level, &acc.values, side, &stack.hidden, z);
        self.output(stack, z, dense)
    }

    /// The output from the second layer's sums `z` (and a third layer if there is one).
    #[inline(always)]
    fn output(&self, stack: &Stack, z: &mut [f32], dense: &[f32]) -> f32 {
        let mut out = stack.bias_out + dot(&stack.skip, dense);
        if self.shape.third > 0 {
            for z in z.iter_mut() {
                *z = crelu(*z);
            }
            let third = self.shape.third;
            let mut sums = [0.0f32; MAX_LAYER];
            let sums = &mut sums[..third];
            sums.copy_from_slice(&stack.bias3);
            for (&z, weights) in z.iter().zip(stack.third.chunks_exact(third)) {
                for (sum, &w) in sums.iter_mut().zip(weights) {
                    *sum += w * z;
                }
            }
            for (&w, &sum) in stack.output.iter().zip(sums.iter()) {
                out += w * crelu(sum);
            }
        } else {
            for (&w, &z) in stack.output.iter().zip(z.iter()) {
                out += w * crelu(z);
            }
        }
        out
    }

    /// The value of `position` for the side to move, in hundredths of a point of final margin
    /// (the points scored so far plus the network's rest of the game); `acc` must be
    /// `position`'s. Always inlined, so that the search's copy compiled for AVX2 runs the
    /// layers behind the first with it.
    #[inline(always)]
    pub fn evaluate(&self, acc: &Accumulator, position: &Position) -> i32 {
        let scored =
            i32::from(position.score(Color::Black)) - i32::from(position.score(Color::White));
        let black = 100 * scored + (100.0 * self.rest_for_black(acc, position)).round() as i32;
        match position.side_to_move() {
            Color::Black => black,
            Color::White => -black,
        }
    }
}

/// The second layer's biases plus its sums on the dense inputs, for a layer of `N` units: in
/// an array of its own (a loop of known length on values no other reference reaches, which
/// the compiler vectorises; on a slice of the caller's it kept every sum in memory).
#[inline(always)]
fn dense_sums<const N: usize>(stack: &Stack, dense: &[f32]) -> [f32; N] {
    let mut z: [f32; N] = stack.bias2[..N].try_into().expect("N biases");
    for (weights, &d) in stack.dense.chunks_exact(N).zip(dense) {
        let weights: &[f32; N] = weights.try_into().expect("N weights");
        for i in 0..N {
            z[i] += weights[i] * d;
        }
    }
    z
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[inline]
fn add(acc: &mut [i16], weights: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(weights) {
        *a = a.wrapping_add(w);
    }
}

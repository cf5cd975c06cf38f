//! The neural network evaluation (book chapter 7), NNUE-style: sparse board inputs, a first
//! layer kept as an accumulator that moves update, a clipped-ReLU, one or two small dense
//! layers and a scalar value, with the layers behind the first chosen by the game's phase
//! (output buckets). Sizes are the file's ([`Shape`]); format: `docs/network-format.md`.
//!
//! The sparse inputs are 192 squares-by-plane (black pieces, white pieces, holes) and one for
//! "white to move". A small network on those alone lost by 317 Elo to the tuned heuristic at
//! equal nodes (README): territory and mobility are flood fills a small network cannot learn
//! from a few hundred thousand positions. So the second layer and the output may also see 22
//! dense inputs: the heuristic's 11 features ([`Features`]), and each times the game phase
//! (free squares / 56). Through the output's direct weights on them the network can be the
//! tuned heuristic exactly, which is where training starts; the board and the hidden layers
//! learn what it misses. Whether they still pay on wide networks is a [`Shape`] choice.
//!
//! The value is the rest of the game's margin for black, in points; the evaluation adds the
//! points already scored, so a position's value is its expected final margin.
//!
//! - [`shape`]: the sizes a file states;
//! - [`parameters`]: the float parameters, their forward pass (the reference) and the file;
//! - [`inference`]: the integer network the search runs;
//! - [`kernels`]: its hot loops, compiled for AVX-512, AVX2 and any CPU, chosen at run time.

pub mod inference;
pub mod kernels;
pub mod parameters;
pub mod shape;

pub use inference::{Accumulator, Network, QA, QW};
pub use parameters::{
    MAGIC, MAX_INPUT_WEIGHT, MAX_WEIGHT, NetworkError, Parameters, Stack, epochs_of,
    max_second_weight,
};
pub use shape::Shape;

use super::features::{COUNT, Features};
use yolah_core::{Color, Position};

/// Input planes of 64 squares: black pieces, white pieces, holes.
pub const PLANES: usize = 3;
/// Board inputs (planes × squares); the side to move is one more input.
pub const BOARD_INPUTS: usize = PLANES * 64;
/// All sparse inputs: the board's and "white to move".
pub const INPUTS: usize = BOARD_INPUTS + 1;
/// Dense inputs: the features, and the features times the phase.
pub const DENSE: usize = 2 * COUNT;
/// The dense inputs are the features divided by this (mobility and territory differences
/// of tens become units).
pub const FEATURE_SCALE: f32 = 8.0;

/// The network that ships in the crate (see the README for how it was made).
pub const SHIPPED: &[u8] = include_bytes!("../../../data/network.yolahnet");

/// The input of `square` (0–63) on `plane` (0 black, 1 white, 2 holes).
#[inline]
pub const fn input(plane: usize, square: usize) -> usize {
    plane * 64 + square
}

/// The board inputs that are on in `position`, in plane order.
pub fn active_inputs(position: &Position) -> impl Iterator<Item = usize> {
    let planes = [
        position.pieces(Color::Black).0,
        position.pieces(Color::White).0,
        position.holes().0,
    ];
    planes
        .into_iter()
        .enumerate()
        .flat_map(|(plane, bits)| BitIter(bits).map(move |square| input(plane, square)))
}

struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let square = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            square
        })
    }
}

/// The dense inputs of `position`: its features over [`FEATURE_SCALE`], then the same times
/// the phase (free squares / 56).
pub fn dense_inputs(position: &Position) -> [f32; DENSE] {
    let features = Features::of(position);
    let phase = features.free as f32 / 56.0;
    let mut dense = [0.0; DENSE];
    for (k, &v) in features.values.iter().enumerate() {
        dense[k] = v as f32 / FEATURE_SCALE;
        dense[COUNT + k] = dense[k] * phase;
    }
    dense
}

/// The empty squares of `position` (56 at the start): the phase the output bucket is chosen
/// by.
#[inline]
pub fn free_squares(position: &Position) -> u32 {
    64 - position.occupied().count()
}

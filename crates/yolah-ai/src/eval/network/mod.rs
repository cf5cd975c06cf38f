//! The neural network evaluation (book chapter 7), NNUE-style: sparse board inputs, a first
//! layer kept as an accumulator that moves update, a clipped-ReLU, one or two small dense
//! layers and a scalar value, with the layers behind the first chosen by the game's phase
//! (output buckets). Sizes are the file's ([`Shape`]); format: `docs/network-format.md`.
//!
//! The sparse inputs are 192 squares-by-plane (black pieces, white pieces, holes) and one for
//! "white to move". A small network on those alone lost by 317 Elo to the tuned heuristic at
//! equal nodes (README): territory and mobility are flood fills a small network cannot learn
//! from a few hundred thousand positions. So the second layer and the output may also see 22
//! dense inputs: the heuristic's 11 features ([`Features`](crate::eval::features::Features)), and each times the game phase
//! (free squares / 56). Through the output's direct weights on them the network can be the
//! tuned heuristic exactly, which is where training starts; the board and the hidden layers
//! learn what it misses. Whether they still pay on wide networks is a [`Shape`] choice.
//!
//! The value is the rest of the game's margin for black, in points; the evaluation adds the
//! points already scored, so a position's value is its expected final margin.
//!
//! - [`inputs`]: the inputs, sparse and dense;
//! - [`shape`]: the sizes a file states;
//! - [`parameters`]: the float parameters, their forward pass (the reference) and the file;
//! - [`inference`]: the integer network the search runs;
//! - [`accumulators`]: its accumulators along a search's line, updated when a position is evaluated;
//! - [`kernels`]: its hot loops (the accumulator's update; the second layer, `u8` inputs times
//!   `i8` weights), compiled for AVX-512 (with VNNI or without), AVX2 and any CPU, chosen at
//!   run time.

pub mod accumulators;
pub mod inference;
pub mod inputs;
pub mod kernels;
pub mod parameters;
pub mod shape;

pub use accumulators::Accumulators;
pub use inference::{Accumulator, Network, SHIPPED};
pub use inputs::{
    BOARD_INPUTS, DENSE, FEATURE_SCALE, INPUTS, PLANES, active_inputs, dense_inputs, free_squares,
    input,
};
pub use kernels::{ByteRows, QA, QH, QW, SecondLayer};
pub use parameters::{
    MAGIC, MAX_INPUT_WEIGHT, MAX_WEIGHT, NetworkError, Parameters, Stack, epochs_of,
    max_second_weight,
};
pub use shape::Shape;

//! The network's inputs: the sparse board inputs (which squares hold what, and the side to
//! move) and the dense hand-made features, and the phase that picks an output bucket.

use crate::eval::features::{COUNT, Features};
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
/// `AlphaZero`'s networks with features read these too (`YOLAHPF1` and `YOLAHPF2` files):
/// changing them changes what those files mean.
#[inline(always)]
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

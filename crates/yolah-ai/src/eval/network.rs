//! The neural network evaluation (book chapter 7), NNUE-style: sparse board inputs, a first
//! layer kept as an accumulator that moves update, a clipped-ReLU, a small dense layer and a
//! scalar value. File format: `docs/network-format.md`.
//!
//! The sparse inputs are 192 squares-by-plane (black pieces, white pieces, holes) and one for
//! "white to move". A network on those alone lost by 317 Elo to the tuned heuristic at equal
//! nodes (README): territory and mobility are flood fills a small network cannot learn from a
//! few hundred thousand positions. So the second layer and the output also see 22 dense
//! inputs: the heuristic's 11 features ([`Features`]), and each times the game phase (free
//! squares / 56). Through the output's direct weights on them the network can be the tuned
//! heuristic exactly, which is where training starts; the board and the hidden layers learn
//! what it misses.
//!
//! The value is the rest of the game's margin for black, in points; the evaluation adds the
//! points already scored, so a position's value is its expected final margin.
//!
//! Inference: the accumulator holds `i16` at scale [`QA`] (so the clipped `ReLU` is a clamp to
//! `0..=QA`), the second layer's board weights are `i16` at scale [`QW`] with `i32` sums; the
//! dense inputs and the 16 outputs are float. [`Parameters::forward`] is the float reference
//! the trainer's forward pass is tested against; the integer path is tested against it.

use super::features::{COUNT, Features};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use yolah_core::{Color, Move, Position};

/// Input planes of 64 squares: black pieces, white pieces, holes.
pub const PLANES: usize = 3;
/// Board inputs (planes × squares); the side to move is one more input.
pub const BOARD_INPUTS: usize = PLANES * 64;
/// All sparse inputs: the board's and "white to move".
pub const INPUTS: usize = BOARD_INPUTS + 1;
/// Dense inputs: the features, and the features times the phase.
pub const DENSE: usize = 2 * COUNT;
/// Units of the first layer (the accumulator).
pub const HIDDEN: usize = 128;
/// Units of the second layer.
pub const HIDDEN2: usize = 16;
/// Number of parameters, in file order.
pub const PARAMETERS: usize =
    INPUTS * HIDDEN + HIDDEN + HIDDEN2 * HIDDEN + HIDDEN2 * DENSE + HIDDEN2 + HIDDEN2 + DENSE + 1;
/// The dense inputs are the features divided by this (mobility and territory differences
/// of tens become units).
pub const FEATURE_SCALE: f32 = 8.0;

/// Scale of the accumulator: a clipped-ReLU output of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Scale of the second layer's integer board weights.
pub const QW: i32 = 256;
/// Largest magnitude of a first-layer weight or bias: with at most 64 inputs on, the bias and
/// the side, `66 × 1.9 × 255` stays inside `i16`. The trainer clips to it; the loader checks.
pub const MAX_INPUT_WEIGHT: f32 = 1.9;
/// Largest magnitude of any other parameter: the second layer at scale [`QW`] stays inside
/// `i16` (64 × 256 = 16384) and its sums inside `i32`.
pub const MAX_WEIGHT: f32 = 64.0;

/// The first 8 bytes of a network file.
pub const MAGIC: &[u8; 8] = b"YOLAHNET";
/// The file format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;
/// Bytes of a whole file: header, parameters as `f32`, CRC-32.
pub const FILE_SIZE: usize = HEADER_SIZE + 4 * PARAMETERS + 4;

/// The network that ships in the crate (see the README for how it was made).
pub const SHIPPED: &[u8] = include_bytes!("../../data/network.yolahnet");

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

/// The float parameters, as trained and stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    /// First layer, input-major: the [`HIDDEN`] weights of input `i` at `i * HIDDEN`
    /// (the last input is "white to move").
    pub input: Vec<f32>,
    /// First layer's biases.
    pub bias1: Vec<f32>,
    /// Second layer's weights on the first layer, unit-major: the [`HIDDEN`] weights of unit
    /// `j` at `j * HIDDEN`.
    pub hidden: Vec<f32>,
    /// Second layer's weights on the dense inputs, unit-major: [`DENSE`] for each unit.
    pub dense: Vec<f32>,
    /// Second layer's biases.
    pub bias2: Vec<f32>,
    /// Output weights on the second layer.
    pub output: Vec<f32>,
    /// Output weights on the dense inputs (the direct, linear path).
    pub skip: Vec<f32>,
    /// Output bias.
    pub bias3: f32,
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Clipped `ReLU`.
#[inline]
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Parameters {
    /// All zero.
    pub fn zeros() -> Parameters {
        Parameters {
            input: vec![0.0; INPUTS * HIDDEN],
            bias1: vec![0.0; HIDDEN],
            hidden: vec![0.0; HIDDEN2 * HIDDEN],
            dense: vec![0.0; HIDDEN2 * DENSE],
            bias2: vec![0.0; HIDDEN2],
            output: vec![0.0; HIDDEN2],
            skip: vec![0.0; DENSE],
            bias3: 0.0,
        }
    }

    /// The parameters in file order.
    pub fn flat(&self) -> Vec<f32> {
        let mut flat = Vec::with_capacity(PARAMETERS);
        flat.extend_from_slice(&self.input);
        flat.extend_from_slice(&self.bias1);
        flat.extend_from_slice(&self.hidden);
        flat.extend_from_slice(&self.dense);
        flat.extend_from_slice(&self.bias2);
        flat.extend_from_slice(&self.output);
        flat.extend_from_slice(&self.skip);
        flat.push(self.bias3);
        flat
    }

    /// From parameters in file order ([`PARAMETERS`] of them).
    pub fn from_flat(flat: &[f32]) -> Parameters {
        assert_eq!(flat.len(), PARAMETERS, "parameter count");
        let mut rest = flat;
        let mut take = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        };
        Parameters {
            input: take(INPUTS * HIDDEN),
            bias1: take(HIDDEN),
            hidden: take(HIDDEN2 * HIDDEN),
            dense: take(HIDDEN2 * DENSE),
            bias2: take(HIDDEN2),
            output: take(HIDDEN2),
            skip: take(DENSE),
            bias3: take(1)[0],
        }
    }

    /// The float network's value of `position`: the rest of the game's margin for black, in
    /// points. The reference for the trainer and for the integer inference.
    pub fn forward(&self, position: &Position) -> f32 {
        let mut acc = self.bias1.clone();
        let side = (position.side_to_move() == Color::White).then_some(BOARD_INPUTS);
        for i in active_inputs(position).chain(side) {
            for (a, w) in acc
                .iter_mut()
                .zip(&self.input[i * HIDDEN..(i + 1) * HIDDEN])
            {
                *a += w;
            }
        }
        let dense = dense_inputs(position);
        let mut out = self.bias3 + dot(&self.skip, &dense);
        for j in 0..HIDDEN2 {
            let row = &self.hidden[j * HIDDEN..(j + 1) * HIDDEN];
            let board: f32 = row.iter().zip(&acc).map(|(w, &a)| w * crelu(a)).sum();
            let z = self.bias2[j] + board + dot(&self.dense[j * DENSE..(j + 1) * DENSE], &dense);
            out += self.output[j] * crelu(z);
        }
        out
    }

    /// The file: header (with the epochs the network was trained, for the trainer's
    /// `--resume`), parameters, CRC-32 of everything before it.
    pub fn to_bytes(&self, epochs: u32) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(FILE_SIZE);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for size in [INPUTS, HIDDEN, HIDDEN2, DENSE, 0] {
            bytes.extend_from_slice(&(size as u16).to_le_bytes());
        }
        bytes.extend_from_slice(&(PARAMETERS as u32).to_le_bytes());
        bytes.extend_from_slice(&epochs.to_le_bytes());
        bytes.resize(HEADER_SIZE, 0);
        for x in self.flat() {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Reads a network file, checking everything: magic, version, architecture, size,
    /// checksum, and that every parameter is finite and within its limit.
    pub fn from_bytes(bytes: &[u8]) -> Result<Parameters, NetworkError> {
        let bad = |reason: String| Err(NetworkError::Format(reason));
        if bytes.len() < HEADER_SIZE || &bytes[0..8] != MAGIC {
            return bad("not a Yolah network file (no YOLAHNET magic)".to_string());
        }
        let word = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = word(8);
        if version != VERSION {
            return bad(format!(
                "network format version {version}; this yolah reads version {VERSION}"
            ));
        }
        let shape = [word(10), word(12), word(14), word(16)].map(usize::from);
        if shape != [INPUTS, HIDDEN, HIDDEN2, DENSE] {
            return bad(format!(
                "architecture {}x{}x{}x1 with {} dense inputs; this yolah runs {INPUTS}x{HIDDEN}x{HIDDEN2}x1 with {DENSE}",
                shape[0], shape[1], shape[2], shape[3]
            ));
        }
        if bytes.len() != FILE_SIZE {
            return bad(format!(
                "{} bytes; a network file of this architecture has {FILE_SIZE} (cut short or padded)",
                bytes.len()
            ));
        }
        let (body, crc) = bytes.split_at(FILE_SIZE - 4);
        let stored = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return bad("checksum mismatch (the file is damaged)".to_string());
        }
        let flat: Vec<f32> = body[HEADER_SIZE..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let first_layer = INPUTS * HIDDEN + HIDDEN;
        for (i, &x) in flat.iter().enumerate() {
            let limit = if i < first_layer {
                MAX_INPUT_WEIGHT
            } else {
                MAX_WEIGHT
            };
            if !x.is_finite() || x.abs() > limit {
                return bad(format!(
                    "parameter {i} is {x}, outside ±{limit} (not a network this yolah can run)"
                ));
            }
        }
        Ok(Parameters::from_flat(&flat))
    }
}

/// The epochs of training a network file records (0 if none; read it after
/// [`Parameters::from_bytes`] accepted the file).
pub fn epochs_of(bytes: &[u8]) -> u32 {
    bytes
        .get(24..28)
        .map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
}

/// Why a network file was refused.
#[derive(Debug)]
pub enum NetworkError {
    /// The file could not be read.
    Io(String, std::io::Error),
    /// Not a network file this code runs.
    Format(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(path, error) => write!(f, "cannot read network '{path}': {error}"),
            NetworkError::Format(reason) => write!(f, "bad network file: {reason}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The integer network the search runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// First layer at scale [`QA`], input-major.
    input: Box<[[i16; HIDDEN]; INPUTS]>,
    bias1: [i16; HIDDEN],
    /// Second layer's board weights at scale [`QW`], unit-major.
    hidden: Box<[[i16; HIDDEN]; HIDDEN2]>,
    /// Second layer's dense weights, input-major: the units' sums are then independent, and
    /// vectorise (a float dot product of 22 would be a chain of dependent additions).
    dense: [[f32; HIDDEN2]; DENSE],
    bias2: [f32; HIDDEN2],
    output: [f32; HIDDEN2],
    skip: [f32; DENSE],
    bias3: f32,
    parameters: Parameters,
}

/// The first layer's sums for one position (without the side to move, which
/// [`Network::evaluate`] adds): what `play` and `undo` keep up to date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [i16; HIDDEN],
}

impl Network {
    /// The integer network of `parameters` (checked as the file reader checks them).
    pub fn new(parameters: Parameters) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i32;
        let mut input: Box<[[i16; HIDDEN]; INPUTS]> = vec![[0i16; HIDDEN]; INPUTS]
            .into_boxed_slice()
            .try_into()
            .expect("INPUTS rows");
        for (i, row) in input.iter_mut().enumerate() {
            for (h, w) in row.iter_mut().enumerate() {
                *w = q(parameters.input[i * HIDDEN + h], QA) as i16;
            }
        }
        let mut hidden = Box::new([[0i16; HIDDEN]; HIDDEN2]);
        for (j, row) in hidden.iter_mut().enumerate() {
            for (h, w) in row.iter_mut().enumerate() {
                *w = q(parameters.hidden[j * HIDDEN + h], QW) as i16;
            }
        }
        Network {
            input,
            bias1: std::array::from_fn(|h| q(parameters.bias1[h], QA) as i16),
            hidden,
            dense: std::array::from_fn(|k| {
                std::array::from_fn(|j| parameters.dense[j * DENSE + k])
            }),
            bias2: std::array::from_fn(|j| parameters.bias2[j]),
            output: std::array::from_fn(|j| parameters.output[j]),
            skip: std::array::from_fn(|k| parameters.skip[k]),
            bias3: parameters.bias3,
            parameters,
        }
    }

    /// Reads and checks a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = crate::files::read_bounded(path, FILE_SIZE as u64)
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

    /// The accumulator of `position`, computed from scratch.
    pub fn accumulator(&self, position: &Position) -> Accumulator {
        let mut acc = Accumulator { values: self.bias1 };
        for i in active_inputs(position) {
            add(&mut acc.values, &self.input[i]);
        }
        acc
    }

    /// Updates `acc` for `mover` playing `m`: its piece leaves `from` for `to`, and `from`
    /// becomes a hole (three inputs; a pass changes none).
    #[inline]
    pub fn play(&self, acc: &mut Accumulator, mover: Color, m: Move) {
        if m.is_pass() {
            return;
        }
        let plane = mover.index();
        let (from, to) = (m.from().index(), m.to().index());
        sub(&mut acc.values, &self.input[input(plane, from)]);
        add(&mut acc.values, &self.input[input(plane, to)]);
        add(&mut acc.values, &self.input[input(2, from)]);
    }

    /// Undoes [`Network::play`] (exactly: integer sums).
    #[inline]
    pub fn undo(&self, acc: &mut Accumulator, mover: Color, m: Move) {
        if m.is_pass() {
            return;
        }
        let plane = mover.index();
        let (from, to) = (m.from().index(), m.to().index());
        add(&mut acc.values, &self.input[input(plane, from)]);
        sub(&mut acc.values, &self.input[input(plane, to)]);
        sub(&mut acc.values, &self.input[input(2, from)]);
    }

    /// The network's value of the rest of the game for black, in points, from `acc` (which
    /// must be `position`'s).
    #[inline]
    pub fn rest_for_black(&self, acc: &Accumulator, position: &Position) -> f32 {
        let side: &[i16; HIDDEN] = if position.side_to_move() == Color::White {
            &self.input[BOARD_INPUTS]
        } else {
            &[0; HIDDEN]
        };
        let mut h = [0i16; HIDDEN];
        for ((h, &a), &s) in h.iter_mut().zip(&acc.values).zip(side) {
            *h = (i32::from(a) + i32::from(s)).clamp(0, QA) as i16;
        }
        let dense = dense_inputs(position);
        let mut z = self.bias2;
        for (k, &d) in dense.iter().enumerate() {
            for (z, &w) in z.iter_mut().zip(&self.dense[k]) {
                *z += w * d;
            }
        }
        for (z, row) in z.iter_mut().zip(self.hidden.iter()) {
            let sum: i32 = row
                .iter()
                .zip(&h)
                .map(|(&w, &x)| i32::from(w) * i32::from(x))
                .sum();
            *z += sum as f32 * (1.0 / (QA * QW) as f32);
        }
        let mut out = self.bias3 + dot(&self.skip, &dense);
        for (&w, &z) in self.output.iter().zip(&z) {
            out += w * crelu(z);
        }
        out
    }

    /// The value of `position` for the side to move, in hundredths of a point of final margin
    /// (the points scored so far plus the network's rest of the game); `acc` must be
    /// `position`'s.
    #[inline]
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

#[inline]
fn add(acc: &mut [i16; HIDDEN], weights: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(weights) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], weights: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(weights) {
        *a = a.wrapping_sub(w);
    }
}

//! The float parameters of a network of any [`Shape`], as trained and stored, their forward
//! pass (the reference the trainer and the integer inference are tested against), and the
//! file format (`docs/network-format.md`: version 2 states the shape; version 1 files, of
//! the one shape they had, still load).

use super::inputs::{BOARD_INPUTS, DENSE, INPUTS, active_inputs, dense_inputs, free_squares};
use super::shape::Shape;
use std::fmt;
use yolah_core::{Color, Position};

/// Largest magnitude of a first-layer weight or bias: with at most 64 inputs on, the bias and
/// the side, `66 × 1.9 × 255` stays inside `i16`. The trainer clips to it; the loader checks.
pub const MAX_INPUT_WEIGHT: f32 = 1.9;
/// Largest magnitude of any later parameter; the second layer's weights on the first layer
/// are held tighter on wide networks by [`max_second_weight`].
pub const MAX_WEIGHT: f32 = 64.0;

/// The largest magnitude of a second-layer weight on the first layer of a network with
/// `hidden` units: its integer sum (`hidden` products of at most 255 and the weight × 256)
/// stays inside `i32`, and the weight × 256 inside `i16`.
pub fn max_second_weight(hidden: usize) -> f32 {
    let fits = f64::from(i32::MAX) / (hidden as f64 * 255.0 * 256.0);
    MAX_WEIGHT.min(fits.floor() as f32)
}

/// The first 8 bytes of a network file.
pub const MAGIC: &[u8; 8] = b"YOLAHNET";
/// The file format version this code writes (it reads 1 and 2).
pub const VERSION: u16 = 2;
/// Bytes of a version-1 header.
pub const HEADER_V1: usize = 32;
/// Bytes of a version-2 header.
pub const HEADER_V2: usize = 64;
/// The largest network file this code reads (a network of [`super::shape::MAX_HIDDEN`]
/// units and the largest layers behind it is well under).
pub const MAX_FILE_SIZE: u64 = 16 << 20;

/// The layers behind the first, for one output bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// Second layer's weights on the first, unit-major: `hidden` weights for each unit.
    pub hidden: Vec<f32>,
    /// Second layer's weights on the dense inputs, unit-major (empty without features).
    pub dense: Vec<f32>,
    /// Second layer's biases.
    pub bias2: Vec<f32>,
    /// Third layer's weights on the second, unit-major (empty without a third layer).
    pub third: Vec<f32>,
    /// Third layer's biases.
    pub bias3: Vec<f32>,
    /// Output weights on the last hidden layer.
    pub output: Vec<f32>,
    /// Output weights on the dense inputs (the direct, linear path; empty without features).
    pub skip: Vec<f32>,
    /// Output bias.
    pub bias_out: f32,
}

/// The float parameters, as trained and stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    /// The sizes.
    pub shape: Shape,
    /// First layer, input-major: the `hidden` weights of input `i` at `i * hidden` (the last
    /// input is "white to move").
    pub input: Vec<f32>,
    /// First layer's biases.
    pub bias1: Vec<f32>,
    /// One stack of later layers per output bucket.
    pub stacks: Vec<Stack>,
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Clipped `ReLU`.
#[inline]
pub(super) fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Parameters {
    /// All zero, of `shape`.
    pub fn zeros(shape: Shape) -> Parameters {
        let d = shape.dense();
        let stack = Stack {
            hidden: vec![0.0; shape.second * shape.hidden],
            dense: vec![0.0; shape.second * d],
            bias2: vec![0.0; shape.second],
            third: vec![0.0; shape.third * shape.second],
            bias3: vec![0.0; shape.third],
            output: vec![0.0; shape.last()],
            skip: vec![0.0; d],
            bias_out: 0.0,
        };
        Parameters {
            shape,
            input: vec![0.0; INPUTS * shape.hidden],
            bias1: vec![0.0; shape.hidden],
            stacks: vec![stack; shape.buckets],
        }
    }

    /// The parameters in file order, with the limit each must keep.
    pub fn flat_with_limits(&self) -> Vec<(f32, f32)> {
        let mut flat = Vec::with_capacity(self.shape.parameters());
        let mut put = |values: &[f32], limit: f32| flat.extend(values.iter().map(|&v| (v, limit)));
        put(&self.input, MAX_INPUT_WEIGHT);
        put(&self.bias1, MAX_INPUT_WEIGHT);
        let second = max_second_weight(self.shape.hidden);
        for s in &self.stacks {
            put(&s.hidden, second);
            put(&s.dense, MAX_WEIGHT);
            put(&s.bias2, MAX_WEIGHT);
            put(&s.third, MAX_WEIGHT);
            put(&s.bias3, MAX_WEIGHT);
            put(&s.output, MAX_WEIGHT);
            put(&s.skip, MAX_WEIGHT);
            put(&[s.bias_out], MAX_WEIGHT);
        }
        flat
    }

    /// The parameters in file order.
    pub fn flat(&self) -> Vec<f32> {
        self.flat_with_limits()
            .into_iter()
            .map(|(v, _)| v)
            .collect()
    }

    /// From parameters in file order (`shape.parameters()` of them).
    pub fn from_flat(shape: Shape, flat: &[f32]) -> Parameters {
        assert_eq!(flat.len(), shape.parameters(), "parameter count");
        let mut rest = flat;
        let mut take = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        };
        let d = shape.dense();
        let input = take(INPUTS * shape.hidden);
        let bias1 = take(shape.hidden);
        let stacks = (0..shape.buckets)
            .map(|_| Stack {
                hidden: take(shape.second * shape.hidden),
                dense: take(shape.second * d),
                bias2: take(shape.second),
                third: take(shape.third * shape.second),
                bias3: take(shape.third),
                output: take(shape.last()),
                skip: take(d),
                bias_out: take(1)[0],
            })
            .collect();
        Parameters {
            shape,
            input,
            bias1,
            stacks,
        }
    }

    /// The float network's value of `position`: the rest of the game's margin for black, in
    /// points. The reference for the trainer and for the integer inference.
    pub fn forward(&self, position: &Position) -> f32 {
        let hidden = self.shape.hidden;
        let mut acc = self.bias1.clone();
        let side = (position.side_to_move() == Color::White).then_some(BOARD_INPUTS);
        for i in active_inputs(position).chain(side) {
            for (a, w) in acc
                .iter_mut()
                .zip(&self.input[i * hidden..(i + 1) * hidden])
            {
                *a += w;
            }
        }
        let stack = &self.stacks[self.shape.bucket(free_squares(position))];
        let dense = if self.shape.features {
            dense_inputs(position).to_vec()
        } else {
            Vec::new()
        };
        let d = dense.len();
        let second: Vec<f32> = (0..self.shape.second)
            .map(|j| {
                let row = &stack.hidden[j * hidden..(j + 1) * hidden];
                let board: f32 = row.iter().zip(&acc).map(|(w, &a)| w * crelu(a)).sum();
                crelu(stack.bias2[j] + board + dot(&stack.dense[j * d..(j + 1) * d], &dense))
            })
            .collect();
        let last: Vec<f32> = if self.shape.third > 0 {
            let n = self.shape.second;
            (0..self.shape.third)
                .map(|k| crelu(stack.bias3[k] + dot(&stack.third[k * n..(k + 1) * n], &second)))
                .collect()
        } else {
            second
        };
        stack.bias_out + dot(&stack.skip, &dense) + dot(&stack.output, &last)
    }

    /// The file (version 2): header (the shape, and the epochs the network was trained, for
    /// the trainer's `--resume`), parameters, CRC-32 of everything before it.
    pub fn to_bytes(&self, epochs: u32) -> Vec<u8> {
        let shape = self.shape;
        let mut bytes = Vec::with_capacity(HEADER_V2 + 4 * shape.parameters() + 4);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for size in [
            INPUTS,
            shape.hidden,
            shape.second,
            shape.third,
            shape.buckets,
            shape.dense(),
            0,
        ] {
            bytes.extend_from_slice(&(size as u16).to_le_bytes());
        }
        bytes.extend_from_slice(&epochs.to_le_bytes());
        bytes.extend_from_slice(&(shape.parameters() as u32).to_le_bytes());
        bytes.resize(HEADER_V2, 0);
        for x in self.flat() {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Reads a network file of version 1 or 2, checking everything: magic, version, shape,
    /// size, checksum, and that every parameter is finite and within its limit.
    pub fn from_bytes(bytes: &[u8]) -> Result<Parameters, NetworkError> {
        let bad = |reason: String| Err(NetworkError::Format(reason));
        if bytes.len() < HEADER_V1 || &bytes[0..8] != MAGIC {
            return bad("not a Yolah network file (no YOLAHNET magic)".to_string());
        }
        let word = |i: usize| usize::from(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
        let (shape, header) = match word(8) {
            1 => {
                // Version 1: 193, 128, 16, 22 at 10..18; one shape only.
                let sizes = [word(10), word(12), word(14), word(16)];
                if sizes != [INPUTS, 128, 16, 22] {
                    return bad(format!(
                        "a version-1 network of {}x{}x{}x1 with {} dense inputs; version 1 had only 193x128x16x1 with 22",
                        sizes[0], sizes[1], sizes[2], sizes[3]
                    ));
                }
                (Shape::V1, HEADER_V1)
            }
            2 => {
                if bytes.len() < HEADER_V2 {
                    return bad(format!(
                        "{} bytes: shorter than a version-2 header",
                        bytes.len()
                    ));
                }
                if word(10) != INPUTS {
                    return bad(format!(
                        "{} sparse inputs; this yolah's networks have {INPUTS}",
                        word(10)
                    ));
                }
                let dense = word(20);
                if dense != 0 && dense != DENSE {
                    return bad(format!(
                        "{dense} dense inputs; this yolah's are {DENSE} (or none)"
                    ));
                }
                let shape = Shape {
                    hidden: word(12),
                    second: word(14),
                    third: word(16),
                    buckets: word(18),
                    features: dense > 0,
                };
                shape.check().map_err(NetworkError::Format)?;
                (shape, HEADER_V2)
            }
            version => {
                return bad(format!(
                    "network format version {version}; this yolah reads versions 1 and 2"
                ));
            }
        };
        let size = header + 4 * shape.parameters() + 4;
        if bytes.len() != size {
            return bad(format!(
                "{} bytes; a network file of shape {shape} has {size} (cut short or padded)",
                bytes.len()
            ));
        }
        // The parameter count the header states (version 1 at 20, version 2 at 28) is the
        // shape's: a header that disagrees with itself is not ours.
        let count_at = if header == HEADER_V1 { 20 } else { 28 };
        let count = u32::from_le_bytes(bytes[count_at..count_at + 4].try_into().expect("4 bytes"));
        if count as usize != shape.parameters() {
            return bad(format!(
                "the header's parameter count is {count}; a network of shape {shape} has {}",
                shape.parameters()
            ));
        }
        let (body, crc) = bytes.split_at(size - 4);
        let stored = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return bad("checksum mismatch (the file is damaged)".to_string());
        }
        let flat: Vec<f32> = body[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let parameters = Parameters::from_flat(shape, &flat);
        for (i, (x, limit)) in parameters.flat_with_limits().into_iter().enumerate() {
            if !x.is_finite() || x.abs() > limit {
                return bad(format!(
                    "parameter {i} is {x}, outside ±{limit} (not a network this yolah can run)"
                ));
            }
        }
        Ok(parameters)
    }
}

/// The epochs of training a network file records (0 if none; read it after
/// [`Parameters::from_bytes`] accepted the file). Both versions keep it at bytes 24–27.
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

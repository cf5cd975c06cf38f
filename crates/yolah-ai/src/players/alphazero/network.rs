//! The policy-value network of the `alphazero` player: a residual MLP over the position seen
//! from the side to move, with a value head and a policy head over the moves.
//!
//! - Inputs (192, sparse): the mover's pieces, the opponent's pieces, the holes, 64 squares
//!   each. The first layer adds the columns of the inputs that are on (as an NNUE's does).
//! - With features (optional, as `KataGo` gives its network liberties and ladders): the 22
//!   dense inputs of the minimax network ([`crate::eval::network::inputs::dense_inputs`]:
//!   mobility, territories, regions… and the same times the phase), seen from the side to
//!   move, through their own columns `F`.
//! - `h1 = relu(W1·x + F·d + b1)` (H units), `h2 = h1 + relu(W2·h1 + b2)` (a residual block).
//! - Value: `tanh(v·h2 + c)`, the expected result for the side to move, −1 (loss) to +1 (win).
//! - Margin (an auxiliary head, as `KataGo`'s score): `m·h2 + e`, the final margin for the side
//!   to move in units of [`MARGIN_SCALE`] points. Only training reads it (`yolah zero
//!   --margin-weight`): its gradient shapes `h1` and `h2`; the player does not compute it.
//! - Policy: one row of `P` per queen move (1,456 of them: every (from, to) on a line) and one
//!   for the pass; a move's logit is `P[move]·h2 + p[move]`, computed for the legal moves only
//!   and turned into priors by a softmax over them.
//!
//! The file (`.yolahpv`): the 8 bytes `YOLAHPV2` (`YOLAHPF2` with features), H as a
//! little-endian `u32`, then every parameter as a little-endian `f32` in the order of
//! [`Parameters`] (`F` empty without features), then an FNV-1a 64 hash of everything before
//! it. Files made before the margin head (`YOLAHPV1`, `YOLAHPF1`) are the same without its
//! `H + 1` floats, and read with a head of zeros. A file of any other size, magic, hash, H, or
//! with a value that is not finite is refused with the reason.

use crate::eval::network::inputs::{DENSE, dense_inputs};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::sync::OnceLock;
use yolah_core::zobrist::fnv1a;
use yolah_core::{Color, Move, Position};

/// Input planes × squares.
pub const INPUTS: usize = 3 * 64;
/// Policy rows: the queen moves and the pass.
pub const MOVES: usize = 1457;
/// Hidden units allowed: 8 to 1024, a multiple of 8.
pub const MAX_HIDDEN: usize = 1024;
/// The hidden units of a new network unless told.
pub const DEFAULT_HIDDEN: usize = 128;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"YOLAHPV2";
/// The file's first bytes for a network with features.
pub const MAGIC_FEATURES: &[u8; 8] = b"YOLAHPF2";
/// The first bytes of the files made before the margin head, without and with features.
pub const MAGICS_WITHOUT_MARGIN: [&[u8; 8]; 2] = [b"YOLAHPV1", b"YOLAHPF1"];
/// Points of final margin in one unit of the margin head.
pub const MARGIN_SCALE: f32 = 16.0;
/// The dense inputs of a network with features: the minimax network's, so a change to
/// [`dense_inputs`] changes what `YOLAHPF2` files mean (and needs a new magic).
pub const FEATURES: usize = DENSE;

/// The dense inputs of `position` seen from its side to move (the minimax network's are
/// black's minus white's).
#[inline]
pub fn mover_features(position: &Position) -> [f32; FEATURES] {
    let mut dense = dense_inputs(position);
    if position.side_to_move() == Color::White {
        for x in &mut dense {
            *x = -*x;
        }
    }
    dense
}

/// The row of each (from, to), or `u16::MAX` for a pair no move joins; the pass is row 0.
fn move_rows() -> &'static [u16; 4096] {
    static ROWS: OnceLock<[u16; 4096]> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows = [u16::MAX; 4096];
        rows[0] = 0;
        let mut next = 1u16;
        for from in 0..64i32 {
            for to in 0..64i32 {
                let (df, dr) = (to % 8 - from % 8, to / 8 - from / 8);
                let line = df == 0 || dr == 0 || df.abs() == dr.abs();
                if from != to && line {
                    rows[(from * 64 + to) as usize] = next;
                    next += 1;
                }
            }
        }
        debug_assert_eq!(usize::from(next), MOVES);
        rows
    })
}

/// The policy row of a legal move.
pub fn move_row(m: Move) -> usize {
    let row = move_rows()[m.from().index() * 64 + m.to().index()];
    debug_assert!(row != u16::MAX, "{m} is no queen move");
    usize::from(row)
}

/// The inputs that are on in `position`, from its side to move: at most 64.
pub fn active_inputs(position: &Position, out: &mut Vec<u16>) {
    out.clear();
    let mover = position.side_to_move();
    let boards = [
        position.pieces(mover).0,
        position.pieces(mover.opponent()).0,
        position.holes().0,
    ];
    for (plane, board) in boards.into_iter().enumerate() {
        let mut bits = board;
        while bits != 0 {
            out.push((plane * 64) as u16 + bits.trailing_zeros() as u16);
            bits &= bits - 1;
        }
    }
}

/// Panics unless `hidden` is a size the network runs: 8 to [`MAX_HIDDEN`], a multiple of 8
/// (the forward pass sums the first layer 8 or 64 units at a time).
fn assert_hidden(hidden: usize) {
    assert!(
        (8..=MAX_HIDDEN).contains(&hidden) && hidden.is_multiple_of(8),
        "{hidden} hidden units: 8 to {MAX_HIDDEN}, a multiple of 8"
    );
}

/// Every parameter, float32, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    /// Hidden units.
    pub hidden: usize,
    /// Whether the network reads the features.
    pub features: bool,
    /// `[INPUTS][H]`: input i's column.
    pub w1: Vec<f32>,
    /// `[FEATURES][H]`: feature k's column; empty without features.
    pub wf: Vec<f32>,
    /// `[H]`.
    pub b1: Vec<f32>,
    /// `[H][H]`: unit j of the block reads `w2[j·H + i]` from unit i.
    pub w2: Vec<f32>,
    /// `[H]`.
    pub b2: Vec<f32>,
    /// `[MOVES][H]`.
    pub policy: Vec<f32>,
    /// `[MOVES]`.
    pub policy_bias: Vec<f32>,
    /// `[H]`.
    pub value: Vec<f32>,
    /// The value's bias.
    pub value_bias: f32,
    /// `[H]`: the margin head (training's alone).
    pub margin: Vec<f32>,
    /// The margin head's bias.
    pub margin_bias: f32,
}

impl Parameters {
    /// A new network of `hidden` units, with or without `features`, its weights drawn from
    /// `seed` (He initialisation; the heads start near zero, so every move is about as likely
    /// and every position a draw).
    pub fn random(hidden: usize, features: bool, seed: u64) -> Parameters {
        assert_hidden(hidden);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut draw = |n: usize, scale: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * scale)
                .collect()
        };
        // Uniform in ±√(6/fan_in): variance 2/fan_in. About 12 inputs of 192 are on.
        let w1 = draw(INPUTS * hidden, (6.0f32 / 16.0).sqrt());
        let w2 = draw(hidden * hidden, (6.0 / hidden as f32).sqrt() * 0.5);
        let policy = draw(MOVES * hidden, 0.01);
        let value = draw(hidden, 0.01);
        // Drawn last, so a network without features has the weights it always had.
        let wf = if features {
            draw(FEATURES * hidden, (6.0f32 / FEATURES as f32).sqrt() * 0.5)
        } else {
            Vec::new()
        };
        // And the margin head after them, so every other weight is the one it always was.
        let margin = draw(hidden, 0.01);
        Parameters {
            hidden,
            features,
            w1,
            wf,
            b1: vec![0.0; hidden],
            w2,
            b2: vec![0.0; hidden],
            policy,
            policy_bias: vec![0.0; MOVES],
            value,
            value_bias: 0.0,
            margin,
            margin_bias: 0.0,
        }
    }

    /// A network of `hidden` units, with or without `features`, whose every parameter is 0
    /// (the shape of a gradient).
    pub fn zeros(hidden: usize, features: bool) -> Parameters {
        assert_hidden(hidden);
        Parameters {
            hidden,
            features,
            w1: vec![0.0; INPUTS * hidden],
            wf: vec![0.0; if features { FEATURES * hidden } else { 0 }],
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden * hidden],
            b2: vec![0.0; hidden],
            policy: vec![0.0; MOVES * hidden],
            policy_bias: vec![0.0; MOVES],
            value: vec![0.0; hidden],
            value_bias: 0.0,
            margin: vec![0.0; hidden],
            margin_bias: 0.0,
        }
    }

    /// The arrays in file order, mutable (for trainers that walk every parameter).
    pub fn arrays_mut(&mut self) -> [&mut [f32]; 11] {
        [
            &mut self.w1,
            &mut self.wf,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.policy,
            &mut self.policy_bias,
            &mut self.value,
            std::slice::from_mut(&mut self.value_bias),
            &mut self.margin,
            std::slice::from_mut(&mut self.margin_bias),
        ]
    }

    /// The arrays in file order.
    pub fn arrays(&self) -> [&[f32]; 11] {
        [
            &self.w1,
            &self.wf,
            &self.b1,
            &self.w2,
            &self.b2,
            &self.policy,
            &self.policy_bias,
            &self.value,
            std::slice::from_ref(&self.value_bias),
            &self.margin,
            std::slice::from_ref(&self.margin_bias),
        ]
    }

    /// The number of floats for `hidden` units, with or without `features`.
    pub fn count(hidden: usize, features: bool) -> usize {
        let dense = if features { FEATURES * hidden } else { 0 };
        INPUTS * hidden
            + dense
            + hidden
            + hidden * hidden
            + hidden
            + MOVES * hidden
            + MOVES
            + hidden
            + 1
            + hidden
            + 1
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(20 + 4 * Parameters::count(self.hidden, self.features));
        bytes.extend_from_slice(if self.features { MAGIC_FEATURES } else { MAGIC });
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for array in self.arrays() {
            for x in array {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        let hash = fnv1a(&bytes);
        bytes.extend_from_slice(&hash.to_le_bytes());
        bytes
    }

    /// Reads a file's bytes; the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Parameters, String> {
        let (features, with_margin) = match bytes.get(..8) {
            Some(magic) if magic == MAGIC => (false, true),
            Some(magic) if magic == MAGIC_FEATURES => (true, true),
            Some(magic) if magic == MAGICS_WITHOUT_MARGIN[0] => (false, false),
            Some(magic) if magic == MAGICS_WITHOUT_MARGIN[1] => (true, false),
            _ => {
                return Err(
                    "it does not start with YOLAHPV2 or YOLAHPF2 (nor YOLAHPV1, YOLAHPF1)".into(),
                );
            }
        };
        if bytes.len() < 20 {
            return Err(format!("{} bytes: too short for a network", bytes.len()));
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if !(8..=MAX_HIDDEN).contains(&hidden) || !hidden.is_multiple_of(8) {
            return Err(format!(
                "{hidden} hidden units (8 to {MAX_HIDDEN}, a multiple of 8)"
            ));
        }
        let head = if with_margin { 0 } else { hidden + 1 };
        let expected = 12 + 4 * (Parameters::count(hidden, features) - head) + 8;
        if bytes.len() != expected {
            let with = if features { " with features" } else { "" };
            return Err(format!(
                "{} bytes where {hidden} hidden units{with} take {expected}",
                bytes.len()
            ));
        }
        let (body, hash) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(hash.try_into().expect("8 bytes")) {
            return Err("its hash does not match its contents (damaged)".into());
        }
        let mut floats = body[12..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        if let Some(at) = floats.clone().position(|x| !x.is_finite() || x.abs() > 1e6) {
            return Err(format!("parameter {at} is not a finite value below 10⁶"));
        }
        let mut parameters = Parameters::zeros(hidden, features);
        let arrays = parameters.arrays_mut();
        let read = arrays.len() - if with_margin { 0 } else { 2 };
        for array in arrays.into_iter().take(read) {
            for x in array.iter_mut() {
                *x = floats.next().expect("the size was checked");
            }
        }
        Ok(parameters)
    }

    /// Reads a `.yolahpv` file (at most 16 MiB); the error names the file and the reason.
    pub fn load(path: &Path) -> Result<Parameters, String> {
        let shown = path.display();
        let bytes = crate::files::read_bounded(path, 16 << 20)
            .map_err(|error| format!("cannot read '{shown}': {error}"))?;
        Parameters::from_bytes(&bytes)
            .map_err(|why| format!("'{shown}' is not a policy-value network (.yolahpv): {why}"))
    }
}

/// What the network says of a position: a prior for each legal move (in the order of
/// `position.moves()`, summing to 1) and the value for the side to move, −1 to +1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Priors of the legal moves.
    pub priors: Vec<f32>,
    /// The expected result for the side to move.
    pub value: f32,
}

/// The hidden activations of one forward pass, kept for a trainer's backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// The inputs that are on.
    pub inputs: Vec<u16>,
    /// The features, if the network reads them.
    pub dense: Vec<f32>,
    /// `W1·x + F·d + b1`, before the relu.
    pub a1: Vec<f32>,
    /// `relu(a1)`.
    pub h1: Vec<f32>,
    /// `W2·h1 + b2`, before the relu.
    pub a2: Vec<f32>,
    /// `h1 + relu(a2)`.
    pub h2: Vec<f32>,
    /// The legal moves' policy rows.
    pub rows: Vec<usize>,
    /// Their logits.
    pub logits: Vec<f32>,
}

/// `a·b` for lengths that are multiples of 8, in 256-bit registers with fused multiply-adds,
/// two accumulators to hide their latency.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn dot_avx2(left: &[f32], right: &[f32]) -> f32 {
    use std::arch::x86_64::{
        _mm_add_ps, _mm_add_ss, _mm_cvtss_f32, _mm_movehl_ps, _mm_shuffle_ps, _mm256_add_ps,
        _mm256_castps256_ps128, _mm256_extractf128_ps, _mm256_fmadd_ps, _mm256_loadu_ps,
        _mm256_setzero_ps,
    };
    let (a, b) = (left.as_ptr(), right.as_ptr());
    let n = left.len().min(right.len()) / 8 * 8;
    let (mut s0, mut s1) = (_mm256_setzero_ps(), _mm256_setzero_ps());
    let mut i = 0;
    // SAFETY: every load reads 8 floats at i < n ≤ both lengths.
    unsafe {
        while i + 16 <= n {
            s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a.add(i)), _mm256_loadu_ps(b.add(i)), s0);
            s1 = _mm256_fmadd_ps(
                _mm256_loadu_ps(a.add(i + 8)),
                _mm256_loadu_ps(b.add(i + 8)),
                s1,
            );
            i += 16;
        }
        if i + 8 <= n {
            s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a.add(i)), _mm256_loadu_ps(b.add(i)), s0);
        }
    }
    let sum = _mm256_add_ps(s0, s1);
    let half = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps::<1>(sum));
    let pairs = _mm_add_ps(half, _mm_movehl_ps(half, half));
    _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps::<1>(pairs, pairs)))
}

#[inline(always)]
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums, so the compiler keeps them in vector lanes.
    let mut sums = [0.0f32; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in ac.zip(bc) {
        for k in 0..8 {
            sums[k] += x[k] * y[k];
        }
    }
    sums.iter().sum()
}

/// Which kernels run the forward pass: AVX2 with FMA where the CPU has them (checked once
/// at run time), else the portable build's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// 8 floats a register, fused multiply-adds.
    Avx2,
    /// Whatever the build targets (SSE2 on any x86-64).
    Portable,
}

impl Kernels {
    /// The best this CPU runs.
    pub fn best() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return Kernels::Avx2;
        }
        Kernels::Portable
    }
}

impl Parameters {
    /// The forward pass with the best kernels, keeping what a backward pass needs in `act`.
    pub fn forward(
        &self,
        position: &Position,
        moves: &[Move],
        act: &mut Activations,
    ) -> Evaluation {
        self.forward_with(Kernels::best(), position, moves, act)
    }

    /// The forward pass with these kernels (the portable ones if the CPU lacks them).
    pub fn forward_with(
        &self,
        kernels: Kernels,
        position: &Position,
        moves: &[Move],
        act: &mut Activations,
    ) -> Evaluation {
        #[cfg(target_arch = "x86_64")]
        if kernels == Kernels::Avx2 && Kernels::best() == Kernels::Avx2 {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { self.forward_avx2(position, moves, act) };
        }
        let _ = kernels;
        self.forward_portable(position, moves, act)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn forward_avx2(
        &self,
        position: &Position,
        moves: &[Move],
        act: &mut Activations,
    ) -> Evaluation {
        // SAFETY: this function runs only where the CPU has AVX2 and FMA.
        self.forward_body(position, moves, act, |a, b| unsafe { dot_avx2(a, b) })
    }

    fn forward_portable(
        &self,
        position: &Position,
        moves: &[Move],
        act: &mut Activations,
    ) -> Evaluation {
        self.forward_body(position, moves, act, dot)
    }

    /// The first layer before its relu, `W1·x + F·d + b1`, into `a1`, with the inputs that are
    /// on and the features (none without them) it read; inlined into its callers, so that
    /// its loops are compiled for their instructions.
    #[inline(always)]
    pub(super) fn first_layer(
        &self,
        position: &Position,
        inputs: &mut Vec<u16>,
        dense: &mut Vec<f32>,
        a1: &mut Vec<f32>,
    ) {
        let h = self.hidden;
        active_inputs(position, inputs);
        dense.clear();
        if self.features {
            dense.extend_from_slice(&mover_features(position));
        }
        a1.clear();
        a1.resize(h, 0.0);
        // Block by block of units, each block's sums kept in registers over every column
        // (the same additions in the same order as column by column over all units).
        let mut from = 0;
        while from + 64 <= h {
            self.first_block::<64>(from, inputs, dense, a1);
            from += 64;
        }
        while from < h {
            self.first_block::<8>(from, inputs, dense, a1);
            from += 8;
        }
    }

    /// [`Parameters::first_layer`]'s units `from..from + W`.
    #[inline(always)]
    fn first_block<const W: usize>(
        &self,
        from: usize,
        inputs: &[u16],
        dense: &[f32],
        a1: &mut [f32],
    ) {
        let h = self.hidden;
        let mut sums: [f32; W] = self.b1[from..from + W].try_into().expect("W units");
        for &i in inputs {
            let column: &[f32; W] = self.w1[usize::from(i) * h + from..][..W]
                .try_into()
                .expect("W units");
            for k in 0..W {
                sums[k] += column[k];
            }
        }
        for (k, &d) in dense.iter().enumerate() {
            let column: &[f32; W] = self.wf[k * h + from..][..W].try_into().expect("W units");
            for j in 0..W {
                sums[j] += d * column[j];
            }
        }
        a1[from..from + W].copy_from_slice(&sums);
    }

    /// The pass itself, inlined into each kernel's function so that its loops are compiled
    /// for that function's instructions, with its dot product.
    #[inline(always)]
    fn forward_body(
        &self,
        position: &Position,
        moves: &[Move],
        act: &mut Activations,
        dot: impl Fn(&[f32], &[f32]) -> f32,
    ) -> Evaluation {
        let h = self.hidden;
        self.first_layer(position, &mut act.inputs, &mut act.dense, &mut act.a1);
        act.h1.clear();
        act.h1.extend(act.a1.iter().map(|&a| a.max(0.0)));
        act.a2.clear();
        act.a2.extend(
            self.w2
                .chunks_exact(h)
                .zip(&self.b2)
                .map(|(row, b)| dot(row, &act.h1) + b),
        );
        act.h2.clear();
        act.h2
            .extend(act.h1.iter().zip(&act.a2).map(|(x, a)| x + a.max(0.0)));
        let value = (dot(&self.value, &act.h2) + self.value_bias).tanh();
        act.rows.clear();
        act.rows.extend(moves.iter().map(|&m| move_row(m)));
        act.logits.clear();
        act.logits.extend(
            act.rows
                .iter()
                .map(|&r| dot(&self.policy[r * h..][..h], &act.h2) + self.policy_bias[r]),
        );
        Evaluation {
            priors: softmax(&act.logits),
            value,
        }
    }

    /// The margin head's output on the last hidden layer `h2` (training's alone), in units of
    /// [`MARGIN_SCALE`] points.
    pub fn margin_of(&self, h2: &[f32]) -> f32 {
        dot(&self.margin, h2) + self.margin_bias
    }

    /// The network's view of `position` (which is not over).
    pub fn evaluate(&self, position: &Position) -> Evaluation {
        let moves = position.moves();
        self.forward(position, moves.as_slice(), &mut Activations::default())
    }
}

/// The softmax of `logits`.
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|&l| (l - top).exp()).collect();
    let total: f32 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network computed plainly, in f64, from the position's squares.
    fn reference(net: &Parameters, position: &Position) -> (Vec<f64>, f64) {
        let h = net.hidden;
        let mover = position.side_to_move();
        let planes = [
            position.pieces(mover).0,
            position.pieces(mover.opponent()).0,
            position.holes().0,
        ];
        let mut a1: Vec<f64> = net.b1.iter().map(|&b| f64::from(b)).collect();
        for (plane, bits) in planes.iter().enumerate() {
            for square in 0..64 {
                if bits >> square & 1 == 1 {
                    for (j, a) in a1.iter_mut().enumerate() {
                        *a += f64::from(net.w1[(plane * 64 + square) * h + j]);
                    }
                }
            }
        }
        if net.features {
            // The features from their definition: black's minus white's over the scale, then
            // the same times free squares / 56, the sign turned for white to move.
            let features = crate::eval::features::Features::of(position);
            let sign = if mover == Color::Black { 1.0 } else { -1.0 };
            let phase = f64::from(64 - position.occupied().count()) / 56.0;
            let count = features.values.len();
            for (k, &v) in features.values.iter().enumerate() {
                let d = sign * f64::from(v) / 8.0;
                for (j, a) in a1.iter_mut().enumerate() {
                    *a += d * f64::from(net.wf[k * h + j])
                        + d * phase * f64::from(net.wf[(count + k) * h + j]);
                }
            }
        }
        let h1: Vec<f64> = a1.iter().map(|a| a.max(0.0)).collect();
        let h2: Vec<f64> = (0..h)
            .map(|j| {
                let a2: f64 = f64::from(net.b2[j])
                    + (0..h)
                        .map(|i| f64::from(net.w2[j * h + i]) * h1[i])
                        .sum::<f64>();
                h1[j] + a2.max(0.0)
            })
            .collect();
        let value = (f64::from(net.value_bias)
            + (0..h).map(|j| f64::from(net.value[j]) * h2[j]).sum::<f64>())
        .tanh();
        let legal = position.moves();
        let logits: Vec<f64> = legal
            .iter()
            .map(|&m| {
                let (from, to) = (m.from().index() as i32, m.to().index() as i32);
                // The row counted afresh: the pass is 0, then every queen move in order.
                let mut row = 0;
                if m != Move::PASS {
                    for f in 0..64i32 {
                        for t in 0..64i32 {
                            let (df, dr) = (t % 8 - f % 8, t / 8 - f / 8);
                            if f != t && (df == 0 || dr == 0 || df.abs() == dr.abs()) {
                                row += 1;
                                if (f, t) == (from, to) {
                                    break;
                                }
                            }
                        }
                        if f == from {
                            break;
                        }
                    }
                }
                f64::from(net.policy_bias[row])
                    + (0..h)
                        .map(|j| f64::from(net.policy[row * h + j]) * h2[j])
                        .sum::<f64>()
            })
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = logits.iter().map(|l| (l - top).exp()).sum();
        (
            logits.iter().map(|l| (l - top).exp() / total).collect(),
            value,
        )
    }

    /// Both kernels agree with the plain reference along random games, passes included, with
    /// and without features.
    #[test]
    fn inference_agrees_with_a_plain_float_reference() {
        for features in [false, true] {
            inference_agrees(Parameters::random(64, features, 11));
        }
    }

    fn inference_agrees(mut net: Parameters) {
        let mut rng = SmallRng::seed_from_u64(12);
        for x in net.policy.iter_mut().chain(net.value.iter_mut()) {
            *x += (rng.random::<f32>() - 0.5) * 0.5;
        }
        let mut checked = 0;
        for _ in 0..20 {
            let mut position = Position::start();
            while !position.game_over() {
                let (priors, value) = reference(&net, &position);
                for kernels in [Kernels::Avx2, Kernels::Portable] {
                    let moves = position.moves();
                    let got = net.forward_with(
                        kernels,
                        &position,
                        moves.as_slice(),
                        &mut Activations::default(),
                    );
                    assert!((f64::from(got.value) - value).abs() < 1e-4, "{position}");
                    for (p, q) in got.priors.iter().zip(&priors) {
                        assert!((f64::from(*p) - q).abs() < 1e-4, "{position}");
                    }
                }
                checked += 1;
                position.play(position.random_move(&mut rng));
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn there_is_a_row_for_every_queen_move_and_the_pass() {
        let rows = move_rows();
        let used: Vec<u16> = rows.iter().copied().filter(|&r| r != u16::MAX).collect();
        assert_eq!(used.len(), MOVES);
        let mut sorted = used.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), MOVES, "rows are distinct");
    }

    #[test]
    fn a_network_without_features_keeps_its_weights_and_bytes() {
        // The features' weights are drawn after the others (only the margin head comes
        // later) and written nowhere: a network of the same seed without them has the
        // weights of the one before the features.
        let (plain, with) = (
            Parameters::random(16, false, 3),
            Parameters::random(16, true, 3),
        );
        assert_eq!(
            (plain.w1.clone(), plain.policy.clone()),
            (with.w1, with.policy)
        );
        assert!(plain.wf.is_empty());
        // What YOLAHPF1 files hold: 22 inputs (the 11 features, then times the phase).
        assert_eq!(FEATURES, 22);
        assert_eq!(with.wf.len(), FEATURES * 16);
        let bytes = plain.to_bytes();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(bytes.len(), 12 + 4 * Parameters::count(16, false) + 8);
    }

    #[test]
    fn a_file_with_features_reads_back_and_is_told_from_one_without() {
        let net = Parameters::random(16, true, 1);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_FEATURES);
        assert_eq!(Parameters::from_bytes(&bytes).unwrap(), net);
        // The magic of a network without features on these bytes: the size tells it.
        let mut relabelled = bytes.clone();
        relabelled[..8].copy_from_slice(MAGIC);
        let error = Parameters::from_bytes(&relabelled).unwrap_err();
        assert!(
            error.contains("bytes where 16 hidden units take"),
            "{error}"
        );
    }

    /// A file made before the margin head (the same arrays without its `H + 1` floats, under
    /// the old magic) reads with a head of zeros and every other weight as written; the
    /// shipped network is one.
    #[test]
    fn a_file_made_before_the_margin_head_reads_with_a_head_of_zeros() {
        for (features, magic) in [(false, b"YOLAHPV1"), (true, b"YOLAHPF1")] {
            let net = Parameters::random(16, features, 4);
            assert!(net.margin.iter().any(|&w| w != 0.0));
            let mut bytes = magic.to_vec();
            bytes.extend_from_slice(&16u32.to_le_bytes());
            for array in &net.arrays()[..9] {
                for x in *array {
                    bytes.extend_from_slice(&x.to_le_bytes());
                }
            }
            let hash = fnv1a(&bytes);
            bytes.extend_from_slice(&hash.to_le_bytes());
            let read = Parameters::from_bytes(&bytes).expect("a file without the margin head");
            let mut expected = net.clone();
            expected.margin.fill(0.0);
            assert_eq!(read, expected);
            // Its size is the old one: the new magic on it is refused.
            bytes[..8].copy_from_slice(if features { MAGIC_FEATURES } else { MAGIC });
            assert!(Parameters::from_bytes(&bytes).is_err());
        }
        let shipped = crate::players::alphazero::player::SHIPPED;
        assert!(MAGICS_WITHOUT_MARGIN.iter().any(|m| shipped[..8] == m[..]));
        let net = Parameters::from_bytes(shipped).expect("the shipped network");
        assert!(net.margin.iter().all(|&w| w == 0.0) && net.margin_bias == 0.0);
    }

    #[test]
    fn a_file_reads_back_and_damage_is_refused_with_the_reason() {
        let net = Parameters::random(16, false, 1);
        let bytes = net.to_bytes();
        assert_eq!(Parameters::from_bytes(&bytes).unwrap(), net);
        let refused = |bytes: &[u8], reason: &str| {
            let error = Parameters::from_bytes(bytes).unwrap_err();
            assert!(error.contains(reason), "{error}");
        };
        refused(b"YOLAHNET", "does not start with YOLAHPV2 or YOLAHPF2");
        refused(b"YOLAHPF1\x10\0\0\0", "12 bytes: too short");
        refused(
            &bytes[..bytes.len() - 1],
            "bytes where 16 hidden units take",
        );
        let mut damaged = bytes.clone();
        damaged[40] ^= 4;
        refused(&damaged, "hash does not match");
        let mut other = bytes.clone();
        other[8..12].copy_from_slice(&12u32.to_le_bytes());
        refused(&other, "12 hidden units");
        // A value that is not finite, with its hash made right: refused all the same.
        let mut infinite = net.clone();
        infinite.b2[3] = f32::INFINITY;
        refused(&infinite.to_bytes(), "is not a finite value");
    }
}

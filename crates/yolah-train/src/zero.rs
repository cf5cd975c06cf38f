//! `AlphaZero`'s learning, on a CPU: self-play games of the `alphazero` player whose positions
//! become samples (the root's visit shares as the policy target, or with a Gumbel root its
//! improved policy; the game's result and the search's own value at the root as the value
//! targets), and the trainer that fits the
//! policy-value network ([`yolah_ai::players::alphazero::network`]) to them: policy
//! cross-entropy plus squared value error (against the result, or a mix of the result and the
//! search's value: `value_mix`), and if asked the margin head's squared error against
//! the game's final margin (`margin_weight`, `KataGo`'s score target; with [`SelfPlay::exact`],
//! the solver's result and margin where it proves them), Adam, each sample
//! seen under a random one of the board's eight symmetries. The loop around them is `yolah zero` (the command line's `cmd::zero`).

use crate::selfplay::{Exact, prove_from_the_end};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::sync::Arc;
use yolah_ai::limits::{Budget, Limits};
use yolah_ai::players::alphazero::network::{
    Activations, MARGIN_SCALE, MOVES, Parameters, softmax,
};
use yolah_ai::players::alphazero::player::{AlphaZero, Choice};
use yolah_ai::players::alphazero::search::{Gumbel, Settings};
use yolah_core::zobrist::fnv1a;
use yolah_core::{Bitboard, Color, Position, Symmetry};

/// One position of a self-play game and what the network should learn from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (not over, with at least two moves).
    pub position: Position,
    /// The share of the root's visits of each legal move, in `position.moves()` order.
    pub policy: Vec<f32>,
    /// The game's result for the side to move: +1, 0 or −1 (with exact targets, where the
    /// solver proves it, its result with best play).
    pub result: f32,
    /// The search's value of the position for the side to move, −1 to +1: its children's
    /// values weighted by their visits (files made before it hold the result here).
    pub search: f32,
    /// The game's final margin for the side to move, in points (its score minus the
    /// other's at the end; with exact targets, where the solver proves it, the margin with
    /// best play); none in files made before it was kept.
    pub margin: Option<f32>,
}

impl Sample {
    /// The value the network learns: `(1 − mix)·result + mix·search`.
    #[inline]
    pub fn value_target(&self, mix: f32) -> f32 {
        (1.0 - mix) * self.result + mix * self.search
    }
}

/// How self-play searches and explores.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Visits a move.
    pub visits: u64,
    /// Dirichlet noise's weight at the root.
    pub noise: f32,
    /// Plies during which moves are drawn in proportion to their visits.
    pub explore: u32,
    /// Gumbel `AlphaZero`'s root considering this many moves (none: PUCT's): the policy
    /// target is its improved policy and the move played the one it chose, at every ply
    /// (its Gumbel draws explore; `noise` and `explore` are not used).
    pub gumbel: Option<usize>,
    /// `KataGo`'s playout cap randomisation (none: every move searched fully and recorded).
    pub cap: Option<PlayoutCap>,
    /// The solver's exact values as targets (none: the game's): a sample the solver proves
    /// (from the game's end back, as [`crate::selfplay::label_exactly`]) learns its result
    /// with best play and its exact final margin instead of the game's.
    pub exact: Option<Exact>,
}

/// `KataGo`'s playout cap randomisation (Wu, 2019): each move is searched fully (at
/// [`SelfPlay::visits`], with the root's noise) and recorded as a sample with probability
/// `full`, else searched fast (at `fast` visits, no noise, the most visited move played)
/// and not recorded, so that more games, and more moves of their ends, are played for the
/// same visits while every policy target comes from a full search.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutCap {
    /// Visits of a fast search.
    pub fast: u64,
    /// The share of moves searched fully and recorded, more than 0 and at most 1.
    pub full: f64,
}

/// One self-play game from the start with `network`, drawing from `seed`: its samples.
pub fn play_game(network: &Arc<Parameters>, play: SelfPlay, seed: u64) -> Vec<Sample> {
    let settings = Settings {
        noise: play.noise,
        gumbel: play.gumbel.map(Gumbel::considering),
        ..Settings::default()
    };
    let choice = Choice {
        explore: play.explore,
        temperature: 1.0,
    };
    let mut player = AlphaZero::new(network, settings, choice, seed);
    // The fast searches: their own player without noise, its tree kept where it holds the
    // position; which moves are fast is drawn from numbers of their own.
    let mut fast = play.cap.map(|cap| {
        let settings = Settings {
            reuse: true,
            ..Settings::default()
        };
        let greedy = Choice {
            explore: 0,
            temperature: 1.0,
        };
        let player = AlphaZero::new(network, settings, greedy, seed ^ 0xFA57);
        (cap, player, SmallRng::seed_from_u64(seed ^ 0xCA9))
    });
    let mut position = Position::start();
    let mut samples: Vec<Sample> = Vec::new();
    let limits = Limits {
        iterations: Some(play.visits),
        ..Limits::default()
    };
    while !position.game_over() {
        let moves = position.moves();
        if moves.len() == 1 {
            position.play(moves[0]);
            continue;
        }
        if let Some((cap, player, rng)) = &mut fast
            && rng.random::<f64>() >= cap.full
        {
            let limits = Limits {
                iterations: Some(cap.fast),
                ..Limits::default()
            };
            let result = player.search(&position, &Budget::start(limits));
            position.play(player.pick(&position, &result).0);
            continue;
        }
        let result = player.search(&position, &Budget::start(limits));
        let total = result.visits.max(1) as f32;
        let (policy, mv) = match &result.improved {
            Some((policy, chosen)) => (policy.clone(), *chosen),
            None => (
                result.children.iter().map(|c| c.1 as f32 / total).collect(),
                player.pick(&position, &result).0,
            ),
        };
        samples.push(Sample {
            position,
            policy,
            result: 0.0,
            search: result.value().clamp(-1.0, 1.0),
            margin: None,
        });
        position.play(mv);
    }
    let outcome = position.outcome().expect("the game is over");
    for sample in &mut samples {
        let mover = sample.position.side_to_move();
        sample.result = outcome.half_points(mover) as f32 - 1.0;
        let lead = i32::from(position.score(mover)) - i32::from(position.score(mover.opponent()));
        sample.margin = Some(lead as f32);
    }
    if let Some(exact) = play.exact {
        prove_from_the_end(
            &mut samples,
            |s| &s.position,
            exact,
            |s, margin| {
                s.result = margin.signum() as f32;
                s.margin = Some(margin as f32);
            },
        );
    }
    samples
}

/// Games `numbers` of a run seeded `seed`, in parallel: their samples, game after game.
pub fn play_games(
    network: &Arc<Parameters>,
    play: SelfPlay,
    seed: u64,
    numbers: std::ops::Range<u64>,
) -> Vec<Sample> {
    numbers
        .into_par_iter()
        .map(|n| play_game(network, play, crate::selfplay::game_seed(seed, n)))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// The samples file's first bytes.
pub const SAMPLES_MAGIC: &[u8; 8] = b"YOLAHZS3";
/// The first bytes of the samples files made before the final margin was kept; they still
/// read (their samples have no margin).
pub const SAMPLES_MAGIC_WITHOUT_MARGIN: &[u8; 8] = b"YOLAHZS2";
/// The first bytes of the samples files made before the search's value was kept; they
/// still read (their samples' `search` is their result, and they have no margin).
pub const SAMPLES_MAGIC_RESULT_ONLY: &[u8; 8] = b"YOLAHZS1";

/// The margin byte of a sample that has none.
const NO_MARGIN: i8 = i8::MIN;
/// The search's value as an `i16` of 32,767.
const SEARCH_SCALE: f32 = 32767.0;
/// A visit share as a `u16` of 65,535.
const SHARE_SCALE: f32 = 65535.0;

/// Samples as a file's bytes: the magic, the count (`u32`), each sample (black's, white's
/// and the holes' bitboards as `u64`s, the two scores as bytes, the ply as `u16`, the result
/// as `i8`, the search's value as an `i16` of 32,767, the final margin in points as an `i8`,
/// the number of moves as a byte and each move's visit share as a `u16` of 65,535), then an
/// FNV-1a 64 hash of all before it; little-endian. (`YOLAHZS2` files are the same without the
/// margin, `YOLAHZS1` files without the margin and the search's value.) A sample without a
/// margin (read from such a file) has the byte −128.
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(16 + samples.len() * 80);
    bytes.extend_from_slice(SAMPLES_MAGIC);
    bytes.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    for s in samples {
        let p = &s.position;
        for board in [p.pieces(Color::Black), p.pieces(Color::White), p.holes()] {
            bytes.extend_from_slice(&board.0.to_le_bytes());
        }
        bytes.push(p.score(Color::Black));
        bytes.push(p.score(Color::White));
        bytes.extend_from_slice(&p.ply().to_le_bytes());
        bytes.push(s.result as i8 as u8);
        let search = (s.search.clamp(-1.0, 1.0) * SEARCH_SCALE).round() as i16;
        bytes.extend_from_slice(&search.to_le_bytes());
        let margin = s.margin.map_or(NO_MARGIN, |m| {
            debug_assert!(m.is_finite(), "a margin of {m} points");
            m.round().clamp(-64.0, 64.0) as i8
        });
        bytes.push(margin as u8);
        bytes.push(s.policy.len() as u8);
        for &share in &s.policy {
            bytes.extend_from_slice(
                &((share.clamp(0.0, 1.0) * SHARE_SCALE).round() as u16).to_le_bytes(),
            );
        }
    }
    let hash = fnv1a(&bytes);
    bytes.extend_from_slice(&hash.to_le_bytes());
    bytes
}

/// −1, 0 or +1.
fn sign(x: f32) -> i32 {
    i32::from(x > 0.0) - i32::from(x < 0.0)
}

/// Reads a samples file's bytes, checking every sample; the error says where and what.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, String> {
    if bytes.len() < 20 {
        return Err("it is too short to be a samples file".into());
    }
    let (with_search, with_margin) = match &bytes[..8] {
        magic if magic == SAMPLES_MAGIC => (true, true),
        magic if magic == SAMPLES_MAGIC_WITHOUT_MARGIN => (true, false),
        magic if magic == SAMPLES_MAGIC_RESULT_ONLY => (false, false),
        _ => return Err("it does not start with YOLAHZS3 (nor YOLAHZS2, YOLAHZS1)".into()),
    };
    let (body, hash) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64::from_le_bytes(hash.try_into().expect("8 bytes")) {
        return Err("its hash does not match its contents (damaged or cut short)".into());
    }
    let count = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes")) as usize;
    let mut at = 12;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let slice = body
            .get(at..at + n)
            .ok_or_else(|| format!("it ends inside a sample at byte {at}"))?;
        at += n;
        Ok(slice)
    };
    // A sample takes at least 30 bytes: no more room is made than the file can fill.
    let mut samples = Vec::with_capacity(count.min(body.len() / 30));
    for k in 0..count {
        let fixed = take(29)?;
        let word = |i: usize| u64::from_le_bytes(fixed[8 * i..8 * i + 8].try_into().expect("8"));
        let (black, white, holes) = (word(0), word(1), word(2));
        let scores = [fixed[24], fixed[25]];
        let ply = u16::from_le_bytes([fixed[26], fixed[27]]);
        let result = f32::from(fixed[28] as i8);
        let search = if with_search {
            let raw = take(2)?;
            f32::from(i16::from_le_bytes([raw[0], raw[1]])) / SEARCH_SCALE
        } else {
            result
        };
        let margin = if with_margin {
            Some(take(1)?[0] as i8).filter(|&m| m != NO_MARGIN)
        } else {
            None
        }
        .map(f32::from);
        let n = usize::from(take(1)?[0]);
        let position = Position::from_parts_checked(
            [Bitboard(black), Bitboard(white)],
            Bitboard(holes),
            scores,
            ply,
        )
        .map_err(|e| format!("sample {k}: {e}"))?;
        let moves = position.moves().len();
        if position.game_over() || n != moves || ![-1.0, 0.0, 1.0].contains(&result) {
            return Err(format!(
                "sample {k}: {n} shares for {moves} moves, result {result}"
            ));
        }
        if !(-1.0..=1.0).contains(&search) {
            return Err(format!(
                "sample {k}: the search's value {search} is outside −1 to 1"
            ));
        }
        if let Some(m) = margin {
            if sign(m) != sign(result) {
                return Err(format!(
                    "sample {k}: a final margin of {m} points with the result {result}"
                ));
            }
            // The lead can change by no more than the squares left to move to.
            let side = position.side_to_move();
            let lead = i32::from(position.score(side)) - i32::from(position.score(side.opponent()));
            let free = 64 - position.occupied().count() as i32;
            if (m as i32 - lead).abs() > free {
                return Err(format!(
                    "sample {k}: a final margin of {m} points where the lead is {lead} with {free} squares free"
                ));
            }
        }
        let shares = take(2 * n)?;
        let policy = shares
            .chunks_exact(2)
            .map(|c| f32::from(u16::from_le_bytes([c[0], c[1]])) / SHARE_SCALE)
            .collect();
        samples.push(Sample {
            position,
            policy,
            result,
            search,
            margin,
        });
    }
    if at != body.len() {
        return Err(format!(
            "{} bytes after its {count} samples",
            body.len() - at
        ));
    }
    Ok(samples)
}

/// The gradient of every parameter, laid out as [`Parameters`].
#[derive(Clone, Debug)]
pub struct Gradient(pub Parameters);

impl Gradient {
    /// Zero, in the shape of `network`.
    fn like(network: &Parameters) -> Gradient {
        Gradient(Parameters::zeros(network.hidden, network.features))
    }

    fn add(&mut self, other: &Gradient) {
        for (a, b) in self.0.arrays_mut().into_iter().zip(other.0.arrays()) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// The sample seen under `symmetry`: its position and its policy's moves mapped, the shares
/// put back in the order of the new position's moves.
pub fn transformed(sample: &Sample, symmetry: Symmetry) -> Sample {
    let position = symmetry.position(&sample.position);
    let moves = sample.position.moves();
    let new_moves = position.moves();
    let mut policy = vec![0.0; new_moves.len()];
    for (&m, &share) in moves.iter().zip(&sample.policy) {
        let image = symmetry.mv(m);
        if let Some(i) = new_moves.iter().position(|&n| n == image) {
            policy[i] = share;
        }
    }
    Sample {
        position,
        policy,
        result: sample.result,
        search: sample.search,
        margin: sample.margin,
    }
}

/// The loss of one sample (policy cross-entropy + squared error against its value target
/// with `value_mix` + `margin_weight` × the margin head's squared error against the final
/// margin in units of [`MARGIN_SCALE`] points, where the sample has it), its gradient added
/// to `gradient`. Returns its three parts (the margin's unweighted).
pub fn backward(
    network: &Parameters,
    sample: &Sample,
    value_mix: f32,
    margin_weight: f32,
    act: &mut Activations,
    gradient: &mut Gradient,
) -> Losses {
    let hidden = network.hidden;
    let moves = sample.position.moves();
    let evaluation = network.forward(&sample.position, moves.as_slice(), act);
    let grad = &mut gradient.0;
    // Value: L = (v − z)², v = tanh(u), z the target.
    let value = evaluation.value;
    let target = sample.value_target(value_mix);
    let value_loss = (value - target).powi(2);
    let du = 2.0 * (value - target) * (1.0 - value * value);
    let mut dh2: Vec<f32> = network.value.iter().map(|w| du * w).collect();
    for (gw, x) in grad.value.iter_mut().zip(&act.h2) {
        *gw += du * x;
    }
    grad.value_bias += du;
    // Margin: L = w·(m − t)², m = margin·h2 + e, t the margin in units.
    let mut margin_loss = 0.0;
    if margin_weight > 0.0
        && let Some(points) = sample.margin
    {
        let error = network.margin_of(&act.h2) - points / MARGIN_SCALE;
        margin_loss = error * error;
        let dm = 2.0 * margin_weight * error;
        for ((gw, x), (dh, w)) in grad
            .margin
            .iter_mut()
            .zip(&act.h2)
            .zip(dh2.iter_mut().zip(&network.margin))
        {
            *gw += dm * x;
            *dh += dm * w;
        }
        grad.margin_bias += dm;
    }
    // Policy: L = −Σ π log p, dL/dlogit = p − π (π sums to one).
    let target_total: f32 = sample.policy.iter().sum();
    let priors = softmax(&act.logits);
    let mut policy_loss = 0.0;
    for ((&row, &pk), &share) in act.rows.iter().zip(&priors).zip(&sample.policy) {
        let pi = share / target_total.max(1e-9);
        policy_loss -= pi * pk.max(1e-12).ln();
        let d = pk - pi;
        let weights = &network.policy[row * hidden..][..hidden];
        let gw = &mut grad.policy[row * hidden..][..hidden];
        for ((gwi, x), (dh, w)) in gw.iter_mut().zip(&act.h2).zip(dh2.iter_mut().zip(weights)) {
            *gwi += d * x;
            *dh += d * w;
        }
        grad.policy_bias[row] += d;
    }
    // h2 = h1 + relu(a2): both paths.
    let mut dh1 = dh2.clone();
    for (j, (&a, &d)) in act.a2.iter().zip(&dh2).enumerate() {
        if a <= 0.0 {
            continue;
        }
        grad.b2[j] += d;
        let row = &network.w2[j * hidden..][..hidden];
        let grow = &mut grad.w2[j * hidden..][..hidden];
        for ((gw, x), (dx, w)) in grow.iter_mut().zip(&act.h1).zip(dh1.iter_mut().zip(row)) {
            *gw += d * x;
            *dx += d * w;
        }
    }
    // h1 = relu(a1), a1 = W1·x + b1 with x the inputs that are on.
    for (d, &a) in dh1.iter_mut().zip(&act.a1) {
        if a <= 0.0 {
            *d = 0.0;
        }
    }
    for (gb, d) in grad.b1.iter_mut().zip(&dh1) {
        *gb += d;
    }
    for &i in &act.inputs {
        let column = &mut grad.w1[usize::from(i) * hidden..][..hidden];
        for (gw, d) in column.iter_mut().zip(&dh1) {
            *gw += d;
        }
    }
    // And F·d, the features' columns (empty without features).
    for (&x, column) in act.dense.iter().zip(grad.wf.chunks_exact_mut(hidden)) {
        for (gw, d) in column.iter_mut().zip(&dh1) {
            *gw += x * d;
        }
    }
    debug_assert_eq!(grad.policy_bias.len(), MOVES);
    Losses {
        policy: policy_loss,
        value: value_loss,
        margin: margin_loss,
    }
}

/// The parts a batch's gradient is computed in (in parallel), whatever the threads.
const GRADIENT_PARTS: usize = 8;

/// Adam's state for a network.
pub struct Trainer {
    /// The network being trained.
    pub network: Parameters,
    first: Gradient,
    second: Gradient,
    steps: u32,
    /// Adam's step size.
    pub learning_rate: f32,
    /// L2 weight decay added to each gradient.
    pub weight_decay: f32,
    /// The search's share of the value target (0: the game's result alone).
    pub value_mix: f32,
    /// The margin head's loss's weight (0: the head is left as it is, without decay).
    pub margin_weight: f32,
}

/// What a pass over samples measured: the mean policy, value and margin losses (each the mean
/// over every sample; a sample without a margin counts 0 in the margin's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Losses {
    /// Policy cross-entropy.
    pub policy: f32,
    /// Squared value error.
    pub value: f32,
    /// The margin head's squared error, in units of [`MARGIN_SCALE`] points (0 in training
    /// with no margin weight).
    pub margin: f32,
}

impl Losses {
    fn add(&mut self, other: Losses) {
        self.policy += other.policy;
        self.value += other.value;
        self.margin += other.margin;
    }

    fn scaled(self, factor: f32) -> Losses {
        Losses {
            policy: self.policy * factor,
            value: self.value * factor,
            margin: self.margin * factor,
        }
    }
}

impl Trainer {
    /// Trains `network` from here.
    pub fn new(network: Parameters, learning_rate: f32) -> Trainer {
        Trainer {
            first: Gradient::like(&network),
            second: Gradient::like(&network),
            network,
            steps: 0,
            learning_rate,
            weight_decay: 1e-4,
            value_mix: 0.0,
            margin_weight: 0.0,
        }
    }

    /// The batch's gradient, computed in parallel, and its mean losses.
    fn gradient(&self, batch: &[Sample]) -> (Gradient, Losses) {
        // A fixed number of parts, summed in order: the same sums, so the same network,
        // whatever the number of threads.
        let chunk = batch.len().div_ceil(GRADIENT_PARTS).max(1);
        let parts: Vec<(Gradient, Losses)> = batch
            .par_chunks(chunk)
            .map(|part| {
                let mut g = Gradient::like(&self.network);
                let mut act = Activations::default();
                let mut sum = Losses::default();
                for sample in part {
                    sum.add(backward(
                        &self.network,
                        sample,
                        self.value_mix,
                        self.margin_weight,
                        &mut act,
                        &mut g,
                    ));
                }
                (g, sum)
            })
            .collect();
        let mut total = Gradient::like(&self.network);
        let mut losses = Losses::default();
        for (g, part) in &parts {
            total.add(g);
            losses.add(*part);
        }
        let n = batch.len() as f32;
        let losses = losses.scaled(1.0 / n);
        for array in total.0.arrays_mut() {
            for x in array.iter_mut() {
                *x /= n;
            }
        }
        (total, losses)
    }

    /// One Adam step on `batch`.
    pub fn step(&mut self, batch: &[Sample]) -> Losses {
        let (gradient, losses) = self.gradient(batch);
        self.steps += 1;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let correction1 = 1.0 - b1.powi(self.steps as i32);
        let correction2 = 1.0 - b2.powi(self.steps as i32);
        let (lr, decay) = (self.learning_rate, self.weight_decay);
        let arrays = self.network.arrays_mut();
        // The margin head (the last two arrays) moves only when it is trained.
        let trained = arrays.len() - if self.margin_weight > 0.0 { 0 } else { 2 };
        let firsts = self.first.0.arrays_mut();
        let seconds = self.second.0.arrays_mut();
        for (((w, g), m), v) in arrays
            .into_iter()
            .take(trained)
            .zip(gradient.0.arrays())
            .zip(firsts)
            .zip(seconds)
        {
            for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                let g = g + decay * *w;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= lr * (*m / correction1) / ((*v / correction2).sqrt() + eps);
            }
        }
        losses
    }

    /// `epochs` passes over `samples` in batches of `batch`, shuffled by `seed`, each
    /// sample under a random one of the eight symmetries if `symmetries`; `progress` gets
    /// each epoch's mean losses.
    pub fn train(
        &mut self,
        samples: &[Sample],
        epochs: u32,
        batch: usize,
        symmetries: bool,
        seed: u64,
        progress: &mut dyn FnMut(u32, Losses),
    ) {
        let views = if symmetries { 8 } else { 1 };
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut order: Vec<usize> = (0..samples.len()).collect();
        for epoch in 0..epochs {
            order.shuffle(&mut rng);
            let (mut sum, mut steps) = (Losses::default(), 0);
            for chunk in order.chunks(batch.max(1)) {
                let shown: Vec<Sample> = chunk
                    .iter()
                    .map(|&i| transformed(&samples[i], Symmetry::ALL[rng.random_range(0..views)]))
                    .collect();
                sum.add(self.step(&shown));
                steps += 1;
            }
            progress(epoch + 1, sum.scaled(1.0 / steps.max(1) as f32));
        }
    }
}

/// The mean losses of `network` on `samples` (as they are, no symmetry), the value's against
/// the game's results.
pub fn losses(network: &Parameters, samples: &[Sample]) -> Losses {
    let mut g = Gradient::like(network);
    let mut act = Activations::default();
    let mut sum = Losses::default();
    for sample in samples {
        sum.add(backward(network, sample, 0.0, 1.0, &mut act, &mut g));
    }
    sum.scaled(1.0 / samples.len().max(1) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Self-play with PUCT's root at `visits`, root noise `noise`, moves drawn for `explore`
    /// plies, every move searched fully.
    fn puct(visits: u64, noise: f32, explore: u32) -> SelfPlay {
        SelfPlay {
            visits,
            noise,
            explore,
            gumbel: None,
            cap: None,
            exact: None,
        }
    }

    fn some_samples(count: usize, seed: u64) -> Vec<Sample> {
        let network = Arc::new(Parameters::random(16, false, seed));
        let play = puct(16, 0.25, 10);
        let mut samples = play_games(&network, play, seed, 0..4);
        samples.truncate(count);
        samples
    }

    /// With the playout cap every move searched fully (`full` 1) gives the very samples of
    /// a run without it; with a quarter of them, about a quarter of the moves are recorded,
    /// every sample's policy still a full search's (its shares add up to 1 over visits of a
    /// full search: multiples of 1/16), and the same seed gives the same samples.
    #[test]
    fn the_playout_cap_records_the_full_searches_only() {
        let network = Arc::new(Parameters::random(16, false, 3));
        let play = puct(16, 0.25, 10);
        let capped = |full: f64| SelfPlay {
            cap: Some(PlayoutCap { fast: 4, full }),
            ..play
        };
        let key = |samples: &[Sample]| -> Vec<(Position, Vec<u32>)> {
            samples
                .iter()
                .map(|s| (s.position, s.policy.iter().map(|x| x.to_bits()).collect()))
                .collect()
        };
        let plain = play_games(&network, play, 5, 0..6);
        assert_eq!(
            key(&play_games(&network, capped(1.0), 5, 0..6)),
            key(&plain)
        );
        let quarter = play_games(&network, capped(0.25), 5, 0..6);
        assert_eq!(
            key(&play_games(&network, capped(0.25), 5, 0..6)),
            key(&quarter)
        );
        // Each game has about 50 moves with a choice: about 12 recorded of each.
        let share = quarter.len() as f64 / plain.len() as f64;
        assert!(
            (0.1..0.45).contains(&share),
            "{} of {} recorded",
            quarter.len(),
            plain.len()
        );
        for sample in &quarter {
            let total: f32 = sample.policy.iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            for share in &sample.policy {
                let visits = share * 16.0;
                assert!(
                    (visits - visits.round()).abs() < 1e-3,
                    "{share} of 16 visits"
                );
            }
        }
    }

    /// Every parameter's gradient agrees with a central difference of the loss, with and
    /// without features (the value target half result, half search, the margin's loss
    /// weighted 0.7).
    #[test]
    fn gradients_agree_with_finite_differences() {
        for features in [false, true] {
            gradients_agree(Parameters::random(16, features, 7));
        }
    }

    fn gradients_agree(mut network: Parameters) {
        const MARGIN_WEIGHT: f32 = 0.7;
        // Biases and heads away from zero, so every path carries gradient.
        let mut rng = SmallRng::seed_from_u64(3);
        for array in network.arrays_mut() {
            for x in array.iter_mut() {
                *x += (rng.random::<f32>() - 0.5) * 0.2;
            }
        }
        let samples = some_samples(6, 1);
        let loss = |net: &Parameters| -> f64 {
            samples
                .iter()
                .map(|s| {
                    let mut g = Gradient::like(net);
                    let part = backward(
                        net,
                        s,
                        0.5,
                        MARGIN_WEIGHT,
                        &mut Activations::default(),
                        &mut g,
                    );
                    f64::from(part.policy)
                        + f64::from(part.value)
                        + f64::from(MARGIN_WEIGHT * part.margin)
                })
                .sum()
        };
        let mut gradient = Gradient::like(&network);
        for s in &samples {
            backward(
                &network,
                s,
                0.5,
                MARGIN_WEIGHT,
                &mut Activations::default(),
                &mut gradient,
            );
        }
        // The loss at parameter `k` of array `a` moved by `step`.
        let moved = |a: usize, k: usize, step: f32| {
            let mut net = network.clone();
            net.arrays_mut()[a][k] += step;
            loss(&net)
        };
        let (mut checked, mut kinks) = (0, 0);
        let eps = 1e-3f32;
        for a in 0..network.arrays().len() {
            let len = network.arrays()[a].len();
            for k in (0..len).step_by((len / 400).max(1)) {
                let analytic = f64::from(gradient.0.arrays()[a][k]);
                let tolerance = 2e-2 * (1.0 + analytic.abs());
                let (below, here, above) = (moved(a, k, -eps), moved(a, k, 0.0), moved(a, k, eps));
                let (left, right) = (
                    (here - below) / f64::from(eps),
                    (above - here) / f64::from(eps),
                );
                // Where the slopes on either side differ, a relu changes sides within the
                // step: the loss has a kink there, and no difference is its gradient.
                if (left - right).abs() >= tolerance / 2.0 {
                    kinks += 1;
                    continue;
                }
                let numeric = (above - below) / (2.0 * f64::from(eps));
                assert!(
                    (numeric - analytic).abs() < tolerance,
                    "array {a}[{k}]: numeric {numeric}, analytic {analytic}"
                );
                checked += usize::from(analytic != 0.0);
            }
        }
        assert!(checked > 100, "{checked} nonzero gradients checked");
        let margin = (gradient.0.margin.iter()).filter(|&&g| g != 0.0).count();
        assert!(
            margin > 8,
            "{margin} of the margin head's gradients are not 0"
        );
        if network.features {
            let features = (gradient.0.wf.iter()).filter(|&&g| g != 0.0).count();
            assert!(
                features > 50,
                "{features} of the features' gradients are not 0"
            );
        }
        assert!(
            kinks * 20 < checked,
            "{kinks} kinks skipped, {checked} checked"
        );
    }

    #[test]
    fn samples_survive_their_file_and_damage_is_refused() {
        let samples = some_samples(200, 2);
        assert!(samples.len() > 100);
        let bytes = samples_to_bytes(&samples);
        let back = samples_from_bytes(&bytes).expect("its own file");
        assert_eq!(back.len(), samples.len());
        for (a, b) in samples.iter().zip(&back) {
            assert_eq!(a.position, b.position);
            assert_eq!(a.result.to_bits(), b.result.to_bits());
            assert!((a.search - b.search).abs() <= 0.5 / SEARCH_SCALE);
            assert_eq!(a.margin, b.margin);
            for (x, y) in a.policy.iter().zip(&b.policy) {
                assert!((x - y).abs() < 1e-4);
            }
        }
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(samples_from_bytes(&damaged).unwrap_err().contains("hash"));
        assert!(samples_from_bytes(&bytes[..bytes.len() - 3]).is_err());
        assert!(
            samples_from_bytes(b"not a samples file at all")
                .unwrap_err()
                .contains("YOLAHZS3")
        );
        // The file's hash made right after a change.
        let rehash = |bytes: &mut Vec<u8>| {
            let body = bytes.len() - 8;
            let hash = fnv1a(&bytes[..body]);
            bytes[body..].copy_from_slice(&hash.to_le_bytes());
        };
        let mut outside = samples[..1].to_vec();
        outside[0].search = 1.0;
        let mut bytes = samples_to_bytes(&outside);
        // The search's value is the two bytes after the result: 32,767 becomes 32,767 + 1.
        bytes[12 + 29] = 0x00;
        bytes[12 + 30] = 0x80;
        rehash(&mut bytes);
        assert!(
            samples_from_bytes(&bytes)
                .unwrap_err()
                .contains("the search's value -1.00003")
        );
        // A margin whose sign disagrees with the result (the byte after the search's
        // value), its hash made right, then one out of the squares' reach: refused.
        let mut won = samples[..1].to_vec();
        won[0].result = 1.0;
        won[0].margin = Some(3.0);
        let mut bytes = samples_to_bytes(&won);
        bytes[12 + 31] = (-3i8) as u8;
        rehash(&mut bytes);
        assert!(
            samples_from_bytes(&bytes)
                .unwrap_err()
                .contains("a final margin of -3 points with the result 1")
        );
        let free = 64 - won[0].position.occupied().count();
        bytes[12 + 31] = (free + 1) as u8;
        rehash(&mut bytes);
        let error = samples_from_bytes(&bytes).unwrap_err();
        assert!(
            error.contains(&format!("where the lead is 0 with {free} squares free")),
            "{error}"
        );
        bytes[12 + 31] = free as u8;
        rehash(&mut bytes);
        assert!(samples_from_bytes(&bytes).is_ok());
    }

    /// Each sample's margin is its game's final score difference for its side to move:
    /// the sign of its result, the same for every position of one side in a game, opposite
    /// for the other side's.
    #[test]
    fn each_sample_keeps_its_game_s_final_margin() {
        let network = Arc::new(Parameters::random(16, false, 11));
        let mut decided = 0;
        for n in 0..6 {
            let samples = play_game(&network, puct(16, 0.25, 10), n);
            let first = samples[0].margin.expect("a margin");
            let first_mover = samples[0].position.side_to_move();
            for s in &samples {
                let m = s.margin.expect("a margin");
                assert_eq!(sign(m), sign(s.result), "{m} with {}", s.result);
                let same = s.position.side_to_move() == first_mover;
                let expected = if same { first } else { -first };
                assert!((m - expected).abs() < 0.5, "{m} against {expected}");
                // The lead can change by no more than the squares left to move to.
                let p = &s.position;
                let mover = p.side_to_move();
                let now = f32::from(p.score(mover)) - f32::from(p.score(mover.opponent()));
                assert!((m - now).abs() <= 64.0 - p.occupied().count() as f32);
            }
            decided += usize::from(first != 0.0);
        }
        assert!(decided >= 3, "{decided} of 6 games decided");
    }

    /// With exact targets the same games are played, and each sample the solver proves
    /// (those with at most 14 free squares, from the end back) learns its value with best
    /// play: its margin a solver of its own proves for it, its result that margin's sign.
    /// The others keep their game's; the samples still pass the reader's checks. A random
    /// network's games are far from best play, so some exact targets differ from the game's.
    #[test]
    fn exact_targets_are_the_solver_s_values() {
        const FREE: u32 = 14;
        let network = Arc::new(Parameters::random(16, false, 13));
        let exact = Exact {
            free: FREE,
            nodes: 1_000_000,
        };
        let mut solver = yolah_ai::players::minimax::Minimax::solver(16, 1);
        let (mut proved, mut changed) = (0, 0);
        for n in 0..4 {
            let game = play_game(&network, puct(16, 0.25, 10), n);
            let labelled = play_game(
                &network,
                SelfPlay {
                    exact: Some(exact),
                    ..puct(16, 0.25, 10)
                },
                n,
            );
            assert_eq!(game.len(), labelled.len());
            for (g, l) in game.iter().zip(&labelled) {
                assert_eq!(g.position, l.position);
                assert_eq!(g.policy, l.policy);
                let free = 64 - l.position.occupied().count();
                if free > FREE {
                    assert_eq!(g, l, "{}", l.position);
                    continue;
                }
                let margin = solver.prove(&l.position, 10_000_000).expect("proved");
                assert_eq!(l.margin, Some(margin as f32), "{}", l.position);
                assert_eq!(sign(l.result), margin.signum(), "{}", l.position);
                proved += 1;
                changed += usize::from(g.margin != l.margin);
            }
            let read = samples_from_bytes(&samples_to_bytes(&labelled)).expect("reads");
            let targets = |s: &[Sample]| -> Vec<(u32, Option<u32>)> {
                s.iter()
                    .map(|s| (s.result.to_bits(), s.margin.map(f32::to_bits)))
                    .collect()
            };
            assert_eq!(targets(&read), targets(&labelled));
        }
        assert!(proved >= 20, "{proved} samples proved");
        assert!(
            changed >= 1,
            "{changed} of {proved} exact margins differ from the games'"
        );
    }

    /// A file made before the final margin was kept: `tests/data/zs2-games.bin`, eight games
    /// written by the build of 31d6428 (`yolah zero --out DIR --generations 1 --games 8
    /// --visits 4 --hidden 8 --epochs 1 --test-games 2 --opponent random --threads 1 --seed
    /// 5`, its `gen-001/games-0000.bin`). It still reads, with no margins; the trainer leaves
    /// the margin head alone on them.
    #[test]
    fn files_without_the_margin_still_read() {
        let old = include_bytes!("../tests/data/zs2-games.bin");
        assert_eq!(&old[..8], SAMPLES_MAGIC_WITHOUT_MARGIN);
        let samples = samples_from_bytes(old).expect("a YOLAHZS2 file");
        assert!(samples.len() > 100, "{} samples", samples.len());
        assert!(samples.iter().all(|s| s.margin.is_none()));
        assert!(
            samples
                .iter()
                .any(|s| s.search.to_bits() != s.result.to_bits())
        );
        let mut trainer = Trainer::new(Parameters::random(8, false, 2), 1e-3);
        trainer.margin_weight = 1.0;
        // Without decay: on these samples the margin's gradient alone could move the head.
        trainer.weight_decay = 0.0;
        let head = (trainer.network.margin.clone(), trainer.network.margin_bias);
        let value = trainer.network.value.clone();
        trainer.train(&samples, 1, 64, false, 1, &mut |_, losses| {
            assert_eq!(losses.margin.to_bits(), 0);
        });
        assert_eq!(trainer.network.margin, head.0);
        assert_eq!(trainer.network.margin_bias.to_bits(), head.1.to_bits());
        assert_ne!(trainer.network.value, value);
    }

    /// A file made before the search's value was kept: `tests/data/zs1-games.bin`, eight
    /// games written by the build of bed1542 (`yolah zero --out DIR --generations 1 --games 8
    /// --visits 4 --hidden 8 --epochs 1 --test-games 2 --opponent random --threads 1 --seed 5`,
    /// its `gen-001/games-0000.bin`). It still reads, each sample's search value its result,
    /// and written again as `YOLAHZS3` it reads back the same, still without margins.
    #[test]
    fn files_without_the_search_value_still_read() {
        let old = include_bytes!("../tests/data/zs1-games.bin");
        assert_eq!(&old[..8], SAMPLES_MAGIC_RESULT_ONLY);
        let samples = samples_from_bytes(old).expect("a YOLAHZS1 file");
        assert!(samples.len() > 100, "{} samples", samples.len());
        assert!(
            samples
                .iter()
                .all(|s| s.search.to_bits() == s.result.to_bits())
        );
        assert!(samples.iter().any(|s| s.result != 0.0));
        let again = samples_from_bytes(&samples_to_bytes(&samples)).expect("its new file");
        for (a, b) in samples.iter().zip(&again) {
            assert_eq!(a.position, b.position);
            assert_eq!(a.result.to_bits(), b.result.to_bits());
            assert_eq!(a.search.to_bits(), b.search.to_bits());
            assert_eq!(a.policy, b.policy);
            assert_eq!(b.margin, None);
        }
    }

    /// The search's value is its children's values weighted by their visits: with enough
    /// visits, it says who wins more often than it is wrong in the games' last positions.
    #[test]
    fn the_search_value_leans_towards_the_result_late_in_games() {
        let network = Arc::new(Parameters::random(16, false, 9));
        let play = puct(200, 0.0, 0);
        let samples = play_games(&network, play, 9, 0..16);
        let late: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.position.occupied().count() >= 54 && s.result != 0.0)
            .collect();
        assert!(late.len() > 20, "{} late positions", late.len());
        let agree = late.iter().filter(|s| s.search * s.result > 0.0).count();
        assert!(
            agree * 4 > late.len() * 3,
            "{agree} of {} agree in sign",
            late.len()
        );
        assert!(samples.iter().all(|s| (-1.0..=1.0).contains(&s.search)));
    }

    #[test]
    fn a_symmetric_sample_keeps_its_shares_on_the_images_of_its_moves() {
        for sample in some_samples(30, 3) {
            for symmetry in Symmetry::ALL {
                let image = transformed(&sample, symmetry);
                let total: f32 = image.policy.iter().sum();
                let before: f32 = sample.policy.iter().sum();
                assert!((total - before).abs() < 1e-5);
                assert_eq!(image.result.to_bits(), sample.result.to_bits());
            }
        }
    }

    /// Training lowers both losses on the games it learns from (the policy's to within half
    /// its distance to the targets' entropy).
    #[test]
    fn training_fits_its_samples() {
        let samples = some_samples(400, 4);
        let mut trainer = Trainer::new(Parameters::random(32, false, 4), 3e-3);
        // The cross-entropy cannot fall below the targets' own entropy.
        let entropy: f32 = samples
            .iter()
            .map(|s| {
                -s.policy
                    .iter()
                    .filter(|&&p| p > 0.0)
                    .map(|p| p * p.ln())
                    .sum::<f32>()
            })
            .sum::<f32>()
            / samples.len() as f32;
        let before = losses(&trainer.network, &samples);
        trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
        let after = losses(&trainer.network, &samples);
        assert!(
            after.policy - entropy < 0.5 * (before.policy - entropy),
            "entropy {entropy}: {before:?} → {after:?}"
        );
        assert!(after.value < 0.8 * before.value, "{before:?} → {after:?}");
    }

    /// With the margin's weight, training fits the margin head to the games' final margins
    /// (its squared error falls by more than half); without it, the head is left as it is
    /// (weight decay too leaves it alone).
    #[test]
    fn training_fits_the_margins_when_told() {
        let samples = some_samples(400, 8);
        let spread = samples
            .iter()
            .map(|s| (s.margin.expect("a margin") / MARGIN_SCALE).powi(2))
            .sum::<f32>()
            / samples.len() as f32;
        assert!(spread > 0.005, "{spread}");
        let trained = |weight: f32| {
            let mut trainer = Trainer::new(Parameters::random(32, false, 8), 3e-3);
            trainer.margin_weight = weight;
            trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
            trainer.network
        };
        let start = Parameters::random(32, false, 8);
        let before = losses(&start, &samples).margin;
        let after = losses(&trained(1.0), &samples).margin;
        assert!(after < 0.5 * before, "{before} → {after}");
        let untrained = trained(0.0);
        assert_eq!(untrained.margin, start.margin);
        assert_eq!(untrained.margin_bias.to_bits(), start.margin_bias.to_bits());
    }

    /// With the search's value as the whole target, training fits the search's values, not
    /// the results: here the opposite of the results.
    #[test]
    fn training_fits_the_search_values_when_told() {
        let mut samples = some_samples(400, 6);
        for s in &mut samples {
            s.search = -s.result;
        }
        let error = |network: &Parameters, target: fn(&Sample) -> f32| -> f32 {
            let mut act = Activations::default();
            let total: f32 = samples
                .iter()
                .map(|s| {
                    let moves = s.position.moves();
                    let v = network
                        .forward(&s.position, moves.as_slice(), &mut act)
                        .value;
                    (v - target(s)).powi(2)
                })
                .sum();
            total / samples.len() as f32
        };
        let mut trainer = Trainer::new(Parameters::random(32, false, 6), 3e-3);
        trainer.value_mix = 1.0;
        let before = error(&trainer.network, |s| s.search);
        trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
        let after = error(&trainer.network, |s| s.search);
        let to_results = error(&trainer.network, |s| s.result);
        assert!(after < 0.8 * before, "{before} → {after}");
        assert!(after < 0.5 * to_results, "{after} against {to_results}");
    }
}

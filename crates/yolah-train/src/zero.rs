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
mod tests;

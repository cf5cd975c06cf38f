//! Training the network ([`yolah_ai::eval::network`]) on self-play positions, on the CPU:
//! the passes written by hand ([`crate::backprop`]), `Adam`, the slices of a batch on all
//! cores.
//!
//! The network's output is the rest of the game's margin for black in points; the prediction
//! is `sigmoid((scored + output) / SCALE)`, the expected result, and the loss is its squared
//! distance to the target's own `sigmoid`: the search's score, the final margin, the final
//! result, or a blend of score and result ([`Target`]). Each training position is seen under
//! a random one of the board's 8 symmetries each epoch. Validation positions are whole games
//! set aside (no position of a validation game is trained on) and seen as they are.

use crate::backprop::{self, Inputs, Layout, Scratch};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use yolah_ai::data::Sample;
use yolah_ai::eval::Weights;
use yolah_ai::eval::features::COUNT;
use yolah_ai::eval::network::{
    DENSE, FEATURE_SCALE, INPUTS, Parameters, Shape, Stack, dense_inputs, max_second_weight,
};
use yolah_core::zobrist::splitmix64;
use yolah_core::{Bitboard, Color, Position, Symmetry};

/// Points of margin that move the expected result from 0.5 to 0.73 (`sigmoid(1)`).
pub const SCALE: f32 = 4.0;

/// What the network learns to predict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// The search's score of the position.
    Score,
    /// The game's final margin.
    Margin,
    /// The game's result (win, draw, loss).
    Result,
    /// `λ × score + (1 − λ) × result`, λ from 0 to 1.
    Blend(f32),
}

impl FromStr for Target {
    type Err = String;
    fn from_str(text: &str) -> Result<Target, String> {
        match text {
            "score" => Ok(Target::Score),
            "margin" => Ok(Target::Margin),
            "result" => Ok(Target::Result),
            _ => text
                .strip_prefix("blend=")
                .and_then(|l| l.parse::<f32>().ok())
                .filter(|l| (0.0..=1.0).contains(l))
                .map(Target::Blend)
                .ok_or_else(|| {
                    format!(
                        "unknown target {}: expected score, margin, result or blend=λ with λ from 0 to 1",
                        yolah_core::text::quote(text)
                    )
                }),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Score => f.write_str("score"),
            Target::Margin => f.write_str("margin"),
            Target::Result => f.write_str("result"),
            Target::Blend(l) => write!(f, "blend={l}"),
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One training position, from black's point of view.
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// Black pieces, white pieces, holes.
    pub planes: [u64; 3],
    /// Whether white is to move.
    pub white_to_move: bool,
    /// The dense inputs (the features do not change under the symmetries).
    pub dense: [f32; DENSE],
    /// Black's points minus white's so far.
    pub scored: f32,
    /// The target, an expected result from 0 to 1 for black.
    pub target: f32,
    /// The game's result for black, 0, 0.5 or 1 (for the validation loss every target shares).
    pub result: f32,
}

impl Item {
    /// The item of a sample for a target; with `exact`, a position whose exact value the
    /// solver proved learns that value whatever the target (its score, margin and result are
    /// best play's), while its validation result stays the game's.
    pub fn new(sample: &Sample, target: Target, exact: bool) -> Item {
        let p = &sample.position;
        let sign = if p.side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let result = f32::midpoint(sign * f32::from(sample.result), 1.0);
        let (score, margin, learnt_result) = match sample.exact {
            Some(m) if exact => (100 * i16::from(m), m, m.signum()),
            _ => (sample.score, sample.margin, sample.result),
        };
        let score = sigmoid(sign * f32::from(score) / 100.0 / SCALE);
        let learnt_result = f32::midpoint(sign * f32::from(learnt_result), 1.0);
        let target = match target {
            Target::Score => score,
            Target::Margin => sigmoid(sign * f32::from(margin) / SCALE),
            Target::Result => learnt_result,
            Target::Blend(l) => l * score + (1.0 - l) * learnt_result,
        };
        Item {
            scored: f32::from(p.score(Color::Black)) - f32::from(p.score(Color::White)),
            target,
            result,
            ..Item::unlabelled(p)
        }
    }

    /// The network's inputs of a position, with no labels (and no points scored: the network
    /// values the rest of the game).
    fn unlabelled(p: &Position) -> Item {
        let (planes, white_to_move) = planes(p);
        Item {
            planes,
            white_to_move,
            dense: dense_inputs(p),
            scored: 0.0,
            target: 0.0,
            result: 0.0,
        }
    }

    fn transformed(self, symmetry: Symmetry) -> Item {
        Item {
            planes: self.planes.map(|b| symmetry.bitboard(Bitboard(b)).0),
            ..self
        }
    }
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Trained on.
    pub train: Vec<Item>,
    /// Set aside: whole games.
    pub validation: Vec<Item>,
    /// Training positions merged into another: the same position (up to the board's
    /// symmetries, with the same points scored) met more than once.
    pub merged: usize,
}

impl Dataset {
    /// Splits `games` (each a game's samples): a game goes to validation with probability
    /// `validation`, decided by `seed` and the game's number, so the split is the same on
    /// every run with the same data and seed.
    pub fn new<'a>(
        games: impl IntoIterator<Item = &'a [Sample]>,
        target: Target,
        exact: bool,
        validation: f64,
        seed: u64,
    ) -> Dataset {
        let mut data = Dataset::default();
        for (number, game) in games.into_iter().enumerate() {
            let draw = splitmix64(seed ^ splitmix64(number as u64)) as f64 / u64::MAX as f64;
            let part = if draw < validation {
                &mut data.validation
            } else {
                &mut data.train
            };
            part.extend(game.iter().map(|s| Item::new(s, target, exact)));
        }
        data.merge_duplicates();
        data
    }

    /// Merges the training positions met more than once (under any of the 8 symmetries,
    /// with the same points scored) into one, whose target and result are their means: each
    /// position then weighs once in an epoch, however often the games passed through it.
    fn merge_duplicates(&mut self) {
        use std::collections::HashMap;
        let canonical = |item: &Item| {
            let planes = Symmetry::ALL
                .iter()
                .map(|&s| item.planes.map(|b| s.bitboard(Bitboard(b)).0))
                .min()
                .expect("8 symmetries");
            (planes, item.white_to_move, item.scored.to_bits())
        };
        let mut first: HashMap<([u64; 3], bool, u32), usize> = HashMap::new();
        let mut sums: Vec<(f64, f64, u32)> = Vec::with_capacity(self.train.len());
        let mut kept: Vec<Item> = Vec::with_capacity(self.train.len());
        for item in self.train.drain(..) {
            match first.entry(canonical(&item)) {
                std::collections::hash_map::Entry::Occupied(at) => {
                    let sum = &mut sums[*at.get()];
                    sum.0 += f64::from(item.target);
                    sum.1 += f64::from(item.result);
                    sum.2 += 1;
                }
                std::collections::hash_map::Entry::Vacant(at) => {
                    at.insert(kept.len());
                    sums.push((f64::from(item.target), f64::from(item.result), 1));
                    kept.push(item);
                }
            }
        }
        for (item, (target, result, n)) in kept.iter_mut().zip(sums) {
            if n > 1 {
                item.target = (target / f64::from(n)) as f32;
                item.result = (result / f64::from(n)) as f32;
                self.merged += n as usize - 1;
            }
        }
        self.train = kept;
    }
}

/// The smallest first learning rate a run may ask for.
pub const MIN_LEARNING_RATE: f64 = 1e-6;
/// The largest first learning rate a run may ask for.
pub const MAX_LEARNING_RATE: f64 = 1.0;

/// Checks a first learning rate (`--learning-rate`, as `train` and `learn` take it).
pub fn check_learning_rate(rate: f64) -> Result<(), String> {
    if (MIN_LEARNING_RATE..=MAX_LEARNING_RATE).contains(&rate) {
        Ok(())
    } else {
        Err(format!(
            "--learning-rate must be from {MIN_LEARNING_RATE} to {MAX_LEARNING_RATE}, not {rate}"
        ))
    }
}

/// How a run trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Positions per step.
    pub batch: usize,
    /// `AdamW`'s learning rate at the first epoch; it falls geometrically to a tenth of it at
    /// the last.
    pub learning_rate: f64,
    /// The epochs of the whole run (for the learning-rate schedule).
    pub epochs: u32,
    /// The run's seed: initial weights, shuffles, symmetries.
    pub seed: u64,
}

/// The initial parameters of `shape`: with the features, the direct path on them is the
/// tuned heuristic (so the network starts as the tuned evaluation); the rest random, uniform
/// in ±1/√fan-in (the usual linear-layer start), seeded; the output's weights on the hidden
/// layer start small, so the start is close to the heuristic.
pub fn initial_parameters(shape: Shape, seed: u64) -> Parameters {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut uniform = |n: usize, fan_in: usize| -> Vec<f32> {
        let bound = 1.0 / (fan_in as f32).sqrt();
        (0..n).map(|_| rng.random_range(-bound..bound)).collect()
    };
    let (h, second, third, d) = (shape.hidden, shape.second, shape.third, shape.dense());
    // The inputs are sparse: about 30 are on, so the first layer is scaled for that many.
    let input = uniform(INPUTS * h, 32);
    let bias1 = uniform(h, 32);
    // The heuristic in points: Σ v (late + (early − late) × phase) / 100 for features v; the
    // dense inputs are v / FEATURE_SCALE and v / FEATURE_SCALE × phase. The points scored are
    // added outside the network, so the score feature's weight is less one point.
    let mut skip = vec![0.0; d];
    if shape.features {
        let tuned = Weights::tuned();
        for k in 0..COUNT {
            let late = tuned.late[k] as f32 / 100.0;
            let early = tuned.early[k] as f32 / 100.0;
            skip[k] = late * FEATURE_SCALE;
            skip[COUNT + k] = (early - late) * FEATURE_SCALE;
        }
        skip[yolah_ai::eval::Feature::Score as usize] -= FEATURE_SCALE;
    }
    let limit = max_second_weight(h);
    let stacks = (0..shape.buckets)
        .map(|_| Stack {
            hidden: uniform(second * h, h)
                .into_iter()
                .map(|w| w.clamp(-limit, limit))
                .collect(),
            dense: uniform(second * d, d.max(1)),
            bias2: uniform(second, h),
            third: uniform(third * second, second),
            bias3: uniform(third, second),
            output: uniform(shape.last(), shape.last())
                .into_iter()
                .map(|w| w / 16.0)
                .collect(),
            skip: skip.clone(),
            bias_out: 0.0,
        })
        .collect();
    Parameters {
        shape,
        input,
        bias1,
        stacks,
    }
}

/// Positions per parallel slice of a step: each slice sums its gradient alone, then the
/// slices' sums are added in order, so a run's numbers do not depend on the thread count.
const SLICE: usize = 128;

/// `Adam`'s moment decays and its guard against division by zero (the usual values).
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The planes (black, white, holes) of a position and whether white is to move.
pub(crate) fn planes(p: &Position) -> ([u64; 3], bool) {
    (
        [
            p.pieces(Color::Black).0,
            p.pieces(Color::White).0,
            p.holes().0,
        ],
        p.side_to_move() == Color::White,
    )
}

/// The network being trained: its flat parameters, the limit each keeps, and `Adam`'s
/// moments. Written by hand ([`crate::backprop`]): the sparse first layer costs the ~30
/// inputs that are on, not all 193.
pub struct Trainer {
    layout: Layout,
    parameters: Vec<f32>,
    limits: Vec<f32>,
    first: Vec<f32>,
    second: Vec<f32>,
    steps: u64,
    settings: Settings,
}

/// The bytes that start a trainer's state file.
const STATE_MAGIC: &[u8; 8] = b"YOLAHTRN";

impl Trainer {
    /// A trainer starting from `parameters` (of any shape), with fresh moments.
    pub fn new(parameters: &Parameters, settings: Settings) -> Trainer {
        let n = parameters.shape.parameters();
        let (flat, limits) = parameters.flat_with_limits().into_iter().unzip();
        Trainer {
            layout: Layout::new(parameters.shape),
            parameters: flat,
            limits,
            first: vec![0.0; n],
            second: vec![0.0; n],
            steps: 0,
            settings,
        }
    }

    /// Replaces the settings (a resumed run may raise its epochs).
    pub fn set_settings(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// The current parameters.
    pub fn parameters(&self) -> Parameters {
        Parameters::from_flat(self.layout.shape, &self.parameters)
    }

    /// The whole state after `epochs` epochs (the network as its file holds it, then the
    /// optimiser's step count and moments, then a CRC-32 of all), so that a resumed run goes
    /// on exactly as if it had not stopped.
    pub fn state(&self, epochs: u32) -> Vec<u8> {
        let network = self.parameters().to_bytes(epochs);
        let mut bytes = Vec::with_capacity(network.len() + 8 * self.parameters.len() + 32);
        bytes.extend_from_slice(STATE_MAGIC);
        bytes.extend_from_slice(&(network.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&network);
        bytes.extend_from_slice(&self.steps.to_le_bytes());
        for x in self.first.iter().chain(&self.second) {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// A trainer from a [`Trainer::state`], and the epochs it had trained; a damaged or
    /// foreign file is refused with the reason.
    pub fn from_state(bytes: &[u8], settings: Settings) -> Result<(Trainer, u32), String> {
        let bad = |why: &str| format!("not a trainer's state: {why}");
        if bytes.len() < 20 || &bytes[..8] != STATE_MAGIC {
            return Err(bad("it does not start with YOLAHTRN"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(bad("its checksum does not match (a damaged file)"));
        }
        let length = u64::from_le_bytes(body[8..16].try_into().expect("8 bytes"));
        let network = usize::try_from(length)
            .ok()
            .and_then(|n| body.get(16..16 + n))
            .ok_or_else(|| bad("cut short"))?;
        let parameters = Parameters::from_bytes(network).map_err(|e| bad(&e.to_string()))?;
        let epochs = yolah_ai::eval::network::epochs_of(network);
        let rest = &body[16 + network.len()..];
        let n = parameters.shape.parameters();
        if rest.len() != 8 + 8 * n {
            return Err(bad("its moments do not fit its network"));
        }
        let mut trainer = Trainer::new(&parameters, settings);
        trainer.steps = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
        let floats: Vec<f32> = rest[8..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        trainer.first.copy_from_slice(&floats[..n]);
        trainer.second.copy_from_slice(&floats[n..]);
        Ok((trainer, epochs))
    }

    /// The network's inputs of an item.
    fn with_inputs<T>(&self, item: &Item, run: impl FnOnce(&Inputs) -> T) -> T {
        let mut active = [0u16; 65];
        let n = backprop::active_inputs(&item.planes, item.white_to_move, &mut active);
        let occupied: u32 = item.planes.iter().map(|b| b.count_ones()).sum();
        run(&Inputs {
            active: &active[..n],
            dense: &item.dense[..self.layout.shape.dense()],
            bucket: self.layout.shape.bucket(64 - occupied),
        })
    }

    /// The network's outputs for `items` (the rest of the game for black, points), in
    /// parallel.
    fn outputs(&self, items: &[Item]) -> Vec<f32> {
        use rayon::prelude::*;
        items
            .par_chunks(SLICE)
            .flat_map_iter(|slice| {
                let mut scratch = Scratch::new(self.layout.shape);
                slice
                    .iter()
                    .map(|item| {
                        self.with_inputs(item, |inputs| {
                            backprop::forward(&self.layout, &self.parameters, inputs, &mut scratch)
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The library's forward pass: the network's output (the rest of the game's margin for
    /// black, in points) for each position.
    pub fn forward(&self, positions: &[Position]) -> Vec<f32> {
        let items: Vec<Item> = positions.iter().map(Item::unlabelled).collect();
        self.outputs(&items)
    }

    /// The learning rate of epoch `epoch` (from 0): from the settings' at the first down to a
    /// tenth of it at the last, geometrically.
    pub fn learning_rate(&self, epoch: u32) -> f64 {
        let progress = f64::from(epoch) / f64::from(self.settings.epochs.max(2) - 1);
        self.settings.learning_rate * 0.1f64.powf(progress.min(1.0))
    }

    /// One epoch (number `epoch`, from 0) over `train`: shuffled, each item under a random
    /// symmetry. Calls `on_batch(done, loss)` after each step. Returns the mean loss.
    pub fn epoch(
        &mut self,
        train: &[Item],
        epoch: u32,
        mut on_batch: impl FnMut(usize, f32),
    ) -> f32 {
        let learning_rate = self.learning_rate(epoch) as f32;
        let settings = self.settings.clone();
        let mut rng =
            ChaCha8Rng::seed_from_u64(splitmix64(settings.seed ^ (u64::from(epoch) << 32)));
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        order.shuffle(&mut rng);
        let mut total = 0.0;
        let mut batches = 0;
        for (i, chunk) in order.chunks(settings.batch.max(1)).enumerate() {
            let items: Vec<Item> = chunk
                .iter()
                .map(|&k| train[k as usize].transformed(Symmetry::ALL[rng.random_range(0..8)]))
                .collect();
            let (loss, gradient) = self.gradient(&items);
            self.step(&gradient, learning_rate);
            total += loss;
            batches += 1;
            on_batch(((i + 1) * settings.batch).min(train.len()), loss);
        }
        total / batches.max(1) as f32
    }

    /// The mean squared error of `items` against their targets and its gradient.
    pub fn gradient(&self, items: &[Item]) -> (f32, Vec<f32>) {
        use rayon::prelude::*;
        let n = self.parameters.len();
        let scale = 1.0 / items.len().max(1) as f32;
        let slices: Vec<(f64, Vec<f32>)> = items
            .par_chunks(SLICE)
            .map(|slice| {
                let mut scratch = Scratch::new(self.layout.shape);
                let mut gradient = vec![0.0f32; n];
                let mut loss = 0.0f64;
                for item in slice {
                    self.with_inputs(item, |inputs| {
                        let p = &self.parameters;
                        let out = backprop::forward(&self.layout, p, inputs, &mut scratch);
                        let predicted = sigmoid((item.scored + out) / SCALE);
                        let error = predicted - item.target;
                        loss += f64::from(error * error);
                        let g = 2.0 * error * predicted * (1.0 - predicted) / SCALE * scale;
                        backprop::backward(&self.layout, p, inputs, &mut scratch, g, &mut gradient);
                    });
                }
                (loss, gradient)
            })
            .collect();
        let mut loss = 0.0;
        let mut gradient = vec![0.0f32; n];
        for (l, g) in slices {
            loss += l;
            for (sum, x) in gradient.iter_mut().zip(&g) {
                *sum += x;
            }
        }
        ((loss * f64::from(scale)) as f32, gradient)
    }

    /// One `Adam` step (no weight decay), each parameter then kept within its limit (where
    /// the integer inference can hold it).
    fn step(&mut self, gradient: &[f32], learning_rate: f32) {
        self.steps += 1;
        let t = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let correct1 = 1.0 - BETA1.powi(t);
        let correct2 = 1.0 - BETA2.powi(t);
        for ((((p, &g), m), v), &limit) in self
            .parameters
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.first)
            .zip(&mut self.second)
            .zip(&self.limits)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = learning_rate * (*m / correct1) / ((*v / correct2).sqrt() + EPSILON);
            *p = (*p - update).clamp(-limit, limit);
        }
    }

    /// The network on `items`: its mean squared error against their target and against their
    /// result (the loss every target can be compared on), and how much its outputs vary.
    pub fn validate(&self, items: &[Item]) -> Validation {
        let outputs = self.outputs(items);
        let mut target = 0.0f64;
        let mut result = 0.0f64;
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for (&out, item) in outputs.iter().zip(items) {
            let p = sigmoid((item.scored + out) / SCALE);
            target += f64::from((p - item.target).powi(2));
            result += f64::from((p - item.result).powi(2));
            sum += f64::from(out);
            squares += f64::from(out).powi(2);
        }
        let n = items.len().max(1) as f64;
        let mean = sum / n;
        Validation {
            loss: (target / n) as f32,
            result_loss: (result / n) as f32,
            spread: (squares / n - mean * mean).max(0.0).sqrt() as f32,
            positions: items.len(),
        }
    }
}

/// What [`Trainer::validate`] measured.
#[derive(Clone, Copy, Debug)]
pub struct Validation {
    /// The mean squared error against the items' targets.
    pub loss: f32,
    /// The mean squared error against the games' results.
    pub result_loss: f32,
    /// The standard deviation of the network's outputs (points of margin) over the items.
    pub spread: f32,
    /// The positions measured.
    pub positions: usize,
}

/// Outputs that vary by less than this (points of margin, a hundredth of the evaluation's
/// unit) over a validation set are a network that answers the same for every position: its
/// hidden units are dead. (A fresh network's vary by about 0.004: its output weights start
/// small; a dead one's by nothing, or rounding.)
pub const DEAD_SPREAD: f32 = 1e-4;

impl Validation {
    /// Whether the network answers (about) the same for every position, which no training
    /// undoes: its hidden units died, usually of too high a learning rate from fresh weights.
    pub fn dead(&self) -> bool {
        // One position has no spread to measure.
        self.positions >= 2 && self.spread < DEAD_SPREAD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions along one game, as validation items.
    fn items() -> Vec<Item> {
        let mut p = Position::start();
        let mut items = Vec::new();
        while !p.game_over() {
            items.push(Item::new(&sample(p, 0, 0), Target::Score, false));
            let moves = p.moves();
            p.play(moves[items.len() % moves.len()]);
        }
        items
    }

    /// A fresh network's outputs vary; one whose first-layer units never fire (their biases
    /// far below any input's reach) answers the same everywhere, and is told dead.
    #[test]
    fn a_network_whose_hidden_units_never_fire_is_told_dead() {
        let shape = Shape {
            hidden: 32,
            second: 8,
            third: 0,
            buckets: 1,
            features: false,
        };
        let settings = Settings {
            batch: 64,
            learning_rate: 0.001,
            epochs: 1,
            seed: 1,
        };
        let items = items();
        assert!(items.len() > 20);
        let fresh = Trainer::new(&initial_parameters(shape, 3), settings.clone());
        let alive = fresh.validate(&items);
        assert!(!alive.dead(), "spread {}", alive.spread);
        let mut parameters = initial_parameters(shape, 3);
        parameters.bias1.iter_mut().for_each(|b| *b = -1000.0);
        let dead = Trainer::new(&parameters, settings).validate(&items);
        assert!(dead.dead(), "spread {}", dead.spread);
        assert!(dead.loss.is_finite() && dead.result_loss.is_finite());
    }

    fn sample(position: Position, score: i16, result: i8) -> Sample {
        Sample {
            position,
            result,
            margin: result,
            score,
            exact: None,
        }
    }

    #[test]
    fn repeated_positions_merge_into_one_with_the_mean_target() {
        let mut p = Position::start();
        for _ in 0..3 {
            p.play(p.moves()[0]);
        }
        let mut q = p;
        q.play(q.moves()[1]);
        // The same position, once as it is and once mirrored, in two games; another once.
        let mirrored = Symmetry::ALL[3].position(&p);
        assert_ne!(mirrored, p);
        let games = [
            vec![sample(p, 400, 1), sample(q, 0, 0)],
            vec![sample(mirrored, -400, -1)],
        ];
        let data = Dataset::new(games.iter().map(Vec::as_slice), Target::Score, true, 0.0, 1);
        assert_eq!(data.merged, 1);
        assert_eq!(data.train.len(), 2);
        let merged = &data.train[0];
        // The mean of sigmoid(±1) is one half; the results, won and lost, average to a draw.
        assert!((merged.target - 0.5).abs() < 1e-6, "{}", merged.target);
        assert!((merged.result - 0.5).abs() < 1e-6, "{}", merged.result);
        let alone = Item::new(&games[0][1], Target::Score, true);
        assert!(
            (data.train[1].target - alone.target).abs() < 1e-9,
            "left alone"
        );
    }

    /// A position with an exact value learns it, for every target, unless told not to; its
    /// validation result stays the game's.
    #[test]
    fn exact_values_replace_the_labels_they_prove() {
        let mut p = Position::start();
        p.play(p.moves()[0]); // white to move: black's view is the opposite sign
        let game = Sample {
            exact: Some(-3),
            ..sample(p, 250, 1)
        };
        for target in [
            Target::Score,
            Target::Margin,
            Target::Result,
            Target::Blend(0.5),
        ] {
            let exact = Item::new(&game, target, true);
            let proved = Item::new(
                &Sample {
                    margin: -3,
                    ..sample(p, -300, -1)
                },
                target,
                false,
            );
            assert!((exact.target - proved.target).abs() < 1e-6, "{target}");
            let ignored = Item::new(&game, target, false);
            let plain = Item::new(&sample(p, 250, 1), target, false);
            assert!((ignored.target - plain.target).abs() < 1e-9, "{target}");
            // Black's view: white loses by 3, so black's expected result is above a half.
            assert!(exact.target > 0.5, "{target}: {}", exact.target);
            assert!((exact.result - plain.result).abs() < 1e-9, "{target}");
        }
    }
}

//! Training the network ([`yolah_ai::eval::network`]) on self-play positions, on the CPU with
//! `candle` (autograd and the `AdamW` optimiser; the README says why candle).
//!
//! The network's output is the rest of the game's margin for black in points; the prediction
//! is `sigmoid((scored + output) / SCALE)`, the expected result, and the loss is its squared
//! distance to the target's own `sigmoid`: the search's score, the final margin, the final
//! result, or a blend of score and result ([`Target`]). Each training position is seen under
//! a random one of the board's 8 symmetries each epoch. Validation positions are whole games
//! set aside (no position of a validation game is trained on) and seen as they are.

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
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
    BOARD_INPUTS, DENSE, FEATURE_SCALE, INPUTS, MAX_INPUT_WEIGHT, MAX_WEIGHT, Parameters, Shape,
    Stack, dense_inputs, max_second_weight,
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
    /// The item of a sample for a target.
    pub fn new(sample: &Sample, target: Target) -> Item {
        let p = &sample.position;
        let sign = if p.side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let result = f32::midpoint(sign * f32::from(sample.result), 1.0);
        let score = sigmoid(sign * f32::from(sample.score) / 100.0 / SCALE);
        let target = match target {
            Target::Score => score,
            Target::Margin => sigmoid(sign * f32::from(sample.margin) / SCALE),
            Target::Result => result,
            Target::Blend(l) => l * score + (1.0 - l) * result,
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
        Item {
            planes: [
                p.pieces(Color::Black).0,
                p.pieces(Color::White).0,
                p.holes().0,
            ],
            white_to_move: p.side_to_move() == Color::White,
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
}

impl Dataset {
    /// Splits `games` (each a game's samples): a game goes to validation with probability
    /// `validation`, decided by `seed` and the game's number, so the split is the same on
    /// every run with the same data and seed.
    pub fn new<'a>(
        games: impl IntoIterator<Item = &'a [Sample]>,
        target: Target,
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
            part.extend(game.iter().map(|s| Item::new(s, target)));
        }
        data
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

/// A candle error as text.
#[allow(clippy::needless_pass_by_value)] // used as `map_err(text)`
fn text(error: candle_core::Error) -> String {
    format!("training: {error}")
}

/// The layers behind the first, for one output bucket, as trained.
struct StackVars {
    /// Unit-major (second × hidden).
    w2: Var,
    /// Unit-major (second × dense), with the features.
    w2d: Option<Var>,
    b2: Var,
    /// Unit-major (third × second), with a third layer.
    w3: Option<Var>,
    b3: Option<Var>,
    /// last × 1.
    out: Var,
    /// dense × 1, with the features.
    skip: Option<Var>,
    bout: Var,
}

/// The network being trained: its variables and the optimiser.
pub struct Trainer {
    shape: Shape,
    w1: Var,
    b1: Var,
    stacks: Vec<StackVars>,
    optimizer: AdamW,
    settings: Settings,
    device: Device,
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

impl Trainer {
    /// A trainer starting from `parameters` (of any shape).
    pub fn new(parameters: &Parameters, settings: Settings) -> Result<Trainer, String> {
        let device = Device::Cpu;
        let shape = parameters.shape;
        let (h, second, third, d) = (shape.hidden, shape.second, shape.third, shape.dense());
        let var = |values: &[f32], shape: (usize, usize)| {
            Var::from_tensor(&Tensor::from_slice(values, shape, &device)?)
        };
        let build = || -> candle_core::Result<_> {
            let w1 = var(&parameters.input, (INPUTS, h))?;
            let b1 = var(&parameters.bias1, (1, h))?;
            let stacks = parameters
                .stacks
                .iter()
                .map(|s| -> candle_core::Result<StackVars> {
                    Ok(StackVars {
                        w2: var(&s.hidden, (second, h))?,
                        w2d: (d > 0).then(|| var(&s.dense, (second, d))).transpose()?,
                        b2: var(&s.bias2, (1, second))?,
                        w3: (third > 0)
                            .then(|| var(&s.third, (third, second)))
                            .transpose()?,
                        b3: (third > 0).then(|| var(&s.bias3, (1, third))).transpose()?,
                        out: var(&s.output, (shape.last(), 1))?,
                        skip: (d > 0).then(|| var(&s.skip, (d, 1))).transpose()?,
                        bout: var(&[s.bias_out], (1, 1))?,
                    })
                })
                .collect::<candle_core::Result<Vec<_>>>()?;
            Ok((w1, b1, stacks))
        };
        let (w1, b1, stacks) = build().map_err(text)?;
        let mut vars = vec![w1.clone(), b1.clone()];
        for s in &stacks {
            vars.extend([s.w2.clone(), s.b2.clone(), s.out.clone(), s.bout.clone()]);
            vars.extend(
                [&s.w2d, &s.w3, &s.b3, &s.skip]
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        let optimizer = AdamW::new(
            vars,
            ParamsAdamW {
                lr: settings.learning_rate,
                weight_decay: 0.0,
                ..ParamsAdamW::default()
            },
        )
        .map_err(text)?;
        Ok(Trainer {
            shape,
            w1,
            b1,
            stacks,
            optimizer,
            settings,
            device,
        })
    }

    /// The current parameters.
    pub fn parameters(&self) -> Result<Parameters, String> {
        let flat = |v: &Var| v.as_tensor().flatten_all()?.to_vec1::<f32>();
        let maybe = |v: &Option<Var>| v.as_ref().map_or(Ok(Vec::new()), flat);
        let get = || -> candle_core::Result<Parameters> {
            let stacks = self
                .stacks
                .iter()
                .map(|s| -> candle_core::Result<Stack> {
                    Ok(Stack {
                        hidden: flat(&s.w2)?,
                        dense: maybe(&s.w2d)?,
                        bias2: flat(&s.b2)?,
                        third: maybe(&s.w3)?,
                        bias3: maybe(&s.b3)?,
                        output: flat(&s.out)?,
                        skip: maybe(&s.skip)?,
                        bias_out: flat(&s.bout)?[0],
                    })
                })
                .collect::<candle_core::Result<Vec<_>>>()?;
            Ok(Parameters {
                shape: self.shape,
                input: flat(&self.w1)?,
                bias1: flat(&self.b1)?,
                stacks,
            })
        };
        get().map_err(text)
    }

    /// The sparse inputs of `items`, an `items × INPUTS` matrix of 0 and 1, their dense
    /// inputs, `items × DENSE` (none without the features), and their buckets one-hot,
    /// `items × buckets`.
    fn inputs(&self, items: &[Item]) -> candle_core::Result<(Tensor, Option<Tensor>, Tensor)> {
        let mut x = vec![0f32; items.len() * INPUTS];
        let buckets = self.shape.buckets;
        let mut mask = vec![0f32; items.len() * buckets];
        for ((row, item), mask) in x
            .chunks_exact_mut(INPUTS)
            .zip(items)
            .zip(mask.chunks_exact_mut(buckets))
        {
            for (plane, &bits) in item.planes.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    row[plane * 64 + bits.trailing_zeros() as usize] = 1.0;
                    bits &= bits - 1;
                }
            }
            if item.white_to_move {
                row[BOARD_INPUTS] = 1.0;
            }
            let occupied: u32 = item.planes.iter().map(|b| b.count_ones()).sum();
            mask[self.shape.bucket(64 - occupied)] = 1.0;
        }
        let dense = if self.shape.features {
            let dense: Vec<f32> = items.iter().flat_map(|i| i.dense).collect();
            Some(Tensor::from_vec(dense, (items.len(), DENSE), &self.device)?)
        } else {
            None
        };
        Ok((
            Tensor::from_vec(x, (items.len(), INPUTS), &self.device)?,
            dense,
            Tensor::from_vec(mask, (items.len(), buckets), &self.device)?,
        ))
    }

    /// The network's output for inputs `(x, dense, buckets)` (the rest of the game for
    /// black, points), `n × 1`: every bucket's stack, each item's own picked by its one-hot
    /// bucket.
    fn output(
        &self,
        (x, dense, buckets): &(Tensor, Option<Tensor>, Tensor),
    ) -> candle_core::Result<Tensor> {
        let h1 = x
            .matmul(self.w1.as_tensor())?
            .broadcast_add(self.b1.as_tensor())?
            .clamp(0f32, 1f32)?;
        let mut total: Option<Tensor> = None;
        for (b, s) in self.stacks.iter().enumerate() {
            let mut z2 = h1.matmul(&s.w2.as_tensor().t()?)?;
            if let (Some(dense), Some(w2d)) = (dense, &s.w2d) {
                z2 = (z2 + dense.matmul(&w2d.as_tensor().t()?)?)?;
            }
            let mut last = z2.broadcast_add(s.b2.as_tensor())?.clamp(0f32, 1f32)?;
            if let (Some(w3), Some(b3)) = (&s.w3, &s.b3) {
                last = last
                    .matmul(&w3.as_tensor().t()?)?
                    .broadcast_add(b3.as_tensor())?
                    .clamp(0f32, 1f32)?;
            }
            let mut out = last.matmul(s.out.as_tensor())?;
            if let (Some(dense), Some(skip)) = (dense, &s.skip) {
                out = (out + dense.matmul(skip.as_tensor())?)?;
            }
            let out = out.broadcast_add(s.bout.as_tensor())?;
            let picked = if self.stacks.len() == 1 {
                out
            } else {
                (out * buckets.narrow(1, b, 1)?)?
            };
            total = Some(match total {
                None => picked,
                Some(t) => (t + picked)?,
            });
        }
        Ok(total.expect("a network has at least one bucket"))
    }
    /// The expected results for black of `items`, `n × 1`.
    fn predict(&self, items: &[Item]) -> candle_core::Result<Tensor> {
        let scored: Vec<f32> = items.iter().map(|i| i.scored).collect();
        let scored = Tensor::from_vec(scored, (items.len(), 1), &self.device)?;
        let total = (self.output(&self.inputs(items)?)? + scored)?;
        candle_nn::ops::sigmoid(&(total / f64::from(SCALE))?)
    }

    /// The library's forward pass: the network's output (the rest of the game's margin for
    /// black, in points) for each position.
    pub fn forward(&self, positions: &[Position]) -> Result<Vec<f32>, String> {
        let items: Vec<Item> = positions.iter().map(Item::unlabelled).collect();
        let run = || self.output(&self.inputs(&items)?)?.flatten_all()?.to_vec1();
        run().map_err(text)
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
    ) -> Result<f32, String> {
        self.optimizer.set_learning_rate(self.learning_rate(epoch));
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
            let loss = self.step(&items).map_err(text)?;
            total += loss;
            batches += 1;
            on_batch(((i + 1) * settings.batch).min(train.len()), loss);
        }
        Ok(total / batches.max(1) as f32)
    }

    fn step(&mut self, items: &[Item]) -> candle_core::Result<f32> {
        let targets: Vec<f32> = items.iter().map(|i| i.target).collect();
        let targets = Tensor::from_vec(targets, (items.len(), 1), &self.device)?;
        let loss = (self.predict(items)? - targets)?.sqr()?.mean_all()?;
        self.optimizer.backward_step(&loss)?;
        // Keep the weights where the integer inference can hold them.
        let clamp = |v: &Var, limit: f32| {
            let limit = f64::from(limit);
            v.set(&v.as_tensor().clamp(-limit, limit)?)
        };
        clamp(&self.w1, MAX_INPUT_WEIGHT)?;
        clamp(&self.b1, MAX_INPUT_WEIGHT)?;
        let second = max_second_weight(self.shape.hidden);
        for s in &self.stacks {
            clamp(&s.w2, second)?;
            for v in [&s.b2, &s.out, &s.bout]
                .into_iter()
                .chain([&s.w2d, &s.w3, &s.b3, &s.skip].into_iter().flatten())
            {
                clamp(v, MAX_WEIGHT)?;
            }
        }
        loss.to_dtype(DType::F32)?.to_scalar::<f32>()
    }

    /// The mean squared error on `items` against their target and against their result (the
    /// loss every target can be compared on).
    pub fn validate(&self, items: &[Item]) -> Result<(f32, f32), String> {
        let mut target = 0.0f64;
        let mut result = 0.0f64;
        for chunk in items.chunks(4096) {
            let run = || -> candle_core::Result<Vec<f32>> {
                self.predict(chunk)?.flatten_all()?.to_vec1()
            };
            let predicted = run().map_err(text)?;
            for (p, item) in predicted.iter().zip(chunk) {
                target += f64::from((p - item.target).powi(2));
                result += f64::from((p - item.result).powi(2));
            }
        }
        let n = items.len().max(1) as f64;
        Ok(((target / n) as f32, (result / n) as f32))
    }
}

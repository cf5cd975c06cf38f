//! `yolah.VectorEnv`: many games stepped in one call, for reinforcement learning (as `EnvPool`
//! and pgx do). Actions come in as one array; observations, legal-action masks, rewards,
//! terminations and the side to move go out in numpy arrays the environment owns and rewrites
//! in place at each step, so a training loop makes no Python loop over games and no copies. A
//! game that ends is replaced by a new one in the same step.

use crate::actions::{ACTIONS, OBSERVATION_BYTES, OBSERVATION_PLANES, action_of, move_of};
use crate::numpy;
use crate::position::Position as PyPosition;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use yolah_core::{Color, Outcome, Position};

/// The most games one environment steps: 1,048,576 (its masks alone take 4 GiB).
pub const MAX_GAMES: usize = 1 << 20;
/// The most random plies that open each game.
pub const MAX_RANDOM_PLIES: u32 = 40;

/// How a finished game rewards its players.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rewards {
    /// +1 to the winner, −1 to the loser, 0 each on a draw.
    Wdl,
    /// The final margin in points, each from its own side.
    Margin,
}

/// One game and the generator that opens its successors.
struct Slot {
    position: Position,
    rng: SmallRng,
}

impl Slot {
    /// A new game in place: the start, then `plies` uniformly random plies (fewer if the game
    /// would end).
    fn restart(&mut self, plies: u32) {
        self.position = Position::start();
        for _ in 0..plies {
            let after = {
                let mut next = self.position;
                next.play(self.position.random_move(&mut self.rng));
                next
            };
            if after.game_over() {
                break;
            }
            self.position = after;
        }
    }
}

/// The bytes of one game in each output array.
struct Out<'a> {
    observation: &'a mut [u8],
    mask: &'a mut [u8],
    reward: &'a mut [u8],
    terminated: &'a mut u8,
    to_play: &'a mut u8,
}

/// Many Yolah games stepped together (`docs/python.md`, "Many games at once").
#[pyclass(module = "yolah", name = "VectorEnv")]
pub struct VectorEnv {
    slots: Vec<Slot>,
    random_plies: u32,
    rewards_kind: Rewards,
    /// The buffers under the arrays, and the arrays themselves.
    buffers: [Py<PyByteArray>; 5],
    arrays: [Py<PyAny>; 5],
}

/// Index of each buffer in [`VectorEnv::buffers`].
const OBSERVATIONS: usize = 0;
const MASKS: usize = 1;
const REWARDS: usize = 2;
const TERMINATIONS: usize = 3;
const TO_PLAY: usize = 4;

/// The two players' rewards for a game that ended as `outcome` with these scores.
fn rewards(kind: Rewards, position: &Position, outcome: Outcome) -> [f32; 2] {
    match kind {
        Rewards::Wdl => {
            let black = outcome.half_points(Color::Black) as f32 - 1.0;
            [black, -black]
        }
        Rewards::Margin => {
            let margin =
                f32::from(position.score(Color::Black)) - f32::from(position.score(Color::White));
            [margin, -margin]
        }
    }
}

impl VectorEnv {
    /// Writes every game's observation, mask and side to move (after a reset or a step).
    fn write(slot: &Slot, out: &mut Out<'_>) {
        out.observation.fill(0);
        crate::actions::write_observation(&slot.position, out.observation);
        out.mask.fill(0);
        crate::actions::write_mask(&slot.position, out.mask);
        *out.to_play = u8::from(slot.position.side_to_move() == Color::White);
    }

    /// Runs `work` on each game with its bytes of every array, in parallel.
    /// `work` gets the game's index.
    fn each(&mut self, py: Python<'_>, work: impl Fn(usize, &mut Slot, Out<'_>) + Sync) {
        let [observations, masks, rewards, terminations, to_play] =
            self.buffers.each_ref().map(|b| b.bind(py));
        // SAFETY: the interpreter is held for the whole call, so no Python code runs and
        // nothing else reads or resizes these bytearrays (numpy's views keep them exported,
        // which forbids a resize); each game writes only its own disjoint chunks.
        let (observations, masks, rewards, terminations, to_play) = unsafe {
            (
                observations.as_bytes_mut(),
                masks.as_bytes_mut(),
                rewards.as_bytes_mut(),
                terminations.as_bytes_mut(),
                to_play.as_bytes_mut(),
            )
        };
        self.slots
            .par_iter_mut()
            .enumerate()
            .zip(observations.par_chunks_exact_mut(OBSERVATION_BYTES))
            .zip(masks.par_chunks_exact_mut(ACTIONS))
            .zip(rewards.par_chunks_exact_mut(8))
            .zip(terminations.par_iter_mut())
            .zip(to_play.par_iter_mut())
            .for_each(
                |((((((game, slot), observation), mask), reward), terminated), to_play)| {
                    work(
                        game,
                        slot,
                        Out {
                            observation,
                            mask,
                            reward,
                            terminated,
                            to_play,
                        },
                    );
                },
            );
    }

    /// The five arrays, in the order `step` returns them.
    fn arrays<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyTuple> {
        let [o, m, r, t, _] = self.arrays.each_ref().map(|a| a.bind(py).clone());
        pyo3::types::PyTuple::new(py, [o, m, r, t]).expect("a tuple of four arrays")
    }
}

#[pymethods]
impl VectorEnv {
    /// `n` games (1 to 1,048,576), each opened by `random_plies` uniformly random plies (0 to
    /// 40) drawn from `seed`; `rewards` is `"wdl"` (+1, −1, 0) or `"margin"` (final points
    /// difference). The games start at once: the arrays hold their first observations.
    #[new]
    #[pyo3(signature = (n, random_plies=0, seed=0, rewards="wdl"))]
    fn new(py: Python<'_>, n: i64, random_plies: i64, seed: u64, rewards: &str) -> PyResult<Self> {
        let n = usize::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_GAMES).contains(n))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "n is {n}: a VectorEnv steps 1 to {MAX_GAMES} games"
                ))
            })?;
        let random_plies = u32::try_from(random_plies)
            .ok()
            .filter(|&p| p <= MAX_RANDOM_PLIES)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "random_plies is {random_plies}: 0 to {MAX_RANDOM_PLIES}"
                ))
            })?;
        let rewards_kind = match rewards {
            "wdl" => Rewards::Wdl,
            "margin" => Rewards::Margin,
            other => {
                return Err(PyValueError::new_err(format!(
                    "rewards must be 'wdl' or 'margin', not {other:?}"
                )));
            }
        };
        let shapes: [(usize, &str, Vec<usize>); 5] = [
            (OBSERVATION_BYTES, "<f4", vec![n, OBSERVATION_PLANES, 8, 8]),
            (ACTIONS, "bool", vec![n, ACTIONS]),
            (8, "<f4", vec![n, 2]),
            (1, "bool", vec![n]),
            (1, "u1", vec![n]),
        ];
        let make = |(size, dtype, shape): (usize, &str, Vec<usize>)| -> PyResult<_> {
            let buffer = PyByteArray::new_with(py, n * size, |_| Ok(()))?;
            let array = numpy::view(py, &buffer, dtype, &shape)?;
            Ok((buffer.unbind(), array.unbind()))
        };
        let [observations, masks, rewards, terminations, to_play] = shapes.map(make);
        let arrays = [observations?, masks?, rewards?, terminations?, to_play?];
        let slots = (0..n)
            .map(|i| Slot {
                position: Position::start(),
                rng: SmallRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            })
            .collect();
        let mut env = VectorEnv {
            slots,
            random_plies,
            rewards_kind,
            buffers: arrays.each_ref().map(|(buffer, _)| buffer.clone_ref(py)),
            arrays: arrays.map(|(_, array)| array),
        };
        env.reset(py);
        Ok(env)
    }

    /// Starts every game afresh (their generators go on, so new openings): returns
    /// `(observations, action_masks, rewards, terminations)`, rewards zero and terminations
    /// false.
    fn reset<'py>(&mut self, py: Python<'py>) -> Bound<'py, pyo3::types::PyTuple> {
        let plies = self.random_plies;
        self.each(py, |_, slot, mut out| {
            slot.restart(plies);
            out.reward.fill(0);
            *out.terminated = 0;
            Self::write(slot, &mut out);
        });
        self.arrays(py)
    }

    /// Plays one action in each game (`actions`: `n` integers, each legal in its game; the pass
    /// is 0) and returns `(observations, action_masks, rewards, terminations)`, the same arrays
    /// each time, rewritten in place. A game that ended on this action has its rewards
    /// (`[black, white]`) and `terminations` true, and is already replaced by a new game, whose
    /// observation and mask are the ones returned. An illegal action raises `ValueError`
    /// naming the game, and no game moves.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let numpy = py.import("numpy")?;
        let given = numpy.call_method1("asarray", (actions,)).map_err(|e| {
            PyValueError::new_err(format!("actions must be integers: {}", e.value(py)))
        })?;
        // Integers only: a float or a string is refused, not truncated.
        let kind: String = given.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" {
            let dtype = given.getattr("dtype")?.str()?.to_string();
            return Err(PyValueError::new_err(format!(
                "actions must be integers, not {dtype}"
            )));
        }
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("casting", "safe")?;
        let contiguous = numpy
            .call_method1("ascontiguousarray", (given,))?
            .call_method("astype", ("<i8",), Some(&kwargs))
            .map_err(|_| {
                PyValueError::new_err(
                    "actions must be integers that fit in int64 (0 to 4095 for a move)",
                )
            })?;
        let shape: Vec<usize> = contiguous.getattr("shape")?.extract()?;
        if shape != [self.slots.len()] {
            return Err(PyValueError::new_err(format!(
                "actions has shape {shape:?}: one action for each of the {} games",
                self.slots.len()
            )));
        }
        let bytes: Vec<u8> = contiguous.call_method0("tobytes")?.extract()?;
        let mut moves = Vec::with_capacity(self.slots.len());
        for (game, (bytes, slot)) in bytes.chunks_exact(8).zip(&self.slots).enumerate() {
            let action = i64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            let illegal = |why: String| {
                PyValueError::new_err(format!("game {game}: action {action} {why}; no game moved"))
            };
            let m =
                move_of(action).map_err(|e| illegal(format!("is not a move ({})", e.value(py))))?;
            if !slot.position.moves().contains(&m) {
                return Err(illegal(format!("({m}) is not legal there")));
            }
            debug_assert_eq!(action_of(m), action as usize);
            moves.push(m);
        }
        let (plies, kind) = (self.random_plies, self.rewards_kind);
        let moves = &moves;
        self.each(py, |game, slot, mut out| {
            slot.position.play(moves[game]);
            let outcome = slot.position.outcome();
            let [black, white] =
                outcome.map_or([0.0, 0.0], |outcome| rewards(kind, &slot.position, outcome));
            *out.terminated = u8::from(outcome.is_some());
            if outcome.is_some() {
                slot.restart(plies);
            }
            out.reward[..4].copy_from_slice(&black.to_le_bytes());
            out.reward[4..].copy_from_slice(&white.to_le_bytes());
            Self::write(slot, &mut out);
        });
        Ok(self.arrays(py))
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// The observations: `float32`, `(n, 7, 8, 8)`, as `Position.observation()`.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.arrays[OBSERVATIONS].bind(py).clone()
    }

    /// The legal-action masks: `bool`, `(n, 4096)`, as `Position.legal_action_mask()`.
    #[getter]
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.arrays[MASKS].bind(py).clone()
    }

    /// The last step's rewards: `float32`, `(n, 2)`, black's then white's.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.arrays[REWARDS].bind(py).clone()
    }

    /// Which games ended on the last step: `bool`, `(n,)`.
    #[getter]
    fn terminations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.arrays[TERMINATIONS].bind(py).clone()
    }

    /// The side to move in each game: `uint8`, `(n,)`, 0 for black, 1 for white.
    #[getter]
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.arrays[TO_PLAY].bind(py).clone()
    }

    /// The games' positions now, as `Position`s (copies).
    fn positions(&self) -> Vec<PyPosition> {
        self.slots
            .iter()
            .map(|slot| PyPosition::of(slot.position))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({} games, random_plies={})",
            self.slots.len(),
            self.random_plies
        )
    }
}

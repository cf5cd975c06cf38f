//! `yolah.puct`: the `alphazero` player's PUCT search driven by a network in Python (`PyTorch`,
//! JAX, numpy): the search calls `evaluate(observations, masks)` once per batch of leaves and
//! reads back policy logits and values, so the interpreter is crossed once a batch, not once a
//! position.

use crate::actions::{ACTIONS, OBSERVATION_BYTES, OBSERVATION_PLANES, action_of};
use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_ai::players::alphazero::network::{Evaluation, softmax};
use yolah_ai::players::alphazero::search::{Evaluator, Search, Settings};
use yolah_core::{MoveList, Position};

/// The most visits one call makes.
const MAX_VISITS: u64 = 10_000_000;
/// The most leaves in one batch.
const MAX_BATCH: usize = 4096;

/// Calls a Python function on batches of positions; the first error it raises is kept and
/// ends the search.
struct PythonEvaluator<'py> {
    py: Python<'py>,
    evaluate: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl PythonEvaluator<'_> {
    /// The callable's answer for `positions` (whose legal moves are `moves`): one logit per
    /// action and one value a position.
    fn call(&self, positions: &[Position], moves: &[MoveList]) -> PyResult<(Vec<f32>, Vec<f32>)> {
        let n = positions.len();
        let observations = crate::numpy::array_with(
            self.py,
            n * OBSERVATION_BYTES,
            "<f4",
            &[n, OBSERVATION_PLANES, 8, 8],
            |bytes| {
                for (p, out) in positions
                    .iter()
                    .zip(bytes.chunks_exact_mut(OBSERVATION_BYTES))
                {
                    crate::actions::write_observation(p, out);
                }
            },
        )?;
        let masks =
            crate::numpy::array_with(self.py, n * ACTIONS, "bool", &[n, ACTIONS], |bytes| {
                for (p, out) in positions.iter().zip(bytes.chunks_exact_mut(ACTIONS)) {
                    crate::actions::write_mask(p, out);
                }
            })?;
        let answer = self.evaluate.call1((observations, masks))?;
        let (logits, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            answer.extract().map_err(|_| {
                PyValueError::new_err(
                    "evaluate must return (logits, values): arrays of shape (n, 4096) and (n,)",
                )
            })?;
        // Illegal actions' logits are ignored (−inf is how a network masks them).
        let logits = floats(&logits, &[n, ACTIONS], "logits", false)?;
        let values = floats(&values, &[n], "values", true)?;
        for (k, legal) in moves.iter().enumerate() {
            for &m in legal {
                let logit = logits[k * ACTIONS + action_of(m)];
                if !logit.is_finite() {
                    return Err(PyValueError::new_err(format!(
                        "logits[{k}, {}] is {logit}, for a legal move ({m}): it must be finite",
                        action_of(m)
                    )));
                }
            }
        }
        if let Some(bad) = values.iter().position(|v| !(-1.0..=1.0).contains(v)) {
            return Err(PyValueError::new_err(format!(
                "values[{bad}] is {}: a value is the side to move's expected result, -1 to 1",
                values[bad]
            )));
        }
        Ok((logits, values))
    }
}

/// The float32 contents of a numpy-convertible array of exactly `shape`, every number finite
/// if `finite`.
fn floats(
    array: &Bound<'_, PyAny>,
    shape: &[usize],
    name: &str,
    finite: bool,
) -> PyResult<Vec<f32>> {
    let numpy = array.py().import("numpy")?;
    let contiguous = numpy
        .call_method1("ascontiguousarray", (array, "<f4"))
        .map_err(|e| PyValueError::new_err(format!("{name}: {}", e.value(array.py()))))?;
    let got: Vec<usize> = contiguous.getattr("shape")?.extract()?;
    if got != shape {
        return Err(PyValueError::new_err(format!(
            "{name} has shape {got:?}, not {shape:?}"
        )));
    }
    let bytes: Vec<u8> = contiguous.call_method0("tobytes")?.extract()?;
    let values: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    if let Some(bad) = values.iter().position(|v| finite && !v.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{name} holds {} at flat index {bad}: every number must be finite",
            values[bad]
        )));
    }
    Ok(values)
}

impl Evaluator for PythonEvaluator<'_> {
    fn evaluate(&mut self, positions: &[Position], moves: &[MoveList], out: &mut Vec<Evaluation>) {
        out.clear();
        let answer = if self.error.is_some() {
            None
        } else {
            match self.call(positions, moves) {
                Ok(answer) => Some(answer),
                Err(error) => {
                    self.error = Some(error);
                    None
                }
            }
        };
        for (k, moves) in moves.iter().enumerate() {
            out.push(match &answer {
                Some((logits, values)) => {
                    let row = &logits[k * ACTIONS..][..ACTIONS];
                    let legal: Vec<f32> = moves.iter().map(|&m| row[action_of(m)]).collect();
                    Evaluation {
                        priors: softmax(&legal),
                        value: values[k],
                    }
                }
                // After an error the search is stopped; these only keep the tree whole.
                None => Evaluation {
                    priors: vec![1.0 / moves.len() as f32; moves.len()],
                    value: 0.0,
                },
            });
        }
    }
}

/// PUCT search from `position` with `visits` visits (1 to 10⁷), the leaves evaluated by
/// `evaluate(observations, masks)` in batches of up to `batch` (1 to 4096): it gets float32
/// observations `(n, 7, 8, 8)` and bool masks `(n, 4096)` and returns `(logits, values)`,
/// `(n, 4096)` policy logits (illegal actions ignored) and `(n,)` values, the side to move's
/// expected result from −1 to 1. Returns a dict: the most visited `move`, its `value` (mean, −1
/// to 1), `visits` (a dict of move to visits) and `policy` (float32 `(4096,)`, the visit
/// shares: `AlphaZero`'s training target) and `full`, true when the tree (256 MiB) filled
/// before the visits were made (the search stops there). `noise` mixes Dirichlet noise (α 0.3) into the root's
/// priors, with `seed`. An exception raised by `evaluate` ends the search and is raised again.
#[pyfunction]
#[pyo3(signature = (position, evaluate, visits=800, c=1.5, batch=16, noise=0.0, seed=1))]
#[allow(clippy::too_many_arguments)]
pub fn puct<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    evaluate: Bound<'py, PyAny>,
    visits: u64,
    c: f64,
    batch: usize,
    noise: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let position = position_arg(position)?;
    if position.game_over() {
        return Err(PyValueError::new_err(
            "the game is over: there is no move to search",
        ));
    }
    if !(1..=MAX_VISITS).contains(&visits) {
        return Err(PyValueError::new_err(format!(
            "visits is {visits}: 1 to {MAX_VISITS}"
        )));
    }
    if !(1..=MAX_BATCH).contains(&batch) {
        return Err(PyValueError::new_err(format!(
            "batch is {batch}: 1 to {MAX_BATCH}"
        )));
    }
    if !((0.0..=100.0).contains(&c) && (0.0..=1.0).contains(&noise)) {
        return Err(PyValueError::new_err(format!(
            "c is {c} and noise {noise}: c from 0 to 100, noise from 0 to 1"
        )));
    }
    if !evaluate.is_callable() {
        return Err(PyValueError::new_err(
            "evaluate must be callable: evaluate(observations, masks) -> (logits, values)",
        ));
    }
    let mut search = Search::new(Settings {
        c: c as f32,
        batch,
        noise: noise as f32,
        ..Settings::default()
    });
    let mut evaluator = PythonEvaluator {
        py,
        evaluate,
        error: None,
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    // The evaluator stops the search through its error: checked between batches.
    let failed = std::cell::Cell::new(false);
    let result = {
        let evaluator_ref = &mut evaluator;
        let mut checked = Watched {
            inner: evaluator_ref,
            failed: &failed,
        };
        search.run(&position, &mut checked, &mut rng, visits, &mut || {
            failed.get()
        })
    };
    if let Some(error) = evaluator.error {
        return Err(error);
    }
    let (mv, _, value) = result.best();
    let dict = PyDict::new(py);
    dict.set_item("move", mv.to_string())?;
    dict.set_item("value", value)?;
    let counts = PyDict::new(py);
    let total = result.visits.max(1) as f32;
    let mut policy = vec![0u8; ACTIONS * 4];
    for &(m, n, _) in &result.children {
        counts.set_item(m.to_string(), n)?;
        let share = n as f32 / total;
        policy[4 * action_of(m)..][..4].copy_from_slice(&share.to_le_bytes());
    }
    dict.set_item("visits", counts)?;
    // A search whose tree filled (256 MiB) stops short of its visits.
    dict.set_item("full", result.visits < visits_asked(visits))?;
    dict.set_item(
        "policy",
        crate::numpy::array(py, &policy, "<f4", &[ACTIONS])?,
    )?;
    Ok(dict)
}

/// The root visits a search of `visits` aims at.
fn visits_asked(visits: u64) -> u32 {
    u32::try_from(visits).unwrap_or(u32::MAX)
}

/// Passes evaluations through, raising `failed` once the evaluator has an error.
struct Watched<'a, 'py> {
    inner: &'a mut PythonEvaluator<'py>,
    failed: &'a std::cell::Cell<bool>,
}

impl Evaluator for Watched<'_, '_> {
    fn evaluate(&mut self, positions: &[Position], moves: &[MoveList], out: &mut Vec<Evaluation>) {
        self.inner.evaluate(positions, moves, out);
        self.failed.set(self.inner.error.is_some());
    }
}

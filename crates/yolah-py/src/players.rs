//! `yolah.think` and `yolah.Player`: the players of yolah-ai from a spec string, searching with
//! the interpreter released.

use crate::position::position_arg;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::{Mutex, MutexGuard, TryLockError};
use yolah_ai::{Agent, Report, Spec};
use yolah_core::Position;

/// The seed of a player whose spec and call set none, as on the command line.
const DEFAULT_SEED: u64 = 1;

fn agent(spec: &str, seed: Option<u64>) -> PyResult<Agent> {
    let spec: Spec = spec
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    Ok(spec.agent(seed.unwrap_or(DEFAULT_SEED)))
}

/// The report as a dict, with the keys and values of `yolah think --json`.
fn report_dict<'py>(py: Python<'py>, spec: &Spec, report: &Report) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("player", spec.to_string())?;
    dict.set_item("move", report.mv.to_string())?;
    dict.set_item("value", report.value)?;
    dict.set_item("margin", report.margin.map(|m| m.points))?;
    dict.set_item("proved", report.margin.map(|m| m.proved))?;
    dict.set_item("depth", report.depth)?;
    dict.set_item("iterations", report.iterations)?;
    dict.set_item("nodes", report.nodes)?;
    dict.set_item("time_ms", report.time.as_secs_f64() * 1e3)?;
    let pv: Vec<String> = report.pv.iter().map(ToString::to_string).collect();
    dict.set_item("pv", pv)?;
    let lines = PyList::empty(py);
    for line in &report.lines {
        let entry = PyDict::new(py);
        entry.set_item("margin", line.margin.points)?;
        entry.set_item("proved", line.margin.proved)?;
        entry.set_item("value", line.value)?;
        let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
        entry.set_item("pv", pv)?;
        lines.append(entry)?;
    }
    dict.set_item("lines", lines)?;
    dict.set_item("book", report.book)?;
    dict.set_item("detail", &report.detail)?;
    Ok(dict)
}

/// Lets `agent` choose in `position` with the interpreter released.
fn choose<'py>(
    py: Python<'py>,
    agent: &mut Agent,
    position: Position,
) -> PyResult<Bound<'py, PyDict>> {
    if position.game_over() {
        return Err(PyValueError::new_err(
            "the game is over: there is no move to choose",
        ));
    }
    let report = py
        .detach(|| agent.try_choose(&position))
        .map_err(|forfeit| {
            PyRuntimeError::new_err(format!("{} cannot move: {forfeit}", agent.spec()))
        })?;
    report_dict(py, agent.spec(), &report)
}

/// Lets the player `spec` (as on the command line: `"mcts:iterations=20000"`) choose a move in
/// `position` (a `Position` or notation; the start by default) and returns its report.
#[pyfunction]
#[pyo3(signature = (spec, position=None, seed=None))]
pub fn think<'py>(
    py: Python<'py>,
    spec: &str,
    position: Option<&Bound<'py, PyAny>>,
    seed: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let position = match position {
        Some(position) => position_arg(position)?,
        None => Position::start(),
    };
    choose(py, &mut agent(spec, seed)?, position)
}

/// A player kept across the moves of a game, so that it reuses what it learnt (MCTS's tree,
/// minimax's table); one game at a time, in one thread at a time.
#[pyclass(module = "yolah", name = "Player", frozen)]
pub struct Player {
    agent: Mutex<Agent>,
}

impl Player {
    /// The agent, unless another thread is using it (then what to do instead).
    fn agent(&self) -> PyResult<MutexGuard<'_, Agent>> {
        self.agent.try_lock().map_err(|error| match error {
            TryLockError::WouldBlock => PyRuntimeError::new_err(
                "this Player is thinking in another thread; a Player plays one game at a time: \
                 give each thread its own yolah.Player(spec)",
            ),
            TryLockError::Poisoned(_) => {
                PyRuntimeError::new_err("this player crashed in an earlier move")
            }
        })
    }
}

#[pymethods]
impl Player {
    /// The player `spec`, as on the command line; its seed is the spec's, or `seed`, or 1.
    #[new]
    #[pyo3(signature = (spec, seed=None))]
    fn new(spec: &str, seed: Option<u64>) -> PyResult<Player> {
        Ok(Player {
            agent: Mutex::new(agent(spec, seed)?),
        })
    }

    /// Chooses a move in `position` (a `Position` or notation) and returns the report, as
    /// `yolah.think` does.
    fn think<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let position = position_arg(position)?;
        choose(py, &mut *self.agent()?, position)
    }

    /// The spec, with every option it sets.
    #[getter]
    fn spec(&self) -> PyResult<String> {
        Ok(self.agent()?.spec().to_string())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Player({:?})", self.spec()?))
    }
}

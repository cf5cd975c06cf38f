//! The engine's counts: `yolah.perft` and `yolah.random_games`, run with the interpreter
//! released.

use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use yolah_ai::arena::tournament::game_pool;
use yolah_core::perft::MAX_DEPTH;
use yolah_core::random_games::MAX_GAMES;

/// The leaves of the game tree `depth` plies below `position` (a `Position` or notation), as
/// `yolah perft` counts them.
#[pyfunction]
pub fn perft(py: Python<'_>, position: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "depth {depth} is too deep (at most {MAX_DEPTH})"
        )));
    }
    let mut position = position_arg(position)?;
    Ok(py.detach(|| yolah_core::perft(&mut position, depth)))
}

/// Plays `n` uniformly random games from the start on `threads` threads (one per core by
/// default) and counts their results: a dict with `games`, `black_wins`, `white_wins` and
/// `draws`, the same for a seed whatever the threads, as `yolah random-games` prints them.
#[pyfunction]
#[pyo3(signature = (n, seed=1, threads=None))]
pub fn random_games(
    py: Python<'_>,
    n: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'_, PyDict>> {
    if !(1..=MAX_GAMES).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "n must be from 1 to {MAX_GAMES}, not {n}"
        )));
    }
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let pool =
        game_pool(threads).map_err(|e| PyValueError::new_err(e.replace("--threads", "threads")))?;
    let tally =
        py.detach(|| pool.install(|| yolah_core::random_games::random_games(n, seed, &|_| {})));
    let dict = PyDict::new(py);
    dict.set_item("games", tally.games())?;
    dict.set_item("black_wins", tally.black_wins)?;
    dict.set_item("white_wins", tally.white_wins)?;
    dict.set_item("draws", tally.draws)?;
    Ok(dict)
}

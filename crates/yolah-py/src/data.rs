//! `yolah.read_data`: a self-play data file (`docs/data-format.md`) as one numpy structured
//! array, checked by yolah-ai's reader.

use crate::numpy;
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use std::ffi::CString;
use std::path::PathBuf;
use yolah_ai::data::{self, RECORD_SIZE};

/// The records of the data file at `path`, one per position, as an array of
/// `yolah.RECORD_DTYPE` (the file's 32-byte records, field for field). Damage raises
/// `ValueError` with the byte offset; a last block cut short (a killed run) is left out with a
/// warning, as `yolah data stats` does.
#[pyfunction]
#[allow(
    clippy::needless_pass_by_value,
    reason = "pyo3 hands arguments over owned"
)]
pub fn read_data(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyAny>> {
    // A missing file is `FileNotFoundError` naming it, as for a network.
    std::fs::metadata(&path).map_err(|e| crate::network::read_error(&path, &e))?;
    let file = py
        .detach(|| data::read_file(&path))
        .map_err(PyValueError::new_err)?;
    if let Some(damage) = &file.damaged {
        let message = format!(
            "{}: {damage}; the records before it are read",
            path.display()
        );
        let message = CString::new(message).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
    }
    let mut bytes = Vec::with_capacity(file.samples.len() * RECORD_SIZE);
    for sample in &file.samples {
        bytes.extend_from_slice(&sample.to_bytes());
    }
    numpy::array(py, &bytes, numpy::record_dtype(py)?, &[file.samples.len()])
}

/// The most games one `selfplay` call plays (its records are held in memory).
const MAX_GAMES: u64 = 100_000;

/// Self-play without files: `games` games of `spec` against itself (both sides), each from
/// `random_plies` random plies, on `threads` threads (one per core by default), as
/// `yolah selfplay` plays them (the same records for the same arguments with a node- or
/// iteration-limited spec), returned as an array of `yolah.RECORD_DTYPE`, game by game.
#[pyfunction]
#[pyo3(signature = (spec, games, random_plies=4, seed=1, threads=None))]
pub fn selfplay<'py>(
    py: Python<'py>,
    spec: &str,
    games: u64,
    random_plies: u32,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(PyValueError::new_err(format!(
            "games must be from 1 to {MAX_GAMES}, not {games}"
        )));
    }
    let config = yolah_train::selfplay::Config {
        spec: spec.to_string(),
        games,
        random_plies,
        seed,
        shard: None,
        exact: None,
    };
    let spec = config.check().map_err(PyValueError::new_err)?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = threads.unwrap_or(cores);
    if !(1..=1024).contains(&threads) {
        return Err(PyValueError::new_err(format!(
            "threads must be from 1 to 1024, not {threads}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let bytes = py.detach(|| {
        let mut bytes = Vec::new();
        let done: Result<(), std::convert::Infallible> =
            yolah_train::selfplay::run(&config, &spec, 0, &pool, |_, samples| {
                for sample in &samples {
                    bytes.extend_from_slice(&sample.to_bytes());
                }
                Ok(())
            });
        let _ = done;
        bytes
    });
    let n = bytes.len() / RECORD_SIZE;
    numpy::array(py, &bytes, numpy::record_dtype(py)?, &[n])
}

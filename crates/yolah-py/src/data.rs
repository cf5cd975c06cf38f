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
    std::fs::metadata(&path)?;
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

//! Work on many positions in one call (`yolah.planes_batch`, `legal_action_masks`,
//! `observations`), so that a training loop crosses from Python into Rust once, not once a
//! position. Each array is written in place, not copied.

use crate::numpy;
use crate::planes::{PLANE_BYTES, PLANES, write};
use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The planes of many positions (an iterable of `Position`s or notations): a `uint8` array of
/// shape `(n, 3, 8, 8)`, in order.
#[pyfunction]
pub fn planes_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = self::positions(py, positions)?;
    numpy::array_with(
        py,
        all.len() * PLANE_BYTES,
        "uint8",
        &[all.len(), PLANES, 8, 8],
        |bytes| {
            for (position, out) in all.iter().zip(bytes.chunks_exact_mut(PLANE_BYTES)) {
                write(position, out);
            }
        },
    )
}

/// The positions of an iterable of `Position`s or notations.
fn positions(py: Python<'_>, items: &Bound<'_, PyAny>) -> PyResult<Vec<yolah_core::Position>> {
    let mut all = Vec::new();
    for (n, item) in items.try_iter()?.enumerate() {
        all.push(
            position_arg(&item?)
                .map_err(|e| PyValueError::new_err(format!("position {n}: {}", e.value(py))))?,
        );
    }
    Ok(all)
}

/// The legal-action masks of many positions: a `bool` array of shape `(n, 4096)`.
#[pyfunction]
pub fn legal_action_masks<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = self::positions(py, positions)?;
    numpy::array_with(
        py,
        all.len() * crate::actions::ACTIONS,
        "bool",
        &[all.len(), crate::actions::ACTIONS],
        |bytes| {
            for (position, out) in all
                .iter()
                .zip(bytes.chunks_exact_mut(crate::actions::ACTIONS))
            {
                crate::actions::write_mask(position, out);
            }
        },
    )
}

/// The observations of many positions: a `float32` array of shape `(n, 7, 8, 8)`.
#[pyfunction]
pub fn observations<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = self::positions(py, positions)?;
    let shape = [all.len(), crate::actions::OBSERVATION_PLANES, 8, 8];
    numpy::array_with(
        py,
        all.len() * crate::actions::OBSERVATION_BYTES,
        "<f4",
        &shape,
        |bytes| {
            for (position, out) in all
                .iter()
                .zip(bytes.chunks_exact_mut(crate::actions::OBSERVATION_BYTES))
            {
                crate::actions::write_observation(position, out);
            }
        },
    )
}

//! Work on many positions in one call (`yolah.planes_batch`, `legal_action_masks`,
//! `observations`), so that a training loop crosses from Python into Rust once, not once a
//! position. Each array is written in place, not copied.

use crate::numpy;
use crate::planes::{PLANE_BYTES, PLANES, write};
use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// One array for many positions (an iterable of `Position`s or notations): `size` bytes a
/// position, each written by `write` in place, of `dtype`, shaped `(n, *shape)`.
fn batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    size: usize,
    dtype: &str,
    shape: &[usize],
    write: fn(&yolah_core::Position, &mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let mut all = Vec::new();
    for (n, item) in positions.try_iter()?.enumerate() {
        all.push(
            position_arg(&item?)
                .map_err(|e| PyValueError::new_err(format!("position {n}: {}", e.value(py))))?,
        );
    }
    let full: Vec<usize> = std::iter::once(all.len())
        .chain(shape.iter().copied())
        .collect();
    numpy::array_with(py, all.len() * size, dtype, &full, |bytes| {
        for (position, out) in all.iter().zip(bytes.chunks_exact_mut(size)) {
            write(position, out);
        }
    })
}

/// The planes of many positions (an iterable of `Position`s or notations): a `uint8` array of
/// shape `(n, 3, 8, 8)`, in order.
#[pyfunction]
pub fn planes_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    batch(py, positions, PLANE_BYTES, "uint8", &[PLANES, 8, 8], write)
}

/// The legal-action masks of many positions: a `bool` array of shape `(n, 4096)`.
#[pyfunction]
pub fn legal_action_masks<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let actions = crate::actions::ACTIONS;
    batch(
        py,
        positions,
        actions,
        "bool",
        &[actions],
        crate::actions::write_mask,
    )
}

/// The observations of many positions: a `float32` array of shape `(n, 7, 8, 8)`.
#[pyfunction]
pub fn observations<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = [crate::actions::OBSERVATION_PLANES, 8, 8];
    let size = crate::actions::OBSERVATION_BYTES;
    batch(
        py,
        positions,
        size,
        "<f4",
        &shape,
        crate::actions::write_observation,
    )
}

//! Work on many positions in one call (`yolah.planes_batch`), so that a training loop crosses
//! from Python into Rust once, not once a position.

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
    let mut bytes = Vec::new();
    let mut n = 0;
    for item in positions.try_iter()? {
        let position = position_arg(&item?)
            .map_err(|e| PyValueError::new_err(format!("position {n}: {}", e.value(py))))?;
        bytes.resize(bytes.len() + PLANE_BYTES, 0);
        write(&position, &mut bytes[n * PLANE_BYTES..]);
        n += 1;
    }
    numpy::array(py, &bytes, "uint8", &[n, PLANES, 8, 8])
}

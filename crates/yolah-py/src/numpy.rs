//! Arrays handed to Python as numpy makes them, from bytes built here: the module needs no
//! compiled numpy interface, only numpy installed (a dependency of the package).

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

/// A writable numpy array of `dtype` and `shape` over a copy of `bytes` (whose length must be
/// the shape's size times the dtype's).
pub fn array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: impl IntoPyObject<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let buffer = PyByteArray::new(py, bytes);
    numpy
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// A writable numpy array of `dtype` and `shape` over `len` bytes that `fill` writes in
/// place (they start zeroed): no copy, for large batches.
pub fn array_with<'py>(
    py: Python<'py>,
    len: usize,
    dtype: impl IntoPyObject<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let buffer = PyByteArray::new_with(py, len, |bytes| {
        fill(bytes);
        Ok(())
    })?;
    numpy
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// The numpy dtype of a training-data record (`docs/data-format.md`): 32 bytes, little-endian,
/// field for field.
pub fn record_dtype(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let fields = [
        ("black", "<u8"),
        ("white", "<u8"),
        ("holes", "<u8"),
        ("black_points", "u1"),
        ("white_points", "u1"),
        ("ply", "u1"),
        ("exact", "u1"),
        ("result", "i1"),
        ("margin", "i1"),
        ("score", "<i2"),
    ];
    py.import("numpy")?
        .call_method1("dtype", (fields.to_vec(),))
}

/// A numpy array of `dtype` and `shape` over `buffer` itself (no copy): what Rust writes into
/// the buffer, Python sees in the array.
pub fn view<'py>(
    py: Python<'py>,
    buffer: &Bound<'py, PyByteArray>,
    dtype: impl IntoPyObject<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

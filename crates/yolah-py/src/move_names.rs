//! Moves as Python strings, made once: a list of legal moves costs a reference per move, not a
//! string built and formatted each time (`Position.moves` is the call a Python search makes
//! most).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};
use yolah_core::{Move, Square};

/// Every move's string, indexed by [`Move::raw`].
static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

/// Where a square's name sorts among the names: by file letter, then rank digit.
fn name_order(square: Square) -> u16 {
    let index = square.index() as u16;
    (index % 8) * 8 + index / 8
}

/// Where a move's string sorts among move strings (`"a1:a2"` < `"a1:b1"` < `"b1:a1"`).
fn string_order(m: Move) -> u16 {
    name_order(m.from()) << 6 | name_order(m.to())
}

/// `moves` as a list of strings, sorted as strings.
pub fn sorted_list<'py>(py: Python<'py>, moves: &mut [Move]) -> PyResult<Bound<'py, PyList>> {
    let names = NAMES.get_or_init(py, || {
        (0..1 << 12)
            .map(|raw| PyString::new(py, &Move::from_raw(raw).to_string()).unbind())
            .collect()
    });
    moves.sort_unstable_by_key(|&m| string_order(m));
    PyList::new(py, moves.iter().map(|m| names[m.raw() as usize].bind(py)))
}

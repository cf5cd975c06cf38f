//! `yolah.Explorer`: an opening explorer's database (`yolah explorer build`,
//! `docs/explorer-format.md`), read once and checked by yolah-ai's reader, asked position by
//! position.

use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;

/// A database read whole; `moves(position)` lists the moves played from a position.
#[pyclass(module = "yolah", name = "Explorer", frozen)]
pub struct Explorer {
    inner: yolah_ai::explorer::Explorer,
}

#[pymethods]
impl Explorer {
    /// Reads and checks the database at `path`: `FileNotFoundError` if there is none,
    /// `ValueError` if it is not one or is damaged.
    #[new]
    #[allow(
        clippy::needless_pass_by_value,
        reason = "pyo3 hands arguments over owned"
    )]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Explorer> {
        std::fs::metadata(&path).map_err(|e| crate::network::read_error(&path, &e))?;
        let inner = py
            .detach(|| yolah_ai::explorer::Explorer::open(&path))
            .map_err(PyValueError::new_err)?;
        Ok(Explorer { inner })
    }

    /// The games the database was built from.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games()
    }

    /// Its (position, move) entries.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The moves played from `position` (a `Position` or notation), the most played first:
    /// each a dict of `move`, `games`, `black`, `draws`, `white` (the games black won, drawn,
    /// white won), `score` (the side to move's share of the points, a draw half) and `book`
    /// (whether it is the opening book's move).
    fn moves<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let position = position_arg(position)?;
        let list = PyList::empty(py);
        for m in self.inner.answer(&position).moves {
            let entry = PyDict::new(py);
            entry.set_item("move", m.mv)?;
            entry.set_item("games", m.games)?;
            entry.set_item("black", m.black)?;
            entry.set_item("draws", m.draws)?;
            entry.set_item("white", m.white)?;
            entry.set_item("score", m.score)?;
            entry.set_item("book", m.book)?;
            list.append(entry)?;
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        format!(
            "<yolah.Explorer: {} entries from {} games>",
            self.inner.len(),
            self.inner.games()
        )
    }
}

//! Positions as planes for a network: the encoding, and one position's as an array
//! (`Position.planes`); many positions at once are in [`crate::batch`].

use crate::numpy;
use pyo3::prelude::*;
use yolah_core::{Color, Position};

/// Planes of one position: black's pieces, white's pieces, the holes.
pub const PLANES: usize = 3;
/// Bytes of one position's planes: `planes[c][rank][file]`, rank 1 first.
pub const PLANE_BYTES: usize = PLANES * 64;

/// Writes the planes of `position` into `out` ([`PLANE_BYTES`] bytes): 1 where the plane's
/// thing stands (a square's bit `8 × rank + file` of its bitboard), 0 elsewhere.
pub fn write(position: &Position, out: &mut [u8]) {
    let boards = [
        position.pieces(Color::Black),
        position.pieces(Color::White),
        position.holes(),
    ];
    for (plane, board) in out.chunks_exact_mut(64).zip(boards) {
        for (square, cell) in plane.iter_mut().enumerate() {
            *cell = u8::from(board.0 >> square & 1 == 1);
        }
    }
}

/// The planes of one position: a `uint8` array of shape `(3, 8, 8)`.
pub fn one<'py>(py: Python<'py>, position: &Position) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = [0; PLANE_BYTES];
    write(position, &mut bytes);
    numpy::array(py, &bytes, "uint8", &[PLANES, 8, 8])
}

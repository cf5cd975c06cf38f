//! Moves as integers for policy networks and frameworks (OpenSpiel, PettingZoo): a fixed
//! action space of 4096 actions, `from × 64 + to` (squares numbered `8 × rank + file`, a1 = 0),
//! the pass being `a1:a1`, action 0; legal-action masks; and the observation tensor. Many
//! positions at once in one call, so a training loop crosses into Rust once.

use crate::numpy;
use crate::position::position_arg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use yolah_core::{Color, Move, Square};

/// The number of actions: every (from, to) pair of squares.
pub const ACTIONS: usize = 64 * 64;
/// The planes of an observation: black's pieces, white's pieces, holes, free squares, the
/// side to move (all ones when black is to move), black's and white's points / 64.
pub const OBSERVATION_PLANES: usize = 7;

/// The action of a move: `from × 64 + to` (the pass, `a1:a1`, is 0).
pub fn action_of(m: Move) -> usize {
    m.from().index() * 64 + m.to().index()
}

/// The move of an action, or `ValueError` outside `0..4096` or for a from = to other than the
/// pass.
pub fn move_of(action: i64) -> PyResult<Move> {
    let bad = || {
        PyValueError::new_err(format!(
            "action {action} is not a move: actions are from × 64 + to, 0 to 4095, with \
             from ≠ to except the pass, 0"
        ))
    };
    let action = usize::try_from(action)
        .ok()
        .filter(|&a| a < ACTIONS)
        .ok_or_else(bad)?;
    let square = |i: usize| Square::new(i as u8).ok_or_else(bad);
    let (from, to) = (square(action / 64)?, square(action % 64)?);
    if from == to && action != 0 {
        return Err(bad());
    }
    Ok(Move::new(from, to))
}

/// The legal actions of `position`, ascending: `[0]` (the pass) for a side with no move, none
/// once the game is over.
pub fn legal(position: &yolah_core::Position) -> Vec<usize> {
    if position.game_over() {
        return Vec::new();
    }
    let mut actions: Vec<usize> = position.moves().iter().map(|&m| action_of(m)).collect();
    actions.sort_unstable();
    actions
}

/// Writes the legal-action mask of `position` into `out` ([`ACTIONS`] bytes, 1 for legal).
pub fn write_mask(position: &yolah_core::Position, out: &mut [u8]) {
    out.fill(0);
    for action in legal(position) {
        out[action] = 1;
    }
}

/// Writes the observation of `position` into `out` ([`OBSERVATION_PLANES`] × 64 floats,
/// `[plane][rank][file]`, rank 1 first).
pub fn write_observation(position: &yolah_core::Position, out: &mut [f32]) {
    let black = position.pieces(Color::Black);
    let white = position.pieces(Color::White);
    let holes = position.holes();
    let free = !(black.0 | white.0 | holes.0);
    let boards = [black.0, white.0, holes.0, free];
    for (plane, board) in out.chunks_exact_mut(64).zip(boards) {
        for (square, cell) in plane.iter_mut().enumerate() {
            *cell = f32::from(u8::from(board >> square & 1 == 1));
        }
    }
    let constant = [
        f32::from(u8::from(position.side_to_move() == Color::Black)),
        f32::from(position.score(Color::Black)) / 64.0,
        f32::from(position.score(Color::White)) / 64.0,
    ];
    for (plane, value) in out[4 * 64..].chunks_exact_mut(64).zip(constant) {
        plane.fill(value);
    }
}

fn floats_to_bytes(floats: &[f32]) -> Vec<u8> {
    floats.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The observation of one position: a `float32` array of shape `(7, 8, 8)`.
pub fn observation<'py>(
    py: Python<'py>,
    position: &yolah_core::Position,
) -> PyResult<Bound<'py, PyAny>> {
    let mut floats = [0.0; OBSERVATION_PLANES * 64];
    write_observation(position, &mut floats);
    numpy::array(
        py,
        &floats_to_bytes(&floats),
        "<f4",
        &[OBSERVATION_PLANES, 8, 8],
    )
}

/// The legal-action mask of one position: a `bool` array of 4096.
pub fn mask<'py>(py: Python<'py>, position: &yolah_core::Position) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = vec![0; ACTIONS];
    write_mask(position, &mut bytes);
    numpy::array(py, &bytes, "bool", &[ACTIONS])
}

/// The action of a move (`"e4:g2"`; `"a1:a1"`, the pass, is 0): `from × 64 + to`.
#[pyfunction]
pub fn move_to_action(r#move: &str) -> PyResult<usize> {
    let m: Move = r#move
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    Ok(action_of(m))
}

/// The move of an action, in notation: `action_to_move(0) == "a1:a1"`.
#[pyfunction]
pub fn action_to_move(action: i64) -> PyResult<String> {
    Ok(move_of(action)?.to_string())
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
    let mut bytes = vec![0; all.len() * ACTIONS];
    for (position, out) in all.iter().zip(bytes.chunks_exact_mut(ACTIONS)) {
        write_mask(position, out);
    }
    numpy::array(py, &bytes, "bool", &[all.len(), ACTIONS])
}

/// The observations of many positions: a `float32` array of shape `(n, 7, 8, 8)`.
#[pyfunction]
pub fn observations<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = self::positions(py, positions)?;
    let size = OBSERVATION_PLANES * 64;
    let mut floats = vec![0.0; all.len() * size];
    for (position, out) in all.iter().zip(floats.chunks_exact_mut(size)) {
        write_observation(position, out);
    }
    numpy::array(
        py,
        &floats_to_bytes(&floats),
        "<f4",
        &[all.len(), OBSERVATION_PLANES, 8, 8],
    )
}

//! Moves as integers for policy networks and frameworks (`OpenSpiel`, `PettingZoo`): a fixed
//! action space of 4096 actions, `from × 64 + to` (squares numbered `8 × rank + file`, a1 = 0),
//! the pass being `a1:a1`, action 0; legal-action masks; and the observation tensor (many
//! positions at once: [`crate::batch`]).

use crate::numpy;
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

/// Writes the legal-action mask of `position` into `out` ([`ACTIONS`] zeroed bytes: 1 for
/// legal).
pub fn write_mask(position: &yolah_core::Position, out: &mut [u8]) {
    if position.game_over() {
        return;
    }
    for &m in &position.moves() {
        out[action_of(m)] = 1;
    }
}

/// Bytes of one observation.
pub const OBSERVATION_BYTES: usize = OBSERVATION_PLANES * 64 * 4;

/// Writes the observation of `position` into `out` ([`OBSERVATION_PLANES`] × 64 `f32`s as
/// little-endian bytes, zeroed, `[plane][rank][file]`, rank 1 first).
pub fn write_observation(position: &yolah_core::Position, out: &mut [u8]) {
    let black = position.pieces(Color::Black);
    let white = position.pieces(Color::White);
    let holes = position.holes();
    let free = !(black.0 | white.0 | holes.0);
    let constant = [
        f32::from(u8::from(position.side_to_move() == Color::Black)),
        f32::from(position.score(Color::Black)) / 64.0,
        f32::from(position.score(Color::White)) / 64.0,
    ];
    let one = 1.0f32.to_le_bytes();
    for (plane, out) in out.chunks_exact_mut(4 * 64).enumerate() {
        if let Some(&board) = [black.0, white.0, holes.0, free].get(plane) {
            let mut bits = board;
            while bits != 0 {
                let square = bits.trailing_zeros() as usize;
                out[4 * square..4 * square + 4].copy_from_slice(&one);
                bits &= bits - 1;
            }
        } else {
            let value = constant[plane - 4].to_le_bytes();
            for cell in out.chunks_exact_mut(4) {
                cell.copy_from_slice(&value);
            }
        }
    }
}

/// The observation of one position: a `float32` array of shape `(7, 8, 8)`.
pub fn observation<'py>(
    py: Python<'py>,
    position: &yolah_core::Position,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = [OBSERVATION_PLANES, 8, 8];
    numpy::array_with(py, OBSERVATION_BYTES, "<f4", &shape, |out| {
        write_observation(position, out);
    })
}

/// The legal-action mask of one position: a `bool` array of 4096.
pub fn mask<'py>(py: Python<'py>, position: &yolah_core::Position) -> PyResult<Bound<'py, PyAny>> {
    numpy::array_with(py, ACTIONS, "bool", &[ACTIONS], |out| {
        write_mask(position, out);
    })
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

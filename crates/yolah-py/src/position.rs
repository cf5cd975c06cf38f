//! `yolah.Position`: a position and the moves played on it since it was made (for `undo`).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use yolah_core::text::quote;
use yolah_core::{Bitboard, Color, Diagram, Move, Outcome, Symmetry};

/// A Yolah position, the start by default; also the moves played on it, so `undo` takes them
/// back.
#[pyclass(module = "yolah", name = "Position", from_py_object)]
#[derive(Clone)]
pub struct Position {
    pub position: yolah_core::Position,
    history: Vec<Move>,
}

impl Position {
    pub fn of(position: yolah_core::Position) -> Position {
        Position {
            position,
            history: Vec::new(),
        }
    }

    /// Plays `m` for the side to move, kept in the history; `ValueError` if it is not legal.
    pub fn play_checked(&mut self, m: Move) -> PyResult<()> {
        self.position
            .check_move(m)
            .map_err(|reason| PyValueError::new_err(format!("{m} is illegal: {reason}")))?;
        self.position.play(m);
        self.history.push(m);
        Ok(())
    }
}

/// A position read from notation (or `startpos`), or `ValueError` with the reason.
pub fn parse(text: &str) -> PyResult<yolah_core::Position> {
    text.parse()
        .map_err(|e| PyValueError::new_err(format!("bad position {}: {e}", quote(text))))
}

/// A position given as a `Position` or as notation (or `startpos`).
pub fn position_arg(object: &Bound<'_, PyAny>) -> PyResult<yolah_core::Position> {
    if let Ok(position) = object.cast::<Position>() {
        return Ok(position.borrow().position);
    }
    if let Ok(text) = object.extract::<String>() {
        return parse(&text);
    }
    Err(PyTypeError::new_err(format!(
        "expected a Position or its notation, not {}",
        object.get_type().name()?
    )))
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[pymethods]
impl Position {
    /// A position from its notation (`yolah show` prints it), `"startpos"`, or the start when
    /// none is given.
    #[new]
    #[pyo3(signature = (notation=None))]
    fn new(notation: Option<&str>) -> PyResult<Position> {
        Ok(Position::of(match notation {
            None => yolah_core::Position::start(),
            Some(text) => parse(text)?,
        }))
    }

    /// A position from its bitboards (bit `8 × rank + file`, a1 = bit 0), points and ply,
    /// checked as notation is (the records of a data file hold these).
    #[staticmethod]
    fn from_bitboards(
        black: u64,
        white: u64,
        holes: u64,
        black_points: u8,
        white_points: u8,
        ply: u16,
    ) -> PyResult<Position> {
        yolah_core::Position::from_parts_checked(
            [Bitboard(black), Bitboard(white)],
            Bitboard(holes),
            [black_points, white_points],
            ply,
        )
        .map(Position::of)
        .map_err(|e| PyValueError::new_err(format!("bad position: {e}")))
    }

    /// The legal moves, sorted as strings as `yolah moves` prints them: `["a1:a1"]` (the pass)
    /// when the side to move is stuck, none once the game is over.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.position.game_over() {
            return Ok(PyList::empty(py));
        }
        crate::move_names::sorted_list(py, self.position.moves().as_mut_slice())
    }

    /// Plays `move` (`"e4:g2"`, or `"a1:a1"` to pass) for the side to move; `ValueError` if it
    /// is not a move or not legal here.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let m: Move = r#move
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        self.play_checked(m)
    }

    /// Takes back the last move played on this object and returns it; `ValueError` when there
    /// is none.
    fn undo(&mut self) -> PyResult<String> {
        let m = self.history.pop().ok_or_else(|| {
            PyValueError::new_err("nothing to undo: no move was played on this position")
        })?;
        self.position.undo(m);
        Ok(m.to_string())
    }

    /// The moves played on this object, oldest first (what `undo` takes back).
    fn history(&self) -> Vec<String> {
        self.history.iter().map(ToString::to_string).collect()
    }

    /// An independent copy, with its history.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// The notation, as `yolah show` prints it and `Position(...)` reads it.
    fn notation(&self) -> String {
        self.position.to_string()
    }

    /// `"black"` or `"white"`.
    fn side_to_move(&self) -> &'static str {
        color_name(self.position.side_to_move())
    }

    /// Moves played since the start by both sides, passes included.
    fn ply(&self) -> u16 {
        self.position.ply()
    }

    /// `(black's points, white's points)`.
    fn scores(&self) -> (u8, u8) {
        (
            self.position.score(Color::Black),
            self.position.score(Color::White),
        )
    }

    /// Whether neither side can move.
    fn game_over(&self) -> bool {
        self.position.game_over()
    }

    /// `"black"` or `"white"` (the winner) or `"draw"` once the game is over, `None` before.
    fn result(&self) -> Option<&'static str> {
        self.position.outcome().map(|outcome| match outcome {
            Outcome::Win(color) => color_name(color),
            Outcome::Draw => "draw",
        })
    }

    /// `(black, white, holes)` as bitboards: bit `8 × rank + file`, a1 = bit 0.
    fn bitboards(&self) -> (u64, u64, u64) {
        (
            self.position.pieces(Color::Black).0,
            self.position.pieces(Color::White).0,
            self.position.holes().0,
        )
    }

    /// The Zobrist hash (64 bits) the engine's tables use.
    fn hash(&self) -> u64 {
        self.position.hash()
    }

    /// The image under symmetry `k` (0 to 7; 0 is the identity): bit 2 swaps files and
    /// ranks, then bit 0 mirrors the files, then bit 1 the ranks. Points, ply and side to
    /// move are kept; so is the history, transformed move by move.
    fn transformed(&self, k: usize) -> PyResult<Position> {
        let symmetry = *Symmetry::ALL
            .get(k)
            .ok_or_else(|| PyValueError::new_err(format!("symmetry {k} is not 0 to 7")))?;
        Ok(Position {
            position: symmetry.position(&self.position),
            history: self.history.iter().map(|&m| symmetry.mv(m)).collect(),
        })
    }

    /// The position as a numpy `uint8` array of shape `(3, 8, 8)`: black's pieces, white's
    /// pieces, holes; `planes[c][rank][file]`, rank 1 first.
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::planes::one(py, &self.position)
    }

    /// The legal moves as actions (`from × 64 + to`), ascending: `[0]` (the pass) for a side
    /// with no move, none once the game is over.
    fn legal_actions(&self) -> Vec<usize> {
        crate::actions::legal(&self.position)
    }

    /// A `bool` array of 4096: true at the legal actions.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::actions::mask(py, &self.position)
    }

    /// Plays an action (`from × 64 + to`); `ValueError` if it is not legal here.
    fn play_action(&mut self, action: i64) -> PyResult<()> {
        let m = crate::actions::move_of(action)?;
        self.play_checked(m)
    }

    /// The observation tensor: `float32`, shape `(7, 8, 8)`, `[plane][rank][file]` with rank 1
    /// first: black's pieces, white's pieces, holes, free squares, side to move (ones when
    /// black is to move), black's points / 64, white's points / 64.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::actions::observation(py, &self.position)
    }

    /// The legal moves (python-chess's name): the same list as [`moves`].
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.moves(py)
    }

    /// Plays a move (python-chess's name for `play`).
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.play(r#move)
    }

    /// Takes back the last move and returns it (python-chess's name for `undo`).
    fn pop(&mut self) -> PyResult<String> {
        self.undo()
    }

    /// Whose turn it is, `"black"` or `"white"` (python-chess's name; `side_to_move()`).
    #[getter]
    fn turn(&self) -> &'static str {
        self.side_to_move()
    }

    /// Whether neither side can move (python-chess's name for `game_over()`).
    fn is_game_over(&self) -> bool {
        self.game_over()
    }

    /// The board as an SVG picture (a notebook draws it): pieces as discs, holes dark, the
    /// squares the side to move can reach dotted, files and ranks named.
    fn _repr_svg_(&self) -> String {
        crate::svg::board(&self.position)
    }

    /// The SVG picture with the position's notation and scores under it.
    fn _repr_html_(&self) -> String {
        let (black, white) = self.scores();
        format!(
            "<div>{}<div style=\"font-family:monospace\">{} · black {black}, white {white}, {} to move</div></div>",
            crate::svg::board(&self.position),
            self.position,
            self.side_to_move()
        )
    }

    fn __str__(&self) -> String {
        Diagram::new(&self.position).to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position({})", quote(&self.position.to_string()))
    }

    /// Equal when the positions are (pieces, holes, points, ply); the histories may differ.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|other| other.borrow().position == self.position)
    }

    fn __hash__(&self) -> u64 {
        self.position.hash()
    }

    /// Pickles as its notation (the history is not kept).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let notation = slf.borrow().position.to_string();
        Ok((slf.get_type().into_any(), PyTuple::new(py, [notation])?))
    }
}

//! `Position`: the whole state of a game (book §2.1), with `play`, `undo` and the game-over test.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::mv::Move;
use crate::square::Square;
use crate::zobrist;

/// Black's pieces at the start: a1, d5, e4, h8.
pub const BLACK_START: Bitboard = Bitboard(1 << 0 | 1 << 35 | 1 << 28 | 1 << 63);
/// White's pieces at the start: a8, d4, e5, h1.
pub const WHITE_START: Bitboard = Bitboard(1 << 56 | 1 << 27 | 1 << 36 | 1 << 7);

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// Free: a piece may cross it or land on it.
    Empty,
    /// A piece of this colour.
    Piece(Color),
    /// A square a piece has left: nobody crosses or lands on it again.
    Hole,
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Empty => f.write_str("an empty square"),
            Cell::Piece(color) => write!(f, "a {color} piece"),
            Cell::Hole => f.write_str("a hole"),
        }
    }
}

/// How a finished game ended.
///
/// ```
/// use yolah_core::{Color, Outcome};
/// assert_eq!(Outcome::from_scores(30, 28), Outcome::Win(Color::Black));
/// assert_eq!(Outcome::from_scores(30, 30).half_points(Color::White), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// This side made more moves.
    Win(Color),
    /// Both sides made as many moves.
    Draw,
}

impl Outcome {
    /// The result of a finished game with these scores.
    pub fn from_scores(black: u8, white: u8) -> Outcome {
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::Black),
            std::cmp::Ordering::Less => Outcome::Win(Color::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// What the result is worth to `color` in half points: 2 a win, 1 a draw, 0 a loss.
    pub fn half_points(self, color: Color) -> u32 {
        match self {
            Outcome::Win(winner) if winner == color => 2,
            Outcome::Win(_) => 0,
            Outcome::Draw => 1,
        }
    }
}

/// A Yolah position. Invariants (upheld by [`Position::start`], the notation parser and legal
/// play): four pieces a side, pieces and holes disjoint, one hole per point scored.
///
/// ```
/// use yolah_core::{Color, Move, Position};
/// let mut position = Position::start();
/// assert_eq!(position.side_to_move(), Color::Black);
/// let m: Move = "a1:c3".parse().unwrap();
/// position.play(m);
/// assert_eq!((position.score(Color::Black), position.ply()), (1, 1));
/// assert_eq!(position.to_string(), "w6b/8/8/3bw3/3wb3/2b5/8/x6w w 1 0 1");
/// position.undo(m);
/// assert_eq!(position, Position::start());
/// assert!(!position.game_over() && position.outcome().is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pieces: [Bitboard; 2],
    holes: Bitboard,
    hash: u64,
    ply: u16,
    scores: [u8; 2],
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The starting position, black to move.
    pub fn start() -> Position {
        Position::from_parts([BLACK_START, WHITE_START], Bitboard::EMPTY, [0, 0], 0)
    }

    /// Builds a position from its parts without checking them (the notation parser checks).
    pub(crate) fn from_parts(
        pieces: [Bitboard; 2],
        holes: Bitboard,
        scores: [u8; 2],
        ply: u16,
    ) -> Position {
        let mut position = Position {
            pieces,
            holes,
            hash: 0,
            ply,
            scores,
        };
        position.hash = position.compute_hash();
        position
    }

    /// The pieces of `color`.
    #[inline]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color as usize]
    }

    /// The holes.
    #[inline]
    pub const fn holes(&self) -> Bitboard {
        self.holes
    }

    /// Pieces and holes: every square a piece can neither cross nor land on.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.pieces[0].0 | self.pieces[1].0 | self.holes.0)
    }

    /// What stands on `square`.
    pub fn cell(&self, square: Square) -> Cell {
        if self.pieces[0].contains(square) {
            Cell::Piece(Color::Black)
        } else if self.pieces[1].contains(square) {
            Cell::Piece(Color::White)
        } else if self.holes.contains(square) {
            Cell::Hole
        } else {
            Cell::Empty
        }
    }

    /// Moves played so far by both sides, passes included.
    #[inline]
    pub const fn ply(&self) -> u16 {
        self.ply
    }

    /// The side to move: black at even plies.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        Color::to_move_at(self.ply)
    }

    /// The points of `color`: one per move it made.
    #[inline]
    pub const fn score(&self, color: Color) -> u8 {
        self.scores[color as usize]
    }

    /// The Zobrist hash, kept up to date by `play` and `undo` (see [`crate::zobrist`]).
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equal to [`Position::hash`] at all times.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for color in Color::ALL {
            for square in self.pieces(color).squares() {
                hash ^= zobrist::PIECE[color.index()][square.index()];
            }
            hash ^= zobrist::SCORE[color.index()][self.score(color) as usize];
        }
        for square in self.holes.squares() {
            hash ^= zobrist::HOLE[square.index()];
        }
        if self.side_to_move() == Color::White {
            hash ^= zobrist::WHITE_TO_MOVE;
        }
        hash
    }

    /// Whether neither side can move: no free square touches any piece (book listing 6).
    #[inline]
    pub const fn game_over(&self) -> bool {
        let pieces = Bitboard(self.pieces[0].0 | self.pieces[1].0);
        pieces.neighbours().0 & !self.occupied().0 == 0
    }

    /// The result once the game is over, `None` before.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.game_over() {
            return None;
        }
        Some(Outcome::from_scores(
            self.score(Color::Black),
            self.score(Color::White),
        ))
    }

    /// Plays `m` for the side to move. `m` must be legal (see [`Position::check_move`]);
    /// the pass only advances the ply.
    #[inline]
    pub fn play(&mut self, m: Move) {
        let side = self.side_to_move().index();
        if !m.is_pass() {
            let from = m.from().index();
            let to = m.to().index();
            self.pieces[side].0 ^= 1 << from | 1 << to;
            self.holes.0 |= 1 << from;
            let score = self.scores[side] as usize;
            self.hash ^= zobrist::PIECE[side][from]
                ^ zobrist::PIECE[side][to]
                ^ zobrist::HOLE[from]
                ^ zobrist::SCORE[side][score]
                ^ zobrist::SCORE[side][score + 1];
            self.scores[side] += 1;
        }
        self.ply += 1;
        self.hash ^= zobrist::WHITE_TO_MOVE;
    }

    /// Takes back `m`, which must be the last move played.
    #[inline]
    pub fn undo(&mut self, m: Move) {
        self.ply -= 1;
        self.hash ^= zobrist::WHITE_TO_MOVE;
        if !m.is_pass() {
            let side = self.side_to_move().index();
            let from = m.from().index();
            let to = m.to().index();
            self.pieces[side].0 ^= 1 << from | 1 << to;
            self.holes.0 ^= 1 << from;
            self.scores[side] -= 1;
            let score = self.scores[side] as usize;
            self.hash ^= zobrist::PIECE[side][from]
                ^ zobrist::PIECE[side][to]
                ^ zobrist::HOLE[from]
                ^ zobrist::SCORE[side][score]
                ^ zobrist::SCORE[side][score + 1];
        }
    }
}

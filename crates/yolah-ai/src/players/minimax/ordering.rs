//! Move ordering: the table move first, then the killers (the last two refutations at a ply),
//! then (when asked) the counter move (the last refutation of the move just played), then the
//! rest by their history (how often each move refuted, for each side).

use super::values::MAX_PLY;
use yolah_core::{Color, MAX_MOVES, Move};

/// The most a move's history reaches either way.
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Move-ordering keys of the table move and the killers, above every history value.
const TABLE_MOVE: i32 = 1 << 30;
const KILLER: i32 = 1 << 29;
/// The counter move's key: below the killers, above every history value.
const COUNTER: i32 = 1 << 28;

/// One thread's killers and history: what its refutations taught it about the moves.
pub(super) struct MoveOrder {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Success of each move (by its 12-bit code) for each side, with gravity.
    history: Box<[[i32; 4096]; 2]>,
    /// For each side, the move that last refuted each of the opponent's moves (by its code).
    counters: Box<[[Option<Move>; 4096]; 2]>,
}

impl MoveOrder {
    /// Nothing learnt yet.
    pub(super) fn new() -> MoveOrder {
        MoveOrder {
            killers: [[None; 2]; MAX_PLY],
            history: vec![[0; 4096]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
            counters: vec![[None; 4096]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
        }
    }

    /// Before a new search: the killers forgotten, the history halved.
    pub(super) fn age(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 2;
            }
        }
    }

    /// The ordering keys of `moves` at `ply`, `side` to move, the highest first: the table
    /// move, the killers, the counter move of `previous` (the opponent's move just played,
    /// when counter moves are on), then by history.
    #[inline]
    pub(super) fn keys(
        &self,
        moves: &[Move],
        table_move: Option<Move>,
        ply: usize,
        side: Color,
        previous: Option<Move>,
    ) -> [i32; MAX_MOVES] {
        let killers = self.killers[ply];
        let history = &self.history[side.index()];
        let counter = previous.and_then(|p| self.counters[side.index()][p.raw() as usize]);
        let mut keys = [0i32; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            keys[i] = if Some(m) == table_move {
                TABLE_MOVE
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else if Some(m) == counter {
                COUNTER
            } else {
                history[m.raw() as usize]
            };
        }
        keys
    }

    /// Whether a move of this key is neither the table move, a killer nor the counter move.
    #[inline]
    pub(super) const fn by_history(key: i32) -> bool {
        key < COUNTER
    }

    /// `m` refuted a node at `ply` searched `depth` plies deep, `side` to move, after the
    /// moves `worse` did not: it becomes the first killer, the counter move of `previous` (the
    /// opponent's move into the node, when counter moves are on) and gains history; they
    /// lose it.
    #[inline]
    pub(super) fn refuted(
        &mut self,
        ply: usize,
        depth: i32,
        side: Color,
        m: Move,
        worse: &[Move],
        previous: Option<Move>,
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply] = [Some(m), self.killers[ply][0]];
        }
        if let Some(previous) = previous {
            self.counters[side.index()][previous.raw() as usize] = Some(m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        let history = &mut self.history[side.index()];
        gravity(&mut history[m.raw() as usize], bonus);
        for &worse in worse {
            gravity(&mut history[worse.raw() as usize], -bonus);
        }
    }
}

/// Adds `bonus` to a history value, less the more it already has: it stays within
/// ±[`HISTORY_MAX`].
#[inline]
fn gravity(history: &mut i32, bonus: i32) {
    *history += bonus - *history * bonus.abs() / HISTORY_MAX;
}

//! Move ordering: the table move first, then the killers (the last two refutations at a ply),
//! then (when asked) the counter move (the last refutation of the move just played), then the
//! rest by their history (how often each move refuted, for each side), to which (when asked)
//! their continuation history adds: how often each move refuted after a move to the same square
//! one ply and two plies before.

use super::values::MAX_PLY;
use yolah_core::{Color, MAX_MOVES, Move};

/// The most a move's history reaches either way.
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Move-ordering keys of the table move and the killers, above every history value.
const TABLE_MOVE: i32 = 1 << 30;
const KILLER: i32 = 1 << 29;
/// The counter move's key: below the killers, above every history value.
const COUNTER: i32 = 1 << 28;
/// Entries of one continuation table: a side, a square the move `back` plies before went to,
/// a move's 12-bit code.
const CONTINUATION: usize = 2 * 64 * 4096;

/// What the move order knows of the line into a node: the opponent's move just played (for
/// its counter move) and where the two moves before went (for continuation history).
#[derive(Clone, Copy, Default)]
pub(super) struct Line {
    /// The move into the node, when counter moves are on.
    previous: Option<Move>,
    /// For one ply and two plies back, the offset of the continuation table's row (a side,
    /// a square), when continuation history is on and that move was not a pass.
    rows: [Option<usize>; 2],
    /// The continuation histories' weight in the order, in percent (`cont_history`).
    weight: i32,
}

impl Line {
    /// The line into a node at `ply`, `side` to move, after the moves `played` (a pass for a
    /// null move): `counter` for counter moves, continuation history weighed `weight` percent
    /// (0: off).
    #[inline]
    pub(super) fn new(
        played: &[Move],
        ply: usize,
        side: Color,
        counter: bool,
        weight: i32,
    ) -> Line {
        let back = |plies: usize| {
            (weight > 0 && ply >= plies)
                .then(|| played[ply - plies])
                .filter(|m| !m.is_pass())
                .map(|m| ((plies - 1) * CONTINUATION) + (side.index() * 64 + m.to().index()) * 4096)
        };
        Line {
            previous: (counter && ply > 0).then(|| played[ply - 1]),
            rows: [back(1), back(2)],
            weight,
        }
    }
}

/// One thread's killers and history: what its refutations taught it about the moves.
pub(super) struct MoveOrder {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Success of each move (by its 12-bit code) for each side, with gravity.
    history: Box<[[i32; 4096]; 2]>,
    /// For each side, the move that last refuted each of the opponent's moves (by its code).
    counters: Box<[[Option<Move>; 4096]; 2]>,
    /// Continuation history, with gravity: two tables (the move one ply back, two plies
    /// back) of [`CONTINUATION`] entries, allocated when first used.
    continuation: Vec<i32>,
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
            continuation: Vec::new(),
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
        for h in &mut self.continuation {
            *h /= 2;
        }
    }

    /// The ordering keys of `moves` at `ply`, `side` to move, the highest first: the table
    /// move, the killers, the counter move of the opponent's move just played (when counter
    /// moves are on), then by history (and continuation history, when on) (`line`).
    #[inline]
    pub(super) fn keys(
        &mut self,
        moves: &[Move],
        table_move: Option<Move>,
        ply: usize,
        side: Color,
        line: Line,
    ) -> [i32; MAX_MOVES] {
        let killers = self.killers[ply];
        let counter = line
            .previous
            .and_then(|p| self.counters[side.index()][p.raw() as usize]);
        let continued = line.rows.iter().any(Option::is_some);
        if continued && self.continuation.is_empty() {
            self.continuation = vec![0; 2 * CONTINUATION];
        }
        let history = &self.history[side.index()];
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
            } else if continued {
                let code = m.raw() as usize;
                let sum: i32 = line
                    .rows
                    .iter()
                    .flatten()
                    .map(|row| self.continuation[row + code])
                    .sum();
                history[code] + sum * line.weight / 100
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
    /// moves `worse` did not: it becomes the first killer, the counter move of the opponent's
    /// move into the node (when counter moves are on) and gains history (and continuation
    /// history after the `line`'s moves, when on); they lose it.
    #[inline]
    pub(super) fn refuted(
        &mut self,
        ply: usize,
        depth: i32,
        side: Color,
        m: Move,
        worse: &[Move],
        line: Line,
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply] = [Some(m), self.killers[ply][0]];
        }
        if let Some(previous) = line.previous {
            self.counters[side.index()][previous.raw() as usize] = Some(m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        let history = &mut self.history[side.index()];
        gravity(&mut history[m.raw() as usize], bonus);
        for &worse in worse {
            gravity(&mut history[worse.raw() as usize], -bonus);
        }
        // `keys` allocated the tables for this node's line.
        for row in line.rows.into_iter().flatten() {
            let table = &mut self.continuation[row..row + 4096];
            gravity(&mut table[m.raw() as usize], bonus);
            for &worse in worse {
                gravity(&mut table[worse.raw() as usize], -bonus);
            }
        }
    }
}

/// Adds `bonus` to a history value, less the more it already has: it stays within
/// ±[`HISTORY_MAX`].
#[inline]
fn gravity(history: &mut i32, bonus: i32) {
    *history += bonus - *history * bonus.abs() / HISTORY_MAX;
}

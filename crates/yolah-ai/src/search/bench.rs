//! The bench: fixed positions from real games, each searched to a fixed depth by one thread
//! with a fresh table. The total node count is a signature of the search (it changes only when
//! the search or the evaluation changes); nodes per second measure its speed.

use crate::eval::Evaluation;
use crate::limits::Limits;
use crate::players::minimax::{Instructions, Minimax, SearchResult};
use std::time::{Duration, Instant};
use yolah_core::Position;

/// The positions, one a line (see the file's header for where they come from).
pub const POSITIONS: &str = include_str!("../../data/bench.txt");

/// The depth of `yolah bench` when none is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// The table of the bench, in MiB.
const TABLE_MB: usize = 16;

/// The bench positions.
pub fn positions() -> Vec<Position> {
    POSITIONS
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| line.parse().expect("the bench positions are valid"))
        .collect()
}

/// What the bench measured.
#[derive(Clone, Copy, Debug)]
pub struct Totals {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Time over all positions.
    pub time: Duration,
}

/// Searches every bench position to `depth` with `evaluation` and the copy of the search
/// compiled for `instructions`, telling `on_position` of each.
pub fn run(
    depth: u32,
    evaluation: impl Into<Evaluation>,
    instructions: Instructions,
    mut on_position: impl FnMut(usize, &SearchResult),
) -> Totals {
    let mut player = Minimax::new(evaluation, TABLE_MB, 1);
    player.instructions = instructions;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let start = Instant::now();
    for (i, position) in positions().iter().enumerate() {
        player.clear();
        let outcome = player.search(position, limits);
        nodes += outcome.nodes;
        on_position(i, &outcome);
    }
    Totals {
        nodes,
        time: start.elapsed(),
    }
}

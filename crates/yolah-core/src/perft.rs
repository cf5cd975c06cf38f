//! Perft: the number of leaves of the game tree to a given depth.
//!
//! A pass counts as a move, and a game that ends before the depth counts as one leaf. The last
//! two plies are counted without playing them ("bulk counting"): at depth 1 the leaves are the
//! side's move count (or 1 for a pass or a finished game); at depth 2 each move only adds its
//! arrival square to the obstacles, so the opponent's target sets are computed once and each
//! move cuts from them the squares its arrival square now hides (the `BEYOND` table of the
//! playouts): four AND-NOTs and popcounts a move instead of four magic lookups.

use crate::attacks::attacks;
use crate::color::Color;
use crate::movegen::count_moves;
use crate::playout::BEYOND;
use crate::position::Position;

/// The deepest perft a command takes: deeper, perft from the start would run for days.
pub const MAX_DEPTH: u32 = 20;

/// Leaves of the tree below `position` at `depth` plies: on x86-64 CPUs with POPCNT and
/// BMI2, through a copy of the recursion compiled for them (chosen at run time, so a portable
/// build counts as fast as a native one).
///
/// ```
/// use yolah_core::{Position, perft};
/// assert_eq!(perft(&mut Position::start(), 2), 2_988);
/// ```
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has the features `perft_x86` is compiled for (checked just above).
        return unsafe { perft_x86(position, depth) };
    }
    perft_portable(position, depth)
}

/// The recursion, once for any CPU and once compiled with POPCNT and BMI2 (the leaves'
/// counts are popcounts): one body, two functions.
macro_rules! recursion {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(position: &mut Position, depth: u32) -> u64 {
            match depth {
                0 => 1,
                1 => u64::from(
                    count_moves(
                        position.pieces(position.side_to_move()),
                        position.occupied(),
                    )
                    .max(1),
                ),
                2 => perft2(position),
                _ => {
                    if position.game_over() {
                        return 1;
                    }
                    let mut leaves = 0;
                    for &m in &position.moves() {
                        position.play(m);
                        leaves += $name(position, depth - 1);
                        position.undo(m);
                    }
                    leaves
                }
            }
        }
    };
}

recursion!(perft_portable);
#[cfg(target_arch = "x86_64")]
recursion!(
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    perft_x86
);

/// Plies below which a subtree is counted on one thread: small enough to share the work out
/// evenly, large enough that a task is worth its scheduling.
const SPLIT_DEPTH: u32 = 4;

/// [`perft`] on the current rayon pool: each move of the first plies a task (nested, so the
/// pool's work stealing evens the subtrees out), the last `SPLIT_DEPTH` plies counted on one
/// thread. The same count as [`perft`].
///
/// ```
/// use yolah_core::Position;
/// use yolah_core::perft::perft_parallel;
/// assert_eq!(perft_parallel(&Position::start(), 3), 164_512);
/// ```
pub fn perft_parallel(position: &Position, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth <= SPLIT_DEPTH {
        return perft(&mut position.clone(), depth);
    }
    if position.game_over() {
        return 1;
    }
    position
        .moves()
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut next = *position;
            next.play(m);
            perft_parallel(&next, depth - 1)
        })
        .sum()
}

#[inline(always)]
fn perft2(position: &Position) -> u64 {
    let side: Color = position.side_to_move();
    let occupied = position.occupied();
    let opponent = position.pieces(side.opponent());
    // The opponent's pieces and target sets now (a missing piece: square 0, no targets).
    let mut squares = [0usize; 4];
    let mut targets = [0u64; 4];
    for (j, square) in opponent.squares().take(4).enumerate() {
        squares[j] = square.index();
        targets[j] = attacks(square, occupied).0;
    }
    let mut leaves = 0;
    let mut any_move = false;
    for from in position.pieces(side).squares() {
        for to in attacks(from, occupied).squares() {
            any_move = true;
            let cut = &BEYOND[to.index()];
            let count = (targets[0] & !cut[squares[0]]).count_ones()
                + (targets[1] & !cut[squares[1]]).count_ones()
                + (targets[2] & !cut[squares[2]]).count_ones()
                + (targets[3] & !cut[squares[3]]).count_ones();
            leaves += u64::from(count.max(1));
        }
    }
    if any_move {
        leaves
    } else if position.game_over() {
        1
    } else {
        // The side passes; the opponent then moves on the same board.
        u64::from(count_moves(opponent, occupied).max(1))
    }
}

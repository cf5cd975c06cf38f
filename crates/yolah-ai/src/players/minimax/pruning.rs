//! Which moves the search looks at less: the [`Pruning`] switches, the depths and margins of
//! null-move and reverse futility pruning, and how far a late move is reduced.

use yolah_core::Move;

/// Late-move reductions: moves after the first [`LMR_AFTER`] at depth ≥ 3 that are neither the
/// table move nor a killer are searched shallower first, by [`reduction`] plies (on by
/// default; see [`Pruning::reductions`]).
const LMR_AFTER: usize = 3;
/// Null-move pruning ([`Pruning::null_move`]) at depths from this one.
pub(super) const NULL_MIN_DEPTH: i32 = 3;
/// Reverse futility pruning ([`Pruning::futility`]) at depths up to this one, with this
/// margin a ply (hundredths of a point).
pub(super) const FUTILITY_DEPTH: i32 = 3;
pub(super) const FUTILITY_MARGIN: i32 = 150;
/// Late-move pruning ([`Pruning::move_count`]) at depths up to this one.
pub(super) const MOVE_COUNT_DEPTH: i32 = 3;
/// Neither prunes with this many free squares or fewer.
pub(super) const PRUNE_MIN_FREE: u32 = 20;

/// Which moves the search looks at less: each switch decided by a match at 100 ms a move
/// (`docs/notebook.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent switches, each a spec option
pub struct Pruning {
    /// Late moves searched shallower first (`reduction`). Reductions make the value depend
    /// on the move order.
    pub reductions: bool,
    /// A position whose side to move stands above beta is cut when a shallower search after
    /// a pass still holds beta (null-move pruning).
    pub null_move: bool,
    /// A position near the leaves whose static value stands well above beta is cut without
    /// search (reverse futility pruning).
    pub futility: bool,
    /// Near the leaves, off the principal variation, the moves the history orders last are
    /// not searched at all past the first [`move_count_limit`] (late-move pruning).
    pub move_count: bool,
}

impl Pruning {
    /// What plays best: reductions, null moves and late-move pruning (+39.5 [+17.1, +62.3] at
    /// 100 ms, `benches/results/lmp-100ms`); reverse futility did not show a gain. A search
    /// without limits (`solve`) never makes the cuts, whose values are not exact.
    pub const PLAY: Pruning = Pruning {
        reductions: true,
        null_move: true,
        futility: false,
        move_count: true,
    };
    /// Every move to full depth: plain alpha-beta, as tests compare with minimax.
    pub const NONE: Pruning = Pruning {
        reductions: false,
        null_move: false,
        futility: false,
        move_count: false,
    };

    /// How many plies shallower the `index`-th move `m` (from 0; `by_history`: neither the
    /// table move nor a killer) of a node searched `depth` plies deep, with `free` free
    /// squares, is searched first (late-move reduction). A node deep enough to see the game's
    /// end reduces no move below the end of its game, so that its value is proved.
    #[inline]
    pub(super) fn late_move_reduction(
        self,
        depth: i32,
        index: usize,
        by_history: bool,
        free: i32,
        m: Move,
    ) -> i32 {
        if !(self.reductions && depth >= 3 && index >= LMR_AFTER && by_history) {
            return 0;
        }
        // The child's game lasts at most 2 plies a free square, a pass included.
        let child_end = 2 * (free - i32::from(!m.is_pass()));
        let spare = depth - 1 - child_end;
        if spare >= 0 {
            reduction(depth, index).min(spare)
        } else {
            reduction(depth, index)
        }
    }
}

/// How many moves a node `depth` plies deep (at most [`MOVE_COUNT_DEPTH`]) searches before
/// late-move pruning skips the rest of those ordered by history: 4 + 2·depth² (6, 12, 22).
pub(super) const fn move_count_limit(depth: i32) -> usize {
    (4 + 2 * depth * depth) as usize
}

/// The most plies a game can still last from a position with `free` free squares whose side
/// to move has a move: each move fills a square, and a pass (a side without a move) is always
/// followed by a move, so passes come only between moves. A search this deep sees every end.
/// (A side that must pass adds its pass: `2 * free`.)
pub(super) const fn plies_left(free: i32) -> i32 {
    2 * free - 1
}

/// How many plies shallower the `index`-th move (from 0) of a node searched `depth` plies deep
/// is searched first: a ply, more the deeper the node and the later the move (½ + ln depth ×
/// ln index / 2, rounded down), leaving at least a ply.
fn reduction(depth: i32, index: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (index as f32).ln() / 2.0;
    (r as i32).clamp(1, depth - 2)
}

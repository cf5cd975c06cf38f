//! Which moves the search looks at less: the [`Pruning`] switches, the depths and margins of
//! null-move and reverse futility pruning, and how far a late move is reduced.

use super::ordering::{HISTORY_MAX, MoveOrder};
use yolah_core::Move;

/// The numbers of the cuts: each a spec option of `minimax` (`minimax:lmr_base=60`), with
/// its range and the step a tuner moves it by, listed by `yolah players --tunable minimax`.
/// The defaults were set by hand or by a switch-on match (SPSA tunes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Late-move reductions start after this many moves (`lmr_after`).
    pub lmr_after: i32,
    /// A late move's reduction is `lmr_base + lmr_scale · ln depth · ln index`, in hundredths
    /// of a ply, rounded down (`lmr_base`, `lmr_scale`).
    pub lmr_base: i32,
    /// See `lmr_base`.
    pub lmr_scale: i32,
    /// A late move's reduction is this many hundredths of a ply less for a move of the
    /// highest history, as much more for one of the lowest, in proportion between (but a
    /// ply at least) (`lmr_history`).
    pub lmr_history: i32,
    /// On the principal variation (a node whose window is open), late moves are reduced
    /// this many plies less, down to none (`lmr_pv`).
    pub lmr_pv: i32,
    /// Null-move pruning at depths from this one (`nmp_depth`).
    pub nmp_depth: i32,
    /// The null move's search is `nmp_base + depth / nmp_divisor` plies shallower than a
    /// move's (`nmp_base`, `nmp_divisor`).
    pub nmp_base: i32,
    /// See `nmp_base`.
    pub nmp_divisor: i32,
    /// Reverse futility pruning at depths up to this one (`rfp_depth`).
    pub rfp_depth: i32,
    /// Reverse futility's margin a ply, hundredths of a point (`rfp_margin`).
    pub rfp_margin: i32,
    /// Late-move pruning at depths up to this one (`lmp_depth`).
    pub lmp_depth: i32,
    /// Late-move pruning searches `lmp_a + lmp_b · depth²` moves before it skips the rest
    /// ordered by history (`lmp_a`, `lmp_b`).
    pub lmp_a: i32,
    /// See `lmp_a`.
    pub lmp_b: i32,
    /// Where the side's static value is not above its value two plies before (the position
    /// is not improving), late-move pruning searches this percentage of its moves; 100 keeps
    /// them all (`lmp_worsening`).
    pub lmp_worsening: i32,
    /// Where late-move pruning may cut, the moves (after the first) whose ordering key (their
    /// history, with continuation history when on) is below `-hp_margin × depth` are not
    /// searched (history pruning; 0: never) (`hp_margin`).
    pub hp_margin: i32,
    /// No cut of the static value and no late-move pruning with this many free squares or
    /// fewer (`prune_free`).
    pub prune_free: i32,
    /// Moves are ordered by their history plus this percentage of their continuation
    /// histories (their success after a move to the same square one and two plies before);
    /// 0 leaves continuation history out (`cont_history`).
    pub cont_history: i32,
    /// From this depth (0: never), a table move whose lower bound no other move reaches in a
    /// search to half the depth, against a bound `se_margin` below it, is searched a ply
    /// deeper (a singular extension) (`se_depth`).
    pub se_depth: i32,
    /// The singular search's bound is `se_margin × depth / 10` hundredths of a point below
    /// the table's value (`se_margin`).
    pub se_margin: i32,
    /// Where the singular search finds another move reaching its bound but that bound is
    /// below beta, and the table's lower bound holds beta, the table move is searched this
    /// many plies shallower (a negative extension; 0: as deep as the others) (`se_negative`).
    pub se_negative: i32,
    /// A singular table move whose other moves all stay this many hundredths of a point
    /// below the singular bound is searched two plies deeper, off the principal variation, at
    /// most six times on a line (a double extension; 0: never) (`se_double`).
    pub se_double: i32,
    /// From this depth (0: never), a node the table knows no move for is searched a ply
    /// shallower (an internal iterative reduction) (`iir_depth`).
    pub iir_depth: i32,
    /// With `regions=on`, positions with at most this many free squares are checked for
    /// separated regions; with more, the sides are almost never apart and the check would
    /// only cost time (`regions_free`).
    pub regions_free: i32,
    /// From depth 4, each iteration first searches a window this many hundredths of a point
    /// either side of the last iteration's value, widened (doubled each time) on a fail;
    /// 0 searches the whole window at once (`aspiration`).
    pub aspiration: i32,
}

impl Tuning {
    /// The defaults (each option's `default` in `spec.rs` says the same: a test checks it).
    pub const DEFAULT: Tuning = Tuning {
        lmr_after: 3,
        lmr_base: 50,
        lmr_scale: 50,
        lmr_history: 0,
        lmr_pv: 0,
        nmp_depth: 3,
        nmp_base: 2,
        nmp_divisor: 4,
        rfp_depth: 3,
        rfp_margin: 150,
        lmp_depth: 3,
        lmp_a: 4,
        lmp_b: 2,
        lmp_worsening: 100,
        hp_margin: 0,
        prune_free: 20,
        cont_history: 0,
        se_depth: 6,
        se_margin: 10,
        se_negative: 0,
        se_double: 0,
        iir_depth: 4,
        regions_free: 36,
        aspiration: 50,
    };

    /// The field of the option `name`, if it is one of these.
    pub fn field(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "lmr_after" => &mut self.lmr_after,
            "lmr_base" => &mut self.lmr_base,
            "lmr_scale" => &mut self.lmr_scale,
            "lmr_history" => &mut self.lmr_history,
            "lmr_pv" => &mut self.lmr_pv,
            "nmp_depth" => &mut self.nmp_depth,
            "nmp_base" => &mut self.nmp_base,
            "nmp_divisor" => &mut self.nmp_divisor,
            "rfp_depth" => &mut self.rfp_depth,
            "rfp_margin" => &mut self.rfp_margin,
            "lmp_depth" => &mut self.lmp_depth,
            "lmp_a" => &mut self.lmp_a,
            "lmp_b" => &mut self.lmp_b,
            "lmp_worsening" => &mut self.lmp_worsening,
            "hp_margin" => &mut self.hp_margin,
            "prune_free" => &mut self.prune_free,
            "cont_history" => &mut self.cont_history,
            "se_depth" => &mut self.se_depth,
            "se_margin" => &mut self.se_margin,
            "se_negative" => &mut self.se_negative,
            "se_double" => &mut self.se_double,
            "iir_depth" => &mut self.iir_depth,
            "regions_free" => &mut self.regions_free,
            "aspiration" => &mut self.aspiration,
            _ => return None,
        })
    }

    /// How many moves a node `depth` plies deep (at most `lmp_depth`) searches before
    /// late-move pruning skips the rest of those ordered by history: by default 4 + 2·depth²
    /// (6, 12, 22), `lmp_worsening` percent of it (rounded down, one at least) where the
    /// position is not `improving`.
    pub(super) const fn move_count_limit(&self, depth: i32, improving: bool) -> usize {
        let limit = self.lmp_a + self.lmp_b * depth * depth;
        if improving {
            limit as usize
        } else {
            let kept = limit * self.lmp_worsening / 100;
            if kept < 1 { 1 } else { kept as usize }
        }
    }

    /// How many plies shallower the `index`-th move (from 0) of a node searched `depth` plies
    /// deep is searched first: by default a ply, more the deeper the node and the later the
    /// move (½ + ln depth × ln index / 2, rounded down), leaving at least a ply; less for a
    /// move of good `history` (`lmr_history`), and less on the principal variation (`pv`,
    /// `lmr_pv`).
    fn reduction(&self, depth: i32, index: usize, history: i32, pv: bool) -> i32 {
        let r = self.lmr_base as f32 / 100.0
            + (depth as f32).ln() * (index as f32).ln() * (self.lmr_scale as f32 / 100.0)
            - self.lmr_history as f32 / 100.0 * history as f32 / HISTORY_MAX as f32;
        let r = (r.floor() as i32).clamp(1, depth - 2);
        if pv { (r - self.lmr_pv).max(0) } else { r }
    }

    /// How many plies shallower than a move's the null move's search is at `depth`.
    pub(super) const fn null_reduction(&self, depth: i32) -> i32 {
        self.nmp_base + depth / self.nmp_divisor
    }
}

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
    /// not searched at all past the first `Tuning::move_count_limit` (late-move pruning).
    pub move_count: bool,
    /// The move that last refuted the opponent's move just played (its counter move) is
    /// ordered after the killers and before the history: like them, it is neither reduced as
    /// much as later moves nor pruned (`counter`).
    pub counter_moves: bool,
    /// The numbers of these cuts.
    pub tuning: Tuning,
}

impl Pruning {
    /// What plays best: reductions, null moves and late-move pruning (+39.5 [+17.1, +62.3] at
    /// 100 ms, `benches/results/lmp-100ms`); reverse futility did not show a gain. A search
    /// without limits (`solve`) never makes the null-move, futility and late-move cuts; a
    /// singular extension's multi-cut it may make, counted as unproven like every cut, so
    /// that a proof is never made of it.
    pub const PLAY: Pruning = Pruning {
        reductions: true,
        null_move: true,
        futility: false,
        move_count: true,
        counter_moves: false,
        tuning: Tuning::DEFAULT,
    };
    /// Every move to full depth: plain alpha-beta, as tests compare with minimax. Its tuning,
    /// without extensions or internal iterative reductions, is also the solver's.
    pub const NONE: Pruning = Pruning {
        reductions: false,
        null_move: false,
        futility: false,
        move_count: false,
        counter_moves: false,
        tuning: Tuning {
            se_depth: 0,
            se_negative: 0,
            se_double: 0,
            iir_depth: 0,
            ..Tuning::DEFAULT
        },
    };

    /// How many plies shallower the `index`-th move `m` (from 0; its ordering `key`: by
    /// history unless it is the table move, a killer or the counter move) of a node searched
    /// `depth` plies deep, with `free` free squares, on the principal variation or not (`pv`),
    /// is searched first (late-move reduction). A node deep enough to see the game's end
    /// reduces no move below the end of its game, so that its value is proved.
    #[inline]
    pub(super) fn late_move_reduction(
        self,
        depth: i32,
        index: usize,
        key: i32,
        pv: bool,
        free: i32,
        m: Move,
    ) -> i32 {
        let by_history = MoveOrder::by_history(key);
        if !(self.reductions && depth >= 3 && index as i32 >= self.tuning.lmr_after && by_history) {
            return 0;
        }
        let reduction = self.tuning.reduction(depth, index, key, pv);
        // The child's game lasts at most 2 plies a free square, a pass included.
        let child_end = 2 * (free - i32::from(!m.is_pass()));
        let spare = depth - 1 - child_end;
        if spare >= 0 {
            reduction.min(spare)
        } else {
            reduction
        }
    }
}

/// The most plies a game can still last from a position with `free` free squares whose side
/// to move has a move: each move fills a square, and a pass (a side without a move) is always
/// followed by a move, so passes come only between moves. A search this deep sees every end.
/// (A side that must pass adds its pass: `2 * free`.)
pub(super) const fn plies_left(free: i32) -> i32 {
    2 * free - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_and_the_principal_variation_change_a_reduction_only_when_asked() {
        let plain = Tuning::DEFAULT;
        // ½ + ln 10 × ln 20 / 2 = 3.95: 3 plies, whatever the history, on the PV or not.
        for (history, pv) in [(0, false), (HISTORY_MAX, true), (-HISTORY_MAX, false)] {
            assert_eq!(plain.reduction(10, 20, history, pv), 3);
        }
        let tuned = Tuning {
            lmr_history: 200,
            lmr_pv: 1,
            ..Tuning::DEFAULT
        };
        assert_eq!(tuned.reduction(10, 20, 0, false), 3);
        assert_eq!(tuned.reduction(10, 20, HISTORY_MAX, false), 1);
        assert_eq!(tuned.reduction(10, 20, HISTORY_MAX / 2, false), 2);
        assert_eq!(tuned.reduction(10, 20, -HISTORY_MAX, false), 5);
        // Never past depth - 2, never below a ply off the principal variation...
        assert_eq!(tuned.reduction(6, 40, -HISTORY_MAX, false), 4);
        assert_eq!(tuned.reduction(10, 4, HISTORY_MAX, false), 1);
        // ...and on it a ply less, down to none.
        assert_eq!(tuned.reduction(10, 20, 0, true), 2);
        assert_eq!(tuned.reduction(10, 4, HISTORY_MAX, true), 0);
    }

    #[test]
    fn a_position_not_improving_prunes_sooner_only_when_asked() {
        let plain = Tuning::DEFAULT;
        for depth in 1..=3 {
            assert_eq!(
                plain.move_count_limit(depth, false),
                plain.move_count_limit(depth, true)
            );
        }
        let tuned = Tuning {
            lmp_worsening: 50,
            ..Tuning::DEFAULT
        };
        assert_eq!(tuned.move_count_limit(2, true), 12);
        assert_eq!(tuned.move_count_limit(2, false), 6);
        assert_eq!(tuned.move_count_limit(3, false), 11);
        let harsh = Tuning {
            lmp_worsening: 0,
            ..Tuning::DEFAULT
        };
        assert_eq!(harsh.move_count_limit(1, false), 1);
    }

    #[test]
    fn only_late_moves_ordered_by_history_are_reduced() {
        let pruning = Pruning {
            tuning: Tuning {
                lmr_pv: 3,
                ..Tuning::DEFAULT
            },
            ..Pruning::PLAY
        };
        let m: Move = "a1:a2".parse().unwrap();
        assert_eq!(pruning.late_move_reduction(10, 20, 0, false, 40, m), 3);
        assert_eq!(pruning.late_move_reduction(10, 20, 0, true, 40, m), 0);
        assert_eq!(pruning.late_move_reduction(10, 2, 0, false, 40, m), 0);
        assert_eq!(pruning.late_move_reduction(2, 20, 0, false, 40, m), 0);
        assert_eq!(
            pruning.late_move_reduction(10, 20, i32::MAX, false, 40, m),
            0
        );
        // Near the end a move is not reduced below its game's end: 3 free squares left after
        // it, 6 plies at most, at depth 10 (9 for the child): 3 spare plies.
        assert_eq!(pruning.late_move_reduction(10, 20, 0, false, 4, m), 3);
        assert_eq!(pruning.late_move_reduction(10, 20, 0, false, 5, m), 1);
    }
}

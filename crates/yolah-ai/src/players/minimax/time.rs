//! How long the first thread searches: the move's time, stretched or shrunk under a clock as
//! its iterations tell how hard the move is ([`TimePlan`]), and the share of it past which no
//! new iteration starts.

use std::time::{Duration, Instant};

/// The share of a move's time, in percent, past which minimax starts no new iteration: all
/// of it (an iteration cut by the deadline keeps its best move). Decided by a match: 100
/// against the former 50, +24.4 Elo [+5.2, +43.7] at 100 ms a move
/// (`benches/results/time-use`).
pub const DEFAULT_SOFT_PERCENT: u32 = 100;

/// When the first thread stops, as its iterations tell how hard the move is. Without a clock
/// the move's time is the limit (`time=` means that). Under a clock (with `stretch=on`), the
/// clock's allotment is the plan: [`TimePlan::UNSTABLE`] times it after an iteration that
/// changed the best move or lost more than [`TimePlan::DROP`], [`TimePlan::STABLE`] times it
/// once the best move has held for [`TimePlan::HELD`] iterations, never past `hard`.
#[derive(Clone, Copy)]
pub(super) struct TimePlan {
    pub(super) start: Instant,
    /// The allotment, less the safety margin.
    pub(super) optimum: Duration,
    /// The latest stop: twice the allotment, at most half the time left.
    pub(super) hard: Instant,
    /// Whether the allotment stretches and shrinks (`stretch=on`, under a clock).
    pub(super) stretch: bool,
    /// No new iteration starts past this share (percent) of the stop time.
    pub(super) soft_percent: u32,
}

impl TimePlan {
    /// A value drop (hundredths of a point) that makes a position unstable.
    pub(super) const DROP: i32 = 50;
    /// Iterations the best move must hold for the move to count as obvious.
    const HELD: u32 = 4;
    const UNSTABLE: f64 = 1.6;
    const STABLE: f64 = 0.6;

    /// The time-factor after an iteration: `unstable` (changed move, dropped value), or the
    /// same move for `held` iterations.
    pub(super) fn factor(&self, unstable: bool, held: u32) -> f64 {
        match () {
            () if !self.stretch => 1.0,
            () if unstable => TimePlan::UNSTABLE,
            () if held >= TimePlan::HELD => TimePlan::STABLE,
            () => 1.0,
        }
    }

    /// When the first thread stops, given the factor.
    pub(super) fn stop_at(&self, factor: f64) -> Instant {
        (self.start + self.optimum.mul_f64(factor)).min(self.hard)
    }

    /// Past when no new iteration starts.
    pub(super) fn last_start(&self, factor: f64) -> Instant {
        self.start + (self.stop_at(factor) - self.start) * self.soft_percent / 100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(stretch: bool, soft_percent: u32) -> TimePlan {
        let start = Instant::now();
        TimePlan {
            start,
            optimum: Duration::from_millis(100),
            hard: start + Duration::from_millis(150),
            stretch,
            soft_percent,
        }
    }

    /// `at` is `ms` milliseconds after the plan's start, to a microsecond.
    fn after(plan: &TimePlan, at: Instant, ms: u64) -> bool {
        let want = plan.start + Duration::from_millis(ms);
        at.max(want) - at.min(want) < Duration::from_micros(1)
    }

    #[test]
    fn the_plan_stretches_for_unstable_moves_and_shrinks_for_held_ones_never_past_hard() {
        let p = plan(true, 100);
        assert!(after(&p, p.stop_at(p.factor(false, 1)), 100));
        // 1.6 times 100 ms is past the hard stop.
        assert!(after(&p, p.stop_at(p.factor(true, 0)), 150));
        assert!(after(&p, p.stop_at(p.factor(true, TimePlan::HELD)), 150));
        assert!(after(&p, p.stop_at(p.factor(false, TimePlan::HELD)), 60));
        assert!(after(
            &p,
            p.stop_at(p.factor(false, TimePlan::HELD - 1)),
            100
        ));
        // Without stretch, or with a fixed time, the time is the time.
        let fixed = plan(false, 100);
        for (unstable, held) in [(true, 0), (false, TimePlan::HELD), (false, 1)] {
            assert!(after(
                &fixed,
                fixed.stop_at(fixed.factor(unstable, held)),
                100
            ));
        }
        // No new iteration past the soft share of the stop time.
        let soft = plan(true, 50);
        assert!(after(&soft, soft.last_start(1.0), 50));
        assert!(after(&soft, soft.last_start(TimePlan::STABLE), 30));
    }
}

//! How long a player may think: [`Limits`] as asked for, [`Budget`] as a search checks it.

use crate::clock::Clock;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use yolah_core::Position;

/// What a player may spend on one move. With several set, the first one reached stops the
/// search; with none, a search player falls back to its spec's default. A player honours only
/// the limits its spec accepts (`iterations` for Monte Carlo and MCTS, `depth` and `nodes` for
/// minimax).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// Search iterations for the move (playouts for Monte Carlo, tree walks for MCTS).
    pub iterations: Option<u64>,
    /// Search depth in plies (minimax).
    pub depth: Option<u32>,
    /// Positions visited (minimax).
    pub nodes: Option<u64>,
    /// A flag another thread raises to end the search now (the engine protocol's `stop`).
    pub stop: Option<StopFlag>,
    /// The game clock, when the game has one. Players in this process are given their move's
    /// share of it as `time` ([`Limits::on_clock`]); the `engine` player sends it on.
    pub clock: Option<Clock>,
}

impl Limits {
    /// These limits for a move on `clock` in `position`: the clock's allotment becomes the
    /// move's time (or caps a time `explicit` in the spec), shared over `pace` moves when the
    /// spec sets it.
    pub fn on_clock(
        self,
        clock: Clock,
        position: &Position,
        explicit: Option<Duration>,
        pace: Option<u32>,
    ) -> Limits {
        let allotment = clock.allotment(position, pace);
        Limits {
            time: Some(explicit.map_or(allotment, |t| t.min(allotment))),
            clock: Some(clock),
            ..self
        }
    }
}

/// A flag that ends a search when raised, shared with the thread that raises it. It lives as
/// long as the program (one per engine session), so [`Limits`] stays `Copy`.
#[derive(Clone, Copy)]
pub struct StopFlag(&'static AtomicBool);

impl StopFlag {
    /// A new, lowered flag (leaked: make one per session, not one per search).
    pub fn new() -> StopFlag {
        StopFlag(Box::leak(Box::new(AtomicBool::new(false))))
    }

    /// Asks the search to stop.
    pub fn raise(self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag for the next search.
    pub fn lower(self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn is_raised(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Default for StopFlag {
    fn default() -> StopFlag {
        StopFlag::new()
    }
}

impl PartialEq for StopFlag {
    fn eq(&self, other: &StopFlag) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for StopFlag {}

impl fmt::Debug for StopFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StopFlag({})", self.is_raised())
    }
}

/// Time kept back from a time limit for joining threads and picking the move. The limit is a
/// promise (tests check `t + 5 ms`), so the search aims a little short of it.
const SAFETY: Duration = Duration::from_millis(1);

/// A running search's allowance, checked between iterations.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    limit: Option<Instant>,
    iterations: Option<u64>,
    stop: Option<StopFlag>,
}

impl Budget {
    /// Starts the clock now.
    pub fn start(limits: Limits) -> Budget {
        let start = Instant::now();
        let deadline = limits.time.map(|time| {
            let safety = SAFETY.min(time / 4);
            start + time.saturating_sub(safety)
        });
        Budget {
            start,
            deadline,
            limit: limits.time.map(|time| start + time),
            iterations: limits.iterations,
            stop: limits.stop,
        }
    }

    /// The part of this budget for searcher `share` of `threads`: the same clock, the
    /// iterations divided, the first searchers taking the remainder.
    pub fn split(self, share: usize, threads: usize) -> Budget {
        let threads = threads.max(1) as u64;
        let iterations = self
            .iterations
            .map(|n| n / threads + u64::from((share as u64) < n % threads));
        Budget { iterations, ..self }
    }

    /// Whether a searcher that has done `done` iterations must stop.
    #[inline]
    pub fn exhausted(&self, done: u64) -> bool {
        self.out_of_iterations(done) || self.out_of_time()
    }

    /// Whether `done` iterations use up the iteration limit (cheap: no clock read).
    #[inline]
    pub fn out_of_iterations(&self, done: u64) -> bool {
        self.iterations.is_some_and(|n| done >= n)
    }

    /// How many iterations a searcher that has done `done` may still do (`u64::MAX` without
    /// an iteration limit).
    #[inline]
    pub fn iterations_left(&self, done: u64) -> u64 {
        self.iterations.map_or(u64::MAX, |n| n.saturating_sub(done))
    }

    /// Whether the time is up (reads the clock: about 20 ns), or the stop flag is raised.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.stop.is_some_and(StopFlag::is_raised)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The moment the search must stop by, if it has a time limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The time limit itself (the deadline plus the safety margin): helper threads' results
    /// are waited for until then, and no longer, so that one the system has descheduled
    /// cannot make the answer late.
    pub fn answer_by(&self) -> Option<Instant> {
        self.limit
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_are_shared_without_loss() {
        let limits = Limits {
            iterations: Some(10),
            ..Limits::default()
        };
        let parts: Vec<u64> = (0..3)
            .map(|t| Budget::start(limits).split(t, 3).iterations.unwrap())
            .collect();
        assert_eq!(parts, [4, 3, 3]);
        let budget = Budget::start(limits);
        assert!(!budget.exhausted(9));
        assert!(budget.exhausted(10));
    }

    #[test]
    fn a_time_limit_expires() {
        let limits = Limits {
            time: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        let budget = Budget::start(limits);
        assert!(!budget.exhausted(u64::MAX - 1));
        std::thread::sleep(Duration::from_millis(6));
        assert!(budget.exhausted(0));
    }

    #[test]
    fn a_raised_flag_stops_a_search_without_limits() {
        let stop = StopFlag::new();
        let budget = Budget::start(Limits {
            stop: Some(stop),
            ..Limits::default()
        });
        assert!(!budget.exhausted(u64::MAX - 1));
        stop.raise();
        assert!(budget.exhausted(0));
        stop.lower();
        assert!(!budget.exhausted(0));
    }
}

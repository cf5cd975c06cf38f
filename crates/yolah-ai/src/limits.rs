//! How long a player may think: [`Limits`] as asked for, [`Budget`] as a search checks it.

use std::time::{Duration, Instant};

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
}

/// Time kept back from a time limit for joining threads and picking the move. The limit is a
/// promise (tests check `t + 5 ms`), so the search aims a little short of it.
const SAFETY: Duration = Duration::from_millis(1);

/// A running search's allowance, checked between iterations.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    iterations: Option<u64>,
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
            iterations: limits.iterations,
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

    /// Whether the time is up (reads the clock: about 20 ns).
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The moment the search must stop by, if it has a time limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
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
}

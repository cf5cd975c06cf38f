//! One search per thread, each on its own state. The calling thread searches the first state;
//! helpers search the others on threads of their own, and the answer never waits for a helper
//! past the deadline: a helper the system has descheduled is left to notice the stop by
//! itself, and its state stays locked until it has (the next search's helper waits for it
//! then, not the caller).

use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The search states of a player, one per thread.
pub(crate) struct Threads<S> {
    states: Vec<Arc<Mutex<S>>>,
}

/// Locks a state, whatever became of an earlier holder.
fn lock<S>(state: &Mutex<S>) -> MutexGuard<'_, S> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S: Send + 'static> Threads<S> {
    /// The states, the first for the caller's thread.
    pub(crate) fn new(states: impl IntoIterator<Item = S>) -> Threads<S> {
        let states: Vec<_> = states
            .into_iter()
            .map(|s| Arc::new(Mutex::new(s)))
            .collect();
        assert!(!states.is_empty(), "a search has at least one thread");
        Threads { states }
    }

    /// The number of threads.
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// The caller's state (the first), which no helper ever holds: at once.
    pub(crate) fn first(&self) -> MutexGuard<'_, S> {
        lock(&self.states[0])
    }

    /// Every state in turn, once any helper still running on it has finished.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&mut S)) {
        for state in &self.states {
            f(&mut lock(state));
        }
    }

    /// Runs `main` on the first state on this thread, and `helper(i, state)` on the others on
    /// threads of their own (a thread the system refuses to start is left out). Returns the
    /// main result and, in thread order, the helpers' results that have come by `wait_until`
    /// (all of them when it is `None`); `None` for a helper that is late.
    pub(crate) fn run<M, R: Send + 'static>(
        &self,
        main: impl FnOnce(&mut S) -> M,
        helper: impl Fn(usize, &mut S) -> R + Send + Sync + 'static,
        wait_until: Option<Instant>,
    ) -> (M, Vec<Option<R>>) {
        let helper = Arc::new(helper);
        let (sender, results) = mpsc::channel();
        let mut started = 0;
        for (i, state) in self.states.iter().enumerate().skip(1) {
            let (state, helper, sender) = (Arc::clone(state), Arc::clone(&helper), sender.clone());
            let spawned = std::thread::Builder::new().spawn(move || {
                let result = helper(i, &mut lock(&state));
                let _ = sender.send((i, result));
            });
            if spawned.is_ok() {
                started += 1;
            }
        }
        drop(sender);
        let first = main(&mut lock(&self.states[0]));
        let mut helpers: Vec<Option<R>> = (1..self.states.len()).map(|_| None).collect();
        for _ in 0..started {
            let came = match wait_until {
                None => results.recv().ok(),
                Some(deadline) => results.recv_deadline_compat(deadline),
            };
            let Some((i, result)) = came else { break };
            helpers[i - 1] = Some(result);
        }
        (first, helpers)
    }
}

/// `recv_deadline` (not yet stable) from `recv_timeout`.
trait RecvDeadline<T> {
    fn recv_deadline_compat(&self, deadline: Instant) -> Option<T>;
}

impl<T> RecvDeadline<T> for mpsc::Receiver<T> {
    fn recv_deadline_compat(&self, deadline: Instant) -> Option<T> {
        self.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_answer_does_not_wait_for_a_late_helper() {
        let threads = Threads::new([0u32, 0, 0]);
        let start = Instant::now();
        let (main, helpers) = threads.run(
            |state| {
                *state += 1;
                "main"
            },
            |i, state| {
                *state += 1;
                if i == 2 {
                    // A helper descheduled for a long time.
                    std::thread::sleep(Duration::from_millis(300));
                }
                "helper"
            },
            Some(start + Duration::from_millis(50)),
        );
        assert!(
            start.elapsed() < Duration::from_millis(250),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(main, "main");
        assert_eq!(helpers[0], Some("helper"));
        assert_eq!(helpers[1], None, "late");
        // The late helper's state is waited for by whoever needs it next.
        let mut counts = Vec::new();
        threads.for_each(|state| counts.push(*state));
        assert_eq!(counts, [1, 1, 1]);
        // Without a deadline every helper is waited for.
        let (_, helpers) = threads.run(|_| 0, |i, _| i, None);
        assert_eq!(helpers, [Some(1), Some(2)]);
    }
}

//! Search slots shared fairly between clients: each client address holds at most its share
//! of the slots ([`share`]), and a slot set free goes to the waiting client that holds the
//! fewest and was served longest ago (so clients are served in turn, whatever number of boards
//! each opens). An analysis, which would think for minutes, gives its slot up after a turn
//! ([`TURN`]) when anyone waits, and queues again (see `server.rs`).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::oneshot;

/// The most of a server-wide cap one client address may hold: an eighth, but at least
/// [`ADDRESS_FLOOR`] (a person's few tabs on a small server), or the whole cap if smaller.
pub const ADDRESS_SHARE: usize = 8;
/// See [`ADDRESS_SHARE`].
pub const ADDRESS_FLOOR: usize = 4;

/// What one client address may hold of a server-wide `cap`.
pub fn share(cap: usize) -> usize {
    cap.div_ceil(ADDRESS_SHARE)
        .max(ADDRESS_FLOOR.min(cap))
        .max(1)
}

/// How long an analysis searches before it gives its slot to a waiting search.
pub const TURN: Duration = Duration::from_secs(5);

/// Slots of searches, shared between clients (`None`: a client whose address is not known,
/// counted as one).
pub struct Slots {
    per_client: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    free: usize,
    held: HashMap<Option<IpAddr>, usize>,
    /// When each client was last given a slot (a count of slots given).
    served: HashMap<Option<IpAddr>, u64>,
    given: u64,
    waiting: VecDeque<Waiter>,
}

struct Waiter {
    client: Option<IpAddr>,
    wake: oneshot::Sender<Permit>,
}

/// A slot held; given back when dropped.
pub struct Permit {
    /// None once given back.
    slots: Option<Arc<Slots>>,
    client: Option<IpAddr>,
}

impl Slots {
    /// `capacity` slots, each client holding at most [`share`] of them.
    pub fn new(capacity: usize) -> Arc<Slots> {
        let capacity = capacity.max(1);
        Arc::new(Slots {
            per_client: share(capacity),
            state: Mutex::new(State {
                free: capacity,
                ..State::default()
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for `client`, when its turn comes.
    pub async fn acquire(self: &Arc<Slots>, client: Option<IpAddr>) -> Permit {
        let (wake, woken) = oneshot::channel();
        {
            let mut state = self.lock();
            state.waiting.push_back(Waiter { client, wake });
            self.dispatch(&mut state);
        }
        // The sender is dropped only with its permit given: a waiter is never forgotten.
        woken.await.expect("a waiter is woken with its permit")
    }

    /// Whether some search waits for a slot.
    pub fn anyone_waiting(&self) -> bool {
        self.waiting() > 0
    }

    /// How many searches wait for a slot.
    pub fn waiting(&self) -> usize {
        let mut state = self.lock();
        // Waiters whose search was dropped are no one.
        state.waiting.retain(|w| !w.wake.is_closed());
        state.waiting.len()
    }

    /// Gives free slots to the waiters whose turn it is.
    fn dispatch(self: &Arc<Slots>, state: &mut State) {
        while state.free > 0 {
            let next = state
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| state.held.get(&w.client).copied().unwrap_or(0) < self.per_client)
                .min_by_key(|&(at, w)| {
                    (
                        state.held.get(&w.client).copied().unwrap_or(0),
                        state.served.get(&w.client).copied().unwrap_or(0),
                        at,
                    )
                })
                .map(|(at, _)| at);
            let Some(at) = next else { break };
            let waiter = state.waiting.remove(at).expect("found above");
            state.given += 1;
            let given = state.given;
            state.served.insert(waiter.client, given);
            *state.held.entry(waiter.client).or_insert(0) += 1;
            state.free -= 1;
            let permit = Permit {
                slots: Some(Arc::clone(self)),
                client: waiter.client,
            };
            if let Err(mut permit) = waiter.wake.send(permit) {
                // Its search was dropped while it waited: the slot is not taken (given back
                // here, under this lock, not by the permit's drop).
                permit.slots = None;
                Slots::give_back(state, waiter.client);
            }
        }
        if state.served.len() > 10_000 {
            // Forget the clients that hold nothing and wait for nothing.
            let State {
                served,
                held,
                waiting,
                ..
            } = state;
            served.retain(|c, _| held.contains_key(c) || waiting.iter().any(|w| w.client == *c));
        }
    }

    fn give_back(state: &mut State, client: Option<IpAddr>) {
        state.free += 1;
        if let Some(held) = state.held.get_mut(&client) {
            *held -= 1;
            if *held == 0 {
                state.held.remove(&client);
            }
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let Some(slots) = self.slots.take() else {
            return;
        };
        let mut state = slots.lock();
        Slots::give_back(&mut state, self.client);
        slots.dispatch(&mut state);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unnecessary_wraps, reason = "clients are `Option`s")]
    use super::*;

    /// The client of loopback address 127.0.0.`last`.
    fn ip(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([127, 0, 0, last]))
    }

    #[tokio::test]
    async fn clients_are_served_in_turn_within_their_share() {
        assert_eq!(
            (share(1), share(2), share(8), share(40), share(200)),
            (1, 2, 4, 5, 25)
        );
        let slots = Slots::new(1);
        let first = slots.acquire(ip(2)).await;
        // Two more of the same client wait, then another client.
        let same = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.acquire(ip(2)).await }
        });
        tokio::task::yield_now().await;
        let other = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.acquire(ip(3)).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(slots.anyone_waiting());
        drop(first);
        // The other client goes first: it was never served.
        let other = other.await.unwrap();
        assert!(!same.is_finished());
        drop(other);
        let same = same.await.unwrap();
        drop(same);
        assert!(!slots.anyone_waiting());
        assert_eq!(slots.lock().free, 1);
    }

    #[tokio::test]
    async fn a_client_holds_no_more_than_its_share() {
        let slots = Slots::new(16);
        let mut held = Vec::new();
        for _ in 0..share(16) {
            held.push(slots.acquire(ip(2)).await);
        }
        let more = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.acquire(ip(2)).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!more.is_finished(), "over its share while slots are free");
        // Another client is served at once.
        let _other = slots.acquire(ip(3)).await;
        held.pop();
        more.await.unwrap();
    }

    #[tokio::test]
    async fn a_dropped_waiter_takes_no_slot() {
        let slots = Slots::new(1);
        let first = slots.acquire(ip(2)).await;
        let gone = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.acquire(ip(3)).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        gone.abort();
        let _ = gone.await;
        assert!(!slots.anyone_waiting());
        drop(first);
        let _again = slots.acquire(ip(4)).await;
        assert_eq!(slots.lock().free, 0);
    }
}

//! One search per thread, each on its own state; the calling thread runs the first.

/// Runs `search(i, &mut states[i])` for every state, each on its own scoped thread except the
/// first, which runs on the caller's (a one-thread search spawns nothing). Results in order.
/// A thread the system refuses to start (a process limit) is left out: the search goes on with
/// the threads it has, at least the caller's.
pub(crate) fn for_each_state<S, R, F>(states: &mut [S], search: F) -> Vec<R>
where
    S: Send,
    R: Send,
    F: Fn(usize, &mut S) -> R + Sync,
{
    let search = &search;
    std::thread::scope(|scope| {
        let (first, rest) = states
            .split_first_mut()
            .expect("a search has at least one thread");
        let handles: Vec<_> = rest
            .iter_mut()
            .enumerate()
            .filter_map(|(i, state)| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || search(i + 1, state))
                    .ok()
            })
            .collect();
        let mut results = vec![search(0, first)];
        results.extend(
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked")),
        );
        results
    })
}

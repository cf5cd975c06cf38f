//! What the tests of several crates share, written once: watching the processes an engine
//! starts, and the four enemies of every writer ([`writers`]). Dev-only: crates list it under
//! `[dev-dependencies]`.

pub mod writers;

use std::time::{Duration, Instant};

/// How long processes are given to end before a test says they were left running: generous,
/// so that a busy machine does not fail a test that only waits.
pub const END_WITHIN: Duration = Duration::from_secs(10);

/// Whether process `pid` still runs (a zombie has ended).
pub fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    })
}

/// Waits until none of `pids` runs, failing after [`END_WITHIN`] with those left.
pub fn assert_all_end<'a>(pids: impl IntoIterator<Item = &'a str>) {
    let pids: Vec<&str> = pids.into_iter().filter(|p| !p.trim().is_empty()).collect();
    let deadline = Instant::now() + END_WITHIN;
    while pids.iter().any(|pid| alive(pid)) {
        assert!(
            Instant::now() < deadline,
            "left running: {:?}",
            pids.iter().filter(|p| alive(p)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_an_ended_child_is_not() {
        assert!(alive(&std::process::id().to_string()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id().to_string();
        child.wait().unwrap();
        assert!(!alive(&pid));
        assert_all_end([pid.as_str()]);
    }
}

//! What the tests of several crates share, written once: watching the processes an engine
//! starts, and the four enemies of every writer ([`writers`]). Dev-only: crates list it under
//! `[dev-dependencies]`.

pub mod writers;

use std::time::{Duration, Instant};

/// How long processes are given to end before a test says they were left running: generous,
/// so that a busy machine does not fail a test that only waits.
pub const END_WITHIN: Duration = Duration::from_secs(10);

/// Every `.rs` file under `dir`, in no particular order, passing over generated tables
/// (`tables/`), build output (`target/`) and hidden folders: what the tests that read the
/// workspace's own code (its imports, writers, comments, file sizes) read.
pub fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("a readable entry").path();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                if name != "tables" && name != "target" && !name.starts_with('.') {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found
}

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

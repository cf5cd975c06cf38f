//! An `engine:` player whose program floods its output forfeits at its deadline, and the
//! lines it floods with never fill our memory. Alone in its binary, so the
//! memory it measures is its own.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use yolah_ai::players::engine::{Engine, START_TIMEOUT};
use yolah_ai::{Forfeit, Limits, Player};
use yolah_core::Position;

/// The resident memory of this process, MiB.
fn resident_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024
}

/// A move asked of the flooding engine in `mode` with `limits`, given at most `within` to
/// answer (a player that never answers fails here rather than hanging the suite): the
/// forfeit and how long it took.
fn flood(mode: &str, limits: Limits, within: Duration) -> (Forfeit, Duration) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flooding_engine.sh");
    let command: Vec<String> = ["sh", script.to_str().unwrap(), mode]
        .map(String::from)
        .to_vec();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut engine = Engine::new(command, Duration::from_millis(200), true);
        let start = Instant::now();
        let result = engine.try_choose(&Position::start(), limits);
        let _ = sender.send((result, start.elapsed()));
    });
    let (result, took) = receiver
        .recv_timeout(within)
        .unwrap_or_else(|_| panic!("{mode}: no answer within {within:?}"));
    (result.expect_err("the flooding engine never moves"), took)
}

#[test]
fn a_flooding_engine_forfeits_at_its_deadline_in_bounded_memory() {
    let before = resident_mb();
    let limits = Limits {
        time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let (forfeit, took) = flood("go", limits, Duration::from_secs(30));
    assert!(forfeit.reason.contains("no move within"), "{forfeit}");
    // 100 ms and the 200 ms margin, and the process's end; far less than a busy machine's
    // worst, far more than the flood would allow without the fix.
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (forfeit, took) = flood("handshake", limits, START_TIMEOUT * 3);
    assert!(
        forfeit.reason.contains("before 'yeiok'") || forfeit.reason.contains("no 'yeiok'"),
        "{forfeit}"
    );
    assert!(took <= START_TIMEOUT + Duration::from_secs(5), "{took:?}");
    let grown = resident_mb().saturating_sub(before);
    assert!(grown < 200, "memory grew by {grown} MiB");
}

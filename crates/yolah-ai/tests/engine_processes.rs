//! An `engine:` player's program and everything it starts end with the game, however the game
//! ends; the thread that reads the program's output and its pipe end with them. One test alone
//! in its binary, so that the threads and files it counts are its own.

use std::path::Path;
use std::time::Duration;
use yolah_ai::players::engine::Engine;
use yolah_ai::{Limits, Player};
use yolah_core::{Move, Position};

fn count(dir: &str) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn a_program_and_its_helpers_end_with_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/forking_engine.sh");
    let command: Vec<String> = ["sh", script.to_str().unwrap(), pids.to_str().unwrap()]
        .map(String::from)
        .to_vec();
    let limits = Limits {
        time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    // One game first, so that lazily made threads of the process exist before counting.
    let warm_up = |forfeit: bool| {
        let mut engine = Engine::new(command.clone(), Duration::from_millis(500), true);
        let position = if forfeit {
            // After a1:c3 black's move in this position is not a1:c3: a forfeit, and a restart.
            let mut p = Position::start();
            p.play("a1:c3".parse::<Move>().unwrap());
            p.play(p.moves()[0]);
            p
        } else {
            Position::start()
        };
        let result = engine.try_choose(&position, limits);
        assert_eq!(result.is_err(), forfeit, "{:?}", result.err());
        if let Ok(report) = result {
            assert_eq!(report.mv.to_string(), "a1:c3");
        }
    };
    warm_up(false);
    let (threads, files) = (count("/proc/self/task"), count("/proc/self/fd"));
    for game in 0..10 {
        // Games that end normally, and games lost by forfeit.
        warm_up(game % 2 == 1);
    }
    assert_eq!(count("/proc/self/task"), threads, "no thread left behind");
    assert_eq!(count("/proc/self/fd"), files, "no pipe left open");
    let started = std::fs::read_to_string(&pids).unwrap();
    let helpers: Vec<&str> = started.lines().collect();
    assert!(helpers.len() >= 11, "{started}");
    yolah_testkit::assert_all_end(helpers);
}

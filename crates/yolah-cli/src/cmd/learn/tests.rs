//! The unit tests of `learn.rs`.

use super::*;

/// The test plays the config's openings: a suite file left from other openings (a config
/// changed between generations) is written again, an equal one left alone.
#[test]
fn the_suite_file_follows_the_configs_openings() {
    let dir = tempfile::tempdir().unwrap();
    let first = vec!["startpos moves a1:c3".to_string()];
    let path = suite_file(dir.path(), &first).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "startpos moves a1:c3\n"
    );
    let changed = vec!["startpos moves h1:f3".to_string(), "startpos".to_string()];
    suite_file(dir.path(), &changed).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "startpos moves h1:f3\nstartpos\n"
    );
    let written = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    suite_file(dir.path(), &changed).unwrap();
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        written
    );
}

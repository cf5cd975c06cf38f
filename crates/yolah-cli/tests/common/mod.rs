//! Running the `yolah` binary as a user would, shared by the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn yolah(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A program may refuse its input before reading all of it (a bounded read).
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A failure: non-zero exit, one line on stderr containing `expected`, no panic.
pub fn assert_clean_error(output: &Output, expected: &str) {
    let err = stderr(output);
    assert!(!output.status.success(), "should fail: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(expected),
        "'{err}' should contain '{expected}'"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// The rows of a record file (`match --out`, a tournament's games.csv) as maps from column to
/// value.
pub fn rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|row| {
            let row = row.unwrap();
            header
                .iter()
                .zip(row.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The command line of `yolah engine` behind `tests/data/relay_engine.sh`, which appends each
/// line it receives to `log`; `mode` is `log` (lines pass unchanged) or `ignore` (every `go`
/// becomes a fixed move time: a program that ignores its clock).
pub fn relay_command(log: &std::path::Path, mode: &str) -> String {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/relay_engine.sh");
    format!(
        "sh {} {} {} {mode}",
        script.display(),
        env!("CARGO_BIN_EXE_yolah"),
        log.display()
    )
}

/// The paths of the files under `dir`.
pub fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path.display().to_string());
            }
        }
    }
    files
}

//! No hand-written file of the workspace is over 1,000 lines: past that a reader no longer
//! finds the room for a change in a minute. Generated tables (`tables/`) are left out.

use std::path::{Path, PathBuf};

/// The most lines a hand-written source file may have.
const MAX_LINES: usize = 1_000;

/// Every `.rs` file under `dir`, generated tables aside.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tables" && name != "target" && !name.starts_with('.') {
                sources(&path, found);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn no_hand_written_file_is_over_a_thousand_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for folder in ["crates", "xtask", "benches"] {
        sources(&root.join(folder), &mut files);
    }
    assert!(files.len() > 200, "{} files", files.len());
    let mut long = Vec::new();
    for path in files {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        if lines > MAX_LINES {
            long.push(format!(
                "{}: {lines} lines",
                path.strip_prefix(&root).unwrap().display()
            ));
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:#?}");
}

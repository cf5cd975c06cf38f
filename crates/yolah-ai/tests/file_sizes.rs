//! No hand-written file of the workspace is over 1,000 lines: past that a reader no longer
//! finds the room for a change in a minute. Generated tables (`tables/`) are left out.

use std::path::Path;

/// The most lines a hand-written source file may have.
const MAX_LINES: usize = 1_000;

#[test]
fn no_hand_written_file_is_over_a_thousand_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for folder in ["crates", "xtask", "benches"] {
        files.extend(yolah_testkit::rust_files(&root.join(folder)));
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

//! Every file a user keeps is written through the one durable writer
//! (`yolah_ai::files::write_durably`): a whole-file write anywhere else in the workspace's code
//! (`fs::write`, `File::create`; unit tests and the test kit aside) fails this test, so that the
//! next writer cannot forget to sync, to use a name of its own, or to rename.
//! (Appending writers — records, PGN, training data, puzzles — open with `OpenOptions` and
//! sync each whole append; they have tests of their own against a kill and a full disk.)

use std::path::{Path, PathBuf};

/// The calls that write a whole file in place.
const FORBIDDEN: [&str; 2] = ["fs::write(", "File::create("];

/// The one file allowed to write files whole: the durable writer's.
const WRITER: &str = "crates/yolah-ai/src/files.rs";

/// The forbidden calls in `text` (a source file), as `line: code`, unit tests left out (a
/// file's `#[cfg(test)]` module is its last item).
fn whole_file_writes(text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| FORBIDDEN.iter().any(|call| line.contains(call)))
        .map(|(i, line)| format!("{}: {}", i + 1, line.trim()))
        .collect()
}

/// The files of `files` that are unit-test modules of their own: declared by their parent as
/// `#[cfg(test)]` then `mod NAME;` (`NAME.rs` beside a `mod.rs`, or in the folder named after
/// the parent's file).
fn test_modules(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            let Some(name) = pair[1]
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'))
            else {
                continue;
            };
            if pair[0] != "#[cfg(test)]" {
                continue;
            }
            let stem = path.file_stem().unwrap();
            let folder = if stem == "mod" || stem == "lib" || stem == "main" {
                path.parent().unwrap().to_path_buf()
            } else {
                path.with_extension("")
            };
            found.push(folder.join(format!("{name}.rs")));
        }
    }
    found
}

#[test]
fn no_file_a_user_keeps_is_written_but_through_the_durable_writer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        if krate.ends_with("yolah-testkit") || !krate.join("src").is_dir() {
            continue;
        }
        files.extend(yolah_testkit::rust_files(&krate.join("src")));
    }
    assert!(files.len() > 100, "{} source files", files.len());
    let unit_tests = test_modules(&files);
    assert!(
        unit_tests.iter().any(|p| p.ends_with("arena/pgn/tests.rs")),
        "{unit_tests:?}"
    );
    let mut offenders = Vec::new();
    for path in files {
        if unit_tests.contains(&path) {
            continue;
        }
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if relative == WRITER {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for write in whole_file_writes(&text) {
            offenders.push(format!("{relative}:{write}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "files written in place, not through yolah_ai::files::write_durably:\n{}",
        offenders.join("\n")
    );
}

/// The check sees a write, and not one in a comment or a unit test.
#[test]
fn the_check_finds_a_planted_write() {
    let planted = "fn save() {\n    std::fs::write(path, bytes)?;\n}\n";
    assert_eq!(
        whole_file_writes(planted),
        ["2: std::fs::write(path, bytes)?;"]
    );
    let created = "let f = File::create(&path)?;";
    assert_eq!(whole_file_writes(created).len(), 1);
    let commented = "// std::fs::write(path, bytes) would not sync\n";
    assert!(whole_file_writes(commented).is_empty());
    let tested =
        "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn t() { std::fs::write(p, b).unwrap(); }\n}\n";
    assert!(whole_file_writes(tested).is_empty());
}

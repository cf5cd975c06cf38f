//! The code's comments say why, never which issue: a reader has no issue tracker. A test so
//! that the next comment cannot point at one.

use std::path::Path;

/// The places in `text` that name an issue by its number (`issue 42`, `Issues 31`).
fn issue_numbers(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    for (at, _) in lower.match_indices("issue") {
        let rest = &lower[at + "issue".len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            let line = text[..at].matches('\n').count() + 1;
            found.push(format!("line {line}"));
        }
    }
    found
}

#[test]
fn no_comment_names_an_issue_by_number() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        for part in ["src", "tests", "benches", "examples"] {
            if krate.join(part).is_dir() {
                files.extend(yolah_testkit::rust_files(&krate.join(part)));
            }
        }
    }
    files.extend(yolah_testkit::rust_files(&root.join("xtask/src")));
    assert!(files.len() > 150, "{} files", files.len());
    let me = Path::new(file!()).file_name().unwrap();
    let mut offenders = Vec::new();
    for path in files {
        if path.file_name() == Some(me) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for place in issue_numbers(&text) {
            offenders.push(format!("{}: {place}", path.display()));
        }
    }
    assert!(offenders.is_empty(), "issue numbers: {offenders:#?}");
}

#[test]
fn a_planted_issue_number_is_found() {
    assert_eq!(issue_numbers("// Issue 42, item 3: why"), ["line 1"]);
    assert_eq!(issue_numbers("a\n/// (issues 31 and 43)"), ["line 2"]);
    assert!(issue_numbers("// the issue is the clock; issues of 3 kinds").is_empty());
}

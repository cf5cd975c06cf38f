//! The house's one-way rule, checked: no file of a crate imports a file that imports it back.
//!
//! Each source file is a node; every path the code names (unit tests excluded) is an edge to
//! the file that defines the path's module: `crate::…`, `super::…` and `self::…` wherever they
//! appear, and bare paths that start at a child module (`use child::…`, `child::f(…)`), so a
//! call through a bare path is seen as well as a `use` line. A
//! strongly connected component of more than one file is an import circle (STYLE.md: "a file
//! never imports something that imports it back").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src`, by its module path (`[]` for `lib.rs`/`main.rs`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            let mut segments: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let file = segments.pop().unwrap();
            let stem = file.trim_end_matches(".rs");
            if !matches!(stem, "mod" | "lib" | "main") {
                segments.push(stem.to_string());
            }
            if segments.is_empty() && stem == "main" && src.join("lib.rs").exists() {
                continue; // a binary beside a library is its own crate
            }
            found.insert(segments, path);
        }
    }
    found
}

/// The code of a file without comments, string contents and its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a `use`-style tree starting at `text` names, each as its segments after `prefix`:
/// `a::b::{c, d::e}` gives `a::b::c` and `a::b::d::e`.
fn paths(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut at = 0;
    let mut path = prefix.to_vec();
    let bytes: Vec<char> = text.chars().collect();
    loop {
        while at < bytes.len() && bytes[at].is_whitespace() {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == '{' {
            at += 1;
            loop {
                let rest: String = bytes[at..].iter().collect();
                at += paths(&rest, &path, out);
                while at < bytes.len() && (bytes[at].is_whitespace() || bytes[at] == ',') {
                    at += 1;
                }
                if at >= bytes.len() || bytes[at] == '}' {
                    return at + 1;
                }
            }
        }
        let start = at;
        while at < bytes.len() && is_ident(bytes[at]) {
            at += 1;
        }
        if at == start {
            out.push(path);
            return at;
        }
        path.push(bytes[start..at].iter().collect());
        if bytes.get(at) == Some(&':') && bytes.get(at + 1) == Some(&':') {
            at += 2;
        } else {
            out.push(path);
            return at;
        }
    }
}

/// The files `file` (module `module`) imports.
fn imports(
    module: &[String],
    is_mod_file: bool,
    text: &str,
    all: &BTreeMap<Vec<String>, PathBuf>,
) -> Vec<Vec<String>> {
    let text = code(text);
    // The module `self` names: a `mod.rs` is its folder's module.
    let here = module.to_vec();
    let parent = if is_mod_file || module.is_empty() {
        module[..module.len().saturating_sub(1)].to_vec()
    } else {
        module[..module.len() - 1].to_vec()
    };
    let mut named = Vec::new();
    for (keyword, base) in [
        ("crate::", Vec::new()),
        ("super::", parent.clone()),
        ("self::", here.clone()),
    ] {
        for (at, _) in text.match_indices(keyword) {
            if text[..at].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            paths(&text[at + keyword.len()..], &base, &mut named);
        }
    }
    // A bare path whose first segment is a child module (`use child::…`, `child::f(…)`,
    // `child::Type`) names that child: a call through a bare path is an import too.
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let starts = is_ident(c)
            && !c.is_ascii_digit()
            && (i == 0 || {
                let before = chars[i - 1].1;
                !is_ident(before) && before != ':'
            });
        if !starts {
            continue;
        }
        let first: String = text[at..].chars().take_while(|&c| is_ident(c)).collect();
        if !text[at + first.len()..].starts_with("::") {
            continue;
        }
        let mut child = here.clone();
        child.push(first);
        if all.contains_key(&child) {
            paths(&text[at..], &here, &mut named);
        }
    }
    named
        .into_iter()
        .filter_map(|path| {
            (0..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|prefix| all.contains_key(prefix))
        })
        .filter(|target| target != module)
        .collect()
}

/// Strongly connected components of more than one node (Tarjan).
fn circles(edges: &BTreeMap<usize, Vec<usize>>, count: usize) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges.get(&v).map_or(&[][..], Vec::as_slice) {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: vec![None; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..count {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.found
}

/// The import circles of the crate whose sources are in `src`, each as its files.
fn import_circles(src: &Path) -> Vec<Vec<String>> {
    let all = modules(src);
    let keys: Vec<&Vec<String>> = all.keys().collect();
    let mut edges = BTreeMap::new();
    for (i, module) in keys.iter().enumerate() {
        let path = &all[*module];
        let text = std::fs::read_to_string(path).unwrap();
        let is_mod_file = path.file_name().is_some_and(|n| n == "mod.rs");
        let targets = imports(module, is_mod_file, &text, &all);
        let mut targets: Vec<usize> = targets
            .iter()
            .map(|t| keys.iter().position(|k| *k == t).unwrap())
            .collect();
        targets.sort_unstable();
        targets.dedup();
        edges.insert(i, targets);
    }
    circles(&edges, keys.len())
        .into_iter()
        .map(|component| {
            let mut files: Vec<String> = component
                .into_iter()
                .map(|i| {
                    all[keys[i]]
                        .strip_prefix(src)
                        .unwrap()
                        .display()
                        .to_string()
                })
                .collect();
            files.sort();
            files
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_circle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut report = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        checked += 1;
        for circle in import_circles(&src) {
            report.push(format!(
                "{}: {} files: {}",
                src.display(),
                circle.len(),
                circle.join(" ")
            ));
        }
    }
    assert!(checked >= 4, "found only {checked} crates");
    assert!(report.is_empty(), "import circles:\n{}", report.join("\n"));
}

#[test]
fn a_planted_circle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(
        src.join("a/mod.rs"),
        "pub mod x;\nuse crate::b::{B, c::D};\n",
    )
    .unwrap();
    std::fs::write(src.join("a/x.rs"), "// use crate::b;\npub struct X;\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "pub fn f() -> super::a::x::X { todo() }\n",
    )
    .unwrap();
    assert!(import_circles(src).is_empty(), "b imports a/x only");
    std::fs::write(
        src.join("a/x.rs"),
        "use crate::{b::{self, B}};\npub struct X;\n",
    )
    .unwrap();
    assert_eq!(
        import_circles(src),
        vec![vec!["a/x.rs".to_string(), "b.rs".to_string()]]
    );
}

#[test]
fn a_planted_circle_through_a_bare_path_is_found() {
    // The CLI's old circle in small: `cmd` calls its child `tournament` by a bare path, the
    // child names `crate::slurm`, and `slurm` names `crate::cmd` back.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("cmd")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod cmd;\npub mod slurm;\n").unwrap();
    std::fs::write(
        src.join("cmd/mod.rs"),
        "mod tournament;\npub fn run() { let _ = tournament::games(1); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("cmd/tournament.rs"),
        "pub fn games(n: u32) -> u32 { crate::slurm::submit(n) }\n",
    )
    .unwrap();
    std::fs::write(src.join("slurm.rs"), "pub fn submit(n: u32) -> u32 { n }\n").unwrap();
    assert!(import_circles(src).is_empty(), "slurm names nothing back");
    std::fs::write(
        src.join("slurm.rs"),
        "pub fn submit(n: u32) -> u32 { if n == 0 { crate::cmd::run(); } n }\n",
    )
    .unwrap();
    assert_eq!(
        import_circles(src),
        vec![vec![
            "cmd/mod.rs".to_string(),
            "cmd/tournament.rs".to_string(),
            "slurm.rs".to_string()
        ]]
    );
    // A path that only looks like a child (a field, a method, a string) is not one.
    std::fs::write(
        src.join("cmd/mod.rs"),
        "mod tournament;\npub fn run() { let x = self.tournament; let _ = a::tournament::f; }\n",
    )
    .unwrap();
    assert!(import_circles(src).is_empty(), "no bare path to the child");
}

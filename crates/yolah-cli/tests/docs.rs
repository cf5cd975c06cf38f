//! The examples of the README and the guide print what the program prints today. Every
//! ```console block is run: each `$ yolah …` line is a command (run from the workspace root),
//! the lines under it its standard output. In an expected line `…` stands for any text (a
//! time, a rate); a line that is only `…` stands for any number of lines; a line with a
//! `  # stderr` comment shows what goes to stderr and is not compared. Examples whose output varies from
//! run to run (time-limited searches) are in ```sh blocks, and say so.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The user guide's pages (`docs/guide/*.md`), as paths from the root, in name order.
fn guide_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs/guide"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| extension(Path::new(name)) == "md")
        .map(|name| format!("docs/guide/{name}"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 8, "{pages:?}");
    pages
}

/// One command of a console block and the lines it should print.
struct Example {
    file: String,
    line: usize,
    args: Vec<String>,
    expected: Vec<String>,
}

fn examples(file: &str) -> Vec<Example> {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let mut examples = Vec::new();
    let mut in_console = false;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ yolah ") {
            examples.push(Example {
                file: file.to_string(),
                line: number + 1,
                args: shell_words::split(command).unwrap(),
                expected: Vec::new(),
            });
        } else if let Some(example) = examples.last_mut()
            && !line.contains("  # stderr")
        {
            example.expected.push(line.to_string());
        }
    }
    examples
}

/// Whether `actual` is `expected` with each `…` standing for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the lines `actual` are `expected`, a line `…` standing for any number of lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, others)| line_matches(first, line) && lines_match(rest, others)),
    }
}

/// A scratch directory that looks like the workspace (a link to each of its top-level
/// entries), so that examples read the shipped files and write theirs (`--out my-data`) where
/// they can neither litter the tree nor find a previous run's output.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root()).unwrap() {
        let entry = entry.unwrap();
        std::os::unix::fs::symlink(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    dir
}

#[test]
fn the_documented_outputs_are_what_the_program_prints() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in ["README.md", "docs/guide.md"]
        .into_iter()
        .map(String::from)
        .chain(guide_pages())
    {
        let scratch = scratch();
        for example in examples(&file) {
            let output = Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(&example.args)
                .current_dir(scratch.path())
                .output()
                .unwrap();
            let stdout = String::from_utf8(output.stdout).unwrap();
            let actual: Vec<&str> = stdout.lines().collect();
            let mut expected = example.expected.clone();
            while expected.last().is_some_and(|l| l.trim().is_empty()) {
                expected.pop();
            }
            if !lines_match(&expected, &actual) {
                wrong.push(format!(
                    "{}:{}: yolah {}\n--- documented\n{}\n--- printed\n{stdout}{}",
                    example.file,
                    example.line,
                    example.args.join(" "),
                    expected.join("\n"),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            checked += 1;
        }
    }
    // Every example that differs, not only the first: a change of the search changes many.
    assert!(
        wrong.is_empty(),
        "{} of {checked} examples differ:\n\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked >= 10, "{checked} examples checked");
}

#[test]
fn the_wildcards_match_what_they_should() {
    assert!(line_matches("perft(5) in … s", "perft(5) in 0.072 s"));
    assert!(!line_matches("perft(5) in … s", "perft(4) in 0.072 s"));
    assert!(line_matches("a … b … c", "a 1 b 2 c"));
    assert!(!line_matches("a … b", "a 1 c"));
    let lines = ["one", "two", "three"];
    assert!(lines_match(&["one".into(), "…".into()], &lines));
    assert!(lines_match(&["…".into(), "three".into()], &lines));
    assert!(!lines_match(&["one".into(), "three".into()], &lines));
}

/// Every path the README and the documents name, in backquotes, exists: the page that tells a
/// newcomer where things are, or where a test is, cannot point at a file that moved (the
/// guide once named `crates/yolah-ai/tests/network.rs`, which is in `yolah-train`). The lab
/// notebook is left out: it records where things were when each entry was written.
#[test]
fn the_documents_name_only_paths_that_exist() {
    let roots = ["crates/", "tables/", "xtask/", "docs/", "benches/"];
    let mut documents = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if extension(&path) == "md" && path.file_name().unwrap() != "notebook.md" {
            documents.push(path);
        }
    }
    documents.extend(guide_pages().iter().map(|page| root().join(page)));
    let mut missing = Vec::new();
    for document in &documents {
        let text = std::fs::read_to_string(document).unwrap();
        let mut named = 0;
        for (i, quoted) in text.split('`').enumerate() {
            if i % 2 == 0 || !roots.iter().any(|r| quoted.starts_with(r)) {
                continue;
            }
            named += 1;
            if !root().join(quoted).exists() {
                missing.push(format!("{}: {quoted}", document.display()));
            }
        }
        if document.ends_with("docs/architecture.md") {
            assert!(
                named >= 20,
                "only {named} paths found in the architecture page"
            );
        }
    }
    assert!(documents.len() >= 5, "{documents:?}");
    assert!(missing.is_empty(), "named but missing: {missing:?}");
}

/// Every example that shows what `yolah` prints is either checked (a `console` block, run
/// by the test above) or says why not on its first line: `# output varies: …` (time-limited
/// searches, clocks, rates) or `# not run by the tests: …` (hours of work, a server, input
/// typed at a prompt). So no deterministic example can go stale unseen.
#[test]
fn every_example_with_output_is_checked_or_says_why_not() {
    let mut unmarked = Vec::new();
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.extend(guide_pages().iter().map(|page| root().join(page)));
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut block: Option<(String, usize, Vec<&str>)> = None;
        for (number, line) in text.lines().enumerate() {
            if let Some(fence) = line.strip_prefix("```") {
                match block.take() {
                    None => block = Some((fence.trim().to_string(), number + 1, Vec::new())),
                    Some((fence, start, lines)) => {
                        if fence != "console" && shows_output(&lines) {
                            let marked = lines.first().is_some_and(|first| {
                                first.starts_with("# output varies:")
                                    || first.starts_with("# not run by the tests:")
                            });
                            if !marked {
                                unmarked.push(format!("{}:{start}", file.display()));
                            }
                        }
                    }
                }
            } else if let Some((_, _, lines)) = block.as_mut() {
                lines.push(line);
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "examples neither checked nor marked: {unmarked:#?}"
    );
}

/// Whether a block runs `yolah` and shows something it printed: a line that is neither a
/// command, the continuation of one, a comment nor blank.
fn shows_output(lines: &[&str]) -> bool {
    let mut runs_yolah = false;
    let mut continued = false;
    let mut output = false;
    for line in lines {
        let command = line.starts_with("$ ");
        if command && line.contains("yolah") {
            runs_yolah = true;
        }
        if !command && !continued && !line.trim().is_empty() && !line.starts_with('#') {
            output = true;
        }
        continued = (command || continued) && line.trim_end().ends_with('\\');
    }
    runs_yolah && output
}

/// The README's list of documents names every page in `docs/` (python.md,
/// architecture.md and pgn.md were missing).
#[test]
fn the_readme_lists_every_document() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let list = readme
        .split("## Documents")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README has a Documents section");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if extension(&path) == "md" && !list.contains(&format!("(docs/{name})")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not in the README's documents: {missing:?}"
    );
}

/// A path's extension, in lower case ("" for none).
fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// The notebook's titles (its headings and the bold words that open a paragraph).
fn notebook_titles() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/notebook.md")).unwrap();
    let mut titles = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code {
        } else if line.starts_with("##") {
            titles.push(line.trim_start_matches('#').trim().to_string());
        } else if let Some(bold) = line
            .strip_prefix("**")
            .and_then(|rest| rest.split("**").next())
        {
            titles.push(bold.trim_end_matches(['.', ':']).to_string());
        }
    }
    titles
}

/// A heading's anchor as GitHub makes it: lower case, spaces to hyphens, punctuation gone.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The notebook's sections are titled by subject, not by issue numbers a reader cannot look
/// up, and whatever points into the notebook finds what it names: a link to an
/// anchor, or a title quoted after the file's name (`docs/notebook.md`, "Game clocks").
#[test]
fn the_notebooks_sections_are_titled_by_subject_and_found_by_their_references() {
    let titles = notebook_titles();
    assert!(titles.len() > 40, "{} titles", titles.len());
    let by_number: Vec<&String> = titles
        .iter()
        .filter(|t| {
            let lower = t.to_lowercase();
            lower
                .split("issue ")
                .skip(1)
                .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect();
    assert!(
        by_number.is_empty(),
        "titled by issue number: {by_number:?}"
    );
    let anchors: Vec<String> = titles.iter().map(|t| anchor(t)).collect();

    let mut files = vec![root().join("README.md")];
    let mut folders = vec![
        root().join("docs"),
        root().join("crates"),
        root().join("benches/results"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() && !name.starts_with('.') && name != "target" {
                folders.push(path);
            } else if ["md", "rs"].contains(&extension(&path).as_str()) && name != "docs.rs" {
                files.push(path);
            }
        }
    }
    let mut broken = Vec::new();
    let mut found = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        // Comment markers and line breaks out, so that a title broken over lines reads whole.
        let text = text
            .lines()
            .map(|l| {
                l.trim_start()
                    .trim_start_matches("//!")
                    .trim_start_matches("///")
            })
            .collect::<Vec<_>>()
            .join(" ");
        let is_notebook = path.ends_with("docs/notebook.md");
        let mut links: Vec<String> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for (i, _) in text.match_indices("notebook.md") {
            let rest = &text[i + "notebook.md".len()..];
            if let Some(link) = rest.strip_prefix('#') {
                links.push(link.split(')').next().unwrap().to_string());
                continue;
            }
            let mut rest = rest.trim_start_matches(['`', ',', ' ', '(']);
            while let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '*') {
                let Some(end) = rest[1..].find(quote) else {
                    break;
                };
                names.push(rest[1..=end].to_string());
                rest = rest[end + 2..].trim_start();
                let Some(more) = rest.strip_prefix("and ") else {
                    break;
                };
                rest = more;
            }
        }
        if is_notebook {
            for (i, _) in text.match_indices("](#") {
                links.push(text[i + 3..].split(')').next().unwrap().to_string());
            }
        }
        for link in links {
            found += 1;
            if !anchors.contains(&link) {
                broken.push(format!("{}: #{link}", path.display()));
            }
        }
        for name in names {
            let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
            found += 1;
            if !titles.iter().any(|t| t.starts_with(&name)) {
                broken.push(format!("{}: {name:?}", path.display()));
            }
        }
    }
    assert!(found >= 8, "only {found} references to the notebook found");
    assert!(
        broken.is_empty(),
        "references to no title of the notebook: {broken:#?}"
    );
}

/// The guide is a book of pages, none over 500 lines, and every link into it (from the README,
/// the documents and the pages themselves) finds its page and, when it names one, a heading
/// of that page.
#[test]
fn the_guide_is_pages_and_every_link_into_it_lands() {
    let mut headings = std::collections::HashMap::new();
    for page in guide_pages() {
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        let lines = text.lines().count();
        assert!(lines <= 500, "{page}: {lines} lines");
        let mut in_code = false;
        let mut anchors = Vec::new();
        for line in text.lines() {
            if line.starts_with("```") {
                in_code = !in_code;
            } else if !in_code && line.starts_with('#') {
                anchors.push(anchor(line.trim_start_matches('#').trim()));
            }
        }
        headings.insert(page, anchors);
    }
    let mut sources = vec!["README.md".to_string(), "docs/guide.md".to_string()];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if extension(Path::new(&name)) == "md" && name != "guide.md" {
            sources.push(format!("docs/{name}"));
        }
    }
    sources.extend(guide_pages());
    let mut broken = Vec::new();
    let mut found = 0;
    for source in &sources {
        let text = std::fs::read_to_string(root().join(source)).unwrap();
        let folder = Path::new(source).parent().unwrap();
        for (i, _) in text.match_indices("](") {
            let target = text[i + 2..].split(')').next().unwrap();
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let page = if file.is_empty() {
                source.clone()
            } else {
                let joined = folder.join(file);
                let mut parts: Vec<String> = Vec::new();
                for part in joined.components() {
                    match part.as_os_str().to_string_lossy().as_ref() {
                        ".." => {
                            parts.pop();
                        }
                        "." => {}
                        other => parts.push(other.to_string()),
                    }
                }
                parts.join("/")
            };
            if !page.starts_with("docs/guide") || file.starts_with("http") {
                continue;
            }
            found += 1;
            if !root().join(&page).exists() {
                broken.push(format!("{source}: {target} (no page)"));
            } else if !anchor.is_empty()
                && !headings
                    .get(&page)
                    .is_some_and(|anchors| anchors.iter().any(|a| a == anchor))
            {
                broken.push(format!("{source}: {target} (no heading)"));
            }
        }
    }
    assert!(found >= 30, "only {found} links into the guide");
    assert!(broken.is_empty(), "links that do not land: {broken:#?}");
}

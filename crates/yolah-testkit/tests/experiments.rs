//! The experiments room, `benches/results/`, stays a room a reader can walk: every folder says
//! in its `README.md` what it asked, what made its files and what came of it (the words
//! "Question", "Command" and "Result"), and the room's own `README.md` is an index that links
//! every entry, folder or file, exactly once and nothing that is not there. The check is one
//! function, run on the real room and on a small room made wrong on purpose.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// The words every experiment's `README.md` says, each as a whole word, capitalised.
const WORDS: [&str; 3] = ["Question", "Command", "Result"];

/// The name of a folder's description, and of the room's index, which is not an entry.
const README: &str = "README.md";

/// One thing wrong with the room, named so that its fix is plain.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Problem {
    /// The room has no index.
    NoIndex,
    /// A folder without a `README.md`.
    NoReadme(String),
    /// A folder's `README.md` lacks one of the three words.
    MissingWord {
        /// The folder.
        folder: String,
        /// The word it does not say.
        word: &'static str,
    },
    /// An entry the index does not link.
    Unlisted(String),
    /// An entry the index links more than once.
    ListedTwice {
        /// The entry.
        entry: String,
        /// How many links it has.
        links: usize,
    },
    /// A link of the index to an entry that is not in the room.
    Gone(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NoIndex => write!(f, "the room has no {README} indexing its entries"),
            Problem::NoReadme(folder) => write!(f, "{folder}/ has no {README}"),
            Problem::MissingWord { folder, word } => {
                write!(f, "{folder}/{README} does not say \"{word}\"")
            }
            Problem::Unlisted(entry) => write!(f, "the index does not link {entry}"),
            Problem::ListedTwice { entry, links } => {
                write!(f, "the index links {entry} {links} times, not once")
            }
            Problem::Gone(entry) => write!(f, "the index links {entry}, which is not in the room"),
        }
    }
}

/// Whether `text` holds `word` with no letter or digit on either side of it (so "Results" is
/// not "Result", but "**Result.**" is).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The entries of the room that the index links, each with how many times: the first path
/// component of every relative Markdown link target (`[text](NAME/)`, `[text](NAME)`).
/// Links out of the room (`../`, `/`, a scheme) and to anchors (`#`) are not entries.
fn linked_entries(index: &str) -> BTreeMap<String, usize> {
    let mut links = BTreeMap::new();
    for (at, _) in index.match_indices("](") {
        let rest = &index[at + 2..];
        let Some(end) = rest.find(')') else {
            continue;
        };
        let target = rest[..end].trim();
        let target = target.strip_prefix("./").unwrap_or(target);
        if target.is_empty()
            || target.starts_with("../")
            || target.starts_with('/')
            || target.starts_with('#')
            || target.contains("://")
            || target.starts_with("mailto:")
        {
            continue;
        }
        let name = target.split(['/', '#']).next().unwrap_or_default();
        if !name.is_empty() {
            *links.entry(name.to_string()).or_insert(0) += 1;
        }
    }
    links
}

/// Everything wrong with the room at `room`, in a stable order; empty when it is in order.
/// Entries are the room's folders and files but its index and hidden ones (a leading dot).
fn check_room(room: &Path) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut entries: Vec<(String, bool)> = fs::read_dir(room)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", room.display()))
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, entry.path().is_dir())
        })
        .filter(|(name, _)| name != README && !name.starts_with('.'))
        .collect();
    entries.sort();

    for (name, is_folder) in &entries {
        if !is_folder {
            continue;
        }
        let Ok(text) = fs::read_to_string(room.join(name).join(README)) else {
            problems.push(Problem::NoReadme(name.clone()));
            continue;
        };
        for word in WORDS {
            if !has_word(&text, word) {
                problems.push(Problem::MissingWord {
                    folder: name.clone(),
                    word,
                });
            }
        }
    }

    let Ok(index) = fs::read_to_string(room.join(README)) else {
        problems.push(Problem::NoIndex);
        problems.sort();
        return problems;
    };
    let mut links = linked_entries(&index);
    for (name, _) in &entries {
        match links.remove(name) {
            None => problems.push(Problem::Unlisted(name.clone())),
            Some(1) => {}
            Some(count) => problems.push(Problem::ListedTwice {
                entry: name.clone(),
                links: count,
            }),
        }
    }
    problems.extend(links.into_keys().map(Problem::Gone));
    problems.sort();
    problems
}

/// The repository's experiments room.
fn the_room() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/results")
}

/// The real room is in order.
#[test]
fn every_experiment_says_its_question_command_and_result_and_the_index_lists_each_once() {
    let room = the_room();
    let entries = fs::read_dir(&room).unwrap().count();
    assert!(entries > 60, "{entries} entries in {}", room.display());
    let problems = check_room(&room);
    let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        problems.is_empty(),
        "benches/results is out of order:\n{}",
        list.join("\n")
    );
}

/// A room in a temporary folder, removed when dropped.
struct TempRoom(tempfile::TempDir);

impl TempRoom {
    /// A new empty room.
    fn new() -> TempRoom {
        TempRoom(tempfile::tempdir().unwrap())
    }

    /// Writes `text` at `relative` in the room, making its folders.
    fn write(&self, relative: &str, text: &str) {
        let path = self.0.path().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

/// A folder's description that says all three words.
const GOOD: &str = "# X\n\n**Question.** Why?\n\n**Command**: `yolah x`\n\n**Result.** +1.\n";

/// The check finds nothing wrong where nothing is: links out of the room and to anchors are
/// not entries, and a folder's own files are not the room's.
#[test]
fn a_room_in_order_has_no_problem() {
    let room = TempRoom::new();
    room.write("kept/README.md", GOOD);
    room.write("kept/games.csv", "game\n");
    room.write("record.csv", "game\n");
    room.write(
        "README.md",
        "# Index\n\nSee [the notebook](../../docs/notebook.md) and [below](#rows).\n\n\
         | [kept](kept/) | q | r |\n| [record.csv](record.csv) | q | r |\n",
    );
    assert_eq!(check_room(room.0.path()), Vec::<Problem>::new());
}

/// The test tested: a folder without a description and a folder the index forgets are both
/// reported, and nothing else.
#[test]
fn a_missing_readme_and_an_unlisted_folder_are_both_reported() {
    let room = TempRoom::new();
    room.write("kept/README.md", GOOD);
    room.write("bare/games.csv", "game\n");
    room.write("unlisted/README.md", GOOD);
    room.write("README.md", "| [kept](kept/) |\n| [bare](bare/) |\n");
    let problems = check_room(room.0.path());
    assert!(
        problems.contains(&Problem::NoReadme("bare".into())),
        "{problems:?}"
    );
    assert!(
        problems.contains(&Problem::Unlisted("unlisted".into())),
        "{problems:?}"
    );
    assert_eq!(problems.len(), 2, "{problems:?}");
}

/// The other ways to be wrong: a description without two of its words, an entry linked twice
/// (once as `./NAME`), and a link to an entry that is gone.
#[test]
fn a_missing_word_a_double_link_and_a_link_to_nothing_are_reported() {
    let room = TempRoom::new();
    room.write("terse/README.md", "**Question.** Why?\n\nResults: +1.\n");
    room.write("record.csv", "game\n");
    room.write(
        "README.md",
        "[terse](terse/) [record.csv](record.csv) [again](./record.csv) [gone](gone/)\n",
    );
    assert_eq!(
        check_room(room.0.path()),
        [
            Problem::MissingWord {
                folder: "terse".into(),
                word: "Command"
            },
            Problem::MissingWord {
                folder: "terse".into(),
                word: "Result"
            },
            Problem::ListedTwice {
                entry: "record.csv".into(),
                links: 2
            },
            Problem::Gone("gone".into()),
        ]
    );
}

/// A room without an index is one problem, not one an entry.
#[test]
fn a_room_without_an_index_says_so() {
    let room = TempRoom::new();
    room.write("kept/README.md", GOOD);
    assert_eq!(check_room(room.0.path()), [Problem::NoIndex]);
}

/// A word counts only whole: "Results" does not say "Result".
#[test]
fn words_are_whole_words() {
    assert!(has_word("**Result.** +1", "Result"));
    assert!(has_word("Result", "Result"));
    assert!(!has_word("Results: +1", "Result"));
    assert!(!has_word("a Commander", "Command"));
    assert!(!has_word("question", "Question"));
}

//! One set of conventions for every subcommand (docs/guide/rules.md, "Conventions"), checked on the
//! binary: the same flags in the same form, one default for seeds, random plies and players,
//! errors whose help hint runs, a full help for bare `yolah`, `--json` that is JSON.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};

const COMMANDS: [&str; 21] = [
    "serve",
    "play",
    "think",
    "players",
    "match",
    "openings",
    "tournament",
    "engine",
    "moves",
    "show",
    "replay",
    "solve",
    "perft",
    "bench",
    "random-games",
    "selfplay",
    "data",
    "train",
    "tune",
    "completions",
    "manpage",
];

#[test]
fn bare_yolah_and_command_groups_list_their_commands() {
    let output = yolah(&[], "");
    assert_eq!(output.status.code(), Some(2));
    let help = stderr(&output);
    for command in COMMANDS {
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(command)),
            "{command} missing from:\n{help}"
        );
    }
    let output = yolah(&["data"], "");
    let help = stderr(&output);
    assert!(help.contains("stats") && help.contains("merge"), "{help}");
}

/// The form every subcommand that has the flag gives it.
const SHARED_FLAGS: [(&str, &str, &str); 6] = [
    (
        "--position",
        "-p, --position <POSITION>",
        "[default: startpos]",
    ),
    ("--seed", "-s, --seed <SEED>", "[default: 1]"),
    ("--random-plies", "-r, --random-plies <K>", "[default: 4]"),
    ("--threads", "-t, --threads <N>", "[default: "),
    ("--games ", "-g, --games <N>", ""),
    ("--out", "-o, --out <", ""),
];

#[test]
fn shared_flags_have_one_form_in_every_help() {
    let mut seen = 0;
    for command in COMMANDS {
        let output = yolah(&[command, "--help"], "");
        assert!(output.status.success(), "{command}");
        let help = stdout(&output);
        for (flag, form, default) in SHARED_FLAGS {
            // The flag's paragraph: its line in the options and the lines under it.
            let lines: Vec<&str> = help.lines().collect();
            let Some(at) = lines.iter().position(|l| {
                let l = l.trim_start();
                l.starts_with('-') && l.split([',', ' ']).any(|w| w == flag.trim_end())
            }) else {
                continue;
            };
            let end = lines[at + 1..]
                .iter()
                .position(|l| l.trim_start().starts_with('-'))
                .map_or(lines.len(), |k| at + 1 + k);
            let paragraph = lines[at..end].join("\n");
            assert!(
                paragraph.contains(form),
                "{command}: {flag} should read '{form}':\n{paragraph}"
            );
            let solve_threads = command == "solve" && flag == "--threads";
            if !default.is_empty() && !solve_threads {
                assert!(
                    paragraph.contains(default),
                    "{command}: {flag} should say '{default}':\n{paragraph}"
                );
            }
            seen += 1;
        }
    }
    assert!(seen >= 20, "{seen} flags checked");
}

#[test]
fn every_usage_errors_help_hint_runs() {
    let bad: [&[&str]; 14] = [
        &["perft"],
        &["match", "random"],
        &["match", "random", "mcts", "--gmes", "3"],
        &["tournament", "--games-per-pairs", "3"],
        &["selfplay", "--games", "3"],
        &["train", "--out", "x"],
        &["tune"],
        &["random-games"],
        &["data", "stats"],
        &["data", "merge", "--wat"],
        &["tournament", "merge", "--wat"],
        &["think", "--depth", "3"],
        // Values clap refuses come without a usage of their own.
        &["serve", "--port", "99999"],
        &["match", "random", "mcts", "--games", "x"],
    ];
    for args in bad {
        let output = yolah(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let hint = err
            .split("(more: ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("{args:?}: no hint in {err}"));
        let words: Vec<&str> = hint.split_whitespace().collect();
        assert_eq!(words[0], "yolah");
        let help = yolah(&words[1..], "");
        assert!(
            help.status.success(),
            "{args:?}: `{hint}` fails: {}",
            stderr(&help)
        );
        assert!(stdout(&help).contains("Usage:"), "{hint}");
    }
    // clap's suggestion is kept in the one line.
    let output = yolah(&["match", "random", "mcts", "--gmes", "3"], "");
    assert_clean_error(&output, "did you mean '--games'?");
    let output = yolah(&["tournamnt"], "");
    assert_clean_error(&output, "did you mean 'tournament'?");
    // The usage is the command's own: nothing optional shown as required.
    let output = yolah(&["tournament", "--games-per-pairs", "3"], "");
    assert_clean_error(&output, "usage: yolah tournament [OPTIONS] [SPEC]...");
}

#[test]
fn startpos_is_a_position_everywhere() {
    let start = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0";
    for position in ["startpos", "STARTPOS", " startpos "] {
        assert_eq!(
            stdout(&yolah(&["moves", "-p", position], "")),
            stdout(&yolah(&["moves"], ""))
        );
        assert_eq!(
            stdout(&yolah(&["show", "-p", position], "")),
            stdout(&yolah(&["show", "-p", start], ""))
        );
    }
    assert_eq!(
        stdout(&yolah(&["perft", "2", "-p", "startpos"], "")),
        stdout(&yolah(&["perft", "2"], ""))
    );
    let output = yolah(&["think", "random", "-p", "startpos"], "");
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn one_default_player_everywhere() {
    const STRONGEST: &str = "minimax:eval=nn";
    let output = yolah(&["think", "--json"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["player"], STRONGEST);
    let output = yolah(&["engine"], "yei\nquit\n");
    assert!(
        stdout(&output).contains(&format!(
            "option name Player type string default {STRONGEST}"
        )),
        "{}",
        stdout(&output)
    );
    for command in ["play", "engine", "think"] {
        let help = stdout(&yolah(&[command, "--help"], ""));
        assert!(
            help.contains(&format!("[default: {STRONGEST}]")),
            "{command}: {help}"
        );
    }
}

#[test]
fn json_output_is_one_object_with_the_texts_facts() {
    let json = |args: &[&str]| -> serde_json::Value {
        let output = yolah(args, "");
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let text = stdout(&output);
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}: {text}"))
    };
    let think = json(&["think", "minimax:depth=3", "--json"]);
    for key in ["move", "value", "depth", "nodes", "time_ms", "pv"] {
        assert!(!think[key].is_null(), "think: {key} in {think}");
    }
    assert_eq!(think["depth"], 3);
    assert_eq!(think["book"], false);
    // The book answers timed moves (a depth limit searches).
    let book = json(&["think", "minimax:time=50ms,eval=nn", "--json"]);
    assert_eq!(
        book["book"], true,
        "the start is in the opening book: {book}"
    );
    assert!(book["nodes"].is_null());
    let games = json(&["match", "random", "random:seed=2", "-g", "4", "--json"]);
    assert_eq!(games["games"], 4);
    assert_eq!(
        games["wins"].as_u64().unwrap()
            + games["draws"].as_u64().unwrap()
            + games["losses"].as_u64().unwrap(),
        4
    );
    let perft = json(&["perft", "3", "--json"]);
    assert_eq!(perft["leaves"], 164_512);
    let near_end =
        "xxbxxxxx/wxxxxxxx/xxxxx1xb/1x1xx1x1/x1xxxbx1/bx1xxxwx/1xwx1w1x/x1xx2xx b 21 21 42";
    let solve = json(&["solve", "-p", near_end, "--json"]);
    assert!(solve["margin"].is_i64(), "{solve}");
    let bench = json(&["bench", "--depth", "2", "--json"]);
    assert!(bench["heuristic"]["nodes"].as_u64().unwrap() > 0, "{bench}");
}

#[test]
fn completions_and_the_manual_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = yolah(&["completions", shell], "");
        assert!(output.status.success(), "{shell}");
        assert!(stdout(&output).contains("tournament"), "{shell}");
    }
    let output = yolah(&["manpage"], "");
    assert!(
        stdout(&output).starts_with(".ie"),
        "{}",
        &stdout(&output)[..40]
    );
    assert!(stdout(&output).contains(".TH yolah"));
    assert_clean_error(&yolah(&["completions", "tcsh"], ""), "invalid value 'tcsh'");
}

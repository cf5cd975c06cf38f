//! The defects a tester found by trying to break the CLI, each reproduced as a user
//! meets it: results directories that cannot be corrupted, a limit on every number, errors
//! that say what is wrong, and exit codes by one rule (2: bad arguments or specs; 1: bad
//! files or positions).

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const START: &str = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0";

/// A quick finished tournament in `dir`: 3 random players, 4 games a pair.
fn small_tournament(dir: &Path) -> Output {
    let out = dir.to_str().unwrap();
    let args = [
        "tournament",
        "random:seed=1",
        "random:seed=2",
        "random:seed=3",
        "--games-per-pair",
        "4",
        "--seed",
        "9",
        "--out",
        out,
    ];
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    output
}

fn exit_code(output: &Output) -> i32 {
    output.status.code().expect("an exit code, not a signal")
}

// 1. A results directory belongs to one run at a time.
#[test]
fn a_second_run_on_a_busy_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let mut first = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args([
            "tournament",
            "random",
            "montecarlo:iterations=100000",
            "--games-per-pair",
            "1000",
            "--threads",
            "1",
            "--seed",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !out.join("games.csv").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the run starts"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let resume = yolah(
        &["tournament", "--out", out.to_str().unwrap(), "--resume"],
        "",
    );
    assert_clean_error(&resume, "is in use by another run");
    let again = yolah(
        &[
            "tournament",
            "random",
            "random:seed=2",
            "--games-per-pair",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&again, "is in use by another run");
    first.kill().unwrap();
    first.wait().unwrap();
    // The lock died with its process: the directory resumes (and is readable).
    let mut resumed = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["tournament", "--out", out.to_str().unwrap(), "--resume"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    resumed.kill().unwrap();
    let output = resumed.wait_with_output().unwrap();
    assert!(!stderr(&output).contains("error"), "{}", stderr(&output));
}

// 2. Rows of another tournament, or an edited tournament.json, are refused.
#[test]
fn resume_refuses_games_of_another_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    small_tournament(&out);
    let config = out.join("tournament.json");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("\"seed\": 9", "\"seed\": 10")).unwrap();
    let output = yolah(
        &["tournament", "--out", out.to_str().unwrap(), "--resume"],
        "",
    );
    // Rows are in the order games ended: whichever comes first is named.
    assert_clean_error(&output, "belongs to another run (config");
    assert_eq!(exit_code(&output), 1);
}

// A row of a current-format record without its fingerprint is foreign.
#[test]
fn resume_refuses_a_row_whose_fingerprint_was_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    small_tournament(&out);
    let games = out.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(fields[1].len(), 16, "a fingerprint: {}", lines[2]);
    fields[1] = "";
    lines[2] = fields.join(",");
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    let output = yolah(
        &["tournament", "--out", out.to_str().unwrap(), "--resume"],
        "",
    );
    assert_clean_error(&output, "belongs to another run (no config fingerprint");
    assert_eq!(exit_code(&output), 1);
}

// 3. A whole last row without its newline is kept, not replayed.
#[test]
fn a_whole_last_row_without_newline_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    small_tournament(&out);
    let games = out.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    std::fs::write(&games, text.trim_end()).unwrap();
    let output = yolah(
        &["tournament", "--out", out.to_str().unwrap(), "--resume"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("already finished (12 games)"));
    assert_eq!(std::fs::read_to_string(&games).unwrap(), text);
}

// 4. A damaged last row (a full disk, a kill) does not hide the games before it.
#[test]
fn replay_reads_past_a_damaged_last_row() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.csv");
    let output = yolah(
        &[
            "match",
            "random:seed=1",
            "random:seed=2",
            "--games",
            "2",
            "--seed",
            "3",
            "--out",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = &text.lines().nth(2).unwrap()[..60];
    std::fs::write(&file, format!("{text}{cut}")).unwrap();
    let replay = yolah(&["replay", file.to_str().unwrap(), "--game", "1"], "");
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert!(stdout(&replay).contains("game over"));
    assert!(stderr(&replay).contains("skipped the damaged last row"));
}

// 5. A closed stdout does not cost the files.
#[test]
fn a_closed_stdout_still_gets_the_ratings_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args([
            "tournament",
            "random:seed=1",
            "random:seed=2",
            "--games-per-pair",
            "4",
            "--seed",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is printed (`| head -0`).
    let mut child = child;
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("ratings.json").exists());
}

// 6. Counts have limits checked before any file is written.
#[test]
fn huge_counts_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let output = yolah(
        &[
            "tournament",
            "random",
            "random:seed=1",
            "--games-per-pair",
            "4294967295",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "at most 1000000");
    assert_eq!(exit_code(&output), 2);
    assert!(!out.exists());
    let file = dir.path().join("m.csv");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=1",
            "--games",
            "4294967295",
            "--out",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "at most 1000000");
    assert!(!file.exists());
    let output = yolah(
        &[
            "match",
            "random",
            "mcts",
            "--games",
            "2",
            "--random-plies",
            "1000",
        ],
        "",
    );
    assert_clean_error(&output, "1000 random opening plies is too many: at most 40");
}

// 7. Thread counts have a maximum, and a search never starts more threads than cores.
#[test]
fn thread_counts_are_bounded() {
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=1",
            "--games",
            "2",
            "--threads",
            "40000",
        ],
        "",
    );
    assert_clean_error(&output, "--threads must be from 1 to 1024, not 40000");
    assert_eq!(exit_code(&output), 2);
    let think = yolah(&["think", "mcts:time=20ms,threads=256", "-p", START], "");
    assert!(think.status.success(), "{}", stderr(&think));
    assert_clean_error(
        &yolah(&["think", "mcts:threads=257"], ""),
        "expected a thread count from 1 to 256",
    );
}

// 9. A ply no game can reach is refused.
#[test]
fn unreachable_plies_are_refused() {
    for ply in ["65534", "65535"] {
        let side = if ply == "65534" { "b" } else { "w" };
        let position = format!("w6b/8/8/3bw3/3wb3/8/8/b6w {side} 0 0 {ply}");
        let output = yolah(&["think", "random", "-p", &position], "");
        assert_clean_error(&output, "cannot be reached");
        assert_eq!(exit_code(&output), 1);
    }
}

// 10. A missing argument is named, with the usage.
#[test]
fn missing_arguments_are_named() {
    for (args, missing, usage) in [
        (vec!["perft"], "missing <DEPTH>", "usage: yolah perft"),
        (
            vec!["random-games"],
            "missing --games <N>",
            "usage: yolah random-games",
        ),
        (vec!["match"], "<FIRST>, <SECOND>", "usage: yolah match"),
        (
            vec!["match", "random", "mcts"],
            "missing --games <N>",
            "usage: yolah match",
        ),
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, missing);
        assert_clean_error(&output, usage);
        assert_clean_error(&output, "--help");
        assert_eq!(exit_code(&output), 2);
    }
    let output = yolah(&["match", "random", "mcts", "--games", "-1"], "");
    assert_clean_error(&output, "invalid value '-1' for '--games <N>'");
}

// 11. One rule for exit codes: 2 for bad arguments and specs, 1 for bad files and positions.
#[test]
fn exit_codes_follow_one_rule() {
    let bad_arguments: &[&[&str]] = &[
        &["perft", "99"],
        &["random-games", "--games", "0"],
        &["random-games", "--games", "5", "--threads", "0"],
        &["think", "nonsense"],
        &["think", "mcts:time=0s"],
        &["match", "random", "mcts", "--games", "0"],
        &["match", "random", "nonsense", "--games", "2"],
        &["match", "random", "random", "--games", "2"],
        &["match", "random", "mcts", "--games", "2", "--threads", "0"],
        &["tournament", "random", "--games-per-pair", "2"],
        &["tournament", "random", "mcts", "--games-per-pair", "0"],
        &["tournament", "--resume"],
        &["solve", "--tt", "0"],
        &["solve", "--threads", "0"],
        &["solve", "--time", "0s"],
        &["solve", "--time", "2h"],
        &["solve", "--time", "500ms"],
        &["bench", "--depth", "99"],
        &["tune", "--out", "/tmp/never", "--population", "1"],
        &["tune", "--out", "/tmp/never", "--threads", "0"],
        &["play", "--white", "nonsense"],
        &["replay", "--game", "1"],
        &["replay", "x.csv", "--game", "1", "-p", START],
        &["frobnicate"],
    ];
    for args in bad_arguments {
        let output = yolah(args, "");
        assert_eq!(exit_code(&output), 2, "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}");
    }
    let bad_inputs: &[&[&str]] = &[
        &["perft", "1", "-p", "nonsense"],
        &["moves", "-p", "nonsense"],
        &["show", "-p", "nonsense"],
        &["think", "random", "-p", "nonsense"],
        &["solve", "-p", "nonsense"],
        &["replay", "/no/such/file"],
        &["replay", "/no/such/file", "--game", "1"],
        &["tournament", "--out", "/no/such/dir", "--resume"],
        &["tune", "--out", "/no/such/dir", "--resume"],
        &["play", "-p", "nonsense"],
    ];
    for args in bad_inputs {
        let output = yolah(args, "");
        assert_eq!(exit_code(&output), 1, "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}");
    }
}

// 12. The smaller ones.
#[test]
fn an_hour_is_accepted_as_the_message_says() {
    let output = yolah(&["think", "mcts:time=1h,iterations=100", "-p", START], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_clean_error(&yolah(&["think", "mcts:time=61min"], ""), "at most 1h");
}

#[test]
fn play_asks_again_after_a_line_that_is_not_text() {
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend_from_slice(b"quit\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["play", "--white", "human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    assert!(text.contains("not text (invalid UTF-8)"), "{text}");
    assert_eq!(text.matches("black to move>").count(), 2, "{text}");
}

#[test]
fn huge_and_multi_line_inputs_give_short_one_line_errors() {
    // An argument is at most 128 KiB on Linux; standard input takes the 10 MB one.
    let token = "z".repeat(100_000);
    let output = yolah(&["think", &token], "");
    assert_clean_error(&output, "unknown player 'zzzz");
    assert!(
        stderr(&output).len() < 400,
        "{} bytes",
        stderr(&output).len()
    );
    let output = yolah(&["moves", "-p", &format!("{START}\nb")], "");
    assert_clean_error(&output, "bad position");
    let output = yolah(&["replay"], &format!("a1:a2 {}", "z".repeat(500_000)));
    assert_clean_error(&output, "move 2");
    assert!(stderr(&output).len() < 400);
    // Past what a moves file can hold, the input is refused without being kept.
    let output = yolah(&["replay"], &"z".repeat(10_000_000));
    assert_clean_error(&output, "more than 1048576 bytes");
}

#[test]
fn specs_are_stored_in_their_canonical_form() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let output = yolah(
        &[
            "tournament",
            "random:seed=1\n",
            "random:seed=2",
            "--games-per-pair",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let config = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(config.contains("\"random:seed=1\","), "{config}");
    let output = yolah(
        &["tournament", "mcts", "mcts:", "--games-per-pair", "2"],
        "",
    );
    assert_clean_error(&output, "is listed twice");
}

#[test]
fn replay_of_a_record_file_without_game_points_at_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    small_tournament(&out);
    let output = yolah(&["replay", out.join("games.csv").to_str().unwrap()], "");
    assert_clean_error(&output, "is a record file: add --game N");
    let games = out.join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    std::fs::write(&games, text.replacen("black,white", "white,black", 1)).unwrap();
    let output = yolah(&["replay", games.to_str().unwrap(), "--game", "0"], "");
    assert_clean_error(&output, "not a game record file");
}

#[test]
fn out_paths_that_cannot_be_used_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "x").unwrap();
    let output = yolah(
        &[
            "tournament",
            "random",
            "random:seed=1",
            "--out",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "is a file, not a directory");
    let missing = dir.path().join("missing").join("m.csv");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=1",
            "--games",
            "2",
            "--out",
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "does not exist");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=1",
            "--games",
            "2",
            "--out",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "a record file is never overwritten");
    // A resume error names its file once.
    let output = yolah(
        &[
            "tournament",
            "--out",
            dir.path().to_str().unwrap(),
            "--resume",
        ],
        "",
    );
    let text = stderr(&output);
    assert_eq!(text.matches("tournament.json").count(), 1, "{text}");
}

#[test]
fn counts_in_messages_agree_with_their_number() {
    let output = yolah(
        &[
            "tournament",
            "random:seed=1",
            "random:seed=2",
            "--games-per-pair",
            "1",
            "--threads",
            "1",
        ],
        "",
    );
    let text = stdout(&output);
    assert!(text.contains("1 game at a time"), "{text}");
    assert!(text.contains("played 1 game in"), "{text}");
    let output = yolah(
        &[
            "random-games",
            "--games",
            "10",
            "--threads",
            "1",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(stdout(&output).contains("(seed 1, 1 thread, "));
}

// What is not a regular file is refused where a file is meant, and every
// read is bounded by what its format allows: nothing reads until memory runs out.
#[test]
fn special_and_huge_files_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    // A regular file far larger than any network, weights or moves file (sparse: no disk).
    let huge = dir.path().join("huge");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(20 << 30)
        .unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = dir.path().join("nn.yolahnet");
    let out = out.to_str().unwrap();
    for special in ["/dev/zero", fifo.to_str().unwrap()] {
        for (args, expected) in [
            (
                vec!["think", "minimax:eval=nn,net=SPECIAL", "-s", "1"],
                "not a regular file",
            ),
            (
                vec!["think", "minimax:weights=SPECIAL", "-s", "1"],
                "not a regular file",
            ),
            (vec!["data", "stats", "SPECIAL"], "not a regular file"),
            (vec!["replay", "SPECIAL"], "not a regular file"),
            (
                vec!["replay", "SPECIAL", "--game", "1"],
                "not a regular file",
            ),
            (
                vec!["train", "--data", "SPECIAL", "--out", out],
                "not a regular file",
            ),
        ] {
            let args: Vec<String> = args.iter().map(|a| a.replace("SPECIAL", special)).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let start = Instant::now();
            let output = yolah(&args, "");
            assert_clean_error(&output, expected);
            assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
        }
    }
    let huge = huge.to_str().unwrap();
    let net = format!("minimax:eval=nn,net={huge}");
    let weights = format!("minimax:weights={huge}");
    for args in [
        ["think", net.as_str(), "-s", "1"],
        ["think", weights.as_str(), "-s", "1"],
        ["replay", huge, "--position", START],
    ] {
        let start = Instant::now();
        assert_clean_error(&yolah(&args, ""), "larger than");
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
    }
}

// Piped input is echoed as everywhere else a typed text is shown back: at
// most 40 characters of it.
#[test]
fn play_echoes_at_most_forty_characters_of_a_line() {
    let line = "z".repeat(5_000_000);
    let output = yolah(
        &["play", "--white", "random", "-s", "1"],
        &format!("{line}\nquit\n"),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(longest < 200, "a line of {longest} characters");
    assert!(text.contains(&format!("{}…", "z".repeat(40))), "{text}");
}

/// One Elo figure, live and final, and one JSON schema for every mode.
#[test]
fn a_match_says_one_elo_and_one_schema() {
    let args = ["match", "mcts:iterations=300", "random", "--games", "20"];
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    // On a pipe the live line comes every ten pairs: here once, after the last pair.
    let live = stderr(&output);
    let live = live.lines().find(|l| l.starts_with("20 games, ")).unwrap();
    let figure = |line: &str| line[line.find("Elo ").unwrap()..].to_string();
    let summary = stdout(&output);
    assert_eq!(figure(live), figure(summary.trim()), "{live}\n{summary}");

    let keys = |extra: &[&str]| {
        let mut args = args.to_vec();
        args.extend_from_slice(extra);
        args.push("--json");
        let output = yolah(&args, "");
        assert!(output.status.success(), "{}", stderr(&output));
        let object: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let mut keys: Vec<String> = object.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        (keys, object)
    };
    let (plain, object) = keys(&[]);
    let (sprt, tested) = keys(&["--sprt", "elo0=0,elo1=200"]);
    let suite = "../yolah-ai/data/openings-8ply.txt";
    let (suited, from_suite) = keys(&["--openings", suite]);
    assert_eq!(plain, sprt);
    assert_eq!(plain, suited);
    for key in ["wins", "pairs", "los", "elo", "sprt", "verdict", "llr"] {
        assert!(plain.contains(&key.to_string()), "{key}: {plain:?}");
    }
    assert!(
        object["sprt"].is_null() && tested["sprt"].is_string(),
        "{tested}"
    );
    assert!(from_suite["random_plies"].is_null(), "{from_suite}");
    assert_eq!(from_suite["openings"], 200, "{from_suite}");
}

/// `match --resume` takes the record file's lock before it repairs
/// anything: a file another run holds is refused and left byte for byte as it was (before,
/// its damaged last row was cut first, under the other run's feet).
#[test]
fn match_resume_locks_before_it_repairs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.csv");
    let path = file.to_str().unwrap();
    let args = ["match", "random", "random:seed=2", "-g", "4", "--out", path];
    assert!(yolah(&args, "").status.success());
    // A row being written: no newline yet, and cut short.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(b"5,\"random\",\"ran");
    std::fs::write(&file, &bytes).unwrap();
    let held = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    held.try_lock().unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let output = yolah(&resume, "");
    assert_clean_error(&output, "is in use by another run");
    assert!(
        std::fs::read(&file).unwrap() == bytes,
        "the file was changed"
    );
    drop(held);
}

/// `tournament -g N` points to the flag that counts a tournament's games.
#[test]
fn a_tournament_given_games_is_pointed_to_games_per_pair() {
    let output = yolah(&["tournament", "random", "mcts", "-g", "2"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_clean_error(&output, "--games-per-pair");
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A new run refused because its `--out` folder holds something leaves
/// nothing in it (no `.lock`), whichever command it is.
#[test]
fn a_run_refused_on_a_folder_in_use_leaves_nothing_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = out.to_str().unwrap();
    for args in [
        vec!["zero", "--out", o],
        vec!["selfplay", "random", "--games", "2", "--out", o],
        vec![
            "tournament",
            "random",
            "random:seed=2",
            "--games-per-pair",
            "2",
            "--out",
            o,
        ],
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, "is not empty");
        assert_eq!(names_in(&out), ["notes.txt"], "{args:?}");
    }
}

/// Errors that misled or came late, each now one line that names what is wrong, before any
/// work: an SPSA run without its checkpoint, a Slurm match resumed without --slurm, an
/// explorer database in a missing folder, a PGN file whose only game is cut short.
#[test]
fn errors_name_what_is_wrong_before_any_work() {
    let root = tempfile::tempdir().unwrap();
    let dir = |name: &str| root.path().join(name);
    let text = |path: &Path| path.to_str().unwrap().to_string();
    // An SPSA run whose spsa.json is gone: the resume names it, not the GA's checkpoint.
    let spsa = dir("spsa");
    let output = yolah(
        &[
            "tune",
            "--spsa",
            "minimax:nodes=100",
            "--params",
            "lmr_base",
            "--iterations",
            "1",
            "--out",
            &text(&spsa),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_file(spsa.join("spsa.json")).unwrap();
    let output = yolah(&["tune", "--out", &text(&spsa), "--resume"], "");
    assert_clean_error(&output, "spsa.json");
    assert!(!stderr(&output).contains("checkpoint.json"));
    // A match whose run is on Slurm (its tasks' folder beside the record file).
    let record = dir("games.csv");
    std::fs::create_dir(dir("games.csv.tasks")).unwrap();
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "-g",
            "2",
            "-o",
            &text(&record),
            "--resume",
        ],
        "",
    );
    assert_clean_error(&output, "add --slurm");
    // The explorer's database in a folder that does not exist: said before any game is read
    // (the input here is not even there).
    let output = yolah(
        &[
            "explorer",
            "build",
            &text(&dir("absent.pgn")),
            "-o",
            &text(&dir("missing/x.db")),
        ],
        "",
    );
    assert_clean_error(&output, "the folder");
    // A PGN file whose only game was cut short as it was written.
    let pgn = dir("one.pgn");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "-g",
            "1",
            "--pgn",
            &text(&pgn),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let whole = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(&pgn, &whole[..whole.len() - 30]).unwrap();
    let output = yolah(&["review", &text(&pgn)], "");
    assert_clean_error(&output, "cut short");
}

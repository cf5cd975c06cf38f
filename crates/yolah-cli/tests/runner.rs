//! The match runner's second pass, driven as an engine author would: gauntlets, options sent
//! to a program (`option.NAME=VALUE`), `--each`, a clock per player, adjudication by proof,
//! and PGN files read back by `yolah replay`.

mod common;

use common::{assert_clean_error, rows, stderr, stdout, yolah};
use std::collections::HashMap;
use std::path::Path;

fn relay(log: &Path) -> String {
    common::relay_command(log, "log")
}

fn ok(args: &[&str]) -> String {
    let output = yolah(args, "");
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

#[test]
fn a_gauntlet_shows_the_candidate_against_each_opponent_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let out = out.to_str().unwrap();
    let players = ["minimax:depth=2", "random", "mcts:iterations=50"];
    let mut args = vec!["tournament", "--gauntlet", "--games-per-pair", "6"];
    args.extend(players);
    args.extend(["--out", out, "--json", "--threads", "1"]);
    let json: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let opponents = json["gauntlet"].as_array().unwrap();
    assert_eq!(opponents.len(), 2);
    for (opponent, spec) in opponents.iter().zip(&players[1..]) {
        assert_eq!(opponent["spec"], *spec);
        assert_eq!(opponent["games"], 6);
        let wdl: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| opponent[k].as_u64().unwrap())
            .sum();
        assert_eq!(wdl, 6);
        assert!(opponent["elo_low"].as_f64() <= opponent["elo"].as_f64());
    }
    assert_eq!(json["games"], 12);
    // The opponents never meet.
    let games = rows(&Path::new(out).join("games.csv"));
    assert_eq!(games.len(), 12);
    assert!(
        games
            .iter()
            .all(|r| r["black"] == players[0] || r["white"] == players[0])
    );
    // Cut the file after four games and a half: --resume plays the rest, to the same games.
    let text = std::fs::read_to_string(Path::new(out).join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut cut = lines[..5].join("\n");
    cut.push('\n');
    cut.push_str(&lines[5][..lines[5].len() / 2]);
    std::fs::write(Path::new(out).join("games.csv"), cut).unwrap();
    let table = ok(&["tournament", "--resume", "--out", out, "--threads", "1"]);
    assert!(table.contains("gauntlet of minimax:depth=2:"), "{table}");
    assert!(table.contains("  vs random: +"), "{table}");
    let again = rows(&Path::new(out).join("games.csv"));
    let moves = |rows: &[HashMap<String, String>]| {
        let mut m: Vec<(String, String)> = rows
            .iter()
            .map(|r| (r["game"].clone(), r["moves"].clone()))
            .collect();
        m.sort();
        m
    };
    assert_eq!(moves(&again), moves(&games));
}

// At one thread a gauntlet's test stops its games where it decides, the same in
// every run (no game starts while the decision's record is being written).
#[test]
fn a_gauntlet_test_at_one_thread_stops_where_it_decides() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let out = dir.path().join(name);
        ok(&[
            "tournament",
            "--gauntlet",
            "minimax:depth=2",
            "random",
            "--games-per-pair",
            "200",
            "--sprt",
            "elo0=0,elo1=50",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        let games: Vec<String> = rows(&out.join("games.csv"))
            .iter()
            .map(|r| format!("{} {}", r["game"], r["moves"]))
            .collect();
        games
    };
    let first = run("a");
    // The test decides on a pair's second game: nothing after it.
    assert!(first.len() % 2 == 0 && first.len() < 100, "{}", first.len());
    for (i, game) in first.iter().enumerate() {
        assert!(game.starts_with(&format!("{i} ")), "{game}");
    }
    assert_eq!(run("b"), first);
}

#[test]
fn a_gauntlet_test_stops_each_opponent_once_it_decides() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let out = out.to_str().unwrap();
    let output = yolah(
        &[
            "tournament",
            "--gauntlet",
            "minimax:depth=3",
            "random",
            "minimax:depth=2",
            "--games-per-pair",
            "200",
            "--sprt",
            "elo0=0,elo1=50",
            "--json",
            "--out",
            out,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let random = &json["gauntlet"][0];
    assert_eq!(random["verdict"], "H1 accepted");
    // A test against random decides in a few dozen games (24 won pairs at these bounds,
    // plus those in flight), not 200.
    assert!(random["games"].as_u64().unwrap() < 80, "{random}");
    assert!(random["llr"].as_f64().unwrap() > 2.9);
    // The test is the tournament's: resumed from its directory alone, after losing all but
    // its first ten games, it goes on testing and stops the games against random again.
    let games = Path::new(out).join("games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let kept: Vec<&str> = text.lines().take(11).collect();
    std::fs::write(&games, kept.join("\n") + "\n").unwrap();
    let again: serde_json::Value =
        serde_json::from_str(&ok(&["tournament", "--resume", "--out", out, "--json"])).unwrap();
    let random = &again["gauntlet"][0];
    assert_eq!(random["verdict"], "H1 accepted", "{random}");
    assert!(random["games"].as_u64().unwrap() < 80, "{random}");
    let output = yolah(
        &[
            "tournament",
            "--resume",
            "--out",
            out,
            "--sprt",
            "elo0=0,elo1=5",
        ],
        "",
    );
    assert_clean_error(&output, "--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 differs");
    let output = yolah(
        &[
            "tournament",
            "random",
            "random:seed=2",
            "--sprt",
            "elo0=0,elo1=5",
        ],
        "",
    );
    assert_clean_error(&output, "only in a gauntlet");
}

#[test]
fn options_reach_the_program_and_unknown_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let engine = format!("engine:time=20ms,option.Hash=32,cmd={}", relay(&log));
    let summary = ok(&["match", &engine, "random", "-g", "2", "--threads", "1"]);
    assert!(summary.contains(" vs random: "), "{summary}");
    let said = std::fs::read_to_string(&log).unwrap();
    // After the handshake, before the game.
    let lines: Vec<&str> = said.lines().collect();
    let set = lines
        .iter()
        .position(|l| *l == "setoption name Hash value 32")
        .unwrap_or_else(|| panic!("{said}"));
    assert!(lines[..set].contains(&"yei"), "{said}");
    assert!(lines[set..].contains(&"newgame"), "{said}");
    // --each sends it to every program that does not set it itself.
    std::fs::remove_file(&log).unwrap();
    let engine = format!("engine:time=20ms,cmd={}", relay(&log));
    ok(&[
        "match",
        &engine,
        "random",
        "-g",
        "2",
        "--each",
        "option.Threads=1",
        "--threads",
        "1",
    ]);
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.contains("setoption name Threads value 1"), "{said}");
    // An option the program does not list: one line, before any game is counted.
    let engine = format!("engine:time=20ms,option.Nope=1,cmd={}", relay(&log));
    let output = yolah(&["match", &engine, "random", "-g", "2"], "");
    assert_clean_error(
        &output,
        "has no option 'Nope'; its options: Player, Threads, Hash",
    );
    // A value the program refuses.
    let engine = format!("engine:time=20ms,option.Hash=lots,cmd={}", relay(&log));
    let output = yolah(&["match", &engine, "random", "-g", "2"], "");
    assert_clean_error(&output, "refused its options");
    // option. is for programs only.
    let output = yolah(&["match", "minimax:option.Hash=2", "random", "-g", "2"], "");
    assert_clean_error(&output, "option.NAME=VALUE is for external programs");
}

#[test]
fn each_and_a_clock_per_player_make_a_time_odds_match() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("odds.csv");
    ok(&[
        "match",
        "minimax:tc=2s+20ms",
        "mcts",
        "-g",
        "2",
        "--each",
        "tc=500ms+5ms,tt=1",
        "-o",
        record.to_str().unwrap(),
    ]);
    let rows = rows(&record);
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let (minimax, mcts) = if row["black"].starts_with("minimax") {
            ("black", "white")
        } else {
            ("white", "black")
        };
        assert_eq!(row[&format!("{minimax}_tc")], "2s+20ms", "{row:?}");
        assert_eq!(row[&format!("{mcts}_tc")], "500ms+5ms", "{row:?}");
        // --each set tt on the player that takes it, and not its own clock.
        assert!(row[minimax].contains("tt=1") || row["black"].contains("tt=1"));
        let left: f64 = row[&format!("{mcts}_left_ms")].parse().unwrap();
        assert!(left <= 500.0 + 5.0 * 70.0, "{row:?}");
    }
    assert!(rows[0]["black"].contains("tt=1") || rows[0]["white"].contains("tt=1"));
    // One clock without the others'.
    let output = yolah(&["match", "minimax:tc=1s", "random", "-g", "2"], "");
    assert_clean_error(&output, "has its own clock (tc=) but the others have none");
    // An item no player takes.
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "-g",
            "2",
            "--each",
            "tt=4",
        ],
        "",
    );
    assert_clean_error(&output, "no player takes the option 'tt'");
    let output = yolah(
        &["match", "minimax", "random", "-g", "2", "--each", "tc=fast"],
        "",
    );
    assert_clean_error(&output, "a time control is BASE[+INC]");
}

/// An option given twice in `--each` is refused (the first used to win, silently).
#[test]
fn each_refuses_an_option_given_twice() {
    let output = yolah(
        &[
            "match",
            "minimax",
            "random",
            "-g",
            "2",
            "--each",
            "tt=64, tt=32",
        ],
        "",
    );
    assert_clean_error(&output, "--each: the option 'tt' is given twice");
}

#[test]
fn adjudicated_results_are_the_played_out_results() {
    // Deterministic players (depth-limited, seeded by the game), so the same game is played
    // twice: once stopped at the proof, once to its end. Players that value separated areas
    // exactly (regions=on) play the end perfectly, so the proof must give their scores.
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    let players = ["minimax:depth=3,regions=on", "minimax:depth=2,regions=on"];
    for (path, adjudicate) in [(&a, true), (&b, false)] {
        let mut args = vec!["match", players[0], players[1], "-g", "200", "-o"];
        args.push(path.to_str().unwrap());
        if adjudicate {
            args.push("--adjudicate");
        }
        ok(&args);
    }
    let sorted = |path| {
        let mut rows = rows(path);
        rows.sort_by_key(|r| r["game"].parse::<u64>().unwrap());
        rows
    };
    let (a, b) = (sorted(&a), sorted(&b));
    assert_eq!(a.len(), 200);
    let mut adjudicated = 0;
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x["game"], y["game"]);
        if x["adjudicated"] != "proved" {
            assert_eq!(x["moves"], y["moves"]);
            continue;
        }
        adjudicated += 1;
        assert!(y["moves"].starts_with(&x["moves"]), "game {}", x["game"]);
        assert!(y["moves"].len() > x["moves"].len(), "game {}", x["game"]);
        for column in ["result", "black_score", "white_score"] {
            assert_eq!(x[column], y[column], "game {} {column}", x["game"]);
        }
    }
    assert!(adjudicated > 150, "{adjudicated} of 200 adjudicated");
}

#[test]
fn a_pgn_file_is_read_back_into_the_same_final_positions() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let csv = dir.path().join("games.csv");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../yolah-ai/data/openings-8ply.txt");
    ok(&[
        "match",
        "minimax:depth=2",
        "mcts:iterations=100",
        "-g",
        "6",
        "--tc",
        "10s+100ms",
        "--openings",
        suite.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"yolah match\"]").count(), 6);
    for tag in [
        "[TimeControl \"10+0.1\"]",
        "[Termination \"normal\"]",
        "[Opening \"e4:f4 e5:e8 f4:f6 d4:d2 a1:b1 d2:e3 b1:f1 h1:h5\"]",
        "[Black \"minimax:depth=2\"]",
    ] {
        assert!(text.contains(tag), "{tag}");
    }
    for row in rows(&csv) {
        let game = row["game"].clone();
        let from_csv = stdout(&yolah(
            &["replay", csv.to_str().unwrap(), "--game", &game],
            "",
        ));
        let from_pgn = stdout(&yolah(
            &["replay", pgn.to_str().unwrap(), "--game", &game],
            "",
        ));
        let last = |t: &str| t.lines().last().unwrap().to_string();
        assert_eq!(last(&from_csv), last(&from_pgn), "game {game}");
        assert!(
            from_pgn.starts_with(&format!("game {game}: ")),
            "{from_pgn}"
        );
    }
    second_runs_and_a_block_cut_short(&pgn, &csv);
}

/// A second run adds to the file; a block cut short is cut off and the file still reads; a file
/// that is not PGN is refused and left as it was.
fn second_runs_and_a_block_cut_short(pgn: &Path, csv: &Path) {
    let before = std::fs::metadata(pgn).unwrap().len();
    ok(&[
        "match",
        "random",
        "random:seed=3",
        "-g",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 8);
    std::fs::write(pgn, &text[..text.len() - 30]).unwrap();
    // The file holds two runs now: a game number both still have is picked by its run.
    let cut = &text[text.rfind("[Game \"").unwrap() + 7..][..1];
    let both = if cut == "0" { "1" } else { "0" };
    let output = yolah(&["replay", pgn.to_str().unwrap(), "--game", both], "");
    assert_clean_error(&output, "add --run RUN");
    let run = rows(csv)[0]["config"].clone();
    let output = yolah(
        &[
            "replay",
            pgn.to_str().unwrap(),
            "--game",
            both,
            "--run",
            &run,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("cut short"));
    ok(&[
        "match",
        "random",
        "random:seed=4",
        "-g",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 8);
    assert!(std::fs::metadata(pgn).unwrap().len() > before);
    // Not a PGN file: refused, and left as it was.
    std::fs::write(csv, "[Event \"x\"]\nnonsense\n").unwrap();
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=3",
            "-g",
            "2",
            "--pgn",
            csv.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "--pgn");
    assert_eq!(
        std::fs::read_to_string(csv).unwrap(),
        "[Event \"x\"]\nnonsense\n"
    );
}

#[test]
fn a_resumed_match_gives_the_pgn_file_the_games_it_missed() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("m.pgn");
    let csv = dir.path().join("m.csv");
    let args = |resume: bool| {
        let mut a = vec![
            "match".to_string(),
            "minimax:depth=1".into(),
            "random".into(),
            "-g".into(),
            "8".into(),
            "--pgn".into(),
            pgn.display().to_string(),
            "-o".into(),
            csv.display().to_string(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let first: Vec<String> = args(false);
    ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    // Lose the PGN file's last three games, as a kill between the two writes would.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let blocks: Vec<&str> = text.split("[Event ").collect();
    std::fs::write(&pgn, blocks[..blocks.len() - 3].join("[Event ")).unwrap();
    let again = args(true);
    ok(&again.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 8);
    for n in 0..8 {
        assert_eq!(text.matches(&format!("[Game \"{n}\"]")).count(), 1, "{n}");
    }
}

/// Players that repeat themselves (node-limited minimax) over a suite of two openings have
/// four different games: a match asked for more is refused, a test stops at four, and a
/// player whose moves vary with its seed (MCTS) plays on.
#[test]
fn a_match_of_players_that_repeat_themselves_never_counts_a_game_twice() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("two.txt");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../yolah-ai/data/openings-8ply.txt");
    let two: Vec<String> = std::fs::read_to_string(shipped)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(2)
        .map(str::to_string)
        .collect();
    std::fs::write(&suite, two.join("\n") + "\n").unwrap();
    let suite = suite.to_str().unwrap();
    let (a, b) = ("minimax:nodes=200", "minimax:nodes=300");
    let refused = yolah(&["match", a, b, "--openings", suite, "--games", "6"], "");
    assert_clean_error(
        &refused,
        "--games 6: minimax:nodes=200 and minimax:nodes=300 play the same game again from the \
         same opening",
    );
    assert!(
        stderr(&refused).contains("give at most 4 games"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(refused.status.code(), Some(2));
    let four = ok(&["match", a, b, "--openings", suite, "--games", "4", "--json"]);
    let four: serde_json::Value = serde_json::from_str(&four).unwrap();
    assert_eq!(four["games"], 4);
    let test = yolah(
        &[
            "match",
            a,
            b,
            "--openings",
            suite,
            "--sprt",
            "elo0=0,elo1=10",
            "--json",
        ],
        "",
    );
    assert!(test.status.success(), "{}", stderr(&test));
    assert!(
        stderr(&test).contains("the test stops at 4 games"),
        "{}",
        stderr(&test)
    );
    let test: serde_json::Value = serde_json::from_str(&stdout(&test)).unwrap();
    assert_eq!(test["games"], 4);
    // MCTS's moves vary with its seed, which each game changes: six games are six.
    let varied = ok(&[
        "match",
        "mcts:iterations=200",
        a,
        "--openings",
        suite,
        "--games",
        "6",
        "--json",
    ]);
    let varied: serde_json::Value = serde_json::from_str(&varied).unwrap();
    assert_eq!(varied["games"], 6);
    // In a tournament, the pair that repeats itself is named.
    let tournament = yolah(
        &[
            "tournament",
            "random",
            a,
            b,
            "--openings",
            suite,
            "--games-per-pair",
            "6",
        ],
        "",
    );
    assert_clean_error(
        &tournament,
        "--games-per-pair 6: minimax:nodes=200 and minimax:nodes=300 play the same game again",
    );
}

/// One game pair printed `Elo -0.0 [-34.1, +34.1]`: pseudo-counts of 0.001
/// made the variance of a few pairs nearly 0. A pair now says little: its interval is wide.
#[test]
fn a_few_games_give_a_wide_interval() {
    let out = ok(&["match", "random", "random:seed=2", "-g", "2", "--json"]);
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let (low, high) = (
        json["elo_low"].as_f64().unwrap(),
        json["elo_high"].as_f64().unwrap(),
    );
    assert!(high - low > 200.0, "one pair: [{low}, {high}]");
    let out = ok(&["match", "random", "random:seed=2", "-g", "200", "--json"]);
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let width = json["elo_high"].as_f64().unwrap() - json["elo_low"].as_f64().unwrap();
    assert!(width < high - low && width < 200.0, "100 pairs: {width}");
}

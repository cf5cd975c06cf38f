//! The players' commands driven as a user would: `players`, `match`, `tournament` (and its
//! resume after a kill), `play` through a pipe, `replay --game`.

use std::collections::BTreeSet;
mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The game numbers of a records file, in file order.
fn game_numbers(path: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("game,config,black,white,result")
    );
    lines
        .map(|line| line.split(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn players_lists_every_player_with_options_and_defaults() {
    let text = stdout(&yolah(&["players"], ""));
    for word in [
        "random",
        "montecarlo",
        "mcts",
        "iterations",
        "threads",
        "default: 0.5",
        "option.NAME",
        "every player, in match and tournament:",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

#[test]
fn bad_player_specs_are_one_line_errors() {
    assert_clean_error(
        &yolah(&["match", "mcts:c=x", "random", "--games", "2"], ""),
        "mcts option c='x': expected a real number",
    );
    assert_clean_error(
        &yolah(&["match", "alpha", "random", "--games", "2"], ""),
        "unknown player 'alpha'; players: random, montecarlo, mcts",
    );
    assert_clean_error(
        &yolah(&["match", "random", "random", "--games", "2"], ""),
        "listed twice",
    );
    assert_clean_error(
        &yolah(&["match", "random", "mcts", "--games", "0"], ""),
        "--games must be at least 1",
    );
    assert_clean_error(
        &yolah(&["tournament", "random", "--threads", "0"], ""),
        "--threads must be from 1 to 1024, not 0",
    );
    assert_clean_error(
        &yolah(&["tournament", "random"], ""),
        "at least two players",
    );
    assert_clean_error(
        &yolah(&["play", "--white", "nobody"], ""),
        "a side is human or a player spec: player 'nobody': unknown player 'nobody'",
    );
}

#[test]
fn a_match_ends_with_its_summary_and_its_games_replay() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.csv");
    let file_arg = file.to_str().unwrap();
    let output = yolah(
        &[
            "match",
            "montecarlo:iterations=300",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--out",
            file_arg,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    let line = summary.lines().last().unwrap();
    // montecarlo:iterations=300 vs random: +6 =0 -0, score 100.0 %, Elo +… [+…, +…]
    assert!(
        line.starts_with("montecarlo:iterations=300 vs random: +"),
        "{line}"
    );
    let counts: Vec<u32> = line
        .split(": ")
        .nth(1)
        .unwrap()
        .split(", ")
        .next()
        .unwrap()
        .split(' ')
        .map(|t| t[1..].parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 6, "{line}");
    assert!(
        line.contains("score ") && line.contains(" %, Elo "),
        "{line}"
    );
    assert_eq!(
        game_numbers(&file).into_iter().collect::<BTreeSet<_>>(),
        (0..6).collect()
    );
    let replay = yolah(&["replay", file_arg, "--game", "3"], "");
    assert!(replay.status.success(), "{}", stderr(&replay));
    let text = stdout(&replay);
    assert!(text.starts_with("game 3: "), "{text}");
    assert!(text.contains("game over"), "{text}");
    assert_clean_error(
        &yolah(&["replay", file_arg, "--game", "6"], ""),
        "has no game 6",
    );
    // The same seed gives the same games (iteration limits); an existing file is kept.
    assert_clean_error(
        &yolah(
            &["match", "random", "mcts", "--games", "2", "--out", file_arg],
            "",
        ),
        "a record file is never overwritten",
    );
}

#[test]
fn a_tournament_writes_games_and_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out_arg = out.to_str().unwrap();
    let args = [
        "tournament",
        "random:seed=1",
        "montecarlo:iterations=200",
        "mcts:iterations=200",
        "--games-per-pair",
        "4",
        "--seed",
        "9",
        "--out",
        out_arg,
    ];
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for expected in ["95 % interval", "gap ", "player", "ratings.json"] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    // On a pipe, the live standings every ten games: the leader, and its results against
    // the runner-up.
    let progress = stderr(&output);
    let standings = progress
        .lines()
        .find(|l| l.starts_with("10 games, leader "))
        .unwrap_or_else(|| panic!("{progress}"));
    for part in ["% of ", "; vs ", "score ", "Elo ", "LOS ", "pairs ["] {
        assert!(standings.contains(part), "{part}: {standings}");
    }
    assert_eq!(game_numbers(&out.join("games.csv")).len(), 12);
    let ratings = std::fs::read_to_string(out.join("ratings.json")).unwrap();
    for field in [
        "\"spec\"",
        "\"elo\"",
        "\"elo_low\"",
        "\"elo_high\"",
        "\"games\"",
        "\"score\"",
    ] {
        assert!(ratings.contains(field), "{field}: {ratings}");
    }
    assert_eq!(ratings.matches("\"games\": 8").count(), 3, "{ratings}");
    // Running again into the same directory would lose the games.
    assert_clean_error(&yolah(&args, ""), "holds a finished tournament (12 games)");
    // Resuming a finished tournament plays nothing and gives the same table.
    let again = yolah(&["tournament", "--out", out_arg, "--resume"], "");
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stdout(&again).contains("already finished (12 games)"));
    assert_clean_error(
        &yolah(
            &["tournament", "--out", out_arg, "--resume", "--seed", "10"],
            "",
        ),
        "--seed 10 differs from the tournament's 9",
    );
}

#[test]
fn a_killed_tournament_resumes_without_losing_or_repeating_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out_arg = out.to_str().unwrap();
    let games = out.join("games.csv");
    let total = 3 * 10;
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args([
            "tournament",
            "mcts:iterations=3000",
            "montecarlo:iterations=3000",
            "random",
            "--games-per-pair",
            "10",
            "--seed",
            "4",
            "--threads",
            "2",
            "--out",
            out_arg,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few games are written, mid-run.
    let start = Instant::now();
    while std::fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(100),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = game_numbers(&games);
    assert!(before.len() < total, "killed before the end");
    let output = yolah(&["tournament", "--out", out_arg, "--resume"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let after = game_numbers(&games);
    assert_eq!(
        &after[..before.len()],
        before.as_slice(),
        "earlier games kept"
    );
    let unique: BTreeSet<u64> = after.iter().copied().collect();
    assert_eq!(unique.len(), after.len(), "no game twice");
    assert_eq!(unique, (0..total as u64).collect(), "no game lost");
    assert!(out.join("ratings.json").exists());
}

#[test]
fn play_through_a_pipe() {
    let input = "help\nmoves\nnonsense\na1:b3\na1:a2\nundo\nundo\na1:a2\nquit\n";
    let output = yolah(&["play", "--white", "random:seed=1"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    // Every line of the help is indented, the first too.
    assert!(
        text.contains("help\n  e4:g2   move the piece on e4 to g2"),
        "{text}"
    );
    for expected in [
        "undo    take back",
        "a1:a2 a1:a3",
        "'nonsense' is neither a move nor a command",
        "a1:b3 is illegal: a1:b3 does not follow a rank, file or diagonal",
        "white (random:seed=1) plays ",
        "taken back",
        "nothing to undo",
        "bye",
    ] {
        assert!(text.contains(expected), "'{expected}' in:\n{text}");
    }
    assert_eq!(
        text.matches("white (random:seed=1) plays").count(),
        2,
        "{text}"
    );
    // The end of input leaves the game cleanly.
    let output = yolah(&["play", "--white", "random"], "a1:a2\n");
    assert!(output.status.success());
    assert!(stdout(&output).contains("end of input"));
}

#[test]
fn play_passes_for_a_walled_human_and_announces_the_result() {
    let output = yolah(
        &[
            "play",
            "--position",
            "bx4xb/xx4xx/8/3ww3/3ww3/8/xx4xx/bx4xb b 6 6 12",
            "--white",
            "mcts:iterations=200",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("black has no move and passes"), "{text}");
    assert!(text.contains("game over: white wins"), "{text}");
}

#[test]
fn machines_play_each_other_to_the_end() {
    let output = yolah(
        &[
            "play",
            "--black",
            "mcts:iterations=100",
            "--white",
            "random",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("game over: "), "{text}");
    assert!(
        text.contains("black (mcts:iterations=100) plays "),
        "{text}"
    );
}

#[test]
fn think_prints_a_legal_move_and_its_report() {
    let output = yolah(&["think", "mcts:iterations=500", "--seed", "1"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let mv = text.split(',').next().unwrap();
    let moves = stdout(&yolah(&["moves"], ""));
    assert!(moves.split_whitespace().any(|m| m == mv), "{mv} in {moves}");
    assert!(
        text.contains("500 iterations") && text.contains("pv "),
        "{text}"
    );
    // Same move, value and iterations again (only the time and rate differ).
    let again = stdout(&yolah(&["think", "mcts:iterations=500", "--seed", "1"], ""));
    assert_eq!(text.split(" in ").next(), again.split(" in ").next());
    assert_clean_error(
        &yolah(
            &[
                "think",
                "random",
                "-p",
                "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64",
            ],
            "",
        ),
        "the game is over",
    );
    assert_clean_error(
        &yolah(&["think", "mcts:c=-1"], ""),
        "player 'mcts:c=-1': mcts option c='-1'",
    );
}

// A match decided by a sequential test stops as soon as the test decides.
#[test]
fn a_match_under_sprt_stops_when_the_test_decides() {
    let output = yolah(
        &[
            "match",
            "minimax:depth=3",
            "random",
            "--sprt",
            "elo0=0,elo1=100",
            "-t",
            "2",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().last(), Some("H1 accepted"), "{text}");
    assert!(
        text.contains("pentanomial [0, 1/4, 1/2, 3/4, 1]: [0, 0, 0, 0, "),
        "{text}"
    );
    let games: u32 = text
        .split(": ")
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(games < 100, "decided in {games} games: {text}");
    // Two equal players within a small budget: no verdict, said so.
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=5",
            "--sprt",
            "elo0=0,elo1=100",
            "-g",
            "10",
            "--json",
        ],
        "",
    );
    let summary: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(summary["verdict"], "inconclusive", "{summary}");
    assert_eq!(summary["games"], 10);
    for bad in ["elo0=5,elo1=0", "elo1=5", "elo0=0,elo1=5,alpha=0.7"] {
        let output = yolah(&["match", "random", "mcts", "--sprt", bad], "");
        assert_clean_error(&output, "expected elo0=E0,elo1=E1");
        assert_eq!(output.status.code(), Some(2));
    }
}

// A sequential match is resumable: its test's state is a function of the games.
// With deterministic players on one thread, a match killed and resumed ends exactly as one
// that ran through: the same games, the same LLR, the same verdict.
#[test]
fn a_killed_sprt_match_resumes_to_the_same_decision() {
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &Path| -> Vec<String> {
        [
            "match",
            "mcts:iterations=300",
            "montecarlo:iterations=300",
            "--sprt",
            "elo0=0,elo1=40",
            "-t",
            "1",
            "--json",
            "-o",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let through = dir.path().join("through.csv");
    let output = yolah(
        &args(&through)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let whole: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let killed = dir.path().join("killed.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args(&killed))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&killed).map_or(0, |t| t.lines().count()) < 6 {
        assert!(
            start.elapsed() < Duration::from_secs(100),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = game_numbers(&killed);
    assert!(before.len() < whole["games"].as_u64().unwrap() as usize);
    let mut resume = args(&killed);
    resume.push("--resume".to_string());
    let output = yolah(&resume.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("resuming: {} of 20000", before.len())));
    let resumed: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    for key in ["verdict", "games", "pairs", "llr"] {
        assert_eq!(resumed[key], whole[key], "{key}: {resumed} vs {whole}");
    }
    assert_eq!(game_numbers(&killed), game_numbers(&through));
    // A finished match resumed plays nothing and says the same.
    let output = yolah(&resume.iter().map(String::as_str).collect::<Vec<_>>(), "");
    let again: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(again["llr"], whole["llr"]);
    // Another config is refused, the file untouched; so is a new run over it.
    let mut other = resume.clone();
    other[2] = "montecarlo:iterations=301".to_string();
    let rows = std::fs::read_to_string(&killed).unwrap();
    assert_clean_error(
        &yolah(&other.iter().map(String::as_str).collect::<Vec<_>>(), ""),
        "belongs to another run",
    );
    assert_clean_error(
        &yolah(
            &args(&killed).iter().map(String::as_str).collect::<Vec<_>>(),
            "",
        ),
        "continue it with --resume",
    );
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), rows);
}

// Opening suites. The shipped suite is what the generator writes; each opening is
// played twice with colours swapped; a suite's position is recorded as the game's start; a
// bad line is refused with its number before any game.
#[test]
fn opening_suites_are_generated_and_played_in_pairs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shipped = root.join("crates/yolah-ai/data/openings-8ply.txt");
    let output = yolah(&["openings", "--count", "200"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        std::fs::read_to_string(&shipped).unwrap(),
        "the shipped suite is the generator's"
    );
    assert_clean_error(
        &yolah(&["openings", "--count", "0"], ""),
        "--count must be from 1",
    );

    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.csv");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "--openings",
            shipped.to_str().unwrap(),
            "-g",
            "4",
            "-o",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let suite: Vec<String> = std::fs::read_to_string(&shipped)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    let mut reader = csv::Reader::from_path(&record).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    rows.sort_by_key(|r| r[column("game")].parse::<u64>().unwrap());
    for (k, pair) in rows.chunks(2).enumerate() {
        let opening = suite[k].strip_prefix("startpos moves ").unwrap();
        for row in pair {
            assert!(
                row[column("moves")].starts_with(opening),
                "game {}",
                &row[column("game")]
            );
            assert_eq!(&row[column("opening_plies")], "8");
            assert_eq!(&row[column("start")], "");
        }
        assert_eq!(pair[0][column("black")], pair[1][column("white")]);
    }

    // A position as an opening: recorded as the start of both games of its pair.
    let position =
        "xxbxxxxx/wxxxxxxx/xxxxx1xb/1x1xx1x1/x1xxxbx1/bx1xxxwx/1xwx1w1x/x1xx2xx b 21 21 42";
    let small = dir.path().join("suite.txt");
    std::fs::write(&small, format!("# one position\n{position}\n")).unwrap();
    let record = dir.path().join("positions.csv");
    let output = yolah(
        &[
            "match",
            "random",
            "random:seed=2",
            "--openings",
            small.to_str().unwrap(),
            "-g",
            "2",
            "-o",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.matches(position).count(), 2, "{text}");
    let replay = yolah(&["replay", record.to_str().unwrap(), "--game", "1"], "");
    assert!(replay.status.success(), "{}", stderr(&replay));

    // A bad line: refused with its number, nothing written.
    std::fs::write(&small, "startpos moves a1:c3\n\nstartpos moves a1:a1\n").unwrap();
    let record = dir.path().join("never.csv");
    let output = yolah(
        &[
            "match",
            "random",
            "mcts",
            "--openings",
            small.to_str().unwrap(),
            "-g",
            "2",
            "-o",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "line 3: move 1 'a1:a1' (black to play) is illegal");
    assert!(!record.exists());
}

/// Every constant of minimax's search is a named option with its range and
/// step; each reaches the search (a depth-8 search visits other nodes), an out-of-range value
/// is refused in one line, and the defaults search as the search always did.
#[test]
fn the_tunable_constants_are_listed_and_reach_the_search() {
    let text = stdout(&yolah(&["players", "--tunable", "minimax"], ""));
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 24, "{text}");
    let nodes_from = |spec: &str, position: &str| {
        let output = yolah(&["think", spec, "--position", position, "--json"], "");
        assert!(output.status.success(), "{spec}: {}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        json["nodes"].as_u64().unwrap()
    };
    let nodes = |spec: &str| nodes_from(spec, "startpos");
    let plain = nodes("minimax:depth=6");
    for row in &rows {
        let [name, default, min, max, step] = row[..] else {
            panic!("{row:?}")
        };
        let (default, min, max): (u64, u64, u64) = (
            default.parse().unwrap(),
            min.parse().unwrap(),
            max.parse().unwrap(),
        );
        assert!(min <= default && default <= max && step.parse::<u64>().unwrap() >= 1);
        assert_eq!(
            nodes(&format!("minimax:depth=6,{name}={default}")),
            plain,
            "{name}"
        );
        assert_clean_error(
            &yolah(&["think", &format!("minimax:{name}={}", max + 1)], ""),
            &format!("expected a whole number from {min} to {max}"),
        );
    }
    for changed in [
        "lmr_base=150",
        "lmp_a=1",
        "prune_free=56",
        "nmp_depth=1",
        "aspiration=10",
        "lmr_pv=1",
        "lmp_worsening=50",
        "cont_history=200",
        "se_depth=4",
        "iir_depth=0",
        "hp_margin=1",
    ] {
        assert_ne!(
            nodes(&format!("minimax:depth=6,{changed}")),
            plain,
            "{changed}"
        );
    }
    // History's share of a reduction shows deeper, where histories have grown.
    assert_ne!(
        nodes("minimax:depth=8,lmr_history=400"),
        nodes("minimax:depth=8"),
        "lmr_history"
    );
    // Singular extensions start at depth 6: at depth 6 from the start none is tried, so their
    // margin is checked from depth 4.
    assert_ne!(
        nodes("minimax:depth=6,se_depth=4,se_margin=200"),
        nodes("minimax:depth=6,se_depth=4"),
        "se_margin"
    );
    // Their negative side (a table move not singular, yet holding beta) shows a ply deeper.
    assert_ne!(
        nodes("minimax:depth=7,se_depth=4,se_negative=1"),
        nodes("minimax:depth=7,se_depth=4"),
        "se_negative"
    );
    assert_ne!(
        nodes("minimax:depth=6,se_depth=4,se_double=10"),
        nodes("minimax:depth=6,se_depth=4"),
        "se_double"
    );
    // Where regions are checked shows in an endgame (26 free squares), with regions on.
    let endgame = |spec: &str| {
        let position = "startpos moves d5:e6 d4:d2 e6:g4 d2:b2 a1:f1 e5:f4 g4:g1 a8:a5 f1:c4 \
                        h1:f3 c4:c7 f4:f7 g1:g3 f7:g7 c7:c6 g7:g5 h8:d8 a5:b6 e4:c2 b2:a3 c6:c5 \
                        b6:a6 d8:f6 g5:g6 c5:b4 a3:b3 g3:h2 g6:h5 h2:f2 f3:d1";
        nodes_from(spec, position)
    };
    assert_ne!(
        endgame("minimax:depth=6,regions=on,regions_free=20"),
        endgame("minimax:depth=6,regions=on"),
        "regions_free"
    );
    assert_clean_error(
        &yolah(&["players", "--tunable", "mcts"], ""),
        "mcts has no tunable constants",
    );
}

//! The minimax commands as a user runs them: `solve`, `bench`, `tune` (with a kill and a
//! resume), and minimax specs in `think` and `match`.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// 12 free squares, black to move (from a game).
const ENDGAME: &str =
    "xxxbxx1x/xxxxxwxx/xxxx1xxb/xw1xx1xx/bxxxx3/xxw1xxxx/1x1xxwx1/x1xxxbxx b 21 23 46";

#[test]
fn solve_prints_the_exact_margin_and_a_line_that_reaches_it() {
    let output = yolah(&["solve", "-p", ENDGAME], "");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let margin_line = text.lines().last().unwrap();
    assert!(margin_line.starts_with("margin "), "{text}");
    assert!(margin_line.contains("black to move"), "{text}");
    let margin: i32 = margin_line
        .split(' ')
        .nth(1)
        .unwrap()
        .trim_start_matches('+')
        .parse()
        .unwrap();
    // Play the line: it ends the game with that margin for white.
    let pv = text.lines().find(|l| l.starts_with("pv ")).unwrap();
    let moves = pv.trim_start_matches("pv ");
    let replayed = yolah(&["replay", "-p", ENDGAME, "-"], moves);
    let last = stdout(&replayed);
    let end = last.lines().last().unwrap();
    let fields: Vec<&str> = end.split(' ').collect();
    let (black, white): (i32, i32) = (fields[2].parse().unwrap(), fields[3].parse().unwrap());
    assert!(stdout(&replayed).contains("game over"), "{last}");
    assert_eq!(black - white, margin, "{text}\n{last}");
    // Progress went to stderr, one line per iteration.
    assert!(stderr(&output).contains("depth"), "{}", stderr(&output));
}

/// A drawn endgame of 22 free squares (where the search's null moves cut)
/// reached depth 127 at +0.00 in under a second, then said "not proved within 1min". A
/// search deeper than the game can last proves its value; the draw is said as one.
#[test]
fn solve_proves_a_drawn_endgame_and_blames_the_time_only_when_it_ran_out() {
    let drawn = "xxwx1bbx/1x1xwx1x/x1w1x1b1/b1xxxxxx/2xxx1wx/x1xx1xxx/x3xx1x/x3xx1x b 17 17 34";
    let output = yolah(&["solve", "-p", drawn], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        text.lines().last(),
        Some("margin +0 for black to move: a draw"),
        "{text}"
    );
    let last_iteration = stderr(&output).lines().last().unwrap_or("").to_string();
    assert!(last_iteration.contains("draw (proved)"), "{last_iteration}");
}

#[test]
fn solve_of_a_finished_game_and_bad_arguments() {
    let over = "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64";
    let output = yolah(&["solve", "-p", over], "");
    assert!(output.status.success());
    assert!(stdout(&output).contains("margin -8 for black to move: white wins by 8"));
    assert_clean_error(
        &yolah(&["solve", "--tt", "0", "-p", ENDGAME], ""),
        "--tt must be from 1",
    );
    assert_clean_error(
        &yolah(&["solve", "--threads", "300", "-p", ENDGAME], ""),
        "--threads must be from 1 to 256",
    );
    assert_clean_error(&yolah(&["solve", "-p", "nonsense"], ""), "bad position");
}

#[test]
fn bench_prints_its_signature_and_rate() {
    let output = yolah(&["bench", "--depth", "3"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let nodes = |text: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = nodes(&text);
    assert!(text.contains("nodes/s "), "{text}");
    assert!(text.contains("nn nodes/s "), "{text}");
    assert!(text.contains("nn nodes "), "{text}");
    assert_eq!(
        stderr(&output).lines().count(),
        60,
        "one line per position and evaluation"
    );
    // The signature is a function of the search alone.
    assert_eq!(
        nodes(&stdout(&yolah(&["bench", "--depth", "3"], ""))),
        first
    );
    assert_ne!(
        nodes(&stdout(&yolah(&["bench", "--depth", "2"], ""))),
        first
    );
    assert_clean_error(
        &yolah(&["bench", "--depth", "99"], ""),
        "--depth must be from 1 to 14",
    );
    // Other networks, by file, in the same run: the shipped one given as a file searches the
    // same tree as the shipped one.
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("shipped.yolahnet");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../yolah-ai/data/network.yolahnet"
        ),
        &net,
    )
    .unwrap();
    let output = yolah(
        &["bench", "--depth", "3", "--net", net.to_str().unwrap()],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("net 1 is "), "{text}");
    let shape = yolah_ai::eval::Network::shipped().shape().to_string();
    assert!(text.contains(&format!("({shape})")), "{text}");
    let line = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap()
            .to_string()
    };
    assert_eq!(line("net 1 nodes "), line("nn nodes "));
    std::fs::write(&net, b"YOLAHNET and nothing else").unwrap();
    assert_clean_error(
        &yolah(&["bench", "--net", net.to_str().unwrap()], ""),
        "--net",
    );
}

#[test]
fn minimax_plays_think_and_match() {
    let output = yolah(&["think", "minimax:depth=3"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("depth 3/"), "{}", stdout(&output));
    // The book answers a timed move; a depth limit searches.
    let output = yolah(&["think", "minimax:time=50ms,eval=nn"], "");
    assert!(
        stdout(&output).contains("; book move ("),
        "{}",
        stdout(&output)
    );
    let output = yolah(&["think", "minimax:depth=3,eval=nn"], "");
    assert!(stdout(&output).contains("depth 3/"), "{}", stdout(&output));
    let output = yolah(
        &[
            "match",
            "minimax:nodes=2000",
            "random",
            "--games",
            "4",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("minimax:nodes=2000 vs random"));
    assert_clean_error(
        &yolah(&["think", "minimax:weights=/no/such.json"], ""),
        "cannot read weights '/no/such.json'",
    );
}

fn tune_args<'a>(out: &'a str, generations: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "--out",
        out,
        "--generations",
        generations,
        "--population",
        "4",
        "--elite",
        "1",
        "--openings",
        "1",
        "--nodes",
        "300",
        "--opponent",
        "start",
        "--opponent",
        "random",
        "--seed",
        "3",
        "--threads",
        "2",
    ]
}

#[test]
fn tune_writes_its_files_and_a_killed_run_resumes_to_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let straight = dir.path().join("straight");
    let output = yolah(&tune_args(straight.to_str().unwrap(), "6"), "");
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["checkpoint.json", "log.csv", "best-weights.json", "log.png"] {
        assert!(straight.join(file).exists(), "{file}");
    }
    let log = std::fs::read_to_string(straight.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 6, "{log}");
    // The best weights are a valid weights file, usable by a player.
    let weights = straight.join("best-weights.json");
    let spec = format!("minimax:depth=2,weights={}", weights.display());
    assert!(yolah(&["think", &spec], "").status.success());
    // The decision on the finished run: best against start weights under a test,
    // its games kept beside the run; the same command again plays nothing more.
    let decide = [
        "tune",
        "--out",
        straight.to_str().unwrap(),
        "--resume",
        "--sprt",
        "elo0=-300,elo1=300",
    ];
    let output = yolah(&decide, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let verdict = text.lines().last().unwrap();
    assert!(["H0 accepted", "H1 accepted"].contains(&verdict), "{text}");
    let record = straight.join("sprt-gen6.csv");
    let games = std::fs::read_to_string(&record).unwrap();
    assert!(straight.join("start-weights.json").exists());
    let output = yolah(&decide, "");
    assert!(stdout(&output).ends_with(&format!("{verdict}\n")));
    assert_eq!(std::fs::read_to_string(&record).unwrap(), games);

    // The same run, killed after its first generation and resumed.
    let killed = dir.path().join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(tune_args(killed.to_str().unwrap(), "6"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let rows = || std::fs::read_to_string(killed.join("log.csv")).map_or(0, |t| t.lines().count());
    while rows() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(100),
            "no generation written"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let output = yolah(&["tune", "--out", killed.to_str().unwrap(), "--resume"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["log.csv", "best-weights.json", "checkpoint.json"] {
        assert_eq!(
            std::fs::read_to_string(killed.join(file)).unwrap(),
            std::fs::read_to_string(straight.join(file)).unwrap(),
            "{file}"
        );
    }

    // A finished run extends with --generations; a second start on it is refused.
    let output = yolah(
        &[
            "tune",
            "--out",
            killed.to_str().unwrap(),
            "--resume",
            "--generations",
            "7",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let log = std::fs::read_to_string(killed.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 7);
    assert_clean_error(
        &yolah(&tune_args(killed.to_str().unwrap(), "6"), ""),
        "holds a tuning run already",
    );
    assert_clean_error(
        &yolah(
            &[
                "tune",
                "--out",
                killed.to_str().unwrap(),
                "--resume",
                "--nodes",
                "5",
            ],
            "",
        ),
        "only --generations and --threads",
    );
}

#[test]
fn tune_refuses_bad_settings_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    let cases = [
        (vec!["--population", "1"], "population must be from 2"),
        (vec!["--generations", "0"], "generations must be from 1"),
        (vec!["--nodes", "0"], "nodes must be from 1"),
        (
            vec!["--opponent", "mcts:depth=1"],
            "opponent 'mcts:depth=1'",
        ),
        (
            vec!["--threads", "0"],
            "--threads must be from 1 to 1024, not 0",
        ),
        (
            vec!["--random-plies", "100"],
            "random plies must be from 0 to 40",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["tune", "--out", out];
        args.extend(extra);
        assert_clean_error(&yolah(&args, ""), expected);
    }
    assert!(!std::path::Path::new(out).exists(), "nothing written");
    assert_clean_error(
        &yolah(&["tune", "--out", out, "--resume"], ""),
        "there is no tuning run to resume",
    );
}

/// A solve that cannot finish (the start has 56 free squares) ends at its
/// time with a clear "not proved within …", instead of running for ever.
#[test]
fn a_solve_beyond_its_time_says_so_and_ends() {
    let start = Instant::now();
    let output = yolah(&["solve", "--time", "1s"], "");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let last = stderr(&output).lines().last().unwrap_or("").to_string();
    assert!(last.contains("not proved within 1s"), "{last}");
    assert!(last.contains("56 free squares"), "{last}");
    assert!(
        start.elapsed() < Duration::from_mins(1),
        "{:?}",
        start.elapsed()
    );
}

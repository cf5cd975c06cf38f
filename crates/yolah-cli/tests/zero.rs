//! `yolah zero` as a user runs it: generations of `AlphaZero` self-play, training and matches
//! into one directory; killed again and again and resumed, it ends where an uninterrupted run
//! ends; bad options are refused before anything is written; a full disk, a second writer
//! and foreign files are each said in one line and lose nothing.

mod common;

use common::{assert_clean_error, stderr, stdout, walk, yolah};
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random,
};

/// A tiny run: 48 games of 8 visits a generation (three files of self-play), a 16-unit
/// network, a game pair against `random` per generation, one thread (reproducible).
fn run_args(dir: &Path, generations: u32) -> Vec<String> {
    [
        "zero",
        "--out",
        dir.to_str().unwrap(),
        "--generations",
        &generations.to_string(),
        "--games",
        "48",
        "--visits",
        "8",
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--test-games",
        "2",
        "--opponent",
        "random",
        "--threads",
        "1",
    ]
    .map(String::from)
    .to_vec()
}

/// `--resume` of the run in `dir` up to `generations`, on one thread.
fn resume_args(dir: &Path, generations: u32) -> Vec<String> {
    let generations = generations.to_string();
    [
        "zero",
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--generations",
        &generations,
        "--threads",
        "1",
    ]
    .map(String::from)
    .to_vec()
}

/// `lines` with the run's directory `from` written `DIR`, to compare runs in two places.
fn replace(lines: Vec<String>, from: &Path) -> Vec<String> {
    let from = from.to_str().unwrap();
    lines.into_iter().map(|l| l.replace(from, "DIR")).collect()
}

fn run(args: &[String]) -> std::process::Output {
    yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "")
}

fn digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// What a run made, without its timings: every network and self-play file's digest, the
/// table without its hours column, the matches' games (players, result, scores, moves; the
/// run's directory said `DIR`; games sorted, as two threads record them as they finish).
fn outcome(dir: &Path) -> Vec<String> {
    let mut seen = Vec::new();
    let table = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    for line in table.lines() {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells.remove(1);
        seen.push(cells.join(","));
    }
    let mut files = walk(dir);
    files.sort();
    for file in files {
        let name = file
            .strip_prefix(dir.to_str().unwrap())
            .unwrap()
            .to_string();
        let extension = Path::new(&name).extension().and_then(|e| e.to_str());
        if matches!(extension, Some("yolahpv" | "bin")) {
            seen.push(format!(
                "{name} {:016x}",
                digest(&std::fs::read(&file).unwrap())
            ));
        }
        if name.contains("/vs-") {
            let mut games = csv::Reader::from_path(&file).unwrap();
            let header = games.headers().unwrap().clone();
            let column = |name: &str| header.iter().position(|h| h == name).unwrap();
            let kept = [
                "game",
                "black",
                "white",
                "result",
                "black_score",
                "white_score",
                "moves",
            ]
            .map(column);
            // Games are recorded as they finish: on two threads, in either order.
            let mut rows: Vec<String> = games
                .records()
                .map(|game| {
                    let game = game.unwrap();
                    let cells: Vec<&str> = kept.iter().map(|&k| &game[k]).collect();
                    cells.join(";").replace(dir.to_str().unwrap(), "DIR")
                })
                .collect();
            rows.sort();
            seen.extend(rows);
        }
    }
    seen
}

#[test]
fn generations_run_and_resume_after_kills_to_the_same_end() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let output = run(&run_args(&straight, 2));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("zero: generation 2 against random: "),
        "{text}"
    );
    assert!(text.contains("zero: 2 generations done"), "{text}");
    for file in [
        "zero.json",
        "state.json",
        "generations.csv",
        "learning.png",
        "gen-000/network.yolahpv",
        "gen-000/vs-01.csv",
        "gen-001/games-0000.bin",
        "gen-001/network.yolahpv",
        "gen-001/train.log",
        "gen-002/network.yolahpv",
        "gen-002/vs-01.csv",
    ] {
        assert!(straight.join(file).exists(), "{file} missing");
    }
    let table = std::fs::read_to_string(straight.join("generations.csv")).unwrap();
    assert_eq!(
        table.lines().count(),
        4,
        "a header and generations 0, 1, 2: {table}"
    );
    let expected = outcome(&straight);
    // The generation's network plays its own matches.
    let games = std::fs::read_to_string(straight.join("gen-002/vs-01.csv")).unwrap();
    assert!(games.contains("gen-002/network.yolahpv"), "{games}");
    // Each generation trains: the networks differ.
    let networks: Vec<&str> = expected
        .iter()
        .filter(|l| l.starts_with('/') && l.contains(".yolahpv "))
        .map(|l| l.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(networks.len(), 3, "{expected:?}");
    assert!(
        networks[0] != networks[1] && networks[1] != networks[2],
        "{networks:?}"
    );

    // The same run on two threads ends the same: the networks do not depend on them.
    let two = root.path().join("two");
    let mut args = run_args(&two, 2);
    let threads = args.iter().position(|a| a == "--threads").unwrap() + 1;
    args[threads] = "2".to_string();
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        replace(outcome(&two), &two),
        replace(expected.clone(), &straight)
    );

    let killed = root.path().join("killed");
    let start = run_args(&killed, 2);
    let resume: Vec<String> = [
        "zero",
        "--out",
        killed.to_str().unwrap(),
        "--resume",
        "--threads",
        "1",
    ]
    .map(String::from)
    .to_vec();
    // The whole run takes about 0.15 s on a fast machine: kills up to 40 ms in land before
    // it is done at least 6 times (up to 60 ms, only 5 once did).
    let kills = kill_at_random(
        24,
        5,
        Duration::from_millis(5)..Duration::from_millis(40),
        |_| {
            let args = if killed.join("zero.json").exists() {
                &resume
            } else {
                &start
            };
            Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(args.iter())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        },
        |_| {},
    );
    // The last kill may have come before the first checkpoint (each write is synced to disk,
    // slow on a busy machine): then the run is started again, as a user would.
    let last = if killed.join("zero.json").exists() {
        &resume
    } else {
        &start
    };
    let output = run(last);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(kills >= 6, "killed only {kills} times");
    assert_eq!(outcome(&killed), expected, "after {kills} kills");
}

/// A start killed after its config, before its state: `--resume` finishes it, to the end a
/// run never killed reaches.
#[test]
fn a_start_cut_before_its_state_resumes() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let output = run(&run_args(&straight, 1));
    assert!(output.status.success(), "{}", stderr(&output));
    let cut = root.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(straight.join("zero.json"), cut.join("zero.json")).unwrap();
    let output = run(&resume_args(&cut, 1));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        replace(outcome(&cut), &cut),
        replace(outcome(&straight), &straight)
    );
}

/// `--features on`: every network of the run reads the features (its file says so), the
/// player plays with it, and a resume keeps the setting.
#[test]
fn a_run_with_features_makes_networks_that_read_them() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let mut args = run_args(&dir, 1);
    args.extend(["--features".to_string(), "on".to_string()]);
    let first = run(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
    assert!(config.contains("\"features\": true"), "{config}");
    for generation in ["gen-000", "gen-001"] {
        let bytes = std::fs::read(dir.join(generation).join("network.yolahpv")).unwrap();
        assert_eq!(&bytes[..8], b"YOLAHPF2", "{generation}");
    }
    let net = dir.join("gen-001/network.yolahpv");
    let spec = format!("alphazero:iterations=64,net={}", net.display());
    let think = yolah(&["think", &spec], "");
    assert!(think.status.success(), "{}", stderr(&think));
    assert!(
        stdout(&think).contains("64 iterations"),
        "{}",
        stdout(&think)
    );
    let mut more = resume_args(&dir, 2);
    let resumed = run(&more);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let bytes = std::fs::read(dir.join("gen-002/network.yolahpv")).unwrap();
    assert_eq!(&bytes[..8], b"YOLAHPF2");
    more.extend(["--features".to_string(), "off".to_string()]);
    assert_clean_error(&run(&more), "only --generations and --threads may be given");
    // A config edited by hand to disagree with the networks: refused when one is read.
    let config_path = dir.join("zero.json");
    let config = std::fs::read_to_string(&config_path).unwrap();
    std::fs::write(
        &config_path,
        config.replace("\"features\": true", "\"features\": false"),
    )
    .unwrap();
    assert_clean_error(
        &run(&resume_args(&dir, 3)),
        "gen-000/network.yolahpv has 16 hidden units with features where zero.json says 16 without features",
    );
}

/// `--value-mix` is kept in `zero.json` and changes what is learnt from the same games.
#[test]
fn the_value_mix_changes_what_is_learnt_from_the_same_games() {
    let root = tempfile::tempdir().unwrap();
    let mut networks = Vec::new();
    let mut games = Vec::new();
    for mix in ["0", "1"] {
        let dir = root.path().join(format!("mix-{mix}"));
        let mut args = run_args(&dir, 1);
        args.extend(["--value-mix".to_string(), mix.to_string()]);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        assert!(
            config.contains(&format!("\"value_mix\": {mix}")),
            "{config}"
        );
        games.push(std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap());
        networks.push(std::fs::read(dir.join("gen-001/network.yolahpv")).unwrap());
    }
    assert_eq!(&games[0][..8], b"YOLAHZS3");
    assert_eq!(games[0], games[1], "the same self-play");
    assert_ne!(networks[0], networks[1], "different value targets");
    // A run made before the mix (no `value_mix` in its zero.json) resumes, with none.
    let dir = root.path().join("mix-0");
    let config_path = dir.join("zero.json");
    let config = std::fs::read_to_string(&config_path).unwrap();
    let old: String = config
        .lines()
        .filter(|line| !line.contains("value_mix"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(old, config);
    std::fs::write(&config_path, old).unwrap();
    let resumed = run(&resume_args(&dir, 2));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let log = std::fs::read_to_string(dir.join("gen-002/train.log")).unwrap();
    assert!(log.contains(", value 0."), "{log}");
    let mixed = std::fs::read_to_string(root.path().join("mix-1/gen-001/train.log")).unwrap();
    assert!(mixed.contains("value (against the mix 1)"), "{mixed}");
}

/// `--margin-weight` is kept in `zero.json` and trains the margin head on the same games (its
/// loss in the log), whose gradient changes the layers the heads share; a run without it says
/// no margin loss and leaves the head as generation 0 drew it.
#[test]
fn the_margin_weight_trains_the_margin_head_on_the_same_games() {
    let root = tempfile::tempdir().unwrap();
    let mut networks = Vec::new();
    let mut games = Vec::new();
    for weight in ["0", "1"] {
        let dir = root.path().join(format!("margin-{weight}"));
        let mut args = run_args(&dir, 1);
        args.extend(["--margin-weight".to_string(), weight.to_string()]);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        assert!(
            config.contains(&format!("\"margin_weight\": {weight}")),
            "{config}"
        );
        let log = std::fs::read_to_string(dir.join("gen-001/train.log")).unwrap();
        assert_eq!(log.contains(", margin 0."), weight == "1", "{log}");
        games.push(std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap());
        networks.push(
            ["gen-000", "gen-001"]
                .map(|g| std::fs::read(dir.join(g).join("network.yolahpv")).unwrap()),
        );
    }
    assert_eq!(games[0], games[1], "the same self-play");
    // The file ends with the margin head (16 weights and a bias), then its 8-byte hash.
    let head = |bytes: &[u8]| bytes[bytes.len() - 8 - 4 * 17..bytes.len() - 8].to_vec();
    let rest = |bytes: &[u8]| bytes[..bytes.len() - 8 - 4 * 17].to_vec();
    let [[start, plain], [_, margin]] = &networks[..] else {
        unreachable!()
    };
    assert_eq!(head(start), head(plain), "the head left alone");
    assert_ne!(head(start), head(margin), "the head trained");
    assert_ne!(rest(plain), rest(margin), "the shared layers changed by it");
    let resumed = run(&resume_args(&root.path().join("margin-1"), 2));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let log = std::fs::read_to_string(root.path().join("margin-1/gen-002/train.log")).unwrap();
    assert!(log.contains(", margin 0."), "{log}");
}

/// `--exact-free` is kept in `zero.json` and changes the targets, not the games: the same
/// positions and policies, the same results and margins above its free squares, and at or
/// below them each a result with best play (the sign of its margin); a random network's
/// games are far from best play, so some differ from the game's. The run resumes with it.
#[test]
fn exact_targets_change_the_labels_not_the_games() {
    let root = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for exact in [false, true] {
        let dir = root.path().join(format!("exact-{exact}"));
        let mut args = run_args(&dir, 1);
        if exact {
            args.extend(["--exact-free", "16", "--exact-nodes", "2000000"].map(String::from));
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        let kept = "\"exact\": {\n    \"free\": 16,\n    \"nodes\": 2000000\n  }";
        assert_eq!(config.contains(kept), exact, "{config}");
        let bytes = std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap();
        runs.push(yolah_train::zero::samples_from_bytes(&bytes).unwrap());
        if exact {
            let resumed = run(&resume_args(&dir, 2));
            assert!(resumed.status.success(), "{}", stderr(&resumed));
            let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
            assert!(config.contains(kept), "{config}");
        }
    }
    let (plain, exact) = (&runs[0], &runs[1]);
    assert_eq!(plain.len(), exact.len());
    let (mut late, mut changed) = (0, 0);
    for (p, e) in plain.iter().zip(exact) {
        assert_eq!((p.position, &p.policy), (e.position, &e.policy));
        if 64 - e.position.occupied().count() > 16 {
            assert_eq!((p.result, p.margin), (e.result, e.margin), "{}", e.position);
            continue;
        }
        let margin = e.margin.unwrap();
        let best_play = margin.signum() * f32::from(margin != 0.0);
        assert_eq!(e.result.to_bits(), best_play.to_bits());
        late += 1;
        changed += usize::from(p.margin != e.margin);
    }
    assert!(late > 100, "{late} samples at 16 free squares or fewer");
    // Out-of-range settings are refused before anything is written.
    let dir = root.path().join("refused");
    let out = dir.to_str().unwrap();
    for (extra, expected) in [
        (
            &["--exact-free", "0"][..],
            "--exact-free must be from 1 to 32, not 0",
        ),
        (
            &["--exact-free", "33"],
            "--exact-free must be from 1 to 32, not 33",
        ),
        (
            &["--exact-free", "10", "--exact-nodes", "0"],
            "--exact-nodes must be from 1 to 100000000, not 0",
        ),
    ] {
        let mut args = vec!["zero", "--out", out];
        args.extend_from_slice(extra);
        assert_clean_error(&yolah(&args, ""), expected);
        assert!(!dir.exists(), "{extra:?} wrote {}", dir.display());
    }
    assert!(
        changed > 0,
        "{changed} of {late} exact margins differ from the games'"
    );
}

/// With `--gumbel` the policy targets are the Gumbel root's improved policy, which puts
/// weight on every move, where 8 visits' shares can be on at most 8; the run resumes with
/// its setting from its config.
#[test]
fn a_gumbel_run_learns_its_improved_policy() {
    let root = tempfile::tempdir().unwrap();
    let mut spread = Vec::new();
    for gumbel in [None, Some("4")] {
        let dir = root
            .path()
            .join(format!("gumbel-{}", gumbel.unwrap_or("off")));
        let mut args = run_args(&dir, 1);
        if let Some(m) = gumbel {
            args.extend(["--gumbel".to_string(), m.to_string()]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        let expected = format!("\"gumbel\": {}", gumbel.unwrap_or("0"));
        assert!(config.contains(&expected), "{config}");
        let bytes = std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap();
        let samples = yolah_train::zero::samples_from_bytes(&bytes).unwrap();
        let wide = samples
            .iter()
            .filter(|s| s.policy.len() > 8)
            .map(|s| s.policy.iter().filter(|&&p| p > 0.0).count())
            .collect::<Vec<_>>();
        assert!(
            wide.len() > 100,
            "{} positions of more than 8 moves",
            wide.len()
        );
        spread.push((wide.iter().filter(|&&n| n > 8).count(), wide.len()));
        if gumbel.is_some() {
            let resumed = run(&resume_args(&dir, 2));
            assert!(resumed.status.success(), "{}", stderr(&resumed));
            let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
            assert!(config.contains(&expected), "{config}");
        }
    }
    assert_eq!(spread[0].0, 0, "8 visits' shares on more than 8 moves");
    let (more, of) = spread[1];
    assert!(
        more * 10 > of * 9,
        "the improved policy on more than 8 moves {more} times of {of}"
    );
}

/// With `--fast-visits` most moves are searched fast and not recorded: a generation of the
/// same games records about a quarter of the samples (`--full-share` 0.25 by default), and
/// the run resumes with its setting from its config.
#[test]
fn a_playout_cap_records_a_share_of_the_moves() {
    let root = tempfile::tempdir().unwrap();
    let mut counts = Vec::new();
    for cap in [false, true] {
        let dir = root.path().join(format!("cap-{cap}"));
        let mut args = run_args(&dir, 1);
        if cap {
            args.extend(["--fast-visits".to_string(), "2".to_string()]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        let expected = if cap {
            "\"fast_visits\": 2,\n  \"full_share\": 0.25"
        } else {
            "\"fast_visits\": 0,\n  \"full_share\": 0.0"
        };
        assert!(config.contains(expected), "{config}");
        let bytes = std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap();
        counts.push(yolah_train::zero::samples_from_bytes(&bytes).unwrap().len());
        if cap {
            let resumed = run(&resume_args(&dir, 2));
            assert!(resumed.status.success(), "{}", stderr(&resumed));
            let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
            assert!(config.contains(expected), "{config}");
        }
    }
    let share = counts[1] as f64 / counts[0] as f64;
    assert!((0.1..0.45).contains(&share), "{counts:?}");
}

/// `--explore` sets the plies whose self-play move is drawn by its visits: 20 unless told, as
/// runs made before it drew (their `zero.json` without the setting resumes so, to the same
/// end); other values play other games; the run resumes with its setting.
#[test]
fn explore_sets_the_plies_drawn_and_older_runs_keep_twenty() {
    let root = tempfile::tempdir().unwrap();
    let self_play = |dir: &Path| std::fs::read(dir.join("gen-001/games-0000.bin")).unwrap();
    let mut games = Vec::new();
    for explore in [None, Some("20"), Some("0"), Some("200")] {
        let dir = root
            .path()
            .join(format!("explore-{}", explore.unwrap_or("default")));
        let mut args = run_args(&dir, 1);
        if let Some(plies) = explore {
            args.extend(["--explore".to_string(), plies.to_string()]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.join("zero.json")).unwrap();
        let expected = format!("\"explore\": {}", explore.unwrap_or("20"));
        assert!(config.contains(&expected), "{config}");
        games.push(self_play(&dir));
    }
    assert!(games[0] == games[1], "--explore 20 is not the default");
    assert!(games[0] != games[2], "no drawn plies played the same games");
    assert!(
        games[2] != games[3],
        "all plies drawn played the same games"
    );
    // A run made before the setting: its config without it, resumed, draws 20 plies.
    let old = root.path().join("explore-default");
    let config = std::fs::read_to_string(old.join("zero.json")).unwrap();
    let before = config.replace(",\n  \"explore\": 20", "");
    assert_ne!(before, config);
    std::fs::write(old.join("zero.json"), before).unwrap();
    let resumed = run(&resume_args(&old, 2));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let fresh = root.path().join("fresh");
    let out = run(&run_args(&fresh, 2));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(old.join("gen-002/games-0000.bin")).unwrap(),
        std::fs::read(fresh.join("gen-002/games-0000.bin")).unwrap(),
        "an older run's second generation is not a default run's"
    );
    // And a run with its own setting resumes with it.
    let zero = root.path().join("explore-0");
    let resumed = run(&resume_args(&zero, 2));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let config = std::fs::read_to_string(zero.join("zero.json")).unwrap();
    assert!(config.contains("\"explore\": 0"), "{config}");
}

#[test]
fn bad_options_are_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    for (extra, expected) in [
        (&["--generations", "0"][..], "generations is 0: 1 to 1000"),
        (&["--games", "7"], "games is 7: 8 to 100000"),
        (&["--visits", "1"], "visits is 1: 2 to 100000"),
        (&["--hidden", "12"], "hidden is 12: a multiple of 8"),
        (&["--hidden", "2048"], "hidden is 2048: 8 to 1024"),
        (&["--epochs", "101"], "epochs is 101"),
        (&["--window", "0"], "window is 0"),
        (&["--explore", "201"], "explore is 201: 0 to 200"),
        (&["--explore=-1"], "-1"),
        (&["--test-games", "3"], "test games is 3: an even number"),
        (&["--learning-rate", "0"], "learning rate is 0"),
        (&["--value-mix", "1.5"], "value mix is 1.5: 0 to 1"),
        (&["--value-mix", "NaN"], "value mix is NaN: 0 to 1"),
        (&["--margin-weight", "11"], "margin weight is 11: 0 to 10"),
        (&["--margin-weight=-1"], "margin weight is -1: 0 to 10"),
        (&["--margin-weight", "NaN"], "margin weight is NaN: 0 to 10"),
        (&["--opponent", "chess"], "opponent chess"),
        (&["--threads", "0"], "--threads is 0: 1 to 1024"),
        (&["--gate", "3"], "gate games is 3: an even number"),
        (&["--gate", "20000"], "gate games is 20000: 2 to 10000"),
        (&["--gumbel", "0"], "gumbel is 0: 2 to 64"),
        (&["--gumbel", "65"], "gumbel is 65: 2 to 64"),
        (
            &["--fast-visits", "0"],
            "fast visits is 0: 1 to --visits − 1",
        ),
        (
            &["--visits", "8", "--fast-visits", "8"],
            "fast visits is 8: 1 to 7",
        ),
        (
            &["--fast-visits", "2", "--full-share", "0"],
            "full share is 0: above 0 and at most 1",
        ),
        (
            &["--fast-visits", "2", "--full-share", "1.5"],
            "full share is 1.5: above 0 and at most 1",
        ),
    ] {
        let mut args = vec!["zero", "--out", out];
        args.extend_from_slice(extra);
        assert_clean_error(&yolah(&args, ""), expected);
        assert!(!dir.exists(), "{extra:?} wrote {}", dir.display());
    }
    assert_clean_error(
        &yolah(&["zero", "--out", out, "--resume"], ""),
        "nothing to resume",
    );
    // A path that cannot go into a player spec is refused before anything is made.
    for odd in ["a,b", "a=b"] {
        let path = root.path().join(odd);
        let output = yolah(&["zero", "--out", path.to_str().unwrap()], "");
        assert_clean_error(&output, "a run's path cannot hold");
        assert!(!path.exists(), "{odd:?} was made");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["zero", "--out", " lead"])
        .current_dir(root.path())
        .output()
        .unwrap();
    assert_clean_error(&output, "nor start or end with a space");
    assert!(!root.path().join(" lead").exists());
    let output = run(&run_args(&dir, 1));
    assert!(output.status.success(), "{}", stderr(&output));
    for extra in [
        ["--visits", "5"],
        ["--opponent", "mcts"],
        ["--value-mix", "0.5"],
        ["--margin-weight", "1"],
        ["--exact-free", "10"],
        ["--gumbel", "4"],
        ["--explore", "8"],
    ] {
        let mut args = vec!["zero", "--out", out, "--resume"];
        args.extend_from_slice(&extra);
        assert_clean_error(&yolah(&args, ""), "only --generations and --threads");
    }
    // A state that cannot be the run's is refused in one line, left as it is.
    let state = dir.join("state.json");
    let ours = std::fs::read(&state).unwrap();
    for forged in [
        r#"{"generation": 0, "phase": "selfplay", "seconds": 1.0}"#,
        r#"{"generation": 0, "phase": "train", "seconds": 1.0}"#,
        r#"{"generation": 500, "phase": "test", "seconds": 1.0}"#,
        r#"{"generation": 1, "phase": "test", "seconds": -5.0}"#,
        r#"{"generation": 1, "phase": "sleep", "seconds": 1.0}"#,
    ] {
        std::fs::write(&state, forged).unwrap();
        let untouched = Untouched::take(&state);
        let output = yolah(&["zero", "--out", out, "--resume"], "");
        assert_clean_error(&output, "is not this run's state");
        untouched.assert();
    }
    std::fs::write(&state, ours).unwrap();
    // A second run into the same place is refused.
    assert_clean_error(
        &yolah(&["zero", "--out", out], ""),
        "a new run needs a new or empty directory",
    );
}

/// A run's own files replaced by foreign ones are refused on --resume with one line naming
/// the file, and left byte for byte.
#[test]
fn foreign_files_are_refused_with_their_name_and_left_as_they_are() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let output = run(&run_args(&dir, 1));
    assert!(output.status.success(), "{}", stderr(&output));
    let resume = [
        "zero",
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--generations",
        "2",
    ];
    // Generation 2 reads generation 1's network and self-play, and the state and config.
    for file in [
        "zero.json",
        "state.json",
        "gen-001/network.yolahpv",
        "gen-001/games-0000.bin",
    ] {
        let path = dir.join(file);
        let ours = std::fs::read(&path).unwrap();
        for (name, contents) in foreign_files() {
            std::fs::write(&path, &contents).unwrap();
            let untouched = Untouched::take(&path);
            let output = yolah(&resume, "");
            assert!(!output.status.success(), "{file} as {name} was taken");
            let said = stderr(&output);
            let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
            assert_one_line(&errors.join("\n"));
            let shown = Path::new(file).file_name().unwrap().to_str().unwrap();
            assert!(said.contains(shown), "{file} as {name}: {said}");
            untouched.assert();
        }
        std::fs::write(&path, ours).unwrap();
    }
    let output = yolah(&resume, "");
    assert!(output.status.success(), "{}", stderr(&output));
}

/// On a full disk the run stops with one line saying so, nothing half-written is left, and
/// with room again --resume ends where an uninterrupted run ends.
#[test]
fn a_full_disk_is_said_in_one_line_and_loses_nothing() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let output = run(&run_args(&straight, 2));
    assert!(output.status.success(), "{}", stderr(&output));

    let disk = SmallDisk::new(2 << 20);
    let dir = disk.path().join("run");
    let output = run(&run_args(&dir, 1));
    assert!(output.status.success(), "{}", stderr(&output));
    let generation_1: Vec<Untouched> = walk(&dir.join("gen-001"))
        .iter()
        .map(|p| Untouched::take(Path::new(p)))
        .collect();
    disk.leave(8 * 1024);
    let resume = [
        "zero",
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--generations",
        "2",
        "--threads",
        "1",
    ];
    let output = yolah(&resume, "");
    assert!(!output.status.success(), "the run had room");
    let said = stderr(&output);
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
    assert_one_line(&errors.join("\n"));
    assert!(errors[0].contains("No space left on device"), "{said}");
    for file in &generation_1 {
        file.assert();
    }
    let leftovers: Vec<String> = walk(&dir)
        .into_iter()
        .filter(|p| p.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "half-written: {leftovers:?}");
    disk.free();
    let output = yolah(&resume, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(outcome(&dir), outcome(&straight));
}

/// A second writer into a running run is refused with one line.
#[test]
fn a_second_writer_is_refused_with_one_line() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    let mut args = run_args(&dir, 1);
    let games = args.iter().position(|a| a == "--games").unwrap() + 1;
    args[games] = "100000".to_string();
    let mut first = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !dir.join("gen-001/games-0000.bin").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    for args in [
        vec!["zero", "--out", out, "--resume"],
        vec!["zero", "--out", out],
    ] {
        assert_clean_error(&yolah(&args, ""), "is in use by another run");
    }
    first.kill().unwrap();
    first.wait().unwrap();
}

/// `--gate N`: each network plays the one self-play uses and replaces it only with 55 %; every
/// generation's self-play says whose network it plays, and that is the last promoted one, in
/// one run and across a resume.
#[test]
fn a_gated_run_plays_itself_with_the_last_promoted_network() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("gated");
    let mut args = run_args(&dir, 2);
    args.extend(["--gate".to_string(), "4".to_string()]);
    let first = run(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = run(&resume_args(&dir, 4));
    assert!(second.status.success(), "{}", stderr(&second));
    let said = stdout(&first) + &stdout(&second);
    let mut best = 0;
    let (mut plays, mut gates) = (0, 0);
    for line in said.lines() {
        if let Some(rest) = line.split(" self-play with generation ").nth(1) {
            let player: u32 = rest.split('\'').next().unwrap().parse().unwrap();
            assert_eq!(player, best, "{line}\n{said}");
            plays += 1;
        }
        if line.contains("(the gate)") {
            gates += 1;
            if line.ends_with(": promoted") {
                best = line["zero: generation ".len()..]
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
            } else {
                assert!(line.ends_with(": not promoted"), "{line}");
            }
        }
    }
    assert_eq!((plays, gates), (4, 5), "{said}");
    let table = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    assert!(
        table.starts_with(
            "generation,hours,score_1,elo_1,elo_low_1,elo_high_1,gate_score,promoted\n"
        ),
        "{table}"
    );
    assert_eq!(table.lines().count(), 6, "{table}");
    for generation in 1..=4 {
        assert!(dir.join(format!("gen-{generation:03}/gate.csv")).is_file());
    }
    // Without --gate on --resume: the run's own settings stand.
    assert_clean_error(
        &yolah(
            &[
                "zero",
                "--out",
                dir.to_str().unwrap(),
                "--resume",
                "--gate",
                "2",
            ],
            "",
        ),
        "only --generations and --threads",
    );
}

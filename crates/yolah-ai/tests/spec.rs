//! Player specs: what parses, what is refused and how the refusal reads.

use std::time::Duration;
use yolah_ai::{Limits, PLAYERS, Spec, SpecError};

fn error(text: &str) -> String {
    text.parse::<Spec>().unwrap_err().to_string()
}

#[test]
fn good_specs_parse_with_their_limits() {
    let cases = [
        ("random", None, None),
        ("random:seed=7", None, None),
        ("montecarlo", Some(100), None),
        ("montecarlo:time=250ms", Some(250), None),
        ("montecarlo:iterations=5000,threads=2", None, Some(5000)),
        ("mcts:iterations=20000,c=1.4,threads=2", None, Some(20000)),
        ("mcts:time=1.5s,iterations=10", Some(1500), Some(10)),
        (" mcts:c=0 ", Some(100), None),
    ];
    let minimax = [
        ("minimax", Some(100), None, None),
        ("minimax:depth=8", None, Some(8), None),
        ("minimax:nodes=200000,tt=64", None, None, Some(200_000)),
        (
            "minimax:time=50ms,depth=3,threads=2",
            Some(50),
            Some(3),
            None,
        ),
    ];
    for (text, time, depth, nodes) in minimax {
        let spec: Spec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let expected = Limits {
            time: time.map(Duration::from_millis),
            depth,
            nodes,
            ..Limits::default()
        };
        assert_eq!(spec.limits(), expected, "{text}");
    }
    for (text, time, iterations) in cases {
        let spec: Spec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            spec.limits(),
            Limits {
                time: time.map(Duration::from_millis),
                iterations,
                ..Limits::default()
            },
            "{text}"
        );
        assert_eq!(spec.to_string(), text.trim());
    }
    let spec: Spec = "random:seed=7".parse().unwrap();
    assert_eq!((spec.name(), spec.seed()), ("random", Some(7)));
}

#[test]
fn words_are_trimmed_and_their_case_ignored() {
    for (typed, canonical) in [
        ("MCTS", "mcts"),
        ("Minimax: Time=50MS, eval=NN", "minimax:time=50ms,eval=nn"),
        (
            " minimax:time=20ms , LMR = Off ",
            "minimax:time=20ms,lmr=off",
        ),
        (
            "engine: CMD = yolah Engine --player MCTS",
            "engine:cmd=yolah Engine --player MCTS",
        ),
    ] {
        let spec: Spec = typed.parse().unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(spec.to_string(), canonical, "{typed}");
    }
}

#[test]
fn bad_specs_say_what_is_accepted() {
    assert_eq!("".parse::<Spec>().unwrap_err(), SpecError::Empty);
    let cases = [
        (
            "alphabeta",
            "unknown player 'alphabeta'; players: random, montecarlo, mcts, minimax",
        ),
        (
            ":seed=1",
            "empty player spec; players: random, montecarlo, mcts",
        ),
        (
            "random:time=1s",
            "random has no option 'time'; its options: seed",
        ),
        (
            "mcts:depth=3",
            "its options: time, pace, iterations, c, tree, threads, seed",
        ),
        ("mcts:c", "mcts option 'c' needs a value, like c=…"),
        ("mcts:c=1,c=2", "mcts option 'c' is given twice"),
        (
            "mcts:c=-1",
            "mcts option c='-1': expected a real number of at least 0",
        ),
        ("mcts:c=inf", "expected a real number"),
        (
            "mcts:time=100",
            "expected a duration with a unit (us, ms, s, min, h), like 250us, 100ms or 1.5s",
        ),
        ("mcts:time=0ms", "expected a duration"),
        ("mcts:time=2h", "expected a duration"),
        (
            "montecarlo:threads=0",
            "expected a thread count from 1 to 256",
        ),
        ("montecarlo:threads=1000", "expected a thread count"),
        (
            "montecarlo:iterations=0",
            "expected a whole number of at least 1",
        ),
        ("montecarlo:iterations=1.5", "expected a whole number"),
        (
            "random:seed=-1",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        ("MCTX", "unknown player 'MCTX'"),
        ("minimax:depth=0", "expected a depth in plies from 1 to 127"),
        ("minimax:depth=128", "expected a depth in plies"),
        ("minimax:tt=0", "expected a size in MiB from 1 to 16384"),
        ("minimax:tt=16385", "expected a size in MiB"),
        ("minimax:nodes=0", "expected a whole number of at least 1"),
        (
            "minimax:lmr=yes",
            "minimax option lmr='yes': expected on or off",
        ),
        ("minimax:iterations=5", "minimax has no option 'iterations'"),
        ("minimax:seed=5", "minimax has no option 'seed'"),
        (
            "minimax:weights=/no/such/file.json",
            "minimax option weights: cannot read weights '/no/such/file.json'",
        ),
        (
            "minimax:eval=nn,net=/no/such/net.yolahnet",
            "minimax option net: cannot read network '/no/such/net.yolahnet'",
        ),
        (
            "minimax:net=Cargo.toml",
            "minimax option net: bad network file: not a Yolah network file",
        ),
        (
            "minimax:eval=neural",
            "minimax option eval='neural': expected heuristic or nn",
        ),
        (
            "minimax:eval=heuristic,net=../../crates/yolah-ai/data/network.yolahnet",
            "minimax options eval=heuristic and net cannot go together",
        ),
        (
            "minimax:eval=nn,weights=../../crates/yolah-ai/data/weights.json",
            "minimax options weights and eval=nn cannot go together",
        ),
        (
            "engine:cmd=yolah \"engine",
            "engine option cmd='yolah \"engine': expected a command line",
        ),
        (
            "engine:time=1s,cmd=",
            "engine option cmd='': expected a command line",
        ),
    ];
    for (text, expected) in cases {
        let message = error(text);
        assert!(message.contains(expected), "{text}: '{message}'");
    }
}

#[test]
fn every_catalogued_player_builds_from_its_bare_name() {
    let start = yolah_core::Position::start();
    for player in PLAYERS {
        if player.name == "engine" {
            // Another program: it needs its command (played in the CLI's engine tests).
            assert_eq!(
                error("engine"),
                "engine needs the option cmd, like engine:time=100ms,cmd=yolah engine --player mcts"
            );
            continue;
        }
        let spec: Spec = player.name.parse().unwrap();
        let mut agent = spec.agent(0);
        let has = |name: &str| player.options.iter().any(|o| o.name == name);
        let spec_with_limit: Spec = if has("iterations") {
            format!("{}:iterations=100", player.name).parse().unwrap()
        } else if has("depth") {
            format!("{}:depth=2", player.name).parse().unwrap()
        } else {
            spec.clone()
        };
        assert!(start.check_move(agent.choose(&start).mv).is_ok());
        assert!(
            start
                .check_move(spec_with_limit.agent(1).choose(&start).mv)
                .is_ok()
        );
        assert!(!player.about.is_empty());
        for option in player.options {
            assert!(!option.help.is_empty() && !option.default.is_empty());
            // One line of words: a string broken across source lines keeps no indentation.
            assert!(
                !option.help.contains("  ") && !option.help.contains('\n'),
                "{}'s {}: {:?}",
                player.name,
                option.name,
                option.help
            );
        }
    }
}

#[test]
fn a_small_mcts_tree_fills_up_and_still_plays() {
    // 1 MiB holds about 43,000 nodes: 200,000 iterations fill it.
    let spec: Spec = "mcts:tree=1,iterations=200000".parse().unwrap();
    let position = yolah_core::Position::start();
    let report = spec.agent(3).choose(&position);
    assert_eq!(position.check_move(report.mv), Ok(()));
    assert_eq!(report.iterations, 200_000);
    assert!(
        "mcts:tree=0".parse::<Spec>().is_err() && "mcts:tree=16385".parse::<Spec>().is_err(),
        "tree sizes are checked"
    );
}

#[test]
fn a_command_line_takes_the_rest_of_the_spec() {
    let spec: Spec = "engine:time=50ms,cmd=prog --player mcts:c=0.5,threads=2 \"a b\""
        .parse()
        .unwrap();
    assert_eq!(spec.limits().time, Some(Duration::from_millis(50)));
    assert_eq!(
        spec.to_string(),
        "engine:time=50ms,cmd=prog --player mcts:c=0.5,threads=2 \"a b\""
    );
    // An option set later goes before the command, which stays last.
    let with = spec.with("margin", "1s").unwrap();
    assert_eq!(
        with.to_string(),
        "engine:margin=1s,time=50ms,cmd=prog --player mcts:c=0.5,threads=2 \"a b\""
    );
    let with = spec.with("time", "20ms").unwrap();
    assert_eq!(with.limits().time, Some(Duration::from_millis(20)));
    assert!(spec.with("colour", "red").is_err());
}

/// Which players make the same moves in every game: a search without time on one thread
/// whose moves do not depend on its seed, or whose spec fixes the seed.
#[test]
fn a_spec_says_whether_it_repeats_itself() {
    for (text, repeats) in [
        ("minimax:nodes=500", true),
        ("minimax:depth=4", true),
        ("minimax", false),
        ("minimax:time=20ms", false),
        ("minimax:nodes=500,time=1s", false),
        ("minimax:nodes=500,tc=1min+1s", false),
        ("mcts:iterations=100", false),
        ("mcts:iterations=100,seed=3", true),
        ("random", false),
        ("random:seed=1", true),
        ("montecarlo:iterations=100", false),
    ] {
        let spec: Spec = text.parse().unwrap();
        assert_eq!(spec.repeats_itself(), repeats, "{text}");
    }
    let threads: Spec = "minimax:nodes=500,threads=2".parse().unwrap();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    assert_eq!(threads.repeats_itself(), cores < 2, "two threads race");
}

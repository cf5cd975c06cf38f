//! The unit tests of `learn.rs`.

use super::*;

fn config() -> Config {
    Config {
        generations: 3,
        games: 100,
        nodes: 500,
        random_plies: 8,
        hidden: "256,32".to_string(),
        buckets: 1,
        features: true,
        target: Target::Score,
        epochs: 5,
        window: 2,
        budget: "time=50ms".to_string(),
        sprt: "elo0=0,elo1=10".to_string(),
        test_games: 400,
        openings: vec!["startpos".to_string()],
        start: None,
        seed: 1,
        exact: None,
        gauntlet: DEFAULT_GAUNTLET.map(String::from).to_vec(),
        gauntlet_games: 10,
        warm: false,
        learning_rate: None,
    }
}

#[test]
fn a_budget_that_repeats_itself_plays_each_opening_once_a_colour() {
    let mut c = config();
    c.openings = vec!["startpos".to_string(); 200];
    assert_eq!(c.games_at_most(1000), 1000, "time=50ms: no two games alike");
    c.budget = "nodes=20000".to_string();
    assert_eq!(
        c.games_at_most(1000),
        400,
        "a node limit repeats every game"
    );
    assert_eq!(c.games_at_most(100), 100);
    c.budget = "depth=6,tt=16".to_string();
    assert_eq!(c.games_at_most(1000), 400);
}

type Change = fn(&mut Config);

#[test]
fn a_config_is_checked_option_by_option() {
    assert_eq!(config().check(), Ok(()));
    let cases: [(Change, &str); 14] = [
        (|c| c.generations = 0, "--generations"),
        (|c| c.nodes = 0, "--nodes"),
        (|c| c.hidden = "100".to_string(), "--hidden"),
        (|c| c.sprt = "elo0=x".to_string(), "--sprt"),
        (|c| c.budget = "time=forever".to_string(), "--budget"),
        (
            |c| c.budget = "nodes=5,net=x".to_string(),
            "the networks are the run's",
        ),
        (|c| c.window = 0, "--window"),
        (
            |c| c.start = Some("a,b.yolahnet".to_string()),
            "--start 'a,b.yolahnet'",
        ),
        (|c| c.gauntlet_games = 0, "--gauntlet-games must be from 2"),
        (|c| c.gauntlet_games = 7, "--gauntlet-games must be even"),
        (
            |c| c.gauntlet_games = MAX_GAUNTLET_GAMES + 2,
            "--gauntlet-games must be from 2",
        ),
        (
            |c| c.gauntlet.push("chess".to_string()),
            "--gauntlet 'chess'",
        ),
        (
            |c| c.gauntlet.push("mcts".to_string()),
            "--gauntlet 'mcts' is given twice",
        ),
        (
            |c| c.budget = "nodes=300".to_string(),
            "--gauntlet 'mcts': --budget 'nodes=300' gives mcts no limit",
        ),
    ];
    for (change, expected) in cases {
        let mut c = config();
        change(&mut c);
        let error = c.check().unwrap_err();
        assert!(error.contains(expected), "{error}");
    }
}

#[test]
fn a_start_and_gauntlet_networks_are_files_read() {
    let shipped = "../yolah-ai/data/network.yolahnet";
    let mut c = config();
    c.start = Some(shipped.to_string());
    c.gauntlet = vec![format!("minimax:net={shipped}")];
    assert_eq!(c.check(), Ok(()));
    c.gauntlet = vec!["minimax:net=/nonexistent.yolahnet".to_string()];
    let error = c.check().unwrap_err();
    assert!(
        error.starts_with("--gauntlet 'minimax:net=/nonexistent.yolahnet': "),
        "{error}"
    );
}

#[test]
fn the_gauntlet_plays_at_the_tests_budget() {
    let mut c = config();
    c.gauntlet = vec![
        "minimax".to_string(),
        "mcts".to_string(),
        "mcts:iterations=20".to_string(),
        "random".to_string(),
        PREVIOUS.to_string(),
        "minimax:depth=2,time=1s".to_string(),
    ];
    let parent = test_spec(&c.budget, "run/gen-003/network.yolahnet");
    let previous = [None, Some("run/gen-001/network.yolahnet".to_string())];
    assert_eq!(
        c.gauntlet_specs(&previous, &parent),
        Ok(vec![
            "minimax:time=50ms".to_string(),
            "mcts:time=50ms".to_string(),
            // Its own limit set, the budget's time is added: both limit it.
            "mcts:time=50ms,iterations=20".to_string(),
            "random".to_string(),
            "minimax:time=50ms,eval=nn".to_string(),
            "minimax:time=50ms,net=run/gen-001/network.yolahnet".to_string(),
            "minimax:depth=2,time=1s".to_string(),
        ])
    );
    // The parent is not its own opponent (the candidate met it in the test), nor is an
    // opponent met twice.
    c.gauntlet = vec![PREVIOUS.to_string(), "minimax:eval=nn".to_string()];
    assert_eq!(
        c.gauntlet_specs(&[None], &test_spec(&c.budget, "eval=nn")),
        Ok(vec![])
    );
    assert_eq!(
        c.gauntlet_specs(&[None], "minimax:time=50ms,net=x.yolahnet"),
        Ok(vec!["minimax:time=50ms,eval=nn".to_string()])
    );
}

fn record(generation: u32, promoted: bool) -> Record {
    Record {
        generation,
        positions: 0,
        trained_on: 0,
        validation_loss: 0.0,
        games: 0,
        score: 0.5,
        elo: 0.0,
        elo_low: 0.0,
        elo_high: 0.0,
        llr: 0.0,
        verdict: if promoted { "H1" } else { "H0" }.to_string(),
        promoted,
        best_elo: 0.0,
        selfplay_seconds: 0.0,
        train_seconds: 0.0,
        test_seconds: 0.0,
        gauntlet: String::new(),
        gauntlet_seconds: 0.0,
    }
}

#[test]
fn previous_networks_are_the_two_promoted_before_the_parent() {
    let best_of = |g: u32| format!("gen-{g}");
    let mut state = State::new();
    assert_eq!(state.previous(best_of), vec![]);
    state.records.push(record(1, false));
    assert_eq!(state.previous(best_of), vec![]);
    state.records.push(record(2, true));
    assert_eq!(state.previous(best_of), vec![None]);
    state.records.push(record(3, true));
    assert_eq!(
        state.previous(best_of),
        vec![None, Some("gen-2".to_string())]
    );
    state.records.push(record(4, false));
    state.records.push(record(5, true));
    assert_eq!(
        state.previous(best_of),
        vec![Some("gen-2".to_string()), Some("gen-3".to_string())]
    );
}

/// Results of `games` games at `score` whose 95 % score interval is `score ± half_width`,
/// given in Elo as the match runner gives it.
fn results(games: u64, score: f64, half_width: f64) -> Results {
    let elo = yolah_ai::arena::sprt::elo_of_score;
    Results {
        games,
        score,
        elo: elo(score),
        elo_low: elo(score - half_width),
        elo_high: elo(score + half_width),
    }
}

#[test]
fn a_candidate_is_promoted_when_it_passes_the_test_and_holds_against_all() {
    let held = [
        // Better than the parent.
        Faced::new(
            4,
            "minimax",
            results(100, 0.70, 0.08),
            results(100, 0.60, 0.08),
        ),
        // Worse, within what the games can tell: 0.07 < √(0.08² + 0.08²) = 0.113.
        Faced::new(
            4,
            "mcts",
            results(100, 0.53, 0.08),
            results(100, 0.60, 0.08),
        ),
        // Both win every game.
        Faced::new(4, "random", results(100, 1.0, 0.0), results(100, 1.0, 0.0)),
    ];
    assert!(held.iter().all(|f| f.held));
    assert_eq!(decide("H1", &held), Ok(()));
    assert_eq!(decide("H1", &[]), Ok(()));
    // A test that did not accept H1 fails it whatever the gauntlet.
    assert_eq!(
        decide("H0", &held),
        Err("the test's verdict is H0".to_string())
    );
    assert_eq!(
        decide(INCONCLUSIVE, &[]),
        Err("the test's verdict is inconclusive".to_string())
    );
}

#[test]
fn a_candidate_that_loses_ground_against_one_opponent_is_not_promoted() {
    let faced = [
        Faced::new(
            4,
            "minimax",
            results(100, 0.70, 0.08),
            results(100, 0.60, 0.08),
        ),
        // 0.15 > 0.113: the games show it worse than its parent against MCTS.
        Faced::new(
            4,
            "mcts",
            results(100, 0.45, 0.08),
            results(100, 0.60, 0.08),
        ),
    ];
    assert!(faced[0].held && !faced[1].held);
    let reason = decide("H1", &faced).unwrap_err();
    assert!(
        reason.starts_with(
            "lost ground against mcts, 45.0 % (Elo -35 [-92, +21]) vs the parent's 60.0 % (Elo +70"
        ),
        "{reason}"
    );
    assert!(!reason.contains("minimax"), "{reason}");
    assert!(
        faced[1]
            .line()
            .starts_with("against mcts: candidate 45.0 %")
    );
}

/// A run made before the gauntlet: its config and state lack the gauntlet's fields, and
/// read as a run without a gauntlet (the test alone decides, as it did).
#[test]
fn configs_and_states_from_before_the_gauntlet_read() {
    let without = |value: serde_json::Value, keys: &[&str]| {
        let mut value = value;
        for key in keys {
            value.as_object_mut().unwrap().remove(*key);
        }
        value
    };
    let old = without(
        serde_json::to_value(config()).unwrap(),
        &["gauntlet", "gauntlet_games"],
    );
    let read: Config = serde_json::from_value(old).unwrap();
    assert_eq!(read.gauntlet, Vec::<String>::new());
    assert_eq!(read.gauntlet_games, DEFAULT_GAUNTLET_GAMES);
    assert_eq!(read.check(), Ok(()));
    assert_eq!(
        read.gauntlet_specs(&[None], "minimax:time=50ms,eval=nn"),
        Ok(vec![])
    );

    let mut state = State::new();
    state.records.push(record(1, true));
    state.generation = 2;
    let mut old = serde_json::to_value(&state).unwrap();
    old = without(old, &["gauntlet"]);
    old["records"][0] = without(old["records"][0].take(), &["gauntlet", "gauntlet_seconds"]);
    let read: State = serde_json::from_value(old).unwrap();
    assert_eq!(read, state);
}

#[test]
fn players_windows_and_seeds() {
    let c = config();
    assert_eq!(c.selfplay_spec(None), "minimax:nodes=500,tt=1,eval=nn");
    assert_eq!(
        c.selfplay_spec(Some("run/gen-002/network.yolahnet")),
        "minimax:nodes=500,tt=1,net=run/gen-002/network.yolahnet"
    );
    assert_eq!(
        test_spec("time=50ms", "eval=nn"),
        "minimax:time=50ms,eval=nn"
    );
    assert_eq!(
        test_spec("nodes=9", "a.yolahnet"),
        "minimax:nodes=9,net=a.yolahnet"
    );
    assert_eq!(c.window_of(1), 1..=1);
    assert_eq!(c.window_of(5), 4..=5);
    assert_ne!(c.generation_seed(1), c.generation_seed(2));
    assert_eq!(duration(42.4), "42 s");
    assert_eq!(duration(7.0 * 60.0 + 5.0), "7 min");
    assert_eq!(duration(2.0 * 3600.0 + 5.0 * 60.0), "2 h 05 min");
}

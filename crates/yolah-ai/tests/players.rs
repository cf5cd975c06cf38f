//! The players through whole games: legal moves, reproducible with a seed and an iteration
//! limit, a forced pass, the MCTS tree kept between moves.

mod common;

use common::{exact_margin, random_endgame};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_ai::arena::opening::random_opening;
use yolah_ai::{Spec, play_game};
use yolah_core::{Move, Position};

fn agent(text: &str) -> yolah_ai::Agent {
    text.parse::<Spec>()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .agent(99)
}

/// The moves of a game between two specs from a random opening.
fn game(black: &str, white: &str, opening_seed: u64) -> Vec<Move> {
    let opening = random_opening(4, opening_seed);
    play_game(&mut agent(black), &mut agent(white), &opening, |_, _| {}).moves
}

#[test]
fn a_seed_and_an_iteration_limit_give_the_same_moves() {
    let specs = [
        "random:seed=3",
        "montecarlo:iterations=600,seed=3",
        "montecarlo:iterations=600,threads=2,seed=3",
        "mcts:iterations=600,seed=3",
        "mcts:iterations=600,threads=2,seed=3",
    ];
    for spec in specs {
        let first = game(spec, "random:seed=5", 1);
        assert_eq!(first, game(spec, "random:seed=5", 1), "{spec}");
        assert_ne!(
            first,
            game(&spec.replace("seed=3", "seed=4"), "random:seed=5", 1),
            "{spec}: another seed, another game"
        );
    }
}

#[test]
fn the_match_seed_stands_in_for_a_missing_spec_seed() {
    let spec: Spec = "mcts:iterations=300".parse().unwrap();
    let moves = |seed: u64| {
        let (mut a, mut b) = (spec.agent(seed), agent("random:seed=1"));
        play_game(&mut a, &mut b, &[], |_, _| {}).moves
    };
    assert_eq!(moves(7), moves(7));
    assert_ne!(moves(7), moves(8));
}

#[test]
fn every_player_passes_when_it_must() {
    // Black's pieces are walled in by holes; white still has moves.
    let walled: Position = "bx4xb/xx4xx/8/3ww3/3ww3/8/xx4xx/bx4xb b 6 6 12"
        .parse()
        .unwrap();
    assert!(!walled.game_over());
    assert_eq!(walled.moves().as_slice(), [Move::PASS]);
    for spec in [
        "random",
        "montecarlo:iterations=200",
        "mcts:iterations=200",
        "mcts:iterations=200,threads=2",
    ] {
        let mut player = agent(spec);
        let report = player.choose(&walled);
        assert_eq!(report.mv, Move::PASS, "{spec}");
        // And it plays whole games legally, passes included.
        let mut other = agent("random:seed=2");
        let game = play_game(&mut other, &mut player, &[], |_, _| {});
        assert!(game.moves.len() >= 32);
    }
}

#[test]
fn the_mcts_tree_is_kept_after_the_reply() {
    let mut mcts = agent("mcts:iterations=3000,seed=1");
    let mut position = Position::start();
    let first = mcts.choose(&position);
    assert!(first.detail.contains("0 visits reused"), "{}", first.detail);
    position.play(first.mv);
    let reply = position.moves()[0];
    position.play(reply);
    let second = mcts.choose(&position);
    let reused: u64 = second
        .detail
        .split(", ")
        .find_map(|part| part.strip_suffix(" visits reused"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no reuse in '{}'", second.detail));
    assert!(reused > 0, "{}", second.detail);
    assert_eq!(second.iterations, 3000);
    // An unrelated position starts a new tree.
    let other = mcts.choose(&"w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0".parse().unwrap());
    assert!(
        other.detail.contains(" 0 visits reused"),
        "{}",
        other.detail
    );
}

#[test]
fn reports_carry_the_search() {
    let start = Position::start();
    let mc = agent("montecarlo:iterations=5600,seed=1").choose(&start);
    assert_eq!(mc.iterations, 5600);
    let value = mc.value.unwrap();
    assert!((0.0..=1.0).contains(&value));
    let mcts = agent("mcts:iterations=2000,seed=1").choose(&start);
    assert_eq!(mcts.iterations, 2000);
    assert!(mcts.detail.starts_with("pv "), "{}", mcts.detail);
    assert!(mcts.to_string().starts_with(&mcts.mv.to_string()));
    assert!(mcts.to_string().contains("2000 iterations"));
}

#[test]
fn search_players_beat_random() {
    // 10 games each: a search player scoring under 80 % against random would be broken.
    for spec in ["montecarlo:iterations=2000", "mcts:iterations=2000"] {
        let mut points = 0.0;
        for seed in 0..5 {
            let opening = random_opening(4, seed);
            let (mut smart, mut random) = (agent(spec), agent("random:seed=1"));
            let g = play_game(&mut smart, &mut random, &opening, |_, _| {});
            points += f64::from(g.outcome.half_points(yolah_core::Color::Black)) / 2.0;
            let (mut smart, mut random) = (agent(spec), agent("random:seed=1"));
            let g = play_game(&mut random, &mut smart, &opening, |_, _| {});
            points += f64::from(g.outcome.half_points(yolah_core::Color::White)) / 2.0;
        }
        assert!(points >= 8.0, "{spec}: {points}/10 against random");
    }
}

/// With `solve=F`, `alphazero` and `minimax` play endgames of at most F free squares by the
/// solver's proof: the best move with its exact margin, reported as proved by the solver; with
/// more free squares, or without `solve`, their own search answers.
#[test]
fn players_play_endgames_within_their_squares_by_the_solver() {
    let players = [
        ("alphazero:iterations=100,seed=1", "visits for the move"),
        // A time long enough for the solver on a busy machine: 10 free squares take it a
        // few milliseconds.
        ("minimax:eval=nn,book=off,time=10s", "depth"),
    ];
    for (plain_spec, searched) in players {
        let solving_spec = format!("{plain_spec},solve=10");
        let mut rng = SmallRng::seed_from_u64(44);
        let mut proved = 0;
        while proved < 12 {
            let position = random_endgame(10, &mut rng);
            if position.moves().len() < 2 {
                continue;
            }
            let report = agent(&solving_spec)
                .try_choose(&position)
                .expect("it moves");
            let exact = exact_margin(&position);
            let margin = report.margin.expect("a proved margin");
            assert!(margin.proved, "{solving_spec}: {position}");
            assert!(
                report.detail.contains("proved by the endgame solver"),
                "{solving_spec}: {}",
                report.detail
            );
            assert_eq!(margin.points as i32, exact, "{solving_spec}: {position}");
            let mut child = position;
            child.play(report.mv);
            assert_eq!(-exact_margin(&child), exact, "{position}: {}", report.mv);
            let plain = agent(plain_spec).try_choose(&position).expect("it moves");
            assert!(
                !plain.detail.contains("proved by the endgame solver"),
                "{plain_spec}: {}",
                plain.detail
            );
            proved += 1;
        }
        // More free squares than asked: the search answers.
        let report = agent(&solving_spec.replace("10s", "100ms"))
            .try_choose(&Position::start())
            .expect("it moves");
        assert!(!report.margin.is_some_and(|m| m.proved));
        assert!(
            report.detail.contains(searched),
            "{solving_spec}: {}",
            report.detail
        );
    }
}

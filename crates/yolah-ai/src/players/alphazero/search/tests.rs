//! The unit tests of `search.rs`.

use super::*;

/// With rollouts each leaf's value is the network's mixed with a playout's result: at
/// weight 1 a result (+1, 0 or −1, which varies from playout to playout), at weight ½
/// half the network's value plus half a result; the priors are the network's.
#[test]
fn rollouts_mix_a_playout_result_into_the_value() {
    let network = Arc::new(Parameters::random(32, true, 5));
    let middle: Position = "x1xx2xx/8/1b2wx1b/3xxx2/1w1xxw1x/2b5/2xw4/xx2b2x b 8 8 16"
        .parse()
        .expect("a valid position");
    let positions = vec![middle; 64];
    let moves: Vec<MoveList> = positions.iter().map(Position::moves).collect();
    let mut alone = Vec::new();
    NetworkEvaluator::new(Arc::clone(&network)).evaluate(&positions, &moves, &mut alone);
    let net = alone[0].value;
    for weight in [1.0f32, 0.5] {
        let mut mixed = Vec::new();
        let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
        evaluator.set_rollouts(weight, 7);
        evaluator.evaluate(&positions, &moves, &mut mixed);
        let mut results = Vec::new();
        for (m, a) in mixed.iter().zip(&alone) {
            assert_eq!(m.priors, a.priors);
            let result = (m.value - (1.0 - weight) * net) / weight;
            let nearest = result.round();
            assert!((result - nearest).abs() < 1e-4, "{weight}: {}", m.value);
            assert!([-1.0, 0.0, 1.0].contains(&nearest));
            results.push(nearest as i32);
        }
        results.sort_unstable();
        results.dedup();
        assert!(
            results.len() > 1,
            "{weight}: every playout gave {results:?}"
        );
    }
}

/// At every expanded node the visits are its children's plus its own first one (the root:
/// its children's), and the values add up the same way, with no virtual loss left; with
/// PUCT's root and with Gumbel's.
#[test]
fn visits_and_values_add_up_at_every_node() {
    let network = Arc::new(Parameters::random(32, false, 3));
    let middle = "x1xx2xx/8/1b2wx1b/3xxx2/1w1xxw1x/2b5/2xw4/xx2b2x b 8 8 16";
    for (batch, gumbel) in [(1, None), (8, None), (1, Some(4)), (8, Some(16))] {
        for position in [Position::start(), middle.parse().expect("a valid position")] {
            let settings = Settings {
                batch,
                noise: 0.25,
                gumbel: gumbel.map(Gumbel::considering),
                ..Settings::default()
            };
            let mut search = Search::new(settings);
            let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
            let mut rng = SmallRng::seed_from_u64(1);
            let result = search.run(&position, &mut evaluator, &mut rng, 3000, &mut || false);
            assert_eq!(result.visits, 3000);
            let root_children: u32 = result.children.iter().map(|c| c.1).sum();
            assert_eq!(root_children, 3000);
            let mut expanded = 0;
            for (i, node) in search.nodes.iter().enumerate() {
                assert!(!node.pending);
                assert!(
                    node.value.abs() <= f64::from(node.visits) + 1e-3,
                    "node {i}"
                );
                if !node.expanded {
                    continue;
                }
                expanded += 1;
                let visits: u32 = node.children().map(|c| search.nodes[c].visits).sum();
                let priors: f32 = node.children().map(|c| search.nodes[c].prior).sum();
                assert!(
                    (priors - 1.0).abs() < 1e-3,
                    "node {i}: priors sum to {priors}"
                );
                if i == 0 {
                    assert_eq!(node.visits, visits);
                } else {
                    assert_eq!(node.visits, visits + 1, "node {i}");
                    // The node's value for its mover is its first evaluation's plus what
                    // its children's movers (the other side, or itself after a pass) got.
                    let below: f64 = node.children().map(|c| search.nodes[c].value).sum::<f64>();
                    let first = node.value.abs() - below.abs();
                    assert!(first.abs() <= 1.0 + 1e-2, "node {i}: {first}");
                }
            }
            assert!(expanded > 100, "{expanded} nodes expanded");
        }
    }
}

/// Five endgames (from random games, at ply 48) where the solver proves exactly one move
/// wins, each with that move's index among the legal moves.
fn endgames_with_one_winning_move() -> Vec<(Position, usize)> {
    let mut solver = crate::players::minimax::Minimax::solver(16, 1);
    let mut random = SmallRng::seed_from_u64(9);
    let mut found = Vec::new();
    for _ in 0..400 {
        let mut game = Position::start();
        while !game.game_over() && game.ply() < 48 {
            game.play(game.random_move(&mut random));
        }
        if game.game_over() || game.moves().len() < 3 {
            continue;
        }
        let values: Option<Vec<i32>> = game
            .moves()
            .iter()
            .map(|&m| {
                let mut next = game;
                next.play(m);
                let value = solver.prove(&next, 2_000_000)?;
                Some(if next.side_to_move() == game.side_to_move() {
                    value
                } else {
                    -value
                })
            })
            .collect();
        let Some(values) = values else { continue };
        let winning: Vec<usize> = (0..values.len()).filter(|&i| values[i] > 0).collect();
        if let [win] = winning[..] {
            found.push((game, win));
            if found.len() == 5 {
                return found;
            }
        }
    }
    panic!("only {} endgames with one winning move", found.len());
}

/// In endgames where the solver proves exactly one move wins, the search finds it from
/// the games' results alone (the network is untrained).
#[test]
fn the_only_winning_move_is_found() {
    let network = Arc::new(Parameters::random(16, true, 5));
    for (game, win) in endgames_with_one_winning_move() {
        let mut search = Search::new(Settings::default());
        let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
        let mut rng = SmallRng::seed_from_u64(2);
        let result = search.run(&game, &mut evaluator, &mut rng, 20_000, &mut || false);
        assert_eq!(result.best().0, game.moves()[win], "{game}");
    }
}

/// A search two plies on keeps the subtree of the position reached: its visits count, the
/// tree still adds up, and the limit counts the new visits only.
#[test]
fn the_tree_is_kept_from_move_to_move() {
    let network = Arc::new(Parameters::random(32, false, 8));
    let settings = Settings {
        reuse: true,
        ..Settings::default()
    };
    let mut search = Search::new(settings);
    let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
    let mut rng = SmallRng::seed_from_u64(1);
    let mut position = Position::start();
    let first = search.run(&position, &mut evaluator, &mut rng, 4000, &mut || false);
    assert_eq!(first.reused, 0);
    let (ours, _, _) = first.best();
    let line = search.principal_variation(ours, 2);
    position.play(ours);
    position.play(line[1]);
    let second = search.run(&position, &mut evaluator, &mut rng, 1000, &mut || false);
    assert!(second.reused > 20, "{} visits kept", second.reused);
    assert_eq!(second.visits, second.reused + 1000);
    let children: u32 = second.children.iter().map(|c| c.1).sum();
    assert_eq!(children, second.visits);
    for (i, node) in search.nodes.iter().enumerate().filter(|(_, n)| n.expanded) {
        let visits: u32 = node.children().map(|c| search.nodes[c].visits).sum();
        assert_eq!(node.visits, visits + u32::from(i != 0), "node {i}");
    }
    // With no visit limit (a search by time) the kept tree is searched on until told to
    // stop: here after 50 batches.
    position.play(second.best().0);
    position.play(search.principal_variation(second.best().0, 2)[1]);
    let mut batches = 0;
    let third = search.run(&position, &mut evaluator, &mut rng, u64::MAX, &mut || {
        batches += 1;
        batches > 50
    });
    assert!(third.reused > 0, "{} visits kept", third.reused);
    assert_eq!(
        third.visits,
        third.reused + 50 * 8,
        "50 batches of 8 on the kept tree"
    );
    // A position the tree does not hold starts afresh.
    let elsewhere: Position = "x1xx2xx/8/1b2wx1b/3xxx2/1w1xxw1x/2b5/2xw4/xx2b2x b 8 8 16"
        .parse()
        .expect("a valid position");
    let third = search.run(&elsewhere, &mut evaluator, &mut rng, 500, &mut || false);
    assert_eq!((third.reused, third.visits), (0, 500));
}

/// Gumbel's root with a few visits: they are shared among the `m` moves drawn (each
/// visited, no other), the move chosen is one of them, the improved policy is a
/// distribution over every move, and the same seed gives the same search.
#[test]
fn a_gumbel_root_shares_few_visits_among_the_moves_drawn() {
    let network = Arc::new(Parameters::random(32, true, 6));
    let settings = Settings {
        gumbel: Some(Gumbel::considering(8)),
        ..Settings::default()
    };
    let search = |seed: u64| {
        let mut search = Search::new(settings);
        let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
        let mut rng = SmallRng::seed_from_u64(seed);
        search.run(
            &Position::start(),
            &mut evaluator,
            &mut rng,
            32,
            &mut || false,
        )
    };
    let mut chosen = Vec::new();
    for seed in 0..6 {
        let result = search(seed);
        assert_eq!(result.visits, 32);
        let visited: Vec<Move> = result
            .children
            .iter()
            .filter(|c| c.1 > 0)
            .map(|c| c.0)
            .collect();
        assert_eq!(visited.len(), 8, "{:?}", result.children);
        // Sequential Halving over 8 moves: three rounds, 32 / (3 × 8) = 1 each in the
        // first, 32 / (3 × 4) = 2 each for the four left, the rest (16) to the two left
        // in the last.
        let most = result.children.iter().map(|c| c.1).max();
        assert!(most >= Some(32 / 3), "{:?}", result.children);
        let (policy, mv) = result.improved.clone().expect("a Gumbel root");
        assert!(visited.contains(&mv));
        assert_eq!(policy.len(), result.children.len());
        assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(policy.iter().all(|&p| p > 0.0));
        let again = search(seed);
        assert_eq!(again.improved, result.improved);
        assert_eq!(again.children, result.children);
        chosen.push(mv);
    }
    chosen.sort_unstable_by_key(ToString::to_string);
    chosen.dedup();
    assert!(chosen.len() > 1, "every seed chose {chosen:?}");
}

/// With fewer visits than moves drawn, or a search stopped at once, the move chosen is
/// one the search visited most; a position of one legal move takes every visit.
#[test]
fn a_gumbel_root_chooses_a_visited_move_whatever_its_budget() {
    let network = Arc::new(Parameters::random(32, true, 6));
    let settings = Settings {
        gumbel: Some(Gumbel::considering(16)),
        ..Settings::default()
    };
    for seed in 0..100 {
        for (visits, stop_after) in [(8, u32::MAX), (3, u32::MAX), (200, 1)] {
            let mut search = Search::new(settings);
            let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut calls = 0;
            let mut stop = || {
                calls += 1;
                calls > stop_after
            };
            let result = search.run(
                &Position::start(),
                &mut evaluator,
                &mut rng,
                visits,
                &mut stop,
            );
            let (_, mv) = result.improved.expect("a Gumbel root");
            let most = result.children.iter().map(|c| c.1).max().unwrap_or(0);
            let chosen = result.children.iter().find(|c| c.0 == mv).expect("a move");
            assert!(
                chosen.1 > 0,
                "seed {seed}, {visits} visits: {mv} not visited"
            );
            if stop_after == u32::MAX {
                assert_eq!(result.visits, visits as u32);
                assert_eq!(chosen.1, most, "seed {seed}, {visits} visits");
            }
        }
    }
    // One legal move (the first such position of random games): it takes the 50 visits.
    let mut rng = SmallRng::seed_from_u64(3);
    let alone = (0..100)
        .find_map(|_| {
            let mut position = Position::start();
            while !position.game_over() {
                if position.moves().len() == 1 {
                    return Some(position);
                }
                position.play(position.random_move(&mut rng));
            }
            None
        })
        .expect("a position of one legal move");
    let mut search = Search::new(settings);
    let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
    let result = search.run(&alone, &mut evaluator, &mut rng, 50, &mut || false);
    assert_eq!(result.children[0].1, 50);
    let (policy, mv) = result.improved.expect("a Gumbel root");
    assert_eq!((policy, mv), (vec![1.0], alone.moves()[0]));
}

/// In endgames where the solver proves exactly one move wins, a Gumbel root considering
/// every move chooses it in 400 visits, and its improved policy puts more on it than the
/// (untrained) network's prior does.
#[test]
fn a_gumbel_root_chooses_the_only_winning_move() {
    let network = Arc::new(Parameters::random(16, true, 5));
    let settings = Settings {
        gumbel: Some(Gumbel::considering(MAX_MOVES)),
        ..Settings::default()
    };
    for (game, win) in endgames_with_one_winning_move() {
        let mut search = Search::new(settings);
        let mut evaluator = NetworkEvaluator::new(Arc::clone(&network));
        let mut rng = SmallRng::seed_from_u64(2);
        let result = search.run(&game, &mut evaluator, &mut rng, 400, &mut || false);
        let (policy, mv) = result.improved.expect("a Gumbel root");
        assert_eq!(mv, game.moves()[win], "{game}");
        let prior = search.nodes[search.nodes[0].first_child as usize + win].prior;
        assert!(
            policy[win] > prior,
            "{game}: {} against {prior}",
            policy[win]
        );
    }
}

#[test]
fn gamma_draws_have_the_right_mean() {
    let mut rng = SmallRng::seed_from_u64(4);
    for alpha in [0.3f32, 1.0, 2.5] {
        let n = 20_000;
        let mean: f32 = (0..n).map(|_| gamma(&mut rng, alpha)).sum::<f32>() / n as f32;
        assert!(
            (mean - alpha).abs() < 0.05 * alpha.max(1.0),
            "α {alpha}: mean {mean}"
        );
    }
}

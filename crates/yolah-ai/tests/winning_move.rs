//! MCTS finds the only winning move of positions near the end, checked by exhaustive search.

mod common;

use common::{move_values, positions};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_ai::Spec;
use yolah_core::Position;

#[test]
fn each_position_has_exactly_one_winning_move() {
    for position in positions("only_winning_move.txt") {
        let values = move_values(&position);
        let winning = values.iter().filter(|(_, v)| *v == 1).count();
        assert_eq!(winning, 1, "{position}: {values:?}");
        assert!(values.len() >= 4, "{position}: a real choice");
    }
}

#[test]
fn mcts_finds_the_only_winning_move() {
    for position in positions("only_winning_move.txt") {
        let winning = move_values(&position)
            .into_iter()
            .find(|(_, v)| *v == 1)
            .unwrap()
            .0;
        for seed in 0..3 {
            let spec: Spec = format!("mcts:iterations=20000,seed={seed}")
                .parse()
                .unwrap();
            let report = spec.agent(0).choose(&position);
            assert_eq!(report.mv, winning, "{position}, seed {seed}: {report}");
        }
    }
}

/// Finds candidate positions for `only_winning_move.txt` (run with `--ignored --nocapture`).
#[test]
#[ignore = "generates test data"]
fn find_positions_with_one_winning_move() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut found = 0;
    while found < 6 {
        let mut position = Position::start();
        while !position.game_over() && position.occupied().count() < 47 {
            position.play(position.random_move(&mut rng));
        }
        if position.game_over() || position.moves().len() < 6 {
            continue;
        }
        let values = move_values(&position);
        let winning = values.iter().filter(|(_, v)| *v == 1).count();
        let losing = values.iter().filter(|(_, v)| *v == -1).count();
        if winning == 1 && losing >= values.len() / 2 {
            println!("{position} # {} moves, {losing} losing", values.len());
            found += 1;
        }
    }
}

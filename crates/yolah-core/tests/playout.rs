//! `Playout` (cached target sets) against `Position` (fresh lookups), move by move.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{Color, Playout, Position, attacks};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn playout_moves_are_legal_and_its_cache_is_exact(seed in any::<u64>(), start_plies in 0usize..30) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let game = common::random_game(seed ^ 0x55);
        let mut position = game[start_plies.min(game.len() - 1)];
        let mut playout = Playout::new(&position);
        while let Some(m) = playout.step(&mut rng) {
            prop_assert!(position.check_move(m).is_ok(), "{} {}", position, m);
            position.play(m);
            let mut expected = Vec::new();
            for color in Color::ALL {
                for square in position.pieces(color).squares() {
                    expected.push(attacks(square, position.occupied()));
                }
            }
            let mut cached = playout.targets().to_vec();
            // Pieces keep their slot, not their order: compare as sets per side.
            for side in 0..2 {
                let key = |b: &yolah_core::Bitboard| b.0;
                expected[side * 4..side * 4 + 4].sort_by_key(key);
                cached[side * 4..side * 4 + 4].sort_by_key(key);
            }
            prop_assert_eq!(cached, expected, "{}", position);
        }
        prop_assert!(position.game_over());
        prop_assert_eq!(Some(playout.outcome()), position.outcome());
    }
}

#[test]
fn playout_from_a_finished_game_plays_nothing() {
    let last = *common::random_game(7).last().unwrap();
    let mut rng = SmallRng::seed_from_u64(0);
    assert_eq!(Playout::new(&last).step(&mut rng), None);
    assert!(!Position::start().game_over());
}

//! The rules commute with the board's eight symmetries, checked at every ply of random games:
//! the moves of a transformed position are the transformed moves, perft counts are equal, and
//! playing a move then transforming is transforming then playing the transformed move.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{Move, Position, Symmetry, perft};

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| m.raw());
    moves
}

#[test]
fn the_rules_commute_with_the_symmetries() {
    let mut rng = SmallRng::seed_from_u64(8);
    let mut checked = 0;
    for _ in 0..40 {
        let mut position = Position::start();
        loop {
            for s in Symmetry::ALL {
                let image = s.position(&position);
                assert_eq!(image.hash(), image.compute_hash());
                assert_eq!(image.to_string().parse::<Position>(), Ok(image));
                assert_eq!(s.inverse().position(&image), position);
                let expected = sorted(position.moves().iter().map(|&m| s.mv(m)).collect());
                assert_eq!(
                    sorted(image.moves().to_vec()),
                    expected,
                    "{position} under {s:?}"
                );
                assert_eq!(image.game_over(), position.game_over());
                if checked % 16 == 0 {
                    let (mut a, mut b) = (position, image);
                    assert_eq!(perft(&mut a, 2), perft(&mut b, 2));
                }
                checked += 1;
            }
            if position.game_over() {
                break;
            }
            let m = position.random_move(&mut rng);
            for s in Symmetry::ALL {
                let mut image = s.position(&position);
                image.play(s.mv(m));
                let mut after = position;
                after.play(m);
                assert_eq!(image, s.position(&after));
            }
            position.play(m);
        }
    }
    assert!(checked > 10_000, "{checked}");
}

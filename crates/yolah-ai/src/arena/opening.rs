//! Random openings: a few uniformly random plies from the start, so that the games of a match
//! differ; each is played twice with colours swapped (book chapter 8).

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{Move, Position};

/// `plies` random moves from the start drawn from `seed` (fewer if the game ends first).
pub fn random_opening(plies: u32, seed: u64) -> Vec<Move> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if position.game_over() {
            break;
        }
        let m = position.random_move(&mut rng);
        position.play(m);
        moves.push(m);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_legal_and_reproducible() {
        for seed in 0..50 {
            let opening = random_opening(6, seed);
            assert_eq!(opening, random_opening(6, seed));
            assert_eq!(opening.len(), 6);
            let mut position = Position::start();
            for &m in &opening {
                assert_eq!(position.check_move(m), Ok(()));
                position.play(m);
            }
        }
        assert_ne!(random_opening(6, 1), random_opening(6, 2));
    }
}

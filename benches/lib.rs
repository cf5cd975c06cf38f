//! Inputs shared by the benchmarks: a fixed set of positions from seeded random games.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::Position;

/// Every fifth position of 20 seeded random games (about 220 positions, openings to endings).
pub fn sample_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 0..20 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut position = Position::start();
        while !position.game_over() {
            if position.ply().is_multiple_of(5) {
                positions.push(position);
            }
            position.play(position.random_move(&mut rng));
        }
    }
    positions
}

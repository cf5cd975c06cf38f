//! Exact endgame solving: `yolah solve`'s search on random positions with 12, 16, 20 and 24
//! free squares (reached by random play from the start), one thread, a 64 MiB table. Prints
//! the median and the slowest time and node count at each size: the figures of the README.
//! A position not solved within [`CAP`] counts as slower than every solved one.
//!
//! `cargo bench -p yolah-benches --bench solve` (a few minutes).

use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;
use yolah_ai::Limits;
use yolah_ai::eval::Weights;
use yolah_ai::players::minimax::Minimax;
use yolah_core::Position;

/// Positions at each size.
const SAMPLES: usize = 15;
/// Longest a position is given.
const CAP: Duration = Duration::from_secs(20);

fn random_position(free: u32, rng: &mut SmallRng) -> Position {
    loop {
        let mut position = Position::start();
        while !position.game_over() && 64 - position.occupied().count() > free {
            position.play(position.random_move(rng));
        }
        if !position.game_over() && 64 - position.occupied().count() == free {
            return position;
        }
    }
}

fn main() {
    // `cargo test` runs benches with --bench absent: do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut player = Minimax::new(Weights::tuned(), 64, 1);
    for free in [12, 16, 20, 24] {
        let limits = Limits {
            time: Some(CAP),
            ..Limits::default()
        };
        let mut runs: Vec<(Duration, u64)> = (0..SAMPLES)
            .map(|_| {
                let position = random_position(free, &mut rng);
                player.clear();
                let outcome = player.search(&position, limits);
                let time = if outcome.proven {
                    outcome.time
                } else {
                    Duration::MAX
                };
                (time, outcome.nodes)
            })
            .collect();
        let unsolved = runs.iter().filter(|(t, _)| *t == Duration::MAX).count();
        runs.sort();
        let (median, median_nodes) = runs[SAMPLES / 2];
        let (slowest, slowest_nodes) = runs[SAMPLES - 1 - unsolved];
        let ms = |t: Duration| {
            if t == Duration::MAX {
                format!("> {} s", CAP.as_secs())
            } else {
                format!("{:.1} ms", t.as_secs_f64() * 1e3)
            }
        };
        println!(
            "{free} free squares: median {} ({median_nodes} nodes), slowest solved {} ({slowest_nodes} nodes), {unsolved} of {SAMPLES} not solved in {} s",
            ms(median),
            ms(slowest),
            CAP.as_secs()
        );
    }
}

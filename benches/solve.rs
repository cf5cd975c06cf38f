//! Exact endgame solving: `yolah solve`'s search on random positions with 12, 16, 20, 24 and
//! 28 free squares (reached by random play from the start), one thread, a 64 MiB table, with
//! separated regions valued exactly (the default) and without (brute force), each position
//! both ways in one run. Prints the median and the slowest time and node count at each size.
//! A position not solved within [`CAP`] counts as slower than every solved one.
//!
//! `cargo bench -p yolah-benches --bench solve` (about 15 minutes: brute force at 24 and 28
//! free squares runs into the cap). `SOLVE_SIZES=20,24` runs those sizes only (on the same
//! positions), `SOLVE_WAYS=regions` (or `brute`) one way only, `SOLVE_VERBOSE=1` prints each
//! position with its time and value.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;
use yolah_ai::Limits;
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
    // As `yolah solve` builds it (the bench switches regions off for brute force).
    let mut player = Minimax::solver(64, 1);
    let limits = Limits {
        time: Some(CAP),
        ..Limits::default()
    };
    let sizes = std::env::var("SOLVE_SIZES").unwrap_or_else(|_| "12,16,20,24,28".into());
    let ways = std::env::var("SOLVE_WAYS").unwrap_or_default();
    let verbose = std::env::var("SOLVE_VERBOSE").is_ok_and(|v| v == "1");
    for free in [12, 16, 20, 24, 28] {
        let positions: Vec<Position> = (0..SAMPLES)
            .map(|_| random_position(free, &mut rng))
            .collect();
        if !sizes.split(',').any(|size| size == free.to_string()) {
            continue;
        }
        for regions in [false, true] {
            if ways == if regions { "brute" } else { "regions" } {
                continue;
            }
            player.regions = regions;
            let runs = positions
                .iter()
                .map(|position| {
                    player.clear();
                    let outcome = player.search(position, limits);
                    let time = if outcome.proven {
                        outcome.time
                    } else {
                        Duration::MAX
                    };
                    if verbose {
                        println!(
                            "  {position}: {:.1} ms, {} nodes, value {}{}",
                            outcome.time.as_secs_f64() * 1e3,
                            outcome.nodes,
                            outcome.value,
                            if outcome.proven { "" } else { " (not proven)" }
                        );
                    }
                    (time, outcome.nodes)
                })
                .collect();
            report(free, regions, runs);
        }
    }
}

/// One line: the median and slowest solve of a size, with or without regions.
fn report(free: u32, regions: bool, mut runs: Vec<(Duration, u64)>) {
    let unsolved = runs.iter().filter(|(t, _)| *t == Duration::MAX).count();
    runs.sort();
    let ms = |t: Duration| {
        if t == Duration::MAX {
            format!("> {} s", CAP.as_secs())
        } else {
            format!("{:.1} ms", t.as_secs_f64() * 1e3)
        }
    };
    let (median, median_nodes) = runs[SAMPLES / 2];
    let slowest = match runs.get((SAMPLES - unsolved).wrapping_sub(1)) {
        Some((time, nodes)) if unsolved < SAMPLES => format!("{} ({nodes} nodes)", ms(*time)),
        _ => "none".to_string(),
    };
    println!(
        "{free} free squares, regions {}: median {} ({median_nodes} nodes), slowest solved {slowest}, {unsolved} of {SAMPLES} not solved in {} s",
        if regions { "on " } else { "off" },
        ms(median),
        CAP.as_secs()
    );
}

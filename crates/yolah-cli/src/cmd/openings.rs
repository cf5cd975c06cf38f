//! `yolah openings`: a suite of balanced openings for matches (`--openings FILE`): distinct
//! positions after K random plies (no two the same up to the board's eight symmetries) whose
//! short search value is within ±M points, one `startpos moves …` line each.

use super::usage;
use anyhow::{Result, bail};
use std::collections::HashSet;
use std::io::Write;
use yolah_ai::Limits;
use yolah_ai::arena::opening::{Opening, random_opening};
use yolah_ai::eval::Weights;
use yolah_ai::players::minimax::{Minimax, Pruning, Tuning, proven_margin};
use yolah_core::Symmetry;
use yolah_core::zobrist::splitmix64;

/// The options of `yolah openings`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Openings, 1 to 100000.
    #[arg(long, value_name = "N")]
    pub count: u32,
    /// Random plies of each, 1 to 40.
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub plies: u32,
    /// The largest search value kept, in points either way.
    #[arg(long, value_name = "M", default_value_t = 1.5)]
    pub max_margin: f64,
    /// Seed of the random plies [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
}

/// The depth of the search that values each candidate: a few milliseconds each.
pub const DEPTH: u32 = 5;
/// The most openings a suite is asked for.
pub const MAX_COUNT: u32 = 100_000;
/// Candidates tried per opening kept before the request is judged impossible.
const TRIES_PER_OPENING: u64 = 1_000;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let Options {
        count,
        plies,
        max_margin,
        seed,
    } = *options;
    let seed = seed.unwrap_or(super::DEFAULT_SEED);
    usage!(
        (1..=MAX_COUNT).contains(&count),
        "--count must be from 1 to {MAX_COUNT}, not {count}"
    );
    usage!(
        (1..=40).contains(&plies),
        "--plies must be from 1 to 40, not {plies}"
    );
    usage!(
        max_margin.is_finite() && (0.0..=64.0).contains(&max_margin),
        "--max-margin must be from 0 to 64 points, not {max_margin}"
    );
    // The judge of balance is a fixed search: without late-move pruning and aspiration windows
    // (both the player's defaults now, neither when the shipped suite was made), as then, so that a suite stays the same whatever the player's defaults become.
    let mut search = Minimax::new(Weights::tuned(), 16, 1);
    search.pruning = Pruning {
        move_count: false,
        tuning: Tuning {
            aspiration: 0,
            ..Tuning::DEFAULT
        },
        ..Pruning::PLAY
    };
    let mut distinct = HashSet::new();
    let mut kept = Vec::new();
    let bar = super::progress_bar(u64::from(count), "openings");
    let mut tries = 0u64;
    while kept.len() < count as usize {
        tries += 1;
        if tries > u64::from(count) * TRIES_PER_OPENING {
            bail!(
                "found only {} of {count} openings within ±{max_margin} points after {} candidates; \
                 allow a larger --max-margin or ask for fewer",
                kept.len(),
                tries - 1
            );
        }
        let moves = random_opening(plies, splitmix64(seed ^ tries));
        let opening = Opening {
            start: yolah_core::Position::start(),
            moves,
        };
        let mut position = opening.start;
        for &m in &opening.moves {
            position.play(m);
        }
        if position.game_over() || opening.moves.len() < plies as usize {
            continue;
        }
        // One entry serves the eight symmetric positions.
        let key = Symmetry::ALL
            .iter()
            .map(|s| s.position(&position).hash())
            .min()
            .expect("eight symmetries");
        if !distinct.insert(key) {
            continue;
        }
        let outcome = search.search(
            &position,
            Limits {
                depth: Some(DEPTH),
                ..Limits::default()
            },
        );
        let margin =
            proven_margin(outcome.value).map_or(f64::from(outcome.value) / 100.0, f64::from);
        if margin.abs() <= max_margin {
            kept.push(opening);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "# {count} openings: {plies} random plies, within ±{max_margin} points by a depth-{DEPTH} \
         search, distinct up to symmetry (yolah openings --count {count} --plies {plies} \
         --max-margin {max_margin} --seed {seed})"
    )?;
    for opening in &kept {
        writeln!(out, "{}", opening.to_line())?;
    }
    Ok(())
}

//! Flat Monte Carlo (book chapter 4): random playouts after each legal move, shared out in
//! turn; the move with the best average result is played. Threads each play their share of the
//! playouts with their own generator, so an iteration limit gives the same move every time.

use crate::limits::{Budget, Limits};
use crate::player::{Player, Report};
use crate::search::parallel::Threads;
use crate::spec::{ITERATIONS, PACE, PlayerInfo, SEED, THREADS, TIME};
use crossbeam_utils::CachePadded;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::random_games::interleaved;
use yolah_core::{Playout, Position};

/// Playouts between two reads of the clock (a playout takes about a microsecond).
const CLOCK_EVERY: u64 = 16;

/// The flat Monte Carlo player.
pub struct MonteCarlo {
    /// One generator per thread, each on its own cache line: two generators sharing a line
    /// made two threads barely faster than one (false sharing, measured with the bench).
    rngs: Threads<CachePadded<SmallRng>>,
}

impl MonteCarlo {
    /// A player searching on `threads` threads, drawing from `seed`.
    pub fn new(threads: usize, seed: u64) -> MonteCarlo {
        let rngs = Threads::new((0..threads.max(1) as u64).map(|t| {
            CachePadded::new(SmallRng::seed_from_u64(
                seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ))
        }));
        MonteCarlo { rngs }
    }
}

/// Half points won and playouts played after one move.
#[derive(Clone, Copy, Default)]
struct Tally {
    half_points: u64,
    playouts: u64,
}

impl Tally {
    fn mean(self) -> f64 {
        self.half_points as f64 / (2.0 * self.playouts.max(1) as f64)
    }
}

impl Player for MonteCarlo {
    fn choose(&mut self, position: &Position, limits: Limits) -> Report {
        let budget = Budget::start(limits);
        let moves = position.moves();
        if moves.len() == 1 {
            return Report::only_move(moves[0], budget.elapsed());
        }
        let side = position.side_to_move();
        let children: std::sync::Arc<[Position]> = moves
            .iter()
            .map(|&m| {
                let mut child = *position;
                child.play(m);
                child
            })
            .collect();
        let threads = self.rngs.len();
        let search = move |t: usize, rng: &mut CachePadded<SmallRng>| {
            let budget = budget.split(t, threads);
            let mut tallies = vec![Tally::default(); children.len()];
            // Each thread starts at its own move so that an iteration limit spreads evenly.
            let mut i = t * children.len() / threads;
            let mut started = 0;
            // Playouts run several in lockstep, as the engine's random games do: one playout
            // is a chain of dependent steps, and interleaved ones let the CPU overlap them.
            interleaved(
                &mut **rng,
                || {
                    if budget.out_of_iterations(started)
                        || started % CLOCK_EVERY == 0 && budget.out_of_time()
                    {
                        return None;
                    }
                    let playout = (i, Playout::new(&children[i]));
                    started += 1;
                    i = if i + 1 == children.len() { 0 } else { i + 1 };
                    Some(playout)
                },
                |move_index, outcome| {
                    tallies[move_index].half_points += u64::from(outcome.half_points(side));
                    tallies[move_index].playouts += 1;
                },
            );
            tallies
        };
        let helper = search.clone();
        let (first, helpers) = self
            .rngs
            .run(|rng| search(0, rng), helper, budget.answer_by());
        let mut total = vec![Tally::default(); moves.len()];
        for thread in std::iter::once(&first).chain(helpers.iter().flatten()) {
            for (sum, tally) in total.iter_mut().zip(thread) {
                sum.half_points += tally.half_points;
                sum.playouts += tally.playouts;
            }
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        // Best mean first; the earlier move on ties, so the choice is reproducible.
        order.sort_by(|&a, &b| total[b].mean().total_cmp(&total[a].mean()).then(a.cmp(&b)));
        let best = order[0];
        let playouts: u64 = total.iter().map(|t| t.playouts).sum();
        let runner_up = order[1];
        Report {
            value: (total[best].playouts > 0).then(|| total[best].mean()),
            iterations: playouts,
            detail: format!(
                "{} moves, {} playouts for the best; next {} {:.3}",
                moves.len(),
                total[best].playouts,
                moves[runner_up],
                total[runner_up].mean()
            ),
            pv: vec![moves[best]],
            ..Report::new(moves[best], budget.elapsed())
        }
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "montecarlo",
    about: "flat Monte Carlo: random playouts after each move, the best average wins (ch. 4)",
    options: &[TIME, PACE, ITERATIONS, THREADS, SEED],
    build: |spec, seed| Box::new(MonteCarlo::new(spec.threads(), seed)),
    check: None,
};

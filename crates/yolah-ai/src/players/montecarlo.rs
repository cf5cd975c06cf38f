//! Flat Monte Carlo (book chapter 4): random playouts after each legal move, shared out in
//! turn; the move with the best average result is played. Threads each play their share of the
//! playouts with their own generator, so an iteration limit gives the same move every time.

use crate::limits::{Budget, Limits};
use crate::options::{ITERATIONS, PACE, SEED, THREADS, TIME};
use crate::player::{Forfeit, Player, PlayerInfo, Report, no_conflicts, small};
use crate::search::parallel::Threads;
use crossbeam_utils::CachePadded;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::Position;
use yolah_core::random_games::playouts;

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
struct MoveScore {
    half_points: u64,
    playouts: u64,
}

impl MoveScore {
    fn mean(self) -> f64 {
        self.half_points as f64 / (2.0 * self.playouts.max(1) as f64)
    }
}

/// Playouts between two looks at what has been found so far: the playouts run in slices of
/// this many (a count, not a time, so that an iteration limit still gives the same move).
const SLICE: u64 = 1 << 12;

/// How often a search tells what it has found so far (its first thread's playouts).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Plays out `children` in turn from `first` until `budget` is spent, calling `tell` with the
/// tallies every [`PROGRESS_EVERY`] or so (looked at between slices of [`SLICE`] playouts).
fn play_out(
    children: &[Position],
    side: yolah_core::Color,
    rng: &mut SmallRng,
    budget: Budget,
    first: usize,
    mut tell: impl FnMut(&[MoveScore]),
) -> Vec<MoveScore> {
    let mut tallies = vec![MoveScore::default(); children.len()];
    let mut i = first;
    let mut started = 0;
    let mut told = budget.started();
    loop {
        let slice_end = started + SLICE;
        let mut spent = false;
        // Playouts run several at once, as the engine's random games do: eight to an
        // AVX-512 register where the CPU has it, else four interleaved (one playout is a
        // chain of dependent steps; independent ones let the CPU overlap them).
        let mut next = || {
            if budget.out_of_iterations(started)
                || started.is_multiple_of(CLOCK_EVERY) && budget.out_of_time()
            {
                spent = true;
                return None;
            }
            if started == slice_end {
                return None;
            }
            let playout = (i, children[i]);
            started += 1;
            i = if i + 1 == children.len() { 0 } else { i + 1 };
            Some(playout)
        };
        let mut done = |move_index: usize, outcome: yolah_core::Outcome| {
            tallies[move_index].half_points += u64::from(outcome.half_points(side));
            tallies[move_index].playouts += 1;
        };
        playouts(rng, &mut next, &mut done);
        if spent {
            return tallies;
        }
        if told.elapsed() >= PROGRESS_EVERY {
            told = std::time::Instant::now();
            tell(&tallies);
        }
    }
}

/// The moves' indices, best mean first; the earlier move on ties, so the choice is
/// reproducible.
fn ranked(tallies: &[MoveScore]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tallies.len()).collect();
    order.sort_by(|&a, &b| {
        tallies[b]
            .mean()
            .total_cmp(&tallies[a].mean())
            .then(a.cmp(&b))
    });
    order
}

/// The index of the best move.
fn best_of(tallies: &[MoveScore]) -> usize {
    ranked(tallies)[0]
}

impl Player for MonteCarlo {
    /// Tells `progress`, every quarter of a second, what the first thread's playouts say.
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        let budget = Budget::start(limits);
        let moves = position.moves();
        if moves.len() == 1 {
            return Ok(Report::only_move(moves[0], budget.elapsed()));
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
        let shared = std::sync::Arc::clone(&children);
        let search = move |t: usize, rng: &mut CachePadded<SmallRng>| {
            play_out(
                &shared,
                side,
                rng,
                budget.split(t, threads),
                t * shared.len() / threads,
                |_| {},
            )
        };
        let main = |rng: &mut CachePadded<SmallRng>| {
            play_out(
                &children,
                side,
                rng,
                budget.split(0, threads),
                0,
                |tallies| {
                    let best = best_of(tallies);
                    progress(&Report {
                        value: Some(tallies[best].mean()),
                        iterations: tallies.iter().map(|t| t.playouts).sum(),
                        pv: vec![moves[best]],
                        ..Report::new(moves[best], budget.elapsed())
                    });
                },
            )
        };
        let (first, helpers) = self.rngs.run(main, search, budget.answer_by());
        let mut total = vec![MoveScore::default(); moves.len()];
        for thread in std::iter::once(&first).chain(helpers.iter().flatten()) {
            for (sum, tally) in total.iter_mut().zip(thread) {
                sum.half_points += tally.half_points;
                sum.playouts += tally.playouts;
            }
        }
        let order = ranked(&total);
        let best = order[0];
        let playouts: u64 = total.iter().map(|t| t.playouts).sum();
        let runner_up = order[1];
        Ok(Report {
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
        })
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "montecarlo",
    about: "flat Monte Carlo: random playouts after each move, the best average wins (ch. 4)",
    options: &[TIME, PACE, ITERATIONS, THREADS, SEED],
    seeded: true,
    build: |options, seed| Box::new(MonteCarlo::new(options.threads(), seed)),
    check: no_conflicts,
    memory_mb: small,
};

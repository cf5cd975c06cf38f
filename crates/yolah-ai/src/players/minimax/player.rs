//! The minimax player: its settings, its table and threads, and [`Minimax::search_with`], which
//! plans a search's time and limits and runs it on every thread.

use super::instructions::Instructions;
use super::outcome::{SearchResult, book_report, report};
use super::pruning::Pruning;
use super::searcher::{Iteration, Searcher, Shared, outcome};
use super::time::{DEFAULT_SOFT_PERCENT, TimePlan};
use super::values::MAX_PLY;
use crate::book;
use crate::eval::Evaluation;
use crate::eval::network::free_squares;
use crate::limits::{Budget, Limits, StopFlag};
use crate::options::{Options, SOLVE};
use crate::player::{Forfeit, Margin, Player, Report};
use crate::search::parallel::Threads;
use crate::search::regions::{AreaLimits, PLAY_LIMITS, SOLVE_LIMITS};
use crate::search::tt::Table;
use crossbeam_utils::CachePadded;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};
use yolah_core::{Move, Position};

/// The minimax player: its table, weights and one search state per thread.
pub struct Minimax {
    /// Which moves are searched shallower or not at all ([`Pruning::PLAY`] by default).
    pub pruning: Pruning,
    /// Whether positions whose sides can no longer meet are valued exactly, by regions
    /// ([`crate::search::regions`]); off by default (a match in play found no gain), on in
    /// `solve`.
    pub regions: bool,
    /// How much a position's one-player runs may cost: [`PLAY_LIMITS`] for play,
    /// [`crate::search::regions::SOLVE_LIMITS`] for `solve`.
    pub region_limits: AreaLimits,
    /// The share of a move's time, in percent, past which no new iteration starts.
    pub soft_percent: u32,
    /// Under a clock, more time for a move whose best move changed or value dropped, less
    /// for one whose best move holds (`TimePlan`). Off by default: +16.3 [-1.4, +34.2] at
    /// 1s+10ms, 1,000 games, undecided (`benches/results/time-stretch`).
    pub stretch: bool,
    /// Whether positions in the opening book ([`crate::book`]) are played from it, without
    /// search; off in [`Minimax::new`], on in specs of the shipped network player.
    pub book: bool,
    /// The best lines each iteration finds (multi-PV), 1 by default: the k-th is searched with
    /// the first moves of the lines before it left out, so k lines cost about k searches.
    pub lines: usize,
    /// The instructions the search runs with: [`Instructions::best`] by default; one this CPU
    /// lacks falls back to [`Instructions::Portable`].
    pub instructions: Instructions,
    /// The endgame solver asked first near the end (`solve=F`), if any.
    endgame: Option<Endgame>,
    table: Arc<Table>,
    evaluation: Arc<Evaluation>,
    searchers: Threads<CachePadded<Searcher>>,
}

impl Minimax {
    /// A player with this evaluation (heuristic weights or a network), a table of
    /// `tt_megabytes` MiB and `threads` threads.
    pub fn new(evaluation: impl Into<Evaluation>, tt_megabytes: usize, threads: usize) -> Minimax {
        Minimax {
            pruning: Pruning::PLAY,
            regions: false,
            region_limits: PLAY_LIMITS,
            soft_percent: DEFAULT_SOFT_PERCENT,
            stretch: false,
            book: false,
            lines: 1,
            instructions: Instructions::best(),
            endgame: None,
            table: Arc::new(Table::new(tt_megabytes)),
            evaluation: Arc::new(evaluation.into()),
            searchers: Threads::new(
                (0..threads.max(1)).map(|i| CachePadded::new(Searcher::new(i == 0))),
            ),
        }
    }

    /// The endgame solver (`yolah solve`): the tuned heuristic orders the search, separated
    /// regions are valued exactly with [`SOLVE_LIMITS`]. Null moves stay on under its time
    /// limit (their cuts are never counted as proved, and none is made where the search sees
    /// the end of the game, so a deep enough iteration proves): turned off, the bench's median
    /// at 24 free squares went from 88 to 156 ms (`docs/notebook.md`, "Exact endgames where the
    /// sides still meet").
    pub fn solver(tt_megabytes: usize, threads: usize) -> Minimax {
        Minimax {
            // Late-move pruning only delays proofs (a node that skips a move is not proved);
            // the extensions and internal iterative reductions were measured in play, not in
            // proofs: the solver keeps its search without them, as plain alpha-beta's.
            pruning: Pruning {
                move_count: false,
                tuning: Pruning::NONE.tuning,
                ..Pruning::PLAY
            },
            regions: true,
            region_limits: SOLVE_LIMITS,
            ..Minimax::new(crate::eval::Weights::tuned(), tt_megabytes, threads)
        }
    }

    /// The same, asking the endgame solver first when at most `free` squares are free (0:
    /// never), within half of each timed move's time: the solver has a table of its own,
    /// kept from move to move, and a move it proves is played.
    #[must_use]
    pub fn solving(mut self, free: u32) -> Minimax {
        self.endgame = Endgame::new(free, self.searchers.len());
        self
    }

    /// Forgets what earlier searches learnt (the table, killers and history, the endgame
    /// solver's table).
    pub fn clear(&mut self) {
        self.searchers.for_each(|searcher| searcher.clear());
        self.table.clear();
        if let Some(endgame) = &mut self.endgame {
            endgame.solver.clear();
        }
    }

    /// The final margin of `position` with best play, for its side to move, if this search
    /// (the [`Minimax::solver`], say) proves it within `nodes` (a finished game's is its own).
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use yolah_ai::players::minimax::Minimax;
    /// use yolah_core::Position;
    /// // An endgame of a random game, 12 squares left free.
    /// let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    /// let mut position = Position::start();
    /// while 64 - position.occupied().count() > 12 && !position.game_over() {
    ///     position.play(position.random_move(&mut rng));
    /// }
    /// let margin = Minimax::solver(16, 1).prove(&position, 10_000_000).unwrap();
    /// assert!(margin.abs() <= 64);
    /// ```
    pub fn prove(&mut self, position: &Position, nodes: u64) -> Option<i32> {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        self.proof(position, limits).map(|(margin, _)| margin)
    }

    /// The final margin of `position` and the line that reaches it (empty for a finished
    /// game), if this search proves it within `limits` (nodes, time or both: a search with
    /// none runs until it proves).
    pub fn proof(&mut self, position: &Position, limits: Limits) -> Option<(i32, Vec<Move>)> {
        if position.game_over() {
            return Some((super::values::margin(position), Vec::new()));
        }
        let outcome = self.search(position, limits);
        // A proved value is a game's end: a margin, or 0 for a draw.
        outcome.proven.then(|| {
            (
                super::values::proven_margin(outcome.value).unwrap_or(0),
                outcome.pv,
            )
        })
    }

    /// Searches `position` (not over) within `limits`: depth, nodes (counted by the first
    /// thread), time; with none, until the value is proven.
    pub fn search(&mut self, position: &Position, limits: Limits) -> SearchResult {
        self.search_with(position, limits, |_| {})
    }

    /// [`Minimax::search`], telling `on_iteration` what each finished iteration found (the
    /// nodes and table hits of the first thread only).
    pub fn search_with(
        &mut self,
        position: &Position,
        limits: Limits,
        on_iteration: impl FnMut(&SearchResult) + Send,
    ) -> SearchResult {
        // The move's time is the plan; under a clock a stretched search may take up to twice
        // it, within half the time left.
        let planned = Budget::start(limits);
        let stretch = self.stretch && limits.clock.is_some();
        let hard_time = match (limits.time, limits.clock) {
            (Some(time), Some(clock)) if stretch => Some((time * 2).min(clock.left / 2).max(time)),
            (time, _) => time,
        };
        let budget = Budget::start(Limits {
            time: hard_time,
            ..limits
        });
        let start = budget.started();
        let plan = planned
            .deadline()
            .zip(budget.deadline())
            .map(|(optimum, hard)| TimePlan {
                start,
                optimum: optimum.saturating_duration_since(start),
                hard,
                stretch,
                soft_percent: self.soft_percent.clamp(1, 100),
            });
        self.table.new_search();
        // A search without limits solves: no cut may make its values inexact (the cuts it
        // keeps, reductions and singular extensions' multi-cut, leave a node unproven).
        let limited =
            limits.depth.is_some() || limits.nodes.is_some() || budget.deadline().is_some();
        let shared = Shared {
            table: Arc::clone(&self.table),
            evaluation: Arc::clone(&self.evaluation),
            stop: Arc::new(AtomicBool::new(false)),
            main_depth: Arc::new(AtomicU32::new(0)),
            external_stop: limits.stop,
            node_limit: limits.nodes,
            pruning: Pruning {
                null_move: self.pruning.null_move && limited,
                futility: self.pruning.futility && limited,
                move_count: self.pruning.move_count && limited,
                ..self.pruning
            },
            regions: self.regions,
            region_limits: self.region_limits,
            lines: self.lines.max(1),
            instructions: if self.instructions.available() {
                self.instructions
            } else {
                Instructions::Portable
            },
        };
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.min(MAX_PLY as u32 - 1));
        let position = *position;
        let helpers = shared.clone();
        let mut on_iteration = on_iteration;
        // The first thread's answer is the search's unless a helper finished a deeper
        // iteration (and the first did not prove its value); a helper the system has
        // descheduled is not waited for past the deadline.
        let several = shared.lines > 1;
        let (mut result, helped) = self.searchers.run(
            |searcher| {
                searcher.prepare();
                let mut tell = |iteration: &Iteration, searcher: &Searcher| {
                    on_iteration(&outcome(
                        &position,
                        Some(iteration),
                        several,
                        searcher,
                        start,
                    ));
                };
                let found = searcher.iterate(&shared, &position, max_depth, 0, plan, &mut tell);
                shared.stop.store(true, Ordering::Relaxed);
                outcome(&position, found.as_ref(), several, searcher, start)
            },
            move |i, searcher| {
                searcher.prepare();
                // One or two plies ahead of the first thread, in turn.
                let ahead = 1 + (i as u32 - 1) % 2;
                let found =
                    searcher.iterate(&helpers, &position, max_depth, ahead, None, &mut |_, _| {});
                outcome(&position, found.as_ref(), false, searcher, start)
            },
            budget.answer_by(),
        );
        for helper in helped.into_iter().flatten() {
            // Several lines come from the first thread alone, all of one depth: a helper's
            // deeper line does not replace them.
            let deeper = helper.depth > result.depth || helper.proven;
            if !result.proven && deeper && result.lines.is_empty() {
                result.mv = helper.mv;
                result.value = helper.value;
                result.depth = helper.depth;
                result.proven = helper.proven;
                result.pv = helper.pv;
            }
            result.seldepth = result.seldepth.max(helper.seldepth);
            result.nodes += helper.nodes;
            result.tt_hits += helper.tt_hits;
        }
        result
    }
}

impl Player for Minimax {
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        let start = Instant::now();
        let moves = position.moves();
        if moves.len() == 1 {
            return Ok(Report::only_move(moves[0], start.elapsed()));
        }
        // The book answers timed moves only: a depth, a node count, or no limit at all (an
        // analysis, `go infinite`) asks for a search; so do several lines, which it has not.
        let timed = limits.time.is_some() && limits.depth.is_none() && limits.nodes.is_none();
        if self.book
            && timed
            && self.lines <= 1
            && let Some(found) = book::probe(position)
        {
            return Ok(book_report(position, found, start.elapsed()));
        }
        let mut limits = limits;
        if timed
            && self.lines <= 1
            && let Some(endgame) = &mut self.endgame
        {
            let half = limits.time.map(|time| time / 2);
            if let Some(proof) = endgame.prove(position, half, None, limits.stop, start) {
                progress(&proof);
                return Ok(proof);
            }
            // The time the solver did not use is the search's, and the clock has run.
            let used = start.elapsed();
            limits.time = limits.time.map(|time| time.saturating_sub(used));
            if let Some(clock) = &mut limits.clock {
                clock.left = clock.left.saturating_sub(used);
            }
        }
        let outcome = self.search_with(position, limits, |outcome| progress(&report(outcome)));
        Ok(Report {
            time: start.elapsed(),
            ..report(&outcome)
        })
    }
}

/// The endgame solver's table, in MiB.
const ENDGAME_TABLE_MB: usize = 16;

/// The endgame solver a player asks first near a game's end (`solve=F`, for `minimax` and
/// `alphazero`): with at most `free` squares free, a [`Minimax::solver`] searches first, with
/// a table of its own kept from move to move (a proof found once is found again at once a
/// move later); a proved move is played as it stands, so that every move from the first
/// proof on keeps the proved value.
pub(crate) struct Endgame {
    /// At most this many free squares.
    free: u32,
    solver: Box<Minimax>,
}

impl Endgame {
    /// The free squares of a spec's `solve` option (0: never).
    pub(crate) fn free(options: &Options) -> u32 {
        options.whole(SOLVE.name).map_or(0, |f| f as u32)
    }

    /// The MiB the endgame solver of a spec takes: its table with `solve`, else none.
    pub(crate) fn memory_mb(options: &Options) -> u64 {
        if Endgame::free(options) > 0 {
            ENDGAME_TABLE_MB as u64
        } else {
            0
        }
    }

    /// The solver asked first with at most `free` squares free, on `threads` threads; none
    /// for 0 (never).
    pub(crate) fn new(free: u32, threads: usize) -> Option<Endgame> {
        (free > 0).then(|| Endgame {
            free,
            solver: Box::new(Minimax::solver(ENDGAME_TABLE_MB, threads)),
        })
    }

    /// The proved move for `position`, as a report (its time counted from `started`), if
    /// it has at most the solver's free squares and the solver proves it within `time` or
    /// `nodes` (neither: it is not asked).
    pub(crate) fn prove(
        &mut self,
        position: &Position,
        time: Option<Duration>,
        nodes: Option<u64>,
        stop: Option<StopFlag>,
        started: Instant,
    ) -> Option<Report> {
        if free_squares(position) > self.free || (time.is_none() && nodes.is_none()) {
            return None;
        }
        let limits = Limits {
            time,
            nodes,
            stop,
            ..Limits::default()
        };
        let proof = self.solver.search(position, limits);
        if !proof.proven {
            return None;
        }
        let margin = super::values::proven_margin(proof.value).unwrap_or(0);
        Some(Report {
            value: Some(f64::from(margin.signum() + 1) / 2.0),
            margin: Some(Margin {
                points: f64::from(margin),
                proved: true,
            }),
            nodes: Some(proof.nodes),
            detail: format!("proved by the endgame solver in {} nodes", proof.nodes),
            pv: proof.pv,
            ..Report::new(proof.mv, started.elapsed())
        })
    }
}

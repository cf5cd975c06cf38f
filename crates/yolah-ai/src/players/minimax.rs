//! Minimax with alpha-beta and human heuristics (book chapter 6).
//!
//! Negamax alpha-beta with iterative deepening and principal variation search. A transposition
//! table (shared by all threads: lazy SMP), killer moves and a history table order the moves;
//! late moves are searched one ply shallower first ([`LMR`]). Leaves are valued by a linear
//! combination of features ([`Weights`]), in hundredths of a point of final margin.
//!
//! A finished game is worth its exact final margin beyond every heuristic value: `±(WIN +
//! |margin|)`, 0 for a draw. A subtree that reached no heuristic leaf is *proven*: its value is
//! stored in the table at depth [`PROVEN`], valid at every depth, and a search whose root is
//! proven stops: it has solved the position. With no limit at all the search runs until then,
//! which is `yolah solve`.

use crate::book::{self, BookMove};
use crate::eval::Evaluation;
use crate::eval::network::Accumulator;
use crate::limits::{Budget, Limits, StopFlag};
use crate::options::{Conflict, OptionInfo, Options, PACE, Value, ValueKind};
use crate::player::{Forfeit, Margin, Player, PlayerInfo, Report};
use crate::search::parallel::Threads;
use crate::search::regions::{AreaLimits, PLAY_LIMITS, Regions, SOLVE_LIMITS};
use crate::search::tt::{Bound, PROVEN, Table};
use crossbeam_utils::CachePadded;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};
use yolah_core::{MAX_MOVES, Move, Position};

/// The value of a won game before its margin is added: above every heuristic value.
pub const WIN: i32 = 10_000;
/// Beyond every value.
const INFINITY: i32 = 32_000;
/// Deepest ply a search reaches (a game has at most 121 plies).
pub const MAX_PLY: usize = 128;
/// Late-move reductions: moves after the first [`LMR_AFTER`] at depth ≥ 3 that are neither the
/// table move nor a killer are searched shallower first, by [`reduction`] plies (on by
/// default; see [`Pruning::reductions`]).
const LMR_AFTER: usize = 3;
/// Null-move pruning ([`Pruning::null_move`]) at depths from this one.
const NULL_MIN_DEPTH: i32 = 3;
/// Reverse futility pruning ([`Pruning::futility`]) at depths up to this one, with this
/// margin a ply (hundredths of a point).
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 150;
/// Neither prunes with this many free squares or fewer.
const PRUNE_MIN_FREE: u32 = 20;
/// Positions with at most this many free squares are checked for separated regions; with
/// more, the sides almost never are apart and the check would only cost time.
const REGIONS_FREE: u32 = 36;
/// The transposition table of a spec that sets none, in MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// The value of a finished game for the side to move.
pub fn terminal_value(position: &Position) -> i32 {
    let us = position.side_to_move();
    let margin = i32::from(position.score(us)) - i32::from(position.score(us.opponent()));
    margin + WIN * margin.signum()
}

/// The final margin a proven value stands for, `None` for a heuristic value.
pub fn proven_margin(value: i32) -> Option<i32> {
    (value.abs() > WIN).then(|| value - WIN * value.signum())
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play.
    pub mv: Move,
    /// Its value for the side to move.
    pub value: i32,
    /// Deepest iteration finished.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Whether the value is exact: the search saw every line to the end of the game.
    pub proven: bool,
    /// Positions visited (all threads).
    pub nodes: u64,
    /// Table probes that found their position.
    pub tt_hits: u64,
    /// The principal variation, starting with the move.
    pub pv: Vec<Move>,
    /// Time taken.
    pub time: Duration,
}

impl Outcome {
    /// The value as words: `+1.35` points of margin, or `win by 3`, `draw`, `loss by 2`.
    pub fn score_text(&self) -> String {
        match (self.proven, proven_margin(self.value)) {
            (true, _) if self.value == 0 => "draw (proved)".to_string(),
            (_, Some(m)) if m > 0 => format!("win by {m}{}", proven_word(self.proven)),
            (_, Some(m)) => format!("loss by {}{}", -m, proven_word(self.proven)),
            _ => format!("{:+.2}", f64::from(self.value) / 100.0),
        }
    }

    /// Expected score 0–1 for the side to move: exact when proven, else a logistic of the
    /// margin estimate (4 points ≈ 0.73; a rough scale, for display).
    pub fn expected_score(&self) -> f64 {
        if self.proven || proven_margin(self.value).is_some() {
            return f64::midpoint(f64::from(self.value.signum()), 1.0);
        }
        1.0 / (1.0 + (-f64::from(self.value) / 400.0).exp())
    }
}

fn proven_word(proven: bool) -> &'static str {
    if proven { " (proved)" } else { " (not proved)" }
}

/// What every thread of one search shares.
#[derive(Clone)]
struct Shared {
    table: Arc<Table>,
    evaluation: Arc<Evaluation>,
    /// Raised by the first thread when it has its answer: the helpers stop.
    stop: Arc<AtomicBool>,
    /// The depth the first thread is searching: helpers keep ahead of it.
    main_depth: Arc<AtomicU32>,
    /// Raised by another thread to end the search (the protocol's `stop`).
    external_stop: Option<StopFlag>,
    node_limit: Option<u64>,
    /// The player's pruning, without the cuts a search without limits may not make.
    pruning: Pruning,
    /// Whether separated regions are valued exactly ([`Minimax::regions`]).
    regions: bool,
    /// How much a position's one-player runs may cost ([`Minimax::region_limits`]).
    region_limits: AreaLimits,
}

/// One thread's search state.
struct Searcher {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Success of each move (by its 12-bit code) for each side, with gravity.
    history: Box<[[i32; 4096]; 2]>,
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    /// The node count at which [`Searcher::should_stop`] next reads the clock and the stop
    /// flag (leaves count nodes without asking, so a multiple of 256 can be skipped).
    next_check: u64,
    /// Heuristic leaves and table cuts on heuristic values: while it stays put, a subtree is
    /// proven.
    unproven: u64,
    tt_hits: u64,
    seldepth: usize,
    /// Whether this thread decides when to stop (the first).
    main: bool,
    /// Whether the search may stop on a limit (not before depth 1 is done).
    may_stop: bool,
    /// When the first thread stops: its move's time, stretched or shrunk by
    /// [`TimePlan`] as the iterations go.
    deadline: Option<Instant>,
    stopped: bool,
    /// The value of the best root move so far in this iteration.
    root_value: i32,
    /// The network's first layer for the position being searched, kept up to date by each
    /// move and its undo (with the network evaluation only).
    accumulator: Option<Accumulator>,
    /// Exact values of positions whose sides can no longer meet.
    regions: Regions,
}

const HISTORY_MAX: i32 = 1 << 14;
/// Move-ordering keys of the table move and the killers, above every history value.
const TABLE_MOVE: i32 = 1 << 30;
const KILLER: i32 = 1 << 29;

impl Searcher {
    fn new(main: bool) -> Searcher {
        Searcher {
            killers: [[None; 2]; MAX_PLY],
            history: vec![[0; 4096]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY]
                .into_boxed_slice()
                .try_into()
                .expect("MAX_PLY plies"),
            pv_len: [0; MAX_PLY],
            nodes: 0,
            next_check: 0,
            unproven: 0,
            tt_hits: 0,
            seldepth: 0,
            main,
            may_stop: false,
            deadline: None,
            stopped: false,
            root_value: 0,
            accumulator: None,
            regions: Regions::new(),
        }
    }

    fn prepare(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 2;
            }
        }
        self.nodes = 0;
        self.next_check = 0;
        self.unproven = 0;
        self.tt_hits = 0;
        self.seldepth = 0;
        self.may_stop = false;
        self.stopped = false;
    }

    /// Whether to abandon the search: another thread said so, or (first thread) a limit is
    /// reached. The clock and the stop flag are read every 256 nodes.
    #[inline]
    fn should_stop(&mut self, shared: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.main && self.may_stop && shared.node_limit.is_some_and(|n| self.nodes >= n) {
            shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
            return true;
        }
        if self.nodes < self.next_check {
            return false;
        }
        self.next_check = self.nodes + 256;
        if self.main
            && self.may_stop
            && (shared.external_stop.is_some_and(StopFlag::is_raised)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
        self.stopped = shared.stop.load(Ordering::Relaxed);
        self.stopped
    }

    /// The evaluation of a position where the search stops, for its side to move.
    #[inline]
    fn evaluate(&self, shared: &Shared, position: &Position) -> i32 {
        match (&*shared.evaluation, &self.accumulator) {
            (Evaluation::Heuristic(weights), _) => weights.evaluate(position),
            (Evaluation::Network(network), Some(acc)) => network.evaluate(acc, position),
            (Evaluation::Network(network), None) => {
                network.evaluate(&network.accumulator(position), position)
            }
        }
    }

    /// Sets the accumulator to `position`'s, before a search from it.
    fn set_root(&mut self, shared: &Shared, position: &Position) {
        if let Evaluation::Network(network) = &*shared.evaluation {
            self.accumulator = Some(network.accumulator(position));
        }
    }

    /// Plays `m` on `position` and on the accumulator.
    #[inline]
    fn play(&mut self, shared: &Shared, position: &mut Position, m: Move) {
        if let (Evaluation::Network(network), Some(acc)) =
            (&*shared.evaluation, self.accumulator.as_mut())
        {
            network.play(acc, position.side_to_move(), m);
        }
        position.play(m);
    }

    /// Undoes `m` on `position` and on the accumulator.
    #[inline]
    fn undo(&mut self, shared: &Shared, position: &mut Position, m: Move) {
        position.undo(m);
        if let (Evaluation::Network(network), Some(acc)) =
            (&*shared.evaluation, self.accumulator.as_mut())
        {
            network.undo(acc, position.side_to_move(), m);
        }
    }

    fn bonus(history: &mut i32, bonus: i32) {
        *history += bonus - *history * bonus.abs() / HISTORY_MAX;
    }

    /// Negamax alpha-beta: the value of `position` for its side to move, searched `depth`
    /// plies deep, exact when strictly between `alpha` and `beta`; `after_null` when the move
    /// into it was a null move (no second one follows).
    #[allow(clippy::too_many_lines, clippy::too_many_arguments)]
    fn search(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        after_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if position.game_over() {
            return terminal_value(position);
        }
        // What the areas say (not at the root, which must choose among all its moves): the
        // least and most margin the side can end with, exact when the sides can no longer
        // meet; a bound outside the window cuts (a proved bound, like the game's end); and in
        // the side's own areas one move kept (`Study::own`).
        let mut own = None;
        if shared.regions && ply > 0 && 64 - position.occupied().count() <= REGIONS_FREE {
            let study = self.regions.study(position, shared.region_limits);
            let (low, high) = study.margins(position);
            let value = |margin: i32| margin + WIN * margin.signum();
            if low == high || value(high) <= alpha {
                return value(high);
            }
            if value(low) >= beta {
                return value(low);
            }
            own = study.own;
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            self.unproven += 1;
            return self.evaluate(shared, position).clamp(-(WIN - 1), WIN - 1);
        }
        if self.should_stop(shared) {
            return 0;
        }

        // Step 1: the table. A deep enough bound cuts at once (on the principal variation
        // only a proven one, to keep the line whole).
        let pv_node = beta - alpha > 1;
        let key = position.hash();
        let entry = shared.table.probe(key);
        let mut table_move = None;
        if let Some(entry) = entry {
            self.tt_hits += 1;
            table_move = entry.mv;
            let value = i32::from(entry.value);
            let deep_enough = i32::from(entry.depth) >= depth;
            let proven = entry.depth == PROVEN;
            if deep_enough && (proven || !pv_node) {
                let cuts = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cuts {
                    if !proven {
                        self.unproven += 1;
                    }
                    return value;
                }
            }
        }

        let mut moves = position.moves();
        if let Some((own, keep)) = own {
            moves.retain(|m| m == keep || own & (1 << m.from().index()) == 0);
        }

        // Step 2: cuts by the static value, away from the principal variation, from endgames
        // of few free squares (where a move can cost more than it brings) and from a search
        // deep enough to see the game's end, which proves its value unless a cut spoils it
        // (a drawn position, whose window stays inside the heuristic values, would otherwise
        // never be proved); a node cut so is never proven.
        let free = 64 - position.occupied().count() as i32;
        let prunable = !pv_node
            && ply > 0
            && beta.abs() < WIN
            && !moves[0].is_pass()
            && free > PRUNE_MIN_FREE as i32
            && depth < plies_left(free);
        let futile = shared.pruning.futility && depth <= FUTILITY_DEPTH;
        let null = shared.pruning.null_move && !after_null && depth >= NULL_MIN_DEPTH;
        if prunable && (futile || null) {
            let eval = self.evaluate(shared, position).clamp(-(WIN - 1), WIN - 1);
            // Step 2a: reverse futility: a side this far above beta near the leaves keeps it.
            if futile && eval - FUTILITY_MARGIN * depth >= beta {
                self.unproven += 1;
                return eval;
            }
            // Step 2b: the null move. The opponent moves twice (a pass) in a shallower search:
            // if the side still holds beta, so would a real move, and the node is cut.
            if null && eval >= beta {
                let reduced = depth - 1 - (2 + depth / 4);
                self.play(shared, position, Move::PASS);
                let value =
                    -self.search(shared, position, reduced, ply + 1, -beta, -beta + 1, true);
                self.undo(shared, position, Move::PASS);
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    self.unproven += 1;
                    return value.min(WIN - 1);
                }
            }
        }

        // Step 3: the moves, ordered: table move, killers, then by history.
        let side = position.side_to_move().index();
        let mut order = [0i32; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            order[i] = if Some(m) == table_move {
                TABLE_MOVE
            } else if Some(m) == self.killers[ply][0] {
                KILLER + 1
            } else if Some(m) == self.killers[ply][1] {
                KILLER
            } else {
                self.history[side][m.raw() as usize]
            };
        }

        // Step 4: principal variation search over the moves.
        let unproven_before = self.unproven;
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let moves = moves.as_mut_slice();
        for i in 0..moves.len() {
            let next = (i..moves.len()).max_by_key(|&j| order[j]).unwrap_or(i);
            moves.swap(i, next);
            order.swap(i, next);
            let m = moves[i];
            self.play(shared, position, m);
            let value = if i == 0 {
                -self.search(shared, position, depth - 1, ply + 1, -beta, -alpha, false)
            } else {
                // Step 4a: late moves first shallower (late-move reduction).
                // A node deep enough to see the game's end reduces no move below the end of its
                // game, so that its value is proved.
                let reduction = if shared.pruning.reductions
                    && depth >= 3
                    && i >= LMR_AFTER
                    && order[i] < KILLER
                {
                    // The child's game lasts at most 2 plies a free square, a pass included.
                    let child_end = 2 * (free - i32::from(!m.is_pass()));
                    let spare = depth - 1 - child_end;
                    if spare >= 0 {
                        reduction(depth, i).min(spare)
                    } else {
                        reduction(depth, i)
                    }
                } else {
                    0
                };
                let mut value = -self.search(
                    shared,
                    position,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                );
                if value > alpha && reduction > 0 {
                    value = -self.search(
                        shared,
                        position,
                        depth - 1,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        false,
                    );
                }
                if value > alpha && value < beta {
                    value =
                        -self.search(shared, position, depth - 1, ply + 1, -beta, -alpha, false);
                }
                value
            };
            self.undo(shared, position, m);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(m);
                if value > alpha {
                    alpha = value;
                    if ply == 0 {
                        self.root_value = value;
                    }
                    self.pv[ply][ply] = m;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let end = self.pv_len[ply + 1];
                    head[ply][ply + 1..end].copy_from_slice(&tail[0][ply + 1..end]);
                    self.pv_len[ply] = end.max(ply + 1);
                    if value >= beta {
                        // Step 4b: a refutation: remember it as a killer and in the history.
                        if self.killers[ply][0] != Some(m) {
                            self.killers[ply] = [Some(m), self.killers[ply][0]];
                        }
                        let bonus = (depth * depth).min(HISTORY_MAX / 4);
                        Self::bonus(&mut self.history[side][m.raw() as usize], bonus);
                        for &worse in &moves[..i] {
                            Self::bonus(&mut self.history[side][worse.raw() as usize], -bonus);
                        }
                        break;
                    }
                }
            }
        }

        // Step 5: what was learnt goes to the table.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_before {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if self.unproven == unproven_before {
            PROVEN
        } else {
            depth.clamp(0, i32::from(PROVEN) - 1) as u8
        };
        shared
            .table
            .store(key, best_move, best, stored_depth, bound);
        best
    }

    /// A proved line stops where the search took a proved value from the table. This goes on
    /// to the end of the game: at each position it plays the first move whose proved value is
    /// the position's own (`value`, for the side to move at `root`), found by a search with a
    /// narrow window that the warm table makes cheap.
    fn complete_line(
        &mut self,
        shared: &Shared,
        root: &Position,
        value: i32,
        mut line: Vec<Move>,
    ) -> Vec<Move> {
        let mut position = *root;
        let mut value = value;
        for &m in &line {
            position.play(m);
            value = -value;
        }
        while !position.game_over() && line.len() < MAX_PLY / 2 {
            let mut found = None;
            for &m in &position.moves() {
                position.play(m);
                self.set_root(shared, &position);
                let child = -self.search(
                    shared,
                    &mut position,
                    MAX_PLY as i32,
                    0,
                    -value - 1,
                    -value + 1,
                    true,
                );
                position.undo(m);
                if self.stopped {
                    return line;
                }
                if child == value {
                    found = Some(m);
                    break;
                }
            }
            let Some(m) = found else { break };
            position.play(m);
            line.push(m);
            value = -value;
        }
        line
    }

    /// Iterative deepening from `root` up to `max_depth`, telling `on_iteration` of each
    /// finished one. The first thread (`ahead` 0) goes one ply at a time; a helper searches
    /// `ahead` plies deeper than the first thread is searching, skipping the depths it has
    /// fallen behind on, so that the threads spread over depths and a helper's finished
    /// iteration can be deeper than the first thread's.
    fn iterate(
        &mut self,
        shared: &Shared,
        root: &Position,
        max_depth: u32,
        ahead: u32,
        plan: Option<TimePlan>,
        on_iteration: &mut dyn FnMut(&Iteration, &Searcher),
    ) -> Option<Iteration> {
        let mut best: Option<Iteration> = None;
        let mut position = *root;
        let mut depth = 1 + ahead;
        // Finished iterations in a row that chose the same move.
        let mut held = 0;
        let mut factor = 1.0;
        self.deadline = plan.map(|plan| plan.stop_at(factor));
        while depth <= max_depth {
            if self.main {
                shared.main_depth.store(depth, Ordering::Relaxed);
            }
            self.may_stop = depth > 1;
            let unproven_before = self.unproven;
            self.set_root(shared, &position);
            let value = self.search(
                shared,
                &mut position,
                depth as i32,
                0,
                -INFINITY,
                INFINITY,
                false,
            );
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            if self.stopped {
                // A partial iteration changes the root move only for one proved better.
                if let (Some(best), Some(&first)) = (best.as_mut(), pv.first())
                    && first != best.pv[0]
                {
                    best.value = self.root_value;
                    best.proven = false;
                    best.pv = pv;
                }
                break;
            }
            let proven = self.unproven == unproven_before;
            let pv = if proven {
                self.complete_line(shared, root, value, pv)
            } else {
                pv
            };
            let iteration = Iteration {
                depth,
                value,
                proven,
                pv,
            };
            on_iteration(&iteration, self);
            if let Some(plan) = plan {
                let changed = best.as_ref().is_some_and(|b| b.pv[0] != iteration.pv[0]);
                let dropped = best
                    .as_ref()
                    .is_some_and(|b| iteration.value < b.value - TimePlan::DROP);
                held = if changed { 0 } else { held + 1 };
                factor = plan.factor(changed || dropped, held);
                self.deadline = Some(plan.stop_at(factor));
            }
            best = Some(iteration);
            if proven || plan.is_some_and(|plan| Instant::now() >= plan.last_start(factor)) {
                break;
            }
            depth = (depth + 1).max(shared.main_depth.load(Ordering::Relaxed) + ahead);
        }
        best
    }
}

/// The most plies a game can still last from a position with `free` free squares whose side
/// to move has a move: each move fills a square, and a pass (a side without a move) is always
/// followed by a move, so passes come only between moves. A search this deep sees every end.
/// (A side that must pass adds its pass: `2 * free`.)
const fn plies_left(free: i32) -> i32 {
    2 * free - 1
}

/// How many plies shallower the `index`-th move (from 0) of a node searched `depth` plies deep
/// is searched first: a ply, more the deeper the node and the later the move (½ + ln depth ×
/// ln index / 2, rounded down), leaving at least a ply.
fn reduction(depth: i32, index: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (index as f32).ln() / 2.0;
    (r as i32).clamp(1, depth - 2)
}

/// One finished iteration of the deepening.
struct Iteration {
    depth: u32,
    value: i32,
    proven: bool,
    pv: Vec<Move>,
}

/// The share of a move's time, in percent, past which minimax starts no new iteration: all
/// of it (an iteration cut by the deadline keeps its best move). Decided by a match: 100
/// against the former 50, +24.4 Elo [+5.2, +43.7] at 100 ms a move
/// (`benches/results/time-use`).
pub const DEFAULT_SOFT_PERCENT: u32 = 100;

/// When the first thread stops, as its iterations tell how hard the move is. Without a clock
/// the move's time is the limit (`time=` means that). Under a clock (with `stretch=on`), the
/// clock's allotment is the plan: [`TimePlan::UNSTABLE`] times it after an iteration that
/// changed the best move or lost more than [`TimePlan::DROP`], [`TimePlan::STABLE`] times it
/// once the best move has held for [`TimePlan::HELD`] iterations, never past `hard`.
#[derive(Clone, Copy)]
struct TimePlan {
    start: Instant,
    /// The allotment, less the safety margin.
    optimum: Duration,
    /// The latest stop: twice the allotment, at most half the time left.
    hard: Instant,
    /// Whether the allotment stretches and shrinks (`stretch=on`, under a clock).
    stretch: bool,
    /// No new iteration starts past this share (percent) of the stop time.
    soft_percent: u32,
}

impl TimePlan {
    /// A value drop (hundredths of a point) that makes a position unstable.
    const DROP: i32 = 50;
    /// Iterations the best move must hold for the move to count as obvious.
    const HELD: u32 = 4;
    const UNSTABLE: f64 = 1.6;
    const STABLE: f64 = 0.6;

    /// The time-factor after an iteration: `unstable` (changed move, dropped value), or the
    /// same move for `held` iterations.
    fn factor(&self, unstable: bool, held: u32) -> f64 {
        match () {
            () if !self.stretch => 1.0,
            () if unstable => TimePlan::UNSTABLE,
            () if held >= TimePlan::HELD => TimePlan::STABLE,
            () => 1.0,
        }
    }

    /// When the first thread stops, given the factor.
    fn stop_at(&self, factor: f64) -> Instant {
        (self.start + self.optimum.mul_f64(factor)).min(self.hard)
    }

    /// Past when no new iteration starts.
    fn last_start(&self, factor: f64) -> Instant {
        self.start + (self.stop_at(factor) - self.start) * self.soft_percent / 100
    }
}

/// Which moves the search looks at less: each switch decided by a match at 100 ms a move
/// (`docs/notebook.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Late moves searched shallower first ([`reduction`]). Reductions make the value depend
    /// on the move order.
    pub reductions: bool,
    /// A position whose side to move stands above beta is cut when a shallower search after
    /// a pass still holds beta (null-move pruning).
    pub null_move: bool,
    /// A position near the leaves whose static value stands well above beta is cut without
    /// search (reverse futility pruning).
    pub futility: bool,
}

impl Pruning {
    /// What plays best: reductions and null moves; reverse futility did not show a gain.
    /// A search without limits (`solve`) never makes the cuts, whose values are not exact.
    pub const PLAY: Pruning = Pruning {
        reductions: true,
        null_move: true,
        futility: false,
    };
    /// Every move to full depth: plain alpha-beta, as tests compare with minimax.
    pub const NONE: Pruning = Pruning {
        reductions: false,
        null_move: false,
        futility: false,
    };
}

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
    /// for one whose best move holds ([`TimePlan`]). Off by default: +16.3 [-1.4, +34.2] at
    /// 1s+10ms, 1,000 games, undecided (`benches/results/time-stretch`).
    pub stretch: bool,
    /// Whether positions in the opening book ([`crate::book`]) are played from it, without
    /// search; off in [`Minimax::new`], on in specs of the shipped network player.
    pub book: bool,
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
            regions: true,
            region_limits: SOLVE_LIMITS,
            ..Minimax::new(crate::eval::Weights::tuned(), tt_megabytes, threads)
        }
    }

    /// Forgets what earlier searches learnt (the table, killers and history).
    pub fn clear(&mut self) {
        self.searchers
            .for_each(|searcher| **searcher = Searcher::new(searcher.main));
        self.table.clear();
    }

    /// Searches `position` (not over) within `limits`: depth, nodes (counted by the first
    /// thread), time; with none, until the value is proven.
    pub fn search(&mut self, position: &Position, limits: Limits) -> Outcome {
        self.search_with(position, limits, |_| {})
    }

    /// [`Minimax::search`], telling `on_iteration` what each finished iteration found (the
    /// nodes and table hits of the first thread only).
    pub fn search_with(
        &mut self,
        position: &Position,
        limits: Limits,
        on_iteration: impl FnMut(&Outcome) + Send,
    ) -> Outcome {
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
        // A search without limits solves: no cut may make its values inexact.
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
                ..self.pruning
            },
            regions: self.regions,
            region_limits: self.region_limits,
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
        let (mut result, helped) = self.searchers.run(
            |searcher| {
                searcher.prepare();
                let mut tell = |iteration: &Iteration, searcher: &Searcher| {
                    on_iteration(&outcome(&position, Some(iteration), searcher, start));
                };
                let found = searcher.iterate(&shared, &position, max_depth, 0, plan, &mut tell);
                shared.stop.store(true, Ordering::Relaxed);
                outcome(&position, found.as_ref(), searcher, start)
            },
            move |i, searcher| {
                searcher.prepare();
                // One or two plies ahead of the first thread, in turn.
                let ahead = 1 + (i as u32 - 1) % 2;
                let found =
                    searcher.iterate(&helpers, &position, max_depth, ahead, None, &mut |_, _| {});
                outcome(&position, found.as_ref(), searcher, start)
            },
            budget.answer_by(),
        );
        for helper in helped.into_iter().flatten() {
            let deeper = helper.depth > result.depth || helper.proven;
            if !result.proven && deeper {
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

/// The outcome of a search that found `iteration` (none: the first legal move).
fn outcome(
    position: &Position,
    iteration: Option<&Iteration>,
    searcher: &Searcher,
    start: Instant,
) -> Outcome {
    let (depth, value, proven, mut pv) = iteration.map_or((0, 0, false, Vec::new()), |it| {
        (it.depth, it.value, it.proven, it.pv.clone())
    });
    if pv.is_empty() {
        pv.push(position.moves()[0]);
    }
    Outcome {
        mv: pv[0],
        value,
        depth,
        seldepth: searcher.seldepth as u32,
        proven,
        nodes: searcher.nodes,
        tt_hits: searcher.tt_hits,
        pv,
        time: start.elapsed(),
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
        // analysis, `go infinite`) asks for a search.
        let timed = limits.time.is_some() && limits.depth.is_none() && limits.nodes.is_none();
        if self.book
            && timed
            && let Some(found) = book::probe(position)
        {
            return Ok(book_report(position, found, start.elapsed()));
        }
        let outcome = self.search_with(position, limits, |outcome| progress(&report(outcome)));
        Ok(Report {
            time: start.elapsed(),
            ..report(&outcome)
        })
    }
}

/// What a player says of a book move: the value and depth of the search that chose it.
fn book_report(position: &Position, found: BookMove, time: Duration) -> Report {
    let outcome = Outcome {
        mv: found.mv,
        value: found.value,
        depth: found.depth,
        seldepth: found.depth,
        proven: false,
        nodes: 0,
        tt_hits: 0,
        pv: vec![found.mv],
        time,
    };
    let mut report = report(&outcome);
    report.nodes = None;
    report.iterations = 0;
    report.book = true;
    report.detail = format!(
        "book move ({} positions; its search: depth {}, score {})",
        book::len(),
        found.depth,
        outcome.score_text()
    );
    debug_assert!(position.check_move(found.mv).is_ok());
    report
}

/// What a player says of a search's outcome.
fn report(outcome: &Outcome) -> Report {
    let seconds = outcome.time.as_secs_f64().max(1e-9);
    let mut detail = format!(
        "depth {}/{}, score {}, {} nodes ({:.2} M/s), table hits {:.0} %",
        outcome.depth,
        outcome.seldepth,
        outcome.score_text(),
        outcome.nodes,
        outcome.nodes as f64 / seconds / 1e6,
        100.0 * outcome.tt_hits as f64 / outcome.nodes.max(1) as f64,
    );
    detail.push_str(", pv");
    for m in &outcome.pv {
        let _ = write!(detail, " {m}");
    }
    let proved = outcome.proven;
    Report {
        value: Some(outcome.expected_score()),
        iterations: outcome.nodes,
        depth: Some(outcome.depth),
        margin: Some(Margin {
            points: proven_margin(outcome.value)
                .map_or(f64::from(outcome.value) / 100.0, f64::from),
            proved,
        }),
        nodes: Some(outcome.nodes),
        pv: outcome.pv.clone(),
        detail,
        ..Report::new(outcome.mv, outcome.time)
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "minimax",
    about: "alpha-beta minimax; leaves valued by heuristics tuned by a genetic algorithm (ch. 6) or a neural network (eval=nn, ch. 7)",
    options: &[
        OptionInfo {
            name: "time",
            kind: ValueKind::Duration,
            default: "100ms if neither depth nor nodes is given, else none",
            help: "thinking time per move (with depth or nodes: whichever ends first)",
        },
        PACE,
        OptionInfo {
            name: "soft",
            kind: ValueKind::Percent,
            default: "100",
            help: "the share of the move's time (percent) past which no new iteration starts; \
                   an iteration running at the end of the time is cut, its best move kept",
        },
        OptionInfo {
            name: "stretch",
            kind: ValueKind::Switch,
            default: "off",
            help: "under a clock, up to 1.6 times the move's share when the best move changes or \
                   the value drops, 0.6 times once it has held for 4 iterations",
        },
        OptionInfo {
            name: "depth",
            kind: ValueKind::Depth,
            default: "none",
            help: "search depth in plies (with time or nodes: whichever ends first)",
        },
        OptionInfo {
            name: "nodes",
            kind: ValueKind::Count,
            default: "none",
            help: "positions searched per move, counted by the first thread",
        },
        OptionInfo {
            name: "tt",
            kind: ValueKind::Megabytes,
            default: "16",
            help: "transposition table size in MiB (rounded down to a power of two)",
        },
        OptionInfo {
            name: "eval",
            kind: ValueKind::Evaluation,
            default: "heuristic (nn if net is given)",
            help: "what values the leaves: heuristic (features and weights) or nn (the network)",
        },
        OptionInfo {
            name: "weights",
            kind: ValueKind::WeightsFile,
            default: "the tuned weights shipped in the crate",
            help: "heuristic weights file (JSON, as `yolah tune` writes)",
        },
        OptionInfo {
            name: "net",
            kind: ValueKind::NetworkFile,
            default: "the network shipped in the crate",
            help: "network file for eval=nn (as `yolah train` writes)",
        },
        OptionInfo {
            name: "threads",
            kind: ValueKind::Threads,
            default: "1",
            help: "search threads sharing one table, lazy SMP (capped at the machine's cores)",
        },
        OptionInfo {
            name: "regions",
            kind: ValueKind::Switch,
            default: "off",
            help: "exact values, without search, where the sides can no longer meet (endgames)",
        },
        OptionInfo {
            name: "book",
            kind: ValueKind::Switch,
            default: "on with the shipped network (eval=nn without net), else off",
            help: "play the opening book's move (tables/book.rs, the shipped network player's \
                   long searches) where it has the position",
        },
        OptionInfo {
            name: "lmr",
            kind: ValueKind::Switch,
            default: "on",
            help: "late-move reductions (off: every move searched to full depth)",
        },
        OptionInfo {
            name: "nmp",
            kind: ValueKind::Switch,
            default: "on",
            help: "null-move pruning (a pass searched shallower cuts a node that still holds beta)",
        },
        OptionInfo {
            name: "rfp",
            kind: ValueKind::Switch,
            default: "off",
            help: "reverse futility pruning (near the leaves, a static value far above beta cuts)",
        },
    ],
    build: |spec, _| {
        let evaluation = match (spec.value("weights"), spec.value("net")) {
            (Some(Value::Weights(weights)), _) => Evaluation::Heuristic(*weights),
            (_, Some(Value::Network(network))) => Evaluation::Network(network.clone()),
            _ if spec.whole("eval") == Some(1) => {
                Evaluation::Network(crate::eval::Network::shipped())
            }
            _ => Evaluation::Heuristic(crate::eval::Weights::tuned()),
        };
        let tt = spec.whole("tt").map_or(DEFAULT_TT_MB, |n| n as usize);
        let mut player = Minimax::new(evaluation, tt, spec.threads());
        player.pruning = Pruning {
            reductions: spec
                .whole("lmr")
                .map_or(Pruning::PLAY.reductions, |on| on != 0),
            null_move: spec
                .whole("nmp")
                .map_or(Pruning::PLAY.null_move, |on| on != 0),
            futility: spec
                .whole("rfp")
                .map_or(Pruning::PLAY.futility, |on| on != 0),
        };
        player.regions = spec.whole("regions") == Some(1);
        // The book holds the shipped network player's choices: on by default for it alone,
        // so other weights and networks (tuning, training, comparisons) play their own moves.
        let shipped_network = spec.whole("eval") == Some(1) && spec.value("net").is_none();
        player.book = spec.whole("book").map_or(shipped_network, |on| on != 0);
        player.soft_percent = spec
            .whole("soft")
            .map_or(DEFAULT_SOFT_PERCENT, |p| p as u32);
        player.stretch = spec.whole("stretch") == Some(1);
        Box::new(player)
    },
    check: check_evaluation,
    memory_mb: |options| options.whole("tt").unwrap_or(DEFAULT_TT_MB as u64),
};

/// Evaluation options that cannot go together: a network with `eval=heuristic`, weights
/// with a network.
fn check_evaluation(options: &Options) -> Result<(), Conflict> {
    let has = |name: &str| options.has(name);
    let eval = options.whole("eval");
    let conflict = |first: &str, second: &str| Conflict {
        first: first.to_string(),
        second: second.to_string(),
    };
    if has("net") && eval == Some(0) {
        return Err(conflict("eval=heuristic", "net"));
    }
    if has("weights") && (has("net") || eval == Some(1)) {
        return Err(conflict(
            "weights",
            if has("net") { "net" } else { "eval=nn" },
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(stretch: bool, soft_percent: u32) -> TimePlan {
        let start = Instant::now();
        TimePlan {
            start,
            optimum: Duration::from_millis(100),
            hard: start + Duration::from_millis(150),
            stretch,
            soft_percent,
        }
    }

    /// `at` is `ms` milliseconds after the plan's start, to a microsecond.
    fn after(plan: &TimePlan, at: Instant, ms: u64) -> bool {
        let want = plan.start + Duration::from_millis(ms);
        at.max(want) - at.min(want) < Duration::from_micros(1)
    }

    #[test]
    fn the_plan_stretches_for_unstable_moves_and_shrinks_for_held_ones_never_past_hard() {
        let p = plan(true, 100);
        assert!(after(&p, p.stop_at(p.factor(false, 1)), 100));
        // 1.6 times 100 ms is past the hard stop.
        assert!(after(&p, p.stop_at(p.factor(true, 0)), 150));
        assert!(after(&p, p.stop_at(p.factor(true, TimePlan::HELD)), 150));
        assert!(after(&p, p.stop_at(p.factor(false, TimePlan::HELD)), 60));
        assert!(after(
            &p,
            p.stop_at(p.factor(false, TimePlan::HELD - 1)),
            100
        ));
        // Without stretch, or with a fixed time, the time is the time.
        let fixed = plan(false, 100);
        for (unstable, held) in [(true, 0), (false, TimePlan::HELD), (false, 1)] {
            assert!(after(
                &fixed,
                fixed.stop_at(fixed.factor(unstable, held)),
                100
            ));
        }
        // No new iteration past the soft share of the stop time.
        let soft = plan(true, 50);
        assert!(after(&soft, soft.last_start(1.0), 50));
        assert!(after(&soft, soft.last_start(TimePlan::STABLE), 30));
    }
}

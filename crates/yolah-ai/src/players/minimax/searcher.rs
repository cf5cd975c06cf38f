//! One thread's search: iterative deepening over negamax alpha-beta with principal variation
//! search, the table, the cuts of [`super::pruning`] and the order of [`super::ordering`].

use super::instructions::Instructions;
use super::ordering::{Line, MoveOrder};
use super::outcome::{SearchResult, Variation};
use super::pruning::{Pruning, plies_left};
use super::time::TimePlan;
use super::values::{MAX_PLY, WIN, terminal_value};
use crate::eval::Evaluation;
use crate::eval::network::Accumulators;
use crate::limits::StopFlag;
use crate::search::regions::{AreaLimits, Regions};
use crate::search::tt::{Bound, PROVEN, Table};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;
use yolah_core::{Move, Position};

/// Beyond every value.
const INFINITY: i32 = 32_000;
/// A ply whose static value the search did not take.
const NO_VALUE: i32 = i32::MIN;
/// The most double singular extensions on one line ([`super::Tuning::se_double`]): each adds
/// a ply more than a single one, and many in a row would make a search that never ends.
const MAX_DOUBLES: u8 = 6;
/// One-player expansions of the regions between two readings of the clock (about a
/// millisecond of them).
const SPENT_CHECK: u64 = 16_384;

/// What every thread of one search shares.
#[derive(Clone)]
pub(super) struct Shared {
    pub(super) table: Arc<Table>,
    pub(super) evaluation: Arc<Evaluation>,
    /// Raised by the first thread when it has its answer: the helpers stop.
    pub(super) stop: Arc<AtomicBool>,
    /// The depth the first thread is searching: helpers keep ahead of it.
    pub(super) main_depth: Arc<AtomicU32>,
    /// Raised by another thread to end the search (the protocol's `stop`).
    pub(super) external_stop: Option<StopFlag>,
    pub(super) node_limit: Option<u64>,
    /// The player's pruning, without the cuts a search without limits may not make.
    pub(super) pruning: Pruning,
    /// Whether separated regions are valued exactly ([`super::Minimax::regions`]).
    pub(super) regions: bool,
    /// How much a position's one-player runs may cost ([`super::Minimax::region_limits`]).
    pub(super) region_limits: AreaLimits,
    /// The lines the first thread finds at each depth ([`super::Minimax::lines`]).
    pub(super) lines: usize,
    /// The copy of the recursion that runs: one this CPU has the instructions of.
    pub(super) instructions: Instructions,
}

/// One thread's search state.
pub(super) struct Searcher {
    /// Killers and history.
    ordering: MoveOrder,
    /// The move played at each ply of the line being searched (a pass for a null move).
    played: [Move; MAX_PLY],
    /// The static value of the position at each ply of the line being searched, for its side
    /// to move, where the search took it ([`NO_VALUE`] elsewhere).
    statics: [i32; MAX_PLY],
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    /// The node count at which [`Searcher::should_stop`] next reads the clock and the stop
    /// flag (leaves count nodes without asking, so a multiple of 256 can be skipped).
    next_check: u64,
    /// The regions' one-player expansions ([`Regions::spent`]) at which the clock is read
    /// even if the node count has not reached `next_check`: a study can cost thousands of
    /// expansions in one node, and `solve --time` must end on time.
    next_spent_check: u64,
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
    /// The network's first layer along the line being searched, brought up to date where a
    /// position is evaluated (with the network evaluation only).
    accumulators: Option<Accumulators>,
    /// Exact values of positions whose sides can no longer meet.
    regions: Regions,
    /// Root moves left out of the search: the first moves of the lines already found at this
    /// depth, when more than one is asked for.
    excluded: Vec<Move>,
    /// At each ply of the line, the move a singular-extension search leaves out (the table
    /// move whose singularity it tests), if any.
    skipped: [Option<Move>; MAX_PLY],
    /// At each ply of the line, how many double singular extensions led to it.
    doubles: [u8; MAX_PLY],
    /// The depth of the iteration being searched: extensions stop at twice it.
    iteration_depth: i32,
}

impl Searcher {
    /// A search state with nothing learnt; `main` for the first thread.
    pub(super) fn new(main: bool) -> Searcher {
        Searcher {
            ordering: MoveOrder::new(),
            played: [Move::PASS; MAX_PLY],
            statics: [NO_VALUE; MAX_PLY],
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY]
                .into_boxed_slice()
                .try_into()
                .expect("MAX_PLY plies"),
            pv_len: [0; MAX_PLY],
            nodes: 0,
            next_check: 0,
            next_spent_check: 0,
            unproven: 0,
            tt_hits: 0,
            seldepth: 0,
            main,
            may_stop: false,
            deadline: None,
            stopped: false,
            root_value: 0,
            accumulators: None,
            regions: Regions::new(),
            excluded: Vec::new(),
            skipped: [None; MAX_PLY],
            doubles: [0; MAX_PLY],
            iteration_depth: 0,
        }
    }

    /// Forgets what earlier searches learnt (killers and history).
    pub(super) fn clear(&mut self) {
        *self = Searcher::new(self.main);
    }

    /// Before a search: the counts reset, the move order aged.
    pub(super) fn prepare(&mut self) {
        self.ordering.age();
        self.nodes = 0;
        self.next_check = 0;
        self.next_spent_check = 0;
        self.unproven = 0;
        self.tt_hits = 0;
        self.seldepth = 0;
        self.may_stop = false;
        self.stopped = false;
    }

    /// Whether to abandon the search: another thread said so, or (first thread) a limit is
    /// reached. The clock and the stop flag are read every 256 nodes, or every
    /// [`SPENT_CHECK`] one-player expansions of the regions.
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
        let spent = self.regions.spent();
        if self.nodes < self.next_check && spent < self.next_spent_check {
            return false;
        }
        self.next_check = self.nodes + 256;
        self.next_spent_check = spent + SPENT_CHECK;
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

    /// The evaluation of a position where the search stops, for its side to move (always
    /// inlined into each compiled copy of the recursion, with the evaluation's code).
    #[inline(always)]
    fn evaluate(&mut self, shared: &Shared, position: &Position) -> i32 {
        match (&*shared.evaluation, &mut self.accumulators) {
            (Evaluation::Heuristic(weights), _) => weights.evaluate(position),
            (Evaluation::Network(network), Some(accumulators)) => {
                network.evaluate(accumulators.current(network), position)
            }
            (Evaluation::Network(network), None) => {
                network.evaluate(&network.accumulator(position), position)
            }
        }
    }

    /// Sets the line's root to `position`, before a search from it.
    fn set_root(&mut self, shared: &Shared, position: &Position) {
        if let Evaluation::Network(network) = &*shared.evaluation {
            match &mut self.accumulators {
                Some(accumulators) => accumulators.reset(network, position),
                None => self.accumulators = Some(Accumulators::new(network, position)),
            }
        }
    }

    /// Plays `m` on `position` and on the line. The new position's table bucket is fetched
    /// into the cache meanwhile, for the child's probe.
    #[inline]
    fn play(&mut self, shared: &Shared, position: &mut Position, m: Move) {
        let side = position.side_to_move();
        position.play(m);
        shared.table.prefetch(position.hash());
        if let Some(accumulators) = &mut self.accumulators {
            accumulators.push(side, m);
        }
    }

    /// Undoes `m` on `position` and on the line.
    #[inline]
    fn undo(&mut self, position: &mut Position, m: Move) {
        position.undo(m);
        if let Some(accumulators) = &mut self.accumulators {
            accumulators.pop();
        }
    }

    /// Negamax alpha-beta: the value of `position` for its side to move, searched `depth`
    /// plies deep, exact when strictly between `alpha` and `beta`; `after_null` when the move
    /// into it was a null move (no second one follows). Through the copy of the recursion
    /// compiled for `shared.instructions`.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        after_null: bool,
    ) -> i32 {
        debug_assert!(shared.instructions.available());
        match shared.instructions {
            Instructions::Avx2 => {
                self.recurse::<true>(shared, position, depth, ply, alpha, beta, after_null)
            }
            Instructions::Portable => {
                self.recurse::<false>(shared, position, depth, ply, alpha, beta, after_null)
            }
        }
    }

    /// A recursive call of [`Searcher::search`] within the copy compiled for AVX2 (`AVX2`) or
    /// for the build's target.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn recurse<const AVX2: bool>(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        after_null: bool,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: `Instructions::Avx2` is only chosen on a CPU that has its features
            // (`Minimax::instructions` is checked by `Instructions::available`).
            return unsafe {
                self.search_avx2(shared, position, depth, ply, alpha, beta, after_null)
            };
        }
        self.search_portable(shared, position, depth, ply, alpha, beta, after_null)
    }

    /// The recursion compiled for the build's target CPU.
    #[allow(clippy::too_many_arguments)]
    fn search_portable(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        after_null: bool,
    ) -> i32 {
        self.search_body::<false>(shared, position, depth, ply, alpha, beta, after_null)
    }

    /// The recursion compiled for x86-64-v3, with what it inlines.
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,fma")]
    fn search_avx2(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        after_null: bool,
    ) -> i32 {
        self.search_body::<true>(shared, position, depth, ply, alpha, beta, after_null)
    }

    /// [`Searcher::search`]'s body, written once, inlined into each copy of the recursion.
    #[allow(clippy::too_many_lines, clippy::too_many_arguments)]
    #[inline(always)]
    fn search_body<const AVX2: bool>(
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
        if shared.regions
            && ply > 0
            && 64 - position.occupied().count() as i32 <= shared.pruning.tuning.regions_free
        {
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
        if ply == 0 {
            self.doubles[0] = 0;
        }
        self.doubles[ply + 1] = self.doubles[ply];
        if self.should_stop(shared) {
            return 0;
        }

        // Step 1: the table. A deep enough bound cuts at once (on the principal variation
        // only a proven one, to keep the line whole). A root that leaves moves out, and a
        // singular extension's search that leaves the table move out (`skipped`), are not the
        // position the table knows: they neither read its value nor store one.
        let pv_node = beta - alpha > 1;
        let skipped = self.skipped[ply];
        let excluding = (ply == 0 && !self.excluded.is_empty()) || skipped.is_some();
        let key = position.hash();
        let entry = shared.table.probe(key).filter(|_| !excluding);
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
                    // The entry vouches for the line below as deep as this iteration asks
                    // (a proof's search asks no more): else a cut near the root reads
                    // `depth 12/11`.
                    let vouched = (ply + depth.max(0) as usize).min(self.iteration_depth as usize);
                    self.seldepth = self.seldepth.max(vouched);
                    return value;
                }
            }
        }

        let mut moves = position.moves();
        if let Some((own, keep)) = own {
            moves.retain(|m| m == keep || own & (1 << m.from().index()) == 0);
        }
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(&m));
        }
        if let Some(skipped) = skipped {
            moves.retain(|m| m != skipped);
            // A node that leaves a move out is not proven.
            self.unproven += 1;
            if moves.is_empty() {
                return -INFINITY;
            }
        }

        // Step 2: cuts by the static value, away from the principal variation, from endgames
        // of few free squares (where a move can cost more than it brings) and from a search
        // deep enough to see the game's end, which proves its value unless a cut spoils it
        // (a drawn position, whose window stays inside the heuristic values, would otherwise
        // never be proved); a node cut so is never proven.
        let free = 64 - position.occupied().count() as i32;
        let tuning = &shared.pruning.tuning;
        let prunable = !pv_node
            && ply > 0
            && beta.abs() < WIN
            && !moves[0].is_pass()
            && free > tuning.prune_free
            && depth < plies_left(free);
        let futile = shared.pruning.futility && depth <= tuning.rfp_depth;
        let null = shared.pruning.null_move && !after_null && depth >= tuning.nmp_depth;
        let pruned_by_count = shared.pruning.move_count && depth <= tuning.lmp_depth;
        let weighs_improving = pruned_by_count && tuning.lmp_worsening < 100;
        self.statics[ply] = NO_VALUE;
        if prunable && (futile || null || weighs_improving) {
            let eval = self.evaluate(shared, position).clamp(-(WIN - 1), WIN - 1);
            self.statics[ply] = eval;
            // Step 2a: reverse futility: a side this far above beta near the leaves keeps it.
            if futile && eval - tuning.rfp_margin * depth >= beta {
                self.unproven += 1;
                return eval;
            }
            // Step 2b: the null move. The opponent moves twice (a pass) in a shallower search:
            // if the side still holds beta, so would a real move, and the node is cut.
            if null && eval >= beta {
                let reduced = depth - 1 - tuning.null_reduction(depth);
                self.played[ply] = Move::PASS;
                self.play(shared, position, Move::PASS);
                let value = -self.recurse::<AVX2>(
                    shared,
                    position,
                    reduced,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    true,
                );
                self.undo(position, Move::PASS);
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    self.unproven += 1;
                    return value.min(WIN - 1);
                }
            }
        }

        // Step 2c: a singular extension: where the table holds a deep enough lower bound for
        // its move, the other moves are searched to half the depth against a bound below it;
        // if none reaches it, the table move is singular and searched a ply deeper. If one
        // does, and that bound holds beta, the node is cut (multi-cut).
        let mut extension = 0;
        if let Some(entry) = entry
            && let Some(table_mv) = entry.mv
            && tuning.se_depth > 0
            && depth >= tuning.se_depth
            && ply > 0
            && !excluding
            && moves.len() > 1
            && entry.depth != PROVEN
            && i32::from(entry.depth) >= depth - 3
            && entry.bound != Bound::Upper
            && i32::from(entry.value).abs() < WIN
            && depth < plies_left(free)
            && (ply as i32) < 2 * self.iteration_depth
        {
            // Within the heuristic values: the cut below is never taken for a proof.
            let singular_beta =
                (i32::from(entry.value) - tuning.se_margin * depth / 10).max(-(WIN - 1));
            let (statics, unproven) = (self.statics[ply], self.unproven);
            self.skipped[ply] = Some(table_mv);
            let value = self.recurse::<AVX2>(
                shared,
                position,
                ((depth - 1) / 2).max(1),
                ply,
                singular_beta - 1,
                singular_beta,
                true,
            );
            self.skipped[ply] = None;
            // The skip search's leaves do not make this node unproven: it searches every
            // move itself.
            (self.statics[ply], self.unproven, self.pv_len[ply]) = (statics, unproven, ply);
            if self.stopped {
                return 0;
            }
            if value < singular_beta {
                // Far below the bound, off the principal variation: two plies.
                let double = tuning.se_double > 0
                    && !pv_node
                    && value < singular_beta - tuning.se_double
                    && self.doubles[ply] < MAX_DOUBLES;
                extension = if double { 2 } else { 1 };
            } else if singular_beta >= beta {
                self.unproven += 1;
                return singular_beta;
            } else if i32::from(entry.value) >= beta {
                // Not singular, and expected to hold beta anyway: searched shallower.
                extension = -tuning.se_negative;
            }
        }

        // Step 2d: an internal iterative reduction: a node the table knows no move for,
        // deep enough, is searched a ply shallower (its move order is a guess; the next
        // iteration finds the table's move). Never below a ply; not where the search sees the
        // game's end.
        let depth = if tuning.iir_depth > 0
            && depth >= tuning.iir_depth.max(2)
            && table_move.is_none()
            && ply > 0
            && !excluding
            && depth < plies_left(free)
        {
            depth - 1
        } else {
            depth
        };

        // Step 3: the moves, ordered: table move, killers, then by history.
        let side = position.side_to_move();
        let line = Line::new(
            &self.played,
            ply,
            side,
            shared.pruning.counter_moves,
            tuning.cont_history,
        );
        let mut order = self.ordering.keys(&moves, table_move, ply, side, line);

        // Step 4: principal variation search over the moves.
        let unproven_before = self.unproven;
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let moves = moves.as_mut_slice();
        // Not improving: the side's static value is not above its value two plies before
        // (improving where either is unknown).
        let improving = ply < 2
            || self.statics[ply] == NO_VALUE
            || self.statics[ply - 2] == NO_VALUE
            || self.statics[ply] > self.statics[ply - 2];
        let count_limit =
            (prunable && pruned_by_count).then(|| tuning.move_count_limit(depth, improving));
        for i in 0..moves.len() {
            let next = (i..moves.len()).max_by_key(|&j| order[j]).unwrap_or(i);
            moves.swap(i, next);
            order.swap(i, next);
            // Step 4a: late-move pruning: near the leaves, the moves history orders last (the
            // rest of them, in this order) are not searched; the node is then not proven.
            if count_limit.is_some_and(|limit| i >= limit) && MoveOrder::by_history(order[i]) {
                self.unproven += 1;
                break;
            }
            // Step 4a': history pruning: where late-move pruning may cut, from the second
            // move, the moves whose history is below `-hp_margin × depth` (the rest of them:
            // the order is by history) are not searched either.
            if count_limit.is_some()
                && i > 0
                && tuning.hp_margin > 0
                && MoveOrder::by_history(order[i])
                && order[i] < -tuning.hp_margin * depth
            {
                self.unproven += 1;
                break;
            }
            let m = moves[i];
            self.played[ply] = m;
            self.play(shared, position, m);
            let value = if i == 0 {
                let extended = if Some(m) == table_move { extension } else { 0 };
                self.doubles[ply + 1] = self.doubles[ply] + u8::from(extended == 2);
                let value = -self.recurse::<AVX2>(
                    shared,
                    position,
                    depth - 1 + extended,
                    ply + 1,
                    -beta,
                    -alpha,
                    false,
                );
                self.doubles[ply + 1] = self.doubles[ply];
                value
            } else {
                // Step 4b: late moves first shallower (late-move reduction).
                let reduction = shared
                    .pruning
                    .late_move_reduction(depth, i, order[i], pv_node, free, m);
                let mut value = -self.recurse::<AVX2>(
                    shared,
                    position,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                );
                if value > alpha && reduction > 0 {
                    value = -self.recurse::<AVX2>(
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
                    value = -self.recurse::<AVX2>(
                        shared,
                        position,
                        depth - 1,
                        ply + 1,
                        -beta,
                        -alpha,
                        false,
                    );
                }
                value
            };
            self.undo(position, m);
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
                        // Step 4c: a refutation: remember it as a killer and in the history.
                        self.ordering
                            .refuted(ply, depth, side, m, &moves[..i], line);
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
        if !excluding {
            shared
                .table
                .store(key, best_move, best, stored_depth, bound);
        }
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

    /// Multi-PV: after `first` (the line of the search at `depth`), the next best lines at
    /// that depth, each searched with the first moves of the lines before it left out, all
    /// sorted best first (a line found after the first may be better: the first search
    /// reduced its move); `None` if the search was stopped on the way.
    fn more_lines(
        &mut self,
        shared: &Shared,
        root: &Position,
        depth: u32,
        first: Variation,
    ) -> Option<Vec<Variation>> {
        let wanted = shared.lines.min(root.moves().len());
        let mut lines = vec![first];
        let mut position = *root;
        while lines.len() < wanted {
            self.excluded = lines
                .iter()
                .filter_map(|line| line.pv.first().copied())
                .collect();
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
            self.excluded.clear();
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            if self.stopped || pv.is_empty() {
                return None;
            }
            let proven = self.unproven == unproven_before;
            let pv = if proven {
                self.complete_line(shared, root, value, pv)
            } else {
                pv
            };
            lines.push(Variation { value, proven, pv });
        }
        // Best first (stable: among equals, the order found).
        lines.sort_by_key(|line| std::cmp::Reverse(line.value));
        Some(lines)
    }

    /// The root searched `depth` plies deep, in an aspiration window around `last` (the
    /// last iteration's value) when `Tuning::aspiration` is set, from depth 4, and `last` is
    /// not a proved result: a value outside it is searched again with that side of the
    /// window twice as far, until it falls inside (or the window is whole). Returns the value
    /// and the unproven count before the search that gave it.
    ///
    /// Stopped in a search again, the line left is one a stopped whole-window search could
    /// leave: none after a fail low (its first move is only the best of moves all worse than
    /// the last iteration's value, so the last iteration's line stands), and after a fail
    /// high the move that failed high, if the search again has found none yet.
    fn root(
        &mut self,
        shared: &Shared,
        position: &mut Position,
        depth: u32,
        last: Option<i32>,
    ) -> (i32, u64) {
        let mut delta = shared.pruning.tuning.aspiration;
        let (mut alpha, mut beta) = match last {
            Some(last) if delta > 0 && depth >= 4 && last.abs() < WIN => {
                (last.saturating_sub(delta), last.saturating_add(delta))
            }
            _ => (-INFINITY, INFINITY),
        };
        // Past a proved result's values, the side of the window is open.
        let open = |bound: i32| {
            if bound.abs() >= WIN {
                INFINITY * bound.signum()
            } else {
                bound
            }
        };
        let mut failed_low = false;
        let mut failed_high: Option<(Move, i32)> = None;
        loop {
            let unproven_before = self.unproven;
            self.set_root(shared, position);
            let value = self.search(shared, position, depth as i32, 0, alpha, beta, false);
            if self.stopped {
                if failed_low {
                    self.pv_len[0] = 0;
                } else if let Some((m, value)) = failed_high
                    && self.pv_len[0] == 0
                {
                    self.pv[0][0] = m;
                    self.pv_len[0] = 1;
                    self.root_value = value;
                }
                return (value, unproven_before);
            }
            if value <= alpha && alpha > -INFINITY {
                failed_low = true;
                delta = delta.saturating_mul(2);
                alpha = open(value.saturating_sub(delta));
            } else if value >= beta && beta < INFINITY {
                failed_high = self.pv[0][..self.pv_len[0]].first().map(|&m| (m, value));
                delta = delta.saturating_mul(2);
                beta = open(value.saturating_add(delta));
            } else {
                return (value, unproven_before);
            }
        }
    }

    /// Iterative deepening from `root` up to `max_depth`, telling `on_iteration` of each
    /// finished one. The first thread (`ahead` 0) goes one ply at a time; a helper searches
    /// `ahead` plies deeper than the first thread is searching, skipping the depths it has
    /// fallen behind on, so that the threads spread over depths and a helper's finished
    /// iteration can be deeper than the first thread's.
    pub(super) fn iterate(
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
            self.iteration_depth = depth as i32;
            let last = best.as_ref().map(|b| b.best().value);
            let (value, unproven_before) = self.root(shared, &mut position, depth, last);
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            if self.stopped {
                // A partial iteration changes the root move only for one proved better, and
                // not at all when several lines are shown: they stay of one depth.
                if let (Some(best), Some(&first)) = (best.as_mut(), pv.first())
                    && first != best.best().pv[0]
                    && best.lines.len() == 1
                {
                    best.lines[0] = Variation {
                        value: self.root_value,
                        proven: false,
                        pv,
                    };
                }
                break;
            }
            let proven = self.unproven == unproven_before;
            let pv = if proven {
                self.complete_line(shared, root, value, pv)
            } else {
                pv
            };
            let first = Variation { value, proven, pv };
            let lines = if self.main && shared.lines > 1 {
                match self.more_lines(shared, root, depth, first) {
                    Some(lines) => lines,
                    // Stopped among the other lines: the last iteration stands whole, so that
                    // its lines are all of one depth.
                    None => break,
                }
            } else {
                vec![first]
            };
            let iteration = Iteration { depth, lines };
            let all_proven = iteration.lines.iter().all(|line| line.proven);
            on_iteration(&iteration, self);
            if let Some(plan) = plan {
                let (now, before) = (iteration.best(), best.as_ref().map(Iteration::best));
                let changed = before.is_some_and(|b| b.pv[0] != now.pv[0]);
                let dropped = before.is_some_and(|b| now.value < b.value - TimePlan::DROP);
                held = if changed { 0 } else { held + 1 };
                factor = plan.factor(changed || dropped, held);
                self.deadline = Some(plan.stop_at(factor));
            }
            best = Some(iteration);
            if all_proven || plan.is_some_and(|plan| Instant::now() >= plan.last_start(factor)) {
                break;
            }
            depth = (depth + 1).max(shared.main_depth.load(Ordering::Relaxed) + ahead);
        }
        best
    }
}

/// One finished iteration of the deepening.
pub(super) struct Iteration {
    depth: u32,
    /// Its lines, best first, the first the one played: several only with multi-PV.
    lines: Vec<Variation>,
}

impl Iteration {
    /// The line played.
    fn best(&self) -> &Variation {
        &self.lines[0]
    }
}

/// The outcome of a search that found `iteration` (none: the first legal move), with its
/// lines when `several` were asked for.
pub(super) fn outcome(
    position: &Position,
    iteration: Option<&Iteration>,
    several: bool,
    searcher: &Searcher,
    start: Instant,
) -> SearchResult {
    let (
        depth,
        Variation {
            value,
            proven,
            mut pv,
        },
    ) = iteration.map_or_else(
        || {
            (
                0,
                Variation {
                    value: 0,
                    proven: false,
                    pv: Vec::new(),
                },
            )
        },
        |it| (it.depth, it.best().clone()),
    );
    let lines = iteration
        .filter(|_| several)
        .map_or_else(Vec::new, |it| it.lines.clone());
    if pv.is_empty() {
        pv.push(position.moves()[0]);
    }
    SearchResult {
        mv: pv[0],
        value,
        depth,
        seldepth: searcher.seldepth as u32,
        proven,
        nodes: searcher.nodes,
        tt_hits: searcher.tt_hits,
        pv,
        lines,
        time: start.elapsed(),
    }
}

//! Monte Carlo tree search with UCT (book chapter 5).
//!
//! Each iteration walks down the tree choosing the child with the best upper confidence bound
//! `q + c·sqrt(ln N / n)` (`q` the child's average result for the side that played it, an
//! unvisited child first), expands the leaf it reaches if it has been visited before, plays one
//! random game from there, and adds the result — win 1, draw ½, loss 0, each node for the side
//! that moved into it — along the path. The move played is the root child with most visits.
//!
//! Iterations run in batches of [`BATCH`]: each walk counts its visits on the way down (a
//! "virtual loss" until its result comes, so the next walks of the batch spread out), then the
//! batch's random games are played together — eight to an AVX-512 register where the CPU has
//! it, else four interleaved — and their results added along their paths.
//!
//! The tree lives in one preallocated arena and is kept between moves: the next search starts
//! from the node of the position reached (our move and the opponent's reply), so its visits are
//! not lost. With several threads each searches its own tree (root parallelism) and the root
//! visits are summed; an iteration limit is split between the threads, so a seed gives the same
//! moves every time.

use crate::limits::{Budget, Limits};
use crate::options::{ITERATIONS, OptionInfo, PACE, SEED, THREADS, TIME, ValueKind};
use crate::player::{Forfeit, Player, PlayerInfo, Report, no_conflicts};
use crate::search::parallel::Threads;
use crossbeam_utils::CachePadded;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use yolah_core::random_games::playouts;
use yolah_core::{Color, MAX_MOVES, Move, Outcome, Position};

/// The exploration constant of a spec that sets none. Tuned by matches at 20 ms per move (see
/// the README): 0.5 beat 0.25, 0.7, 1.0, 1.4 (by +162 Elo) and 2.0; results here are 0 to 1,
/// so the textbook √2 explores far too much.
pub const DEFAULT_C: f64 = 0.5;

/// The default tree size per thread in MiB: 4 Mi nodes of 24 bytes, reserved as address
/// space and touched only as the tree grows. A full tree stops growing; its leaves still get
/// playouts.
pub const DEFAULT_TREE_MB: usize = 96;

/// Iterations whose random games are played together (see the module's notes). Measured with
/// `yolah think mcts:iterations=300000` (notebook): larger batches play their games faster but
/// walk the tree with more results missing.
pub const BATCH: usize = 16;

/// Principal variation length shown in reports.
const PV_LENGTH: usize = 6;

/// One node: the move that leads to it and what followed.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child; the children are contiguous.
    first_child: u32,
    /// Times an iteration passed through this node.
    visits: u32,
    /// Half points won, over those visits, by the side that played `mv`.
    half_points: u32,
    /// `half_points / (2 visits)` and `1 / sqrt(visits)`, kept up to date by the backup so that
    /// selection, which scans every child at every level, needs no division or square root
    /// per child (see the README's benchmark).
    mean: f32,
    inv_sqrt_visits: f32,
    /// The move from the parent.
    mv: Move,
    /// Number of children, once expanded.
    children: u8,
    /// Whether the children exist.
    expanded: bool,
}

impl Node {
    fn leaf(mv: Move) -> Node {
        Node {
            first_child: 0,
            visits: 0,
            half_points: 0,
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            mv,
            children: 0,
            expanded: false,
        }
    }

    /// Brings `mean` and `inv_sqrt_visits` up to date.
    fn refresh(&mut self) {
        self.mean = self.half_points as f32 / (2 * self.visits) as f32;
        self.inv_sqrt_visits = (self.visits as f32).sqrt().recip();
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.children as usize
    }
}

/// One searcher's tree and random numbers.
struct Tree {
    nodes: Vec<Node>,
    root: usize,
    /// The position at the root; `None` before the first search.
    root_position: Option<Position>,
    rng: SmallRng,
    /// The paths of a batch's walks, one after the other: each node with the side that
    /// moved into it.
    path: Vec<(usize, Color)>,
    /// Where each walk of the batch that needs a random game ends in `path`, and the
    /// position it reached.
    pending: Vec<(usize, Position)>,
    /// The outcome of each pending walk's random game.
    outcomes: Vec<Outcome>,
    /// The most nodes it may hold.
    capacity: usize,
}

impl Tree {
    fn new(seed: u64, capacity: usize) -> Tree {
        Tree {
            capacity,
            nodes: Vec::new(),
            root: 0,
            root_position: None,
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(128 * BATCH),
            pending: Vec::with_capacity(BATCH),
            outcomes: Vec::with_capacity(BATCH),
        }
    }

    /// Makes `position` the root: the node already standing for it (the root, a child or a
    /// grandchild) if there is one, else a new tree. Returns the visits kept.
    fn set_root(&mut self, position: &Position) -> u32 {
        if self.nodes.capacity() < self.capacity {
            self.nodes.reserve_exact(self.capacity);
        }
        let found = self
            .root_position
            .filter(|_| self.nodes.len() <= self.capacity / 2)
            .and_then(|root_position| self.find(root_position, position));
        self.root_position = Some(*position);
        if let Some(node) = found {
            self.root = node;
            return self.nodes[node].visits;
        }
        self.nodes.clear();
        self.nodes.push(Node::leaf(Move::PASS));
        self.root = 0;
        0
    }

    /// The node for `target` among the root (at `from`), its children and grandchildren.
    fn find(&self, from: Position, target: &Position) -> Option<usize> {
        let plies = target.ply().checked_sub(from.ply())?;
        if plies == 0 {
            return (from == *target).then_some(self.root);
        }
        if plies > 2 {
            return None;
        }
        for child in self.nodes[self.root].children() {
            let mut position = from;
            position.play(self.nodes[child].mv);
            if plies == 1 && position == *target {
                return Some(child);
            }
            if plies == 2 {
                for grandchild in self.nodes[child].children() {
                    let mut next = position;
                    next.play(self.nodes[grandchild].mv);
                    if next == *target {
                        return Some(grandchild);
                    }
                }
            }
        }
        None
    }

    /// The child of `parent` with the best upper confidence bound; an unvisited one first.
    fn select(&self, parent: &Node, c: f64) -> usize {
        // c·sqrt(ln N / n) = (c·sqrt(ln N)) · (1 / sqrt(n)): one square root per level.
        let explore = (c * f64::from(parent.visits.max(1)).ln().sqrt()) as f32;
        let mut best = parent.first_child as usize;
        let mut best_bound = f32::NEG_INFINITY;
        for i in parent.children() {
            let child = &self.nodes[i];
            if child.visits == 0 {
                return i;
            }
            let bound = child.mean + explore * child.inv_sqrt_visits;
            if bound > best_bound {
                best = i;
                best_bound = bound;
            }
        }
        best
    }

    /// Creates the children of `node` at `position`, in random order.
    fn expand(&mut self, node: usize, position: &Position) {
        let mut moves = position.moves();
        moves.as_mut_slice().shuffle(&mut self.rng);
        let first = self.nodes.len();
        self.nodes.extend(moves.iter().map(|&m| Node::leaf(m)));
        let parent = &mut self.nodes[node];
        parent.first_child = first as u32;
        parent.children = moves.len() as u8;
        parent.expanded = true;
    }

    /// `count` iterations from the root at `root_position`, their random games played
    /// together.
    fn iterate(&mut self, root_position: &Position, c: f64, count: usize) {
        self.path.clear();
        self.pending.clear();
        for _ in 0..count {
            self.walk(root_position, c);
        }
        self.outcomes.clear();
        self.outcomes.resize(self.pending.len(), Outcome::Draw);
        let (pending, outcomes) = (&self.pending, &mut self.outcomes);
        let mut given = pending.iter().enumerate();
        let mut next = || given.next().map(|(i, &(_, position))| (i, position));
        let mut done = |i: usize, outcome: Outcome| outcomes[i] = outcome;
        playouts(&mut self.rng, &mut next, &mut done);
        let mut start = 0;
        for i in 0..self.pending.len() {
            let end = self.pending[i].0;
            self.back_up(start..end, self.outcomes[i]);
            start = end;
        }
    }

    /// One walk down from the root: its path is added to `path` with a visit counted at each
    /// node; a walk that ends the game adds its result at once, any other waits in `pending`.
    fn walk(&mut self, root_position: &Position, c: f64) {
        let start = self.path.len();
        let mut position = *root_position;
        let mut node = self.root;
        self.path
            .push((node, root_position.side_to_move().opponent()));
        while self.nodes[node].expanded {
            let child = self.select(&self.nodes[node], c);
            self.path.push((child, position.side_to_move()));
            position.play(self.nodes[child].mv);
            node = child;
        }
        let outcome = position.outcome();
        if outcome.is_none() {
            // A leaf is expanded on its second visit (the root at once): most leaves are
            // reached once, and one node is cheaper than a hundred.
            let grow = node == self.root || self.nodes[node].visits > 0;
            if grow && self.nodes.len() + MAX_MOVES <= self.capacity {
                self.expand(node, &position);
                let child = self.nodes[node].first_child as usize;
                self.path.push((child, position.side_to_move()));
                position.play(self.nodes[child].mv);
            }
        }
        for &(i, _) in &self.path[start..] {
            let node = &mut self.nodes[i];
            node.visits += 1;
            node.refresh();
        }
        match outcome {
            Some(outcome) => self.back_up(start..self.path.len(), outcome),
            None => self.pending.push((self.path.len(), position)),
        }
    }

    /// Adds `outcome` along the walk `path[walk]`, whose visits are counted already.
    fn back_up(&mut self, walk: std::ops::Range<usize>, outcome: Outcome) {
        for &(i, mover) in &self.path[walk] {
            let node = &mut self.nodes[i];
            node.half_points += outcome.half_points(mover);
            node.refresh();
        }
    }

    /// (move, visits, half points) of each root child.
    fn root_children(&self) -> Vec<(Move, u32, u32)> {
        self.nodes[self.root]
            .children()
            .map(|i| {
                (
                    self.nodes[i].mv,
                    self.nodes[i].visits,
                    self.nodes[i].half_points,
                )
            })
            .collect()
    }

    /// The line that starts with `first` from the root and then follows the most visited
    /// children (with several trees the move chosen may not be this tree's favourite).
    fn principal_variation(&self, first: Move) -> Vec<Move> {
        let mut line = vec![first];
        let Some(start) = self.nodes[self.root]
            .children()
            .find(|&i| self.nodes[i].mv == first)
        else {
            return line;
        };
        let mut node = &self.nodes[start];
        while line.len() < PV_LENGTH && node.expanded {
            let Some(best) = node.children().max_by_key(|&i| self.nodes[i].visits) else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            node = &self.nodes[best];
            line.push(node.mv);
        }
        line
    }
}

/// The MCTS player.
pub struct Mcts {
    c: f64,
    /// One tree per thread, each on its own cache lines (no false sharing of the generators).
    trees: Threads<CachePadded<Tree>>,
}

impl Mcts {
    /// A player with exploration constant `c`, searching on `threads` threads, drawing from
    /// `seed`, with trees of [`DEFAULT_TREE_MB`].
    pub fn new(c: f64, threads: usize, seed: u64) -> Mcts {
        Mcts::with_tree_size(c, threads, seed, DEFAULT_TREE_MB)
    }

    /// The same with trees of at most `tree_mb` MiB each (one per thread).
    pub fn with_tree_size(c: f64, threads: usize, seed: u64, tree_mb: usize) -> Mcts {
        let capacity = (tree_mb << 20) / std::mem::size_of::<Node>();
        // Room for the root's children at least.
        let capacity = capacity.max(2 * MAX_MOVES);
        let trees = Threads::new((0..threads.max(1) as u64).map(|t| {
            let seed = seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            CachePadded::new(Tree::new(seed, capacity))
        }));
        Mcts { c, trees }
    }
}

/// What one thread's search left.
struct Search {
    nodes: usize,
    reused: u32,
    iterations: u64,
    children: Vec<(Move, u32, u32)>,
}

/// How often a search tells what it has found so far (its first thread's tree).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Grows `tree` from `position` until `budget` is spent, calling `tell` with it every
/// [`PROGRESS_EVERY`] or so.
fn grow(
    tree: &mut Tree,
    position: &Position,
    c: f64,
    budget: Budget,
    mut tell: impl FnMut(&Tree),
) -> Search {
    let reused = tree.set_root(position);
    let mut iterations = 0;
    let mut told = budget.started();
    // The visit counters are 32-bit: stop well before they could overflow.
    while !budget.exhausted(iterations) && tree.nodes[tree.root].visits < u32::MAX / 4 {
        let count = budget.iterations_left(iterations).min(BATCH as u64);
        tree.iterate(position, c, count as usize);
        iterations += count;
        if iterations.is_multiple_of(1024) && told.elapsed() >= PROGRESS_EVERY {
            told = std::time::Instant::now();
            tell(tree);
        }
    }
    Search {
        reused,
        iterations,
        children: tree.root_children(),
        nodes: tree.nodes.len(),
    }
}

/// What the first thread's tree says so far: its most visited move, that move's expected
/// score and principal variation, the tree's root visits as iterations.
fn progress_report(tree: &Tree, elapsed: std::time::Duration) -> Option<Report> {
    let (mv, visits, half_points) = tree
        .root_children()
        .into_iter()
        .max_by_key(|&(_, visits, half_points)| (visits, half_points))?;
    Some(Report {
        value: (visits > 0).then(|| f64::from(half_points) / (2.0 * f64::from(visits))),
        iterations: u64::from(tree.nodes[tree.root].visits),
        pv: tree.principal_variation(mv),
        ..Report::new(mv, elapsed)
    })
}

impl Player for Mcts {
    /// Tells `progress`, every quarter of a second, what the first thread's tree says.
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        let budget = Budget::start(limits);
        let moves = position.moves();
        if moves.len() == 1 {
            // Nothing to decide; the trees still follow the game so they can be reused.
            self.trees.for_each(|tree| {
                tree.set_root(position);
            });
            return Ok(Report::only_move(moves[0], budget.elapsed()));
        }
        let threads = self.trees.len();
        let c = self.c;
        let position = *position;
        let search = move |t: usize, tree: &mut CachePadded<Tree>| {
            grow(tree, &position, c, budget.split(t, threads), |_| {})
        };
        let main = |tree: &mut CachePadded<Tree>| {
            grow(tree, &position, c, budget.split(0, threads), |tree| {
                if let Some(report) = progress_report(tree, budget.elapsed()) {
                    progress(&report);
                }
            })
        };
        let (first, helpers) = self.trees.run(main, search, budget.answer_by());
        // A helper that did not answer by the time limit has no say in this move.
        let searches: Vec<Search> = std::iter::once(first)
            .chain(helpers.into_iter().flatten())
            .collect();
        let mut totals: Vec<(Move, u64, u64)> = moves.iter().map(|&m| (m, 0, 0)).collect();
        for search in &searches {
            for &(mv, visits, half_points) in &search.children {
                let total = totals
                    .iter_mut()
                    .find(|(m, _, _)| *m == mv)
                    .expect("root children are the legal moves");
                total.1 += u64::from(visits);
                total.2 += u64::from(half_points);
            }
        }
        // Most visits; on ties the better result, then the first in move order.
        let best = totals
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| a.1.cmp(&b.1).then(a.2.cmp(&b.2)).then(j.cmp(i)))
            .map(|(_, total)| *total)
            .expect("a position has at least one move");
        let (mv, visits, half_points) = best;
        let pv = self.trees.first().principal_variation(mv);
        let pv_text: Vec<String> = pv.iter().map(ToString::to_string).collect();
        let nodes: usize = searches.iter().map(|s| s.nodes).sum();
        let reused: u64 = searches.iter().map(|s| u64::from(s.reused)).sum();
        Ok(Report {
            value: (visits > 0).then(|| half_points as f64 / (2.0 * visits as f64)),
            iterations: searches.iter().map(|s| s.iterations).sum(),
            detail: format!(
                "pv {}; {visits} visits for the move, {nodes} nodes, {reused} visits reused",
                pv_text.join(" ")
            ),
            pv,
            ..Report::new(mv, budget.elapsed())
        })
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "mcts",
    about: "Monte Carlo tree search with UCT, the tree kept between moves (ch. 5)",
    options: &[
        TIME,
        PACE,
        ITERATIONS,
        OptionInfo {
            name: "c",
            kind: ValueKind::Real,
            default: "0.5",
            help: "UCT exploration constant",
        },
        OptionInfo {
            name: "tree",
            kind: ValueKind::Megabytes,
            default: "96",
            help: "tree size per thread in MiB (address space, touched as the tree grows)",
        },
        THREADS,
        SEED,
    ],
    seeded: true,
    build: |options, seed| {
        let c = options.real("c").unwrap_or(DEFAULT_C);
        let tree = options
            .whole("tree")
            .map_or(DEFAULT_TREE_MB, |n| n as usize);
        Box::new(Mcts::with_tree_size(c, options.threads(), seed, tree))
    },
    check: no_conflicts,
    memory_mb: |options| {
        let tree = options.whole("tree").unwrap_or(DEFAULT_TREE_MB as u64);
        tree * options.threads() as u64
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every result of a batch reaches every node of its walk: at each expanded node the
    /// visits are its children's (plus its own first visit as a leaf, except at the root),
    /// and its half points are what its children's movers lost (plus that first visit's).
    #[test]
    fn batched_walks_add_up() {
        let middle = "x1xx2xx/8/1b2wx1b/3xxx2/1w1xxw1x/2b5/2xw4/xx2b2x b 8 8 16";
        let iterations = 20_000u64;
        for position in [Position::start(), middle.parse().expect("a valid position")] {
            let mut tree = Tree::new(7, 1 << 20);
            let limits = Limits {
                iterations: Some(iterations),
                ..Limits::default()
            };
            let search = grow(&mut tree, &position, 0.5, Budget::start(limits), |_| {});
            assert_eq!(search.iterations, iterations);
            let root = &tree.nodes[tree.root];
            assert_eq!(u64::from(root.visits), iterations);
            let mut expanded = 0;
            for (i, node) in tree.nodes.iter().enumerate() {
                assert!(node.half_points <= 2 * node.visits);
                if !node.expanded {
                    continue;
                }
                expanded += 1;
                let visits: u32 = node.children().map(|c| tree.nodes[c].visits).sum();
                let lost: u32 = node
                    .children()
                    .map(|c| 2 * tree.nodes[c].visits - tree.nodes[c].half_points)
                    .sum();
                if i == tree.root {
                    assert_eq!(node.visits, visits);
                    assert_eq!(node.half_points, lost);
                } else {
                    assert_eq!(node.visits, visits + 1, "node {i}");
                    assert!((lost..=lost + 2).contains(&node.half_points), "node {i}");
                }
            }
            assert!(expanded > 100, "{expanded} nodes expanded");
        }
    }
}

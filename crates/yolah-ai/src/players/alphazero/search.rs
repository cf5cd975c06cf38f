//! PUCT search (`AlphaZero`'s): each visit walks down the tree choosing the child with the best
//! `Q + c·P·√N / (1 + n)` (`Q` the child's mean value for the side that moved into it, `P` its
//! prior from the network, `N` and `n` the parent's and the child's visits), and the leaf it
//! reaches is valued by the network, which also gives its children's priors; a finished game
//! is valued by its result. Values are −1 (loss) to +1 (win).
//!
//! Visits are made in batches of up to [`Settings::batch`] leaves evaluated together (one call
//! of the [`Evaluator`], so a network in Python or on a GPU is called once a batch): each walk
//! counts its visits and a loss on the way down (a "virtual loss" until its value comes), so
//! the next walks of the batch spread out.
//!
//! With [`Settings::gumbel`] the root is Gumbel `AlphaZero`'s (Danihelka et al., "Policy
//! improvement by planning with Gumbel", ICLR 2022), for self-play with few visits: `m` moves
//! are drawn without replacement by Gumbel noise on the priors' logits, Sequential Halving
//! shares the visits among them (each round a fair share each, then the better half by
//! `g + logit + σ(q)` goes on), the last one standing is the move, and the policy target is
//! `softmax(logit + σ(completed q))`, which improves on the priors even with a handful of
//! visits (see [`Gumbel`]). Below the root the walks choose by PUCT as without it.

use super::network::{Activations, Evaluation, Parameters};
use super::quantized::{Quantized, Scratch};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;
use yolah_core::playout::Playout;
use yolah_core::{Color, MAX_MOVES, Move, MoveList, Position};

/// The tree's default size, MiB.
pub const DEFAULT_TREE_MB: usize = 256;

/// Values positions for the search: a prior per legal move (in `position.moves()` order) and
/// the value for the side to move.
pub trait Evaluator {
    /// Evaluates `positions` (none is over), whose legal moves are `moves`, into `out`, one
    /// each, in order.
    fn evaluate(&mut self, positions: &[Position], moves: &[MoveList], out: &mut Vec<Evaluation>);
}

/// The network in this process, its values mixed, if told, with random playouts' results
/// (as `AlphaGo` mixed its value network with fast rollouts).
pub struct NetworkEvaluator {
    network: Network,
    /// The playouts' weight in a leaf's value, 0 to 1 (0: the network alone).
    rollout: f32,
    rng: SmallRng,
}

/// The network an evaluator runs, with its forward pass's scratch space.
enum Network {
    /// In floats.
    Floats(Arc<Parameters>, Activations),
    /// In bytes, shared by the player's threads.
    Bytes(Arc<Quantized>, Scratch),
}

impl NetworkEvaluator {
    /// Evaluates with `parameters`.
    pub fn new(parameters: Arc<Parameters>) -> NetworkEvaluator {
        NetworkEvaluator {
            network: Network::Floats(parameters, Activations::default()),
            rollout: 0.0,
            rng: SmallRng::seed_from_u64(0),
        }
    }

    /// From now on, the same network in bytes (`quantized`, made from the one it runs).
    pub fn set_quantized(&mut self, quantized: Arc<Quantized>) {
        if let Network::Floats(parameters, _) = &self.network {
            assert!(
                Arc::ptr_eq(quantized.parameters(), parameters),
                "the network in bytes is this evaluator's"
            );
        }
        self.network = Network::Bytes(quantized, Scratch::default());
    }

    /// From now on, each value `(1 − weight)·network + weight·(a random playout's result)`,
    /// the playouts drawn from `seed`.
    pub fn set_rollouts(&mut self, weight: f32, seed: u64) {
        self.rollout = weight.clamp(0.0, 1.0);
        self.rng = SmallRng::seed_from_u64(seed);
    }
}

impl Evaluator for NetworkEvaluator {
    fn evaluate(&mut self, positions: &[Position], moves: &[MoveList], out: &mut Vec<Evaluation>) {
        out.clear();
        for (position, moves) in positions.iter().zip(moves) {
            let mut evaluation = match &mut self.network {
                Network::Floats(parameters, act) => {
                    parameters.forward(position, moves.as_slice(), act)
                }
                Network::Bytes(quantized, scratch) => {
                    quantized.forward(position, moves.as_slice(), scratch)
                }
            };
            if self.rollout > 0.0 {
                let outcome = Playout::new(position).run(&mut self.rng);
                let result = result_for(outcome, position.side_to_move());
                evaluation.value = (1.0 - self.rollout) * evaluation.value + self.rollout * result;
            }
            out.push(evaluation);
        }
    }
}

/// One node: the move that leads to it and what the search found below.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_child: u32,
    children: u8,
    expanded: bool,
    /// Waiting for its evaluation in the current batch.
    pending: bool,
    visits: u32,
    /// The sum of the values of its visits, for the side that moved into it: f64, so that
    /// adding ±1 still counts past 2^24 visits (an f32 sum stops changing there).
    value: f64,
    /// The network's value of this node for its side to move (once expanded).
    eval: f32,
    prior: f32,
    mv: Move,
}

impl Node {
    fn leaf(mv: Move, prior: f32) -> Node {
        Node {
            first_child: 0,
            children: 0,
            expanded: false,
            pending: false,
            visits: 0,
            value: 0.0,
            eval: 0.0,
            prior,
            mv,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.children)
    }
}

/// How the search explores.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The exploration constant `c`.
    pub c: f32,
    /// Leaves evaluated together.
    pub batch: usize,
    /// The weight of Dirichlet noise mixed into the root's priors (0: none).
    pub noise: f32,
    /// The Dirichlet distribution's α.
    pub alpha: f32,
    /// How much less than its parent an unvisited child is worth.
    pub first_play_reduction: f32,
    /// The most nodes the tree may hold: a search stops when it is full.
    pub max_nodes: usize,
    /// Whether a search keeps the subtree of the position it is given from the search before
    /// (our move and the reply since), its visits kept.
    pub reuse: bool,
    /// Gumbel `AlphaZero`'s root instead of PUCT's, where a search has a visit limit (none:
    /// PUCT). The Dirichlet noise is not mixed in then: the Gumbel draws explore.
    pub gumbel: Option<Gumbel>,
}

/// Gumbel `AlphaZero`'s root: how many moves it considers and its `σ`, the transform of a
/// value that is added to a logit, `σ(q) = (c_visit + max_b N(b)) · c_scale · q̂` with `q̂` the
/// completed values rescaled to 0..1 over the root's moves (the constants of `mctx`, the
/// authors' library).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gumbel {
    /// Moves drawn at the root, `m` (2 to [`MAX_MOVES`]; fewer where fewer are legal).
    pub considered: usize,
    /// `σ`'s `c_visit`.
    pub c_visit: f32,
    /// `σ`'s `c_scale`.
    pub c_scale: f32,
}

impl Gumbel {
    /// Considering `considered` moves, with `mctx`'s constants (50 and 0.1).
    pub fn considering(considered: usize) -> Gumbel {
        Gumbel {
            considered: considered.clamp(2, MAX_MOVES),
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

/// The memory of a node, bytes.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            c: 1.5,
            batch: 8,
            noise: 0.0,
            alpha: 0.3,
            first_play_reduction: 0.2,
            max_nodes: (DEFAULT_TREE_MB << 20) / NODE_BYTES,
            reuse: false,
            gumbel: None,
        }
    }
}

/// What a search found at the root: each legal move with its visits and mean value for the
/// side to move.
#[derive(Clone, Debug)]
pub struct RootResult {
    /// `(move, visits, mean value)` in `position.moves()` order.
    pub children: Vec<(Move, u32, f32)>,
    /// The root's visits, those kept from the search before included.
    pub visits: u32,
    /// Of those, the visits kept from the search before.
    pub reused: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// With a Gumbel root: its improved policy (`softmax(logit + σ(completed q))`, in
    /// `children`'s order) and the move Sequential Halving chose.
    pub improved: Option<(Vec<f32>, Move)>,
}

impl RootResult {
    /// The root's value for the side to move: its children's values weighted by their
    /// visits (0 before any visit).
    pub fn value(&self) -> f32 {
        let visits: u32 = self.children.iter().map(|c| c.1).sum();
        if visits == 0 {
            return 0.0;
        }
        let total: f32 = self.children.iter().map(|c| c.1 as f32 * c.2).sum();
        total / visits as f32
    }

    /// The most visited move (ties: the better value, then the first).
    pub fn best(&self) -> (Move, u32, f32) {
        let mut best = self.children[0];
        for &child in &self.children[1..] {
            if (child.1, child.2) > (best.1, best.2) {
                best = child;
            }
        }
        best
    }
}

/// A PUCT search tree, reused from search to search (cleared each time).
pub struct Search {
    nodes: Vec<Node>,
    settings: Settings,
    /// The paths of a batch's walks, one after the other: each node with the side that
    /// moved into it.
    path: Vec<(usize, Color)>,
    /// Each pending walk's end in `path`, its leaf and position.
    pending: Vec<(usize, usize, Position)>,
    positions: Vec<Position>,
    /// The legal moves of each position of the batch, found once for the evaluator and the
    /// expansion.
    moves: Vec<MoveList>,
    evaluations: Vec<Evaluation>,
    /// The position of the last search's root, while its tree is kept.
    last_root: Option<Position>,
    /// Visits kept from the last search by the one running.
    reused: u32,
}

/// The value of `outcome` for `color`: +1 a win, 0 a draw, −1 a loss.
fn result_for(outcome: yolah_core::Outcome, color: Color) -> f32 {
    outcome.half_points(color) as f32 - 1.0
}

impl Search {
    /// A search with these settings.
    pub fn new(settings: Settings) -> Search {
        Search {
            nodes: Vec::new(),
            settings,
            path: Vec::new(),
            pending: Vec::new(),
            positions: Vec::new(),
            moves: Vec::new(),
            evaluations: Vec::new(),
            last_root: None,
            reused: 0,
        }
    }

    /// The visits the last search kept from the one before.
    pub fn reused(&self) -> u32 {
        self.reused
    }

    /// The node standing for `target` among the kept tree's root, its children and its
    /// grandchildren, if it has been expanded.
    fn find(&self, target: &Position) -> Option<usize> {
        let from = self.last_root?;
        let plies = target.ply().checked_sub(from.ply())?;
        if plies == 0 {
            return (from == *target).then_some(0);
        }
        if plies > 2 {
            return None;
        }
        for child in self.nodes[0].children() {
            let mut position = from;
            position.play(self.nodes[child].mv);
            if plies == 1 && position == *target {
                return self.nodes[child].expanded.then_some(child);
            }
            if plies == 2 {
                for grandchild in self.nodes[child].children() {
                    let mut next = position;
                    next.play(self.nodes[grandchild].mv);
                    if next == *target {
                        return self.nodes[grandchild].expanded.then_some(grandchild);
                    }
                }
            }
        }
        None
    }

    /// Makes the subtree under `node` the whole tree, its root at 0 (copied breadth first).
    fn keep_subtree(&mut self, node: usize) {
        let mut kept = Vec::with_capacity(self.nodes[node].visits as usize * 4 + 64);
        kept.push(self.nodes[node]);
        let mut next = 0;
        while next < kept.len() {
            let old: Node = kept[next];
            if old.expanded {
                let first = kept.len();
                kept.extend(old.children().map(|c| self.nodes[c]));
                kept[next].first_child = first as u32;
            }
            next += 1;
        }
        // A root's visits are its children's (a node below also counts its own evaluation).
        kept[0].visits = kept[0].children().map(|c| kept[c].visits).sum();
        self.nodes = kept;
    }

    /// Its settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Searches `position` (not over) until `visits` visits are made or `stop` says so
    /// (asked between batches), evaluating with `evaluator`; `rng` draws the root's noise.
    pub fn run(
        &mut self,
        position: &Position,
        evaluator: &mut dyn Evaluator,
        rng: &mut SmallRng,
        visits: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> RootResult {
        let kept = if self.settings.reuse {
            self.find(position)
        } else {
            None
        };
        if let Some(node) = kept {
            self.keep_subtree(node);
        } else {
            self.nodes.clear();
            self.nodes.push(Node::leaf(Move::PASS, 1.0));
            self.positions.clear();
            self.positions.push(*position);
            self.moves.clear();
            self.moves.push(position.moves());
            evaluator.evaluate(&self.positions, &self.moves, &mut self.evaluations);
            let root_eval = std::mem::take(&mut self.evaluations[0]);
            self.expand(0, 0, &root_eval);
        }
        self.last_root = Some(*position);
        self.reused = self.nodes[0].visits;
        // Gumbel's root needs a visit limit to share out.
        let gumbel = self
            .settings
            .gumbel
            .filter(|_| visits < u64::from(u32::MAX / 8));
        if self.settings.noise > 0.0 && gumbel.is_none() {
            self.add_noise(rng);
        }
        // The limit counts this search's visits, not those kept; with no limit (a search by
        // time gives u64::MAX) the sum saturates, where a wrapping one would end the search
        // before its first visit.
        let visits = u64::from(self.reused)
            .saturating_add(visits)
            .min(u64::from(u32::MAX / 4)) as u32;
        let improved = if let Some(gumbel) = gumbel {
            Some(self.gumbel_root(position, evaluator, rng, visits, stop, gumbel))
        } else {
            while self.nodes[0].visits < visits && self.has_room() && !stop() {
                let left = (visits - self.nodes[0].visits) as usize;
                let count = left.min(self.settings.batch.max(1));
                self.visit_batch(position, evaluator, count, None);
            }
            None
        };
        let top = self.nodes[0];
        RootResult {
            children: top
                .children()
                .map(|i| {
                    let child = &self.nodes[i];
                    let mean = if child.visits == 0 {
                        top.eval
                    } else {
                        (child.value / f64::from(child.visits)) as f32
                    };
                    (child.mv, child.visits, mean)
                })
                .collect(),
            visits: top.visits,
            reused: self.reused,
            nodes: self.nodes.len(),
            improved,
        }
    }

    /// Whether the tree has room for another batch.
    fn has_room(&self) -> bool {
        let room = self
            .settings
            .max_nodes
            .saturating_sub(self.settings.batch * MAX_MOVES);
        self.nodes.len() < room
    }

    /// Gumbel `AlphaZero`'s root, up to `visits` visits at the root: the moves considered
    /// and Sequential Halving among them. Returns the improved policy and the move chosen.
    fn gumbel_root(
        &mut self,
        position: &Position,
        evaluator: &mut dyn Evaluator,
        rng: &mut SmallRng,
        visits: u32,
        stop: &mut dyn FnMut() -> bool,
        gumbel: Gumbel,
    ) -> (Vec<f32>, Move) {
        let children: Vec<usize> = self.nodes[0].children().collect();
        let logits: Vec<f32> = children
            .iter()
            .map(|&i| self.nodes[i].prior.max(1e-12).ln())
            .collect();
        // Gumbel(0, 1) draws: −ln(−ln U).
        let noise: Vec<f32> = children
            .iter()
            .map(|_| {
                let u = rng
                    .random::<f32>()
                    .clamp(f32::MIN_POSITIVE, 1.0 - f32::EPSILON);
                -(-u.ln()).ln()
            })
            .collect();
        // The considered moves: the top m by g + logit (indices into `children`).
        let mut left: Vec<usize> = (0..children.len()).collect();
        left.sort_by(|&a, &b| (noise[b] + logits[b]).total_cmp(&(noise[a] + logits[a])));
        left.truncate(gumbel.considered.min(children.len()));
        let rounds = left.len().next_power_of_two().trailing_zeros().max(1);
        let budget = visits.saturating_sub(self.nodes[0].visits);
        let mut forced = Vec::new();
        let mut stopped = false;
        for round in 0..rounds {
            // A fair share each; the last round takes what the others left.
            let each = if round + 1 == rounds {
                (visits.saturating_sub(self.nodes[0].visits) as usize).div_ceil(left.len())
            } else {
                (budget / (rounds * left.len() as u32)).max(1) as usize
            };
            forced.clear();
            for _ in 0..each {
                forced.extend(left.iter().map(|&k| children[k]));
            }
            let mut done = 0;
            while done < forced.len() && self.nodes[0].visits < visits {
                if !self.has_room() || stop() {
                    stopped = true;
                    break;
                }
                let count = (forced.len() - done)
                    .min(self.settings.batch.max(1))
                    .min((visits - self.nodes[0].visits) as usize);
                done += self.visit_batch(position, evaluator, count, Some(&forced[done..]));
            }
            if stopped || left.len() == 1 {
                break;
            }
            let sigma = self.sigma(&children, &logits, gumbel);
            let score = |k: usize| noise[k] + logits[k] + sigma[k];
            left.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
            if round + 1 < rounds {
                left.truncate((left.len() / 2).max(2));
            }
        }
        let sigma = self.sigma(&children, &logits, gumbel);
        // Among the moves left, only the most visited may be chosen (as `mctx` does): with
        // fewer visits than moves, or a search stopped in a round, some were not visited.
        let visits_of = |k: usize| self.nodes[children[k]].visits;
        let most = left.iter().map(|&k| visits_of(k)).max().unwrap_or(0);
        let chosen = *left
            .iter()
            .filter(|&&k| visits_of(k) == most)
            .max_by(|&&a, &&b| {
                (noise[a] + logits[a] + sigma[a]).total_cmp(&(noise[b] + logits[b] + sigma[b]))
            })
            .expect("a move is considered");
        let raised: Vec<f32> = logits.iter().zip(&sigma).map(|(l, s)| l + s).collect();
        let top = raised.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = raised.iter().map(|r| (r - top).exp()).collect();
        let total: f32 = weights.iter().sum();
        let policy = weights.iter().map(|w| w / total).collect();
        (policy, self.nodes[children[chosen]].mv)
    }

    /// `σ(completed q)` of each of the root's `children`: a visited move's mean value, an
    /// unvisited one's the mixed value (the network's value of the root and the visited
    /// moves' values weighted by their priors, `mctx`'s `qtransform_completed_by_mix_value`),
    /// rescaled to 0..1 over the moves, times `(c_visit + max N) · c_scale`.
    fn sigma(&self, children: &[usize], logits: &[f32], gumbel: Gumbel) -> Vec<f32> {
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let priors: Vec<f32> = logits.iter().map(|l| (l - top).exp()).collect();
        let prior_total: f32 = priors.iter().sum();
        let (mut visits, mut most, mut weight, mut weighted) = (0.0f32, 0u32, 0.0f32, 0.0f32);
        let q: Vec<Option<f32>> = children
            .iter()
            .zip(&priors)
            .map(|(&i, &p)| {
                let node = &self.nodes[i];
                most = most.max(node.visits);
                (node.visits > 0).then(|| {
                    let q = (node.value / f64::from(node.visits)) as f32;
                    visits += node.visits as f32;
                    weight += p / prior_total;
                    weighted += p / prior_total * q;
                    q
                })
            })
            .collect();
        let mixed = if weight > 0.0 {
            (self.nodes[0].eval + visits * weighted / weight) / (visits + 1.0)
        } else {
            self.nodes[0].eval
        };
        let completed: Vec<f32> = q.iter().map(|q| q.unwrap_or(mixed)).collect();
        let low = completed.iter().copied().fold(f32::INFINITY, f32::min);
        let high = completed.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let scale = (gumbel.c_visit + most as f32) * gumbel.c_scale;
        completed
            .iter()
            .map(|q| scale * (q - low) / (high - low).max(1e-8))
            .collect()
    }

    /// Creates the children of `node` with the evaluation's priors: the moves of leaf `k` of
    /// the batch just evaluated.
    fn expand(&mut self, node: usize, k: usize, evaluation: &Evaluation) {
        let moves = &self.moves[k];
        let first = self.nodes.len();
        self.nodes.extend(
            moves
                .iter()
                .zip(&evaluation.priors)
                .map(|(&m, &p)| Node::leaf(m, p)),
        );
        let parent = &mut self.nodes[node];
        parent.first_child = first as u32;
        parent.children = moves.len() as u8;
        parent.expanded = true;
        parent.eval = evaluation.value;
    }

    /// Mixes Dirichlet(α) noise into the root's priors.
    fn add_noise(&mut self, rng: &mut SmallRng) {
        let root = self.nodes[0];
        let draws: Vec<f32> = root
            .children()
            .map(|_| gamma(rng, self.settings.alpha))
            .collect();
        let total: f32 = draws.iter().sum();
        if total <= 0.0 {
            return;
        }
        let eps = self.settings.noise;
        for (i, d) in root.children().zip(draws) {
            let node = &mut self.nodes[i];
            node.prior = (1.0 - eps) * node.prior + eps * d / total;
        }
    }

    /// The child of `parent` with the best PUCT score.
    fn select(&self, parent: &Node) -> usize {
        let explore = self.settings.c * (parent.visits.max(1) as f32).sqrt();
        let unvisited = parent.eval - self.settings.first_play_reduction;
        let mut best = parent.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for i in parent.children() {
            let child = &self.nodes[i];
            let q = if child.visits == 0 {
                unvisited
            } else {
                (child.value / f64::from(child.visits)) as f32
            };
            let score = q + explore * child.prior / (1 + child.visits) as f32;
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// Up to `count` walks, their leaves evaluated together, their values backed up; with
    /// `forced`, walk `k` goes through the root's child `forced[k]`. Returns the walks made.
    fn visit_batch(
        &mut self,
        root: &Position,
        evaluator: &mut dyn Evaluator,
        count: usize,
        forced: Option<&[usize]>,
    ) -> usize {
        self.path.clear();
        self.pending.clear();
        let mut walks = 0;
        while walks < count {
            if !self.walk(root, forced.map(|f| f[walks])) {
                break;
            }
            walks += 1;
        }
        if self.pending.is_empty() {
            return walks;
        }
        self.positions.clear();
        self.positions.extend(self.pending.iter().map(|p| p.2));
        self.moves.clear();
        self.moves
            .extend(self.positions.iter().map(Position::moves));
        evaluator.evaluate(&self.positions, &self.moves, &mut self.evaluations);
        let mut start = 0;
        for k in 0..self.pending.len() {
            let (end, leaf, position) = self.pending[k];
            let evaluation = std::mem::take(&mut self.evaluations[k]);
            self.nodes[leaf].pending = false;
            self.expand(leaf, k, &evaluation);
            self.back_up(start..end, evaluation.value, position.side_to_move());
            start = end;
        }
        walks
    }

    /// One walk from the root, with virtual losses on its path. A walk that ends the game is
    /// backed up at once; one that reaches a leaf waits in `pending`. Returns false (and
    /// takes its visits back) for a walk that reaches a leaf already waiting: the batch ends.
    /// With `forced`, the walk's first step is to that child of the root.
    fn walk(&mut self, root: &Position, forced: Option<usize>) -> bool {
        let start = self.path.len();
        let mut position = *root;
        let mut node = 0;
        self.path.push((0, root.side_to_move().opponent()));
        while self.nodes[node].expanded {
            let child = match forced {
                Some(child) if node == 0 => child,
                _ => self.select(&self.nodes[node]),
            };
            self.path.push((child, position.side_to_move()));
            position.play(self.nodes[child].mv);
            node = child;
        }
        if self.nodes[node].pending {
            self.path.truncate(start);
            return false;
        }
        for &(i, _) in &self.path[start..] {
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.value -= 1.0;
        }
        if let Some(outcome) = position.outcome() {
            let end = self.path.len();
            for k in start..end {
                let (i, mover) = self.path[k];
                self.nodes[i].value += 1.0 + f64::from(result_for(outcome, mover));
            }
            self.path.truncate(start);
        } else {
            self.nodes[node].pending = true;
            self.pending.push((self.path.len(), node, position));
        }
        true
    }

    /// Adds `value` (for `side`) along `path[walk]`, taking back its virtual losses.
    fn back_up(&mut self, walk: std::ops::Range<usize>, value: f32, side: Color) {
        for k in walk {
            let (i, mover) = self.path[k];
            let v = if mover == side { value } else { -value };
            self.nodes[i].value += 1.0 + f64::from(v);
        }
    }

    /// The line from the root that starts with `first` and follows the most visited children.
    pub fn principal_variation(&self, first: Move, length: usize) -> Vec<Move> {
        let mut line = vec![first];
        let Some(mut node) = self.nodes[0]
            .children()
            .find(|&i| self.nodes[i].mv == first)
        else {
            return line;
        };
        while line.len() < length && self.nodes[node].expanded {
            let Some(best) = self.nodes[node]
                .children()
                .max_by_key(|&i| self.nodes[i].visits)
            else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            node = best;
            line.push(self.nodes[node].mv);
        }
        line
    }
}

/// A draw from Gamma(α, 1) (Marsaglia and Tsang; α < 1 by the boost `G(α+1)·U^(1/α)`).
fn gamma(rng: &mut SmallRng, alpha: f32) -> f32 {
    if alpha < 1.0 {
        let u: f32 = rng.random::<f32>().max(f32::MIN_POSITIVE);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let shape = alpha - 1.0 / 3.0;
    let scale = 1.0 / (9.0 * shape).sqrt();
    loop {
        // A standard normal by Box-Muller.
        let (u1, u2): (f32, f32) = (rng.random::<f32>().max(f32::MIN_POSITIVE), rng.random());
        let normal = (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos();
        let cube = (1.0 + scale * normal).powi(3);
        if cube <= 0.0 {
            continue;
        }
        let accept: f32 = rng.random::<f32>().max(f32::MIN_POSITIVE);
        if accept.ln() < 0.5 * normal * normal + shape - shape * cube + shape * cube.ln() {
            return shape * cube;
        }
    }
}

#[cfg(test)]
mod tests;

//! Game review: every move of a game judged by the engine, as lichess's computer analysis
//! does, and near the end by the solver, which chess sites cannot do.
//!
//! Each position of the game is searched ([`Settings::nodes`]); a move's **loss** is how much
//! the mover's expected score fell from the position before it (the engine's best) to the
//! position after it, both in the mover's view (0 for the engine's own move: the difference is
//! the searches' noise). A value the search proved is 1, ½ or 0; an estimate of `m` points of
//! margin is `1 / (1 + e^(−m/4))`. The classes ([`Class`]) cut the loss at
//! [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`] (lichess's 0.1, 0.2 and 0.3 of winning chances
//! on −1..1 are these on 0..1). Each side's accuracy is the mean over its moves (a forced
//! move left out) of lichess's per-move accuracy, `103.1668 e^(−0.04354 × 100 × loss) −
//! 3.1669`, clipped to 0–100.
//!
//! Then the solver proves what it can within its budget ([`Settings::exact_nodes`] a
//! position), from the last position back (its table kept, so each proof helps the one
//! before), until [`GIVE_UP`] positions in a row are not proved: a position is proved when the
//! solver proves it, or proves each of its moves. Not a count of free squares: 23 free squares
//! may take a millisecond, and 20 more than the budget. A review never contradicts a proof: a
//! move between two proved positions is judged on the exact values, and the best move named
//! is the solver's; one that changed its side's result (won → drawn, say) lists every move
//! that kept it. Where only the position after the move is proved, the engine's own move is
//! proved too and the move judged against it, exactly: a move is never judged worse than a
//! move the proof shows it beats.

use crate::eval::network::Network;
use crate::limits::Limits;
use crate::players::minimax::{Minimax, SearchResult, margin, proven_margin};
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use yolah_core::{Color, Move, Position};

/// A loss of expected score from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// A loss from which a move is a mistake.
pub const MISTAKE: f64 = 0.10;
/// A loss from which a move is a blunder.
pub const BLUNDER: f64 = 0.15;
/// A loss below which a move is as good as the engine's own: the search's noise.
pub const BEST: f64 = 0.01;

/// Points of margin that move an estimate's expected score from ½ to 0.73.
pub const SCALE: f64 = 4.0;

/// The most nodes a position's search or proof may be given.
pub const MAX_NODES: u64 = 100_000_000;
/// The most free squares [`Settings::exact_free`] may ask for: every position (the start has 56).
pub const MAX_EXACT_FREE: u32 = 56;
/// The engine's and the solver's tables, MiB.
const TABLE_MB: usize = 64;
/// The memory a [`Reviewer`] holds, MiB: its two tables and the solver's one-player cache
/// (the network is shared).
pub const MEMORY_MB: u64 = 2 * TABLE_MB as u64 + crate::search::regions::MEMORY_MB;
/// The shortest and the longest [`Settings::time`].
pub const TIME_RANGE: (Duration, Duration) = (Duration::from_secs(1), Duration::from_hours(1));

/// How hard the review looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes of the engine's search of each position.
    pub nodes: u64,
    /// Positions with more free squares are not given to the solver (0: none proved; the
    /// default, [`MAX_EXACT_FREE`], sets no limit but the solver's budget).
    pub exact_free: u32,
    /// The solver's nodes a position: its budget.
    pub exact_nodes: u64,
    /// The most the whole review takes: the engine's searches share half of it (each ends at
    /// its nodes or its share, whichever comes first), the solver has what is left. A
    /// position the solver has no time for is judged by the engine, not proved.
    pub time: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: 100_000,
            exact_free: MAX_EXACT_FREE,
            exact_nodes: 1_000_000,
            time: Duration::from_secs(20),
        }
    }
}

impl Settings {
    /// Checks every number; the error names the option as `yolah review` spells it.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_NODES).contains(&self.nodes) {
            return Err(format!(
                "--nodes must be from 1 to {MAX_NODES}, not {}",
                self.nodes
            ));
        }
        if self.exact_free > MAX_EXACT_FREE {
            return Err(format!(
                "--exact-free must be from 0 to {MAX_EXACT_FREE}, not {}",
                self.exact_free
            ));
        }
        if !(1..=MAX_NODES).contains(&self.exact_nodes) {
            return Err(format!(
                "--exact-nodes must be from 1 to {MAX_NODES}, not {}",
                self.exact_nodes
            ));
        }
        let (shortest, longest) = TIME_RANGE;
        if !(shortest..=longest).contains(&self.time) {
            return Err(format!(
                "--time must be a duration from 1s to 1h, not {:?}",
                self.time
            ));
        }
        Ok(())
    }
}

/// What a move was, by its loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The only legal move (a forced pass, say): not judged.
    Only,
    /// The engine's move, or as good.
    Best,
    /// Lost less than [`INACCURACY`], or kept a proved result with fewer points.
    Good,
    /// Lost [`INACCURACY`] to [`MISTAKE`].
    Inaccuracy,
    /// Lost [`MISTAKE`] to [`BLUNDER`].
    Mistake,
    /// Lost [`BLUNDER`] or more.
    Blunder,
}

impl Class {
    /// The class of a move losing `loss` of expected score.
    pub fn of(loss: f64) -> Class {
        match loss {
            l if l < BEST => Class::Best,
            l if l < INACCURACY => Class::Good,
            l if l < MISTAKE => Class::Inaccuracy,
            l if l < BLUNDER => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// Its name, as the JSON has it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Only => "only",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// A position's value for a side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Value {
    /// The final margin, in points, for the side (estimated, or exact when proved).
    pub margin: f64,
    /// Whether it is proved.
    pub proved: bool,
    /// The side's expected score, 0 to 1.
    pub expected: f64,
}

impl Value {
    /// A search's value (the side to move's): proved only when the search says so (a value
    /// it found at a game's end through cut lines is still an estimate of that margin).
    fn of(outcome: &SearchResult) -> Value {
        let margin =
            proven_margin(outcome.value).map_or(f64::from(outcome.value) / 100.0, f64::from);
        if outcome.proven {
            return Value {
                margin,
                proved: true,
                expected: outcome.expected_score(),
            };
        }
        Value {
            margin,
            proved: false,
            expected: 1.0 / (1.0 + (-margin / SCALE).exp()),
        }
    }

    /// A proved final margin.
    fn exact(margin: i32) -> Value {
        Value {
            margin: f64::from(margin),
            proved: true,
            expected: f64::midpoint(f64::from(margin.signum()), 1.0),
        }
    }

    /// The other side's view of it.
    fn negated(self) -> Value {
        Value {
            margin: -self.margin,
            proved: self.proved,
            expected: 1.0 - self.expected,
        }
    }
}

/// What the solver says of a move between two proved positions (its JSON has [`Verdict::text`]
/// as `text` besides the fields).
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The mover's proved final margin before the move (best play).
    pub before: i32,
    /// After it.
    pub after: i32,
    /// When the move changed the mover's result: the moves that kept it, all of them; none
    /// when some could not be proved within the solver's nodes.
    pub kept_by: Option<Vec<String>>,
}

impl Verdict {
    /// `won by 4 → drawn: only e4:c2 kept the win`, or `won by 4` when the result held.
    pub fn text(&self) -> String {
        let (before, after) = (result_word(self.before), result_word(self.after));
        if self.before.signum() == self.after.signum() {
            return format!("{before} (proved)");
        }
        let what = match self.before.signum() {
            1 => "the win",
            _ => "the draw",
        };
        let kept = match self.kept_by.as_deref() {
            None => "the moves that kept it were not all proved".to_string(),
            Some([only]) => format!("only {only} kept {what}"),
            Some(moves) => format!("{} kept {what}", moves.join(", ")),
        };
        format!("{before} → {after}: {kept}")
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut fields = serializer.serialize_struct("Verdict", 4)?;
        fields.serialize_field("before", &self.before)?;
        fields.serialize_field("after", &self.after)?;
        fields.serialize_field("kept_by", &self.kept_by)?;
        fields.serialize_field("text", &self.text())?;
        fields.end()
    }
}

fn result_word(margin: i32) -> String {
    match margin.signum() {
        1 => format!("won by {margin}"),
        0 => "drawn".to_string(),
        _ => format!("lost by {}", -margin),
    }
}

/// What the solver proved of a position, for its side to move.
#[derive(Clone, Debug, Default)]
struct Proved {
    /// The final margin with best play, and the line that reaches it (the best move first).
    exact: Option<(i32, Vec<Move>)>,
    /// Where the position is not proved but the position after the move played is: the
    /// engine's move's proved value, if it was proved.
    engines: Option<i32>,
}

impl Proved {
    fn margin(&self) -> Option<i32> {
        self.exact.as_ref().map(|e| e.0)
    }
}

/// Unproved positions in a row after which the solver tries no earlier position.
pub const GIVE_UP: usize = 2;

/// One move, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judged {
    /// The position's ply before the move (0: the first move of a game from the start).
    pub ply: u16,
    /// Who moved.
    pub side: &'static str,
    /// The move played.
    pub played: String,
    /// The position's value for the mover before the move: the engine's (or the solver's).
    pub before: Value,
    /// Its value for the mover after the move.
    pub after: Value,
    /// How much expected score the move gave away (0 at best, and for the engine's own move).
    pub loss: f64,
    /// Its class.
    pub class: Class,
    /// The engine's move in the position, and its line.
    pub best: String,
    /// The engine's principal variation from the position, the best move first.
    pub line: Vec<String>,
    /// The solver's word, when both positions were proved.
    pub exact: Option<Verdict>,
}

/// A whole game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// Each move, in order.
    pub moves: Vec<Judged>,
    /// Each side's accuracy, 0–100, black's first (none: the side made no judged move).
    pub accuracy: [Option<f64>; 2],
    /// The final position's value for black.
    pub end: Value,
    /// The settings it was made with.
    pub nodes: u64,
    /// Free squares above which no position was given to the solver (0: none proved).
    pub exact_free: u32,
    /// The solver's nodes a position.
    pub exact_nodes: u64,
    /// Whether the review's time ([`Settings::time`]) ran out before the solver was done:
    /// the positions it did not reach are judged by the engine, not proved.
    pub out_of_time: bool,
}

impl Review {
    /// How many moves of `side` fall in `class`.
    pub fn count(&self, side: Color, class: Class) -> usize {
        self.moves
            .iter()
            .filter(|m| m.side == side.name() && m.class == class)
            .count()
    }
}

/// Lichess's accuracy of one move that lost `loss` of expected score.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * 100.0 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The engine that reviews and the solver that proves, each with its table.
///
/// ```
/// use yolah_ai::review::{Reviewer, Settings};
/// use yolah_core::{Move, Position};
/// let moves: Vec<Move> = ["a1:c3", "h1:h4", "c3:c2"].iter().map(|m| m.parse().unwrap()).collect();
/// let settings = Settings { nodes: 2_000, ..Settings::default() };
/// let review = Reviewer::new(settings, None).review(&Position::start(), &moves, |_, _| {});
/// assert_eq!(review.moves.len(), 3);
/// assert!(!review.out_of_time);
/// ```
pub struct Reviewer {
    engine: Minimax,
    solver: Minimax,
    settings: Settings,
    /// When the review under way must end.
    deadline: Instant,
    /// Whether a proof was cut short by the deadline.
    out_of_time: bool,
}

impl Reviewer {
    /// A reviewer searching with `network` (the shipped one by default).
    pub fn new(settings: Settings, network: Option<Arc<Network>>) -> Reviewer {
        Reviewer {
            engine: Minimax::new(network.unwrap_or_else(Network::shipped), TABLE_MB, 1),
            solver: Minimax::solver(TABLE_MB, 1),
            settings,
            deadline: Instant::now(),
            out_of_time: false,
        }
    }

    /// Reviews the game of `moves` from `start` (each legal: checked by whoever read them),
    /// calling `progress(done, total)` after each search of the engine, then of the solver.
    pub fn review(
        &mut self,
        start: &Position,
        moves: &[Move],
        mut progress: impl FnMut(usize, usize),
    ) -> Review {
        let mut positions = vec![*start];
        for &m in moves {
            let mut next = *positions.last().expect("the start");
            next.play(m);
            positions.push(next);
        }
        let total = positions.len() * 2;
        self.deadline = Instant::now() + self.settings.time;
        self.out_of_time = false;
        // Each engine search's share of half the review's time.
        let share = (self.settings.time / 2 / positions.len() as u32).max(Duration::from_millis(1));
        self.engine.clear();
        self.solver.clear();
        // The engine's value and line of each position, the side to move's.
        let mut searched: Vec<(Value, Vec<Move>)> = Vec::with_capacity(positions.len());
        for (i, position) in positions.iter().enumerate() {
            searched.push(if position.game_over() {
                (Value::exact(margin(position)), Vec::new())
            } else {
                let outcome = self.engine.search(
                    position,
                    Limits {
                        nodes: Some(self.settings.nodes),
                        time: Some(share),
                        ..Limits::default()
                    },
                );
                (Value::of(&outcome), outcome.pv)
            });
            progress(i + 1, total);
        }
        let proved = self.prove_back(&positions, moves, &searched, |i| {
            progress(total - i, total);
        });
        let judged: Vec<Judged> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| self.judge(&positions[i], m, &searched[i..=i + 1], &proved[i..=i + 1]))
            .collect();
        progress(total, total);
        let accuracy = [Color::Black, Color::White].map(|side| {
            let losses: Vec<f64> = judged
                .iter()
                .filter(|j| j.side == side.name() && j.class != Class::Only)
                .map(|j| j.loss)
                .collect();
            (!losses.is_empty()).then(|| {
                losses.iter().map(|&l| move_accuracy(l)).sum::<f64>() / losses.len() as f64
            })
        });
        let last = positions.last().expect("the start");
        let end = proved[positions.len() - 1]
            .margin()
            .map_or(searched[positions.len() - 1].0, Value::exact);
        Review {
            moves: judged,
            accuracy,
            end: if last.side_to_move() == Color::Black {
                end
            } else {
                end.negated()
            },
            nodes: self.settings.nodes,
            exact_free: self.settings.exact_free,
            exact_nodes: self.settings.exact_nodes,
            out_of_time: self.out_of_time,
        }
    }

    /// What the solver proves of each position, from the end back (each proof helps the one
    /// before through the table): a position is proved when the solver proves it within
    /// [`Settings::exact_nodes`], or when each of its moves' positions is (then its value is
    /// their best). The positions before [`GIVE_UP`] unproved ones in a row are not tried, nor
    /// those of more than [`Settings::exact_free`] free squares. Where the position after the
    /// move played is proved and the one before is not, the engine's move is proved too, so
    /// that the move is judged against it on exact values. `progress(i)` as position `i` is
    /// tried.
    fn prove_back(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        searched: &[(Value, Vec<Move>)],
        mut progress: impl FnMut(usize),
    ) -> Vec<Proved> {
        let mut proved: Vec<Proved> = vec![Proved::default(); positions.len()];
        let mut unproved = 0;
        for i in (0..positions.len()).rev() {
            progress(i);
            let position = &positions[i];
            if 64 - position.occupied().count() > self.settings.exact_free && !position.game_over()
            {
                break;
            }
            proved[i].exact = self.proof_afresh(position);
            if proved[i].exact.is_none()
                && let Some(after) = proved.get(i + 1).and_then(Proved::margin)
            {
                let engine_move = searched[i].1.first().copied();
                proved[i] = self.prove_by_moves(position, moves[i], -after, engine_move);
            }
            if proved[i].exact.is_some() {
                unproved = 0;
            } else {
                unproved += 1;
                if unproved == GIVE_UP {
                    break;
                }
            }
        }
        proved
    }

    /// `position` proved through its moves, the move `played` known to give its mover
    /// `value`: every move's position proved (the engine's move first, the one that matters
    /// most if not all are), or the engine's move's alone.
    fn prove_by_moves(
        &mut self,
        position: &Position,
        played: Move,
        value: i32,
        engine_move: Option<Move>,
    ) -> Proved {
        let mut legal: Vec<Move> = position.moves().iter().copied().collect();
        if let Some(e) = engine_move
            && let Some(at) = legal.iter().position(|&m| m == e)
        {
            legal.swap(0, at);
        }
        let mut best: Option<(i32, Move, Vec<Move>)> = None;
        let mut engines = None;
        for &m in &legal {
            let (v, line) = if m == played {
                (value, Vec::new())
            } else {
                let mut child = *position;
                child.play(m);
                match self.proof_afresh(&child) {
                    Some((margin, line)) => (-margin, line),
                    None => {
                        return Proved {
                            exact: None,
                            engines,
                        };
                    }
                }
            };
            if engine_move == Some(m) {
                engines = Some(v);
            }
            if best.as_ref().is_none_or(|(b, ..)| v > *b) {
                best = Some((v, m, line));
            }
        }
        Proved {
            exact: best.map(|(margin, m, line)| (margin, std::iter::once(m).chain(line).collect())),
            engines: None,
        }
    }

    /// The solver's proof of `position` within its budget, tried once more with the solver's
    /// table and move order cleared and twice the budget if the first try fails: what the
    /// solver learnt of other positions can mislead its order here (in the random games'
    /// test, a position in about 2,000 was proved by a fresh solver within the budget and not
    /// by the reviewer's). A position not proved so costs three times the budget. Neither try
    /// goes past the review's deadline.
    fn proof_afresh(&mut self, position: &Position) -> Option<(i32, Vec<Move>)> {
        self.proof_by_deadline(position, self.settings.exact_nodes)
            .or_else(|| {
                self.solver.clear();
                self.proof_by_deadline(position, self.settings.exact_nodes.saturating_mul(2))
            })
    }

    /// The solver's proof of `position` within `nodes` and the review's deadline (none once
    /// it has passed).
    fn proof_by_deadline(&mut self, position: &Position, nodes: u64) -> Option<(i32, Vec<Move>)> {
        let Some(left) = self.deadline.checked_duration_since(Instant::now()) else {
            self.out_of_time = true;
            return None;
        };
        let limits = Limits {
            nodes: Some(nodes),
            time: Some(left),
            ..Limits::default()
        };
        let started = Instant::now();
        let proof = self.solver.proof(position, limits);
        if proof.is_none() && started.elapsed() >= left {
            self.out_of_time = true;
        }
        proof
    }

    /// The move `m` from `position`, given the engine's values (`searched`) and the solver's
    /// (`proved`) of the positions before and after it.
    fn judge(
        &mut self,
        position: &Position,
        m: Move,
        searched: &[(Value, Vec<Move>)],
        proved: &[Proved],
    ) -> Judged {
        let legal = position.moves();
        let (engine_before, engine_line) = &searched[0];
        let mut line = engine_line.clone();
        let after_margin = proved[1].margin().map(|a| -a);
        let (before, after, verdict, loss) = match (&proved[0], after_margin) {
            (
                Proved {
                    exact: Some((b, solver_line)),
                    ..
                },
                Some(a),
            ) => {
                let b = *b;
                // Proved: the solver's line is the best.
                line.clone_from(solver_line);
                if line.is_empty() {
                    line.push(m);
                }
                // The mover's result fell (won → drawn or lost, drawn → lost).
                let kept_by =
                    (a.signum() < b.signum()).then(|| self.moves_keeping(position, b.signum()));
                let (before, after) = (Value::exact(b), Value::exact(a));
                let loss = (before.expected - after.expected).max(0.0);
                let verdict = Verdict {
                    before: b,
                    after: a,
                    kept_by: kept_by.flatten(),
                };
                (before, after, Some(verdict), loss)
            }
            (
                Proved {
                    engines: Some(e), ..
                },
                Some(a),
            ) => {
                // Only the engine's move was proved besides the move played: the move is
                // judged against it, on exact values; the position's value is at least the
                // better of the two.
                let e = *e;
                if a > e {
                    line = vec![m];
                }
                let before = Value {
                    proved: false,
                    ..Value::exact(e.max(a))
                };
                let loss = (Value::exact(e).expected - Value::exact(a).expected).max(0.0);
                (before, Value::exact(a), None, loss)
            }
            _ => {
                // The engine's own move loses nothing: a difference between its value before
                // and after is the two searches' noise.
                let after = searched[1].0.negated();
                let engines = engine_line.first().is_none_or(|&e| e == m);
                let loss = if engines {
                    0.0
                } else {
                    (engine_before.expected - after.expected).max(0.0)
                };
                (*engine_before, after, None, loss)
            }
        };
        let best = line.first().copied().unwrap_or(m);
        // Proved values below the best (lost by 1 → lost by 4) lose no expected score, yet the
        // move is not the best: a proof is never contradicted.
        let worse_proved = after.proved
            && before.margin > after.margin
            && (before.proved || proved[0].engines.is_some());
        let class = match Class::of(loss) {
            _ if legal.len() <= 1 => Class::Only,
            Class::Best if worse_proved => Class::Good,
            class => class,
        };
        Judged {
            ply: position.ply(),
            side: position.side_to_move().name(),
            played: m.to_string(),
            before,
            after,
            loss,
            class,
            best: best.to_string(),
            line: line.iter().map(Move::to_string).collect(),
            exact: verdict,
        }
    }

    /// Every move of `position` whose result for the mover is `result` (1 win, 0 draw), if
    /// the solver proves every move's.
    fn moves_keeping(&mut self, position: &Position, result: i32) -> Option<Vec<String>> {
        let mut kept = Vec::new();
        for &m in &position.moves() {
            let mut child = *position;
            child.play(m);
            let (margin, _) = self.proof_by_deadline(&child, self.settings.exact_nodes)?;
            let value = -margin;
            if value.signum() == result {
                kept.push(m.to_string());
            }
        }
        Some(kept)
    }
}

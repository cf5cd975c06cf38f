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
//! Positions with at most [`Settings::exact_free`] free squares are then proved by the solver
//! from the last back (its table kept, so each proof helps the one before), stopping at the
//! first it cannot prove. A move between two proved positions is judged on the exact values;
//! one that changed its side's result (won → drawn, say) lists every move that kept it.

use crate::eval::network::Network;
use crate::limits::Limits;
use crate::players::minimax::{Minimax, Outcome, margin, proven_margin};
use serde::Serialize;
use std::sync::Arc;
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
/// The most free squares from which the solver is asked.
pub const MAX_EXACT_FREE: u32 = 32;
/// The engine's and the solver's tables, MiB.
const TABLE_MB: usize = 64;
/// The memory a [`Reviewer`] holds, MiB: its two tables (the network is shared).
pub const MEMORY_MB: u64 = 2 * TABLE_MB as u64;

/// How hard the review looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes of the engine's search of each position.
    pub nodes: u64,
    /// Positions with at most this many free squares are proved by the solver (0: none).
    pub exact_free: u32,
    /// The solver's nodes a position.
    pub exact_nodes: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: 100_000,
            exact_free: 20,
            exact_nodes: 1_000_000,
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
    fn of(outcome: &Outcome) -> Value {
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
    /// Free squares from which positions were proved (0: none).
    pub exact_free: u32,
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
pub struct Reviewer {
    engine: Minimax,
    solver: Minimax,
    settings: Settings,
}

impl Reviewer {
    /// A reviewer searching with `network` (the shipped one by default).
    pub fn new(settings: Settings, network: Option<Arc<Network>>) -> Reviewer {
        Reviewer {
            engine: Minimax::new(network.unwrap_or_else(Network::shipped), TABLE_MB, 1),
            solver: Minimax::solver(TABLE_MB, 1),
            settings,
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
                        ..Limits::default()
                    },
                );
                (Value::of(&outcome), outcome.pv)
            });
            progress(i + 1, total);
        }
        // The solver's, from the end back while it proves.
        let mut exact: Vec<Option<i32>> = vec![None; positions.len()];
        for (i, position) in positions.iter().enumerate().rev() {
            progress(total - i, total);
            exact[i] = self.prove(position, false);
            if exact[i].is_none() {
                break;
            }
        }
        let judged: Vec<Judged> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| self.judge(&positions[i], m, &searched[i..=i + 1], &exact[i..=i + 1]))
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
        let end = exact[positions.len() - 1].map_or(searched[positions.len() - 1].0, Value::exact);
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
        }
    }

    /// The proved final margin of `position` for its side to move, if the solver proves it
    /// within its nodes (positions with more free squares than asked are not tried, unless
    /// `any`).
    fn prove(&mut self, position: &Position, any: bool) -> Option<i32> {
        let free = 64 - position.occupied().count();
        if free > self.settings.exact_free && !any && !position.game_over() {
            return None;
        }
        self.solver.prove(position, self.settings.exact_nodes)
    }

    /// The move `m` from `position`, given the engine's values (`searched`) and the solver's
    /// (`exact`) of the positions before and after it.
    fn judge(
        &mut self,
        position: &Position,
        m: Move,
        searched: &[(Value, Vec<Move>)],
        exact: &[Option<i32>],
    ) -> Judged {
        let legal = position.moves();
        let (engine_before, line) = &searched[0];
        let best = line.first().copied().unwrap_or(m);
        let (before, after, verdict) = match (exact[0], exact[1]) {
            (Some(b), Some(a)) => {
                // The mover's result fell (won → drawn or lost, drawn → lost).
                let kept_by =
                    ((-a).signum() < b.signum()).then(|| self.moves_keeping(position, b.signum()));
                (
                    Value::exact(b),
                    Value::exact(-a),
                    Some(Verdict {
                        before: b,
                        after: -a,
                        kept_by: kept_by.flatten(),
                    }),
                )
            }
            _ => (*engine_before, searched[1].0.negated(), None),
        };
        // The engine's own move loses nothing: a difference between its value before and
        // after is the two searches' noise. Proved values say what a move lost exactly.
        let engines = m == best && verdict.is_none();
        let loss = if engines {
            0.0
        } else {
            (before.expected - after.expected).max(0.0)
        };
        let class = match Class::of(loss) {
            _ if legal.len() <= 1 => Class::Only,
            // A proved result kept with fewer points (lost by 1 → lost by 4) loses no
            // expected score, yet is not the best move.
            Class::Best if verdict.as_ref().is_some_and(|v| v.after < v.before) => Class::Good,
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
            let value = -self.prove(&child, true)?;
            if value.signum() == result {
                kept.push(m.to_string());
            }
        }
        Some(kept)
    }
}

//! What one search found ([`SearchResult`]) and how the player reports it, a book move's too.

use super::values::proven_margin;
use crate::book::{self, BookMove};
use crate::player::{Line, Margin, Report};
use std::fmt::Write as _;
use std::time::Duration;
use yolah_core::{Move, Position};

/// What one search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
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
    /// The best lines, best first, when more than one was asked for (`lines=N`); the first
    /// is `pv`'s. Empty otherwise.
    pub lines: Vec<Variation>,
    /// Time taken.
    pub time: Duration,
}

/// One line of a multi-PV search: its value for the side to move at the root and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The value, as [`SearchResult::value`].
    pub value: i32,
    /// Whether the value is exact.
    pub proven: bool,
    /// The moves, starting with a root move.
    pub pv: Vec<Move>,
}

impl Variation {
    /// The line as a player reports it.
    pub fn line(&self) -> Line {
        Line {
            pv: self.pv.clone(),
            margin: margin(self.value, self.proven),
            value: expected_score(self.value, self.proven),
        }
    }
}

/// The margin a value stands for: exact points for a proven game's end, hundredths otherwise.
fn margin(value: i32, proved: bool) -> Margin {
    Margin {
        points: proven_margin(value).map_or(f64::from(value) / 100.0, f64::from),
        proved,
    }
}

/// Expected score 0–1 for the side to move: exact when proven, else a logistic of the
/// margin estimate (4 points ≈ 0.73; a rough scale, for display).
fn expected_score(value: i32, proven: bool) -> f64 {
    if proven || proven_margin(value).is_some() {
        return f64::midpoint(f64::from(value.signum()), 1.0);
    }
    1.0 / (1.0 + (-f64::from(value) / 400.0).exp())
}

impl SearchResult {
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
        expected_score(self.value, self.proven)
    }
}

fn proven_word(proven: bool) -> &'static str {
    if proven { " (proved)" } else { " (not proved)" }
}

/// What a player says of a book move: the value and depth of the search that chose it.
pub(super) fn book_report(position: &Position, found: BookMove, time: Duration) -> Report {
    let outcome = SearchResult {
        mv: found.mv,
        value: found.value,
        depth: found.depth,
        seldepth: found.depth,
        proven: false,
        nodes: 0,
        tt_hits: 0,
        pv: vec![found.mv],
        lines: Vec::new(),
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
pub(super) fn report(outcome: &SearchResult) -> Report {
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
        margin: Some(margin(outcome.value, proved)),
        nodes: Some(outcome.nodes),
        pv: outcome.pv.clone(),
        lines: outcome.lines.iter().map(Variation::line).collect(),
        detail,
        ..Report::new(outcome.mv, outcome.time)
    }
}

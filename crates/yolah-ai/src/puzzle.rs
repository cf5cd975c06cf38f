//! Puzzles, each proven: positions where exactly one move keeps the best result the solver
//! proves — the only winning move, or the only move that saves the draw — with every other
//! legal move's proved value beside it as the proof.
//!
//! A [`Finder`] looks at a game's positions with at most [`Settings::free`] free squares,
//! from the first (the hardest), and proves every legal move's final margin. Where one move
//! alone wins (or, no move winning, one alone draws), that position is a puzzle. Its solution
//! goes on while it stays one: the opponent's best reply (the one the solver proves worst for
//! the solver of the puzzle, the first in move order among equals), then again exactly one
//! move keeping the result, up to [`Settings::length`] moves of the solver's. A
//! [`Puzzle`] is a line of a puzzles file (JSON); [`Puzzle::check`] checks one read from an
//! untrusted file: its moves legal, its proof consistent and unique.

use crate::players::minimax::Minimax;
use serde::{Deserialize, Serialize};
use yolah_core::{Move, Position, play_moves};

/// The most free squares a puzzle's position may have: the solver proves every move there
/// in milliseconds to seconds.
pub const MAX_FREE: u32 = 24;
/// The most nodes the solver may be given for one position.
pub const MAX_NODES: u64 = 100_000_000;
/// The most moves of the solver's a solution may ask for.
pub const MAX_LENGTH: usize = 10;
/// The solver's table, MiB.
const TABLE_MB: usize = 64;

/// How puzzles are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Positions with at most this many free squares are tried.
    pub free: u32,
    /// The solver's nodes for each position proved.
    pub nodes: u64,
    /// The most moves of the solver's a solution asks for.
    pub length: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            free: 20,
            nodes: 2_000_000,
            length: 3,
        }
    }
}

impl Settings {
    /// Checks every number; the error names the option as `yolah puzzles` spells it.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_FREE).contains(&self.free) {
            return Err(format!(
                "--free must be from 1 to {MAX_FREE}, not {}",
                self.free
            ));
        }
        if !(1..=MAX_NODES).contains(&self.nodes) {
            return Err(format!(
                "--nodes must be from 1 to {MAX_NODES}, not {}",
                self.nodes
            ));
        }
        if !(1..=MAX_LENGTH).contains(&self.length) {
            return Err(format!(
                "--length must be from 1 to {MAX_LENGTH}, not {}",
                self.length
            ));
        }
        Ok(())
    }
}

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Find the only winning move.
    Win,
    /// No move wins: find the only move that does not lose.
    Draw,
}

impl Goal {
    /// What the page and the command line ask.
    pub fn task(self) -> &'static str {
        match self {
            Goal::Win => "find the only winning move",
            Goal::Draw => "find the only move that saves the draw",
        }
    }
}

/// A proven puzzle, as a line of a puzzles file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// A name for it: 16 hex digits of its position's hash.
    pub id: String,
    /// The position, in notation.
    pub position: String,
    /// What to find.
    pub goal: Goal,
    /// The final margin the solution proves, for the side to move.
    pub value: i32,
    /// The solution: the solver's move, the reply, the solver's move … (ends with the
    /// solver's).
    pub solution: Vec<String>,
    /// The proof: every legal move of the position with its proved final margin for the side
    /// to move, best first.
    pub moves: Vec<(String, i32)>,
    /// Where it comes from (a file, a game, a ply).
    pub source: String,
}

/// The id of a puzzle of `position`.
pub fn id_of(position: &Position) -> String {
    format!(
        "{:016x}",
        yolah_core::zobrist::fnv1a(position.to_string().as_bytes())
    )
}

/// The result a final margin stands for: 1 won, 0 drawn, −1 lost.
fn result(margin: i32) -> i32 {
    margin.signum()
}

impl Puzzle {
    /// Checks a puzzle read from a file: its id, position and moves (every solution move legal
    /// in turn, the proof naming each legal move once), and that the proof makes it a
    /// puzzle: the first solution move alone has the best result, which is its goal's, and
    /// its value is the puzzle's. Returns the position and the solution's moves. It does not
    /// prove the values again (the tests do, for the shipped set).
    pub fn check(&self) -> Result<(Position, Vec<Move>), String> {
        let position: Position = self
            .position
            .parse()
            .map_err(|e| format!("puzzle {}: its position: {e}", self.id))?;
        let fail = |why: String| format!("puzzle {}: {why}", self.id);
        if self.id != id_of(&position) {
            return Err(fail("its id is not its position's".into()));
        }
        if self.solution.is_empty() || self.solution.len().is_multiple_of(2) {
            return Err(fail(format!(
                "a solution of {} moves (it ends with the solver's move)",
                self.solution.len()
            )));
        }
        if self.solution.len() > 2 * MAX_LENGTH - 1 {
            return Err(fail(format!(
                "a solution of {} moves, more than {}",
                self.solution.len(),
                2 * MAX_LENGTH - 1
            )));
        }
        let mut after = position;
        let line = play_moves(&mut after, self.solution.iter().map(String::as_str))
            .map_err(|e| fail(format!("solution {e}")))?;
        let legal = position.moves();
        if self.moves.len() != legal.len() {
            return Err(fail(format!(
                "its proof has {} moves, the position {}",
                self.moves.len(),
                legal.len()
            )));
        }
        let mut proved = Vec::with_capacity(self.moves.len());
        for (text, value) in &self.moves {
            let m: Move = text.parse().map_err(|e| fail(format!("its proof: {e}")))?;
            if !legal.contains(&m) || proved.iter().any(|&(p, _)| p == m) {
                return Err(fail(format!(
                    "its proof names {text}, not a legal move or twice"
                )));
            }
            proved.push((m, *value));
        }
        let best = proved.iter().map(|&(_, v)| result(v)).max().unwrap_or(-1);
        let keepers: Vec<Move> = proved
            .iter()
            .filter(|&&(_, v)| result(v) == best)
            .map(|&(m, _)| m)
            .collect();
        let goal = match best {
            1 => Goal::Win,
            0 => Goal::Draw,
            _ => return Err(fail("every move loses: nothing to find".into())),
        };
        if keepers != [line[0]] {
            return Err(fail(format!(
                "its proof has {} moves keeping the result, and its solution starts with {}",
                keepers.len(),
                self.solution[0]
            )));
        }
        if goal != self.goal {
            return Err(fail("its goal is not its proof's".into()));
        }
        let first = proved.iter().find(|&&(m, _)| m == line[0]).map(|&(_, v)| v);
        if first != Some(self.value) {
            return Err(fail("its value is not its solution's".into()));
        }
        Ok((position, line))
    }
}

/// A puzzle found in a position, before it is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// What to find.
    pub goal: Goal,
    /// The final margin with the solution, for the side to move.
    pub value: i32,
    /// The solution.
    pub solution: Vec<Move>,
    /// Every legal move's proved final margin, best first.
    pub moves: Vec<(Move, i32)>,
}

impl Found {
    /// The puzzle of `position`, from `source`.
    pub fn puzzle(&self, position: &Position, source: String) -> Puzzle {
        Puzzle {
            id: id_of(position),
            position: position.to_string(),
            goal: self.goal,
            value: self.value,
            solution: self.solution.iter().map(Move::to_string).collect(),
            moves: self
                .moves
                .iter()
                .map(|&(m, v)| (m.to_string(), v))
                .collect(),
            source,
        }
    }
}

/// Looks for puzzles with the solver.
pub struct Finder {
    solver: Minimax,
    settings: Settings,
}

impl Finder {
    /// A finder with its own solver.
    pub fn new(settings: Settings) -> Finder {
        Finder {
            solver: Minimax::solver(TABLE_MB, 1),
            settings,
        }
    }

    /// The first position of the game of `moves` from `start` that is a puzzle, with its ply.
    pub fn in_game(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Option<(usize, Position, Found)> {
        self.solver.clear();
        let mut position = *start;
        for (ply, &m) in moves.iter().enumerate() {
            if let Some(found) = self.at(&position) {
                return Some((ply, position, found));
            }
            position.play(m);
        }
        None
    }

    /// The puzzle `position` is, if it is one.
    pub fn at(&mut self, position: &Position) -> Option<Found> {
        if 64 - position.occupied().count() > self.settings.free {
            return None;
        }
        let (moves, keeper) = self.keeper(position)?;
        let value = moves[0].1;
        let goal = if value > 0 { Goal::Win } else { Goal::Draw };
        let mut solution = vec![keeper];
        let mut now = *position;
        now.play(keeper);
        while solution.len() < 2 * self.settings.length - 1 && !now.game_over() {
            let Some(reply) = self.reply(&now) else { break };
            let mut next = now;
            next.play(reply);
            let Some((_, keeper)) = self.keeper(&next) else {
                break;
            };
            solution.extend([reply, keeper]);
            next.play(keeper);
            now = next;
        }
        Some(Found {
            goal,
            value,
            solution,
            moves,
        })
    }

    /// Every legal move of `position` with its proved final margin for the side to move,
    /// best first, and the move that alone keeps the best result, if the solver proves every
    /// move, some move does not lose, and exactly one keeps the best result.
    fn keeper(&mut self, position: &Position) -> Option<(Vec<(Move, i32)>, Move)> {
        let legal = position.moves();
        if legal.len() < 2 {
            return None;
        }
        let mut moves = Vec::with_capacity(legal.len());
        for &m in &legal {
            let mut child = *position;
            child.play(m);
            moves.push((m, -self.solver.prove(&child, self.settings.nodes)?));
        }
        // Stable: among equal values, move order.
        moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let best = result(moves[0].1);
        let keepers = moves.iter().filter(|&&(_, v)| result(v) == best).count();
        (best >= 0 && keepers == 1).then(|| {
            let keeper = moves[0].0;
            (moves, keeper)
        })
    }

    /// The reply that leaves the solver of the puzzle the least (the first in move order
    /// among equals), if every reply is proved.
    fn reply(&mut self, position: &Position) -> Option<Move> {
        let mut best: Option<(Move, i32)> = None;
        for &m in &position.moves() {
            let mut child = *position;
            child.play(m);
            let value = -self.solver.prove(&child, self.settings.nodes)?;
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((m, value));
            }
        }
        best.map(|(m, _)| m)
    }
}

/// The version of the puzzles file format this build writes. Version 2 counts the games read
/// (`scanned`) without the copies of a game seen already, which version 1 counted; the
/// puzzles of both read alike, but only a file of this version is resumed.
pub const VERSION: u32 = 2;
/// The versions this build reads.
pub const READS: std::ops::RangeInclusive<u32> = 1..=VERSION;

/// The first line of a puzzles file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The format's version ([`VERSION`]).
    pub yolah_puzzles: u32,
    /// How the puzzles were looked for.
    pub settings: Settings,
    /// The game records read, as given.
    pub games: Vec<String>,
}

/// How many games of the inputs, in order, were read through (a line `yolah puzzles` adds
/// now and then, for `--resume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scanned {
    /// The games.
    pub scanned: u64,
}

/// A line of a puzzles file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The first.
    Header(Header),
    /// Games read through.
    Scanned(u64),
    /// A puzzle (not checked: see [`Puzzle::check`]).
    Puzzle(Box<Puzzle>),
}

impl Line {
    /// Reads a line (without its newline).
    pub fn parse(text: &str) -> Result<Line, String> {
        if let Ok(header) = serde_json::from_str::<Header>(text) {
            return Ok(Line::Header(header));
        }
        if let Ok(Scanned { scanned }) = serde_json::from_str(text) {
            return Ok(Line::Scanned(scanned));
        }
        serde_json::from_str(text)
            .map(|puzzle| Line::Puzzle(Box::new(puzzle)))
            .map_err(|e| format!("not a puzzle: {e}"))
    }
}

/// A puzzle read and checked, with its position and solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The puzzle, as its line has it.
    pub puzzle: Puzzle,
    /// Its position.
    pub position: Position,
    /// Its solution's moves.
    pub solution: Vec<Move>,
}

/// The puzzles of a whole puzzles file, each checked, none twice; an error names the line.
pub fn read_set(text: &str) -> Result<Vec<Checked>, String> {
    let mut puzzles = Vec::new();
    let mut ids = std::collections::HashSet::new();
    let count = text.lines().count();
    for (number, line) in (1..).zip(text.lines()) {
        let at = |why: String| format!("line {number}: {why}");
        let parsed = Line::parse(line);
        if parsed.is_err() && number == count && !text.ends_with('\n') {
            return Err(at(
                "cut short (a run killed or still writing: `yolah puzzles --resume` finishes it)"
                    .into(),
            ));
        }
        if number == 1 && !matches!(parsed, Ok(Line::Header(_))) {
            return Err(at("not a puzzles file's header".into()));
        }
        match parsed.map_err(at)? {
            Line::Header(header) if number == 1 => {
                if !READS.contains(&header.yolah_puzzles) {
                    return Err(at(format!(
                        "puzzles file version {}, this yolah reads {} to {VERSION}",
                        header.yolah_puzzles,
                        READS.start()
                    )));
                }
            }
            Line::Header(_) => return Err(at("a second header".into())),
            Line::Scanned(_) => {}
            Line::Puzzle(puzzle) => {
                let (position, solution) = puzzle.check().map_err(at)?;
                if !ids.insert(puzzle.id.clone()) {
                    return Err(at(format!("puzzle {} again", puzzle.id)));
                }
                puzzles.push(Checked {
                    puzzle: *puzzle,
                    position,
                    solution,
                });
            }
        }
    }
    if puzzles.is_empty() {
        return Err("no puzzle in it".into());
    }
    Ok(puzzles)
}

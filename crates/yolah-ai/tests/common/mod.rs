//! Helpers shared by the players' tests.
#![allow(dead_code)]

use yolah_core::{Outcome, Position};

/// The exact value of `position` for the side to move: 1 win, 0 draw, -1 loss (full
/// negamax with alpha-beta; only for positions near the end).
pub fn solve(position: &Position, mut alpha: i32, beta: i32) -> i32 {
    if let Some(outcome) = position.outcome() {
        let me = position.side_to_move();
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(c) if c == me => 1,
            Outcome::Win(_) => -1,
        };
    }
    let mut best = -1;
    for &m in &position.moves() {
        let mut child = *position;
        child.play(m);
        let value = -solve(&child, -beta, -alpha);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The value of each legal move for the side to move.
pub fn move_values(position: &Position) -> Vec<(yolah_core::Move, i32)> {
    position
        .moves()
        .iter()
        .map(|&m| {
            let mut child = *position;
            child.play(m);
            (m, -solve(&child, -1, 1))
        })
        .collect()
}

/// Random play from the start until at most `free` free squares are left (the game not over).
pub fn random_endgame(free: u32, rng: &mut rand::rngs::SmallRng) -> Position {
    loop {
        let mut position = Position::start();
        while !position.game_over() && 64 - position.occupied().count() > free {
            position.play(position.random_move(rng));
        }
        if !position.game_over() {
            return position;
        }
    }
}

/// The final margin for the side to move with best play by both sides: exhaustive negamax, no
/// table, no pruning.
pub fn exact_margin(position: &Position) -> i32 {
    if position.game_over() {
        let us = position.side_to_move();
        return i32::from(position.score(us)) - i32::from(position.score(us.opponent()));
    }
    position
        .moves()
        .iter()
        .map(|&m| {
            let mut child = *position;
            child.play(m);
            -exact_margin(&child)
        })
        .max()
        .unwrap()
}

/// Reads `tests/data/<name>`: one position per line, `#` comments and blank lines skipped.
pub fn positions(name: &str) -> Vec<Position> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|line| line.split('#').next().unwrap().trim())
        .filter(|line| !line.is_empty())
        .map(|line| line.parse().unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

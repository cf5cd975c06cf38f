//! Helpers shared by the integration tests: a move generator simple enough to trust, and
//! random positions reached by random play.

#![allow(dead_code)]

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{Cell, Move, Position, Square};

/// The book's `slow_moves_generation`: walk the eight directions square by square.
pub fn naive_moves(position: &Position) -> Vec<Move> {
    let side = position.side_to_move();
    let mut moves = Vec::new();
    for from in Square::all().filter(|&s| position.cell(s) == Cell::Piece(side)) {
        for (df, dr) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let mut at = from;
            while let Some(to) = at.offset(df, dr) {
                if position.cell(to) != Cell::Empty {
                    break;
                }
                moves.push(Move::new(from, to));
                at = to;
            }
        }
    }
    if moves.is_empty() {
        moves.push(Move::PASS);
    }
    moves.sort();
    moves
}

/// Every position of one random game from the start, the final one included.
pub fn random_game(seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::start();
    let mut positions = vec![position];
    while !position.game_over() {
        position.play(position.random_move(&mut rng));
        positions.push(position);
    }
    positions
}

/// Reads a data file of `tests/data`, dropping comment lines.
pub fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

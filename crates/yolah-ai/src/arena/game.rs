//! One game between two agents from an opening.

use crate::agent::Agent;
use crate::player::Report;
use std::time::Duration;
use yolah_core::{Color, Move, Outcome, Position};

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Every move from the start, the opening's included.
    pub moves: Vec<Move>,
    /// How many of the moves were the opening's.
    pub opening_plies: usize,
    /// The result.
    pub outcome: Outcome,
    /// Final scores, black's then white's.
    pub scores: [u8; 2],
    /// Total thinking time of black and of white.
    pub thinking: [Duration; 2],
    /// Longest single move of black and of white.
    pub longest: [Duration; 2],
}

/// Plays `opening` from the start, then lets `black` and `white` move in turn until the game
/// is over. `on_move` sees each agent's move with the position before it.
///
/// # Panics
/// If a player returns an illegal move: that is a bug in the player, not a user error.
pub fn play_game(
    black: &mut Agent,
    white: &mut Agent,
    opening: &[Move],
    mut on_move: impl FnMut(&Position, &Report),
) -> Game {
    let mut position = Position::start();
    let mut moves = Vec::with_capacity(128);
    for &m in opening {
        assert_eq!(position.check_move(m), Ok(()), "opening move {m}");
        position.play(m);
        moves.push(m);
    }
    let mut thinking = [Duration::ZERO; 2];
    let mut longest = [Duration::ZERO; 2];
    while !position.game_over() {
        let side = position.side_to_move();
        let agent = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let report = agent.choose(&position);
        if let Err(reason) = position.check_move(report.mv) {
            panic!(
                "{} played the illegal move {} in {position}: {reason}",
                agent.spec(),
                report.mv
            );
        }
        on_move(&position, &report);
        thinking[side.index()] += report.time;
        longest[side.index()] = longest[side.index()].max(report.time);
        position.play(report.mv);
        moves.push(report.mv);
    }
    Game {
        moves,
        opening_plies: opening.len(),
        outcome: position.outcome().expect("the game is over"),
        scores: [position.score(Color::Black), position.score(Color::White)],
        thinking,
        longest,
    }
}

//! One game between two agents from an opening.

use crate::agent::Agent;
use crate::arena::opening::Opening;
use crate::clock::{GameClocks, TimeControl};
use crate::player::Report;
use std::time::{Duration, Instant};
use yolah_core::{Color, Move, Outcome, Position};

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The position the game started from (the start, or a suite's position).
    pub start: Position,
    /// Every move from `start`, the opening's included.
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
    /// Why the side to move at the end lost without moving (an external program that
    /// failed, or a clock that ran out); `None` for a game played to its end.
    pub forfeit: Option<String>,
    /// With a game clock, the time black and white had left at the end.
    pub clock_left: Option<[Duration; 2]>,
}

/// Plays `opening` from the start, then lets `black` and `white` move in turn until the game
/// is over, or a player forfeits it (and loses). `on_move` sees each agent's move with the
/// position before it.
///
/// # Panics
/// If a player of this process returns an illegal move: that is a bug in the player, not a
/// user error. (An external program's illegal move is its forfeit.)
pub fn play_game(
    black: &mut Agent,
    white: &mut Agent,
    opening: &[Move],
    on_move: impl FnMut(&Position, &Report),
) -> Game {
    let opening = Opening {
        start: Position::start(),
        moves: opening.to_vec(),
    };
    play_opening(black, white, &opening, None, on_move)
}

/// [`play_game`] from an opening that may start elsewhere than the start (a suite's
/// position), on a game clock if `control` sets one: each side's thinking (timed here, around
/// the player's call) is taken off its clock, and a side that thinks longer than it has left
/// loses on time, as a forfeit whose reason says so.
pub fn play_opening(
    black: &mut Agent,
    white: &mut Agent,
    opening: &Opening,
    control: Option<TimeControl>,
    mut on_move: impl FnMut(&Position, &Report),
) -> Game {
    let mut clocks = control.map(GameClocks::new);
    let mut position = opening.start;
    let mut moves = Vec::with_capacity(128);
    for &m in &opening.moves {
        assert_eq!(position.check_move(m), Ok(()), "opening move {m}");
        position.play(m);
        moves.push(m);
    }
    let mut thinking = [Duration::ZERO; 2];
    let mut longest = [Duration::ZERO; 2];
    let mut forfeit = None;
    while !position.game_over() {
        let side = position.side_to_move();
        let agent = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let started = Instant::now();
        let chosen = agent.try_choose_on(&position, clocks.map(|c| c.view(side)));
        let used = started.elapsed();
        let on_time = clocks
            .as_mut()
            .map_or(Ok(()), |clocks| clocks.charge(side, used));
        thinking[side.index()] += used;
        longest[side.index()] = longest[side.index()].max(used);
        let report = match (chosen, on_time) {
            (_, Err(flag)) => {
                forfeit = Some(flag.to_string());
                break;
            }
            (Ok(report), Ok(())) => report,
            (Err(reason), Ok(())) => {
                forfeit = Some(reason.reason);
                break;
            }
        };
        if let Err(reason) = position.check_move(report.mv) {
            panic!(
                "{} played the illegal move {} in {position}: {reason}",
                agent.spec(),
                report.mv
            );
        }
        on_move(&position, &report);
        position.play(report.mv);
        moves.push(report.mv);
    }
    let outcome = match forfeit {
        Some(_) => Outcome::Win(position.side_to_move().opponent()),
        None => position.outcome().expect("the game is over"),
    };
    Game {
        start: opening.start,
        moves,
        opening_plies: opening.moves.len(),
        outcome,
        scores: [position.score(Color::Black), position.score(Color::White)],
        thinking,
        longest,
        forfeit,
        clock_left: clocks.map(|c| c.left()),
    }
}

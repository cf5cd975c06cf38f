//! One game between two agents from an opening.

use crate::agent::Agent;
use crate::arena::opening::Opening;
use crate::clock::{GameClocks, TimeControl};
use crate::player::Report;
use crate::search::regions::{AreaLimits, Regions};
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
    /// The game clocks of black and white, if the game had clocks.
    pub time_controls: Option<[TimeControl; 2]>,
    /// Whether the game was stopped once its result was proved ([`adjudication`]): the
    /// scores are then the proved final scores, not those of the last position.
    pub adjudicated: bool,
}

/// How the arbiter runs a game besides the players: the clocks and adjudication.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arbiter {
    /// Black's and white's game clocks, if the game has clocks.
    pub clocks: Option<[TimeControl; 2]>,
    /// Whether a game ends as soon as its final scores are proved ([`adjudication`]).
    pub adjudicate: bool,
}

/// The one-player search an adjudication may spend on a position: areas of any size, a
/// budget that keeps each try within a few milliseconds. Each try starts from an empty cache,
/// so a record's proof is found again, the same way, when the record is read back.
pub const ADJUDICATION_LIMITS: AreaLimits = AreaLimits {
    area: 64,
    budget: 50_000,
};

/// The proved final scores of `position` (black's, white's) when the game is not over yet
/// but its result no longer depends on anything but each side's own longest run of moves:
/// the sides can no longer meet ([`Regions::separated_scores`]) and every area was solved
/// within [`ADJUDICATION_LIMITS`]. `None` otherwise.
pub fn adjudication(position: &Position) -> Option<[u8; 2]> {
    if position.game_over() {
        return None;
    }
    let scores = Regions::new().separated_scores(position, ADJUDICATION_LIMITS)?;
    Some(scores.map(|s| u8::try_from(s).expect("a score fits the board")))
}

/// Plays `opening` from the start, then lets `black` and `white` move in turn until the game
/// is over, or a player forfeits it (and loses). `on_move` sees each agent's move with the
/// position before it.
///
/// # Panics
/// If a player of this process returns an illegal move: that is a bug in the player, not a
/// user error. (An external program's illegal move is its forfeit.)
///
/// ```
/// use yolah_ai::Spec;
/// use yolah_ai::arena::game::play_game;
/// let (black, white): (Spec, Spec) = ("minimax:depth=2".parse().unwrap(), "random".parse().unwrap());
/// let mut plies = 0;
/// let game = play_game(&mut black.agent(1), &mut white.agent(2), &[], |_, _| plies += 1);
/// assert_eq!(plies, game.moves.len());
/// assert_eq!(game.outcome, yolah_core::Outcome::from_scores(game.scores[0], game.scores[1]));
/// ```
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
    play_opening(black, white, &opening, Arbiter::default(), on_move)
}

/// [`play_game`] from an opening that may start elsewhere than the start (a suite's
/// position), run by `arbiter`: on game clocks if it sets them, each side's thinking (timed
/// here, around the player's call) is taken off its clock, and a side that thinks longer than
/// it has left loses on time, as a forfeit whose reason says so; with adjudication, the game
/// ends before a move once its final scores are proved.
pub fn play_opening(
    black: &mut Agent,
    white: &mut Agent,
    opening: &Opening,
    arbiter: Arbiter,
    mut on_move: impl FnMut(&Position, &Report),
) -> Game {
    let mut clocks = arbiter.clocks.map(GameClocks::new);
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
    let mut proved = None;
    while !position.game_over() {
        if arbiter.adjudicate {
            proved = adjudication(&position);
            if proved.is_some() {
                break;
            }
        }
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
    let scores = proved.unwrap_or([position.score(Color::Black), position.score(Color::White)]);
    let outcome = match (&forfeit, proved) {
        (Some(_), _) => Outcome::Win(position.side_to_move().opponent()),
        (None, Some(_)) => Outcome::from_scores(scores[0], scores[1]),
        (None, None) => position.outcome().expect("the game is over"),
    };
    Game {
        start: opening.start,
        moves,
        opening_plies: opening.moves.len(),
        outcome,
        scores,
        thinking,
        longest,
        forfeit,
        clock_left: clocks.map(|c| c.left()),
        time_controls: arbiter.clocks,
        adjudicated: proved.is_some(),
    }
}

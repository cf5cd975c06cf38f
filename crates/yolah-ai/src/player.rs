//! The one interface of all players (book chapter 3): a position and limits in, a move and a
//! report out.

use crate::limits::Limits;
use std::fmt;
use std::time::Duration;
use yolah_core::{Move, Position};

/// An artificial player. It may keep state between moves of a game (MCTS keeps its tree), so
/// one instance plays one game at a time; a new game is recognised from the position.
pub trait Player: Send {
    /// Chooses a legal move for the side to move in `position`, which is not over: the pass
    /// when the side has no move. Honours `limits` (see [`Limits`]).
    fn choose(&mut self, position: &Position, limits: Limits) -> Report;

    /// [`Player::choose`], telling `progress` what the search has found so far whenever it
    /// knows more (minimax: after each iteration of its deepening). Players with nothing to
    /// tell along the way just choose.
    fn choose_observed(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Report {
        let _ = progress;
        self.choose(position, limits)
    }

    /// [`Player::choose`], or the reason the player cannot move and so loses the game: an
    /// external program that crashed, hung, talked nonsense or sent an illegal move. Players
    /// in this process always move.
    fn try_choose(&mut self, position: &Position, limits: Limits) -> Result<Report, Forfeit> {
        Ok(self.choose(position, limits))
    }
}

/// Why a player lost a game without finishing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// What went wrong, one line.
    pub reason: String,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// What a player says of the move it chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The move.
    pub mv: Move,
    /// The player's estimate of its expected score from here, 0 (loss) to 1 (win), if any.
    pub value: Option<f64>,
    /// Iterations done: playouts for Monte Carlo, tree walks for MCTS, 0 for random.
    pub iterations: u64,
    /// Time spent choosing.
    pub time: Duration,
    /// Search depth of the last finished iteration (minimax).
    pub depth: Option<u32>,
    /// The final margin the player expects for the side to move (minimax).
    pub margin: Option<Margin>,
    /// Positions searched (minimax).
    pub nodes: Option<u64>,
    /// The principal variation, starting with the move; empty when the player has none.
    pub pv: Vec<Move>,
    /// Whether the move came from the opening book (minimax), not from a search.
    pub book: bool,
    /// Whatever else the algorithm knows (principal variation, tree size, reuse), one line.
    pub detail: String,
}

/// An expected final margin, in points for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Margin {
    /// The margin.
    pub points: f64,
    /// Whether it is exact: every line was searched to the end of the game.
    pub proved: bool,
}

impl Report {
    /// A report of `mv` found in `time`, with nothing else known yet.
    pub fn new(mv: Move, time: Duration) -> Report {
        Report {
            mv,
            value: None,
            iterations: 0,
            time,
            depth: None,
            margin: None,
            nodes: None,
            pv: Vec::new(),
            book: false,
            detail: String::new(),
        }
    }

    /// The report of a move played without search: the side had no other.
    pub fn only_move(mv: Move, time: Duration) -> Report {
        Report {
            detail: "only move".to_string(),
            ..Report::new(mv, time)
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        let ms = self.time.as_secs_f64() * 1e3;
        if self.nodes.is_some() {
            // A search that counts nodes says its depth, score and nodes in its detail.
            write!(f, " in {ms:.1} ms")?;
        } else if self.iterations > 0 {
            if let Some(value) = self.value {
                write!(f, ", expected score {value:.3}")?;
            }
            let rate = self.iterations as f64 / self.time.as_secs_f64().max(1e-9);
            write!(
                f,
                ", {} iterations in {ms:.1} ms ({:.0} k/s)",
                self.iterations,
                rate / 1e3
            )?;
        } else {
            if let Some(value) = self.value {
                write!(f, ", expected score {value:.3}")?;
            }
            write!(f, " in {ms:.2} ms")?;
        }
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        Ok(())
    }
}

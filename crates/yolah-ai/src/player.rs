//! The one interface of all players (book chapter 3): a position and limits in, a move and a
//! report out.

use crate::limits::Limits;
use crate::options::{Conflict, OptionInfo, Options};
use std::fmt;
use std::time::Duration;
use yolah_core::{Move, Position};

/// An artificial player. It may keep state between moves of a game (MCTS keeps its tree), so
/// one instance plays one game at a time; a new game is recognised from the position.
///
/// A player implements one method, [`Player::think`]; the others are built on it.
pub trait Player: Send {
    /// Chooses a legal move for the side to move in `position`, which is not over: the pass
    /// when the side has no move. Honours `limits` (see [`Limits`]), and tells `progress` what
    /// the search has found so far whenever it knows more (minimax: after each iteration of
    /// its deepening; players with nothing to tell along the way never call it). Fails only
    /// for the reason the player cannot move and so loses the game: an external program that
    /// crashed, hung, talked nonsense or sent an illegal move. Players in this process always
    /// move.
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit>;

    /// [`Player::think`] without progress reports, for callers that cannot take a forfeit: a
    /// failing player's move is replaced by the first legal move, and the report says why.
    fn choose(&mut self, position: &Position, limits: Limits) -> Report {
        self.choose_observed(position, limits, &mut |_| {})
    }

    /// [`Player::think`] for callers that cannot take a forfeit (see [`Player::choose`]).
    fn choose_observed(
        &mut self,
        position: &Position,
        limits: Limits,
        progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Report {
        let start = std::time::Instant::now();
        self.think(position, limits, progress)
            .unwrap_or_else(|forfeit| Report {
                detail: format!(
                    "forfeit ({}); the first legal move played instead",
                    forfeit.reason
                ),
                ..Report::new(position.moves()[0], start.elapsed())
            })
    }

    /// [`Player::think`] without progress reports.
    fn try_choose(&mut self, position: &Position, limits: Limits) -> Result<Report, Forfeit> {
        self.think(position, limits, &mut |_| {})
    }
}

/// One kind of player, as its family declares it beside its code; the catalogue
/// ([`crate::catalogue::PLAYERS`]) lists them all.
#[derive(Debug)]
pub struct PlayerInfo {
    /// Its name in specs.
    pub name: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    /// Its options.
    pub options: &'static [OptionInfo],
    /// Builds the player from its checked options, with this seed.
    pub build: fn(&Options, u64) -> Box<dyn Player>,
    /// Whether its moves may differ between games given different seeds (an engine's, which
    /// we cannot tell, counts as yes). One that does not, searching without a time limit on
    /// one thread, plays the same game again from the same opening.
    pub seeded: bool,
    /// Checks what single options cannot (options that do not go together).
    pub check: fn(&Options) -> Result<(), Conflict>,
    /// The most memory the player holds with these options, MiB (its tables or trees).
    pub memory_mb: fn(&Options) -> u64,
}

/// A [`PlayerInfo::check`] for players whose options all go together.
pub fn no_conflicts(_: &Options) -> Result<(), Conflict> {
    Ok(())
}

/// A [`PlayerInfo::memory_mb`] for players without tables or trees.
pub fn small(_: &Options) -> u64 {
    1
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
    /// The best lines with their margins, best first, when the player was asked for more
    /// than one (minimax's `lines=N`, multi-PV); the first is `pv`'s. Empty otherwise.
    pub lines: Vec<Line>,
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

/// One of a search's best lines (multi-PV): its moves and what they lead to.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The moves, starting with a move of the position searched.
    pub pv: Vec<Move>,
    /// The final margin this line leads to, for the side to move.
    pub margin: Margin,
    /// The expected score, 0 (loss) to 1 (win), for the side to move.
    pub value: f64,
}

impl fmt::Display for Line {
    /// `+1.35 e4:c2 h8:g7 …`, or `win by 3 (proved) …`: the margin for the side to move, then
    /// the moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = self.margin.points;
        if self.margin.proved {
            match points.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => write!(f, "win by {points}")?,
                Some(std::cmp::Ordering::Less) => write!(f, "loss by {}", -points)?,
                _ => f.write_str("draw")?,
            }
            f.write_str(" (proved)")?;
        } else {
            write!(f, "{points:+.2}")?;
        }
        for m in &self.pv {
            write!(f, " {m}")?;
        }
        Ok(())
    }
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
            lines: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A player that implements only the required method: plays the first legal move, or
    /// forfeits when told to.
    struct First {
        fail: bool,
    }

    impl Player for First {
        fn think(
            &mut self,
            position: &Position,
            _limits: Limits,
            progress: &mut (dyn FnMut(&Report) + Send),
        ) -> Result<Report, Forfeit> {
            if self.fail {
                return Err(Forfeit {
                    reason: "told to fail".to_string(),
                });
            }
            let report = Report::new(position.moves()[0], Duration::ZERO);
            progress(&report);
            Ok(report)
        }
    }

    #[test]
    fn a_player_with_only_the_required_method_has_all_the_others() {
        let start = Position::start();
        let first = start.moves()[0];
        let mut player = First { fail: false };
        assert_eq!(player.choose(&start, Limits::default()).mv, first);
        assert_eq!(
            player.try_choose(&start, Limits::default()).unwrap().mv,
            first
        );
        let mut told = 0;
        let report = player.choose_observed(&start, Limits::default(), &mut |_| told += 1);
        assert_eq!((report.mv, told), (first, 1));

        let mut failing = First { fail: true };
        assert_eq!(
            failing
                .try_choose(&start, Limits::default())
                .unwrap_err()
                .reason,
            "told to fail"
        );
        let replaced = failing.choose(&start, Limits::default());
        assert_eq!(replaced.mv, first);
        assert!(
            replaced.detail.contains("told to fail"),
            "{}",
            replaced.detail
        );
    }
}

//! [`Agent`]: a player together with the spec it was built from and the limits that spec sets.

use crate::clock::Clock;
use crate::limits::Limits;
use crate::player::{Forfeit, Player, Report};
use crate::spec::Spec;
use yolah_core::Position;
use yolah_core::zobrist::splitmix64;

/// A player together with the spec it was built from and the limits that spec sets.
pub struct Agent {
    spec: Spec,
    player: Box<dyn Player>,
    limits: Limits,
}

impl Agent {
    /// An agent playing `player` under `spec`'s name and limits: for players built otherwise
    /// than from the spec alone (the genetic algorithm's weights, say).
    pub fn new(spec: Spec, player: Box<dyn Player>) -> Agent {
        let limits = spec.limits();
        Agent {
            spec,
            player,
            limits,
        }
    }

    /// Chooses a move within the spec's limits.
    pub fn choose(&mut self, position: &Position) -> Report {
        self.player.choose(position, self.limits)
    }

    /// Chooses a move within the spec's limits, or forfeits (see [`Player::try_choose`]).
    pub fn try_choose(&mut self, position: &Position) -> Result<Report, Forfeit> {
        self.player.try_choose(position, self.limits)
    }

    /// [`Agent::try_choose`] on a game clock: the move takes its share of the time left (see
    /// [`Clock::allotment`]), within the spec's own time if it sets one.
    pub fn try_choose_on(
        &mut self,
        position: &Position,
        clock: Option<Clock>,
    ) -> Result<Report, Forfeit> {
        let limits = match clock {
            Some(clock) => {
                self.limits
                    .on_clock(clock, position, self.spec.explicit_time(), self.spec.pace())
            }
            None => self.limits,
        };
        self.player.try_choose(position, limits)
    }

    /// The spec this agent was built from.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }
}

impl Spec {
    /// Builds the player; its seed is the spec's, or `seed` when the spec sets none.
    pub fn agent(&self, seed: u64) -> Agent {
        Agent::new(self.clone(), self.player(seed))
    }

    /// Builds the player for one game of many (a match, a tournament, self-play), whose own
    /// seed is `game_seed`: a spec's seed is mixed with it, so that `random:seed=1` plays a
    /// different, reproducible game each time and a match's games are independent; a spec
    /// without a seed takes `game_seed`.
    pub fn agent_for_game(&self, game_seed: u64) -> Agent {
        let seed = match self.seed() {
            Some(own) => splitmix64(own ^ splitmix64(game_seed)),
            None => game_seed,
        };
        Agent::new(self.clone(), (self.info().build)(self.options(), seed))
    }
}

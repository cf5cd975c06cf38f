//! [`Agent`]: a player together with the spec it was built from and the limits that spec sets.

use crate::limits::Limits;
use crate::player::{Forfeit, Player, Report};
use crate::spec::Spec;
use yolah_core::Position;

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
}

//! The random player: a uniformly random legal move.

use crate::limits::Limits;
use crate::options::SEED;
use crate::player::{Forfeit, Player, PlayerInfo, Report, no_conflicts, small};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Instant;
use yolah_core::Position;

/// Plays a uniformly random legal move (the pass when it has none).
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn think(
        &mut self,
        position: &Position,
        _limits: Limits,
        _progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        let start = Instant::now();
        let mv = position.random_move(&mut self.rng);
        Ok(Report::new(mv, start.elapsed()))
    }
}

/// This player in specs: its name, options and how a spec builds it.
pub(crate) const PLAYER: PlayerInfo = PlayerInfo {
    name: "random",
    about: "plays a uniformly random legal move",
    options: &[SEED],
    seeded: true,
    build: |_, seed| Box::new(RandomPlayer::new(seed)),
    check: no_conflicts,
    memory_mb: small,
};

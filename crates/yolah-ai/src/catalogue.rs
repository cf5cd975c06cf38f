//! The catalogue of players, above them all: every kind of player by name, with its options
//! and how to build it. Each family declares its own [`PlayerInfo`] beside its code; adding a
//! player is a new family and one line here.

use crate::player::PlayerInfo;
use crate::players::{alphazero, engine, mcts, minimax, montecarlo, random};

/// The player of every command, page and protocol session that is told none: the strongest
/// (minimax with the network, at its default 100 ms a move).
pub const DEFAULT_PLAYER: &str = "minimax:eval=nn";

/// Every player, with its options.
pub static PLAYERS: &[PlayerInfo] = &[
    random::PLAYER,
    montecarlo::PLAYER,
    mcts::PLAYER,
    minimax::PLAYER,
    alphazero::PLAYER,
    engine::PLAYER,
];

/// The player named `name`, its case ignored.
pub fn find(name: &str) -> Option<&'static PlayerInfo> {
    PLAYERS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

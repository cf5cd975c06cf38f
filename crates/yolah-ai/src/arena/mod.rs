//! Where players meet: games, openings, records, matches and tournaments, ratings.

pub mod game;
pub mod lock;
pub mod opening;
pub mod pgn;
pub mod ratings;
pub mod record;
pub mod shard;
pub mod source;
pub mod sprt;
pub mod tally;
pub mod tournament;

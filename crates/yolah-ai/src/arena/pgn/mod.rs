//! Game records other programs read: PGN-style text (`docs/pgn.md` has the grammar). Each
//! game is a block of tags — `[Name "value"]` — then its moves in our notation with move
//! numbers, and its result. Written by `match`, `tournament` and `gauntlet` with `--pgn`
//! (one block a game, appended as each game ends), read back by `yolah replay`.
//!
//! A block is written with one write, so a file cut by a kill ends with at most one partial
//! block; [`PgnWriter::open`] cuts it off, and a resumed run appends the games its record file
//! has and the PGN file lacks, so the two agree again.

mod game;
mod ours;
mod read;
mod tags;
#[cfg(test)]
mod tests;
mod write;

pub use game::{PgnGame, RESIGNED};
pub use read::{BYTE_ORDER_MARK, MAX_GAME_TEXT, MAX_LINE, PgnError, PgnReader, parse};
pub use write::{Event, PgnWriter, block, date, time_control_tag, today};

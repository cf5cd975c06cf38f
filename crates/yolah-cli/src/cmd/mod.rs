//! One module per subcommand, and the helpers they share.

pub mod moves;
pub mod perft;
pub mod random_games;
pub mod replay;
pub mod show;

use anyhow::{Context, Result};
use yolah_core::Position;

/// The position given with `--position`, or the start.
pub fn position_arg(text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(text) => text
            .parse()
            .with_context(|| format!("bad position '{text}'")),
    }
}

//! One module per subcommand, and the helpers they share.

pub mod moves;
pub mod perft;
pub mod play;
pub mod players;
pub mod random_games;
pub mod replay;
pub mod show;
pub mod standings;
pub mod tournament;
pub mod versus;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
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

/// The legal moves, sorted as strings, space-separated.
pub fn sorted_moves(position: &Position) -> String {
    let mut moves: Vec<String> = position.moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves.join(" ")
}

/// A progress bar on stderr (hidden when stderr is not a terminal) counting `what`.
pub fn progress_bar(len: u64, what: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}, {{per_sec}}, eta {{eta}}"
        ))
        .expect("the template is valid"),
    )
}

/// The number of cores: the default number of games played at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

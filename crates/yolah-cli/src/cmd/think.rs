//! `yolah think <spec>`: one search from a position; prints the player's report, whose first
//! word is the move.

use super::position_arg;
use anyhow::{Context, Result, ensure};
use std::io::Write;
use yolah_ai::Spec;

pub fn run(
    out: &mut impl Write,
    spec: &str,
    position: Option<&str>,
    seed: Option<u64>,
) -> Result<()> {
    let position = position_arg(position)?;
    ensure!(
        !position.game_over(),
        "the game is over: there is no move to choose"
    );
    let spec: Spec = spec
        .parse()
        .with_context(|| format!("bad player {}", super::quote(spec)))?;
    let report = spec
        .agent(seed.unwrap_or_else(rand::random))
        .try_choose(&position)
        .map_err(|forfeit| anyhow::anyhow!("{spec} cannot move: {forfeit}"))?;
    writeln!(out, "{report}")?;
    Ok(())
}

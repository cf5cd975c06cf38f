//! `yolah show`: the board with the reachable squares crossed.

use super::PositionArg;
use anyhow::Result;
use std::io::Write;
use yolah_core::Diagram;

pub fn run(out: &mut impl Write, position: &PositionArg) -> Result<()> {
    let position = position.get()?;
    writeln!(out, "{}", Diagram::with_targets(&position))?;
    writeln!(out, "{position}")?;
    Ok(())
}

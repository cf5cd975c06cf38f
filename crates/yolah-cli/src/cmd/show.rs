//! `yolah show`: the board with the reachable squares crossed.

use super::position_arg;
use anyhow::Result;
use std::io::Write;
use yolah_core::Diagram;

pub fn run(out: &mut impl Write, position: Option<&str>) -> Result<()> {
    let position = position_arg(position)?;
    writeln!(out, "{}", Diagram::with_targets(&position))?;
    writeln!(out, "{position}")?;
    Ok(())
}

//! `yolah moves`: the legal moves, sorted as strings, on one line.

use super::{position_arg, sorted_moves};
use anyhow::Result;
use std::io::Write;

pub fn run(out: &mut impl Write, position: Option<&str>) -> Result<()> {
    let position = position_arg(position)?;
    writeln!(out, "{}", sorted_moves(&position))?;
    Ok(())
}

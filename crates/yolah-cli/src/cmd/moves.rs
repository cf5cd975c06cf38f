//! `yolah moves`: the legal moves, sorted as strings, on one line.

use super::position_arg;
use anyhow::Result;
use std::io::Write;

pub fn run(out: &mut impl Write, position: Option<&str>) -> Result<()> {
    let position = position_arg(position)?;
    let mut moves: Vec<String> = position.moves().iter().map(ToString::to_string).collect();
    moves.sort();
    writeln!(out, "{}", moves.join(" "))?;
    Ok(())
}

//! `yolah moves`: the legal moves, sorted as strings, on one line. A finished game has none
//! (its line is empty), as `replay` has it: no move, not even a pass, follows the end.

use super::{PositionArg, sorted_moves};
use anyhow::Result;
use std::io::Write;

pub fn run(out: &mut impl Write, position: &PositionArg) -> Result<()> {
    let position = position.get()?;
    if position.game_over() {
        eprintln!("the game is over: no moves");
        writeln!(out)?;
    } else {
        writeln!(out, "{}", sorted_moves(&position))?;
    }
    Ok(())
}

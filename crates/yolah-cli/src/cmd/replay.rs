//! `yolah replay`: plays a list of moves, stopping at the first illegal one; or, with
//! `--game N`, the moves of game N of a record file (`yolah match --out`, a tournament's
//! `games.csv`).

use super::position_arg;
use anyhow::{Context, Result, bail};
use std::io::{Read, Write};
use std::path::Path;
use yolah_ai::arena::record::read_records;
use yolah_core::{Diagram, Move};

pub fn run(
    out: &mut impl Write,
    file: Option<&Path>,
    position: Option<&str>,
    game: Option<u64>,
) -> Result<()> {
    let mut position = position_arg(position)?;
    let text = match game {
        Some(number) => {
            let Some(path) = file.filter(|p| *p != Path::new("-")) else {
                bail!("--game needs a record file");
            };
            let records = read_records(path)?;
            let record = records
                .into_iter()
                .find(|r| r.game == number)
                .with_context(|| format!("'{}' has no game {number}", path.display()))?;
            writeln!(
                out,
                "game {number}: {} (black) vs {} (white), {} {}-{}",
                record.black, record.white, record.result, record.black_score, record.white_score
            )?;
            record.moves
        }
        None => read_input(file)?,
    };
    let tokens = text
        .lines()
        .flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace());
    for (number, token) in (1..).zip(tokens) {
        let side = position.side_to_move();
        let m: Move = token
            .parse()
            .with_context(|| format!("move {number} '{token}'"))?;
        if position.game_over() {
            bail!(
                "move {number} '{token}': the game is already over after ply {}",
                position.ply()
            );
        }
        if let Err(reason) = position.check_move(m) {
            bail!("move {number} '{token}' ({side} to play) is illegal: {reason}");
        }
        position.play(m);
    }
    writeln!(out, "{}", Diagram::new(&position))?;
    writeln!(out, "{position}")?;
    Ok(())
}

fn read_input(file: Option<&Path>) -> Result<String> {
    let mut text = String::new();
    match file {
        None => std::io::stdin()
            .read_to_string(&mut text)
            .context("reading moves from stdin")?,
        Some(path) if path == Path::new("-") => std::io::stdin()
            .read_to_string(&mut text)
            .context("reading moves from stdin")?,
        Some(path) => std::fs::File::open(path)
            .and_then(|mut f| f.read_to_string(&mut text))
            .with_context(|| format!("cannot read '{}'", path.display()))?,
    };
    Ok(text)
}

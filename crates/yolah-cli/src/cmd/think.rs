//! `yolah think [SPEC]`: one search from a position; prints the player's report, whose first
//! word is the move, or with `--json` one object with the same facts.

use super::PositionArg;
use super::{DEFAULT_SEED, parse_spec};
use anyhow::{Result, ensure};
use std::io::Write;
use yolah_ai::Report;
use yolah_ai::catalogue::DEFAULT_PLAYER;

/// The options of `yolah think`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The player, `name[:option=value,…]` like `mcts:time=1s` (`yolah players` lists them).
    #[arg(value_name = "SPEC", default_value = DEFAULT_PLAYER)]
    pub spec: String,
    #[command(flatten)]
    pub position: PositionArg,
    /// Seed of a player without one [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Print one JSON object (move, value, depth, iterations, nodes, `time_ms`, pv, …).
    #[arg(long)]
    pub json: bool,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let (spec, seed, json) = (&options.spec, options.seed, options.json);
    let position = options.position.get()?;
    ensure!(
        !position.game_over(),
        "the game is over: there is no move to choose"
    );
    let spec = parse_spec(spec)?;
    let report = spec
        .agent(seed.unwrap_or(DEFAULT_SEED))
        .try_choose(&position)
        .map_err(|forfeit| anyhow::anyhow!("{spec} cannot move: {forfeit}"))?;
    if json {
        writeln!(out, "{}", report_json(&spec.to_string(), &report))?;
    } else {
        writeln!(out, "{report}")?;
        for (k, line) in report.lines.iter().enumerate() {
            writeln!(out, "line {}: {line}", k + 1)?;
        }
    }
    Ok(())
}

/// A report as one JSON object: what the text says, as fields.
pub fn report_json(player: &str, report: &Report) -> serde_json::Value {
    serde_json::json!({
        "player": player,
        "move": report.mv.to_string(),
        "value": report.value,
        "margin": report.margin.map(|m| m.points),
        "proved": report.margin.map(|m| m.proved),
        "depth": report.depth,
        "iterations": report.iterations,
        "nodes": report.nodes,
        "time_ms": report.time.as_secs_f64() * 1e3,
        "pv": report.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "lines": report.lines.iter().map(|line| serde_json::json!({
            "margin": line.margin.points,
            "proved": line.margin.proved,
            "value": line.value,
            "pv": line.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "book": report.book,
        "detail": report.detail,
    })
}

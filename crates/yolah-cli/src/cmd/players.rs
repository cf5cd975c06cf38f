//! `yolah players`: every player, its options and their defaults; `--tunable NAME`: a player's
//! tunable constants as a table (name, default, min, max, step), what `yolah tune` moves.

use anyhow::Result;
use std::io::Write;
use yolah_ai::PLAYERS;
use yolah_ai::options::ValueKind;

/// The options of `yolah players`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Only this player's tunable constants, one a line: name, default, min, max, step.
    #[arg(long, value_name = "PLAYER")]
    pub tunable: Option<String>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(name) = &options.tunable {
        return tunable(out, name);
    }
    writeln!(
        out,
        "A player is given as a spec: name[:option=value,...]\n"
    )?;
    for player in PLAYERS {
        writeln!(out, "{:<12}{}", player.name, player.about)?;
        for option in player.options {
            writeln!(out, "    {:<12}{}", option.name, option.help)?;
            writeln!(out, "    {:<12}  value: {}", "", option.kind.expected())?;
            writeln!(out, "    {:<12}  default: {}", "", option.default)?;
        }
        if player.name == "engine" {
            writeln!(
                out,
                "    {:<12}sent to the program after its handshake (setoption name NAME value VALUE); before cmd",
                "option.NAME"
            )?;
            writeln!(
                out,
                "    {:<12}  value: any text the program takes; it must list NAME among its options",
                ""
            )?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "every player, in match and tournament:\n    {:<12}its own game clock, overriding --tc (a time-odds match)\n    {:<12}  value: BASE[+INC], like 10s+100ms\n",
        "tc", ""
    )?;
    writeln!(
        out,
        "examples: {}  (the default: the strongest)\n          minimax:time=1s,eval=nn  minimax:depth=8  minimax:nodes=200000,tt=64\n          mcts:time=1s,threads=2  montecarlo:time=100ms  random:seed=7\n          minimax:weights=FILE  minimax:net=FILE  engine:time=100ms,cmd=PROGRAM ARGS\n          engine:option.Hash=64,cmd=yolah engine  minimax:tc=2s+20ms",
        yolah_ai::catalogue::DEFAULT_PLAYER
    )?;
    Ok(())
}

/// The tunable options of player `name` as a table.
fn tunable(out: &mut impl Write, name: &str) -> Result<()> {
    let Some(player) = PLAYERS.iter().find(|p| p.name == name) else {
        let names: Vec<&str> = PLAYERS.iter().map(|p| p.name).collect();
        return Err(super::UsageError(format!(
            "--tunable {}: no such player (players: {})",
            super::quote(name),
            names.join(", ")
        ))
        .into());
    };
    let rows: Vec<_> = player
        .options
        .iter()
        .filter_map(|o| match o.kind {
            ValueKind::Tunable { min, max, step } => Some((o.name, o.default, min, max, step)),
            _ => None,
        })
        .collect();
    if rows.is_empty() {
        return Err(super::UsageError(format!("{name} has no tunable constants")).into());
    }
    writeln!(
        out,
        "{:<12} {:>8} {:>8} {:>8} {:>6}",
        "name", "default", "min", "max", "step"
    )?;
    for (name, default, min, max, step) in rows {
        writeln!(out, "{name:<12} {default:>8} {min:>8} {max:>8} {step:>6}")?;
    }
    Ok(())
}

//! `yolah players`: every player, its options and their defaults.

use anyhow::Result;
use std::io::Write;
use yolah_ai::PLAYERS;

pub fn run(out: &mut impl Write) -> Result<()> {
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

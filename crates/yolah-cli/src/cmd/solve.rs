//! `yolah solve [-p P]`: the exact final margin with best play, and the line that reaches it.
//! Each deepening iteration is reported on stderr, so a long solve shows its progress.

use super::{position_arg, usage};
use anyhow::{Result, ensure};

use std::io::Write;
use yolah_ai::Limits;
use yolah_ai::players::minimax::{MAX_PLY, Minimax, proven_margin};

/// The options of `yolah solve`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The position, in notation or `startpos`, then optionally `moves m1 m2 …` played from
    /// it [default: startpos]; give one with about 24 free squares or fewer (the start
    /// cannot be solved in any --time).
    #[arg(long, short, value_name = "POSITION")]
    pub position: Option<String>,
    /// Transposition table, 1 to 16384 MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub tt: usize,
    /// Search threads sharing the table, 1 to 256 (no more than the cores are used).
    #[arg(long, short, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Give up after this long, 1s to 1h: "not proved within …", exit 1.
    #[arg(long, value_name = "DURATION", default_value = "1min")]
    pub time: String,
    /// Print one JSON object (margin, pv, nodes, `time_ms`).
    #[arg(long)]
    pub json: bool,
}

/// The largest table and thread count a solve accepts.
pub const MAX_TT_MB: usize = 16_384;
pub const MAX_THREADS: usize = 256;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    usage!(
        (1..=MAX_TT_MB).contains(&options.tt),
        "--tt must be from 1 to {MAX_TT_MB} MiB, not {}",
        options.tt
    );
    usage!(
        (1..=MAX_THREADS).contains(&options.threads),
        "--threads must be from 1 to {MAX_THREADS}, not {}",
        options.threads
    );
    let time = yolah_ai::options::parse_duration(&options.time).filter(|t| t.as_secs() >= 1);
    usage!(
        time.is_some(),
        "--time must be a duration from 1s to 1h, like 30s or 5min, not {}",
        super::quote(&options.time)
    );
    let time = time.expect("checked above");
    let position = position_arg(options.position.as_deref())?;
    let us = position.side_to_move();
    let them = us.opponent();
    let (margin, pv, nodes, seconds) = if position.game_over() {
        let margin = i32::from(position.score(us)) - i32::from(position.score(them));
        (margin, Vec::new(), 0, 0.0)
    } else {
        let mut player = Minimax::solver(options.tt, options.threads);
        let limits = Limits {
            time: Some(time),
            ..Limits::default()
        };
        let outcome = player.search_with(&position, limits, |iteration| {
            eprintln!(
                "depth {:>3}: {}, {} nodes, {:.2} s",
                iteration.depth,
                iteration.score_text(),
                iteration.nodes,
                iteration.time.as_secs_f64()
            );
        });
        let free = 64 - position.occupied().count();
        // A search deeper than the game can last proves its value, so a search that went as
        // deep as a search goes without a proof is a defect; any other stopped on its time.
        let deepest = outcome.depth as usize + 1 >= MAX_PLY;
        ensure!(
            outcome.proven || deepest,
            "not proved within {}: the search reached depth {} ({free} free squares; about 24 \
             or fewer solve in seconds; a longer --time may do)",
            yolah_ai::clock::duration_text(time),
            outcome.depth,
        );
        ensure!(
            outcome.proven,
            "the search reached depth {} without a proof ({free} free squares): a defect of \
             the solver; please report the position",
            outcome.depth,
        );
        let margin = proven_margin(outcome.value).unwrap_or(0);
        let pv: Vec<String> = outcome.pv.iter().map(ToString::to_string).collect();
        (margin, pv, outcome.nodes, outcome.time.as_secs_f64())
    };
    let verdict = match margin {
        0 => "a draw".to_string(),
        m if m > 0 => format!("{us} wins by {m}"),
        m => format!("{them} wins by {}", -m),
    };
    if options.json {
        let object = serde_json::json!({
            "position": position.to_string(),
            "side": us.to_string(),
            "margin": margin,
            "verdict": verdict,
            "pv": pv,
            "nodes": nodes,
            "time_ms": seconds * 1e3,
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    if !position.game_over() {
        writeln!(out, "pv {}", pv.join(" "))?;
        writeln!(
            out,
            "nodes {nodes} in {seconds:.3} s ({:.2} M/s)",
            nodes as f64 / seconds.max(1e-9) / 1e6
        )?;
    }
    writeln!(out, "margin {margin:+} for {us} to move: {verdict}")?;
    Ok(())
}

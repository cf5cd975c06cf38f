//! `yolah perft <depth>`: leaf count on stdout, time and rate on stderr.

use super::PositionArg;
use super::usage;
use anyhow::Result;

use std::io::Write;
use std::time::Instant;
use yolah_core::perft::{MAX_DEPTH, perft_parallel};

/// The options of `yolah perft`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Depth in plies, 0 to 20.
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArg,
    /// Print one JSON object (depth, leaves, `time_ms`, threads).
    #[arg(long)]
    pub json: bool,
    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let (depth, json) = (options.depth, options.json);
    usage!(
        depth <= MAX_DEPTH,
        "depth {depth} is too deep (at most {MAX_DEPTH})"
    );
    let threads = super::threads(options.threads)?;
    let position = options.position.get()?;
    let pool = yolah_ai::arena::tournament::game_pool(threads).map_err(anyhow::Error::msg)?;
    let start = Instant::now();
    let leaves = pool.install(|| perft_parallel(&position, depth));
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) in {seconds:.3} s, {:.0} leaves/s, {threads} thread{}",
        leaves as f64 / seconds.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    if json {
        let object = serde_json::json!({
            "position": position.to_string(),
            "depth": depth,
            "leaves": leaves,
            "time_ms": seconds * 1e3,
            "threads": threads,
        });
        writeln!(out, "{object}")?;
    } else {
        writeln!(out, "{leaves}")?;
    }
    Ok(())
}

//! `yolah bench [--depth D]`: the fixed bench positions searched to a fixed depth, one thread;
//! per-position lines on stderr, total nodes (the search's signature) and nodes/s on stdout,
//! with the heuristic evaluation and then with the shipped network (`nn` lines).

use super::usage;
use anyhow::Result;
use std::io::Write;
use yolah_ai::eval::{Network, Weights};
use yolah_ai::search::bench;

/// The options of `yolah bench`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Depth of each search, 1 to 14 [default: 8].
    #[arg(long, short, value_name = "DEPTH")]
    pub depth: Option<u32>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Deeper than this the bench runs for hours.
const MAX_DEPTH: u32 = 14;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let json = options.json;
    let depth = options.depth.unwrap_or(bench::DEFAULT_DEPTH);
    usage!(
        (1..=MAX_DEPTH).contains(&depth),
        "--depth must be from 1 to {MAX_DEPTH}, not {depth}"
    );
    let tell = |prefix: &'static str| {
        move |i: usize, outcome: &yolah_ai::players::minimax::Outcome| {
            eprintln!(
                "{prefix}position {:>2}: {:>9} nodes, {} {}",
                i + 1,
                outcome.nodes,
                outcome.mv,
                outcome.score_text()
            );
        }
    };
    let heuristic = bench::run(depth, Weights::tuned(), tell(""));
    let network = bench::run(depth, Network::shipped(), tell("nn "));
    if json {
        let part = |totals: &bench::Totals| {
            let seconds = totals.time.as_secs_f64().max(1e-9);
            serde_json::json!({
                "nodes": totals.nodes,
                "time_ms": seconds * 1e3,
                "nodes_per_second": (totals.nodes as f64 / seconds).round(),
            })
        };
        let object = serde_json::json!({
            "depth": depth,
            "heuristic": part(&heuristic),
            "network": part(&network),
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    writeln!(out, "depth {depth}")?;
    for (prefix, totals) in [("", heuristic), ("nn ", network)] {
        let seconds = totals.time.as_secs_f64().max(1e-9);
        writeln!(out, "{prefix}time {seconds:.3} s")?;
        writeln!(out, "{prefix}nodes/s {:.0}", totals.nodes as f64 / seconds)?;
        writeln!(out, "{prefix}nodes {}", totals.nodes)?;
    }
    Ok(())
}

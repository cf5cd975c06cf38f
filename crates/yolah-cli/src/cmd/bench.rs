//! `yolah bench [--depth D] [--net FILE…] [--path avx2|portable]`: the fixed bench positions
//! searched to a fixed depth, one thread, with that compiled copy of the search; per-position
//! lines on stderr, total nodes (the search's signature) and nodes/s on stdout, with the heuristic evaluation, then with the shipped network (`nn`
//! lines), then with each network given (`net N` lines, N from 1), so networks of every size
//! compare in one run.

use super::usage;
use anyhow::Result;
use std::io::Write;
use yolah_ai::eval::{Network, Weights};
use yolah_ai::players::minimax::Instructions;
use yolah_ai::search::bench;

/// The options of `yolah bench`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// Depth of each search, 1 to 14 [default: 8].
    #[arg(long, short, value_name = "DEPTH")]
    pub depth: Option<u32>,
    /// Also search with this network file (repeat for several).
    #[arg(long, value_name = "FILE")]
    pub net: Vec<std::path::PathBuf>,
    /// Which compiled copy of the search runs: `avx2` (x86-64-v3) or `portable` (the build's
    /// target CPU) [default: the fastest this CPU runs].
    #[arg(long, value_name = "avx2|portable")]
    pub path: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Deeper than this the bench runs for hours.
const MAX_DEPTH: u32 = 14;
/// The most networks one bench compares.
const MAX_NETWORKS: usize = 16;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let json = options.json;
    let depth = options.depth.unwrap_or(bench::DEFAULT_DEPTH);
    usage!(
        (1..=MAX_DEPTH).contains(&depth),
        "--depth must be from 1 to {MAX_DEPTH}, not {depth}"
    );
    usage!(
        options.net.len() <= MAX_NETWORKS,
        "--net: at most {MAX_NETWORKS} networks, not {}",
        options.net.len()
    );
    let instructions = instructions(options.path.as_deref())?;
    // Every file read and checked before any search.
    let mut networks = Vec::new();
    for path in &options.net {
        let network =
            Network::load(path).map_err(|e| anyhow::anyhow!("--net {}: {e}", path.display()))?;
        networks.push((path, std::sync::Arc::new(network)));
    }
    let tell = |prefix: String| {
        move |i: usize, outcome: &yolah_ai::players::minimax::SearchResult| {
            eprintln!(
                "{prefix}position {:>2}: {:>9} nodes, {} {}",
                i + 1,
                outcome.nodes,
                outcome.mv,
                outcome.score_text()
            );
        }
    };
    let heuristic = bench::run(depth, Weights::tuned(), instructions, tell(String::new()));
    let network = bench::run(
        depth,
        Network::shipped(),
        instructions,
        tell("nn ".to_string()),
    );
    let others: Vec<bench::Totals> = networks
        .iter()
        .enumerate()
        .map(|(i, (_, net))| {
            bench::run(
                depth,
                net.clone(),
                instructions,
                tell(format!("net {} ", i + 1)),
            )
        })
        .collect();
    if json {
        let part = |totals: &bench::Totals| {
            let seconds = totals.time.as_secs_f64().max(1e-9);
            serde_json::json!({
                "nodes": totals.nodes,
                "time_ms": seconds * 1e3,
                "nodes_per_second": (totals.nodes as f64 / seconds).round(),
            })
        };
        let nets: Vec<_> = networks
            .iter()
            .zip(&others)
            .map(|((path, net), totals)| {
                let mut object = part(totals);
                object["file"] = serde_json::json!(path.display().to_string());
                object["shape"] = serde_json::json!(net.shape().to_string());
                object
            })
            .collect();
        let mut shipped = part(&network);
        shipped["shape"] = serde_json::json!(Network::shipped().shape().to_string());
        let object = serde_json::json!({
            "depth": depth,
            "path": instructions.name(),
            "heuristic": part(&heuristic),
            "network": shipped,
            "networks": nets,
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    writeln!(out, "depth {depth}")?;
    writeln!(out, "path {}", instructions.name())?;
    let mut lines = vec![(String::new(), heuristic), ("nn ".to_string(), network)];
    for (i, ((path, net), totals)) in networks.iter().zip(others).enumerate() {
        writeln!(out, "net {} is {} ({})", i + 1, path.display(), net.shape())?;
        lines.push((format!("net {} ", i + 1), totals));
    }
    for (prefix, totals) in lines {
        let seconds = totals.time.as_secs_f64().max(1e-9);
        writeln!(out, "{prefix}time {seconds:.3} s")?;
        writeln!(out, "{prefix}nodes/s {:.0}", totals.nodes as f64 / seconds)?;
        writeln!(out, "{prefix}nodes {}", totals.nodes)?;
    }
    Ok(())
}

/// The copy of the search `--path` names, or the fastest this CPU runs.
fn instructions(path: Option<&str>) -> Result<Instructions> {
    Ok(match path {
        None => Instructions::best(),
        Some(name) => {
            let instructions = Instructions::named(name).ok_or_else(|| {
                super::UsageError(format!(
                    "--path {}: expected avx2 or portable",
                    super::quote(name)
                ))
            })?;
            anyhow::ensure!(
                instructions.available(),
                "--path {name}: this CPU lacks its instructions (AVX2, BMI1, BMI2, POPCNT, LZCNT, FMA); use portable"
            );
            instructions
        }
    })
}

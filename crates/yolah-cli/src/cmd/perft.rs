//! `yolah perft <depth>`: leaf count on stdout, time and rate on stderr.

use super::{position_arg, usage};
use anyhow::Result;

use std::io::Write;
use std::time::Instant;
use yolah_core::perft;
use yolah_core::perft::MAX_DEPTH;

pub fn run(out: &mut impl Write, depth: u32, position: Option<&str>, json: bool) -> Result<()> {
    usage!(
        depth <= MAX_DEPTH,
        "depth {depth} is too deep (at most {MAX_DEPTH})"
    );
    let mut position = position_arg(position)?;
    let start = Instant::now();
    let leaves = perft(&mut position, depth);
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) in {seconds:.3} s, {:.0} leaves/s",
        leaves as f64 / seconds.max(1e-9)
    );
    if json {
        let object = serde_json::json!({
            "position": position.to_string(),
            "depth": depth,
            "leaves": leaves,
            "time_ms": seconds * 1e3,
        });
        writeln!(out, "{object}")?;
    } else {
        writeln!(out, "{leaves}")?;
    }
    Ok(())
}

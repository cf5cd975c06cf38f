//! Counts the leaves of the move tree from the start to a depth (4 unless given), and the rate.
//!
//! `cargo run --release -p yolah-core --example perft -- 5`

use std::time::Instant;
use yolah_core::{Position, perft};

fn main() {
    let depth: u32 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 4,
        Some(Ok(depth @ 0..=8)) => depth,
        Some(_) => {
            eprintln!("error: the depth is a whole number from 0 to 8");
            std::process::exit(2);
        }
    };
    let mut position = Position::start();
    let start = Instant::now();
    let leaves = perft(&mut position, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {leaves} leaves in {seconds:.3} s ({:.1} M/s)",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
}

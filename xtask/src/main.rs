//! `cargo xtask gen-magics [--seed N] [--check]`: finds the magic multipliers and writes them,
//! with the full attack tables, as Rust source into `tables/`, which `yolah-core` `include!`s.

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// The board geometry and the hash formula are the engine's own files, compiled here too, so the
// tables cannot drift from the code that reads them. They do not depend on the tables, so this
// tool builds even when `tables/` is missing or broken.
#[allow(dead_code)]
#[path = "../../crates/yolah-core/src/bitboard.rs"]
mod bitboard;
#[allow(dead_code)]
#[path = "../../crates/yolah-core/src/magic.rs"]
mod magic;
#[allow(dead_code)]
#[path = "../../crates/yolah-core/src/slider.rs"]
mod slider;
#[allow(dead_code)]
#[path = "../../crates/yolah-core/src/square.rs"]
mod square;
#[allow(dead_code)]
#[path = "../../crates/yolah-core/src/text.rs"]
mod text;

mod search;
mod tables;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Yolah developer tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find magic numbers (random sparse candidates, squares in parallel) and write tables/.
    GenMagics {
        /// Seed of the search; the same seed gives the same magics.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rebuild everything from the committed magics and fail if any file differs.
        #[arg(long, conflicts_with = "seed")]
        check: bool,
    },
}

fn tables_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .join("tables")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Command::GenMagics { seed, check: false } => tables::generate(&tables_dir(), seed),
        Command::GenMagics { check: true, .. } => tables::check(&tables_dir()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

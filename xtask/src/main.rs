//! `cargo xtask gen-magics [--seed N] [--check]`: finds the magic multipliers and writes them,
//! with the full attack tables, as Rust source into `tables/`, which `yolah-core` `include!`s.
//! `cargo xtask gen-book`: searches the opening book's positions and writes `tables/book.rs`,
//! which `yolah-ai` `include!`s.
//! `cargo xtask slurm up|down`: a single-node Slurm on this machine, for the tests that submit
//! jobs.

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// The board geometry and the hash formula are the engine's own files, compiled here too, so the
// tables cannot drift from the code that reads them. They do not depend on the tables, so
// `cargo run --release -p xtask --no-default-features -- gen-magics` builds even when `tables/`
// is missing or broken (the default features add the book's generator, which needs the engine).
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

#[cfg(feature = "book")]
mod book;
mod search;
mod slurm;
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
    /// Search the opening book's positions (resumable) and write tables/book.rs.
    #[cfg(feature = "book")]
    GenBook {
        /// Positions before this ply are in the book (along its lines).
        #[arg(long, default_value_t = 4)]
        plies: u32,
        /// Before this ply every move of both sides is followed; after it, only the book's
        /// moves on its side and every reply of the other.
        #[arg(long, default_value_t = 1)]
        full_plies: u32,
        /// Nodes searched per position (the network player, one thread).
        #[arg(long, default_value_t = 1_000_000)]
        nodes: u64,
        /// Positions searched at once (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// A single-node Slurm on this machine, for the tests that submit jobs: `up` installs
    /// (as root) and starts it, `down` stops it.
    Slurm {
        #[command(subcommand)]
        action: SlurmAction,
    },
}

#[derive(Subcommand)]
enum SlurmAction {
    /// Install where missing, configure for this host and start munge, slurmctld and slurmd.
    Up,
    /// Stop slurmd, slurmctld and munge.
    Down,
}

fn workspace_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Where the magics and attack tables are written: the workspace's `tables/`, and the copy
/// inside `yolah-core`, which `include!`s it (so the crate packages on its own).
fn magic_dirs() -> [PathBuf; 2] {
    let workspace = workspace_dir();
    [
        workspace.join("tables"),
        workspace.join("crates/yolah-core/tables"),
    ]
}

/// Where the opening book is written: the workspace's `tables/`, and the copy inside
/// `yolah-ai`, which `include!`s it.
#[cfg(feature = "book")]
fn book_dirs() -> [PathBuf; 2] {
    let workspace = workspace_dir();
    [
        workspace.join("tables"),
        workspace.join("crates/yolah-ai/tables"),
    ]
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Command::GenMagics { seed, check: false } => tables::generate(&magic_dirs(), seed),
        Command::GenMagics { check: true, .. } => tables::check(&magic_dirs()),
        Command::Slurm {
            action: SlurmAction::Up,
        } => slurm::up(),
        Command::Slurm {
            action: SlurmAction::Down,
        } => slurm::down(),
        #[cfg(feature = "book")]
        Command::GenBook {
            plies,
            full_plies,
            nodes,
            threads,
        } => {
            let threads = threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            });
            let settings = yolah_ai::book::Settings {
                plies,
                full_plies,
                nodes,
            };
            if threads == 0 || threads > 256 {
                Err(anyhow::anyhow!("--threads must be 1 to 256"))
            } else {
                book::generate(
                    &book_dirs(),
                    &workspace_dir().join("target"),
                    &settings,
                    threads,
                )
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::workspace_dir;

    /// The tables that travel inside the crates (so each packages on its own) are byte for
    /// byte the workspace's `tables/`, which xtask writes together with them.
    #[test]
    fn the_crates_copies_are_the_workspace_tables() {
        let workspace = workspace_dir();
        let copies = [
            ("crates/yolah-core/tables", "magics.rs"),
            ("crates/yolah-core/tables", "orthogonal_attacks.rs"),
            ("crates/yolah-core/tables", "diagonal_attacks.rs"),
            ("crates/yolah-ai/tables", "book.rs"),
        ];
        for (dir, file) in copies {
            let copy = std::fs::read(workspace.join(dir).join(file)).unwrap();
            let original = std::fs::read(workspace.join("tables").join(file)).unwrap();
            assert!(
                copy == original,
                "{dir}/{file} differs from tables/{file}: run `cargo xtask gen-magics` (or gen-book)"
            );
        }
    }
}

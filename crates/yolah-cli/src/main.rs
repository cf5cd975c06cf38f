//! `yolah`: the command line of the Yolah engine. It parses arguments and prints; the game
//! logic lives in `yolah-core`.

mod cmd;

use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "yolah", version, about = "The Yolah board game engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (a pass is a move; a finished game is a leaf).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this position (notation) instead of the initial one.
        #[arg(long, short)]
        position: Option<String>,
    },
    /// List the legal moves, sorted, on one line.
    Moves {
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Play a list of moves and print the board, the score and the final position.
    Replay {
        /// File of whitespace-separated moves (`#` starts a comment); `-` or nothing for stdin.
        file: Option<PathBuf>,
        /// Start from this position (notation) instead of the initial one.
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Draw the board with crosses on the squares the side to move can reach.
    Show {
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Play uniformly random games from the start and count the results.
    RandomGames {
        /// Number of games.
        #[arg(long, short)]
        games: u64,
        /// Seed; the same seed gives the same results whatever the thread count (default: random).
        #[arg(long, short)]
        seed: Option<u64>,
        /// Worker threads (default: one per core).
        #[arg(long, short)]
        threads: Option<usize>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // One line: clap's first line already names the problem.
            let text = error.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Perft { depth, position } => cmd::perft::run(&mut out, depth, position.as_deref()),
        Command::Moves { position } => cmd::moves::run(&mut out, position.as_deref()),
        Command::Replay { file, position } => {
            cmd::replay::run(&mut out, file.as_deref(), position.as_deref())
        }
        Command::Show { position } => cmd::show::run(&mut out, position.as_deref()),
        Command::RandomGames {
            games,
            seed,
            threads,
        } => cmd::random_games::run(&mut out, games, seed, threads),
    };
    let result = result.and_then(|()| out.flush().map_err(anyhow::Error::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`yolah moves | head`): not an error of ours.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

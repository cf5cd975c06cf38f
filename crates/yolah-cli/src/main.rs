//! `yolah`: the command line of the Yolah engine. It parses arguments and prints; the game
//! logic lives in `yolah-core`, the players in `yolah-ai`.

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
        /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv).
        #[arg(long, short)]
        game: Option<u64>,
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
    /// List the players, their options and defaults.
    Players,
    /// Let a player choose a move and print its report (move, value, iterations, time, detail).
    Think {
        /// The player's spec.
        spec: String,
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
        /// Seed of a player without one (default: random).
        #[arg(long, short)]
        seed: Option<u64>,
    },
    /// Play two players against each other over paired random openings.
    Match {
        /// The first player's spec (the summary is from its point of view).
        first: String,
        /// The second player's spec.
        second: String,
        /// Number of games (each opening is played twice, colours swapped).
        #[arg(long = "games", short = 'g')]
        count: u32,
        #[command(flatten)]
        games: cmd::Pairing,
        /// Write every game to this CSV file (readable by `yolah replay --game N`).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Round robin between players: crosstable and Bradley-Terry ratings.
    Tournament {
        /// Player specs [default: mcts:time=20ms montecarlo:time=20ms random].
        specs: Vec<String>,
        /// Games between each pair [default: 60].
        #[arg(long, short = 'n')]
        games_per_pair: Option<u32>,
        #[command(flatten)]
        games: cmd::Pairing,
        /// Directory for tournament.json, games.csv (one row per game as it ends) and
        /// ratings.json.
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Finish the tournament in --out after an interruption.
        #[arg(long)]
        resume: bool,
    },
    /// Solve a position: the exact final margin with best play by both sides, and its line.
    Solve {
        /// Position in notation (default: the start, which takes far too long: give one
        /// with about 24 free squares or fewer).
        #[arg(long, short)]
        position: Option<String>,
        /// Transposition table size in MiB (1 to 16384).
        #[arg(long, default_value_t = 256)]
        tt: usize,
        /// Search threads sharing the table (1 to 256).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
    },
    /// Search the fixed bench positions to a fixed depth with one thread: total nodes (a
    /// signature of the search) and nodes per second.
    Bench {
        /// Depth of each search (1 to 14) [default: 8].
        #[arg(long, short)]
        depth: Option<u32>,
    },
    /// Tune the minimax weights with a genetic algorithm (checkpoint, log.csv, log.png and
    /// best-weights.json in --out after each generation).
    Tune {
        /// Directory of the run.
        #[arg(long, short)]
        out: PathBuf,
        /// Go on with the run in --out (its settings are kept; --generations may extend it).
        #[arg(long)]
        resume: bool,
        /// Generations to run, 1 to 10000 [default: 30].
        #[arg(long, short)]
        generations: Option<u32>,
        /// Individuals per generation, 2 to 1000 [default: 24].
        #[arg(long)]
        population: Option<usize>,
        /// Best individuals kept unchanged, fewer than the population [default: 3].
        #[arg(long)]
        elite: Option<usize>,
        /// Openings per opponent per generation, each played with both colours, 1 to 1000
        /// [default: 8].
        #[arg(long)]
        openings: Option<u32>,
        /// Nodes per move of every minimax search, 1 to 100000000 [default: 5000].
        #[arg(long)]
        nodes: Option<u64>,
        /// An opponent of the panel: `start` (minimax with the starting weights) or a player
        /// spec; repeat for several [default: start, mcts:iterations=5000].
        #[arg(long = "opponent")]
        opponents: Vec<String>,
        /// Random plies of each opening, 0 to 40 [default: 4].
        #[arg(long, short)]
        random_plies: Option<u32>,
        /// Seed of the run [default: 1].
        #[arg(long, short)]
        seed: Option<u64>,
        /// Games played at once (default: one per core).
        #[arg(long, short)]
        threads: Option<usize>,
    },
    /// Play a game in the terminal (moves like e4:g2; help, moves, undo, quit).
    Play {
        /// Black: human or a player spec.
        #[arg(long, default_value = "human")]
        black: String,
        /// White: human or a player spec.
        #[arg(long, default_value = "mcts:time=1s")]
        white: String,
        /// Start from this position (notation).
        #[arg(long, short)]
        position: Option<String>,
        /// Seed of machine players without a seed (default: random).
        #[arg(long, short)]
        seed: Option<u64>,
    },
}

// One arm per subcommand: long, but flat.
#[allow(clippy::too_many_lines)]
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
        Command::Replay {
            file,
            position,
            game,
        } => cmd::replay::run(&mut out, file.as_deref(), position.as_deref(), game),
        Command::Show { position } => cmd::show::run(&mut out, position.as_deref()),
        Command::RandomGames {
            games,
            seed,
            threads,
        } => cmd::random_games::run(&mut out, games, seed, threads),
        Command::Players => cmd::players::run(&mut out),
        Command::Think {
            spec,
            position,
            seed,
        } => cmd::think::run(&mut out, &spec, position.as_deref(), seed),
        Command::Match {
            first,
            second,
            count,
            games,
            out: file,
        } => cmd::versus::run(&mut out, first, second, count, &games, file.as_deref()),
        Command::Tournament {
            specs,
            games_per_pair,
            games,
            out: dir,
            resume,
        } => cmd::tournament::run(
            &mut out,
            &cmd::tournament::Options {
                specs,
                games_per_pair,
                games,
                out: dir,
                resume,
            },
        ),
        Command::Solve {
            position,
            tt,
            threads,
        } => cmd::solve::run(
            &mut out,
            position.as_deref(),
            &cmd::solve::Options { tt, threads },
        ),
        Command::Bench { depth } => cmd::bench::run(&mut out, depth),
        Command::Tune {
            out: dir,
            resume,
            generations,
            population,
            elite,
            openings,
            nodes,
            opponents,
            random_plies,
            seed,
            threads,
        } => cmd::tune::run(
            &mut out,
            &cmd::tune::Options {
                out: dir,
                resume,
                generations,
                population,
                elite,
                openings,
                nodes,
                opponents,
                random_plies,
                seed,
                threads: threads.unwrap_or_else(cmd::cores),
            },
        ),
        Command::Play {
            black,
            white,
            position,
            seed,
        } => cmd::play::run(&mut out, &black, &white, position.as_deref(), seed),
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

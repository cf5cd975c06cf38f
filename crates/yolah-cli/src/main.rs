//! `yolah`: the command line of the Yolah engine. It parses arguments and prints; the game
//! logic lives in `yolah-core`, the players in `yolah-ai`.

mod cmd;

use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use yolah_ai::SpecError;
use yolah_ai::arena::tournament::ConfigError;

#[derive(Parser)]
#[command(name = "yolah", version, about = "The Yolah board game engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (a pass is a move; a finished game is a leaf).
    #[command(allow_negative_numbers = true)]
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this position (notation) instead of the initial one.
        #[arg(long, short)]
        position: Option<String>,
    },
    /// List the legal moves, sorted, on one line.
    #[command(allow_negative_numbers = true)]
    Moves {
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Play a list of moves and print the board, the score and the final position.
    #[command(allow_negative_numbers = true)]
    Replay {
        /// File of whitespace-separated moves (`#` starts a comment); `-` or nothing for stdin.
        file: Option<PathBuf>,
        /// Start from this position (notation) instead of the initial one.
        #[arg(long, short, conflicts_with = "game")]
        position: Option<String>,
        /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv).
        /// A record starts from the start, so --position does not go with it.
        #[arg(long, short)]
        game: Option<u64>,
    },
    /// Draw the board with crosses on the squares the side to move can reach.
    #[command(allow_negative_numbers = true)]
    Show {
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Play uniformly random games from the start and count the results.
    #[command(allow_negative_numbers = true)]
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
    #[command(allow_negative_numbers = true)]
    Players,
    /// Let a player choose a move and print its report (move, value, iterations, time, detail).
    #[command(allow_negative_numbers = true)]
    Think {
        /// The player's spec, `name[:option=value,…]`, like `mcts:time=1s` or `minimax:depth=8`
        /// (`yolah players` lists every player and option).
        spec: String,
        /// Position in notation (default: the start).
        #[arg(long, short)]
        position: Option<String>,
        /// Seed of a player without one (default: random).
        #[arg(long, short)]
        seed: Option<u64>,
    },
    /// Speak the engine protocol on stdin and stdout (docs/protocol.md), for boards, match
    /// runners and other programs: `yei`, `setoption`, `position`, `go`, `stop`, `quit`.
    #[command(allow_negative_numbers = true)]
    Engine {
        /// The player to start with (the protocol's `Player` option), like `minimax` or
        /// `mcts:c=0.5` (see `yolah players`).
        #[arg(long, default_value = yolah_ai::protocol::server::DEFAULT_PLAYER)]
        player: String,
    },
    /// Serve a board in the browser: play any player with either colour, or watch two play.
    #[command(allow_negative_numbers = true)]
    Serve {
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address or host name to listen on (loopback by default: only this machine can
        /// connect).
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Games at once, 1 to 10000 (more connections are refused).
        #[arg(long, default_value_t = 200)]
        max_games: usize,
        /// Searches of watched games (machine against machine) at once, 1 to 1024 (default:
        /// one per core; more wait). Games a person plays never wait for these.
        #[arg(long)]
        max_searches: Option<usize>,
        /// Memory for all games' machine players together, MiB (tables and trees), 16 to
        /// 1048576; a game that does not fit is refused.
        #[arg(long, value_name = "MIB", default_value_t = yolah_web::server::DEFAULT_MAX_MEMORY_MB)]
        max_memory: u64,
        /// Close a game after this long without a message or a search, 1s to 1h.
        #[arg(long, default_value = "15min")]
        idle_timeout: String,
        /// Let pages of this origin open games too (besides the page's own), like
        /// `http://example.com:8080`; repeat for several.
        #[arg(long = "allow-origin", value_name = "URL")]
        allow_origins: Vec<String>,
    },
    /// Play a player against itself and write every searched position with its labels (the
    /// game's result and margin, the search's score) as training data.
    #[command(allow_negative_numbers = true)]
    Selfplay {
        /// The player for both sides (default: minimax:nodes=20000, reproducible).
        spec: Option<String>,
        /// Games to play, 1 to 10000000 (with --resume: raises the total).
        #[arg(long, short)]
        games: Option<u64>,
        /// The run's directory: selfplay.json and data.bin.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Random plies before the player takes over, at most 40 (default 8).
        #[arg(long)]
        random_plies: Option<u32>,
        /// Seed of the openings and the players (default 1).
        #[arg(long, short)]
        seed: Option<u64>,
        /// Games at once (default: one per core).
        #[arg(long, short)]
        threads: Option<usize>,
        /// Play only part K of N of the games (those numbered K−1 modulo N), for runs split
        /// over machines; `yolah data merge` joins the parts.
        #[arg(long, value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::learn::selfplay::Shard>()))]
        shard: Option<yolah_ai::learn::selfplay::Shard>,
        /// Go on with the run in --out after the last whole game.
        #[arg(long)]
        resume: bool,
    },
    /// Train the network on self-play data (`yolah selfplay`); writes the network file after
    /// every epoch, with a log, a loss plot and the run's settings beside it.
    #[command(allow_negative_numbers = true)]
    Train {
        /// A self-play directory (or its data.bin); repeat to train on several.
        #[arg(long, required = true)]
        data: Vec<std::path::PathBuf>,
        /// The network file to write, like runs/nn/network.yolahnet; STEM.train.json,
        /// STEM.train.csv and STEM.loss.png go beside it.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Epochs, 1 to 10000 (default 30; with --resume: raises the total).
        #[arg(long, short)]
        epochs: Option<u32>,
        /// Seed of the initial weights, the validation split, the shuffles (default 1).
        #[arg(long, short)]
        seed: Option<u64>,
        /// What to learn: score (the search's), margin (the game's), result, or blend=λ
        /// (λ × score + (1 − λ) × result) [default: score].
        #[arg(long, value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::learn::train::Target>()))]
        target: Option<yolah_ai::learn::train::Target>,
        /// Go on after the last epoch the network file holds.
        #[arg(long)]
        resume: bool,
    },
    /// Look into training data: `yolah data stats DIR|FILE`.
    #[command(allow_negative_numbers = true)]
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Play two players against each other over paired random openings.
    #[command(allow_negative_numbers = true)]
    Match {
        /// The first player's spec, like `minimax:time=100ms` (see `yolah players`); the
        /// summary is from its point of view.
        first: String,
        /// The second player's spec, like `mcts:time=100ms`.
        second: String,
        /// Number of games, 1 to 1000000 (each opening is played twice, colours swapped).
        #[arg(long = "games", short = 'g')]
        count: u32,
        #[command(flatten)]
        games: cmd::Pairing,
        /// Write every game to this CSV file (readable by `yolah replay --game N`).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Round robin between players: crosstable and Bradley-Terry ratings.
    #[command(allow_negative_numbers = true, args_conflicts_with_subcommands = true)]
    Tournament {
        /// Player specs, like `mcts:time=20ms` (see `yolah players`) [default:
        /// minimax:time=20ms,eval=nn minimax:time=20ms mcts:time=20ms montecarlo:time=20ms
        /// random].
        specs: Vec<String>,
        /// Games between each pair [default: 40]; at most 1000000 games in all.
        #[arg(long, short = 'n')]
        games_per_pair: Option<u32>,
        #[command(flatten)]
        games: cmd::Pairing,
        /// Directory for tournament.json, games.csv (one row per game as it ends) and
        /// ratings.json.
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Play only part K of N of the schedule (the games numbered K−1 modulo N), for runs
        /// split over machines; `yolah tournament merge` joins the parts.
        #[arg(long, value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::shard::Shard>()))]
        shard: Option<yolah_ai::arena::shard::Shard>,
        /// Finish the tournament in --out after an interruption.
        #[arg(long)]
        resume: bool,
        #[command(subcommand)]
        merge: Option<TournamentCommand>,
    },
    /// Solve a position: the exact final margin with best play by both sides, and its line.
    #[command(allow_negative_numbers = true)]
    Solve {
        /// Position in notation (default: the start, which takes far too long: give one
        /// with about 24 free squares or fewer).
        #[arg(long, short)]
        position: Option<String>,
        /// Transposition table size in MiB (1 to 16384).
        #[arg(long, default_value_t = 256)]
        tt: usize,
        /// Search threads sharing the table (1 to 256; more than the cores are not used).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
    },
    /// Search the fixed bench positions to a fixed depth with one thread: total nodes (a
    /// signature of the search) and nodes per second.
    #[command(allow_negative_numbers = true)]
    Bench {
        /// Depth of each search (1 to 14) [default: 8].
        #[arg(long, short)]
        depth: Option<u32>,
    },
    /// Tune the minimax weights with a genetic algorithm (checkpoint, log.csv, log.png and
    /// best-weights.json in --out after each generation).
    #[command(allow_negative_numbers = true)]
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
    #[command(allow_negative_numbers = true)]
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
            eprintln!("{}", one_line(&error));
            return ExitCode::from(2);
        }
    };
    // Ctrl-C, `kill` or a closed terminal: the programs of `engine:` players, and whatever
    // they started, end with us. (Results files are written a row at a time, so they are
    // whole whenever this comes; `--resume` goes on from them.)
    let _ = ctrlc::set_handler(|| {
        yolah_ai::players::engine::end_all();
        std::process::exit(130);
    });
    let mut out = Courteous {
        inner: io::stdout(), // not locked: `engine` writes from its search thread too
        gone: false,
    };
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
        Command::Engine { player } => cmd::engine::run(&player),
        Command::Selfplay {
            spec,
            games,
            out: dir,
            random_plies,
            seed,
            threads,
            shard,
            resume,
        } => cmd::selfplay::run(
            &mut out,
            &cmd::selfplay::Options {
                spec,
                games,
                out: dir,
                random_plies,
                seed,
                threads,
                shard,
                resume,
            },
        ),
        Command::Train {
            data,
            out: file,
            epochs,
            seed,
            target,
            resume,
        } => cmd::train::run(
            &mut out,
            &cmd::train::Options {
                data,
                out: file,
                epochs,
                seed,
                target,
                resume,
            },
        ),
        Command::Data {
            command: DataCommand::Stats { path },
        } => cmd::data::stats(&mut out, &path),
        Command::Data {
            command: DataCommand::Merge { out: dir, parts },
        } => cmd::selfplay::merge(&mut out, &dir, &parts),
        Command::Serve {
            port,
            bind,
            max_games,
            max_searches,
            max_memory,
            idle_timeout,
            allow_origins,
        } => cmd::serve::run(
            &mut out,
            &cmd::serve::Options {
                bind,
                port,
                max_games,
                max_searches,
                max_memory,
                idle_timeout,
                allow_origins,
            },
        ),
        Command::Match {
            first,
            second,
            count,
            games,
            out: file,
        } => cmd::versus::run(&mut out, &first, &second, count, &games, file.as_deref()),
        Command::Tournament {
            merge: Some(TournamentCommand::Merge { out: dir, parts }),
            ..
        } => cmd::tournament::merge(&mut out, &dir, &parts),
        Command::Tournament {
            specs,
            games_per_pair,
            games,
            out: dir,
            shard,
            resume,
            merge: None,
        } => cmd::tournament::run(
            &mut out,
            &cmd::tournament::Options {
                specs,
                games_per_pair,
                games,
                out: dir,
                shard,
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
                threads,
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
        Err(error) => {
            let line = format!("{error:#}").replace(['\n', '\r'], " ");
            eprintln!("error: {line}");
            if is_usage(&error) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Bad arguments, player specs included, exit with 2; bad files, positions and everything
/// else with 1.
fn is_usage(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.is::<cmd::UsageError>() || cause.is::<SpecError>() || cause.is::<ConfigError>()
    })
}

/// One line for a bad command line: what is wrong or missing, the usage, where to get help.
fn one_line(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let rendered = error.render().to_string();
    let mut line = rendered
        .lines()
        .next()
        .unwrap_or("error: bad arguments")
        .to_string();
    if error.kind() == ErrorKind::MissingRequiredArgument
        && let Some(ContextValue::Strings(missing)) = error.get(ContextKind::InvalidArg)
    {
        line = format!("error: missing {}", missing.join(", "));
    }
    if let Some(ContextValue::StyledStr(usage)) = error.get(ContextKind::Usage) {
        let usage = usage.to_string();
        let usage = usage.trim().trim_start_matches("Usage:").trim();
        let command: Vec<&str> = usage
            .split_whitespace()
            .take_while(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .collect();
        line = format!(
            "{line}; usage: {usage} (more: {} --help)",
            command.join(" ")
        );
    }
    line
}

/// Standard output that stops printing, without failing, once its reader has gone
/// (`yolah tournament … | head -1`): the files a command writes are its product and are
/// written whatever happens to the printing.
#[derive(Subcommand)]
enum TournamentCommand {
    /// Join the shards of a tournament (`tournament --shard K/N`) into one directory, then
    /// print its crosstable and ratings.
    Merge {
        /// The directory to write (tournament.json, games.csv, ratings.json).
        out: PathBuf,
        /// The shards' directories, all N of them.
        parts: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum DataCommand {
    /// Counts, result balance, duplicates and the phases of a data file (or a run's directory).
    Stats {
        /// A data file, or a self-play directory (its data.bin).
        path: std::path::PathBuf,
    },
    /// Join the shards of a self-play run (`selfplay --shard K/N`) into one directory.
    Merge {
        /// The directory to write (selfplay.json and data.bin).
        out: std::path::PathBuf,
        /// The shards' directories, all N of them.
        parts: Vec<std::path::PathBuf>,
    },
}

struct Courteous<W> {
    inner: W,
    gone: bool,
}

impl<W: Write> Write for Courteous<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.gone {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.gone {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(())
            }
            other => other,
        }
    }
}

//! The command line: every subcommand and its flags, one set of conventions for all
//! (docs/guide.md, "Conventions"):
//! - a position is `-p, --position <POSITION>`, in notation or `startpos` (the default);
//! - a count of games is `-g, --games <N>`; an output is `-o, --out <DIR>` or `<FILE>`;
//! - `-s, --seed <SEED>` defaults to 1 everywhere, so a command run twice plays the same
//!   openings (time-limited searches still vary);
//! - `-t, --threads <N>` is games (or playouts) at once, one per core by default, except in
//!   `solve`, where it is search threads;
//! - `-r, --random-plies <K>` defaults to 4 everywhere;
//! - `--json` prints one JSON object on stdout instead of the text;
//! - defaults are written `[default: …]`, ranges `from A to B`.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// The default player of every command that takes one: the strongest.
pub const DEFAULT_PLAYER: &str = yolah_ai::spec::DEFAULT_PLAYER;

#[derive(Parser)]
#[command(
    name = "yolah",
    version,
    about = "The Yolah board game: an engine, its players, and the means to compare them",
    long_about = "The Yolah board game: an engine, its players, and the means to compare them.\n\n\
        Start with `yolah serve` (play in the browser) or `yolah play` (in the terminal).\n\
        The user guide: docs/guide.md.",
    arg_required_else_help = true,
    help_expected = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The position a command starts from.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PositionArg {
    /// The position, in notation or `startpos` [default: startpos].
    #[arg(long, short, value_name = "POSITION")]
    pub position: Option<String>,
}

/// How the games of a match or a tournament are played.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Pairing {
    /// Openings from this suite file (one a line: a position, or `startpos moves m1 m2 …`),
    /// in file order, each played twice with colours swapped, instead of random plies.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Use the suite's openings in an order shuffled by the seed.
    #[arg(long, requires = "openings")]
    pub shuffle_openings: bool,
    /// Random plies of each opening, 0 to 40 [default: 4].
    #[arg(long, short, value_name = "K")]
    pub random_plies: Option<u32>,
    /// Seed of the openings and of players without a seed [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Games played at once, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// A game clock for each side: BASE+INC, like 10s+100ms or 1min (base 1ms to 1h,
    /// increment up to 1min). A side whose clock runs out loses on time. Players share their
    /// time left over the moves to come; their spec's own time, if set, caps each move.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Play in the browser: any player, either colour, or watch two play.
    #[command(allow_negative_numbers = true)]
    Serve {
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address or host name to listen on (loopback: only this machine can connect).
        #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
        bind: String,
        /// Games at once, 1 to 10000; more connections are refused.
        #[arg(long, value_name = "N", default_value_t = 200)]
        max_games: usize,
        /// Searches of watched games (machine against machine) at once, 1 to 1024; more
        /// wait. Games a person plays never wait for these [default: one per core].
        #[arg(long, value_name = "N")]
        max_searches: Option<usize>,
        /// Memory for all games' machine players together (tables and trees), 16 to 1048576
        /// MiB; a game that does not fit is refused.
        #[arg(long, value_name = "MIB", default_value_t = yolah_web::server::DEFAULT_MAX_MEMORY_MB)]
        max_memory: u64,
        /// Close a game after this long without a message or a search, 1s to 1h.
        #[arg(long, value_name = "DURATION", default_value = "15min")]
        idle_timeout: String,
        /// Let pages of this origin open games too, besides the page's own (like
        /// `http://example.com:8080`); repeat for several.
        #[arg(long = "allow-origin", value_name = "URL")]
        allow_origins: Vec<String>,
        /// The game clock of games whose page sets none: BASE+INC like 5min+3s. The page can
        /// choose another, or none.
        #[arg(long, value_name = "BASE+INC")]
        tc: Option<String>,
    },
    /// Play in the terminal (moves like e4:g2; help, moves, undo, quit).
    #[command(allow_negative_numbers = true)]
    Play {
        /// Black: `human` or a player spec.
        #[arg(long, value_name = "SPEC", default_value = "human")]
        black: String,
        /// White: `human` or a player spec.
        #[arg(long, value_name = "SPEC", default_value = DEFAULT_PLAYER)]
        white: String,
        #[command(flatten)]
        position: PositionArg,
        /// Seed of machine players without a seed [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// A game clock for each side, BASE+INC like 5min+3s: it runs while the side thinks
        /// (you too), and a side whose clock runs out loses on time.
        #[arg(long, value_name = "BASE+INC")]
        tc: Option<String>,
    },
    /// Ask a player for a move and print its report.
    ///
    /// The report: the move, the expected score or margin, depth or iterations, nodes, time,
    /// the principal variation.
    #[command(allow_negative_numbers = true)]
    Think {
        /// The player, `name[:option=value,…]` like `mcts:time=1s` (`yolah players` lists them).
        #[arg(value_name = "SPEC", default_value = DEFAULT_PLAYER)]
        spec: String,
        #[command(flatten)]
        position: PositionArg,
        /// Seed of a player without one [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// Print one JSON object (move, value, depth, iterations, nodes, `time_ms`, pv, …).
        #[arg(long)]
        json: bool,
    },
    /// List the players, their options and defaults, with examples.
    #[command(allow_negative_numbers = true)]
    Players,
    /// Play two players against each other: score and Elo difference.
    ///
    /// Openings are paired: each is played twice, colours swapped. The summary is from the
    /// first player's point of view.
    #[command(allow_negative_numbers = true)]
    Match {
        /// The first player, like `minimax:time=100ms` (see `yolah players`); the summary is
        /// from its point of view.
        #[arg(value_name = "FIRST")]
        first: String,
        /// The second player, like `mcts:time=100ms`.
        #[arg(value_name = "SECOND")]
        second: String,
        /// Games, 1 to 1000000 (with --sprt: the most to play) [default with --sprt: 20000].
        #[arg(long, short, value_name = "N", required_unless_present = "sprt")]
        games: Option<u32>,
        /// Play game pairs until a sequential probability ratio test decides between Elo E0
        /// (H0) and E1 (H1) for the first player: `elo0=E0,elo1=E1[,alpha=0.05,beta=0.05]`.
        #[arg(long, value_name = "TEST", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::sprt::Sprt>()))]
        sprt: Option<yolah_ai::arena::sprt::Sprt>,
        #[command(flatten)]
        pairing: Pairing,
        /// Write every game to this new CSV file (`yolah replay FILE --game N` reads it).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Continue the match recorded in --out after an interruption: give the command that
        /// started it, plus --resume. The games played are kept (and a test goes on from
        /// them); the others are played.
        #[arg(long, requires = "out")]
        resume: bool,
        /// Print one JSON object (the score, Elo and interval, the games).
        #[arg(long)]
        json: bool,
    },
    /// Write a suite of balanced openings for `--openings`.
    ///
    /// Distinct positions after K random plies (none the same as another up to the board's
    /// eight symmetries) whose depth-5 search value is within ±M points, one `startpos moves
    /// …` line each, on stdout.
    #[command(allow_negative_numbers = true)]
    Openings {
        /// Openings, 1 to 100000.
        #[arg(long, value_name = "N")]
        count: u32,
        /// Random plies of each, 1 to 40.
        #[arg(long, value_name = "K", default_value_t = 8)]
        plies: u32,
        /// The largest search value kept, in points either way.
        #[arg(long, value_name = "M", default_value_t = 1.5)]
        max_margin: f64,
        /// Seed of the random plies [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
    },
    /// A round robin: crosstable and ratings, resumable.
    ///
    /// Every pair meets --games-per-pair times over paired openings; Bradley–Terry ratings
    /// with 95 % intervals at the end.
    #[command(allow_negative_numbers = true, args_conflicts_with_subcommands = true)]
    Tournament {
        /// The players, like `mcts:time=20ms` (see `yolah players`) [default:
        /// minimax:time=20ms,eval=nn minimax:time=20ms mcts:time=20ms montecarlo:time=20ms
        /// random].
        #[arg(value_name = "SPEC")]
        specs: Vec<String>,
        /// Games between each pair; at most 1000000 games in all [default: 40].
        #[arg(long, value_name = "N")]
        games_per_pair: Option<u32>,
        #[command(flatten)]
        pairing: Pairing,
        /// Directory for tournament.json, games.csv (a row per game as it ends),
        /// ratings.json and ratings.png.
        #[arg(long, short, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Play only part K of N of the schedule (the games numbered K−1 modulo N), for runs
        /// split over machines; `yolah tournament merge` joins the parts.
        #[arg(long, value_name = "K/N", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::shard::Shard>()))]
        shard: Option<yolah_ai::arena::shard::Shard>,
        /// Finish the tournament in --out after an interruption.
        #[arg(long)]
        resume: bool,
        #[command(subcommand)]
        merge: Option<TournamentCommand>,
    },
    /// Speak the engine protocol on stdin and stdout.
    ///
    /// For boards, match runners and other programs: docs/protocol.md.
    #[command(allow_negative_numbers = true)]
    Engine {
        /// The player to start with (the protocol's `Player` option; see `yolah players`).
        #[arg(long, value_name = "SPEC", default_value = DEFAULT_PLAYER)]
        player: String,
    },
    /// List the legal moves, sorted, on one line.
    #[command(allow_negative_numbers = true)]
    Moves {
        #[command(flatten)]
        position: PositionArg,
    },
    /// Draw the board and the squares the side to move can reach.
    #[command(allow_negative_numbers = true)]
    Show {
        #[command(flatten)]
        position: PositionArg,
    },
    /// Play a list of moves; print the board, the score and the position.
    #[command(allow_negative_numbers = true)]
    Replay {
        /// A file of whitespace-separated moves (`#` starts a comment), `-` or nothing for
        /// stdin; or, with --game, a record file.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        #[command(flatten)]
        position: PositionArg,
        /// Replay game N of a record file (`yolah match --out`, a tournament's games.csv),
        /// which starts from the start (so no --position with it).
        #[arg(long, value_name = "N", conflicts_with = "position")]
        game: Option<u64>,
    },
    /// Solve a position: the exact final margin with best play, and its line.
    #[command(allow_negative_numbers = true)]
    Solve {
        /// The position, in notation or `startpos` [default: startpos]; give one with about
        /// 24 free squares or fewer (the start takes far too long).
        #[arg(long, short, value_name = "POSITION")]
        position: Option<String>,
        /// Transposition table, 1 to 16384 MiB.
        #[arg(long, value_name = "MIB", default_value_t = 256)]
        tt: usize,
        /// Search threads sharing the table, 1 to 256 (no more than the cores are used).
        #[arg(long, short, value_name = "N", default_value_t = 1)]
        threads: usize,
        /// Print one JSON object (margin, pv, nodes, `time_ms`).
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree to a depth.
    ///
    /// A pass is a move; a finished game is a leaf.
    #[command(allow_negative_numbers = true)]
    Perft {
        /// Depth in plies, 0 to 20.
        #[arg(value_name = "DEPTH")]
        depth: u32,
        #[command(flatten)]
        position: PositionArg,
        /// Print one JSON object (depth, leaves, `time_ms`).
        #[arg(long)]
        json: bool,
    },
    /// Search the bench positions: the search's signature and speed.
    ///
    /// The fixed positions to a fixed depth with one thread: total nodes (a signature that
    /// changes only with the search) and nodes per second, heuristic and network.
    #[command(allow_negative_numbers = true)]
    Bench {
        /// Depth of each search, 1 to 14 [default: 8].
        #[arg(long, short, value_name = "DEPTH")]
        depth: Option<u32>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Play uniformly random games and count the results.
    #[command(allow_negative_numbers = true)]
    RandomGames {
        /// Games, 1 to 100000000000.
        #[arg(long, short, value_name = "N")]
        games: u64,
        /// Seed; the same seed gives the same results whatever the thread count [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// Worker threads, 1 to 1024 [default: one per core].
        #[arg(long, short, value_name = "N")]
        threads: Option<usize>,
    },
    /// Write training data from games of a player against itself.
    ///
    /// Every searched position with its labels: the game's result and margin, the search's
    /// score (docs/data-format.md). Resumable; splits over machines with --shard.
    #[command(allow_negative_numbers = true)]
    Selfplay {
        /// The player for both sides [default: minimax:nodes=20000, reproducible].
        #[arg(value_name = "SPEC")]
        spec: Option<String>,
        /// Games, 1 to 10000000 (with --resume: raises the total).
        #[arg(long, short, value_name = "N")]
        games: Option<u64>,
        /// The run's directory: selfplay.json and data.bin.
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
        /// Random plies before the player takes over, 0 to 40 [default: 4].
        #[arg(long, short, value_name = "K")]
        random_plies: Option<u32>,
        /// Seed of the openings and the players [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// Games at once, 1 to 1024 [default: one per core].
        #[arg(long, short, value_name = "N")]
        threads: Option<usize>,
        /// Play only part K of N of the games (those numbered K−1 modulo N), for runs split
        /// over machines; `yolah data merge` joins the parts.
        #[arg(long, value_name = "K/N", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::learn::selfplay::Shard>()))]
        shard: Option<yolah_ai::learn::selfplay::Shard>,
        /// Go on with the run in --out after its last whole game.
        #[arg(long)]
        resume: bool,
    },
    /// Look into training data, or join the shards of a self-play run.
    #[command(allow_negative_numbers = true, subcommand_required = true)]
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Train the network on self-play data, resumable.
    ///
    /// Writes the network after every epoch, with a log, a loss plot and the run's settings
    /// beside it.
    #[command(allow_negative_numbers = true)]
    Train {
        /// A self-play directory (or its data.bin); repeat to train on several.
        #[arg(long, short, value_name = "DIR", required = true)]
        data: Vec<PathBuf>,
        /// The network file to write, like runs/nn/network.yolahnet; STEM.train.json,
        /// STEM.train.csv and STEM.loss.png go beside it.
        #[arg(long, short, value_name = "FILE")]
        out: PathBuf,
        /// Epochs, 1 to 10000 (with --resume: raises the total) [default: 30].
        #[arg(long, short, value_name = "N")]
        epochs: Option<u32>,
        /// Seed of the initial weights, the validation split and the shuffles [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// What to learn: score (the search's), margin (the game's), result, or blend=λ
        /// (λ × score + (1 − λ) × result) [default: score].
        #[arg(long, value_name = "TARGET", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::learn::train::Target>()))]
        target: Option<yolah_ai::learn::train::Target>,
        /// Go on after the last epoch the network file holds.
        #[arg(long)]
        resume: bool,
    },
    /// Tune the minimax weights with a genetic algorithm, resumable.
    ///
    /// After each generation: checkpoint.json, log.csv, log.png and best-weights.json in
    /// --out.
    #[command(allow_negative_numbers = true)]
    Tune {
        /// Directory of the run.
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
        /// Go on with the run in --out (its settings are kept; --generations may extend it).
        #[arg(long)]
        resume: bool,
        /// Generations, 1 to 10000 [default: 30].
        #[arg(long, value_name = "N")]
        generations: Option<u32>,
        /// Individuals per generation, 2 to 1000 [default: 24].
        #[arg(long, value_name = "N")]
        population: Option<usize>,
        /// Best individuals kept unchanged, fewer than the population [default: 3].
        #[arg(long, value_name = "N")]
        elite: Option<usize>,
        /// Openings per opponent per generation, each played with both colours, 1 to 1000
        /// [default: 8].
        #[arg(long, value_name = "N")]
        openings: Option<u32>,
        /// Nodes per move of every minimax search, 1 to 100000000 [default: 5000].
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// An opponent of the panel: `start` (minimax with the starting weights) or a player
        /// spec; repeat for several [default: start, mcts:iterations=5000].
        #[arg(long = "opponent", value_name = "SPEC")]
        opponents: Vec<String>,
        /// Random plies of each opening, 0 to 40 [default: 4].
        #[arg(long, short, value_name = "K")]
        random_plies: Option<u32>,
        /// Seed of the run [default: 1].
        #[arg(long, short, value_name = "SEED")]
        seed: Option<u64>,
        /// Games played at once, 1 to 1024 [default: one per core].
        #[arg(long, short, value_name = "N")]
        threads: Option<usize>,
        /// Once the run is finished, decide whether its best weights beat the starting ones:
        /// game pairs at the run's nodes per move until this test decides,
        /// `elo0=E0,elo1=E1[,alpha,beta]` (as `match --sprt`); the games go to
        /// DIR/sprt-gen<N>.csv, and the same command resumes them.
        #[arg(long, value_name = "TEST", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::sprt::Sprt>()))]
        sprt: Option<yolah_ai::arena::sprt::Sprt>,
    },
    /// Print a shell's completion script.
    ///
    /// Like `yolah completions bash > ~/.local/share/bash-completion/completions/yolah`.
    #[command(allow_negative_numbers = true)]
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff).
    ///
    /// Like `yolah manpage > yolah.1; man ./yolah.1`.
    #[command(allow_negative_numbers = true)]
    Manpage,
}

#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Join the shards of a tournament (`tournament --shard K/N`) into one directory, then
    /// print its crosstable and ratings.
    Merge {
        /// The directory to write (tournament.json, games.csv, ratings.json).
        #[arg(value_name = "OUT")]
        out: PathBuf,
        /// The shards' directories, all N of them.
        #[arg(value_name = "DIR")]
        parts: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum DataCommand {
    /// Counts, result balance, duplicates and the phases of a data file (or a run's directory).
    Stats {
        /// A data file, or a self-play directory (its data.bin).
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
    /// Join the shards of a self-play run (`selfplay --shard K/N`) into one directory.
    Merge {
        /// The directory to write (selfplay.json and data.bin).
        #[arg(value_name = "OUT")]
        out: PathBuf,
        /// The shards' directories, all N of them.
        #[arg(value_name = "DIR")]
        parts: Vec<PathBuf>,
    },
}

//! The command line: every subcommand and its flags, one set of conventions for all
//! (docs/guide/rules.md, "Conventions"):
//! - a position is `-p, --position <POSITION>`, in notation or `startpos` (the default);
//! - a count of games is `-g, --games <N>`; an output is `-o, --out <DIR>` or `<FILE>`;
//! - `-s, --seed <SEED>` defaults to 1 everywhere, so a command run twice plays the same
//!   openings (time-limited searches still vary);
//! - `-t, --threads <N>` is games (or playouts) at once, one per core by default, except in
//!   `solve`, where it is search threads;
//! - `-r, --random-plies <K>` defaults to 4 everywhere;
//! - `--json` prints one JSON object on stdout instead of the text;
//! - defaults are written `[default: …]`, ranges `from A to B`.

use crate::cmd::{self, PositionArg};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// The default player of every command that takes one: the strongest.

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

#[derive(Subcommand)]
pub enum Command {
    /// Play in the browser: any player, either colour, or watch two play.
    #[command(allow_negative_numbers = true)]
    Serve(cmd::serve::Options),
    /// Play in the terminal (moves like e4:g2; help, moves, undo, quit).
    #[command(allow_negative_numbers = true)]
    Play(cmd::play::Options),
    /// Ask a player for a move and print its report.
    ///
    /// The report: the move, the expected score or margin, depth or iterations, nodes, time,
    /// the principal variation.
    #[command(allow_negative_numbers = true)]
    Think(cmd::think::Options),
    /// Play a player on a suite of positions whose every move's value is proved.
    ///
    /// Prints the share of positions where its move kept the proved value and the points it
    /// gave away on average, each with its 95 % interval.
    Suite(cmd::suite::Options),
    /// List the players, their options and defaults, with examples.
    #[command(allow_negative_numbers = true)]
    Players(cmd::players::Options),
    /// Play two players against each other: score and Elo difference.
    ///
    /// Openings are paired: each is played twice, colours swapped. The summary is from the
    /// first player's point of view.
    #[command(allow_negative_numbers = true)]
    Match(cmd::matches::versus::Options),
    /// Write a suite of balanced openings for `--openings`.
    ///
    /// Distinct positions after K random plies (none the same as another up to the board's
    /// eight symmetries) whose depth-5 search value is within ±M points, one `startpos moves
    /// …` line each, on stdout.
    #[command(allow_negative_numbers = true)]
    Openings(cmd::openings::Options),
    /// A round robin: crosstable and ratings, resumable.
    ///
    /// Every pair meets --games-per-pair times over paired openings; Bradley–Terry ratings
    /// with 95 % intervals at the end.
    #[command(allow_negative_numbers = true, args_conflicts_with_subcommands = true)]
    Tournament(cmd::tournament::here::Options),
    /// Speak the engine protocol on stdin and stdout.
    ///
    /// For boards, match runners and other programs: docs/protocol.md.
    #[command(allow_negative_numbers = true)]
    Engine(cmd::engine::Options),
    /// List the legal moves, sorted, on one line.
    #[command(allow_negative_numbers = true)]
    Moves(PositionArg),
    /// Draw the board and the squares the side to move can reach.
    #[command(allow_negative_numbers = true)]
    Show(PositionArg),
    /// Play a list of moves; print the board, the score and the position.
    #[command(allow_negative_numbers = true)]
    Replay(cmd::replay::Options),
    /// Review a finished game: each move judged by the engine, and near the end by the solver.
    ///
    /// Each move's class (best, good, inaccuracy, mistake, blunder), the engine's line where
    /// it was not best, each side's accuracy, and where a move changed a proved result, the
    /// moves that kept it. The thresholds are in docs/guide/analysis.md.
    #[command(allow_negative_numbers = true)]
    Review(cmd::review::Options),
    /// Find proven puzzles in game records: positions where one move alone wins (or saves the
    /// draw), every other move proved worse by the solver.
    ///
    /// Writes JSON lines (docs/guide/analysis.md, "puzzles"); resumable with --resume.
    Puzzles(cmd::puzzles::Options),
    /// Solve a position: the exact final margin with best play, and its line.
    #[command(allow_negative_numbers = true)]
    Solve(cmd::solve::Options),
    /// Count the leaves of the game tree to a depth.
    ///
    /// A pass is a move; a finished game is a leaf.
    #[command(allow_negative_numbers = true)]
    Perft(cmd::perft::Options),
    /// Search the bench positions: the search's signature and speed.
    ///
    /// The fixed positions to a fixed depth with one thread: total nodes (a signature that
    /// changes only with the search) and nodes per second, heuristic and network.
    #[command(allow_negative_numbers = true)]
    Bench(cmd::bench::Options),
    /// Play uniformly random games and count the results.
    #[command(allow_negative_numbers = true)]
    RandomGames(cmd::random_games::Options),
    /// Write training data from games of a player against itself.
    ///
    /// Every searched position with its labels: the game's result and margin, the search's
    /// score (docs/data-format.md). Resumable; splits over machines with --shard.
    #[command(allow_negative_numbers = true)]
    Selfplay(cmd::selfplay::Options),
    /// The opening explorer: the moves played from a position in a set of games, each with
    /// its games and how they ended, the opening book's move marked.
    ///
    /// `yolah explorer build FILES… --out DB` builds the database from PGN and record files;
    /// `yolah explorer DB -p POSITION` reads it.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Explorer {
        #[command(subcommand)]
        command: Option<ExplorerCommand>,
        #[command(flatten)]
        show: cmd::explorer::ShowOptions,
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
    Train(cmd::train::Options),
    /// Generations of self-play, training and a sequential test, resumable: a candidate
    /// network becomes the best only when the test accepts H1.
    ///
    /// Everything goes into --out as it is made: the config, each generation's data,
    /// network, training log and test games, a table and a plot of Elo by generation.
    #[command(allow_negative_numbers = true)]
    Learn(cmd::learn::Options),
    /// `AlphaZero` from zero: generations of self-play with the alphazero player, training of
    /// its policy-value network, and matches against fixed opponents, resumable.
    ///
    /// Everything goes into --out as it is made: the config, each generation's self-play,
    /// network and matches, and a table of results by generation.
    Zero(cmd::zero::Options),
    /// Tune the minimax weights with a genetic algorithm, resumable.
    ///
    /// After each generation: checkpoint.json, log.csv, log.png and best-weights.json in
    /// --out.
    #[command(allow_negative_numbers = true)]
    Tune(cmd::tune::Options),
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
pub enum ExplorerCommand {
    /// Builds an explorer's database from PGN and record files: every position of their
    /// finished games, with the moves played from it and how those games ended.
    Build(cmd::explorer::BuildOptions),
}

#[derive(Subcommand)]
pub enum DataCommand {
    /// Counts, result balance, duplicates and the phases of a data file (or a run's directory).
    Stats {
        /// A data file, or a self-play directory (its data.bin).
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
    /// How right networks and the data's own labels are, on the positions whose exact value
    /// the solver proved (`selfplay --exact-free`).
    ///
    /// For the shipped network, each --net, and the data's search scores and game margins:
    /// the share of positions whose predicted outcome is the exact one, and the mean distance
    /// to the exact final margin, in all and by phase.
    Quality {
        /// A data file, or a self-play directory (its data.bin), with exact values.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// A network to measure (besides the shipped one), at most 16; repeatable.
        #[arg(long, value_name = "FILE")]
        net: Vec<PathBuf>,
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

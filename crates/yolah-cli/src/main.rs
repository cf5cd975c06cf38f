//! `yolah`: the command line of the Yolah engine. It parses arguments and prints; the game
//! logic lives in `yolah-core`, the players in `yolah-ai`.

mod cli;
mod cmd;
mod slurm;
mod usage;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command, DataCommand, ExplorerCommand};
use std::io::{self, Write};
use std::process::ExitCode;
use yolah_ai::SpecError;
use yolah_ai::arena::tournament::ConfigError;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
            ) {
                // Bare `yolah` or `yolah data`: the whole help, every command listed.
                let _ = error.print();
            } else {
                eprintln!("{}", one_line(&error));
            }
            return ExitCode::from(2);
        }
    };
    // Ctrl-C, `kill` or a closed terminal: the programs of `engine:` players, and whatever
    // they started, end with us. (Results files are written a row at a time, so they are
    // whole whenever this comes; `--resume` goes on from them.) `serve` stops in its own way:
    // its connections write their games, and the database is checkpointed.
    if !matches!(cli.command, Command::Serve(_)) {
        let _ = ctrlc::set_handler(|| {
            yolah_ai::players::engine::end_all();
            std::process::exit(130);
        });
    }
    let mut out = Courteous {
        inner: io::stdout(), // not locked: `engine` writes from its search thread too
        gone: false,
    };
    let result = run(&mut out, cli.command);
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

fn run(out: &mut impl Write, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Perft(options) => cmd::perft::run(out, &options),
        Command::Moves(position) => cmd::moves::run(out, &position),
        Command::Replay(options) => cmd::replay::run(out, &options),
        Command::Review(options) => cmd::review::run(out, &options),
        Command::Puzzles(options) => cmd::puzzles::run(out, &options),
        Command::Show(position) => cmd::show::run(out, &position),
        Command::RandomGames(options) => cmd::random_games::run(out, &options),
        Command::Players(options) => cmd::players::run(out, &options),
        Command::Think(options) => cmd::think::run(out, &options),
        Command::Suite(options) => cmd::suite::run(out, &options),
        Command::Engine(options) => cmd::engine::run(&options),
        Command::Selfplay(options) => cmd::selfplay::run(out, &options),
        Command::Train(options) => cmd::train::run(out, &options),
        Command::Learn(options) => cmd::learn::run(out, &options),
        Command::Zero(options) => cmd::zero::run(out, &options),
        Command::Explorer {
            command: Some(ExplorerCommand::Build(options)),
            ..
        } => cmd::explorer::build(out, &options),
        Command::Explorer {
            command: None,
            show,
        } => cmd::explorer::show(out, &show),
        Command::Data {
            command: DataCommand::Stats { path },
        } => cmd::data::stats(out, &path),
        Command::Data {
            command: DataCommand::Merge { out: dir, parts },
        } => cmd::selfplay::merge(out, &dir, &parts),
        Command::Data {
            command: DataCommand::Quality { path, net },
        } => cmd::quality::run(out, &path, &net),
        Command::Serve(options) => cmd::serve::run(out, &options),
        Command::Match(options) => cmd::matches::recorded::run(out, &options),
        Command::Tournament(options) if options.cluster.slurm && options.merge.is_none() => {
            cmd::tournament::on_slurm::run(out, &options)
        }
        Command::Tournament(options) => cmd::tournament::here::run(out, &options),
        Command::Solve(options) => cmd::solve::run(out, &options),
        Command::Bench(options) => cmd::bench::run(out, &options),
        Command::Tune(options) if cmd::spsa::applies(&options) => cmd::spsa::run(out, &options),
        Command::Tune(options) => cmd::tune::run(out, &options),
        Command::Play(options) => cmd::play::run(out, &options),
        Command::Openings(options) => cmd::openings::run(out, &options),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "yolah", out);
            Ok(())
        }
        Command::Manpage => {
            clap_mangen::Man::new(Cli::command()).render(out)?;
            Ok(())
        }
    }
}

/// Bad arguments, player specs included, exit with 2; bad files, positions and everything
/// else with 1.
fn is_usage(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.is::<usage::UsageError>() || cause.is::<SpecError>() || cause.is::<ConfigError>()
    })
}

/// One line for a bad command line: what is wrong or missing, clap's suggestion if it has one,
/// the command's usage, and a help command that runs.
fn one_line(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use std::fmt::Write as _;
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
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        match error.get(kind) {
            Some(ContextValue::String(s)) => {
                let _ = write!(line, "; did you mean '{s}'?");
            }
            Some(ContextValue::Strings(s)) if !s.is_empty() => {
                let _ = write!(line, "; did you mean '{}'?", s.join("' or '"));
            }
            _ => {}
        }
    }
    // The command's words: from the usage clap puts in the error, or, for a value it refused
    // (`--port 99999`), which comes without one, from the command line.
    let words: Vec<String> = match error.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(usage)) => usage
            .to_string()
            .trim()
            .trim_start_matches("Usage:")
            .split_whitespace()
            .take_while(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .filter(|word| !word.starts_with('-'))
            .map(str::to_string)
            .collect(),
        _ => std::env::args_os()
            .map_while(|arg| arg.into_string().ok())
            .collect(),
    };
    if !words.is_empty() {
        // The subcommand's path (`yolah tournament`), then its own full usage: the one clap
        // puts in an error shows the arguments given as if they were required.
        let mut command = Cli::command();
        command.build();
        let mut found = &command;
        let mut path = vec!["yolah"];
        for word in words.iter().skip(1) {
            match found.find_subcommand(word) {
                Some(sub) => {
                    found = sub;
                    path.push(word);
                }
                None => break,
            }
        }
        let path = path.join(" ");
        // `-g` counts games in match, selfplay and random-games; a tournament counts them per
        // pair, under another name.
        if path == "yolah tournament"
            && matches!(error.get(ContextKind::InvalidArg), Some(ContextValue::String(arg)) if arg == "-g")
        {
            line.push_str("; a tournament's games are --games-per-pair N");
        }
        let mut found = found.clone().bin_name(&path);
        let usage = found.render_usage().to_string();
        let usage: Vec<&str> = usage
            .trim()
            .trim_start_matches("Usage:")
            .lines()
            .map(str::trim)
            .collect();
        let usage = usage.join(" | ");
        line = format!("{line}; usage: {usage} (more: {path} --help)");
    }
    line
}

/// Standard output that stops printing, without failing, once its reader has gone
/// (`yolah tournament … | head -1`): the files a command writes are its product and are
/// written whatever happens to the printing.
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

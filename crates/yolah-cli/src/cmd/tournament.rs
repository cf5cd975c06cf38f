//! `yolah tournament`: a round robin with paired openings, resumable, with a crosstable and
//! Bradley–Terry ratings at the end.

use super::{DEFAULT_RANDOM_PLIES, Pairing, play_games, standings};
use anyhow::{Result, bail};
use std::io::Write;
use std::time::Instant;
use yolah_ai::arena::tournament::{Config, Crosstable, Store};

/// The players of `yolah tournament` without specs: the built-in players at a short time per
/// move, so that the whole run takes about a minute on two cores.
pub const DEFAULT_PLAYERS: [&str; 3] = ["mcts:time=20ms", "montecarlo:time=20ms", "random"];

/// The command line's options; `None` where the user gave nothing.
pub struct Options {
    pub specs: Vec<String>,
    pub games_per_pair: Option<u32>,
    pub games: Pairing,
    pub out: Option<std::path::PathBuf>,
    pub resume: bool,
}

pub const DEFAULT_GAMES_PER_PAIR: u32 = 60;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let threads = options.games.threads()?;
    let (config, mut records, writer) = if options.resume {
        let Some(dir) = options.out.as_deref() else {
            bail!("--resume needs --out DIR, the directory of the tournament to finish");
        };
        let resumed = Store::new(dir).resume()?;
        check_same(options, &resumed.config)?;
        if resumed.cut_partial_row {
            eprintln!("cut a partial last row from the games file (a run was interrupted)");
        }
        (resumed.config, resumed.records, Some(resumed.writer))
    } else {
        let specs = if options.specs.is_empty() {
            DEFAULT_PLAYERS.map(String::from).to_vec()
        } else {
            options.specs.clone()
        };
        let config = Config {
            specs,
            games_per_pair: options.games_per_pair.unwrap_or(DEFAULT_GAMES_PER_PAIR),
            random_plies: options.games.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
            seed: options.games.seed.unwrap_or_else(rand::random),
        };
        config.players()?;
        let writer = match options.out.as_deref() {
            Some(dir) => Some(Store::new(dir).create(&config)?),
            None => None,
        };
        (config, Vec::new(), writer)
    };
    let specs = config.players()?;
    let done: std::collections::HashSet<u64> = records.iter().map(|r| r.game).collect();
    let schedule = config.schedule();
    let todo: Vec<_> = schedule
        .iter()
        .copied()
        .filter(|g| !done.contains(&g.game))
        .collect();
    writeln!(
        out,
        "{} players, {} games ({} to play), {} random opening plies, seed {}, {threads} games at a time",
        specs.len(),
        schedule.len(),
        todo.len(),
        config.random_plies,
        config.seed
    )?;
    let start = Instant::now();
    play_games(
        &config,
        &specs,
        &todo,
        threads,
        writer,
        &mut records,
        schedule.len(),
    )?;
    writeln!(
        out,
        "played {} games in {:.1} s",
        todo.len(),
        start.elapsed().as_secs_f64()
    )?;
    let table = Crosstable::new(&config.specs, &records).map_err(anyhow::Error::msg)?;
    let ratings = standings::print(out, &config.specs, &table, table.fit().as_ref())?;
    if let Some(dir) = options.out.as_deref() {
        Store::new(dir).write_ratings(&ratings)?;
        writeln!(out, "\nwrote {}", dir.join("ratings.json").display())?;
    }
    Ok(())
}

/// With `--resume`, whatever the user repeats must be what the tournament was started with.
fn check_same(options: &Options, config: &Config) -> Result<()> {
    let differs = |what: &str, given: String, stored: String| {
        anyhow::anyhow!("--resume: {what} {given} differs from the tournament's {stored}")
    };
    if !options.specs.is_empty() && options.specs != config.specs {
        return Err(differs(
            "players",
            options.specs.join(" "),
            config.specs.join(" "),
        ));
    }
    for (what, given, stored) in [
        (
            "--games-per-pair",
            options.games_per_pair.map(u64::from),
            u64::from(config.games_per_pair),
        ),
        (
            "--random-plies",
            options.games.random_plies.map(u64::from),
            u64::from(config.random_plies),
        ),
        ("--seed", options.games.seed, config.seed),
    ] {
        if let Some(given) = given.filter(|&g| g != stored) {
            return Err(differs(what, given.to_string(), stored.to_string()));
        }
    }
    Ok(())
}

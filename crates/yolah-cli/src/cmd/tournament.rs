//! `yolah tournament`: a round robin with paired openings, resumable, with a crosstable and
//! Bradley–Terry ratings at the end.

use super::{DEFAULT_RANDOM_PLIES, Pairing, UsageError, canonical_specs, standings, usage};
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;
use yolah_ai::Spec;
use yolah_ai::arena::record::{GameRecord, RecordWriter, Tail};
use yolah_ai::arena::tally::Tally;
use yolah_ai::arena::tournament::{
    Config, Crosstable, Ratings, Scheduled, Store, game_pool, run_games,
};
use yolah_core::Color;

/// The options of `yolah tournament`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The players, like `mcts:time=20ms` (see `yolah players`) [default:
    /// minimax:time=20ms,eval=nn minimax:time=20ms mcts:time=20ms montecarlo:time=20ms
    /// random].
    #[arg(value_name = "SPEC")]
    pub specs: Vec<String>,
    /// Games between each pair; at most 1000000 games in all [default: 40].
    #[arg(long, value_name = "N")]
    pub games_per_pair: Option<u32>,
    #[command(flatten)]
    pub pairing: Pairing,
    /// Directory for tournament.json, games.csv (a row per game as it ends),
    /// ratings.json and ratings.png.
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Play only part K of N of the schedule (the games numbered K−1 modulo N), for runs
    /// split over machines; `yolah tournament merge` joins the parts.
    #[arg(long, value_name = "K/N", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::shard::Shard>()))]
    pub shard: Option<yolah_ai::arena::shard::Shard>,
    /// Finish the tournament in --out after an interruption.
    #[arg(long)]
    pub resume: bool,
    #[command(subcommand)]
    pub merge: Option<TournamentCommand>,
}

/// The players of `yolah tournament` without specs: the built-in players at a short time per
/// move, so that the whole run takes about two minutes on two cores.
pub const DEFAULT_PLAYERS: [&str; 5] = [
    "minimax:time=20ms,eval=nn",
    "minimax:time=20ms",
    "mcts:time=20ms",
    "montecarlo:time=20ms",
    "random",
];

pub const DEFAULT_GAMES_PER_PAIR: u32 = 40;

/// What a run starts from: the store (holding the directory's lock) if there is a directory,
/// the config, the games recorded so far, and the writer for the rest.
type Opened = (Option<Store>, Config, Vec<GameRecord>, Option<RecordWriter>);

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    if let Some(TournamentCommand::Merge { out: dir, parts }) = &options.merge {
        return merge(out, dir, parts);
    }
    let threads = options.pairing.threads()?;
    // The store holds the directory's lock until the end of the run.
    let (store, config, mut records, writer) = open(options)?;
    let specs = config.players()?;
    let done: std::collections::HashSet<u64> = records.iter().map(|r| r.game).collect();
    let schedule = config.schedule_here();
    let todo: Vec<_> = schedule
        .iter()
        .copied()
        .filter(|g| !done.contains(&g.game))
        .collect();
    if todo.is_empty() {
        writeln!(
            out,
            "the tournament is already finished ({} games); its results:",
            schedule.len()
        )?;
    } else {
        writeln!(
            out,
            "{} players, {} games ({} to play), {}, seed {}, {}",
            specs.len(),
            schedule.len(),
            todo.len(),
            openings_text(&config),
            config.seed,
            if threads == 1 {
                "1 game at a time".to_string()
            } else {
                format!("{threads} games at a time")
            }
        )?;
    }
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
    if !todo.is_empty() {
        writeln!(
            out,
            "played {} in {:.1} s",
            games(todo.len()),
            start.elapsed().as_secs_f64()
        )?;
    }
    super::report_forfeits(&config.specs, &records);
    let table = Crosstable::new(&config.specs, &records).map_err(anyhow::Error::msg)?;
    let fit = table.fit();
    // The files first: printing is a courtesy.
    let ratings = fit
        .as_ref()
        .map(|fit| Ratings::new(&config.specs, &table, fit));
    if let (Some(store), Some(ratings)) = (&store, &ratings) {
        store.write_ratings(ratings)?;
    }
    standings::print(out, &config.specs, &table, fit.as_ref())?;
    if let (Some(store), Some(ratings)) = (&store, &ratings) {
        let png = store.dir().join("ratings.png");
        let title = format!(
            "Round robin: {} games a pair, {}, seed {}",
            config.games_per_pair,
            openings_text(&config),
            config.seed
        );
        super::plot::ratings(&png, &title, ratings)?;
        writeln!(
            out,
            "\nwrote {} and {}",
            store.dir().join("ratings.json").display(),
            png.display()
        )?;
    }
    Ok(())
}

/// Plays `games` with a progress bar over `total` games of which `records` are done already,
/// writing each record as its game ends when there is a writer, and adding it to `records`.
/// The bar's message (a line every ten games on a pipe) is the live standings.
fn play_games(
    config: &Config,
    specs: &[Spec],
    games: &[Scheduled],
    threads: usize,
    mut writer: Option<RecordWriter>,
    records: &mut Vec<GameRecord>,
    total: usize,
) -> Result<()> {
    let pool = game_pool(threads).map_err(anyhow::Error::msg)?;
    let bar = super::progress_bar(total as u64, "games");
    bar.set_style(
        indicatif::ProgressStyle::with_template("{pos}/{len} games, {msg}")
            .expect("the template is valid"),
    );
    bar.set_position(records.len() as u64);
    let terminal = std::io::stderr().is_terminal();
    let schedule = config.schedule();
    let mut live = Live::new(config.specs.len());
    for record in records.iter() {
        live.add(record, &schedule);
    }
    run_games(config, specs, games, &pool, |record| {
        if let Some(writer) = writer.as_mut() {
            writer
                .write(&record)
                .context("writing the games file (the games so far are kept)")?;
        }
        live.add(&record, &schedule);
        records.push(record);
        bar.inc(1);
        let standings = live.line(&config.specs);
        if terminal {
            bar.set_message(standings);
        } else if records.len().is_multiple_of(10) {
            eprintln!("{} games, {standings}", records.len());
        }
        anyhow::Ok(())
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// The standings while a tournament runs: each player's points and games, and the tally of
/// every pair (from the first-listed player's point of view; a pair's games share a round).
struct Live {
    half_points: Vec<u32>,
    games: Vec<u32>,
    pairs: std::collections::HashMap<(usize, usize), Tally>,
}

impl Live {
    fn new(players: usize) -> Live {
        Live {
            half_points: vec![0; players],
            games: vec![0; players],
            pairs: std::collections::HashMap::new(),
        }
    }

    fn add(&mut self, record: &GameRecord, schedule: &[Scheduled]) {
        let Some(game) = usize::try_from(record.game)
            .ok()
            .and_then(|i| schedule.get(i))
        else {
            return;
        };
        let half = record.outcome().map_or(1, |o| o.half_points(Color::Black));
        self.half_points[game.black] += half;
        self.half_points[game.white] += 2 - half;
        self.games[game.black] += 1;
        self.games[game.white] += 1;
        let (i, j) = (game.black.min(game.white), game.black.max(game.white));
        let first_half = if i == game.black { half } else { 2 - half };
        self.pairs
            .entry((i, j))
            .or_default()
            .add(game.round, first_half);
    }

    /// `leader A 62.5 % of 24; A vs B: +W =D -L, score, Elo [..], LOS, pairs`: the leader
    /// by score and its results against the runner-up.
    fn line(&self, specs: &[String]) -> String {
        let score = |i: usize| f64::from(self.half_points[i]) / f64::from(2 * self.games[i].max(1));
        let mut order: Vec<usize> = (0..specs.len()).filter(|&i| self.games[i] > 0).collect();
        order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        let [leader, second, ..] = order[..] else {
            return String::new();
        };
        let name = |i: usize| super::plot::short_spec(&specs[i]);
        let mut line = format!(
            "leader {} {:.1} % of {}",
            name(leader),
            100.0 * score(leader),
            self.games[leader]
        );
        let key = (leader.min(second), leader.max(second));
        if let Some(tally) = self.pairs.get(&key) {
            let tally = if key.0 == leader {
                tally.clone()
            } else {
                tally.flipped()
            };
            let _ = write!(line, "; vs {}: {}", name(second), tally.line(None));
        }
        line
    }
}

/// Resumes the tournament in `--out`, or starts one (in `--out` if given).
fn open(options: &Options) -> Result<Opened> {
    Ok(if options.resume {
        let Some(dir) = options.out.as_deref() else {
            return Err(UsageError(
                "--resume needs --out DIR, the directory of the tournament to finish".into(),
            )
            .into());
        };
        let (store, resumed) = Store::resume(dir)?;
        check_same(options, &resumed.config)?;
        match &resumed.tail {
            Tail::Clean => {}
            Tail::MissingNewline => eprintln!("ended the last row of the games file"),
            Tail::Damaged { line, reason, .. } => eprintln!(
                "cut the damaged last row of the games file (line {line}: {reason}); its game \
                 is played again"
            ),
        }
        (Some(store), resumed.config, resumed.records, resumed.writer)
    } else {
        let specs = if options.specs.is_empty() {
            DEFAULT_PLAYERS.map(String::from).to_vec()
        } else {
            canonical_specs(&options.specs)?
        };
        let config = Config {
            specs,
            games_per_pair: options.games_per_pair.unwrap_or(DEFAULT_GAMES_PER_PAIR),
            random_plies: options.pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
            seed: options.pairing.seed.unwrap_or(super::DEFAULT_SEED),
            shard: options.shard,
            openings: options.pairing.openings()?,
            shuffle_openings: options.pairing.shuffle_openings,
            time_control: options.pairing.time_control()?,
        };
        config.players()?;
        match options.out.as_deref() {
            Some(dir) => {
                let (store, writer) = Store::create(dir, &config)?;
                (Some(store), config, Vec::new(), Some(writer))
            }
            None => (None, config, Vec::new(), None),
        }
    })
}

/// Where the games start, in words: the suite's size, or the random plies.
fn openings_text(config: &Config) -> String {
    match &config.openings {
        Some(lines) => format!(
            "{} openings from a suite{}",
            lines.len(),
            if config.shuffle_openings {
                " (shuffled)"
            } else {
                ""
            }
        ),
        None => format!("{} random opening plies", config.random_plies),
    }
}

pub fn games(n: usize) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

/// With `--resume`, whatever the user repeats must be what the tournament was started with.
fn check_same(options: &Options, config: &Config) -> Result<()> {
    let normalised = |specs: &[String]| -> Vec<String> {
        specs
            .iter()
            .map(|s| {
                s.parse::<yolah_ai::Spec>()
                    .map_or_else(|_| s.clone(), |spec| spec.to_string())
            })
            .collect()
    };
    usage!(
        options.shard.is_none() || options.shard == config.shard,
        "--resume: the tournament's shard is {}",
        config
            .shard
            .map_or_else(|| "none".to_string(), |s| s.to_string())
    );
    usage!(
        options.specs.is_empty() || normalised(&options.specs) == config.specs,
        "--resume: players {} differ from the tournament's {}",
        options.specs.join(" "),
        config.specs.join(" ")
    );
    for (what, given, stored) in [
        (
            "--games-per-pair",
            options.games_per_pair.map(u64::from),
            u64::from(config.games_per_pair),
        ),
        (
            "--random-plies",
            options.pairing.random_plies.map(u64::from),
            u64::from(config.random_plies),
        ),
        ("--seed", options.pairing.seed, config.seed),
    ] {
        if let Some(given) = given.filter(|&g| g != stored) {
            return Err(UsageError(format!(
                "--resume: {what} {given} differs from the tournament's {stored}"
            ))
            .into());
        }
    }
    let given = options.pairing.time_control()?;
    usage!(
        given.is_none() || given == config.time_control,
        "--resume: --tc {} differs from the tournament's {}",
        options.pairing.tc.as_deref().unwrap_or_default(),
        config
            .time_control
            .map_or_else(|| "none".to_string(), |tc| tc.to_string())
    );
    Ok(())
}

/// `yolah tournament merge OUT DIR…`: the shards of one tournament joined into `OUT` (its
/// games in schedule order), then its crosstable and ratings as `--resume` prints them. Every
/// shard must be there once, finished, and of the same tournament.
fn merge(out: &mut impl Write, dir: &std::path::Path, parts: &[std::path::PathBuf]) -> Result<()> {
    usage!(
        !parts.is_empty(),
        "tournament merge needs the shard directories to join"
    );
    let mut shards = Vec::new();
    for part in parts {
        let (config, records) = Store::read(part)?;
        anyhow::ensure!(
            records.len() == config.schedule_here().len(),
            "'{}' is unfinished ({} of {} games): finish it with --resume first",
            part.display(),
            records.len(),
            config.schedule_here().len()
        );
        shards.push((config, records));
    }
    let whole = Config {
        shard: None,
        ..shards[0].0.clone()
    };
    let count = shards[0].0.shard.map_or(0, |s| s.count);
    let mut seen = vec![None; count as usize];
    for (part, (config, _)) in parts.iter().zip(&shards) {
        anyhow::ensure!(
            Config {
                shard: None,
                ..config.clone()
            } == whole,
            "'{}' is not a shard of the same tournament as '{}'",
            part.display(),
            parts[0].display()
        );
        let shard = config
            .shard
            .filter(|s| s.count == count)
            .ok_or_else(|| anyhow::anyhow!("'{}' is not one of {count} shards", part.display()))?;
        let slot = &mut seen[shard.index as usize - 1];
        if let Some(other) = slot.replace(part) {
            anyhow::bail!(
                "shard {shard} is given twice: '{}' and '{}'",
                other.display(),
                part.display()
            );
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        anyhow::bail!("shard {}/{count} is missing", missing + 1);
    }
    let mut records: Vec<GameRecord> = shards.into_iter().flat_map(|(_, r)| r).collect();
    records.sort_by_key(|r| r.game);
    {
        let (_store, mut writer) = Store::create(dir, &whole)?;
        for record in &records {
            writer.write(record)?;
        }
    }
    writeln!(
        out,
        "merged {count} shards: {} games into {}",
        records.len(),
        dir.display()
    )?;
    run(
        out,
        &Options {
            specs: Vec::new(),
            games_per_pair: None,
            pairing: Pairing::default(),
            out: Some(dir.to_path_buf()),
            shard: None,
            resume: true,
            merge: None,
        },
    )
}

/// `yolah tournament merge`.
#[derive(clap::Subcommand)]
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

//! `yolah tournament`: a round robin with paired openings, resumable, with a crosstable and
//! Bradley–Terry ratings at the end.

use crate::cmd::{DEFAULT_RANDOM_PLIES, Pairing, UsageError, games, standings, usage};
use anyhow::Result;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use yolah_ai::Spec;
use yolah_ai::arena::record::{GameRecord, RecordWriter, Tail};
use yolah_ai::arena::sprt::Sprt;
use yolah_ai::arena::tally::MatchScore;
use yolah_ai::arena::tournament::{
    Config, Crosstable, Ratings, Scheduled, Store, game_pool, run_games_while,
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
    /// A gauntlet: the first player (the candidate) meets each of the others, which do not
    /// meet each other; the results are shown per opponent.
    #[arg(long)]
    pub gauntlet: bool,
    /// With --gauntlet: a sequential test per opponent, `elo0=E0,elo1=E1[,alpha,beta]` for
    /// the candidate; an opponent's games stop once its test decides.
    #[arg(long, value_name = "TEST", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::sprt::Sprt>()))]
    pub sprt: Option<yolah_ai::arena::sprt::Sprt>,
    /// Print one JSON object (the ratings; with --gauntlet, the results per opponent).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub cluster: crate::slurm::ClusterOptions,
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
    let event = if config.gauntlet {
        "yolah gauntlet"
    } else {
        "yolah tournament"
    };
    let recorder =
        match crate::cmd::Recorder::new(writer, options.pairing.pgn.as_deref(), event, &records) {
            Ok(recorder) => recorder,
            Err(error) => {
                // Refused before its first game (its --pgn file): a tournament this run made
                // goes too.
                if let Some(store) = store {
                    store.discard();
                }
                return Err(error);
            }
        };
    let done: std::collections::HashSet<u64> = records.iter().map(|r| r.game).collect();
    let schedule = config.schedule_here();
    let mut live = Live::new(config.specs.len());
    let full = config.schedule();
    for record in &records {
        live.add(record, &full);
    }
    let sprt = config.test().map_err(anyhow::Error::msg)?;
    let decided = live.decided(sprt);
    let todo: Vec<_> = schedule
        .iter()
        .copied()
        .filter(|g| !done.contains(&g.game) && !decided[g.white.max(g.black)])
        .collect();
    // With --json, stdout holds the object alone; the words go to stderr.
    let mut words: Vec<String> = Vec::new();
    if todo.is_empty() {
        words.push(format!(
            "the tournament is already finished ({} games); its results:",
            schedule.len()
        ));
    } else {
        words.push(format!(
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
        ));
    }
    say(out, options.json, &words)?;
    let start = Instant::now();
    let run = Run {
        config: &config,
        specs: &specs,
        threads,
        sprt,
        total: schedule.len(),
    };
    play_games(&run, &todo, recorder, &mut records, live, decided)?;
    if !todo.is_empty() {
        let played = format!(
            "played {} in {:.1} s",
            games(todo.len()),
            start.elapsed().as_secs_f64()
        );
        say(out, options.json, &[played])?;
    }
    let seconds = start.elapsed().as_secs_f64();
    results(out, options, &config, store.as_ref(), &records, seconds)
}

/// The results, files first (`ratings.json`, then the plot): per opponent in a gauntlet, the
/// crosstable and ratings; or one JSON object.
fn results(
    out: &mut impl Write,
    options: &Options,
    config: &Config,
    store: Option<&Store>,
    records: &[GameRecord],
    seconds: f64,
) -> Result<()> {
    crate::cmd::report_forfeits(&config.specs, records);
    let table = Crosstable::new(&config.specs, records).map_err(anyhow::Error::msg)?;
    let fit = table.fit();
    // The files first: printing is a courtesy.
    let ratings = fit
        .as_ref()
        .map(|fit| Ratings::new(&config.specs, &table, fit));
    if let (Some(store), Some(ratings)) = (store, &ratings) {
        store.write_ratings(ratings)?;
    }
    let opponents = config
        .gauntlet
        .then(|| per_opponent(config, records, config.test().ok().flatten()));
    if options.json {
        let object = serde_json::json!({
            "players": ratings.as_ref().map(|r| &r.players),
            "gauntlet": opponents,
            "games": records.len(),
            "seconds": seconds,
            "adjudicated": records.iter().filter(|r| !r.adjudicated.is_empty()).count(),
        });
        writeln!(out, "{object}")?;
    } else if let Some(opponents) = &opponents {
        print_gauntlet(out, config, opponents)?;
    }
    // A gauntlet's table stands without ratings; a round robin's ratings are its result.
    if !(options.json || config.gauntlet && fit.is_none()) {
        standings::print(out, &config.specs, &table, fit.as_ref())?;
    }
    if let (Some(store), Some(ratings)) = (store, &ratings) {
        let png = store.dir().join("ratings.png");
        let title = format!(
            "{}: {} games a pair, {}, seed {}",
            if config.gauntlet {
                "Gauntlet"
            } else {
                "Round robin"
            },
            config.games_per_pair,
            openings_text(config),
            config.seed
        );
        crate::cmd::plot::ratings(&png, &title, ratings)?;
        if !options.json {
            writeln!(
                out,
                "\nwrote {} and {}",
                store.dir().join("ratings.json").display(),
                png.display()
            )?;
        }
    }
    Ok(())
}

/// Lines for the reader: on `out`, or on stderr when `out` holds JSON.
fn say(out: &mut impl Write, json: bool, lines: &[String]) -> Result<()> {
    for line in lines {
        if json {
            eprintln!("{line}");
        } else {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// What a run plays with.
struct Run<'a> {
    config: &'a Config,
    specs: &'a [Spec],
    threads: usize,
    /// A test per opponent of a gauntlet.
    sprt: Option<Sprt>,
    /// The games of the run (this shard's), played or not.
    total: usize,
}

/// Plays `games` with a progress bar over the run's games of which `records` are done
/// already, recording each as its game ends and adding it to `records`. The bar's message (a
/// line every ten games on a pipe) is the live standings. In a gauntlet with a test, an
/// opponent's games stop once its test decides (`decided`, by player).
fn play_games(
    run: &Run,
    games: &[Scheduled],
    mut recorder: crate::cmd::Recorder,
    records: &mut Vec<GameRecord>,
    mut live: Live,
    decided: Vec<bool>,
) -> Result<()> {
    let config = run.config;
    let pool = game_pool(run.threads).map_err(anyhow::Error::msg)?;
    let bar = crate::cmd::progress_bar(run.total as u64, "games");
    bar.set_style(
        indicatif::ProgressStyle::with_template("{pos}/{len} games, {msg}")
            .expect("the template is valid"),
    );
    bar.set_position(records.len() as u64);
    let terminal = std::io::stderr().is_terminal();
    let schedule = config.schedule();
    let decided: Vec<AtomicBool> = decided.into_iter().map(AtomicBool::new).collect();
    let wanted = |g: &Scheduled| !decided[g.black.max(g.white)].load(Ordering::Relaxed);
    run_games_while(config, run.specs, games, &pool, wanted, |record| {
        recorder.write(&record)?;
        live.add(&record, &schedule);
        for (flag, decision) in decided.iter().zip(live.decided(run.sprt)) {
            if decision {
                flag.store(true, Ordering::Relaxed);
            }
        }
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

/// One opponent's line of a gauntlet: the candidate's results against it.
#[derive(serde::Serialize)]
struct Opponent {
    spec: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Points per game of the finished pairs, for the candidate.
    score: f64,
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    los: f64,
    pairs: [u64; 5],
    llr: Option<f64>,
    verdict: Option<String>,
    #[serde(skip)]
    line: String,
}

/// The candidate's results against each opponent of a gauntlet, from the records.
fn per_opponent(config: &Config, records: &[GameRecord], sprt: Option<Sprt>) -> Vec<Opponent> {
    let mut live = Live::new(config.specs.len());
    let schedule = config.schedule();
    for record in records {
        live.add(record, &schedule);
    }
    (1..config.specs.len())
        .map(|j| {
            let tally = live.pairs.get(&(0, j)).cloned().unwrap_or_default();
            let (elo, elo_low, elo_high) = tally.pairs.elo();
            Opponent {
                spec: config.specs[j].clone(),
                games: tally.games(),
                wins: tally.wdl[0],
                draws: tally.wdl[1],
                losses: tally.wdl[2],
                score: tally.pairs.score(),
                elo,
                elo_low,
                elo_high,
                los: tally.pairs.los(),
                pairs: tally.pairs.0,
                llr: sprt.map(|sprt| sprt.llr(&tally.pairs)),
                verdict: sprt.map(|sprt| {
                    sprt.verdict(&tally.pairs)
                        .map_or_else(|| "inconclusive".to_string(), |v| v.to_string())
                }),
                line: tally.line(sprt),
            }
        })
        .collect()
}

/// The gauntlet's table: the candidate against each opponent, with the test's verdict.
fn print_gauntlet(out: &mut impl Write, config: &Config, opponents: &[Opponent]) -> Result<()> {
    writeln!(out, "gauntlet of {}:", config.specs[0])?;
    for opponent in opponents {
        write!(out, "  vs {}: {}", opponent.spec, opponent.line)?;
        if let Some(verdict) = &opponent.verdict {
            write!(out, ", {verdict}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The standings while a tournament runs: each player's points and games, and the tally of
/// every pair (from the first-listed player's point of view; a pair's games share a round).
pub(in crate::cmd) struct Live {
    half_points: Vec<u32>,
    games: Vec<u32>,
    pairs: std::collections::HashMap<(usize, usize), MatchScore>,
}

impl Live {
    pub(in crate::cmd) fn new(players: usize) -> Live {
        Live {
            half_points: vec![0; players],
            games: vec![0; players],
            pairs: std::collections::HashMap::new(),
        }
    }

    /// For each player, whether the gauntlet's test against it has decided (never the
    /// candidate's, nor any without a test).
    pub(in crate::cmd) fn decided(&self, sprt: Option<Sprt>) -> Vec<bool> {
        (0..self.games.len())
            .map(|j| {
                j > 0
                    && sprt.is_some_and(|sprt| {
                        self.pairs
                            .get(&(0, j))
                            .is_some_and(|t| sprt.verdict(&t.pairs).is_some())
                    })
            })
            .collect()
    }

    pub(in crate::cmd) fn add(&mut self, record: &GameRecord, schedule: &[Scheduled]) {
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
        let name = |i: usize| crate::cmd::plot::short_spec(&specs[i]);
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
        let config = new_config(options)?;
        match options.out.as_deref() {
            Some(dir) => {
                let (store, writer) = Store::create(dir, &config)?;
                (Some(store), config, Vec::new(), Some(writer))
            }
            None => (None, config, Vec::new(), None),
        }
    })
}

/// A new tournament's config, as the options give it, its players checked.
pub(in crate::cmd) fn new_config(options: &Options) -> Result<Config> {
    let specs = if options.specs.is_empty() {
        options.pairing.specs(&DEFAULT_PLAYERS.map(String::from))?
    } else {
        options.pairing.specs(&options.specs)?
    };
    let config = Config {
        specs,
        games_per_pair: options.games_per_pair.unwrap_or(DEFAULT_GAMES_PER_PAIR),
        random_plies: options.pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: options.pairing.seed.unwrap_or(crate::cmd::DEFAULT_SEED),
        shard: options.shard,
        openings: options.pairing.openings()?,
        shuffle_openings: options.pairing.shuffle_openings,
        time_control: options.pairing.time_control()?,
        gauntlet: options.gauntlet,
        adjudicate: options.pairing.adjudicate,
        sprt: options.sprt.map(|sprt| sprt.to_string()),
    };
    let specs = config.players()?;
    if let Some((a, b, distinct)) = config.repeating_pair(&specs) {
        let asked = format!("--games-per-pair {}", config.games_per_pair);
        return Err(crate::cmd::UsageError(crate::cmd::repeated_games(
            &asked, &specs[a], &specs[b], distinct,
        ))
        .into());
    }
    Ok(config)
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
    let normalised = |specs: &[String]| -> Vec<String> {
        options
            .pairing
            .specs(specs)
            .unwrap_or_else(|_| normalised(specs))
    };
    usage!(
        !options.gauntlet || config.gauntlet,
        "--resume: the tournament is not a gauntlet"
    );
    usage!(
        !options.pairing.adjudicate || config.adjudicate,
        "--resume: the tournament was started without --adjudicate"
    );
    let given = options.sprt.map(|sprt| sprt.to_string());
    usage!(
        given.is_none() || given == config.sprt,
        "--resume: --sprt {} differs from the tournament's {}",
        given.as_deref().unwrap_or_default(),
        config.sprt.as_deref().unwrap_or("none")
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
pub(in crate::cmd) fn merge(
    out: &mut impl Write,
    dir: &std::path::Path,
    parts: &[std::path::PathBuf],
) -> Result<()> {
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
    write_finished(dir, &whole, &records)?;
    writeln!(
        out,
        "merged {count} shards: {} games into {}",
        records.len(),
        dir.display()
    )?;
    show(out, dir)
}

/// The results of the finished tournament in `dir`, as `--resume` prints them.
pub(in crate::cmd) fn show(out: &mut impl Write, dir: &std::path::Path) -> Result<()> {
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
            gauntlet: false,
            sprt: None,
            json: false,
            cluster: crate::slurm::ClusterOptions::default(),
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

/// A new tournament folder `dir` of `config` holding `records`, its games (as `merge` and a
/// gauntlet's tests on Slurm write one).
pub(in crate::cmd) fn write_finished(
    dir: &std::path::Path,
    config: &Config,
    records: &[GameRecord],
) -> Result<()> {
    let (_store, mut writer) = Store::create(dir, config)?;
    for record in records {
        writer.write(record)?;
    }
    Ok(())
}

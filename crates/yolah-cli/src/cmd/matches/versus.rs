//! `yolah match A B`: two players over paired openings, a summary line with the Elo difference
//! (or, with `--json`, one object with the same facts).

use crate::cmd::{DEFAULT_RANDOM_PLIES, DEFAULT_SEED, Pairing, usage};
use anyhow::{Result, bail};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use yolah_ai::arena::record::{GameRecord, RecordWriter, Tail};
use yolah_ai::arena::sprt::{Sprt, Verdict};
use yolah_ai::arena::tally::MatchScore;
use yolah_ai::arena::tournament::{Config, check_against_schedule, game_pool, run_games};
use yolah_core::Color;

/// The options of `yolah match`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The first player, like `minimax:time=100ms` (see `yolah players`); the summary is
    /// from its point of view.
    #[arg(value_name = "FIRST")]
    pub first: String,
    /// The second player, like `mcts:time=100ms`.
    #[arg(value_name = "SECOND")]
    pub second: String,
    /// Games, 1 to 1000000 (with --sprt: the most to play) [default with --sprt: 20000].
    #[arg(long, short, value_name = "N", required_unless_present = "sprt")]
    pub games: Option<u32>,
    /// Play game pairs until a sequential probability ratio test decides between Elo E0
    /// (H0) and E1 (H1) for the first player: `elo0=E0,elo1=E1[,alpha=0.05,beta=0.05]`.
    #[arg(long, value_name = "TEST", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::sprt::Sprt>()))]
    pub sprt: Option<yolah_ai::arena::sprt::Sprt>,
    #[command(flatten)]
    pub pairing: Pairing,
    /// Write every game to this new CSV file (`yolah replay FILE --game N` reads it).
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Continue the match recorded in --out after an interruption: give the command that
    /// started it, plus --resume. The games played are kept (and a test goes on from
    /// them); the others are played.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print one JSON object (the score, Elo and interval, the games).
    #[arg(long)]
    pub json: bool,
    /// Play only part K of N of the games (those numbered K − 1 modulo N), without a test,
    /// as each task of `--slurm` does; the parts' record files are joined by `--slurm`.
    #[arg(long, value_name = "K/N", conflicts_with = "sprt", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_ai::arena::shard::Shard>()))]
    pub shard: Option<yolah_ai::arena::shard::Shard>,
    #[command(flatten)]
    pub cluster: crate::slurm::ClusterOptions,
}

/// `yolah match` here (the cluster's is [`super::on_slurm`]).
pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let (config, specs) = prepare(options)?;
    let threads = options.pairing.threads()?;
    play_here(out, options, &config, &specs, threads)
}

/// The match's config as the options give it, checked, and its players.
pub fn prepare(options: &Options) -> Result<(Config, Vec<yolah_ai::Spec>)> {
    let games = options.games.unwrap_or(if options.sprt.is_some() {
        SPRT_MAX_GAMES
    } else {
        0
    });
    usage!(games > 0, "--games must be at least 1");
    if let (Some(record), Some(pgn)) = (options.out.as_deref(), options.pairing.pgn.as_deref()) {
        usage!(
            !same_file(record, pgn),
            "--out and --pgn name the same file '{}': the games and their PGN need a file each",
            pgn.display()
        );
    }
    options.pairing.threads()?;
    let mut config = Config {
        specs: options
            .pairing
            .specs(&[options.first.clone(), options.second.clone()])?,
        games_per_pair: games,
        random_plies: options.pairing.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: options.pairing.seed.unwrap_or(DEFAULT_SEED),
        shard: options.shard,
        openings: options.pairing.openings()?,
        shuffle_openings: options.pairing.shuffle_openings,
        time_control: options.pairing.time_control()?,
        gauntlet: false,
        adjudicate: options.pairing.adjudicate,
        sprt: None,
    };
    let specs = config.players()?;
    // Players that repeat themselves over a suite play each opening's game in each colour
    // once, then the same games again: counted again, they would only narrow the interval.
    if let Some((_, _, distinct)) = config.repeating_pair(&specs) {
        usage!(
            options.games.is_none(),
            "{}",
            crate::cmd::repeated_games(&format!("--games {games}"), &specs[0], &specs[1], distinct)
        );
        eprintln!(
            "the test stops at {distinct} games: {} and {} play the same game again from the \
             same opening, and {} openings give only {distinct} different games",
            specs[0],
            specs[1],
            distinct / 2
        );
        config.games_per_pair = distinct;
    }
    Ok((config, specs))
}

/// Plays the match of `config` here, `threads` games at a time.
fn play_here(
    out: &mut impl Write,
    options: &Options,
    config: &Config,
    specs: &[yolah_ai::Spec],
    threads: usize,
) -> Result<()> {
    let (writer, done) = match (options.out.as_deref(), options.resume) {
        // `--resume` requires `--out` (the command line says so).
        (None, _) => (None, Vec::new()),
        (Some(path), false) => (Some(create_record_file(path)?), Vec::new()),
        (Some(path), true) => {
            // A match on Slurm keeps its run beside the record file: resumed here, its
            // tasks would go on in the cluster unseen.
            let tasks = crate::slurm::tasks_folder(path);
            usage!(
                !tasks.is_dir(),
                "--resume '{}': this match ran on Slurm (its run is in '{}'): add --slurm to go \
                 on with it there, where its tasks may still be running",
                path.display(),
                tasks.display()
            );
            let (writer, done) = resume_record_file(path, config)?;
            (Some(writer), done)
        }
    };
    let recorder = match crate::cmd::Recorder::new(
        writer,
        options.pairing.pgn.as_deref(),
        "yolah match",
        &done,
    ) {
        Ok(recorder) => recorder,
        Err(error) => {
            // Refused before its first game (its --pgn file): the record file this run
            // made goes too.
            if let (Some(path), false) = (options.out.as_deref(), options.resume) {
                let _ = std::fs::remove_file(path);
            }
            return Err(error);
        }
    };
    let played = play_pairs(config, specs, options.sprt, threads, recorder, done)?;
    summary(out, config, &played, options.sprt, options.json)?;
    let forfeits = crate::cmd::report_forfeits(&config.specs, &played.records);
    if options.sprt.is_none()
        && let Some((spec, reason)) = forfeits.first()
    {
        bail!("{spec} never ran: {reason}");
    }
    Ok(())
}

/// The summary of a match, with or without a test: one method for the Elo (the pentanomial of
/// the game pairs, as the live line shows it), one JSON schema for every mode (the test's
/// fields are null without one).
pub(in crate::cmd) fn summary(
    out: &mut impl Write,
    config: &Config,
    played: &Played,
    sprt: Option<Sprt>,
    json: bool,
) -> Result<()> {
    let specs = &config.specs;
    let tally = &played.tally;
    let pairs = &tally.pairs;
    let games = played.records.len();
    let seconds = played.seconds;
    let (elo, low, high) = pairs.elo();
    let decision = sprt.map(|_| {
        played
            .verdict
            .map_or_else(|| "inconclusive".to_string(), |v| v.to_string())
    });
    if json {
        let bounds = sprt.map(|sprt| sprt.bounds());
        let object = serde_json::json!({
            "first": specs[0],
            "second": specs[1],
            "games": games,
            "wins": tally.wdl[0],
            "draws": tally.wdl[1],
            "losses": tally.wdl[2],
            "pairs": pairs.0,
            "score": pairs.score(),
            "elo": elo,
            "elo_low": low,
            "elo_high": high,
            "los": pairs.los(),
            "sprt": sprt.map(|sprt| sprt.to_string()),
            "verdict": decision,
            "llr": sprt.map(|sprt| sprt.llr(pairs)),
            "lower": bounds.map(|b| b.0),
            "upper": bounds.map(|b| b.1),
            "seed": config.seed,
            "openings": config.openings.as_ref().map(Vec::len),
            "random_plies": config.openings.is_none().then_some(config.random_plies),
            "tc": config.time_control.map(|tc| tc.to_string()),
            "forfeits": played.records.iter().filter(|r| !r.forfeit.is_empty()).count(),
            "seconds": seconds,
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    if let Some(shard) = config.shard {
        writeln!(
            out,
            "{} vs {}: shard {shard}: {games} games played (a game pair is counted where the \
             shards are joined)",
            specs[0], specs[1]
        )?;
        return Ok(());
    }
    let Some(sprt) = sprt else {
        writeln!(out, "{} vs {}: {}", specs[0], specs[1], tally.line(None))?;
        return Ok(());
    };
    let (lower, upper) = sprt.bounds();
    writeln!(
        out,
        "{} vs {}: SPRT {sprt}: {games} games ({} pairs) in {seconds:.1} s",
        specs[0],
        specs[1],
        pairs.pairs(),
    )?;
    writeln!(
        out,
        "pentanomial [0, 1/4, 1/2, 3/4, 1]: [{}]",
        pairs.counts_text()
    )?;
    writeln!(
        out,
        "score {:.1} %, Elo {elo:+.1} [{low:+.1}, {high:+.1}], LOS {:.1} %",
        100.0 * pairs.score(),
        100.0 * pairs.los()
    )?;
    writeln!(out, "LLR {:.2} ({lower:.2}, {upper:.2})", sprt.llr(pairs))?;
    writeln!(out, "{}", decision.expect("a test has a decision"))?;
    Ok(())
}

/// The most games of a match decided by a test, when `--games` does not say.
pub const SPRT_MAX_GAMES: u32 = 20_000;

/// Why a sequential match stops playing: the test has decided.
#[derive(Debug)]
struct Decided;

/// What the games of a match came to.
pub(in crate::cmd) struct Played {
    pub(in crate::cmd) records: Vec<GameRecord>,
    pub(in crate::cmd) tally: MatchScore,
    pub(in crate::cmd) verdict: Option<Verdict>,
    pub(in crate::cmd) seconds: f64,
}

/// Plays the match's games, two at a time from one opening with colours swapped (the
/// schedule's games 2k and 2k + 1), showing after each pair the first player's wins, draws and
/// losses, score, Elo with its interval and LOS (a bar's message on a terminal, a line every
/// ten pairs on a pipe). With a test, the LLR and its bounds too, and the games stop as soon as
/// it decides.
fn play_pairs(
    config: &Config,
    specs: &[yolah_ai::Spec],
    sprt: Option<Sprt>,
    threads: usize,
    mut recorder: crate::cmd::Recorder,
    done: Vec<GameRecord>,
) -> Result<Played> {
    let finished: std::collections::HashSet<u64> = done.iter().map(|r| r.game).collect();
    let schedule: Vec<_> = config
        .schedule_here()
        .into_iter()
        .filter(|g| !finished.contains(&g.game))
        .collect();
    let pool = game_pool(threads).map_err(anyhow::Error::msg)?;
    let bar = crate::cmd::progress_bar((schedule.len() + done.len()) as u64, "games");
    bar.set_style(
        indicatif::ProgressStyle::with_template("{pos}/{len} games, {msg}")
            .expect("the template is valid"),
    );
    bar.set_position(done.len() as u64);
    let terminal = std::io::stderr().is_terminal();
    let first = &config.specs[0];
    let mut tally = MatchScore::default();
    let count = |tally: &mut MatchScore, record: &GameRecord| {
        let half = record.outcome().map_or(1, |o| {
            o.half_points(if record.black == *first {
                Color::Black
            } else {
                Color::White
            })
        });
        tally.add(record.game / 2, half)
    };
    for record in &done {
        count(&mut tally, record);
    }
    let mut records = done;
    let mut verdict = sprt.and_then(|sprt| sprt.verdict(&tally.pairs));
    let started = std::time::Instant::now();
    let result = if verdict.is_some() {
        Ok(())
    } else {
        run_games(config, specs, &schedule, &pool, |record| {
            recorder.write(&record)?;
            let paired = count(&mut tally, &record);
            // A program that cannot start will not start in the next game either: stop at the
            // first, rather than play every game and print an Elo of nothing.
            if record
                .forfeit
                .starts_with(yolah_ai::players::engine::CANNOT_START)
            {
                let loser = if record.result == "1-0" {
                    &record.white
                } else {
                    &record.black
                };
                bail!("{loser} never ran: {}", record.forfeit);
            }
            records.push(record);
            bar.inc(1);
            if !paired {
                return anyhow::Ok(());
            }
            let line = tally.line(sprt);
            if terminal {
                bar.set_message(line);
            } else if tally.pairs.pairs() % 10 == 0 {
                eprintln!("{} games, {line}", records.len());
            }
            verdict = sprt.and_then(|sprt| sprt.verdict(&tally.pairs));
            if verdict.is_some() {
                return Err(anyhow::Error::new(Decided));
            }
            anyhow::Ok(())
        })
    };
    if let Err(error) = result
        && !error.is::<Decided>()
    {
        return Err(error);
    }
    bar.finish_and_clear();
    Ok(Played {
        records,
        tally,
        verdict,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl std::fmt::Display for Decided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the test has decided")
    }
}

impl std::error::Error for Decided {}

/// Whether `a` and `b` name one file (either may not exist yet): the same path once links,
/// `.` and `..` are followed.
fn same_file(a: &Path, b: &Path) -> bool {
    let full = |path: &Path| {
        path.canonicalize().ok().or_else(|| {
            let folder = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            Some(folder.canonicalize().ok()?.join(path.file_name()?))
        })
    };
    matches!((full(a), full(b)), (Some(a), Some(b)) if a == b)
}

/// Creates a record file that does not exist yet, with errors that say which part of the path
/// is wrong.
fn create_record_file(path: &Path) -> Result<RecordWriter> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "--out '{}': the folder '{}' does not exist",
            path.display(),
            folder.display()
        );
    }
    if path.exists() {
        bail!(
            "--out '{}' exists: a record file is never overwritten; continue it with --resume, \
             or choose another name",
            path.display()
        );
    }
    let writer = RecordWriter::create(path)
        .map_err(|e| anyhow::anyhow!("--out '{}': cannot create it: {e}", path.display()))?;
    writer
        .try_lock()
        .map_err(|e| anyhow::anyhow!("--out '{}': {e}", path.display()))?;
    Ok(writer)
}

/// Opens the record file of an interrupted match to continue it: every game in it must be
/// one this match schedules (same players, colours, openings and config fingerprint); a last
/// row cut short is cut off and its game played again.
fn resume_record_file(path: &Path, config: &Config) -> Result<(RecordWriter, Vec<GameRecord>)> {
    // The lock first; then the file is read, checked (a file of another match is left as it
    // is) and its tail repaired, all under the lock.
    let (writer, read) = RecordWriter::resume(path, |read| {
        check_against_schedule(config, &read.records, read.fingerprinted)
            .map_err(|e| format!("{e}; give the command that started it"))
    })
    .map_err(|e| anyhow::anyhow!("--resume '{}': {e}", path.display()))?;
    match &read.tail {
        Tail::Clean => {}
        Tail::MissingNewline => eprintln!("ended the last row of the games file"),
        Tail::Damaged { line, reason, .. } => eprintln!(
            "cut the damaged last row of the games file (line {line}: {reason}); its game is \
             played again"
        ),
    }
    eprintln!(
        "resuming: {} of {} games already played",
        read.records.len(),
        config.schedule_here().len()
    );
    Ok((writer, read.records))
}

/// A match's result, as `yolah match --json` prints it.
#[derive(serde::Deserialize, serde::Serialize)]
pub struct Tested {
    pub games: u64,
    pub score: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub llr: Option<f64>,
    pub verdict: Option<String>,
}

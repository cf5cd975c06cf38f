//! One module per subcommand, and the helpers they share.

pub mod bench;
pub mod data;
pub mod engine;
pub mod explorer;
pub mod learn;
pub mod matches;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod play;
pub mod players;
pub mod plot;
pub mod puzzles;
pub mod quality;
pub mod random_games;
pub mod replay;
pub mod review;
pub mod selfplay;
pub mod selfplay_on_slurm;
pub mod serve;
pub mod show;
pub mod solve;
pub mod spsa;
pub mod spsa_on_slurm;
pub mod standings;
pub mod suite;
pub mod think;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod zero;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use yolah_ai::arena::record::GameRecord;
use yolah_ai::arena::tournament::{ConfigError, MAX_THREADS};
use yolah_ai::{Spec, TimeControl};
use yolah_core::Position;
pub use yolah_core::text::quote;

pub(crate) use crate::usage::{UsageError, usage};

/// The specs as typed, checked, in their canonical form (`mcts:` is `mcts`, and a trailing
/// newline is gone).
pub fn canonical_specs(texts: &[String]) -> Result<Vec<String>, ConfigError> {
    texts
        .iter()
        .map(|text| {
            text.parse::<Spec>()
                .map(|spec| spec.to_string())
                .map_err(|e| ConfigError::Spec(text.clone(), e))
        })
        .collect()
}

/// A thread count given with `--threads`, checked (1 to [`MAX_THREADS`]); one per core when
/// not given.
pub fn threads(given: Option<usize>) -> Result<usize> {
    if let Some(n) = given {
        usage!(
            (1..=MAX_THREADS).contains(&n),
            "--threads must be from 1 to {MAX_THREADS}, not {n}"
        );
    }
    Ok(given.unwrap_or_else(cores))
}

/// A game clock as typed after `--tc`, checked (a usage error, exit 2).
pub fn time_control(text: Option<&str>) -> Result<Option<TimeControl>> {
    text.map(|text| {
        text.parse::<TimeControl>()
            .map_err(|e| UsageError(format!("--tc {e}")).into())
    })
    .transpose()
}

/// The position given with `--position` (a position, then optionally `moves m1 m2 …` from it:
/// [`yolah_core::PositionLine`]), or the start.
pub fn position_arg(text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(text) => text
            .parse::<yolah_core::PositionLine>()
            .map(|line| line.position())
            .with_context(|| format!("bad position {}", quote(text))),
    }
}

impl PositionArg {
    /// The position given, or the start.
    pub fn get(&self) -> Result<Position> {
        position_arg(self.position.as_deref())
    }
}

/// The legal moves, sorted as strings, space-separated.
pub fn sorted_moves(position: &Position) -> String {
    let mut moves: Vec<String> = position.moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves.join(" ")
}

/// A progress bar on stderr (hidden when stderr is not a terminal) counting `what`.
pub fn progress_bar(len: u64, what: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}, {{rate}}, eta {{eta}}"
        ))
        .expect("the template is valid")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}/s", state.per_sec());
            },
        ),
    )
}

/// The number of cores: the default number of games played at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Random plies of each opening when not given, in every command.
pub const DEFAULT_RANDOM_PLIES: u32 = 4;
/// The seed when none is given, in every command: the same command plays the same openings.
pub const DEFAULT_SEED: u64 = 1;

/// The position a command starts from.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PositionArg {
    /// The position, in notation or `startpos`, then optionally `moves m1 m2 …` played from
    /// it [default: startpos].
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
    /// Options given to every player that takes them, like `tc=10s+100ms,tt=64` or
    /// `option.Hash=64` (a player's own spec wins where it sets the same option).
    #[arg(long, value_name = "KEY=VALUE,…")]
    pub each: Option<String>,
    /// End a game as soon as its result is proved: when the sides can no longer meet and each
    /// side's longest run of moves is solved exactly (the record says `proved`; its scores
    /// are the proved final scores).
    #[arg(long)]
    pub adjudicate: bool,
    /// Also write every game, as it ends, to this PGN file (docs/pgn.md): created, or added
    /// to; `yolah replay FILE --game N` reads it.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
}

/// The most `--each` items.
const MAX_EACH: usize = 64;

impl Pairing {
    /// The players as typed, checked, in canonical form, with `--each` applied: each item
    /// goes to every player that takes it and does not set it already; an item no player
    /// takes, or an option given twice, is an error.
    pub fn specs(&self, texts: &[String]) -> Result<Vec<String>> {
        let specs = canonical_specs(texts)?;
        let Some(each) = self.each.as_deref() else {
            return Ok(specs);
        };
        let items: Vec<&str> = each
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .collect();
        usage!(
            !items.is_empty() && items.len() <= MAX_EACH,
            "--each takes 1 to {MAX_EACH} KEY=VALUE items, like tc=10s+100ms,tt=64"
        );
        let mut specs: Vec<Spec> = specs.iter().map(|s| parse_spec(s)).collect::<Result<_>>()?;
        let mut given = std::collections::HashSet::new();
        for item in items {
            let Some((key, value)) = item.split_once('=').map(|(k, v)| (k.trim(), v.trim())) else {
                return Err(
                    UsageError(format!("--each {}: items are KEY=VALUE", quote(item))).into(),
                );
            };
            // As in a spec, an option is given once (the first used to win, silently).
            usage!(
                given.insert(key),
                "--each: the option {} is given twice; give it once",
                quote(key)
            );
            let mut anyone = false;
            for spec in specs.iter_mut().filter(|spec| spec.takes(key)) {
                anyone = true;
                if !spec.gives(key) {
                    *spec = spec
                        .with(key, value)
                        .map_err(|e| ConfigError::Spec(spec.to_string(), e))
                        .with_context(|| format!("--each {}", quote(item)))?;
                }
            }
            usage!(
                anyone,
                "--each {}: no player takes the option {}",
                quote(item),
                quote(key)
            );
        }
        Ok(specs.iter().map(ToString::to_string).collect())
    }

    /// The number of games played at once, checked.
    pub fn threads(&self) -> Result<usize> {
        threads(self.threads)
    }

    /// The game clock given with `--tc`, checked.
    pub fn time_control(&self) -> Result<Option<TimeControl>> {
        time_control(self.tc.as_deref())
    }

    /// The opening suite's lines, read and checked (a bad line is an error with its number,
    /// before any game), as the config stores them.
    pub fn openings(&self) -> Result<Option<Vec<String>>> {
        let Some(path) = &self.openings else {
            return Ok(None);
        };
        let text = yolah_ai::files::read_text_bounded(path, 64 << 20)
            .with_context(|| format!("cannot read the openings '{}'", path.display()))?;
        let suite = yolah_ai::arena::opening::parse_suite(&text)
            .map_err(|e| anyhow::anyhow!("openings '{}': {e}", path.display()))?;
        Ok(Some(
            suite
                .iter()
                .map(yolah_ai::arena::opening::Opening::to_line)
                .collect(),
        ))
    }
}

/// A player spec as typed, parsed; the error names it (`player 'x': …`, exit 2).
/// Why more than `distinct` games between `first` and `second` are refused (`asked`: the
/// option as given, like `--games 6`).
pub fn repeated_games(asked: &str, first: &Spec, second: &Spec, distinct: u32) -> String {
    format!(
        "{asked}: {first} and {second} play the same game again from the same opening (no time \
         limit, one thread, no seed that changes their moves), so {} openings give only \
         {distinct} different games; give at most {distinct} games, more openings, or a time \
         limit",
        distinct / 2
    )
}

pub fn parse_spec(text: &str) -> Result<Spec> {
    Ok(text
        .parse::<Spec>()
        .map_err(|e| ConfigError::Spec(text.to_string(), e))?)
}

/// Tells on stderr of every player that forfeited all the games it played (an `engine:`
/// program that cannot start, or fails at once); returns the players among them whose
/// program never ran at all, with the reason.
pub fn report_forfeits(specs: &[String], records: &[GameRecord]) -> Vec<(String, String)> {
    let mut never_ran = Vec::new();
    for spec in specs {
        let played: Vec<&GameRecord> = records
            .iter()
            .filter(|r| &r.black == spec || &r.white == spec)
            .collect();
        let lost_by_forfeit: Vec<&GameRecord> = played
            .iter()
            .copied()
            .filter(|r| {
                let loser = match r.result.as_str() {
                    "1-0" => &r.white,
                    "0-1" => &r.black,
                    _ => return false,
                };
                !r.forfeit.is_empty() && loser == spec
            })
            .collect();
        if played.is_empty() || lost_by_forfeit.len() < played.len() {
            continue;
        }
        let reason = &lost_by_forfeit[0].forfeit;
        eprintln!(
            "warning: {spec} forfeited all {} it played; the first: {reason}",
            games(played.len())
        );
        if lost_by_forfeit.iter().all(|r| {
            r.forfeit
                .starts_with(yolah_ai::players::engine::CANNOT_START)
        }) {
            never_ran.push((spec.clone(), reason.clone()));
        }
    }
    never_ran
}

/// `n` games, in words: "1 game", "3 games".
pub fn games(n: usize) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

/// A run's JSON file (config, state, result), read bounded; the error names the file and
/// what it should have been.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &std::path::Path, what: &str) -> Result<T> {
    let text = yolah_ai::files::read_text_bounded(path, yolah_ai::files::MAX_SETTINGS)
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not {what}", path.display()))
}

/// A word as a shell reads it back: as it is when it is plain, else in single quotes (each
/// single quote in it written `'\''`).
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "=:,./_+-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Writes `text` as the whole of `path`, durably ([`yolah_ai::files::write_durably`]).
pub fn write_atomic(path: &std::path::Path, text: &str) -> Result<()> {
    write_bytes(path, text.as_bytes())
}

/// Writes `bytes` as the whole of `path`, durably ([`yolah_ai::files::write_durably`]).
pub fn write_bytes(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    yolah_ai::files::write_durably(path, bytes)
        .with_context(|| format!("writing {}", path.display()))
}

/// The directory of a new run whose marker file is `marker` (its config or checkpoint):
/// created and locked as [`new_dir`] does, refused if it holds a run of its kind already
/// (`what`, like "a self-play run": --resume is the way on) or anything else. A refusal leaves
/// nothing behind ([`DirLock::take_new`](yolah_ai::arena::lock::DirLock::take_new)).
pub fn new_run_dir(
    dir: &std::path::Path,
    marker: &str,
    what: &str,
) -> Result<yolah_ai::arena::lock::DirLock> {
    new_dir(dir, || {
        if dir.join(marker).exists() {
            return Err(format!(
                "'{}' holds {what} already: add --resume to go on with it, or choose another \
                 --out",
                dir.display()
            ));
        }
        // A start killed while it wrote the marker (before `write_atomic` renamed it) left
        // its lock and the marker's temporary: nothing was acknowledged, and this start
        // removes it under the lock and writes the marker again.
        yolah_ai::files::ensure_empty_but(dir, Some(marker))
    })
    .and_then(|lock| {
        yolah_ai::files::remove_temporaries_of(dir, marker).map_err(anyhow::Error::msg)?;
        Ok(lock)
    })
}

/// The directory of a new run (`--out`) that `check` accepts: refused if it is a file,
/// created if missing, and locked for this run; a refusal leaves nothing behind.
pub fn new_dir(
    dir: &std::path::Path,
    check: impl Fn() -> Result<(), String>,
) -> Result<yolah_ai::arena::lock::DirLock> {
    anyhow::ensure!(
        !dir.exists() || dir.is_dir(),
        "'{}' is a file, not a directory; choose another --out",
        dir.display()
    );
    yolah_ai::arena::lock::DirLock::take_new(dir, check).map_err(anyhow::Error::msg)
}

/// Where the games of a run go as each ends: the record file (CSV, what `--resume` reads)
/// first, then the PGN file if one was asked for.
pub struct Recorder {
    csv: Option<yolah_ai::arena::record::RecordWriter>,
    pgn: Option<yolah_ai::arena::pgn::PgnWriter>,
}

impl Recorder {
    /// Writes to `csv` if given, and to the PGN file `pgn` if given (locked for this run,
    /// checked, and given the games of `done` it lacks: those a resumed run played before and
    /// the file missed).
    pub fn new(
        csv: Option<yolah_ai::arena::record::RecordWriter>,
        pgn: Option<&std::path::Path>,
        event: &str,
        done: &[GameRecord],
    ) -> Result<Recorder> {
        let pgn = match pgn {
            None => None,
            Some(path) => {
                let event = yolah_ai::arena::pgn::Event {
                    name: event.to_string(),
                    date: yolah_ai::arena::pgn::today(),
                };
                let writer = yolah_ai::arena::pgn::PgnWriter::open(path, event, done)
                    .map_err(anyhow::Error::msg)?;
                Some(writer)
            }
        };
        Ok(Recorder { csv, pgn })
    }

    /// Records one game.
    pub fn write(&mut self, record: &GameRecord) -> Result<()> {
        if let Some(csv) = self.csv.as_mut() {
            csv.write(record)
                .context("writing the games file (the games so far are kept)")?;
        }
        if let Some(pgn) = self.pgn.as_mut() {
            pgn.write(record)
                .context("writing the PGN file (the games so far are kept)")?;
        }
        Ok(())
    }
}

/// The checkpoint `name` (at most `max` bytes) of the run (`what`, like "a tuning run") in
/// `dir`, read under the run's lock, which the caller keeps while it runs.
pub fn checkpoint<T: serde::de::DeserializeOwned>(
    dir: &std::path::Path,
    name: &str,
    max: u64,
    what: &str,
) -> Result<(T, yolah_ai::arena::lock::DirLock)> {
    anyhow::ensure!(
        dir.is_dir(),
        "'{}': no such directory: there is no {} to resume",
        dir.display(),
        what.trim_start_matches("a ").trim_start_matches("an ")
    );
    let lock = yolah_ai::arena::lock::DirLock::take(dir)?;
    let path = dir.join(name);
    let text = yolah_ai::files::read_text_bounded(&path, max)
        .with_context(|| format!("nothing to resume: cannot read {}", path.display()))?;
    let run = serde_json::from_str(&text)
        .with_context(|| format!("{} is not the checkpoint of {what}", path.display()))?;
    Ok((run, lock))
}

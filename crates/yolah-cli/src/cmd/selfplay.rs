//! `yolah selfplay`: training positions from games of a player against itself, into
//! `DIR/data.bin` (`docs/data-format.md`), one block per game, in game order. `DIR/selfplay.json`
//! holds the config; `--resume` goes on after the last whole game, so a killed run loses
//! nothing and writes nothing twice.

use super::{UsageError, progress_bar, usage, write_atomic};
use anyhow::{Context, Result, bail, ensure};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::arena::tournament::game_pool;
use yolah_ai::data::{self, Header};
use yolah_train::selfplay::{self, Config, Shard};

/// The options of `yolah selfplay`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// The player for both sides [default: minimax:nodes=20000, reproducible].
    #[arg(value_name = "SPEC")]
    pub spec: Option<String>,
    /// Games, 1 to 10000000 (with --resume: raises the total).
    #[arg(long, short, value_name = "N")]
    pub games: Option<u64>,
    /// The run's directory: selfplay.json and data.bin.
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Random plies before the player takes over, 0 to 40 [default: 4].
    #[arg(long, short, value_name = "K")]
    pub random_plies: Option<u32>,
    /// Seed of the openings and the players [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Games at once, 1 to 1024 [default: one per core].
    #[arg(long, short, value_name = "N")]
    pub threads: Option<usize>,
    /// Play only part K of N of the games (those numbered K−1 modulo N), for runs split
    /// over machines; `yolah data merge` joins the parts.
    #[arg(long, value_name = "K/N", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_train::selfplay::Shard>()))]
    pub shard: Option<yolah_train::selfplay::Shard>,
    /// Label exactly the positions of a game's end with at most N free squares, 1 to 32,
    /// that the solver proves (from the last back; docs/data-format.md) [default: off].
    #[arg(long, value_name = "N")]
    pub exact_free: Option<u32>,
    /// The solver's budget per position for --exact-free, 1 to 100000000 nodes [default:
    /// 1000000].
    #[arg(long, value_name = "NODES", requires = "exact_free")]
    pub exact_nodes: Option<u64>,
    /// Go on with the run in --out after its last whole game.
    #[arg(long)]
    pub resume: bool,
}

const CONFIG: &str = "selfplay.json";
const DATA: &str = "data.bin";
/// The player of a run that names none: the tuned minimax, node-limited (reproducible).
pub const DEFAULT_SPEC: &str = "minimax:nodes=20000";
/// The solver's budget per position for exact labels.
pub const DEFAULT_EXACT_NODES: u64 = 1_000_000;

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    let threads = super::threads(options.threads)?;
    let (config, _lock, done) = if options.resume {
        resume(options)?
    } else {
        start(options)?
    };
    let spec = config.check().map_err(UsageError)?;
    let path = options.out.join(DATA);
    // A resumed run's games are added in its file's format.
    let version = data::file_version(&path).map_err(anyhow::Error::msg)?;
    let mut file = OpenOptions::new()
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut len = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let total = config.numbers().len() as u64;
    let bar = progress_bar(total, "games");
    bar.set_position(done);
    let pool = game_pool(threads).map_err(anyhow::Error::msg)?;
    let started = Instant::now();
    let mut positions = 0u64;
    let mut written = done;
    selfplay::run(&config, &spec, done as usize, &pool, |_, samples| {
        // A game's block whole or not at all: a write that fails (a full disk) is cut back,
        // so the file holds whole games only.
        let mut block = Vec::new();
        data::write_block(&mut block, version, &samples)?;
        yolah_ai::files::append_whole(&mut file, &mut len, &block)
            .with_context(|| format!("writing {}", path.display()))?;
        positions += samples.len() as u64;
        written += 1;
        bar.set_position(written);
        anyhow::Ok(())
    })?;
    file.sync_all()
        .with_context(|| format!("writing {}", path.display()))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} games this run ({total} in all{}), {positions} positions in {seconds:.1} s ({:.0} positions/s) into {}",
        written - done,
        config.shard.map_or_else(String::new, |s| format!(
            ", shard {s} of {} games",
            config.games
        )),
        positions as f64 / seconds.max(1e-9),
        path.display()
    )?;
    Ok(())
}

fn start(options: &Options) -> Result<(Config, DirLock, u64)> {
    let config = Config {
        spec: options
            .spec
            .clone()
            .unwrap_or_else(|| DEFAULT_SPEC.to_string()),
        games: options
            .games
            .ok_or_else(|| UsageError("missing --games N".to_string()))?,
        random_plies: options.random_plies.unwrap_or(super::DEFAULT_RANDOM_PLIES),
        seed: options.seed.unwrap_or(super::DEFAULT_SEED),
        shard: options.shard,
        exact: options.exact_free.map(|free| selfplay::Exact {
            free,
            nodes: options.exact_nodes.unwrap_or(DEFAULT_EXACT_NODES),
        }),
    };
    config.check().map_err(UsageError)?;
    let dir = &options.out;
    let lock = super::new_run_dir(dir, CONFIG, "a self-play run")?;
    // The config first: from then on, whatever a kill leaves, --resume takes it over.
    write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&config)?)?;
    create_data(&dir.join(DATA), &config)?;
    Ok((config, lock, 0))
}

/// The data file's header for `config`'s run.
fn header(config: &Config) -> Header {
    Header {
        fingerprint: config.fingerprint(),
        shard: config.shard,
    }
}

fn create_data(path: &Path, config: &Config) -> Result<()> {
    data::create_file(path, header(config))
        .and_then(|file| file.sync_all())
        .with_context(|| format!("cannot create {}", path.display()))
}

fn resume(options: &Options) -> Result<(Config, DirLock, u64)> {
    usage!(
        options.spec.is_none()
            && options.random_plies.is_none()
            && options.seed.is_none()
            && options.shard.is_none()
            && options.exact_free.is_none()
            && options.exact_nodes.is_none(),
        "--resume takes its settings from {CONFIG}: only --games and --threads may be given"
    );
    let dir = &options.out;
    ensure!(
        dir.is_dir(),
        "'{}': no such directory: there is no self-play run to resume",
        dir.display()
    );
    let lock = DirLock::take(dir)?;
    let path = dir.join(CONFIG);
    let mut config = read_config(dir).context("nothing to resume")?;
    let done = check_data(&dir.join(DATA), &config)?;
    if let Some(games) = options.games {
        usage!(
            games >= done,
            "--games {games} is fewer than the {done} games already played"
        );
        config.games = games;
        config.check().map_err(UsageError)?;
        write_atomic(&path, &serde_json::to_string_pretty(&config)?)?;
    }
    Ok((config, lock, done))
}

/// A run's `selfplay.json`, read (bounded) and checked as the command line is.
fn read_config(dir: &Path) -> Result<Config> {
    let path = dir.join(CONFIG);
    let text = yolah_ai::files::read_text_bounded(&path, yolah_ai::files::MAX_SETTINGS)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let config: Config = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a self-play config", path.display()))?;
    config
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(config)
}

/// Reads the data, checks it belongs to this run, and takes over what a kill can leave: no
/// data file or half its header (it is written anew), a block cut short (it is cut off).
/// Returns the whole games in it.
fn check_data(path: &Path, config: &Config) -> Result<u64> {
    let expected = header(config).to_bytes();
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            create_data(path, config)?;
            return Ok(0);
        }
        Ok(m) if m.is_file() && m.len() < expected.len() as u64 => {
            let bytes = yolah_ai::files::read_bounded(path, expected.len() as u64)?;
            if expected.starts_with(&bytes) {
                fs::remove_file(path)
                    .with_context(|| format!("cannot replace {}", path.display()))?;
                create_data(path, config)?;
                return Ok(0);
            }
        }
        _ => {}
    }
    let file = read_data(path, config)?;
    let done = file.blocks.len() as u64;
    let total = config.numbers().len() as u64;
    ensure!(
        done <= total,
        "{}: {done} games, more than the run's {total}",
        path.display()
    );
    if let Some(damage) = &file.damaged {
        let end = fs::metadata(path)?.len();
        OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(file.valid_len)?;
        let fate = if done < total {
            format!("game {} of {total} is played again", done + 1)
        } else {
            format!("all {total} games are there")
        };
        eprintln!(
            "cut {} bytes after the last whole game of {} ({damage}); {fate}",
            end - file.valid_len,
            path.display()
        );
    }
    Ok(done)
}

/// A run's data file, read and checked to be this run's: its fingerprint and its shard.
fn read_data(path: &Path, config: &Config) -> Result<data::DataFile> {
    let file = data::read_file(path).map_err(anyhow::Error::msg)?;
    ensure!(
        file.header.fingerprint == config.fingerprint(),
        "{}: written by another self-play run (its config fingerprint differs)",
        path.display()
    );
    ensure!(
        file.header.shard == config.shard,
        "{}: holds the data of {}, but its run is {}",
        path.display(),
        shard_text(file.header.shard),
        shard_text(config.shard)
    );
    Ok(file)
}

fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(|| "a whole run".to_string(), |s| format!("shard {s}"))
}

/// `yolah data merge OUT DIR…`: the shards of one self-play run joined into `OUT`, game by
/// game in order: the data the unsharded run writes. Every shard must be there once, finished,
/// and of the same run.
pub fn merge(out: &mut impl Write, dir: &Path, parts: &[PathBuf]) -> Result<()> {
    usage!(
        !parts.is_empty(),
        "data merge needs the shard directories to join"
    );
    let shards = parts
        .iter()
        .map(|part| finished_part(part))
        .collect::<Result<Vec<_>>>()?;
    let first = &shards[0].0;
    let count = first.shard.map_or(0, |s| s.count);
    for (part, (config, _)) in parts.iter().zip(&shards) {
        ensure!(
            config.fingerprint() == first.fingerprint() && config.games == first.games,
            "'{}' is not a shard of the same run as '{}' (spec, plies, seed or games differ)",
            part.display(),
            parts[0].display()
        );
        ensure!(
            config.shard.is_some_and(|s| s.count == count),
            "'{}' is not one of {count} shards",
            part.display()
        );
    }
    let mut by_index: Vec<Option<usize>> = vec![None; count as usize];
    for (i, (config, _)) in shards.iter().enumerate() {
        let index = config.shard.expect("checked above").index as usize - 1;
        if let Some(other) = by_index[index] {
            bail!(
                "shard {}/{count} is given twice: '{}' and '{}'",
                index + 1,
                parts[other].display(),
                parts[i].display()
            );
        }
        by_index[index] = Some(i);
    }
    if let Some(missing) = by_index.iter().position(Option::is_none) {
        bail!("shard {}/{count} is missing", missing + 1);
    }
    let _lock = super::new_dir(dir, || {
        if dir.join(CONFIG).exists() {
            return Err(format!(
                "'{}' holds a self-play run already; choose another directory",
                dir.display()
            ));
        }
        yolah_ai::files::ensure_empty(dir)
    })?;
    let games: Vec<Vec<&[data::Sample]>> = by_index
        .iter()
        .map(|i| data::games(&shards[i.expect("none missing")].1))
        .collect();
    let merged = Config {
        shard: None,
        ..first.clone()
    };
    let path = dir.join(DATA);
    let mut bytes = Vec::new();
    let mut positions = 0;
    for number in 0..merged.games {
        let game = games[(number % count) as usize][(number / count) as usize];
        data::write_block(&mut bytes, data::VERSION, game)?;
        positions += game.len();
    }
    write_atomic(&dir.join(CONFIG), &serde_json::to_string_pretty(&merged)?)?;
    let written = data::create_file(&path, header(&merged))
        .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()));
    if let Err(error) = written {
        // Nothing of the merge was said done: a failed one (a full disk) leaves no run.
        let _ = fs::remove_file(&path);
        let _ = fs::remove_file(dir.join(CONFIG));
        return Err(error).with_context(|| format!("writing {}", path.display()));
    }
    writeln!(
        out,
        "merged {count} shards: {} games, {positions} positions into {}",
        merged.games,
        path.display()
    )?;
    Ok(())
}

/// Whether `part` holds a finished self-play run (a shard's, say).
pub fn finished(part: &Path) -> bool {
    part.join(CONFIG).is_file() && finished_part(part).is_ok()
}

/// A finished self-play run's config and data.
fn finished_part(part: &Path) -> Result<(Config, data::DataFile)> {
    ensure!(part.is_dir(), "'{}': not a self-play run", part.display());
    let config = read_config(part)?;
    let file = read_data(&part.join(DATA), &config)?;
    ensure!(
        file.damaged.is_none() && file.blocks.len() == config.numbers().len(),
        "'{}' is unfinished ({} of {} games): finish it with --resume first",
        part.display(),
        file.blocks.len(),
        config.numbers().len()
    );
    Ok((config, file))
}

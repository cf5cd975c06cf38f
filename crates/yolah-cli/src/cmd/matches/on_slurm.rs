//! `yolah match --slurm`: a match's games spread over a Slurm job array. Task K of N plays the
//! games numbered K − 1 modulo N (`yolah match … --shard K/N`) into its own record file; this
//! command follows the tasks, reads their files as they grow, and counts the games in schedule
//! order, so that a test decides at the very game the same match on one machine, one game at
//! a time, would (and with players that repeat themselves, on the same games). Once the test
//! decides, or every game is played, it cancels what is left of the array and writes the
//! games counted into `--out`, whole or not at all.
//!
//! The run's folder, `OUT.tasks/`, keeps `state.json` (the tasks' script and the jobs
//! submitted), the tasks' record files `task-K.csv` and their logs. A task that Slurm no
//! longer has and whose file lacks games (cancelled, killed, its node lost) is submitted
//! again and resumes its file; a task Slurm requeues resumes it too, so no game counts twice.
//! `--resume` picks the run up after this command was killed, whatever the tasks did
//! meanwhile; a second one at once is refused.

use super::versus::{Options, Played, summary};
use crate::cmd::{new_run_dir, read_json, usage, write_atomic};
use crate::slurm::{self, RunState, STATE, TASK_SCRIPT};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::arena::record::{GameRecord, RecordFile, RecordWriter};
use yolah_ai::arena::shard::Shard;
use yolah_ai::arena::sprt::Sprt;
use yolah_ai::arena::tally::MatchScore;
use yolah_ai::arena::tournament::{Config, check_against_schedule};
use yolah_core::Color;

/// Plays the match of `config` (its players checked) on the cluster.
pub(in crate::cmd) fn run(
    out: &mut impl std::io::Write,
    options: &Options,
    config: &Config,
    sprt: Option<Sprt>,
) -> Result<()> {
    let tasks = options.cluster.tasks()?;
    let Some(record) = options.out.as_deref() else {
        bail!(crate::cmd::UsageError(
            "--slurm needs --out FILE: the tasks' games are joined into it".to_string()
        ));
    };
    usage!(
        options.shard.is_none(),
        "--slurm and --shard: the run gives each task its shard"
    );
    let dir = slurm::tasks_folder(record);
    if options.resume && record.exists() {
        return ended(out, options, record, &dir, config, sprt);
    }
    let parent = match record.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    usage!(
        parent.is_dir(),
        "--out '{}': the folder '{}' does not exist",
        record.display(),
        parent.display()
    );
    // The PGN file is checked (and locked) before any game is played, as here.
    let mut recorder =
        crate::cmd::Recorder::new(None, options.pairing.pgn.as_deref(), "yolah match", &[])?;
    // Slurm answers before anything is made.
    slurm::Array::new("yolah-probe", Path::new(TASK_SCRIPT), tasks).queue()?;
    let (lock, mut state) = open(&dir, record, config, tasks, options)?;
    let played = match follow(&dir, &mut state, config, sprt, &options.cluster) {
        Ok(played) => played,
        Err(error) => {
            // A new run Slurm refused at once (a partition it lacks, an array too large)
            // leaves nothing behind.
            if !options.resume && state.jobs.is_empty() {
                drop(lock);
                let _ = std::fs::remove_dir_all(&dir);
            }
            return Err(error);
        }
    };
    write_games(&dir, record, &played.records)?;
    for game in &played.records {
        recorder.write(game)?;
    }
    drop(lock);
    summary(out, config, &played, sprt, options.json)?;
    let forfeits = crate::cmd::report_forfeits(&config.specs, &played.records);
    if sprt.is_none()
        && let Some((spec, reason)) = forfeits.first()
    {
        bail!("{spec} never ran: {reason}");
    }
    Ok(())
}

/// `--resume` of a run whose `--out` is there: its result again if it holds the whole match
/// (every game, or the games up to the test's decision), with the PGN file given the games it
/// lacks; a record file cut short is another run's (a match here), which this one does not
/// finish.
fn ended(
    out: &mut impl std::io::Write,
    options: &Options,
    record: &Path,
    dir: &Path,
    config: &Config,
    sprt: Option<Sprt>,
) -> Result<()> {
    let read = RecordFile::read(record).map_err(|e| anyhow::anyhow!("{e}"))?;
    check_against_schedule(config, &read.records, read.fingerprinted)
        .map_err(|e| anyhow::anyhow!("--resume '{}': {e}", record.display()))?;
    let played = tallied(config, read.records, sprt, 0.0);
    let whole = played.records.len() == config.schedule().len() || played.verdict.is_some();
    usage!(
        whole,
        "--resume --slurm: '{}' holds {} of the match's {} games{}; resume it without --slurm",
        record.display(),
        played.records.len(),
        config.schedule().len(),
        if dir.join(STATE).exists() {
            ""
        } else {
            ", played here rather than on Slurm"
        }
    );
    // The PGN file is given the games it lacks (a run killed before it wrote them).
    crate::cmd::Recorder::new(
        None,
        options.pairing.pgn.as_deref(),
        "yolah match",
        &played.records,
    )?;
    summary(out, config, &played, sprt, options.json)
}

/// The run's folder `dir`, locked, and its state: made for a new run (`--out`, `record`, must
/// not exist), read and checked to be this match's for `--resume`.
fn open(
    dir: &Path,
    record: &Path,
    config: &Config,
    tasks: u32,
    options: &Options,
) -> Result<(DirLock, RunState)> {
    let here = std::env::current_dir().context("the current folder")?;
    let script = script(&here, dir, config, tasks, options)?;
    let name = slurm::job_name("yolah-match", dir)?;
    if options.resume {
        usage!(
            dir.join(STATE).exists(),
            "--resume: '{}' holds no match run on Slurm",
            dir.display()
        );
        let lock = DirLock::take(dir).map_err(|e| anyhow::anyhow!("--resume: {e}"))?;
        let state: RunState = read_json(&dir.join(STATE), "a match run's state")?;
        usage!(
            state.name == name,
            "--resume: '{}' holds the state of another run (its jobs' name is not this run's)",
            dir.display()
        );
        usage!(
            state.tasks == tasks,
            "--resume: the run has {} tasks, not {tasks}; give the --tasks that started it",
            state.tasks
        );
        usage!(
            state.script == script,
            "--resume: '{}' is another match (players, games, openings, seed), or was started \
             from another folder or by another yolah (its tasks run the one that started it, \
             in its folder); give the command that started it, from there",
            dir.display()
        );
        return Ok((lock, state));
    }
    usage!(
        !record.exists(),
        "--out '{}' exists: a record file is never overwritten; continue it with --resume, \
         or choose another name",
        record.display()
    );
    let lock = new_run_dir(dir, STATE, "a match run on Slurm")?;
    let state = RunState {
        script,
        tasks,
        name,
        jobs: Vec::new(),
        sprt: None,
    };
    write_atomic(&dir.join(STATE), &serde_json::to_string_pretty(&state)?)?;
    Ok((lock, state))
}

/// Follows the tasks until the test decides or every game is played (submitting the tasks
/// that are missing), then cancels what is left: the games counted.
fn follow(
    dir: &Path,
    state: &mut RunState,
    config: &Config,
    sprt: Option<Sprt>,
    cluster: &slurm::ClusterOptions,
) -> Result<Played> {
    let started = Instant::now();
    let total = config.schedule().len() as u64;
    let tasks = state.tasks;
    // Written at each start from the state, which is written first: a start killed between
    // the two leaves nothing that cannot go on.
    write_atomic(&dir.join(TASK_SCRIPT), &state.script)?;
    let mut array = slurm::Array::new(&state.name, &dir.join(TASK_SCRIPT), tasks);
    let mut last_line = String::new();
    loop {
        // The queue first: a task gone from it had written its last game before.
        let queue = array.queue()?;
        let (games, finished) = read_tasks(dir, config, tasks)?;
        // A program that cannot start will not start in the next game either: stop at the
        // first, as a match here does.
        if let Some(record) = games.values().find(|r| {
            r.forfeit
                .starts_with(yolah_ai::players::engine::CANNOT_START)
        }) {
            array.cancel()?;
            let loser = if record.result == "1-0" {
                &record.white
            } else {
                &record.black
            };
            bail!("{loser} never ran: {}", record.forfeit);
        }
        let (prefix, decided) = counted(config, &games, sprt);
        if decided || prefix as u64 == total {
            array.cancel()?;
            let records: Vec<GameRecord> = games.into_values().take(prefix).collect();
            return Ok(tallied(
                config,
                records,
                sprt,
                started.elapsed().as_secs_f64(),
            ));
        }
        if let Some((job, lost)) = array.submit_lost(&queue, &finished, cluster)? {
            state.jobs.push(job);
            write_atomic(&dir.join(STATE), &serde_json::to_string_pretty(state)?)?;
            if !last_line.is_empty() || lost.len() < tasks as usize {
                eprintln!("submitted {} task(s) as job {job}: {lost:?}", lost.len());
            } else {
                eprintln!("submitted {tasks} tasks as job {job}");
            }
            // The queue again, with them.
            continue;
        }
        let tally = tally_of(config, games.values().take(prefix));
        let line = format!(
            "{}; {} games played, {prefix} in order{}",
            slurm::progress(&queue, finished.len(), tasks),
            games.len(),
            if tally.pairs.pairs() > 0 {
                format!("; {}", tally.line(sprt))
            } else {
                String::new()
            }
        );
        if line != last_line {
            eprintln!("{line}");
            last_line = line;
        }
        array.wait();
    }
}

/// Writes `records` into `record` whole or not at all: into the run's folder, synced, then
/// renamed (never over a file that appeared meanwhile), the folder synced.
fn write_games(dir: &Path, record: &Path, records: &[GameRecord]) -> Result<()> {
    let merged = dir.join("merged.csv");
    let _ = std::fs::remove_file(&merged);
    let written = (|| -> std::io::Result<()> {
        let mut writer = RecordWriter::create(&merged)?;
        for game in records {
            writer.write(game)?;
        }
        std::fs::File::open(&merged)?.sync_all()
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&merged);
        return Err(error).with_context(|| format!("writing {}", record.display()));
    }
    // A hard link is made only where nothing is: a file made at --out during the run stays.
    std::fs::hard_link(&merged, record).with_context(|| {
        format!(
            "writing {}{}",
            record.display(),
            if record.exists() {
                ": a file appeared there during the run; the games are in the run's merged.csv"
            } else {
                ""
            }
        )
    })?;
    let _ = std::fs::remove_file(&merged);
    let parent = match record.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::File::open(parent)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("writing {}", record.display()))
}

/// The script task K runs: in this folder (`here`, as on a cluster's shared file system), the
/// same match restricted to its shard, into its record file, resumed if it is there.
fn script(
    here: &Path,
    dir: &Path,
    config: &Config,
    tasks: u32,
    options: &Options,
) -> Result<String> {
    let exe = std::env::current_exe().context("the path of this program")?;
    let q = |text: &str| crate::cmd::shell_word(text);
    let mut args = vec![
        "match".to_string(),
        q(&config.specs[0]),
        q(&config.specs[1]),
        format!("--games {}", config.games_per_pair),
    ];
    args.extend(run_args(config, options.pairing.openings.as_deref()));
    Ok(format!(
        "#!/bin/sh
# Written by `yolah match --slurm`: array task K plays the games K - 1 modulo {tasks} of the
# match into task-K.csv, resumed if a run of it was cut short (cancelled, killed, requeued).
cd {here} || exit 1
K=$SLURM_ARRAY_TASK_ID
OUT={dir}/task-$K.csv
if [ -e \"$OUT\" ]; then set -- --resume; else set --; fi
exec {exe} {args} --shard \"$K/{tasks}\" --out \"$OUT\" \"$@\"
",
        here = q(&here.display().to_string()),
        dir = q(&std::path::absolute(dir)?.display().to_string()),
        exe = q(&exe.display().to_string()),
        args = args.join(" "),
    ))
}

/// The words of a task's command line that give the run's openings, seed, clock and
/// adjudication as `config` has them (`openings`: the suite's file as given), one game at a
/// time: the same for a match's and a tournament's tasks.
pub(in crate::cmd) fn run_args(config: &Config, openings: Option<&Path>) -> Vec<String> {
    let q = |text: &str| crate::cmd::shell_word(text);
    let mut args = vec![format!("--seed {}", config.seed), "--threads 1".to_string()];
    match openings {
        Some(path) => args.push(format!("--openings {}", q(&path.display().to_string()))),
        None => args.push(format!("--random-plies {}", config.random_plies)),
    }
    if config.shuffle_openings {
        args.push("--shuffle-openings".to_string());
    }
    if let Some(tc) = config.time_control {
        args.push(format!("--tc {}", q(&tc.to_string())));
    }
    if config.adjudicate {
        args.push("--adjudicate".to_string());
    }
    args
}

/// Every game the tasks' files hold, by number (a file's games checked to be its shard's of
/// this match), and the tasks that played all of theirs.
fn read_tasks(
    dir: &Path,
    config: &Config,
    tasks: u32,
) -> Result<(BTreeMap<u64, GameRecord>, Vec<u32>)> {
    let mut games = BTreeMap::new();
    let mut finished = Vec::new();
    for k in 1..=tasks {
        let path = dir.join(format!("task-{k}.csv"));
        if !path.exists() {
            continue;
        }
        let shard = Shard::new(u64::from(k), u64::from(tasks)).map_err(anyhow::Error::msg)?;
        let part = Config {
            shard: Some(shard),
            ..config.clone()
        };
        let read = RecordFile::read(&path).map_err(|e| anyhow::anyhow!("{e}"))?;
        check_against_schedule(&part, &read.records, read.fingerprinted)
            .map_err(|e| anyhow::anyhow!("'{}': {e}", path.display()))?;
        let own = read.records.len();
        for record in read.records {
            games.insert(record.game, record);
        }
        if own >= part.schedule_here().len() {
            finished.push(k);
        }
    }
    Ok((games, finished))
}

/// How many games from the first are all there (the games counted), and whether the test
/// decided within them: then they end at the game that decided it.
fn counted(
    config: &Config,
    games: &BTreeMap<u64, GameRecord>,
    sprt: Option<Sprt>,
) -> (usize, bool) {
    let first = &config.specs[0];
    let mut tally = MatchScore::default();
    let mut prefix = 0;
    for (n, record) in games {
        if *n != prefix as u64 {
            break;
        }
        prefix += 1;
        let paired = tally.add(record.game / 2, half_points(first, record));
        if paired && sprt.is_some_and(|s| s.verdict(&tally.pairs).is_some()) {
            return (prefix, true);
        }
    }
    (prefix, false)
}

/// The first player's half points in a game.
fn half_points(first: &str, record: &GameRecord) -> u32 {
    record.outcome().map_or(1, |o| {
        o.half_points(if record.black == first {
            Color::Black
        } else {
            Color::White
        })
    })
}

/// The tally of `records` for the first player.
fn tally_of<'a>(config: &Config, records: impl Iterator<Item = &'a GameRecord>) -> MatchScore {
    let mut tally = MatchScore::default();
    for record in records {
        tally.add(record.game / 2, half_points(&config.specs[0], record));
    }
    tally
}

/// The match's result over `records`.
fn tallied(config: &Config, records: Vec<GameRecord>, sprt: Option<Sprt>, seconds: f64) -> Played {
    let tally = tally_of(config, records.iter());
    let verdict = sprt.and_then(|s| s.verdict(&tally.pairs));
    Played {
        records,
        tally,
        verdict,
        seconds,
    }
}

//! `yolah tournament --slurm` (and `--gauntlet`): a tournament's games over a Slurm job array.
//! Task K runs the tournament's part K of N (`yolah tournament … --shard K/N --out
//! OUT.tasks/K`, resumed where a run of it was cut short); the command follows the tasks,
//! submits again the ones Slurm lost, and once every part is finished joins them into `--out`
//! as `yolah tournament merge` does (its crosstable and ratings then, or the gauntlet's
//! results). The parts hold the whole tournament's games, so the tournament is the one played
//! on one machine, game for game with node-limited players.

use super::here::{Options, merge, new_config};
use crate::cmd::{new_run_dir, read_json, shell_word, usage, write_atomic};
use crate::slurm::{self, RunState, STATE, TASK_SCRIPT};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use yolah_ai::arena::lock::DirLock;
use yolah_ai::arena::shard::Shard;
use yolah_ai::arena::tournament::{Config, Store};

pub fn run(out: &mut impl std::io::Write, options: &Options) -> Result<()> {
    let tasks = options.cluster.tasks()?;
    let Some(dir) = options.out.as_deref() else {
        anyhow::bail!(crate::cmd::UsageError(
            "--slurm needs --out DIR: the tasks' games are joined into it".to_string()
        ));
    };
    usage!(
        options.shard.is_none(),
        "--slurm and --shard: the run gives each task its shard"
    );
    if options.resume && dir.join("tournament.json").exists() {
        // Joined already: the results again, as --resume prints them.
        return super::here::show(out, dir);
    }
    usage!(
        options.resume || !dir.exists(),
        "--out '{}' exists: choose another directory, or --resume the run",
        dir.display()
    );
    let config = if options.resume {
        None
    } else {
        Some(new_config(options)?)
    };
    // Slurm answers before anything is made.
    slurm::Array::new("yolah-probe", Path::new(TASK_SCRIPT), tasks).queue()?;
    let tasks_dir = slurm::tasks_folder(dir);
    let (_lock, mut state) = open(&tasks_dir, config.as_ref(), tasks, options)?;
    let parts: Vec<PathBuf> = (1..=tasks).map(|k| tasks_dir.join(k.to_string())).collect();
    // Written at each start from the state, which is written first: a start killed between
    // the two leaves nothing that cannot go on.
    write_atomic(&tasks_dir.join(TASK_SCRIPT), &state.script)?;
    let mut array = slurm::Array::new(&state.name, &tasks_dir.join(TASK_SCRIPT), tasks);
    let mut last_line = String::new();
    loop {
        // The queue first: a task gone from it had written its last game before.
        let queue = array.queue()?;
        let mut played = 0;
        let mut finished = Vec::new();
        let mut read = Vec::new();
        for (k, part) in (1..=tasks).zip(&parts) {
            if let Ok((config, records)) = Store::read(part) {
                played += records.len();
                if records.len() >= config.schedule_here().len() {
                    finished.push(k);
                }
                read.push((config, records));
            }
        }
        if let Some(sprt) = &state.sprt
            && let Some(counted) = tested(&read, sprt)?
        {
            array.cancel()?;
            return write_tested(out, dir, counted);
        }
        if state.sprt.is_none() && finished.len() == tasks as usize {
            break;
        }
        if let Some((job, lost)) = array.submit_lost(&queue, &finished, &options.cluster)? {
            state.jobs.push(job);
            write_atomic(
                &tasks_dir.join(STATE),
                &serde_json::to_string_pretty(&state)?,
            )?;
            eprintln!("submitted {} task(s) as job {job}: {lost:?}", lost.len());
            continue;
        }
        let line = format!(
            "{}; {played} games played",
            slurm::progress(&queue, finished.len(), tasks)
        );
        if line != last_line {
            eprintln!("{line}");
            last_line = line;
        }
        array.wait();
    }
    array.cancel()?;
    merge(out, dir, &parts)
}

/// A gauntlet's games with its test applied, as one machine plays them one at a time: in
/// schedule order, an opponent's games counted until its test decides and skipped after;
/// `None` while a game that counts is not played yet. The whole run's config comes with them.
fn tested(
    read: &[(Config, Vec<yolah_ai::arena::record::GameRecord>)],
    sprt: &str,
) -> Result<Option<(Config, Vec<yolah_ai::arena::record::GameRecord>)>> {
    let Some((first, _)) = read.first() else {
        return Ok(None);
    };
    let whole = Config {
        shard: None,
        sprt: Some(sprt.to_string()),
        ..first.clone()
    };
    let test = whole.test().map_err(anyhow::Error::msg)?;
    let mut by_game = std::collections::HashMap::new();
    for (config, records) in read {
        anyhow::ensure!(
            Config {
                shard: None,
                sprt: whole.sprt.clone(),
                ..config.clone()
            } == whole,
            "the tasks' parts are not of one tournament"
        );
        for record in records {
            by_game.insert(record.game, record);
        }
    }
    let schedule = whole.schedule();
    let mut live = super::here::Live::new(whole.specs.len());
    let mut decided = vec![false; whole.specs.len()];
    let mut counted = Vec::new();
    let fingerprint = whole.fingerprint();
    for game in &schedule {
        if decided[game.black.max(game.white)] {
            continue;
        }
        let Some(record) = by_game.get(&game.game) else {
            return Ok(None);
        };
        live.add(record, &schedule);
        decided = live.decided(test);
        // The tasks played without the test: the game is the run's, under its fingerprint.
        let mut record = (*record).clone();
        record.config.clone_from(&fingerprint);
        counted.push(record);
    }
    Ok(Some((whole, counted)))
}

/// The gauntlet's counted games written into `dir` as a finished tournament, then its results.
fn write_tested(
    out: &mut impl std::io::Write,
    dir: &Path,
    (whole, counted): (Config, Vec<yolah_ai::arena::record::GameRecord>),
) -> Result<()> {
    super::here::write_finished(dir, &whole, &counted)?;
    writeln!(
        out,
        "the gauntlet's tests counted {} games, in schedule order, into {}",
        counted.len(),
        dir.display()
    )?;
    super::here::show(out, dir)
}

/// The tasks' folder, locked, and the run's state: made for a new run from `config`, read
/// and checked for `--resume`.
fn open(
    tasks_dir: &Path,
    config: Option<&Config>,
    tasks: u32,
    options: &Options,
) -> Result<(DirLock, RunState)> {
    let Some(config) = config else {
        usage!(
            tasks_dir.join(STATE).exists(),
            "--resume: '{}' holds no tournament run on Slurm",
            tasks_dir.display()
        );
        let lock = DirLock::take(tasks_dir).map_err(|e| anyhow::anyhow!("--resume: {e}"))?;
        let state: RunState = read_json(&tasks_dir.join(STATE), "a tournament run's state")?;
        usage!(
            state.name == slurm::job_name("yolah-tournament", tasks_dir)?,
            "--resume: '{}' holds the state of another run (its jobs' name is not this run's)",
            tasks_dir.display()
        );
        usage!(
            state.tasks == tasks,
            "--resume: the run has {} tasks, not {tasks}; give the --tasks that started it",
            state.tasks
        );
        return Ok((lock, state));
    };
    let script = script(tasks_dir, config, tasks, options)?;
    let lock = new_run_dir(tasks_dir, STATE, "a tournament run on Slurm")?;
    let state = RunState {
        script: script.clone(),
        tasks,
        name: slurm::job_name("yolah-tournament", tasks_dir)?,
        jobs: Vec::new(),
        sprt: config.sprt.clone(),
    };
    write_atomic(
        &tasks_dir.join(STATE),
        &serde_json::to_string_pretty(&state)?,
    )?;
    Ok((lock, state))
}

/// The script task K runs: the tournament's part K into `K/` here, resumed if it is there.
fn script(tasks_dir: &Path, config: &Config, tasks: u32, options: &Options) -> Result<String> {
    let exe = std::env::current_exe().context("the path of this program")?;
    let here = std::env::current_dir().context("the current folder")?;
    let mut args: Vec<String> = vec!["tournament".to_string()];
    args.extend(config.specs.iter().map(|s| shell_word(s)));
    args.push(format!("--games-per-pair {}", config.games_per_pair));
    args.extend(crate::cmd::matches::on_slurm::run_args(
        config,
        options.pairing.openings.as_deref(),
    ));
    if config.gauntlet {
        args.push("--gauntlet".to_string());
    }
    // Checked here rather than by the tasks: a shard's number is the run's.
    Shard::new(1, u64::from(tasks)).map_err(anyhow::Error::msg)?;
    Ok(format!(
        "#!/bin/sh
# Written by `yolah tournament --slurm`: array task K plays part K of {tasks} of the tournament
# into K/ here, resumed if a run of it was cut short (cancelled, killed, requeued).
cd {here} || exit 1
K=$SLURM_ARRAY_TASK_ID
OUT={dir}/$K
if [ -e \"$OUT/tournament.json\" ]; then
    exec {exe} tournament --resume --threads 1 --out \"$OUT\"
fi
exec {exe} {args} --shard \"$K/{tasks}\" --out \"$OUT\"
",
        here = shell_word(&here.display().to_string()),
        dir = shell_word(&std::path::absolute(tasks_dir)?.display().to_string()),
        exe = shell_word(&exe.display().to_string()),
        args = args.join(" "),
    ))
}

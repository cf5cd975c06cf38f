//! `yolah tune --spsa … --slurm`: each SPSA iteration's games spread over a Slurm job array.
//! SPSA is sequential (an iteration's players depend on the last one's result), so the
//! parallelism is within an iteration: with `--pairs P` it plays 2P games or more. Task K of N
//! reads the checkpoint (`spsa.json`), plays the iteration's games numbered K − 1 modulo N,
//! and writes their results to `parts/IIIIII-K.json`, whole or not at all; the tuning command
//! waits for the N parts (submitting again the tasks that Slurm lost), moves the parameters by
//! them exactly as the local step does, saves, and submits the next iteration's array. Every
//! game has its own seed, so a node-limited tuning gives the same path as on one machine.

use super::{shell_word, write_atomic};
use crate::slurm::{self, ClusterOptions, TASK_SCRIPT};
use anyhow::{Context, Result, ensure};
use std::path::{Path, PathBuf};
use yolah_ai::arena::shard::Shard;
use yolah_train::spsa::{Plan, Run};

const PARTS: &str = "parts";

/// A task's part of an iteration, as it writes it.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    iteration: u32,
    part: u64,
    count: u64,
    /// Each game played: its number in the iteration and the playing side's half points.
    points: Vec<(usize, u32)>,
}

fn part_file(dir: &Path, iteration: u32, part: u64) -> PathBuf {
    dir.join(PARTS).join(format!("{iteration:06}-{part}.json"))
}

/// Task K's work (`--spsa-part K/N`): its games of the checkpoint's iteration, unless the run
/// is finished or the part is written already.
pub fn play_part(dir: &Path, shard: Shard, run: &Run) -> Result<()> {
    if run.finished() {
        return Ok(());
    }
    let path = part_file(dir, run.iteration, shard.index);
    if path.exists() {
        return Ok(());
    }
    let plan = run.plan().map_err(anyhow::Error::msg)?;
    let games: Vec<usize> = (0..plan.games())
        .filter(|&g| shard.contains(g as u64))
        .collect();
    let points = plan.play(&games, 1, &|| {}).map_err(anyhow::Error::msg)?;
    let part = Part {
        iteration: run.iteration,
        part: shard.index,
        count: shard.count,
        points,
    };
    write_atomic(&path, &serde_json::to_string(&part)?)
}

/// Plays `run`'s iteration on the cluster and moves its parameters (the caller saves).
pub fn step(dir: &Path, run: &mut Run, cluster: &ClusterOptions) -> Result<()> {
    let tasks = cluster.tasks()?;
    let parts = dir.join(PARTS);
    std::fs::create_dir_all(&parts)
        .with_context(|| format!("cannot create {}", parts.display()))?;
    let k = run.iteration;
    // The parts of the iterations before, which the checkpoint holds now.
    for entry in std::fs::read_dir(&parts)?.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if let Some(number) = name.split('-').next().and_then(|n| n.parse::<u32>().ok())
            && number < k
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let script = parts.join(TASK_SCRIPT);
    let text = script_text(dir, tasks)?;
    if std::fs::read_to_string(&script).ok().as_deref() != Some(text.as_str()) {
        write_atomic(&script, &text)?;
    }
    let plan = run.plan().map_err(anyhow::Error::msg)?;
    let name = slurm::job_name("yolah-spsa", dir)?;
    let mut array = slurm::Array::new(&name, &script, tasks);
    loop {
        // The queue first: a task gone from it had written its part before.
        let queue = array.queue()?;
        let done: Vec<u32> = (1..=tasks)
            .filter(|&t| usable(dir, k, u64::from(t), tasks))
            .collect();
        if done.len() == tasks as usize {
            break;
        }
        if array.submit_lost(&queue, &done, cluster)?.is_some() {
            continue;
        }
        array.wait();
    }
    let points = gather(dir, &plan, k, tasks)?;
    run.apply(&plan, &points);
    Ok(())
}

/// Whether part `t` of iteration `k` is there and is that part of `tasks`; one that is not (of
/// a run with other --tasks before, or written by hand) is removed, and played again.
fn usable(dir: &Path, k: u32, t: u64, tasks: u32) -> bool {
    let path = part_file(dir, k, t);
    if !path.exists() {
        return false;
    }
    let fits = super::read_json::<Part>(&path, "a part of an SPSA iteration").is_ok_and(|part| {
        part.iteration == k
            && part.part == t
            && part.count == u64::from(tasks)
            && part
                .points
                .iter()
                .all(|&(game, half)| half <= 2 && game as u64 % part.count == t - 1)
    });
    if !fits {
        let _ = std::fs::remove_file(&path);
    }
    fits
}

/// The iteration's results from its N parts, each checked to be this iteration's part, and
/// every game there once.
fn gather(dir: &Path, plan: &Plan, k: u32, tasks: u32) -> Result<Vec<(usize, u32)>> {
    let mut seen = vec![false; plan.games()];
    let mut points = Vec::with_capacity(plan.games());
    for t in 1..=u64::from(tasks) {
        let path = part_file(dir, k, t);
        let part: Part = super::read_json(&path, "a part of an SPSA iteration")?;
        ensure!(
            part.iteration == k && part.part == t && part.count == u64::from(tasks),
            "{} is not part {t} of {tasks} of iteration {k}",
            path.display()
        );
        for &(game, half) in &part.points {
            ensure!(
                game < seen.len() && !seen[game] && half <= 2 && game as u64 % part.count == t - 1,
                "{}: game {game} is not one of its part, or is there twice",
                path.display()
            );
            seen[game] = true;
            points.push((game, half));
        }
    }
    ensure!(
        seen.iter().all(|&s| s),
        "iteration {k}: the parts lack games of it"
    );
    Ok(points)
}

/// The script every task runs: its part of the checkpoint's iteration.
fn script_text(dir: &Path, tasks: u32) -> Result<String> {
    let exe = std::env::current_exe().context("the path of this program")?;
    Ok(format!(
        "#!/bin/sh
# Written by `yolah tune --spsa --slurm`: array task K plays the games K - 1 modulo {tasks} of the
# checkpoint's iteration and writes their results to parts/.
exec {exe} tune --out {dir} --spsa-part \"$SLURM_ARRAY_TASK_ID/{tasks}\"
",
        exe = shell_word(&exe.display().to_string()),
        dir = shell_word(&std::path::absolute(dir)?.display().to_string()),
    ))
}

/// Cancels what is left of the tuning's arrays (a task of a finished run has nothing to do)
/// and removes the last iteration's parts, which the checkpoint holds.
pub fn finish(dir: &Path) -> Result<()> {
    slurm::cancel(&slurm::job_name("yolah-spsa", dir)?)?;
    for entry in std::fs::read_dir(dir.join(PARTS))?.flatten() {
        if entry.path().extension().is_some_and(|e| e == "json") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(())
}

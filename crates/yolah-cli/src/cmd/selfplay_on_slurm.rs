//! `yolah learn --slurm`'s self-play: a generation's games as a Slurm job array of N shards.
//! Task K runs `yolah selfplay … --shard K/N --out SHARDS/K` (or `--resume` where its folder
//! holds a run cut short: cancelled, killed, requeued); the learning command follows the
//! array, submits again the shards that Slurm no longer has and that are unfinished, and once
//! every shard is finished merges them (`yolah data merge`) into the generation's `selfplay/`:
//! byte for byte the data the same self-play on one machine writes.
//!
//! The shards' folder keeps the tasks' script, their logs and `state.json` (the jobs
//! submitted and their name, by which they are found).

use super::{read_json, selfplay, shell_word, write_atomic};
use crate::slurm::{self, ClusterOptions, RunState, STATE, TASK_SCRIPT};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Plays the self-play run `args` (`yolah selfplay`'s words after the command, without
/// `--out`, `--threads` and `--shard`) as an array of shards in `shards`, then merges them
/// into `target`.
pub fn run(
    out: &mut impl Write,
    args: &[String],
    shards: &Path,
    target: &Path,
    cluster: &ClusterOptions,
) -> Result<()> {
    let tasks = cluster.tasks()?;
    std::fs::create_dir_all(shards)
        .with_context(|| format!("cannot create {}", shards.display()))?;
    let script = script(args, shards, tasks)?;
    let state_file = shards.join(STATE);
    let mut state = if state_file.exists() {
        let state: RunState = read_json(&state_file, "a self-play array's state")?;
        anyhow::ensure!(
            state.script == script && state.tasks == tasks,
            "'{}' holds the shards of another self-play: of --tasks {}, or started from another \
             folder or by another yolah (its tasks run the one that started it, in its folder); \
             give the --tasks that started it, from there",
            shards.display(),
            state.tasks
        );
        state
    } else {
        let state = RunState {
            script: script.clone(),
            tasks,
            name: slurm::job_name("yolah-selfplay", shards)?,
            jobs: Vec::new(),
            sprt: None,
        };
        write_atomic(&shards.join(TASK_SCRIPT), &script)?;
        write_atomic(&state_file, &serde_json::to_string_pretty(&state)?)?;
        state
    };
    let parts: Vec<PathBuf> = (1..=tasks).map(|k| shards.join(k.to_string())).collect();
    let mut array = slurm::Array::new(&state.name, &shards.join(TASK_SCRIPT), tasks);
    let mut last_line = String::new();
    loop {
        // The queue first: a task gone from it had written its last game before.
        let queue = array.queue()?;
        let finished: Vec<u32> = (1..=tasks)
            .filter(|&k| selfplay::finished(&parts[k as usize - 1]))
            .collect();
        if finished.len() == tasks as usize {
            break;
        }
        if let Some((job, lost)) = array.submit_lost(&queue, &finished, cluster)? {
            state.jobs.push(job);
            write_atomic(&state_file, &serde_json::to_string_pretty(&state)?)?;
            eprintln!(
                "self-play: submitted {} shard(s) as job {job}: {}",
                lost.len(),
                if lost.len() == tasks as usize {
                    format!("1-{tasks}")
                } else {
                    format!("{lost:?}")
                }
            );
            continue;
        }
        let line = format!(
            "self-play: {}",
            slurm::progress(&queue, finished.len(), tasks)
        );
        if line != last_line {
            eprintln!("{line}");
            last_line = line;
        }
        array.wait();
    }
    selfplay::merge(out, target, &parts)?;
    // Merged: the shards' copies of the data go (their logs and state stay).
    for part in &parts {
        let _ = std::fs::remove_dir_all(part);
    }
    Ok(())
}

/// The script task K runs: in this folder (as on a cluster's shared file system), shard K of
/// the self-play into `shards/K`, resumed if a run of it is there.
fn script(args: &[String], shards: &Path, tasks: u32) -> Result<String> {
    let exe = std::env::current_exe().context("the path of this program")?;
    let here = std::env::current_dir().context("the current folder")?;
    let words: Vec<String> = args.iter().map(|w| shell_word(w)).collect();
    Ok(format!(
        "#!/bin/sh
# Written by `yolah learn --slurm`: array task K plays shard K of {tasks} of a generation's
# self-play into its folder K here, resumed if a run of it was cut short.
cd {here} || exit 1
K=$SLURM_ARRAY_TASK_ID
OUT={shards}/$K
if [ -e \"$OUT/selfplay.json\" ]; then
    exec {exe} selfplay --resume --threads 1 --out \"$OUT\"
fi
exec {exe} selfplay {args} --threads 1 --shard \"$K/{tasks}\" --out \"$OUT\"
",
        here = shell_word(&here.display().to_string()),
        shards = shell_word(&std::path::absolute(shards)?.display().to_string()),
        exe = shell_word(&exe.display().to_string()),
        args = words.join(" "),
    ))
}

//! Talking to a Slurm cluster through its own commands (`sbatch`, `squeue`, `scancel`): a
//! job array submitted from a script, the state of its tasks, its cancellation. No daemon of
//! ours: what runs where is Slurm's business, and what a task did is in the files it wrote.

use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// The most array tasks a run may ask for.
pub const MAX_TASKS: u32 = 10_000;
/// The follower's wait after a change in the queue (a submission, a task started or gone),
/// doubled at each look that finds none, up to [`LONGEST_WAIT`]: the end of a task, which
/// ends a short array, is seen within half a second, and a quiet queue costs two `squeue`
/// a second. (A fixed second added about 0.5 s an array: 17 % on a one-minute run.)
const FIRST_WAIT: std::time::Duration = std::time::Duration::from_millis(25);
/// The longest wait between two looks at the queue.
const LONGEST_WAIT: std::time::Duration = std::time::Duration::from_millis(500);
/// The sbatch options a run sets itself, which `--sbatch-arg` may not: the jobs are found by
/// their name, each task's log and index are the run's, and a task must be requeued.
const RESERVED: [&str; 17] = [
    "--job-name",
    "-J",
    "--array",
    "-a",
    "--output",
    "-o",
    "--error",
    "-e",
    "--open-mode",
    "--requeue",
    "--no-requeue",
    "--wrap",
    "--parsable",
    "--dependency",
    "-d",
    "--export",
    "--chdir",
];
/// The most `--sbatch-arg` values.
const MAX_SBATCH_ARGS: usize = 32;

/// Where and how a run's work goes to the cluster: the options of every command that can
/// run as Slurm jobs.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ClusterOptions {
    /// Run the work as Slurm jobs (a job array) rather than on this machine; the submitting
    /// command follows them, merges what they write and says what is queued, running and done.
    #[arg(long)]
    pub slurm: bool,
    /// Array tasks, 1 to 10000, each playing one game at a time [default: 8].
    #[arg(long, value_name = "N", requires = "slurm")]
    pub tasks: Option<u32>,
    /// The Slurm partition to submit to (sbatch --partition) [default: the cluster's].
    #[arg(long, value_name = "P", requires = "slurm")]
    pub partition: Option<String>,
    /// The Slurm account to charge (sbatch --account).
    #[arg(long, value_name = "A", requires = "slurm")]
    pub account: Option<String>,
    /// One more option for sbatch, whole, like `--sbatch-arg=--time=2:00:00` (repeatable); not
    /// one the run sets itself (the job's name, array, output, requeueing).
    #[arg(
        long = "sbatch-arg",
        value_name = "ARG",
        requires = "slurm",
        allow_hyphen_values = true
    )]
    pub sbatch_args: Vec<String>,
}

impl ClusterOptions {
    /// The tasks asked for, checked.
    pub fn tasks(&self) -> Result<u32> {
        let tasks = self.tasks.unwrap_or(8);
        crate::usage::usage!(
            (1..=MAX_TASKS).contains(&tasks),
            "--tasks must be 1 to {MAX_TASKS}"
        );
        crate::usage::usage!(
            self.sbatch_args.len() <= MAX_SBATCH_ARGS,
            "at most {MAX_SBATCH_ARGS} --sbatch-arg values"
        );
        for arg in &self.sbatch_args {
            // A long option's name ends at '='; a short one is its first two characters
            // (`-Jname`).
            let name = if arg.starts_with("--") {
                arg.split('=').next().unwrap_or_default()
            } else {
                arg.get(..2).unwrap_or(arg)
            };
            crate::usage::usage!(
                arg.starts_with('-') && !RESERVED.contains(&name),
                "--sbatch-arg {}: give an sbatch option whole, like --sbatch-arg=--time=2:00:00, \
                 other than those the run sets itself ({})",
                yolah_core::text::quote(arg),
                RESERVED.join(", ")
            );
        }
        for (name, value) in [
            ("--partition", &self.partition),
            ("--account", &self.account),
        ] {
            if let Some(value) = value {
                crate::usage::usage!(
                    !value.is_empty()
                        && value.len() <= 128
                        && value
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.,".contains(c)),
                    "{name} {}: letters, digits, '-', '_', '.' and ',' only",
                    yolah_core::text::quote(value)
                );
            }
        }
        Ok(tasks)
    }
}

/// The name of the script a run's tasks run, in its folder.
pub const TASK_SCRIPT: &str = "task.sh";
/// The name of a run's [`RunState`] file in its folder.
pub const STATE: &str = "state.json";

/// What a run on the cluster keeps between its command's starts: [`STATE`] in its folder.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// The script every task runs: a run resumed with other options is refused.
    pub script: String,
    pub tasks: u32,
    /// The name of the run's jobs, by which they are found and cancelled.
    pub name: String,
    /// Every job submitted for the run (the first array, then the tasks submitted again).
    pub jobs: Vec<u64>,
    /// A gauntlet's test, which its tasks do not play (each sees only its part's games): the
    /// command applies it to the games in schedule order, as one machine would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
}

/// The folder of the run on the cluster whose result goes to `out` (a record file, a
/// tournament's directory): `OUT.tasks`.
pub fn tasks_folder(out: &Path) -> std::path::PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".tasks");
    std::path::PathBuf::from(name)
}

/// A task's state as `squeue` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// Waiting for resources (PD), or held, or requeued and waiting again.
    Queued,
    /// Running, or being set up or finished (R, CF, CG).
    Running,
}

/// Runs a Slurm command; an error says which and what it printed.
fn run(program: &str, args: &[String]) -> Result<String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {program}: is Slurm installed here?"))?;
    if !output.status.success() {
        bail!(
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Submits `script` as a job array of the tasks `indices` (1-based), named `name` (one name
/// a run: [`tasks`] and [`cancel`] find its jobs by it), each task on one core, its output
/// appended to `logs/task-K.out` beside the script; returns the job's id.
pub fn submit(script: &Path, name: &str, indices: &[u32], cluster: &ClusterOptions) -> Result<u64> {
    // Absolute: a relative path that begins with '-' would be read as an option.
    let script = std::path::absolute(script)?;
    let folder = script.parent().unwrap_or(Path::new("/"));
    let logs = folder.join("logs");
    std::fs::create_dir_all(&logs)
        .with_context(|| format!("cannot create '{}'", logs.display()))?;
    let list = array_list(indices);
    let mut args = vec![
        "--parsable".to_string(),
        format!("--job-name={name}"),
        format!("--array={list}"),
        "--cpus-per-task=1".to_string(),
        "--requeue".to_string(),
        "--open-mode=append".to_string(),
        // sbatch expands '%' in the file's name: one of the path's own is written '%%'.
        format!(
            "--output={}/task-%a.out",
            logs.display().to_string().replace('%', "%%")
        ),
    ];
    if let Some(partition) = &cluster.partition {
        args.push(format!("--partition={partition}"));
    }
    if let Some(account) = &cluster.account {
        args.push(format!("--account={account}"));
    }
    args.extend(cluster.sbatch_args.iter().cloned());
    args.push(script.display().to_string());
    let printed = run("sbatch", &args)?;
    let id = printed.trim().split(';').next().unwrap_or_default();
    id.parse()
        .map_err(|_| anyhow::anyhow!("sbatch printed {printed:?}, not a job id"))
}

/// The tasks of this user's jobs named `name` that Slurm still has (queued or running), by
/// task index; a task in two of them (submitted again) is running if either runs. By name, so
/// that a job whose id was never written down (its submitter killed at once) is found too.
pub fn tasks(name: &str) -> Result<HashMap<u32, TaskState>> {
    let printed = run(
        "squeue",
        &[
            "--noheader".to_string(),
            "--array".to_string(),
            "--me".to_string(),
            format!("--name={name}"),
            "--format=%K %t".to_string(),
        ],
    )?;
    let mut states = HashMap::new();
    for line in printed.lines() {
        let mut fields = line.split_whitespace();
        let (Some(task), Some(state)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(task) = task.parse::<u32>() else {
            continue;
        };
        let state = match state {
            "PD" | "RQ" | "RH" | "RF" | "S" | "ST" | "RS" => TaskState::Queued,
            _ => TaskState::Running,
        };
        let entry = states.entry(task).or_insert(state);
        if state == TaskState::Running {
            *entry = state;
        }
    }
    Ok(states)
}

/// Cancels this user's jobs named `name`, whatever their tasks are doing.
pub fn cancel(name: &str) -> Result<()> {
    run("scancel", &["--me".to_string(), format!("--name={name}")])?;
    Ok(())
}

/// The name of the jobs of the run in `dir`: `prefix` and its absolute path's hash, so that
/// its jobs are found by name whatever their ids.
pub fn job_name(prefix: &str, dir: &Path) -> Result<String> {
    let path = std::path::absolute(dir)?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in path.as_os_str().as_encoded_bytes() {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3);
    }
    Ok(format!("{prefix}-{:08x}", hash as u32))
}

/// How many times a task is submitted by one command before it gives up on it.
const MAX_SUBMISSIONS: u32 = 4;

/// A run's job array as its submitting command follows it: its tasks found by the jobs' name,
/// those missing submitted again.
pub struct Array {
    name: String,
    script: std::path::PathBuf,
    tasks: u32,
    /// Submissions of each task by this command (a resumed run gives each its tries again).
    submitted: std::collections::BTreeMap<u32, u32>,
    /// The queue at the last look, and the wait before the next.
    last_queue: Option<HashMap<u32, TaskState>>,
    wait: std::time::Duration,
}

impl Array {
    /// The array of `tasks` tasks named `name`, each running `script`.
    pub fn new(name: &str, script: &Path, tasks: u32) -> Array {
        Array {
            name: name.to_string(),
            script: script.to_path_buf(),
            tasks,
            submitted: std::collections::BTreeMap::new(),
            last_queue: None,
            wait: FIRST_WAIT,
        }
    }

    /// Its tasks Slurm still has. Read it before the tasks' files: a task gone from the queue
    /// wrote its last byte before.
    pub fn queue(&mut self) -> Result<HashMap<u32, TaskState>> {
        let queue = tasks(&self.name)?;
        if self.last_queue.as_ref() != Some(&queue) {
            self.wait = FIRST_WAIT;
            self.last_queue = Some(queue.clone());
        }
        Ok(queue)
    }

    /// Waits before the next look at the queue: [`FIRST_WAIT`] after a change, twice as long
    /// after each look that saw none, never more than [`LONGEST_WAIT`]. Every follower (a
    /// match, a tournament, self-play, SPSA, the learning loop) waits by it.
    pub fn wait(&mut self) {
        std::thread::sleep(self.wait);
        self.wait = (self.wait * 2).min(LONGEST_WAIT);
    }

    /// Submits, as one job, the tasks neither `finished` nor in `queue` (cancelled, killed,
    /// lost with a node, or never submitted); returns the job and its tasks, if any. A task
    /// submitted [`MAX_SUBMISSIONS`] times already is an error naming its log, and the rest
    /// of the array is cancelled.
    pub fn submit_lost(
        &mut self,
        queue: &HashMap<u32, TaskState>,
        finished: &[u32],
        cluster: &ClusterOptions,
    ) -> Result<Option<(u64, Vec<u32>)>> {
        let lost: Vec<u32> = (1..=self.tasks)
            .filter(|k| !finished.contains(k) && !queue.contains_key(k))
            .collect();
        if lost.is_empty() {
            return Ok(None);
        }
        for &k in &lost {
            let times = self.submitted.entry(k).or_insert(0);
            if *times >= MAX_SUBMISSIONS {
                self.cancel()?;
                let folder = self.script.parent().unwrap_or(Path::new("."));
                bail!(
                    "task {k} ended {MAX_SUBMISSIONS} times without finishing; see {}",
                    folder.join("logs").join(format!("task-{k}.out")).display()
                );
            }
            *times += 1;
        }
        let job = submit(&self.script, &self.name, &lost, cluster)?;
        Ok(Some((job, lost)))
    }

    /// Cancels what is left of it.
    pub fn cancel(&self) -> Result<()> {
        cancel(&self.name)
    }
}

/// What a queue says of an array of `tasks` tasks, `finished` of them done: `tasks: 1 queued,
/// 2 running, 5 done of 8`.
pub fn progress(queue: &HashMap<u32, TaskState>, finished: usize, tasks: u32) -> String {
    let running = queue.values().filter(|s| **s == TaskState::Running).count();
    format!(
        "tasks: {} queued, {running} running, {finished} done of {tasks}",
        queue.len() - running
    )
}

/// `indices` as sbatch's `--array` list, runs joined: `1-3,5`.
fn array_list(indices: &[u32]) -> String {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            sorted[i].to_string()
        } else {
            format!("{}-{}", sorted[i], sorted[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_lists_join_runs() {
        assert_eq!(array_list(&[1, 2, 3, 5]), "1-3,5");
        assert_eq!(array_list(&[7, 3, 3, 4]), "3-4,7");
        assert_eq!(array_list(&[9]), "9");
    }
}

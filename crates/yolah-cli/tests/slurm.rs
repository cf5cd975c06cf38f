//! `yolah match --slurm` on a real Slurm (`cargo xtask slurm up`): the games spread over a job
//! array are the games of the same match on one machine, an SPRT stops where it does there
//! and cancels the rest, and the faults of a cluster (a task cancelled, killed or requeued,
//! the node drained, the submitting command killed, a second one, a full disk) lose no game
//! and count none twice.
//!
//! Ignored: they need a running Slurm, which `.ci/run` starts before it runs the ignored tests
//! (and sets `YOLAH_SLURM_REQUIRED`, so that a Slurm that did not start fails them). Without
//! Slurm, each says it skipped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One test at a time: they share the cluster (and drain its node).
static CLUSTER: Mutex<()> = Mutex::new(());

/// How long a condition may take on a busy machine.
const PATIENCE: Duration = Duration::from_mins(5);

fn yolah() -> Command {
    Command::new(env!("CARGO_BIN_EXE_yolah"))
}

/// The cluster for this test alone, if a Slurm answers here; without one the test says it
/// skipped (or fails, when `YOLAH_SLURM_REQUIRED` is set).
fn cluster() -> Option<std::sync::MutexGuard<'static, ()>> {
    let guard = CLUSTER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    slurm_up().then_some(guard)
}

fn slurm_up() -> bool {
    let up = Command::new("sinfo")
        .arg("--noheader")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !up {
        assert!(
            std::env::var_os("YOLAH_SLURM_REQUIRED").is_none(),
            "no Slurm answers here (`cargo xtask slurm up` starts one)"
        );
        eprintln!("skipped: no Slurm here (`cargo xtask slurm up` starts one)");
    }
    up
}

/// The games of the runs that meet a fault: enough that every task is still playing when it
/// comes.
const GAMES: u32 = 60;

/// The match every test plays: node-limited players, so the same seed gives the same games.
const PLAYERS: [&str; 2] = ["minimax:nodes=20000", "minimax:nodes=10000"];

fn match_args(games: u32, out: &Path) -> Vec<String> {
    let mut args: Vec<String> = vec!["match".into(), PLAYERS[0].into(), PLAYERS[1].into()];
    args.extend([
        "--games".into(),
        games.to_string(),
        "--seed".into(),
        "7".into(),
    ]);
    args.extend(["--out".into(), out.display().to_string()]);
    args
}

/// Starts `yolah match --slurm` with 2 tasks in `dir`.
fn start(dir: &Path, games: u32, extra: &[&str]) -> Child {
    yolah()
        .current_dir(dir)
        .args(match_args(games, Path::new("m.csv")))
        .args(["--slurm", "--tasks", "2"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("yolah starts")
}

fn finish(child: Child) -> Output {
    let output = child.wait_with_output().expect("yolah ends");
    assert!(
        output.status.success(),
        "yolah match --slurm failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs the command `args` gives for a folder here into `local` (one thread), then on Slurm
/// with 2 tasks into `spread`; both must succeed. Returns what the Slurm run printed.
fn here_then_on_slurm(args: &dyn Fn(&Path) -> Vec<String>, local: &Path, spread: &Path) -> String {
    let output = yolah()
        .args(args(local))
        .args(["--threads", "1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let output = yolah()
        .args(args(spread))
        .args(["--slurm", "--tasks", "2"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{said}");
    said
}

/// The games of a record file, without their times: what a game is.
fn games(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("the record file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let keep: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, name)| !name.ends_with("_ms"))
        .map(|(i, _)| i)
        .collect();
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            keep.iter().map(|&i| fields[i].to_string()).collect()
        })
        .collect()
}

/// The same match on this machine, one game at a time.
fn local(dir: &Path, games: u32, extra: &[&str]) -> PathBuf {
    let out = dir.join("local.csv");
    let status = yolah()
        .args(match_args(games, &out))
        .args(["--threads", "1"])
        .args(extra)
        .stdout(Stdio::null())
        .status()
        .expect("yolah runs");
    assert!(status.success());
    out
}

fn wait_for(what: &str, mut condition: impl FnMut() -> bool) {
    let start = Instant::now();
    while !condition() {
        assert!(start.elapsed() < PATIENCE, "waited too long for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Games written so far in task K's file.
fn task_games(dir: &Path, k: u32) -> usize {
    std::fs::read_to_string(dir.join(format!("m.csv.tasks/task-{k}.csv")))
        .map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// The run's first job id.
fn first_job(dir: &Path) -> u64 {
    let state = dir.join("m.csv.tasks/state.json");
    wait_for("the first submission", || {
        std::fs::read_to_string(&state).is_ok_and(|t| !t.contains("\"jobs\": []"))
    });
    let text = std::fs::read_to_string(&state).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["jobs"][0].as_u64().unwrap()
}

fn run(program: &str, args: &[&str]) {
    let output = Command::new(program).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Nothing of the run is left in the queue.
fn queue_is_empty_of(dir: &Path) {
    let state = std::fs::read_to_string(dir.join("m.csv.tasks/state.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&state).unwrap();
    let name = json["name"].as_str().unwrap().to_string();
    wait_for("the run's jobs to leave the queue", || {
        let out = Command::new("squeue")
            .args([
                "--noheader",
                "--me",
                &format!("--name={name}"),
                "--states=PD,R",
            ])
            .output()
            .unwrap();
        out.stdout.is_empty()
    });
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_match_on_slurm_plays_the_local_matchs_games() {
    let Some(_cluster) = cluster() else { return };
    let dir = tempfile::tempdir().unwrap();
    let output = finish(start(dir.path(), 24, &[]));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("minimax:nodes=20000 vs minimax:nodes=10000: +"),
        "{text}"
    );
    let expected = games(&local(dir.path(), 24, &[]));
    assert_eq!(games(&dir.path().join("m.csv")), expected);
    // Every task's part, and no game of it twice.
    assert_eq!(task_games(dir.path(), 1) + task_games(dir.path(), 2), 24);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(progress.contains("submitted 2 tasks as job"), "{progress}");
    assert!(progress.contains("running"), "{progress}");
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn an_sprt_on_slurm_stops_where_the_local_one_does_and_cancels_the_rest() {
    let Some(_cluster) = cluster() else { return };
    let dir = tempfile::tempdir().unwrap();
    let sprt = ["--sprt", "elo0=0,elo1=200"];
    let output = finish(start(dir.path(), 2000, &sprt));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("H1 accepted"), "{text}");
    let expected = games(&local(dir.path(), 2000, &sprt));
    let merged = games(&dir.path().join("m.csv"));
    assert_eq!(merged, expected);
    assert!(merged.len() < 200, "{} games", merged.len());
    // The tasks were cancelled long before their 1000 games each.
    queue_is_empty_of(dir.path());
    let played = task_games(dir.path(), 1) + task_games(dir.path(), 2);
    assert!(played < 1000, "{played} games played");
}

/// A fault in the middle of a run of `GAMES` games: `fault` is done once a task has played some;
/// the run then ends with the local match's games, each once, and task `resumed` says in its
/// log that it resumed its file.
fn survives(resumed: u32, fault: impl FnOnce(&Path, u64)) -> String {
    let dir = tempfile::tempdir().unwrap();
    let child = start(dir.path(), GAMES, &[]);
    let job = first_job(dir.path());
    wait_for("a task's first games", || {
        task_games(dir.path(), 1) >= 2 && task_games(dir.path(), 2) >= 2
    });
    fault(dir.path(), job);
    let output = finish(child);
    assert_eq!(
        games(&dir.path().join("m.csv")),
        games(&local(dir.path(), GAMES, &[]))
    );
    assert_eq!(
        task_games(dir.path(), 1) + task_games(dir.path(), 2),
        GAMES as usize
    );
    let log = std::fs::read_to_string(
        dir.path()
            .join(format!("m.csv.tasks/logs/task-{resumed}.out")),
    )
    .unwrap();
    assert!(
        log.contains("resuming:"),
        "task {resumed} did not resume: {log}"
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_cancelled_task_is_submitted_again_and_resumes_its_file() {
    let Some(_cluster) = cluster() else { return };
    let progress = survives(2, |_, job| run("scancel", &[&format!("{job}_2")]));
    assert!(
        progress.contains("submitted 1 task(s) as job"),
        "{progress}"
    );
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_task_killed_with_sigkill_is_submitted_again_and_resumes_its_file() {
    let Some(_cluster) = cluster() else { return };
    let progress = survives(1, |dir, _| {
        let file = dir.join("m.csv.tasks/task-1.csv");
        run("pkill", &["-KILL", "-f", &file.display().to_string()]);
    });
    assert!(
        progress.contains("submitted 1 task(s) as job"),
        "{progress}"
    );
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_requeued_task_counts_its_games_once() {
    let Some(_cluster) = cluster() else { return };
    survives(1, |_, job| {
        run("scontrol", &["requeue", &format!("{job}_1")]);
    });
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_drained_node_holds_the_run_until_it_returns() {
    let Some(_cluster) = cluster() else { return };
    let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    let node = format!("nodename={host}");
    survives(2, |dir, job| {
        let drained = Drained::new(&node);
        // A task cancelled while the node is drained waits in the queue for it.
        run("scancel", &[&format!("{job}_2")]);
        let file = dir.join("m.csv.tasks/task-2.csv").display().to_string();
        let runs = || {
            Command::new("pgrep")
                .args(["-f", &file])
                .stdout(Stdio::null())
                .status()
                .unwrap()
                .success()
        };
        wait_for("the cancelled task to end", || !runs());
        let before = task_games(dir, 2);
        std::thread::sleep(Duration::from_secs(3));
        assert!(!runs(), "a task ran on a drained node");
        assert_eq!(
            task_games(dir, 2),
            before,
            "a task played on a drained node"
        );
        drop(drained);
    });
}

/// A node drained until dropped (a failed test included: the other tests need it).
struct Drained(String);

impl Drained {
    fn new(node: &str) -> Drained {
        run(
            "scontrol",
            &["update", node, "state=drain", "reason=yolah-test"],
        );
        Drained(node.to_string())
    }
}

impl Drop for Drained {
    fn drop(&mut self) {
        let _ = Command::new("scontrol")
            .args(["update", &self.0, "state=resume"])
            .status();
    }
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn the_submitting_command_killed_and_resumed_loses_nothing_and_a_second_is_refused() {
    let Some(_cluster) = cluster() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut child = start(dir.path(), GAMES, &[]);
    first_job(dir.path());
    wait_for("the tasks' first games", || task_games(dir.path(), 1) >= 2);
    child.kill().unwrap();
    child.wait().unwrap();
    // The tasks go on without it.
    let before = task_games(dir.path(), 1) + task_games(dir.path(), 2);
    wait_for("the tasks to go on", || {
        task_games(dir.path(), 1) + task_games(dir.path(), 2) > before
    });
    let resumed = start(dir.path(), GAMES, &["--resume"]);
    std::thread::sleep(Duration::from_millis(500));
    let second = start(dir.path(), GAMES, &["--resume"])
        .wait_with_output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success());
    assert!(said.contains("in use by another run"), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    finish(resumed);
    assert_eq!(
        games(&dir.path().join("m.csv")),
        games(&local(dir.path(), GAMES, &[]))
    );
    // Resumed once more, the run that ended says its result again.
    let again = finish(start(dir.path(), GAMES, &["--resume"]));
    assert!(String::from_utf8_lossy(&again.stdout).contains("vs minimax:nodes=10000: +"));
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_full_disk_stops_the_run_with_its_games_kept_and_resume_finishes_it() {
    let Some(_cluster) = cluster() else { return };
    let disk = yolah_testkit::writers::SmallDisk::new(1 << 20);
    let dir = disk.path();
    let child = start(dir, GAMES, &[]);
    first_job(dir);
    wait_for("the tasks' first games", || {
        task_games(dir, 1) >= 2 && task_games(dir, 2) >= 2
    });
    disk.fill();
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    let error = said.lines().last().unwrap_or_default();
    assert!(error.starts_with("error: "), "{said}");
    eprintln!("the run stopped with: {error}");
    assert!(!dir.join("m.csv").exists());
    let kept = task_games(dir, 1) + task_games(dir, 2);
    assert!(kept >= 4, "{kept} games kept");
    disk.free();
    finish(start(dir, GAMES, &["--resume"]));
    let expected = {
        let other = tempfile::tempdir().unwrap();
        games(&local(other.path(), GAMES, &[]))
    };
    assert_eq!(games(&dir.join("m.csv")), expected);
}

/// Bad options are refused with one line before anything is made, Slurm or not.
#[test]
fn bad_cluster_options_are_refused_before_anything_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (
            &["--slurm", "--sbatch-arg=--job-name=mine"],
            "--sbatch-arg '--job-name=mine'",
        ),
        (&["--slurm", "--sbatch-arg=-Jmine"], "--sbatch-arg '-Jmine'"),
        (
            &["--slurm", "--sbatch-arg=2:00:00"],
            "give an sbatch option whole",
        ),
        (&["--slurm", "--tasks", "0"], "--tasks must be 1 to 10000"),
        (
            &["--slurm", "--tasks", "10001"],
            "--tasks must be 1 to 10000",
        ),
        (
            &["--slurm", "--partition", "a b"],
            "--partition 'a b': letters",
        ),
        (&["--slurm", "--account", ""], "--account '': letters"),
        (&["--slurm", "--shard", "1/2"], "--slurm and --shard"),
        (&["--tasks", "2"], "--slurm"),
    ];
    for (extra, expected) in cases {
        let output = yolah()
            .current_dir(dir.path())
            .args(match_args(10, Path::new("m.csv")))
            .args(extra)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {said}");
        assert!(said.contains(expected), "{extra:?}: {said}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{extra:?}"
        );
    }
    // --slurm needs --out.
    let output = yolah()
        .current_dir(dir.path())
        .args(["match", PLAYERS[0], PLAYERS[1], "--games", "10", "--slurm"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("--slurm needs --out FILE"), "{said}");
}

/// Where Slurm's commands are missing, `--slurm` says so in one line and leaves nothing.
#[test]
fn without_slurm_a_run_says_so_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let output = yolah()
        .current_dir(dir.path())
        .env("PATH", empty.path())
        .args(match_args(10, Path::new("m.csv")))
        .arg("--slurm")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("is Slurm installed here?"), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A tiny learning run: node-limited self-play, test and gauntlet, so that the same seeds give
/// the same networks.
fn learn_args(dir: &Path) -> Vec<String> {
    let mut args = vec![
        "learn".to_string(),
        "--out".to_string(),
        dir.display().to_string(),
    ];
    args.extend(
        [
            "--generations",
            "2",
            "--games",
            "30",
            "--nodes",
            "300",
            "--epochs",
            "3",
            "--hidden",
            "32,8",
            "--budget",
            "nodes=300",
            "--test-games",
            "100",
            "--threads",
            "1",
            "--sprt",
            "elo0=-700,elo1=-400,alpha=0.2,beta=0.2",
            "--gauntlet",
            "random",
            "--gauntlet-games",
            "2",
        ]
        .map(String::from),
    );
    args
}

/// What a learning run decided: each generation's network and the table's first columns.
fn learnt(dir: &Path) -> Vec<Vec<u8>> {
    let mut seen = Vec::new();
    for generation in ["gen-001", "gen-002"] {
        seen.push(std::fs::read(dir.join(generation).join("network.yolahnet")).unwrap());
    }
    let table = std::fs::read_to_string(dir.join("generations.csv")).unwrap();
    for line in table.lines() {
        seen.push(
            line.split(',')
                .take(8)
                .collect::<Vec<_>>()
                .join(",")
                .into_bytes(),
        );
    }
    seen
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn learn_on_slurm_killed_and_resumed_gives_the_local_runs_networks() {
    let Some(_cluster) = cluster() else { return };
    let root = tempfile::tempdir().unwrap();
    let local = root.path().join("local");
    let status = yolah()
        .args(learn_args(&local))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());

    let run = root.path().join("slurm");
    let mut child = yolah()
        .args(learn_args(&run))
        .args(["--slurm", "--tasks", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed while its first self-play array runs; the tasks go on without it.
    wait_for("the first self-play array", || {
        std::fs::read_to_string(run.join("gen-001/shards/state.json"))
            .is_ok_and(|t| !t.contains("\"jobs\": []"))
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let resume = |extra: &[&str]| {
        yolah()
            .args(["learn", "--out", run.to_str().unwrap(), "--resume"])
            .args(["--threads", "1", "--slurm", "--tasks", "2"])
            .args(extra)
            .output()
            .unwrap()
    };
    let resumed = resume(&[]);
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{said}");
    assert!(said.contains("self-play: "), "{said}");
    assert!(said.contains("training: submitted as job"), "{said}");
    assert_eq!(learnt(&run), learnt(&local));
    // Every phase went through Slurm: the shards, the test and the gauntlet's matches.
    for generation in ["gen-001", "gen-002"] {
        let folder = run.join(generation);
        assert!(folder.join("shards/task.sh").exists(), "{generation}");
        assert!(
            folder.join("test.csv.tasks/task.sh").exists(),
            "{generation}"
        );
    }
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn spsa_on_slurm_killed_and_resumed_moves_the_parameters_as_the_local_run() {
    let Some(_cluster) = cluster() else { return };
    let root = tempfile::tempdir().unwrap();
    let tune = |dir: &Path| {
        let mut args: Vec<String> = ["tune", "--out"].map(String::from).to_vec();
        args.push(dir.display().to_string());
        args.extend(
            [
                "--spsa",
                "minimax:nodes=2000",
                "--params",
                "lmp_a,lmr_scale",
                "--iterations",
                "12",
                "--pairs",
                "2",
                "--seed",
                "3",
            ]
            .map(String::from),
        );
        args
    };
    let local = root.path().join("local");
    let status = yolah()
        .args(tune(&local))
        .args(["--threads", "1"])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let run = root.path().join("slurm");
    let mut child = yolah()
        .args(tune(&run))
        .args(["--slurm", "--tasks", "2"])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Killed after some iterations, with an iteration's array in the queue or running.
    wait_for("the third iteration", || {
        std::fs::read_to_string(run.join("spsa.json")).is_ok_and(|t| t.contains("\"iteration\":3,"))
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed = yolah()
        .args(["tune", "--out", run.to_str().unwrap(), "--resume"])
        .args(["--slurm", "--tasks", "2"])
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(run.join("spsa.json")).unwrap(),
        std::fs::read_to_string(local.join("spsa.json")).unwrap()
    );
    assert!(run.join("parts/task.sh").exists());
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_tournament_and_a_gauntlet_on_slurm_play_the_local_games() {
    let Some(_cluster) = cluster() else { return };
    let root = tempfile::tempdir().unwrap();
    for gauntlet in [false, true] {
        let args = |out: &Path| {
            let mut args: Vec<String> = ["tournament", PLAYERS[0], PLAYERS[1], "random"]
                .map(String::from)
                .to_vec();
            args.extend(["--games-per-pair", "8", "--seed", "5", "--out"].map(String::from));
            args.push(out.display().to_string());
            if gauntlet {
                args.push("--gauntlet".to_string());
            }
            args
        };
        let local = root.path().join(format!("local-{gauntlet}"));
        let spread = root.path().join(format!("slurm-{gauntlet}"));
        let said = here_then_on_slurm(&args, &local, &spread);
        assert!(said.contains("merged 2 shards"), "{said}");
        let mut here = games(&local.join("games.csv"));
        here.sort_by_key(|g| g[0].parse::<u64>().unwrap());
        assert_eq!(
            games(&spread.join("games.csv")),
            here,
            "gauntlet {gauntlet}"
        );
        assert_eq!(here.len(), if gauntlet { 16 } else { 24 });
    }
}

/// A record file begun here is not taken for a finished run on Slurm, and a PGN file that is
/// not one is refused before anything is submitted.
#[test]
fn slurm_runs_refuse_what_is_not_theirs_before_they_submit() {
    let dir = tempfile::tempdir().unwrap();
    let status = yolah()
        .current_dir(dir.path())
        .args(match_args(8, Path::new("whole.csv")))
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(dir.path().join("whole.csv")).unwrap();
    let mut rows: Vec<&str> = text.lines().skip(1).collect();
    rows.sort_by_key(|r| r.split(',').next().unwrap().parse::<u64>().unwrap());
    let header = text.lines().next().unwrap();
    std::fs::write(
        dir.path().join("m.csv"),
        format!("{header}\n{}\n{}\n", rows[0], rows[1]),
    )
    .unwrap();
    let output = yolah()
        .current_dir(dir.path())
        .args(match_args(8, Path::new("m.csv")))
        .args(["--slurm", "--resume"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("holds 2 of the match's 8 games, played here rather than on Slurm"),
        "{said}"
    );

    std::fs::write(dir.path().join("g.pgn"), "not a PGN file\n").unwrap();
    let output = yolah()
        .current_dir(dir.path())
        .args(match_args(8, Path::new("new.csv")))
        .args(["--slurm", "--pgn", "g.pgn"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains("g.pgn"), "{said}");
    assert!(!dir.path().join("new.csv.tasks").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("g.pgn")).unwrap(),
        "not a PGN file\n"
    );
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn odd_paths_reach_the_tasks_and_a_refused_submission_leaves_nothing() {
    let Some(_cluster) = cluster() else { return };
    let root = tempfile::tempdir().unwrap();
    // A folder with '%' (sbatch's patterns) and a record file that begins with '-'.
    let dir = root.path().join("p%j 'q'");
    std::fs::create_dir(&dir).unwrap();
    let mut args = match_args(8, Path::new("-x.csv"));
    args.truncate(args.len() - 2);
    args.push("--out=-x.csv".to_string());
    let output = yolah()
        .current_dir(&dir)
        .args(args)
        .args(["--slurm", "--tasks", "2"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games(&dir.join("-x.csv")), games(&local(&dir, 8, &[])));
    assert!(dir.join("-x.csv.tasks/logs/task-1.out").exists());

    // Slurm refuses the first array: nothing is left, and the corrected command runs.
    let output = yolah()
        .current_dir(&dir)
        .args(match_args(8, Path::new("o.csv")))
        .args(["--slurm", "--tasks", "2", "--partition", "nosuchpartition"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains("sbatch failed"), "{said}");
    assert!(!dir.join("o.csv.tasks").exists());
    assert!(!dir.join("o.csv").exists());

    // A program that never starts stops the run at its first game, as here.
    let output = yolah()
        .current_dir(&dir)
        .args(["match", "engine:depth=1,cmd=/nonexistent/prog", PLAYERS[1]])
        .args(["--games", "40", "--out", "e.csv", "--slurm", "--tasks", "2"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains("never ran"), "{said}");
    queue_is_empty_of_named(&dir.join("e.csv.tasks"));
}

/// Nothing of the run whose folder is `tasks` is left in the queue.
fn queue_is_empty_of_named(tasks: &Path) {
    let state = std::fs::read_to_string(tasks.join("state.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&state).unwrap();
    let name = json["name"].as_str().unwrap().to_string();
    wait_for("the run's jobs to leave the queue", || {
        let out = Command::new("squeue")
            .args([
                "--noheader",
                "--me",
                &format!("--name={name}"),
                "--states=PD,R",
            ])
            .output()
            .unwrap();
        out.stdout.is_empty()
    });
}

#[test]
#[ignore = "needs a running Slurm (cargo xtask slurm up); .ci/run runs it"]
fn a_gauntlets_tests_on_slurm_stop_where_they_stop_here() {
    let Some(_cluster) = cluster() else { return };
    let root = tempfile::tempdir().unwrap();
    let args = |out: &Path| {
        let mut args: Vec<String> = ["tournament", "--gauntlet", PLAYERS[0], "random", PLAYERS[1]]
            .map(String::from)
            .to_vec();
        args.extend(
            [
                "--games-per-pair",
                "60",
                "--seed",
                "5",
                "--sprt",
                "elo0=0,elo1=150",
                "--out",
            ]
            .map(String::from),
        );
        args.push(out.display().to_string());
        args
    };
    let local = root.path().join("local");
    let spread = root.path().join("slurm");
    let said = here_then_on_slurm(&args, &local, &spread);
    assert!(said.contains("the gauntlet's tests counted"), "{said}");
    let here = games(&local.join("games.csv"));
    let mut there = games(&spread.join("games.csv"));
    there.sort_by_key(|g| g[0].parse::<u64>().unwrap());
    let mut here_sorted = here.clone();
    here_sorted.sort_by_key(|g| g[0].parse::<u64>().unwrap());
    assert_eq!(there, here_sorted);
    // The test against random decided early: fewer games than the schedule's 120.
    assert!(here.len() < 120, "{} games", here.len());
    // The joined run resumes as a finished gauntlet.
    let output = yolah()
        .args(["tournament", "--resume", "--out", spread.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("already finished"), "{said}");
}

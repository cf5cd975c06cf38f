//! `yolah tune --spsa` as a user drives it: its files, the tuned spec a
//! player takes, and its writer against the four enemies: kills at random points (each
//! resumed run ends where an uninterrupted one ends), a full disk, a second writer, foreign
//! files where its checkpoint should be.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random,
};

fn args(dir: &Path, iterations: u32) -> Vec<String> {
    [
        "tune",
        "--spsa",
        "minimax:nodes=300",
        "--params",
        "lmr_base,lmp_a,prune_free",
        "--iterations",
        &iterations.to_string(),
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]
    .map(str::to_string)
    .to_vec()
}

fn run(args: &[String]) -> std::process::Output {
    yolah(&args.iter().map(String::as_str).collect::<Vec<_>>(), "")
}

fn resume(dir: &Path) -> Vec<String> {
    ["tune", "--out", dir.to_str().unwrap(), "--resume"]
        .map(str::to_string)
        .to_vec()
}

/// What a finished run says: its checkpoint, path and tuned spec.
fn outcome(dir: &Path) -> [String; 3] {
    ["spsa.json", "spsa.csv", "tuned.txt"]
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default())
}

#[test]
fn an_spsa_run_writes_its_paths_and_a_spec_a_player_takes() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let output = run(&args(&dir, 12));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let tuned = text.lines().next().unwrap();
    assert!(tuned.starts_with("minimax:"), "{text}");
    for name in ["lmr_base=", "lmp_a=", "prune_free=", "nodes=300"] {
        assert!(tuned.contains(name), "{tuned}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("tuned.txt")).unwrap(),
        format!("{tuned}\n")
    );
    assert!(dir.join("spsa.png").exists());
    let csv = std::fs::read_to_string(dir.join("spsa.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "iteration,c_k,a_k,result,games,lmr_base,lmp_a,prune_free"
    );
    assert_eq!(lines.count(), 12);
    let output = yolah(&["think", tuned, "--json"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    // Extended by --resume --iterations, it goes on; anything else is refused in one line.
    let mut more = resume(&dir);
    more.extend(["--iterations".to_string(), "14".to_string()]);
    let output = run(&more);
    assert!(output.status.success(), "{}", stderr(&output));
    let csv = std::fs::read_to_string(dir.join("spsa.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 14);
    let mut bad = resume(&dir);
    bad.extend(["--pairs".to_string(), "2".to_string()]);
    assert_clean_error(&run(&bad), "only --iterations and --threads");
    assert_clean_error(&run(&args(&dir, 12)), "holds");
}

#[test]
fn bad_settings_are_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let out = dir.to_str().unwrap();
    for (extra, said) in [
        (
            vec!["--spsa", "mcts:iterations=100"],
            "mcts has no tunable constants",
        ),
        (
            vec!["--spsa", "minimax", "--params", "nope"],
            "not a tunable constant",
        ),
        (
            vec!["--spsa", "minimax", "--iterations", "0"],
            "--iterations must be",
        ),
        (
            vec!["--spsa", "minimax", "--pairs", "1001"],
            "--pairs must be",
        ),
        (
            vec!["--spsa", "minimax", "--spsa-a", "-1"],
            "--spsa-a must be",
        ),
        (
            vec!["--spsa", "minimax:lmp_a=5", "--params", "lmp_a"],
            "which is tuned",
        ),
        (vec!["--spsa", "nosuch"], "--spsa 'nosuch'"),
        (
            vec!["--spsa", "minimax", "--generations", "3"],
            "cannot be used with",
        ),
        (vec!["--iterations", "3"], "are SPSA's"),
    ] {
        let mut line = vec!["tune", "--out", out];
        line.extend(extra);
        assert_clean_error(&yolah(&line, ""), said);
        assert!(!dir.exists(), "{line:?} left {}", dir.display());
    }
}

/// Killed at random points (a write included), each run resumed at once; the last ends where
/// an uninterrupted run ends, byte for byte.
#[test]
fn a_run_killed_anywhere_resumes_to_the_same_result() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    let output = run(&args(&straight, 40));
    assert!(output.status.success(), "{}", stderr(&output));
    let dir = root.path().join("killed");
    let first = args(&dir, 40);
    let kills = kill_at_random(
        12,
        59,
        Duration::from_millis(5)..Duration::from_millis(300),
        |k| {
            let started = dir.join("spsa.json").exists();
            let line = if k == 0 || !started {
                first.clone()
            } else {
                resume(&dir)
            };
            Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(line)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        },
        |_| {
            // Never half a file: each is whole, or not there yet.
            if dir.join("spsa.json").exists() {
                let text = std::fs::read_to_string(dir.join("spsa.json")).unwrap();
                assert!(
                    serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                    "{text}"
                );
            }
        },
    );
    eprintln!("{kills} kills");
    assert!(kills >= 6, "only {kills} of 12 runs were killed");
    if dir.join("spsa.json").exists() {
        let output = run(&resume(&dir));
        assert!(output.status.success(), "{}", stderr(&output));
    } else {
        // Every kill came before the run was made: it starts now.
        assert!(run(&first).status.success());
    }
    assert_eq!(outcome(&dir), outcome(&straight));
}

/// A full disk stops the run with one line; a finished iteration's checkpoint is left whole;
/// with room again, --resume ends where an uninterrupted run ends.
#[test]
fn a_full_disk_is_said_in_one_line_and_the_run_resumes() {
    let root = tempfile::tempdir().unwrap();
    let straight = root.path().join("straight");
    assert!(run(&args(&straight, 6)).status.success());
    let disk = SmallDisk::new(1 << 20);
    let dir = disk.path().join("run");
    assert!(run(&args(&dir, 3)).status.success());
    let kept = Untouched::take(&dir.join("spsa.json"));
    disk.fill();
    let mut more = resume(&dir);
    more.extend(["--iterations".to_string(), "6".to_string()]);
    let output = run(&more);
    assert!(!output.status.success(), "the run had room");
    let said = stderr(&output);
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
    assert_one_line(&errors.join("\n"));
    assert!(errors[0].contains("No space left on device"), "{said}");
    kept.assert();
    disk.free();
    let output = run(&more);
    assert!(output.status.success(), "{}", stderr(&output));
    // The straight run was started with 6 iterations, this one with 3 then extended: the
    // same games, but the gain's A is the started run's, so compare with a run made so.
    let other = root.path().join("extended");
    assert!(run(&args(&other, 3)).status.success());
    let mut extend = resume(&other);
    extend.extend(["--iterations".to_string(), "6".to_string()]);
    assert!(run(&extend).status.success());
    assert_eq!(outcome(&dir), outcome(&other));
}

/// A second writer on a running run is refused with one line; foreign files where the
/// checkpoint should be are refused and left as they are.
#[test]
fn a_second_writer_and_foreign_files_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(args(&dir, 400))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !dir.join("spsa.csv").exists() {
        assert!(
            start.elapsed() < Duration::from_mins(1),
            "no iteration written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = run(&resume(&dir));
    assert!(!output.status.success());
    assert_one_line(&stderr(&output));
    child.kill().unwrap();
    child.wait().unwrap();

    for (name, contents) in foreign_files() {
        let dir = root
            .path()
            .join(format!("foreign-{}", name.replace(' ', "-")));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("spsa.json"), &contents).unwrap();
        let kept = Untouched::take(&dir.join("spsa.json"));
        let output = run(&resume(&dir));
        assert!(!output.status.success(), "{name}");
        assert_one_line(&stderr(&output));
        kept.assert();
        // A new run there is refused too.
        assert!(!run(&args(&dir, 3)).status.success(), "{name}");
        kept.assert();
    }
}

/// A start killed while it wrote its first checkpoint (before the rename) leaves the run's
/// lock and the checkpoint's temporary (`.spsa.json.PID.N.tmp`): the same command starts the
/// run there and removes it. A folder with such a file but no lock is someone else's, refused
/// and left as it is.
#[test]
fn a_start_killed_before_its_first_checkpoint_starts_again() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join(".lock"), b"").unwrap();
    let leftover = dir.join(".spsa.json.4242.0.tmp");
    std::fs::write(&leftover, b"{\"config\": {\"ba").unwrap();
    let output = run(&args(&dir, 3));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!leftover.exists());
    let checkpoint: serde_json::Value = serde_json::from_str(&outcome(&dir)[0]).unwrap();
    assert_eq!(checkpoint["iteration"], 3);

    let foreign = root.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join(".spsa.json.4242.0.tmp"), b"mine").unwrap();
    let kept = Untouched::take(&foreign.join(".spsa.json.4242.0.tmp"));
    let output = run(&args(&foreign, 3));
    assert_clean_error(&output, "is not empty");
    kept.assert();
}

//! `yolah train` as a user runs it: self-play data in, a network, its log and plot out; the
//! network plays (`minimax:net=FILE`); `--resume` goes on after the last epoch the network
//! holds (a log row written before a kill is dropped and its epoch trained again); bad input
//! is refused before anything is written.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use std::path::Path;
use std::time::Duration;
use yolah_testkit::writers::{
    SmallDisk, Untouched, assert_one_line, foreign_files, kill_at_random,
};

fn make_data(dir: &Path, seed: &str) {
    let output = yolah(
        &[
            "selfplay",
            "minimax:nodes=300",
            "--games",
            "30",
            "--out",
            dir.to_str().unwrap(),
            "--seed",
            seed,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    yolah(&args, "")
}

fn log_rows(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.with_file_name("net.train.csv")).unwrap();
    text.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn trains_resumes_and_plays() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let out = root.path().join("nn").join("net.yolahnet");

    let output = train(&data, &out, &["--epochs", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stderr(&output).contains("dead"), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("1 epochs (1 this run"),
        "{}",
        stdout(&output)
    );
    assert_eq!(log_rows(&out).len(), 1);
    assert!(out.with_file_name("net.loss.png").exists());
    assert!(out.with_file_name("net.train.json").exists());

    // A second run into the same place is refused; --resume raises the epochs.
    assert_clean_error(&train(&data, &out, &["--epochs", "2"]), "add --resume");
    let output = train(&data, &out, &["--resume", "--epochs", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("2 epochs (1 this run"),
        "{}",
        stdout(&output)
    );
    let rows = log_rows(&out);
    assert_eq!(rows.len(), 2);
    assert!(rows[1].starts_with("2,"), "{rows:?}");

    // A kill after the log row and before the network: the row is dropped, the epoch redone.
    let csv = out.with_file_name("net.train.csv");
    let mut text = std::fs::read_to_string(&csv).unwrap();
    text.push_str("3,0.1,0.1,0.1,0.001,1.0\n");
    std::fs::write(&csv, text).unwrap();
    let output = train(&data, &out, &["--resume", "--epochs", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("3 epochs (1 this run"),
        "{}",
        stdout(&output)
    );
    assert_eq!(log_rows(&out).len(), 3);

    // The network plays.
    let spec = format!("minimax:depth=2,net={}", out.display());
    let output = yolah(&["think", &spec], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("depth 2/"), "{}", stdout(&output));

    // Resuming on other data is refused.
    let other = root.path().join("other");
    make_data(&other, "6");
    let more = train(&other, &out, &["--resume"]);
    assert_clean_error(&more, "the data differ from the run's");

    // Resumed runs are exact: 1 epoch, then 2 more, is 3 epochs at once, byte for byte (the
    // first epoch's learning rate does not depend on the total).
    let straight = root.path().join("straight").join("net.yolahnet");
    let output = train(&data, &straight, &["--epochs", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let stopped = root.path().join("stopped").join("net.yolahnet");
    for extra in [&["--epochs", "1"][..], &["--resume", "--epochs", "3"]] {
        let output = train(&data, &stopped, extra);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert!(
        std::fs::read(&straight).unwrap() == std::fs::read(&stopped).unwrap(),
        "a resumed run differs from an uninterrupted one"
    );

    // A damaged state is refused on resume, a damaged network wherever it is read.
    let state = out.with_file_name("net.state");
    let mut bytes = std::fs::read(&state).unwrap();
    bytes[1000] ^= 0xff;
    std::fs::write(&state, bytes).unwrap();
    assert_clean_error(&train(&data, &out, &["--resume"]), "damaged file");
    let mut bytes = std::fs::read(&out).unwrap();
    bytes[1000] ^= 0xff;
    std::fs::write(&out, bytes).unwrap();
    let spec = format!("minimax:net={}", out.display());
    assert_clean_error(&yolah(&["think", &spec], ""), "checksum mismatch");
}

/// A rate that kills every hidden unit of a fresh network without the features (whose
/// direct path would keep it alive) is told at each epoch, with what to do.
#[test]
fn a_network_killed_by_its_learning_rate_is_told() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let out = root.path().join("nn").join("net.yolahnet");
    let output = train(
        &data,
        &out,
        &[
            "--epochs",
            "2",
            "--features",
            "off",
            "--learning-rate",
            "1.0",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stderr(&output);
    let warnings: Vec<&str> = said
        .lines()
        .filter(|line| line.starts_with("warning: epoch"))
        .collect();
    assert!(!warnings.is_empty(), "{said}");
    for warning in warnings {
        assert!(warning.contains("hidden units are dead"), "{warning}");
        assert!(warning.contains("lower --learning-rate"), "{warning}");
    }
}

#[test]
fn bad_arguments_are_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let out = root.path().join("nn").join("net.yolahnet");
    for (extra, expected) in [
        (&["--epochs", "0"][..], "--epochs must be from 1 to 10000"),
        (
            &["--epochs", "10001"][..],
            "--epochs must be from 1 to 10000",
        ),
        (&["--target", "wins"][..], "unknown target 'wins'"),
        (&["--target", "blend=2"][..], "unknown target 'blend=2'"),
        (
            &["--resume", "--seed", "3"][..],
            "only --epochs, --data and --init (where they moved) may be given",
        ),
    ] {
        assert_clean_error(&train(&data, &out, extra), expected);
    }
    assert_clean_error(&train(&data, &out, &["--resume"]), "nothing to resume");
    // A resume that cannot start leaves the disk as it found it.
    let deep = root
        .path()
        .join("nx")
        .join("a")
        .join("b")
        .join("net.yolahnet");
    assert_clean_error(&train(&data, &deep, &["--resume"]), "nothing to resume");
    assert!(!root.path().join("nx").exists(), "no folders created");
    let missing = root.path().join("missing");
    assert_clean_error(&train(&missing, &out, &[]), "missing: No such file");
    assert_clean_error(
        &train(&data, root.path(), &[]),
        "is a directory; give the network file",
    );
    let junk = root.path().join("junk.bin");
    std::fs::write(&junk, b"not data at all, not data at all").unwrap();
    assert_clean_error(&train(&junk, &out, &[]), "YOLAHPOS");
    assert!(!out.exists());
    assert!(!out.with_file_name("net.train.json").exists());
}

/// Networks of any shape. A wider network with a third layer and output
/// buckets trains, is written in format version 2, keeps its shape over `--resume`, and plays;
/// a shape the inference does not run is refused before anything is written.
#[test]
fn networks_of_other_shapes_train_resume_and_play() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "6");
    let out = root.path().join("net.yolahnet");
    let shape = ["--hidden", "256,32,16", "--buckets", "2", "--epochs", "1"];
    let output = train(&data, &out, &shape);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(
        u16::from_le_bytes([bytes[8], bytes[9]]),
        2,
        "format version 2"
    );
    assert_eq!(u16::from_le_bytes([bytes[12], bytes[13]]), 256);
    assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), 2, "two buckets");
    let output = train(&data, &out, &["--resume", "--epochs", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let resumed = std::fs::read(&out).unwrap();
    assert_eq!(resumed.len(), bytes.len(), "the same shape after --resume");
    let spec = format!("minimax:depth=3,net={}", out.display());
    let output = yolah(&["think", &spec], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("depth 3/3"), "{}", stdout(&output));

    let refused = root.path().join("refused.yolahnet");
    for (flags, why) in [
        (&["--hidden", "100"][..], "multiples of 16"),
        (
            &["--hidden", "256,32", "--buckets", "9"][..],
            "9 output buckets",
        ),
        (&["--hidden", "big"][..], "expected H[,L2[,L3]]"),
    ] {
        let output = train(&data, &refused, flags);
        assert!(!output.status.success(), "{flags:?}");
        assert!(
            stderr(&output).contains(why),
            "{flags:?}: {}",
            stderr(&output)
        );
        assert!(!refused.exists() && !refused.with_file_name("refused.train.json").exists());
    }
    let output = train(&data, &out, &["--resume", "--hidden", "512"]);
    assert_clean_error(
        &output,
        "only --epochs, --data and --init (where they moved) may be given",
    );
}

/// `--resume` needs only `--out`, as learn, tournament and selfplay do: the run
/// keeps where its data are (absolute, so another working directory resumes it too) and
/// checks that they are the same; the resumed run ends byte for byte where an uninterrupted
/// one does.
#[test]
fn resumes_from_its_output_alone() {
    let root = tempfile::tempdir().unwrap();
    make_data(&root.path().join("data"), "5");
    let in_root = |args: &[&str], dir: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_yolah"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    };
    // Started with a relative --data from the root.
    let output = in_root(
        &[
            "train",
            "--data",
            "data",
            "--out",
            "run/net.yolahnet",
            "--epochs",
            "1",
        ],
        root.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // Resumed from elsewhere, with its output alone.
    let out = root.path().join("run").join("net.yolahnet");
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let resume = [
        "train",
        "--out",
        out.to_str().unwrap(),
        "--resume",
        "--epochs",
        "2",
    ];
    let output = in_root(&resume, &elsewhere);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("2 epochs (1 this run"),
        "{}",
        stdout(&output)
    );
    let straight = root.path().join("straight").join("net.yolahnet");
    let output = train(&root.path().join("data"), &straight, &["--epochs", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read(&straight).unwrap() == std::fs::read(&out).unwrap());
    // Data changed since are refused.
    make_data(&root.path().join("data2"), "6");
    std::fs::rename(root.path().join("data"), root.path().join("old")).unwrap();
    std::fs::rename(root.path().join("data2"), root.path().join("data")).unwrap();
    assert_clean_error(
        &in_root(&resume, &elsewhere),
        "the data differ from the run's",
    );
}

// The trainer's writer (`--out FILE` and the files beside it) against the four enemies of
// every writer (`yolah_testkit::writers`): a kill at any write, a full disk, a second
// writer, a foreign file where ours is expected.

/// The epochs a network file says it was trained (0 if there is none).
fn epochs_of(network: &Path) -> u32 {
    std::fs::read(network).map_or(0, |bytes| {
        yolah_ai::eval::network::Parameters::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", network.display()));
        u32::from_le_bytes(bytes[24..28].try_into().unwrap())
    })
}

/// The last epoch a run's stderr said was done (`epoch N: …`, printed once its files are
/// written): what it acknowledged.
fn acknowledged(log: &Path) -> u32 {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("epoch ")?.split(':').next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// Killed (SIGKILL) again and again at random moments and resumed from its output alone each
/// time, a run keeps every epoch it said was done (the network's epochs never fall behind
/// what was acknowledged), and ends with the bytes of an uninterrupted run: no epoch lost or
/// trained twice.
#[test]
fn kills_at_random_lose_no_acknowledged_epoch() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let output = yolah(
        &[
            "selfplay",
            "minimax:nodes=300",
            "--games",
            "200",
            "--out",
            data.to_str().unwrap(),
            "--seed",
            "5",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let straight = root.path().join("straight").join("net.yolahnet");
    let output = train(&data, &straight, &["--epochs", "40"]);
    assert!(output.status.success(), "{}", stderr(&output));

    let out = root.path().join("killed").join("net.yolahnet");
    let o = out.to_str().unwrap();
    let d = data.to_str().unwrap();
    let start = ["train", "--data", d, "--out", o, "--epochs", "40"];
    let resume = ["train", "--out", o, "--resume"];
    let log = |k: usize| root.path().join(format!("life-{k}.log"));
    let mut kept = 0;
    let kills = kill_at_random(
        16,
        7,
        Duration::from_millis(10)..Duration::from_millis(150),
        |k| {
            let args: &[&str] = if out.with_file_name("net.train.json").exists() {
                &resume
            } else {
                &start
            };
            std::process::Command::new(env!("CARGO_BIN_EXE_yolah"))
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::fs::File::create(log(k)).unwrap())
                .spawn()
                .unwrap()
        },
        |k| {
            let said = acknowledged(&log(k));
            let epochs = epochs_of(&out);
            assert!(
                epochs >= said.max(kept),
                "life {k}: the network holds {epochs} epochs; {said} were said done, {kept} held before"
            );
            kept = epochs;
        },
    );
    assert!(kills >= 8, "only {kills} kills");
    // The last kill may have come before the first checkpoint: then the run starts again.
    let last: &[&str] = if out.with_file_name("net.train.json").exists() {
        &resume
    } else {
        &start
    };
    let output = yolah(last, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read(&straight).unwrap() == std::fs::read(&out).unwrap());
    let rows = log_rows(&out);
    let epochs: Vec<&str> = rows.iter().map(|r| r.split(',').next().unwrap()).collect();
    let expected: Vec<String> = (1..=40).map(|e| e.to_string()).collect();
    assert_eq!(epochs, expected, "each epoch once in the log");
    eprintln!("{kills} kills, the network never behind what was said, 40 epochs, exact");
}

/// On a full disk the run stops with one line saying so, what it wrote before is whole (the
/// network and the state of its last epoch, nothing half-written beside them), and with room
/// again `--resume` ends with the bytes of an uninterrupted run.
#[test]
fn a_full_disk_is_said_in_one_line_and_loses_no_epoch() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let straight = root.path().join("straight").join("net.yolahnet");
    let output = train(&data, &straight, &["--epochs", "4"]);
    assert!(output.status.success(), "{}", stderr(&output));

    let disk = SmallDisk::new(2 << 20);
    // Room for an epoch's files and a little more: the second epoch's state does not fit.
    disk.leave(700 * 1024);
    let out = disk.path().join("nn").join("net.yolahnet");
    let output = train(&data, &out, &["--epochs", "4"]);
    assert!(!output.status.success(), "the run had room");
    let said = stderr(&output);
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
    assert_one_line(&errors.join("\n"));
    assert!(errors[0].contains("No space left on device"), "{said}");
    let done = epochs_of(&out);
    assert!((1..4).contains(&done), "{done} epochs");
    let mut names: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".lock",
            "net.state",
            "net.train.csv",
            "net.train.json",
            "net.yolahnet"
        ],
        "nothing half-written is left"
    );
    disk.free();
    let output = yolah(&["train", "--out", out.to_str().unwrap(), "--resume"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::read(&straight).unwrap() == std::fs::read(&out).unwrap());
}

/// A second writer into a training run's files while it runs — a resume or a new run — is
/// refused with one line.
#[test]
fn a_second_writer_is_refused_with_one_line() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let out = root.path().join("nn").join("net.yolahnet");
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["train", "--data", d, "--out", o, "--epochs", "10000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !out.exists() {
        assert!(std::time::Instant::now() < deadline, "the run never wrote");
        std::thread::sleep(Duration::from_millis(10));
    }
    for args in [
        vec!["train", "--out", o, "--resume"],
        vec!["train", "--data", d, "--out", o, "--epochs", "2"],
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, "is in use by another run");
    }
    first.kill().unwrap();
    first.wait().unwrap();
}

/// A file that is not ours where the run's own is expected — the network, its state, its
/// log, its settings, its plot — is refused with one line and left byte for byte, by a new
/// run and by --resume alike.
#[test]
fn files_not_ours_are_refused_and_left_byte_for_byte() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "5");
    let ours = root.path().join("ours").join("net.yolahnet");
    let output = train(&data, &ours, &["--epochs", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let resume = [
        "train",
        "--out",
        ours.to_str().unwrap(),
        "--resume",
        "--epochs",
        "2",
    ];
    for (what, contents) in foreign_files() {
        // Beside a new run's network: nothing of a run there yet, only someone's file.
        for name in ["net.yolahnet", "net.state", "net.train.csv", "net.loss.png"] {
            let dir = root.path().join("new");
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, &contents).unwrap();
            let untouched = Untouched::take(&path);
            let output = train(&data, &dir.join("net.yolahnet"), &["--epochs", "1"]);
            assert_clean_error(&output, name);
            untouched.assert();
            std::fs::remove_dir_all(&dir).unwrap();
        }
        // In place of the run's own files.
        for name in [
            "net.yolahnet",
            "net.state",
            "net.train.csv",
            "net.train.json",
        ] {
            let path = ours.with_file_name(name);
            let kept = std::fs::read(&path).unwrap();
            std::fs::write(&path, &contents).unwrap();
            let untouched: Vec<Untouched> = [
                "net.yolahnet",
                "net.state",
                "net.train.csv",
                "net.train.json",
            ]
            .iter()
            .map(|n| Untouched::take(&ours.with_file_name(n)))
            .collect();
            let output = yolah(&resume, "");
            assert!(!output.status.success(), "{what} as {name} taken");
            assert_one_line(&stderr(&output));
            assert!(
                stderr(&output).contains(name),
                "{what} as {name}: {}",
                stderr(&output)
            );
            for u in &untouched {
                u.assert();
            }
            std::fs::write(&path, kept).unwrap();
        }
    }
}

/// The parameters of a network file (format version 2: `f32`s from byte 64 to the CRC).
fn parameters_of(network: &Path) -> Vec<f32> {
    let bytes = std::fs::read(network).unwrap();
    bytes[64..bytes.len() - 4]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "the same shape");
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// `--init FILE|shipped`: a run starts from a network's weights (its shape is the run's),
/// keeps where it started, and a resume that must read the start again finds the same file;
/// `--learning-rate` sets the first rate, checked before anything is written.
#[test]
fn starts_from_a_network_when_asked() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "8");
    let parent = root.path().join("parent.yolahnet");
    let output = train(&data, &parent, &["--epochs", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // A tiny learning rate leaves the start nearly as it was; fresh weights are far from it.
    let child = root.path().join("child.yolahnet");
    let init = ["--epochs", "1", "--learning-rate", "0.000001", "--init"];
    let output = train(
        &data,
        &child,
        &[&init[..], &[parent.to_str().unwrap()]].concat(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let near = largest_difference(&parameters_of(&parent), &parameters_of(&child));
    let fresh = root.path().join("fresh.yolahnet");
    let output = train(&data, &fresh, &["--epochs", "1", "--seed", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let far = largest_difference(&parameters_of(&parent), &parameters_of(&fresh));
    assert!(
        near < 1e-3 && far > 0.05,
        "from the start {near}, fresh {far}"
    );
    let settings = std::fs::read_to_string(root.path().join("child.train.json")).unwrap();
    assert!(settings.contains("parent.yolahnet"), "{settings}");

    // The shipped network, its own shape (512 units) with no --hidden.
    let shipped = root.path().join("shipped.yolahnet");
    let output = train(&data, &shipped, &["--epochs", "1", "--init", "shipped"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&shipped).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[12], bytes[13]]), 512);

    // Refused before anything is written.
    let refused = root.path().join("refused.yolahnet");
    let junk = root.path().join("junk.yolahnet");
    std::fs::write(&junk, b"YOLAHNET but not a network").unwrap();
    let parent_text = parent.to_str().unwrap();
    for (flags, why) in [
        (
            &["--init", parent_text, "--hidden", "256,32"][..],
            "is a 193x128x16x1 network: --hidden, --buckets and --features, if given, must be its own",
        ),
        (&["--init", junk.to_str().unwrap()][..], "junk.yolahnet"),
        (
            &["--init", "nowhere.yolahnet"][..],
            "cannot read 'nowhere.yolahnet'",
        ),
        (
            &["--learning-rate", "0"][..],
            "--learning-rate must be from 0.000001 to 1, not 0",
        ),
        (
            &["--learning-rate", "2"][..],
            "--learning-rate must be from 0.000001 to 1, not 2",
        ),
    ] {
        assert_clean_error(&train(&data, &refused, flags), why);
        assert!(!refused.exists() && !refused.with_file_name("refused.train.json").exists());
    }
    assert_clean_error(
        &train(&data, &child, &["--resume", "--init", "shipped"]),
        "is not the network the run started from",
    );
    assert_clean_error(
        &train(&data, &fresh, &["--resume", "--init", "shipped"]),
        "started from fresh weights, not from a network",
    );
    // Only the flags given must be the network's own.
    let partial = root.path().join("partial.yolahnet");
    let output = train(
        &data,
        &partial,
        &[
            "--epochs",
            "1",
            "--init",
            "shipped",
            "--buckets",
            "1",
            "--features",
            "on",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
}

/// A resume that has lost both its state and its network reads its start network again: the
/// same file only, or the same network given again where it moved.
#[test]
fn a_resume_reads_its_start_again() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "8");
    let parent = root.path().join("parent.yolahnet");
    let fresh = root.path().join("fresh.yolahnet");
    for (out, seed) in [(&parent, "1"), (&fresh, "2")] {
        let output = train(&data, out, &["--epochs", "1", "--seed", seed]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    // A resume with neither state nor network reads the start again: the same file only.
    let start = root.path().join("start.yolahnet");
    std::fs::copy(&parent, &start).unwrap();
    let again = root.path().join("again.yolahnet");
    let output = train(
        &data,
        &again,
        &["--epochs", "1", "--init", start.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let once = std::fs::read(&again).unwrap();
    for file in ["again.yolahnet", "again.state"] {
        std::fs::remove_file(root.path().join(file)).unwrap();
    }
    let output = train(&data, &again, &["--resume"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read(&again).unwrap(), once, "the same start again");
    for file in ["again.yolahnet", "again.state"] {
        std::fs::remove_file(root.path().join(file)).unwrap();
    }
    std::fs::copy(&fresh, &start).unwrap();
    assert_clean_error(
        &train(&data, &again, &["--resume"]),
        "has changed since (its CRC-32 differs)",
    );
    // The start moved: given again, the same network is taken wherever it is now.
    let moved = root.path().join("moved.yolahnet");
    std::fs::copy(&parent, &moved).unwrap();
    let output = train(
        &data,
        &again,
        &["--resume", "--init", moved.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read(&again).unwrap(), once, "the same start again");
    let settings = std::fs::read_to_string(root.path().join("again.train.json")).unwrap();
    assert!(settings.contains("moved.yolahnet"), "{settings}");
}

/// The writers, attacked again: numbers and the start network are checked before
/// anything is read or written; a run refused for too little data leaves no settings behind;
/// a link planted where a file is written through is never followed.
#[test]
fn refusals_leave_nothing_and_links_are_not_followed() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    make_data(&data, "9");
    let out = root.path().join("t").join("net.yolahnet");
    for flags in [
        &["--learning-rate", "0"][..],
        &["--init", "/nonexistent.yolahnet"],
    ] {
        assert!(!train(&data, &out, flags).status.success());
        assert!(!root.path().join("t").exists(), "{flags:?} made the folder");
    }
    // Too little data: refused, and the same command later finds no run in the way.
    let one = root.path().join("one");
    let output = yolah(
        &[
            "selfplay",
            "minimax:nodes=50",
            "--games",
            "1",
            "--out",
            one.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let small = root.path().join("small").join("net.yolahnet");
    assert_clean_error(&train(&one, &small, &["--epochs", "1"]), "too little data");
    assert!(!small.with_file_name("net.train.json").exists());
    assert_clean_error(&train(&one, &small, &["--epochs", "1"]), "too little data");
    // A link where the state's temporary file goes is replaced, not written through.
    let victim = root.path().join("victim.txt");
    std::fs::write(&victim, "mine").unwrap();
    let dir = root.path().join("linked");
    std::fs::create_dir(&dir).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("net.state.tmp")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("net.train.tmp")).unwrap();
    let output = train(&data, &dir.join("net.yolahnet"), &["--epochs", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
    assert!(!dir.join("net.state").is_symlink());
}

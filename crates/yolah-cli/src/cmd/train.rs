//! `yolah train`: the network trained on self-play data. `--out FILE` is the network, written
//! after every epoch; beside it `STEM.train.json` (the run's settings), `STEM.train.csv` (one
//! row per epoch), `STEM.state` (the trainer's whole state: the network and the optimiser's
//! moments) and `STEM.loss.png` (the curves). `--resume` goes on after the last epoch the
//! state holds, exactly as an uninterrupted run would, from `--out` alone: the settings file
//! keeps where the data are (absolute paths) and their fingerprints, checked again.

use super::{UsageError, plot, usage, write_atomic, write_bytes};
use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use yolah_ai::arena::lock::DirLock;
use yolah_ai::data;
use yolah_ai::eval::network::{self, Parameters, Shape};
use yolah_train::train::{Dataset, Settings, Target, Trainer, initial_parameters};

/// The options of `yolah train`, as its command line gives them.
#[derive(clap::Args)]
pub struct Options {
    /// A self-play directory (or its data.bin); repeat to train on several (with --resume:
    /// by default the run's own, which STEM.train.json keeps).
    #[arg(long, short, value_name = "DIR", required_unless_present = "resume")]
    pub data: Vec<PathBuf>,
    /// The network file to write, like runs/nn/network.yolahnet; STEM.train.json,
    /// STEM.train.csv and STEM.loss.png go beside it.
    #[arg(long, short, value_name = "FILE")]
    pub out: PathBuf,
    /// Epochs, 1 to 10000 (with --resume: raises the total) [default: 30].
    #[arg(long, short, value_name = "N")]
    pub epochs: Option<u32>,
    /// Seed of the initial weights, the validation split and the shuffles [default: 1].
    #[arg(long, short, value_name = "SEED")]
    pub seed: Option<u64>,
    /// What to learn: score (the search's), margin (the game's), result, or blend=λ
    /// (λ × score + (1 − λ) × result) [default: score].
    #[arg(long, value_name = "TARGET", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<yolah_train::train::Target>()))]
    pub target: Option<yolah_train::train::Target>,
    /// The network's layers behind its inputs: first-layer units (a multiple of 16 up to
    /// 2048), then one or two smaller layers, like 256,32 or 1024,64,32 [default: 128,16].
    #[arg(long, value_name = "H[,L2[,L3]]", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<Shape>()))]
    pub hidden: Option<Shape>,
    /// Output buckets, 1 to 8: the layers behind the first, one set for each slice of the
    /// game (by free squares) [default: 1].
    #[arg(long, value_name = "N")]
    pub buckets: Option<usize>,
    /// Whether the heuristic's 22 features feed the network, on or off [default: on].
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    pub features: Option<String>,
    /// Whether positions with an exact value (`selfplay --exact-free`) learn it instead of
    /// their search's score and game's result, on or off [default: on].
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    pub exact: Option<String>,
    /// The network to start from, a network file or `shipped` (the one in the program),
    /// instead of fresh weights: its shape is the run's, so --hidden, --buckets and
    /// --features, if given, must be its own [default: fresh weights]. With --resume: the
    /// same network where it is now, if it moved.
    #[arg(long, value_name = "FILE|shipped")]
    pub init: Option<String>,
    /// `AdamW`'s learning rate at the first epoch, falling geometrically to a tenth of it at
    /// the last, from 0.000001 to 1 [default: 0.002].
    #[arg(long, value_name = "RATE")]
    pub learning_rate: Option<f64>,
    /// Go on after the last epoch the network file holds.
    #[arg(long)]
    pub resume: bool,
}

impl Options {
    /// The network's shape the flags ask for (the first layers from --hidden, the buckets,
    /// the features), checked.
    fn shape(&self) -> Result<Shape> {
        let shape = Shape {
            buckets: self.buckets.unwrap_or(1),
            features: self.features.as_deref() != Some("off"),
            ..self.hidden.unwrap_or(Shape::V1)
        };
        shape
            .check()
            .map_err(|e| UsageError(format!("--hidden/--buckets: {e}")))?;
        Ok(shape)
    }
}

/// The most epochs a run may ask for.
pub const MAX_EPOCHS: u32 = 10_000;
/// The largest trainer state file read: a network of the largest size and two moments per
/// parameter.
pub const MAX_STATE_SIZE: u64 = 3 * network::parameters::MAX_FILE_SIZE + 64;
/// Positions per step.
pub const BATCH: usize = 1024;
/// `AdamW`'s first learning rate.
pub const LEARNING_RATE: f64 = 2e-3;

/// The most positions a run trains on: each takes about 100 bytes in memory.
pub const MAX_POSITIONS: usize = 50_000_000;
/// The part of the games set aside for validation.
pub const VALIDATION: f64 = 0.1;

/// What decides a run; stored in `STEM.train.json` and checked on `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Run {
    /// The data files, absolute (runs of older builds: as given).
    data: Vec<PathBuf>,
    /// Each data file's fingerprint and position count.
    fingerprints: Vec<(u64, usize)>,
    target: Target,
    /// Whether exact values replace the labels they prove (absent in runs from before
    /// them, whose data had none).
    #[serde(default)]
    exact: bool,
    validation: f64,
    settings: Settings,
    /// The network's shape (absent in runs from before shapes: the version-1 shape).
    #[serde(default)]
    network: NetworkShape,
    /// The network the run started from (absent: fresh weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    init: Option<Init>,
}

/// The network a run started from: where (an absolute path, or `shipped`) and the CRC-32 its
/// file ends with (of every byte before it), checked when a resume must read it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Init {
    network: String,
    crc: u32,
}

/// The word `--init` takes for the network in the program.
const SHIPPED: &str = "shipped";

impl Init {
    /// The network `source` names (a file, or `shipped`), read and checked, and how the run
    /// keeps it.
    fn read(source: &str) -> Result<(Init, Parameters)> {
        let (network, bytes) = if source == SHIPPED {
            (SHIPPED.to_string(), network::SHIPPED.to_vec())
        } else {
            let path = std::path::absolute(source)
                .with_context(|| format!("--init '{source}': no such path"))?;
            let bytes = yolah_ai::files::read_bounded(&path, network::parameters::MAX_FILE_SIZE)
                .with_context(|| format!("--init: cannot read '{source}'"))?;
            (path.to_string_lossy().into_owned(), bytes)
        };
        let parameters = Parameters::from_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("--init '{source}': {e}"))?;
        // A network file ends with the CRC-32 of the rest (checked by `from_bytes`).
        let tail: [u8; 4] = bytes[bytes.len() - 4..].try_into().expect("four bytes");
        let init = Init {
            network,
            crc: u32::from_le_bytes(tail),
        };
        Ok((init, parameters))
    }

    /// The run's start again (for a resume with neither state nor network): the same file,
    /// unchanged.
    fn reread(&self) -> Result<Parameters> {
        let (again, parameters) = Init::read(&self.network)?;
        ensure!(
            again.crc == self.crc,
            "the network the run started from, {}, has changed since (its CRC-32 differs)",
            self.network
        );
        Ok(parameters)
    }
}

/// A [`Shape`] as the run's settings file keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct NetworkShape {
    hidden: usize,
    second: usize,
    third: usize,
    buckets: usize,
    features: bool,
}

impl Default for NetworkShape {
    fn default() -> NetworkShape {
        NetworkShape::from(Shape::V1)
    }
}

impl From<Shape> for NetworkShape {
    fn from(s: Shape) -> NetworkShape {
        NetworkShape {
            hidden: s.hidden,
            second: s.second,
            third: s.third,
            buckets: s.buckets,
            features: s.features,
        }
    }
}

impl NetworkShape {
    /// The shape, checked (a settings file is untrusted).
    fn shape(self) -> Result<Shape> {
        let shape = Shape {
            hidden: self.hidden,
            second: self.second,
            third: self.third,
            buckets: self.buckets,
            features: self.features,
        };
        shape.check().map_err(anyhow::Error::msg)?;
        Ok(shape)
    }
}

/// One row of the log.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Row {
    epoch: u32,
    train_loss: f32,
    validation_loss: f32,
    validation_result_loss: f32,
    learning_rate: f64,
    seconds: f64,
}

fn sibling(out: &Path, suffix: &str) -> PathBuf {
    let stem = out.file_stem().map_or_else(
        || "network".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    out.with_file_name(format!("{stem}.{suffix}"))
}

/// A data directory's `data.bin`, or the file itself.
fn data_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("data.bin")
    } else {
        path.to_path_buf()
    }
}

pub fn run(out: &mut impl Write, options: &Options) -> Result<()> {
    usage!(
        !options.data.is_empty() || options.resume,
        "missing --data DIR (a self-play directory; give several to train on all)"
    );
    let epochs = options.epochs.unwrap_or(30);
    usage!(
        (1..=MAX_EPOCHS).contains(&epochs),
        "--epochs must be from 1 to {MAX_EPOCHS}, not {epochs}"
    );
    let dir = match options.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    ensure!(
        !options.out.is_dir(),
        "--out '{}' is a directory; give the network file to write, like {}/network.yolahnet",
        options.out.display(),
        options.out.display()
    );
    let json_path = sibling(&options.out, "train.json");
    let csv_path = sibling(&options.out, "train.csv");
    let png_path = sibling(&options.out, "loss.png");
    let begin = begin(options, &json_path)?;
    let stored = match &begin {
        Begin::Resume(run) => Some(run),
        Begin::New(..) => None,
    };
    let files = data_of(options, stored, &json_path)?;
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("'{}': cannot create the directory", dir.display()))?;
    let _lock = DirLock::take(&dir)?;

    let fingerprints: Vec<(u64, usize)> = files
        .iter()
        .map(|f| (f.header.fingerprint, f.samples.len()))
        .collect();

    let new = stored.is_none();
    let (run, mut rows, trainer) = match begin {
        Begin::Resume(run) => resume(options, run, &fingerprints, &json_path, &csv_path)?,
        Begin::New(rate, init, parameters) => start(
            options,
            epochs,
            fingerprints,
            &json_path,
            (rate, init, &parameters),
        )?,
    };

    let dataset = Dataset::new(
        files.iter().flat_map(data::games),
        run.target,
        run.exact,
        run.validation,
        run.settings.seed,
    );
    drop(files);
    ensure!(
        !dataset.train.is_empty() && !dataset.validation.is_empty(),
        "too little data: {} training and {} validation positions",
        dataset.train.len(),
        dataset.validation.len()
    );
    // A new run's settings are written once its data are known to be enough: a run refused
    // for too little data leaves nothing that a second try would take for a run.
    if new {
        write_atomic(&json_path, &serde_json::to_string_pretty(&run)?)?;
    }
    writeln!(
        out,
        "training on {} positions ({} repeated positions merged), validating on {} (whole games set aside), target {}",
        dataset.train.len(),
        dataset.merged,
        dataset.validation.len(),
        run.target
    )?;
    let first = rows.len() as u32;
    let started = Instant::now();
    train_epochs(&dataset, &run, trainer, &mut rows, &options.out, &csv_path)?;
    draw(&png_path, &rows)?;
    let mut summary = format!(
        "{} epochs ({} this run, {:.1} s) into {}",
        rows.len(),
        rows.len() as u32 - first,
        started.elapsed().as_secs_f64(),
        options.out.display()
    );
    if let Some(last) = rows.last() {
        let _ = write!(
            summary,
            "; validation loss {:.5}, against results {:.5}; log {}, plot {}",
            last.validation_loss,
            last.validation_result_loss,
            csv_path.display(),
            png_path.display()
        );
    }
    writeln!(out, "{summary}")?;
    Ok(())
}

/// The run in `--out`'s settings file, the log of its finished epochs and the network they
/// left.
fn resume(
    options: &Options,
    mut run: Run,
    fingerprints: &[(u64, usize)],
    json_path: &Path,
    csv_path: &Path,
) -> Result<(Run, Vec<Row>, Trainer)> {
    ensure!(
        run.fingerprints == *fingerprints,
        "the data differ from the run's ({} was trained on other data or other amounts of it)",
        json_path.display()
    );
    // Data given again (moved, say) are where later resumes look.
    let given = absolute(&options.data)?;
    if !given.is_empty() && given != run.data {
        run.data = given;
        write_atomic(json_path, &serde_json::to_string_pretty(&run)?)?;
    }
    // So is the start network given again: the same network, wherever it is now.
    if let Some(source) = &options.init {
        let Some(stored) = &run.init else {
            return Err(UsageError(format!(
                "--init: {} started from fresh weights, not from a network",
                json_path.display()
            ))
            .into());
        };
        let (again, _) = Init::read(source)?;
        ensure!(
            again.crc == stored.crc,
            "--init '{source}' is not the network the run started from (its CRC-32 differs)"
        );
        if again.network != stored.network {
            run.init = Some(again);
            write_atomic(json_path, &serde_json::to_string_pretty(&run)?)?;
        }
    }
    let state_path = sibling(&options.out, "state");
    // The network the run writes over, if there, must be one (the run's last).
    match yolah_ai::files::read_bounded(&options.out, network::parameters::MAX_FILE_SIZE) {
        Ok(bytes) => {
            Parameters::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", options.out.display()))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => bail!("cannot read {}: {e}", options.out.display()),
    }
    let (trainer, done) = match yolah_ai::files::read_bounded(&state_path, MAX_STATE_SIZE) {
        Ok(bytes) => Trainer::from_state(&bytes, run.settings.clone())
            .map_err(|e| anyhow::anyhow!("{}: {e}", state_path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A run from before the state file: its network, with fresh moments.
            match yolah_ai::files::read_bounded(&options.out, network::parameters::MAX_FILE_SIZE) {
                Ok(bytes) => {
                    let parameters = Parameters::from_bytes(&bytes)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", options.out.display()))?;
                    (
                        Trainer::new(&parameters, run.settings.clone()),
                        network::epochs_of(&bytes),
                    )
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let parameters = match &run.init {
                        Some(init) => init.reread()?,
                        None => initial_parameters(run.network.shape()?, run.settings.seed),
                    };
                    (Trainer::new(&parameters, run.settings.clone()), 0)
                }
                Err(e) => bail!("cannot read {}: {e}", options.out.display()),
            }
        }
        Err(e) => bail!("cannot read {}: {e}", state_path.display()),
    };
    let mut rows = read_rows(csv_path)?;
    rows.truncate(done as usize);
    ensure!(
        rows.len() == done as usize,
        "{} has {} epochs of log for {done} epochs trained",
        csv_path.display(),
        rows.len()
    );
    if let Some(epochs) = options.epochs {
        usage!(
            epochs >= done,
            "--epochs {epochs} is fewer than the {done} epochs already trained"
        );
        run.settings.epochs = epochs;
        write_atomic(json_path, &serde_json::to_string_pretty(&run)?)?;
    }
    let mut trainer = trainer;
    trainer.set_settings(run.settings.clone());
    Ok((run, rows, trainer))
}

/// The data, read and checked before anything is written: those given, else the resumed
/// run's (`stored`, from `json_path`).
fn data_of(
    options: &Options,
    stored: Option<&Run>,
    json_path: &Path,
) -> Result<Vec<data::DataFile>> {
    match stored {
        Some(run) if options.data.is_empty() => read_data(&run.data).with_context(|| {
            format!(
                "the run's data (as {} keeps them; give --data if they moved)",
                json_path.display()
            )
        }),
        _ => read_data(&options.data),
    }
}

/// The run's settings file.
fn read_run(json_path: &Path) -> Result<Run> {
    let text = yolah_ai::files::read_text_bounded(json_path, yolah_ai::files::MAX_SETTINGS)
        .with_context(|| format!("nothing to resume: cannot read {}", json_path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a training run", json_path.display()))
}

/// The data paths made absolute, so that a resume from another directory finds them.
fn absolute(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    paths
        .iter()
        .map(|p| std::path::absolute(p).with_context(|| format!("'{}': no such path", p.display())))
        .collect()
}

/// How a run begins: going on with the run in `--out`, or afresh.
enum Begin {
    /// The run `--resume` goes on with, as its settings file has it.
    Resume(Run),
    /// A new run's first learning rate and network (and where that network came from).
    New(f64, Option<Init>, Parameters),
}

/// How the run begins, every option checked first, so that a run that cannot start reads no
/// data and writes nothing.
fn begin(options: &Options, json_path: &Path) -> Result<Begin> {
    if !options.resume {
        let rate = learning_rate(options)?;
        let (init, parameters) = initial_network(options, options.seed.unwrap_or(1))?;
        return Ok(Begin::New(rate, init, parameters));
    }
    usage!(
        options.target.is_none()
            && options.seed.is_none()
            && options.hidden.is_none()
            && options.buckets.is_none()
            && options.features.is_none()
            && options.exact.is_none()
            && options.learning_rate.is_none(),
        "--resume takes its settings from {}: only --epochs, --data and --init (where they moved) may be given",
        json_path.display()
    );
    // A resume that cannot start leaves the disk as it found it.
    ensure!(
        json_path.is_file(),
        "nothing to resume: {} does not exist",
        json_path.display()
    );
    read_run(json_path).map(Begin::Resume)
}

/// The first learning rate `--learning-rate` asks for, checked.
fn learning_rate(options: &Options) -> Result<f64> {
    let rate = options.learning_rate.unwrap_or(LEARNING_RATE);
    yolah_train::train::check_learning_rate(rate).map_err(UsageError)?;
    Ok(rate)
}

/// The network a new run starts from: `--init`'s, whose shape the shape flags given must
/// match, or fresh weights of the flags' shape.
fn initial_network(options: &Options, seed: u64) -> Result<(Option<Init>, Parameters)> {
    let Some(source) = &options.init else {
        return Ok((None, initial_parameters(options.shape()?, seed)));
    };
    let (init, parameters) = Init::read(source)?;
    let s = parameters.shape;
    let other_layers = options
        .hidden
        .is_some_and(|h| (h.hidden, h.second, h.third) != (s.hidden, s.second, s.third));
    let other_buckets = options.buckets.is_some_and(|b| b != s.buckets);
    let other_features = options
        .features
        .as_deref()
        .is_some_and(|f| (f != "off") != s.features);
    usage!(
        !(other_layers || other_buckets || other_features),
        "--init '{source}' is a {s} network: --hidden, --buckets and --features, if given, must be its own"
    );
    Ok((Some(init), parameters))
}

/// A new run's settings (written by the caller once its data are read and found enough).
fn start(
    options: &Options,
    epochs: u32,
    fingerprints: Vec<(u64, usize)>,
    json_path: &Path,
    (learning_rate, init, parameters): (f64, Option<Init>, &Parameters),
) -> Result<(Run, Vec<Row>, Trainer)> {
    ensure!(
        !json_path.exists(),
        "'{}' exists: a training run is there already; add --resume to go on with it, or choose another --out",
        json_path.display()
    );
    // Without a run there, a file where the run writes is someone else's: never overwritten.
    for path in [
        options.out.clone(),
        sibling(&options.out, "state"),
        sibling(&options.out, "train.csv"),
        sibling(&options.out, "loss.png"),
    ] {
        ensure!(
            !path.exists(),
            "'{}' exists and no training run is there ({} is missing): choose another --out",
            path.display(),
            json_path.display()
        );
    }
    let seed = options.seed.unwrap_or(1);
    let shape = parameters.shape;
    let run = Run {
        data: absolute(&options.data)?,
        fingerprints,
        target: options.target.unwrap_or(Target::Score),
        exact: options.exact.as_deref() != Some("off"),
        validation: VALIDATION,
        settings: Settings {
            batch: BATCH,
            learning_rate,
            epochs,
            seed,
        },
        network: NetworkShape::from(shape),
        init,
    };
    let trainer = Trainer::new(parameters, run.settings.clone());
    Ok((run, Vec::new(), trainer))
}

/// Trains the epochs after those in `rows`, appending to `rows`, writing the log and the
/// network after each.
fn train_epochs(
    dataset: &Dataset,
    run: &Run,
    mut trainer: Trainer,
    rows: &mut Vec<Row>,
    out: &Path,
    csv_path: &Path,
) -> Result<()> {
    let state_path = sibling(out, "state");
    let first = rows.len() as u32;
    let per_epoch = dataset.train.len() as u64;
    let bar = ProgressBar::new(u64::from(run.settings.epochs) * per_epoch).with_style(
        ProgressStyle::with_template("{bar:40} epoch {msg} {percent}%, {rate}, eta {eta}")
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} positions/s", state.per_sec());
                },
            ),
    );
    bar.set_position(u64::from(first) * per_epoch);
    for epoch in first..run.settings.epochs {
        let epoch_start = Instant::now();
        let learning_rate = trainer.learning_rate(epoch);
        let base = u64::from(epoch) * per_epoch;
        let train_loss = trainer.epoch(&dataset.train, epoch, |done, loss| {
            bar.set_position(base + done as u64);
            bar.set_message(format!(
                "{}/{}, loss {loss:.5},",
                epoch + 1,
                run.settings.epochs
            ));
        });
        let validation = trainer.validate(&dataset.validation);
        let (validation_loss, validation_result_loss) = (validation.loss, validation.result_loss);
        rows.push(Row {
            epoch: epoch + 1,
            train_loss,
            validation_loss,
            validation_result_loss,
            learning_rate,
            seconds: epoch_start.elapsed().as_secs_f64(),
        });
        // The log first, then the state, then the network: a kill before the state is
        // written redoes this epoch (the log is cut to the state's epochs on resume).
        write_rows(csv_path, rows)?;
        write_bytes(&state_path, &trainer.state(epoch + 1))?;
        write_bytes(out, &trainer.parameters().to_bytes(epoch + 1))?;
        bar.suspend(|| {
            eprintln!(
                "epoch {}: train {train_loss:.5}, validation {validation_loss:.5} (against results {validation_result_loss:.5}), {:.1} s",
                epoch + 1,
                epoch_start.elapsed().as_secs_f64()
            );
            if validation.dead() {
                eprintln!(
                    "warning: epoch {}: the network gives every position the same value (its outputs vary by {:.4} points): its hidden units are dead and will not learn again; train from fresh weights with a lower --learning-rate (the default {} left a fresh featureless network dead where 0.0005 learnt: docs/notebook.md, \"Wider, and without the features\")",
                    epoch + 1,
                    validation.spread,
                    LEARNING_RATE
                );
            }
        });
    }
    bar.finish_and_clear();
    Ok(())
}

/// Every data file, read and checked (a last game cut short by a kill is left out, with a
/// note).
fn read_data(paths: &[PathBuf]) -> Result<Vec<data::DataFile>> {
    // Sizes first: the files are read whole into memory.
    let mut bytes = 0;
    for path in paths {
        let path = data_file(path);
        bytes += std::fs::metadata(&path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
    }
    let positions = bytes / data::RECORD_SIZE as u64;
    ensure!(
        positions <= MAX_POSITIONS as u64,
        "the data hold about {positions} positions; a run trains on at most {MAX_POSITIONS} (about 100 bytes each in memory)"
    );
    let mut files = Vec::new();
    for path in paths {
        let path = data_file(path);
        let file = data::read_file(&path).map_err(anyhow::Error::msg)?;
        if let Some(damage) = &file.damaged {
            eprintln!("{}: {damage}; its whole games are used", path.display());
        }
        files.push(file);
    }
    Ok(files)
}

/// What a finished run of `yolah train` into `out` came to, from its own files: the positions
/// of each data file it trained on, in order, and its last validation loss.
pub fn outcome(out: &Path) -> Result<(Vec<usize>, f32)> {
    let json_path = sibling(out, "train.json");
    let text = yolah_ai::files::read_text_bounded(&json_path, yolah_ai::files::MAX_SETTINGS)
        .with_context(|| format!("cannot read {}", json_path.display()))?;
    let run: Run = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a training run", json_path.display()))?;
    let csv_path = sibling(out, "train.csv");
    let last = read_rows(&csv_path)?
        .last()
        .map(|r| r.validation_loss)
        .with_context(|| format!("{} has no epoch", csv_path.display()))?;
    Ok((run.fingerprints.iter().map(|&(_, n)| n).collect(), last))
}

fn read_rows(path: &Path) -> Result<Vec<Row>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    // A log of at most 10000 epochs: a few hundred KiB.
    let bytes = yolah_ai::files::read_bounded(path, 16 << 20)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    reader
        .deserialize()
        .collect::<Result<Vec<Row>, _>>()
        .with_context(|| format!("{} is not a training log", path.display()))
}

fn write_rows(path: &Path, rows: &[Row]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer.into_inner().context("writing the log")?;
    write_atomic(
        path,
        &String::from_utf8(bytes).expect("csv of numbers is UTF-8"),
    )
}

fn draw(path: &Path, rows: &[Row]) -> Result<()> {
    let series = |name, color, value: fn(&Row) -> f32| plot::Series {
        name,
        points: rows
            .iter()
            .map(|r| (f64::from(r.epoch), f64::from(value(r))))
            .collect(),
        color,
    };
    // Two panels: the curves of the target trained on, and the validation positions'
    // loss against the games' results, on scales of their own (the second is far larger).
    plot::lines(
        path,
        "Training loss by epoch",
        "epoch",
        &[
            plot::Panel {
                y_label: "mean squared error against the target",
                series: vec![
                    series("train", plotters::style::RGBColor(200, 40, 40), |r| {
                        r.train_loss
                    }),
                    series("validation", plotters::style::RGBColor(40, 80, 200), |r| {
                        r.validation_loss
                    }),
                ],
            },
            plot::Panel {
                y_label: "mean squared error against the results",
                series: vec![series(
                    "validation",
                    plotters::style::RGBColor(40, 150, 60),
                    |r| r.validation_result_loss,
                )],
            },
        ],
        true,
    )
}

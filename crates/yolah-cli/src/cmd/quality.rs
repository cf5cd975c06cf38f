//! `yolah data quality EXACT [--net FILE…] [--labels DATA…]`: how right a network's values
//! and other data's labels are, measured on the positions whose exact value the solver proved
//! (`selfplay --exact-free`). For each: how often the outcome it predicts (win, draw or loss
//! for the side to move: a value above half a point wins) is the exact one, and its mean
//! distance to the exact final margin, by phase.

use super::usage;
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use yolah_ai::data::{self, DataFile, Sample};
use yolah_ai::eval::network::Network;
use yolah_core::Position;

/// The most networks and label files one run compares.
pub const MAX_SOURCES: usize = 16;
/// The phases reported: free squares up to each bound.
const PHASES: [u32; 4] = [8, 16, 24, 32];

/// One source of values: a predicted final margin for the side to move, in points.
struct Source {
    name: String,
    predict: Box<dyn Fn(&Position) -> Option<f64>>,
}

/// Agreement with the exact values, overall and by phase.
#[derive(Clone, Copy, Default)]
struct Tally {
    positions: u64,
    agree: u64,
    error: f64,
}

impl Tally {
    fn add(&mut self, predicted: f64, exact: i8) {
        let outcome = |margin: f64| {
            if margin > 0.5 {
                1
            } else if margin < -0.5 {
                -1
            } else {
                0
            }
        };
        self.positions += 1;
        self.agree += u64::from(outcome(predicted) == exact.signum());
        self.error += (predicted - f64::from(exact)).abs();
    }

    fn text(&self) -> String {
        if self.positions == 0 {
            return format!("{:>16}", "–");
        }
        let n = self.positions as f64;
        format!(
            "{:>6.1} % {:>5.2} pt",
            100.0 * self.agree as f64 / n,
            self.error / n
        )
    }
}

/// A position as a map's key: its stones, holes, points and ply.
type Key = [u64; 4];

fn key(p: &Position) -> Key {
    use yolah_core::Color;
    [
        p.pieces(Color::Black).0,
        p.pieces(Color::White).0,
        p.holes().0,
        u64::from(p.score(Color::Black))
            | u64::from(p.score(Color::White)) << 8
            | u64::from(p.ply()) << 16,
    ]
}

fn read(path: &Path) -> Result<DataFile> {
    let path = if path.is_dir() {
        path.join("data.bin")
    } else {
        path.to_path_buf()
    };
    let file = data::read_file(&path).map_err(anyhow::Error::msg)?;
    if let Some(damage) = &file.damaged {
        eprintln!(
            "note: the last block of {} is damaged ({damage}); it is left out",
            path.display()
        );
    }
    Ok(file)
}

pub fn run(out: &mut impl Write, exact: &Path, nets: &[PathBuf], labels: &[PathBuf]) -> Result<()> {
    usage!(
        nets.len() + labels.len() <= MAX_SOURCES,
        "at most {MAX_SOURCES} networks and label files, not {}",
        nets.len() + labels.len()
    );
    let file = read(exact)?;
    let proved: Vec<&Sample> = file.samples.iter().filter(|s| s.exact).collect();
    usage!(
        !proved.is_empty(),
        "{}: no exact labels (write some with `yolah selfplay --exact-free N`)",
        exact.display()
    );
    let mut sources = vec![network_source(
        "shipped network".to_string(),
        Network::shipped(),
    )];
    for path in nets {
        let network = Network::load(path)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("network {}", path.display()))?;
        sources.push(network_source(path.display().to_string(), network.into()));
    }
    for path in labels {
        let other = read(path)?;
        let by_position: HashMap<Key, Sample> = other
            .samples
            .iter()
            .map(|s| (key(&s.position), *s))
            .collect();
        let scores = by_position.clone();
        sources.push(Source {
            name: format!("{}: search scores", path.display()),
            predict: Box::new(move |p| scores.get(&key(p)).map(|s| f64::from(s.score) / 100.0)),
        });
        sources.push(Source {
            name: format!("{}: game margins", path.display()),
            predict: Box::new(move |p| by_position.get(&key(p)).map(|s| f64::from(s.margin))),
        });
    }
    writeln!(
        out,
        "{} exact labels of {} positions in {}",
        proved.len(),
        file.samples.len(),
        exact.display()
    )?;
    write!(out, "{:<40} {:>16}", "values", "all")?;
    for (low, high) in phase_bounds() {
        write!(out, " {:>16}", format!("{low}–{high} free"))?;
    }
    writeln!(out)?;
    for source in &sources {
        let mut all = Tally::default();
        let mut phases = [Tally::default(); PHASES.len()];
        for sample in &proved {
            let Some(predicted) = (source.predict)(&sample.position) else {
                continue;
            };
            all.add(predicted, sample.margin);
            let free = 64 - sample.position.occupied().count();
            if let Some(i) = PHASES.iter().position(|&high| free < high) {
                phases[i].add(predicted, sample.margin);
            }
        }
        write!(out, "{:<40} {}", source.name, all.text())?;
        for phase in &phases {
            write!(out, " {}", phase.text())?;
        }
        writeln!(out, "  ({} positions)", all.positions)?;
    }
    writeln!(
        out,
        "(each: the share whose predicted outcome is the exact one, then the mean distance to \
         the exact final margin)"
    )?;
    Ok(())
}

fn phase_bounds() -> impl Iterator<Item = (u32, u32)> {
    PHASES.iter().scan(0, |low, &high| {
        let bounds = (*low, high - 1);
        *low = high;
        Some(bounds)
    })
}

fn network_source(name: String, network: std::sync::Arc<Network>) -> Source {
    Source {
        name,
        predict: Box::new(move |p| {
            let value = network.evaluate(&network.accumulator(p), p);
            Some(f64::from(value) / 100.0)
        }),
    }
}

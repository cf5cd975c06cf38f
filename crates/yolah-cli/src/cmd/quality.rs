//! `yolah data quality DATA [--net FILE…]`: how right networks' values and the data's own
//! labels (its search scores, its game margins) are, measured on the positions whose exact
//! value the solver proved (`selfplay --exact-free`). For each: how often the outcome it
//! predicts (win, draw or loss for the side to move: a value above half a point wins) is the
//! exact one, and its mean distance to the exact final margin, by phase.

use super::usage;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use yolah_ai::data::Sample;
use yolah_ai::eval::network::Network;

/// The most networks one run measures.
pub const MAX_NETWORKS: usize = 16;
/// The phases reported: free squares up to each bound.
const PHASES: [u32; 4] = [8, 16, 24, 32];

/// One source of values: a sample's predicted final margin for the side to move, in points.
struct Source {
    name: String,
    predict: Box<dyn Fn(&Sample) -> f64>,
}

/// Agreement with the exact values, overall and by phase.
#[derive(Clone, Copy, Default)]
struct Agreement {
    positions: u64,
    agree: u64,
    error: f64,
}

impl Agreement {
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

pub fn run(out: &mut impl Write, path: &Path, nets: &[PathBuf]) -> Result<()> {
    usage!(
        nets.len() <= MAX_NETWORKS,
        "at most {MAX_NETWORKS} networks, not {}",
        nets.len()
    );
    let (_, file) = super::data::read(path)?;
    let proved: Vec<(&Sample, i8)> = file
        .samples
        .iter()
        .filter_map(|s| s.exact.map(|exact| (s, exact)))
        .collect();
    // A file without them is a bad input file (exit 1), not a bad command line.
    anyhow::ensure!(
        !proved.is_empty(),
        "{}: no exact values (write some with `yolah selfplay --exact-free N`)",
        path.display()
    );
    let mut sources = vec![network_source(
        "shipped network".to_string(),
        Network::shipped(),
    )];
    for net in nets {
        let network = Network::load(net)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("network {}", net.display()))?;
        sources.push(network_source(net.display().to_string(), network.into()));
    }
    sources.push(Source {
        name: "the data's search scores".to_string(),
        predict: Box::new(|s| f64::from(s.score) / 100.0),
    });
    sources.push(Source {
        name: "the data's game margins".to_string(),
        predict: Box::new(|s| f64::from(s.margin)),
    });
    writeln!(
        out,
        "{} exact values of {} positions in {}",
        proved.len(),
        file.samples.len(),
        path.display()
    )?;
    write!(out, "{:<32} {:>16}", "values", "all")?;
    for (low, high) in phase_bounds() {
        write!(out, " {:>16}", format!("{low}–{high} free"))?;
    }
    writeln!(out)?;
    for source in &sources {
        let mut all = Agreement::default();
        let mut phases = [Agreement::default(); PHASES.len()];
        for &(sample, exact) in &proved {
            let predicted = (source.predict)(sample);
            all.add(predicted, exact);
            let free = 64 - sample.position.occupied().count();
            if let Some(i) = PHASES.iter().position(|&high| free < high) {
                phases[i].add(predicted, exact);
            }
        }
        write!(out, "{:<32} {}", source.name, all.text())?;
        for phase in &phases {
            write!(out, " {}", phase.text())?;
        }
        writeln!(out)?;
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
        predict: Box::new(move |s| {
            let value = network.evaluate(&network.accumulator(&s.position), &s.position);
            f64::from(value) / 100.0
        }),
    }
}

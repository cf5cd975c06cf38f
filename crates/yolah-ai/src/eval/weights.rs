//! Heuristic weights: how much each feature is worth, in the opening and in the end, and the
//! evaluation they give. Stored as a versioned JSON file; the tuned set ships inside the crate.

use super::features::{COUNT, Feature, Features};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;
use std::path::Path;
use yolah_core::{Color, Position};

/// Free squares at the start: phase 1 (all "early" weight).
pub const START_FREE: i32 = 56;

/// The file format's name and version, checked on reading.
pub const FORMAT: &str = "yolah-weights";
/// The current version of the weights file format.
pub const VERSION: u32 = 1;

/// The weights of the default evaluation: the tuned set (see the README for the run).
pub const DEFAULT_JSON: &str = include_str!("../../data/weights.json");

/// One weight per feature at each end of the game, in hundredths of a point of final margin
/// per unit of the feature; in between they are interpolated by the free squares left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// With all 56 free squares.
    pub early: [i32; COUNT],
    /// With no free square.
    pub late: [i32; COUNT],
}

/// The largest weight magnitude a file may hold (the evaluation's arithmetic stays in `i32`).
pub const MAX_WEIGHT: i32 = 10_000;

/// Why a weights file was refused.
#[derive(Debug)]
pub enum WeightsError {
    /// The file could not be read.
    Io(String, std::io::Error),
    /// Not JSON of the expected shape.
    Json(serde_json::Error),
    /// Another format or version.
    Format(String),
    /// A feature is missing, unknown, or has a value out of range.
    Feature(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(path, error) => write!(f, "cannot read weights '{path}': {error}"),
            WeightsError::Json(error) => write!(f, "bad weights file: {error}"),
            WeightsError::Format(what) | WeightsError::Feature(what) => {
                write!(f, "bad weights file: {what}")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// The file as stored.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    /// Feature name → [early, late].
    weights: BTreeMap<String, [i32; 2]>,
}

/// The largest weights file read: a few dozen numbers take a few KiB.
pub const MAX_FILE: u64 = 1 << 20;

impl Weights {
    /// The shipped, tuned weights.
    pub fn tuned() -> Weights {
        Weights::from_json(DEFAULT_JSON).expect("the shipped weights are valid")
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = crate::files::read_text_bounded(path, MAX_FILE)
            .map_err(|e| WeightsError::Io(path.display().to_string(), e))?;
        Weights::from_json(&text)
    }

    /// Parses and checks a weights file's text: the format and version, every feature once,
    /// nothing else, each weight within ±[`MAX_WEIGHT`].
    pub fn from_json(text: &str) -> Result<Weights, WeightsError> {
        let file: File = serde_json::from_str(text).map_err(WeightsError::Json)?;
        if file.format != FORMAT || file.version != VERSION {
            return Err(WeightsError::Format(format!(
                "format '{}' version {}, expected '{FORMAT}' version {VERSION}",
                file.format, file.version
            )));
        }
        let mut weights = Weights {
            early: [0; COUNT],
            late: [0; COUNT],
        };
        for feature in Feature::ALL {
            let [early, late] = *file.weights.get(feature.name()).ok_or_else(|| {
                WeightsError::Feature(format!("feature '{}' is missing", feature.name()))
            })?;
            for w in [early, late] {
                if w.abs() > MAX_WEIGHT {
                    return Err(WeightsError::Feature(format!(
                        "feature '{}' has weight {w}, beyond ±{MAX_WEIGHT}",
                        feature.name()
                    )));
                }
            }
            weights.early[feature as usize] = early;
            weights.late[feature as usize] = late;
        }
        if let Some(unknown) = file
            .weights
            .keys()
            .find(|name| !Feature::ALL.iter().any(|f| f.name() == name.as_str()))
        {
            return Err(WeightsError::Feature(format!(
                "unknown feature '{unknown}'; features: {}",
                Feature::ALL.map(Feature::name).join(", ")
            )));
        }
        Ok(weights)
    }

    /// The file's text (pretty JSON, one feature a line).
    pub fn to_json(&self) -> String {
        let mut text = format!(
            "{{\n  \"format\": \"{FORMAT}\",\n  \"version\": {VERSION},\n  \"weights\": {{\n"
        );
        for (i, feature) in Feature::ALL.iter().enumerate() {
            let comma = if i + 1 < COUNT { "," } else { "" };
            let _ = writeln!(
                text,
                "    \"{}\": [{}, {}]{comma}",
                feature.name(),
                self.early[i],
                self.late[i]
            );
        }
        text + "  }\n}\n"
    }

    /// The weights as one vector (early then late), for the genetic algorithm.
    pub fn genes(&self) -> [i32; 2 * COUNT] {
        let mut genes = [0; 2 * COUNT];
        genes[..COUNT].copy_from_slice(&self.early);
        genes[COUNT..].copy_from_slice(&self.late);
        genes
    }

    /// The weights from a vector of [`Weights::genes`], clamped to ±[`MAX_WEIGHT`].
    pub fn from_genes(genes: &[i32; 2 * COUNT]) -> Weights {
        let mut weights = Weights {
            early: [0; COUNT],
            late: [0; COUNT],
        };
        for i in 0..COUNT {
            weights.early[i] = genes[i].clamp(-MAX_WEIGHT, MAX_WEIGHT);
            weights.late[i] = genes[COUNT + i].clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
        weights
    }

    /// The value of features for black, in hundredths of a point of final margin.
    #[inline]
    pub fn value_for_black(&self, features: &Features) -> i32 {
        let free = features.free as i32;
        let mut early = 0;
        let mut late = 0;
        for i in 0..COUNT {
            early += self.early[i] * features.values[i];
            late += self.late[i] * features.values[i];
        }
        (early * free + late * (START_FREE - free)) / START_FREE
    }

    /// The heuristic value of `position` for the side to move (always inlined, as
    /// [`Features::of`] is).
    #[inline(always)]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let value = self.value_for_black(&Features::of(position));
        match position.side_to_move() {
            Color::Black => value,
            Color::White => -value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_round_trip() {
        let weights = Weights::tuned();
        assert_eq!(Weights::from_json(&weights.to_json()).unwrap(), weights);
        assert_eq!(Weights::from_genes(&weights.genes()), weights);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = Weights::tuned().to_json();
        let cases = [
            (
                good.replace("\"version\": 1", "\"version\": 2"),
                "version 2",
            ),
            (good.replace("yolah-weights", "other"), "format 'other'"),
            (
                good.replace("\"mobility\"", "\"mobilty\""),
                "'mobility' is missing",
            ),
            (
                good.replace("\"score\"", "\"bonus\": [1, 1],\n    \"score\""),
                "unknown feature 'bonus'",
            ),
            ("{".to_string(), "bad weights file"),
            ("[]".to_string(), "bad weights file"),
        ];
        for (text, expected) in cases {
            let error = Weights::from_json(&text).unwrap_err().to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        let mut big = Weights::tuned();
        big.late[0] = MAX_WEIGHT + 1;
        let error = Weights::from_json(&big.to_json()).unwrap_err().to_string();
        assert!(error.contains("beyond"), "{error}");
    }
}

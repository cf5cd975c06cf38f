//! The sizes of a network, as its file states them (format version 2): the first layer's
//! units, the layers behind it, the output buckets and whether the hand-made features feed
//! it. One code path runs every shape a file may hold; the reader refuses any other with
//! one line.

use super::inputs::{DENSE, INPUTS};
use std::fmt;
use std::str::FromStr;

/// The most first-layer units a network may have.
pub const MAX_HIDDEN: usize = 2048;
/// The most units of a later layer.
pub const MAX_LAYER: usize = 128;
/// The most output buckets.
pub const MAX_BUCKETS: usize = 8;

/// A network's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// First-layer units (the accumulator): a multiple of 16, 16 to [`MAX_HIDDEN`].
    pub hidden: usize,
    /// Units of the second layer, 1 to [`MAX_LAYER`].
    pub second: usize,
    /// Units of a third layer, 0 (none) to [`MAX_LAYER`].
    pub third: usize,
    /// Output buckets, 1 to [`MAX_BUCKETS`]: each has its own layers behind the first,
    /// chosen by how many squares are still free (the game's phase).
    pub buckets: usize,
    /// Whether the heuristic's features ([`DENSE`] dense inputs) feed the second layer and,
    /// directly, the output.
    pub features: bool,
}

impl Shape {
    /// The shape of every version-1 file (and of the network shipped until version 2).
    pub const V1: Shape = Shape {
        hidden: 128,
        second: 16,
        third: 0,
        buckets: 1,
        features: true,
    };

    /// The dense inputs: [`DENSE`] with the features, else none.
    pub fn dense(&self) -> usize {
        if self.features { DENSE } else { 0 }
    }

    /// The units of the last hidden layer (what the output weighs).
    pub fn last(&self) -> usize {
        if self.third > 0 {
            self.third
        } else {
            self.second
        }
    }

    /// Parameters behind the first layer, for one bucket.
    pub fn stack_parameters(&self) -> usize {
        let d = self.dense();
        let mut n = self.second * self.hidden + self.second * d + self.second;
        if self.third > 0 {
            n += self.third * self.second + self.third;
        }
        n + self.last() + d + 1
    }

    /// All parameters, in file order.
    pub fn parameters(&self) -> usize {
        INPUTS * self.hidden + self.hidden + self.buckets * self.stack_parameters()
    }

    /// Whether this code runs the shape; if not, why.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || !self.hidden.is_multiple_of(16) || self.hidden > MAX_HIDDEN {
            return Err(format!(
                "{} first-layer units; this yolah runs multiples of 16 up to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if !(1..=MAX_LAYER).contains(&self.second) || self.third > MAX_LAYER {
            return Err(format!(
                "layers of {} and {} units; this yolah runs 1 to {MAX_LAYER} (and 0 for no third)",
                self.second, self.third
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "{} output buckets; this yolah runs 1 to {MAX_BUCKETS}",
                self.buckets
            ));
        }
        Ok(())
    }

    /// The bucket of a position with `free` empty squares (0 to 56): equal slices of the
    /// game, the opening's first.
    #[inline]
    pub fn bucket(&self, free: u32) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        let from_end = (56u32.saturating_sub(free)) as usize;
        (from_end * self.buckets / 57).min(self.buckets - 1)
    }
}

impl fmt::Display for Shape {
    /// `193x256x32x1` (a third layer adds its size), then `, 4 buckets` and `, no features`
    /// where they apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{INPUTS}x{}x{}", self.hidden, self.second)?;
        if self.third > 0 {
            write!(f, "x{}", self.third)?;
        }
        f.write_str("x1")?;
        if self.buckets > 1 {
            write!(f, ", {} buckets", self.buckets)?;
        }
        if !self.features {
            f.write_str(", no features")?;
        }
        Ok(())
    }
}

impl FromStr for Shape {
    type Err = String;

    /// The layers as `yolah train --hidden` takes them: `H[,L2[,L3]]` (`256`, `512,32`,
    /// `1024,64,32`); one bucket, features on (change them after parsing).
    fn from_str(text: &str) -> Result<Shape, String> {
        let sizes: Vec<usize> = text
            .split(',')
            .map(|s| s.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                format!(
                    "hidden layers {}: expected H[,L2[,L3]], whole numbers like 256,32",
                    yolah_core::text::quote(text)
                )
            })?;
        let shape = match sizes.as_slice() {
            [hidden] => Shape {
                hidden: *hidden,
                ..Shape::V1
            },
            [hidden, second] => Shape {
                hidden: *hidden,
                second: *second,
                ..Shape::V1
            },
            [hidden, second, third] => Shape {
                hidden: *hidden,
                second: *second,
                third: *third,
                ..Shape::V1
            },
            _ => {
                return Err(format!(
                    "hidden layers {}: one to three sizes, like 256 or 512,32 or 1024,64,32",
                    yolah_core::text::quote(text)
                ));
            }
        };
        if shape.third == 0 && sizes.len() == 3 {
            return Err("a third layer has at least 1 unit".to_string());
        }
        shape.check()?;
        Ok(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_count_and_bucket() {
        assert_eq!("128".parse::<Shape>().unwrap(), Shape::V1);
        assert_eq!(Shape::V1.parameters(), 27_287);
        let deep: Shape = "1024,64,32".parse().unwrap();
        assert_eq!(deep.to_string(), "193x1024x64x32x1");
        for bad in [
            "", "100", "0", "4096", "256,0", "256,16,0", "256,200", "1,2,3,4", "x",
        ] {
            assert!(bad.parse::<Shape>().is_err(), "{bad}");
        }
        let four = Shape {
            buckets: 4,
            ..Shape::V1
        };
        assert_eq!(four.bucket(56), 0, "the start");
        assert_eq!(four.bucket(0), 3, "the end");
        let buckets: Vec<usize> = (0..=56).rev().map(|f| four.bucket(f)).collect();
        assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{buckets:?}");
        assert_eq!(Shape::V1.bucket(30), 0);
    }
}

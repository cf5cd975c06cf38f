//! A part of a run's games, so that the work can be split over machines (`--shard K/N`) and
//! joined again: self-play data and tournaments.

use serde::{Deserialize, Serialize};

/// Part `index` (1-based) of `count`: the games whose number is `index − 1` modulo `count`.
/// Disjoint parts that together are the whole run, whatever order they run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 1 to `count`.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || {
            format!(
                "--shard {}: expected K/N with 1 ≤ K ≤ N ≤ 10000, like 2/8",
                yolah_core::text::quote(text)
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let (index, count) = (
            k.parse::<u64>().map_err(|_| usage())?,
            n.parse::<u64>().map_err(|_| usage())?,
        );
        if !(1..=count).contains(&index) || count > 10_000 {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether game `number` belongs to this part.
    pub fn contains(self, number: u64) -> bool {
        number % self.count == self.index - 1
    }
}

//! A part of a run's games, so that the work can be split over machines (`--shard K/N`) and
//! joined again: self-play data and tournaments.

use serde::{Deserialize, Serialize};

/// The most parts a run may be split into.
pub const MAX_SHARDS: u64 = 10_000;

/// Part `index` (1-based) of `count`: the games whose number is `index − 1` modulo `count`.
/// Disjoint parts that together are the whole run, whatever order they run in. Read from a
/// file, it is checked as on the command line (1 ≤ K ≤ N ≤ [`MAX_SHARDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Unchecked")]
pub struct Shard {
    /// K, from 1 to `count`.
    pub index: u64,
    /// N.
    pub count: u64,
}

/// A shard as a file holds it, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unchecked {
    index: u64,
    count: u64,
}

impl TryFrom<Unchecked> for Shard {
    type Error = String;

    fn try_from(shard: Unchecked) -> Result<Shard, String> {
        Shard::new(shard.index, shard.count)
    }
}

impl Shard {
    /// Part `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if (1..=count).contains(&index) && count <= MAX_SHARDS {
            Ok(Shard { index, count })
        } else {
            Err(format!(
                "shard {index}/{count}: a shard is K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}"
            ))
        }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || {
            format!(
                "--shard {}: expected K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}, like 2/8",
                yolah_core::text::quote(text)
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let (index, count) = (
            k.parse::<u64>().map_err(|_| usage())?,
            n.parse::<u64>().map_err(|_| usage())?,
        );
        Shard::new(index, count).map_err(|_| usage())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_read_from_a_file_is_checked_like_the_command_line() {
        for bad in [
            r#"{"index": 0, "count": 0}"#,
            r#"{"index": 5, "count": 3}"#,
            r#"{"index": 1, "count": 18446744073709551615}"#,
            r#"{"index": 0, "count": 3}"#,
        ] {
            let error = serde_json::from_str::<Shard>(bad).unwrap_err().to_string();
            assert!(error.contains("1 ≤ K ≤ N ≤ 10000"), "{bad}: {error}");
        }
        let shard: Shard = serde_json::from_str(r#"{"index": 2, "count": 3}"#).unwrap();
        assert_eq!(shard, "2/3".parse().unwrap());
        assert_eq!(
            serde_json::to_string(&shard).unwrap(),
            r#"{"index":2,"count":3}"#
        );
    }
}

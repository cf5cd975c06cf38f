//! Live statistics of one player against another: wins, draws and losses, and the
//! pentanomial counts of finished game pairs, with the line the match runner shows.

use crate::arena::sprt::{Pentanomial, Sprt};
use std::collections::HashMap;
use std::fmt::Write as _;

/// One side's results against another so far.
#[derive(Clone, Debug, Default)]
pub struct MatchScore {
    /// Wins, draws, losses.
    pub wdl: [u32; 3],
    /// The finished pairs' scores.
    pub pairs: Pentanomial,
    /// The half points of pairs with one game finished, by pair.
    waiting: HashMap<u64, u32>,
}

impl MatchScore {
    /// Counts a game worth `half_points` (0, 1 or 2) of pair `pair` (the two games of one
    /// opening, colours swapped); whether it finished its pair.
    pub fn add(&mut self, pair: u64, half_points: u32) -> bool {
        let half_points = half_points.min(2);
        self.wdl[2 - half_points as usize] += 1;
        let Some(other) = self.waiting.remove(&pair) else {
            self.waiting.insert(pair, half_points);
            return false;
        };
        self.pairs.add((other + half_points) as usize);
        true
    }

    /// The same results from the other side's point of view.
    pub fn flipped(&self) -> MatchScore {
        let mut pairs = self.pairs;
        pairs.0.reverse();
        MatchScore {
            wdl: [self.wdl[2], self.wdl[1], self.wdl[0]],
            pairs,
            waiting: self.waiting.iter().map(|(&k, &h)| (k, 2 - h)).collect(),
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wdl.iter().sum()
    }

    /// `+W =D -L, score S %, Elo E [low, high], LOS P %, pairs [..]`, and with a test its
    /// `LLR x (lower, upper)`. Score, Elo and LOS are those of the finished pairs.
    pub fn line(&self, sprt: Option<Sprt>) -> String {
        let (elo, low, high) = self.pairs.elo();
        let mut line = format!(
            "+{} ={} -{}, score {:.1} %, Elo {elo:+.1} [{low:+.1}, {high:+.1}], LOS {:.1} %, \
             pairs [{}]",
            self.wdl[0],
            self.wdl[1],
            self.wdl[2],
            100.0 * self.pairs.score(),
            100.0 * self.pairs.los(),
            self.pairs.counts_text(),
        );
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let _ = write!(
                line,
                ", LLR {:.2} ({lower:.2}, {upper:.2})",
                sprt.llr(&self.pairs)
            );
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_pair_up_by_their_opening() {
        let mut tally = MatchScore::default();
        assert!(!tally.add(0, 2));
        assert!(!tally.add(1, 1));
        assert!(tally.add(0, 0));
        assert!(!tally.add(2, 2));
        assert!(tally.add(1, 2));
        assert_eq!(tally.wdl, [3, 1, 1]);
        assert_eq!(tally.pairs.0, [0, 0, 1, 1, 0]);
        assert_eq!(tally.games(), 5);
        let line = tally.line(None);
        assert!(line.starts_with("+3 =1 -1, score 62.5 %"), "{line}");
        assert!(line.ends_with("pairs [0, 0, 1, 1, 0]"), "{line}");
        let other = tally.flipped();
        assert_eq!(other.wdl, [1, 1, 3]);
        assert_eq!(other.pairs.0, [0, 1, 1, 0, 0]);
        assert!(other.flipped().add(2, 0));
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        assert!(tally.line(Some(sprt)).contains(", LLR "));
    }
}

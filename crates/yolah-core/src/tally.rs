//! The results of a batch of random games, as both of its paths count them.

use crate::color::Color;
use crate::position::Outcome;

/// Results of a batch of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games black won.
    pub black_wins: u64,
    /// Games white won.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Tally {
    /// All games counted.
    pub fn games(&self) -> u64 {
        self.black_wins + self.white_wins + self.draws
    }

    /// Adds one result.
    pub fn record(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win(Color::Black) => self.black_wins += 1,
            Outcome::Win(Color::White) => self.white_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    /// Both batches together.
    pub fn merge(self, other: Tally) -> Tally {
        Tally {
            black_wins: self.black_wins + other.black_wins,
            white_wins: self.white_wins + other.white_wins,
            draws: self.draws + other.draws,
        }
    }
}

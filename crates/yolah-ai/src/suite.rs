//! The middle-game suite: positions where games are decided, each with the exact value of
//! every legal move, proved offline by the solver. A player's move on each position either
//! keeps the position's proved value (the best of its moves') or gives points away; the share
//! of positions kept and the mean points given away, each with its 95 % interval, are a
//! yardstick that runs in minutes, where a match takes hours to say as much.
//!
//! A suite file is JSON lines, one position a line: `{"position": NOTATION, "values": {MOVE:
//! MARGIN, …}}`, MARGIN the mover's final margin with best play after MOVE (within the lead
//! and the free squares of the position), every legal move once, every position once. Other fields (where the position comes from, the proofs' nodes and time)
//! are kept and ignored.

use serde::Deserialize;
use yolah_core::{Move, Position};

/// The most positions a suite may hold.
pub const MAX_POSITIONS: usize = 100_000;

/// A position of the suite and the proved value of each of its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct SuitePosition {
    /// The position (not over, with a choice of moves).
    pub position: Position,
    /// Each legal move with the mover's final margin after it, with best play.
    pub values: Vec<(Move, i32)>,
}

#[derive(Deserialize)]
struct Line {
    position: String,
    #[serde(deserialize_with = "every_entry")]
    values: Vec<(String, i32)>,
}

/// A JSON object's entries as they are written, a key given twice included (a map would keep
/// only its last value).
fn every_entry<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(String, i32)>, D::Error> {
    struct Entries;
    impl<'de> serde::de::Visitor<'de> for Entries {
        type Value = Vec<(String, i32)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of moves and margins")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::new();
            while let Some(entry) = map.next_entry()? {
                entries.push(entry);
            }
            Ok(entries)
        }
    }
    deserializer.deserialize_map(Entries)
}

/// The most points one move can give away: the best move's margin less the worst's.
pub const MAX_LOSS: i32 = 128;

impl SuitePosition {
    /// Reads one line of a suite file, checked: the position legal and not over, every legal
    /// move valued once and nothing else, each value a margin the board allows.
    pub fn parse(line: &str) -> Result<SuitePosition, String> {
        let line: Line =
            serde_json::from_str(line).map_err(|e| format!("not a suite line: {e}"))?;
        let position: Position = line
            .position
            .parse()
            .map_err(|e| format!("bad position: {e}"))?;
        let legal = position.moves();
        if position.game_over() || legal.len() < 2 {
            return Err(format!("{position}: no choice of moves to judge"));
        }
        // The final margin differs from today's lead by at most the squares still free
        // (each move fills one).
        let lead = i32::from(position.score(position.side_to_move()))
            - i32::from(position.score(position.side_to_move().opponent()));
        let free = 64 - position.occupied().count() as i32;
        let reach = lead.abs() + free;
        let mut values: Vec<(Move, i32)> = Vec::with_capacity(legal.len());
        for (text, margin) in line.values {
            let m: Move = text
                .parse()
                .map_err(|e| format!("{position}: bad move {text:?}: {e}"))?;
            if !legal.contains(&m) {
                return Err(format!("{position}: {text} is not a legal move"));
            }
            if values.iter().any(|&(seen, _)| seen == m) {
                return Err(format!("{position}: {text} is valued twice"));
            }
            if !(-reach..=reach).contains(&margin) {
                return Err(format!(
                    "{position}: {text} has margin {margin}, beyond the ±{reach} a lead of \
                     {lead} and {free} free squares allow"
                ));
            }
            values.push((m, margin));
        }
        if values.len() != legal.len() {
            return Err(format!(
                "{position}: {} of its {} legal moves valued; a suite values every one",
                values.len(),
                legal.len()
            ));
        }
        Ok(SuitePosition { position, values })
    }

    /// The position's proved value: its best move's margin.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().expect("a choice")
    }

    /// The points `m` gives away against the best move (0 when it keeps the value); `None`
    /// for a move not of this position.
    pub fn loss(&self, m: Move) -> Option<i32> {
        let value = self.values.iter().find(|&&(mv, _)| mv == m)?.1;
        Some(self.best() - value)
    }
}

/// What a player's moves on a suite came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// The points each move gave away, in suite order.
    pub losses: Vec<i32>,
}

impl Score {
    /// The positions judged.
    pub fn positions(&self) -> usize {
        self.losses.len()
    }

    /// The share of positions whose move kept the proved value, with its 95 % Wilson
    /// interval.
    pub fn kept(&self) -> (f64, f64, f64) {
        let n = self.losses.len() as f64;
        if n == 0.0 {
            return (0.0, 0.0, 1.0);
        }
        let kept = self.losses.iter().filter(|&&l| l == 0).count() as f64;
        let p = kept / n;
        let z = 1.96_f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (p, (centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// The mean points given away a position, with its 95 % interval (normal, from the
    /// sample's standard deviation).
    pub fn mean_loss(&self) -> (f64, f64, f64) {
        let n = self.losses.len() as f64;
        if n == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let mean = self.losses.iter().map(|&l| f64::from(l)).sum::<f64>() / n;
        if n < 2.0 {
            // One position says nothing of the spread: the interval is all a loss can be.
            return (mean, 0.0, f64::from(MAX_LOSS));
        }
        let variance = self
            .losses
            .iter()
            .map(|&l| (f64::from(l) - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let half = 1.96 * (variance / n).sqrt();
        (mean, (mean - half).max(0.0), mean + half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITION: &str = "x1x3xx/6xx/3xxxx1/1xxxwx2/1bwxxb2/xbxx2bx/x2w3x/x1x3wx w 13 12 25";

    fn line(values: &[(String, i32)]) -> String {
        let values: serde_json::Map<String, serde_json::Value> = values
            .iter()
            .map(|(m, v)| (m.clone(), serde_json::json!(v)))
            .collect();
        serde_json::json!({"position": POSITION, "values": values, "source": "test"}).to_string()
    }

    fn all_moves(value: impl Fn(usize) -> i32) -> Vec<(String, i32)> {
        let position: Position = POSITION.parse().unwrap();
        position
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| (m.to_string(), value(i)))
            .collect()
    }

    #[test]
    fn a_line_values_every_legal_move_once() {
        let good = all_moves(|i| 3 - i as i32);
        let suite = SuitePosition::parse(&line(&good)).unwrap();
        assert_eq!(suite.best(), 3);
        let first: Move = good[0].0.parse().unwrap();
        let second: Move = good[1].0.parse().unwrap();
        assert_eq!(suite.loss(first), Some(0));
        assert_eq!(suite.loss(second), Some(1));
        let mut missing = good.clone();
        missing.pop();
        assert!(
            SuitePosition::parse(&line(&missing))
                .unwrap_err()
                .contains("legal moves valued")
        );
        let mut foreign = good.clone();
        foreign[0].0 = "a1:a1".into();
        assert!(SuitePosition::parse(&line(&foreign)).is_err());
        let mut wide = good.clone();
        wide[0].1 = 33; // a lead of 1 (13 to 12) and 31 free squares
        assert!(
            SuitePosition::parse(&line(&wide))
                .unwrap_err()
                .contains("beyond the ±32")
        );
        wide[0].1 = 32;
        assert!(SuitePosition::parse(&line(&wide)).is_ok());
        let mut twice = line(&good);
        let first = format!("\"{}\":{}", good[0].0, good[0].1);
        twice = twice.replacen(&first, &format!("{first},\"{}\":5", good[0].0), 1);
        assert!(
            SuitePosition::parse(&twice)
                .unwrap_err()
                .contains("valued twice"),
            "{twice}"
        );
        assert!(SuitePosition::parse("{}").is_err());
    }

    #[test]
    fn the_score_and_its_intervals() {
        let score = Score {
            losses: vec![0, 0, 0, 2, 0, 4, 0, 0, 0, 0],
        };
        let (kept, low, high) = score.kept();
        assert!((kept - 0.8).abs() < 1e-12);
        assert!(
            low < 0.8 && 0.8 < high && low > 0.4 && high < 1.0,
            "{low} {high}"
        );
        let (mean, low, high) = score.mean_loss();
        assert!((mean - 0.6).abs() < 1e-12);
        assert!(low < mean && mean < high, "{low} {high}");
    }
}

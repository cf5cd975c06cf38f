//! The sequential probability ratio test by which engine changes are decided (fishtest,
//! fastchess): games are played in pairs (one opening, colours swapped), each pair scored 0,
//! ¼, ½, ¾ or 1 for the first player (the pentanomial model, which accounts for the openings'
//! bias), and after each pair the log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo =
//! `elo0`) is compared with two bounds set by the error rates: below `ln(β / (1 − α))` H0 is
//! accepted, above `ln((1 − β) / α)` H1 is. Elo is logistic Elo, the unit of our ratings.
//!
//! The likelihood ratio is the generalised one of fishtest's `LLRcalc`: under each hypothesis,
//! the pair-score distribution nearest the observed one (maximum likelihood) whose mean is that
//! hypothesis's expected score. A count of zero counts as 0.001, so that the first pairs give a
//! finite ratio.

use std::fmt;

/// The scores of a game pair for the first player, in points per game.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The expected score of a player `elo` logistic Elo stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo of an expected score (0 < score < 1).
pub fn elo_of_score(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// How many game pairs ended with each score, from 0 to 1 in quarters (half points 0 to 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a pair in which the first player won `half_points` half points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The counts as shown, `0, 1, 5, 1, 3` (pairs scoring 0, ¼, ½, ¾, 1).
    pub fn counts_text(&self) -> String {
        self.0.map(|c| c.to_string()).join(", ")
    }

    /// The observed distribution, zero counts taken as 0.001, and its weight.
    fn distribution(&self) -> ([f64; 5], f64) {
        let counts = self.0.map(|c| (c as f64).max(1e-3));
        let total: f64 = counts.iter().sum();
        (counts.map(|c| c / total), total)
    }

    /// The first player's score per game (0 to 1).
    pub fn score(&self) -> f64 {
        let points: f64 = self
            .0
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, x)| c as f64 * x)
            .sum();
        points / (self.pairs().max(1) as f64)
    }

    /// The Elo difference the pairs show, with its 95 % interval: the pairs' mean score ± 1.96
    /// standard errors, from the pairs' counts with `Z95² / 2` pseudo pairs added at each
    /// extreme (0 and 1), as Agresti and Coull's interval of a proportion adds `z² / 2`
    /// successes and failures. Without them a few pairs of equal score show a variance of
    /// nearly 0 (one drawn pair gave ±34 Elo); with them one pair gives about ±150, and a
    /// hundred pairs nearly what their own variance gives. The interval always holds the
    /// estimate; with no pairs it is the whole range.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, variance, n) = self.adjusted_moments();
        let half = Z95 * (variance / n).sqrt();
        let elo = elo_of_score(self.score());
        (
            elo,
            elo_of_score(mean - half).min(elo),
            elo_of_score(mean + half).max(elo),
        )
    }

    /// The mean score per game, the variance of a pair's score and the number of pairs, with
    /// the pseudo pairs of [`Pentanomial::elo`].
    fn adjusted_moments(&self) -> (f64, f64, f64) {
        let pseudo = Z95 * Z95 / 2.0;
        let mut counts = self.0.map(|c| c as f64);
        counts[0] += pseudo;
        counts[4] += pseudo;
        let n: f64 = counts.iter().sum();
        let mean: f64 = counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(c, x)| c * x)
            .sum::<f64>()
            / n;
        let variance = counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(c, x)| c * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, variance, n)
    }

    /// The likelihood of superiority: the probability that the first player is the stronger
    /// (from the moments of [`Pentanomial::elo`], so that a few pairs say little).
    pub fn los(&self) -> f64 {
        let (mean, variance, n) = self.adjusted_moments();
        let sd = (variance / n).sqrt().max(1e-12);
        normal_cdf((mean - 0.5) / sd)
    }
}

/// The normal distribution's two-sided 95 % quantile.
const Z95: f64 = 1.959_964;

/// Φ, the standard normal distribution function (Abramowitz and Stegun 7.1.26 through erf).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// The distribution nearest `p` (maximum likelihood) with mean `s`: `p_i / (1 + λ (x_i − s))`,
/// λ found by bisection on the equation that makes the mean `s`.
fn nearest_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |lambda: f64| -> f64 {
        p.iter()
            .zip(PAIR_SCORES)
            .map(|(p, x)| p * (x - s) / (1.0 + lambda * (x - s)))
            .sum()
    };
    // λ keeps every weight positive: 1 + λ (x − s) > 0 for x in [0, 1].
    let (mut low, mut high) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
    for _ in 0..200 {
        let middle = f64::midpoint(low, high);
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let lambda = f64::midpoint(low, high);
    std::array::from_fn(|i| p[i] / (1.0 + lambda * (PAIR_SCORES[i] - s)))
}

/// A test's hypotheses and error rates: `elo0=E0,elo1=E1[,alpha=A,beta=B]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1 (above `elo0`).
    pub elo1: f64,
    /// The rate of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The rate of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What a test has concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell below the lower bound.
    H0,
    /// The LLR rose above the upper bound.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given the pairs so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let (p, n) = pairs.distribution();
        let p0 = nearest_with_mean(&p, expected_score(self.elo0));
        let p1 = nearest_with_mean(&p, expected_score(self.elo1));
        n * (0..5).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// The verdict once the LLR has crossed a bound, `None` before.
    pub fn verdict(&self, pairs: &Pentanomial) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        let llr = self.llr(pairs);
        if llr <= lower {
            Some(Verdict::H0)
        } else if llr >= upper {
            Some(Verdict::H1)
        } else {
            None
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;

    fn from_str(text: &str) -> Result<Sprt, String> {
        let usage = "expected elo0=E0,elo1=E1[,alpha=A,beta=B] with E0 < E1 (logistic Elo, \
                     -1000 to 1000) and 0 < A, B < 0.5, like elo0=0,elo1=10";
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item.split_once('=').ok_or(usage)?;
            let value: f64 = value.trim().parse().map_err(|_| usage)?;
            match key.trim().to_ascii_lowercase().as_str() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(usage.to_string()),
            }
        }
        let elo = -1000.0..=1000.0;
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(elo.contains(&sprt.elo0)
            && elo.contains(&sprt.elo1)
            && sprt.elo0 < sprt.elo1
            && rate(sprt.alpha)
            && rate(sprt.beta))
        {
            return Err(usage.to_string());
        }
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_llr_is_the_hand_computed_one() {
        // Computed independently (a Python transcription of fishtest's LLRcalc, bisection on
        // the Lagrange multiplier) for these counts and hypotheses.
        for (counts, elo0, elo1, expected) in [
            ([1, 5, 10, 7, 2], 0.0, 5.0, 0.109_537_863_879_162_44),
            ([3, 20, 41, 26, 10], 0.0, 10.0, 1.036_401_146_081_03),
            ([10, 20, 41, 26, 3], -5.0, 5.0, -0.482_396_254_426_330_4),
        ] {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let llr = sprt.llr(&Pentanomial(counts));
            assert!(
                (llr - expected).abs() < 1e-9,
                "{counts:?}: {llr} vs {expected}"
            );
        }
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-8 && (upper - 2.944_438_979).abs() < 1e-8);
        for bad in [
            "elo0=5,elo1=0",
            "elo0=0",
            "elo0=0,elo1=5,alpha=0.6",
            "elo0=a,elo1=5",
            "x=1",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        assert_eq!(sprt.to_string().parse::<Sprt>().unwrap(), sprt);
    }

    /// The half points of a pair for the first player when it is `elo` stronger, with draws
    /// at `draw_rate` a game.
    fn pair(rng: &mut rand::rngs::SmallRng, elo: f64, draw_rate: f64) -> usize {
        let score = expected_score(elo);
        let win = score - draw_rate / 2.0;
        (0..2)
            .map(|_| {
                let r: f64 = rng.random();
                usize::from(r < win) + usize::from(r < win + draw_rate)
            })
            .sum()
    }

    #[test]
    fn error_rates_are_near_alpha_and_beta_in_simulation() {
        let sprt: Sprt = "elo0=0,elo1=40".parse().unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let tests = 600;
        let mut rate = |elo: f64, wrong: Verdict| {
            let mut errors = 0;
            for _ in 0..tests {
                let mut pairs = Pentanomial::default();
                let verdict = loop {
                    pairs.add(pair(&mut rng, elo, 0.2));
                    if let Some(verdict) = sprt.verdict(&pairs) {
                        break verdict;
                    }
                };
                errors += usize::from(verdict == wrong);
            }
            errors as f64 / tests as f64
        };
        let false_h1 = rate(0.0, Verdict::H1);
        let false_h0 = rate(40.0, Verdict::H0);
        eprintln!("H1 accepted at elo0: {false_h1}; H0 accepted at elo1: {false_h0}");
        // 0.05 each, with 600 tests a standard error of 0.009.
        assert!(
            (0.01..=0.09).contains(&false_h1),
            "H1 accepted at elo0: {false_h1}"
        );
        assert!(
            (0.01..=0.09).contains(&false_h0),
            "H0 accepted at elo1: {false_h0}"
        );
    }

    /// One drawn pair gave `[-34.1, +34.1]` (pseudo-counts of 0.001 made its
    /// variance nearly 0). A few pairs give a wide interval; many, nearly their own.
    #[test]
    fn few_pairs_give_a_wide_interval() {
        for counts in [
            [0, 0, 1, 0, 0],
            [0, 0, 0, 0, 1],
            [0, 1, 0, 0, 0],
            [0, 0, 2, 0, 0],
        ] {
            let (elo, low, high) = Pentanomial(counts).elo();
            assert!(
                low <= elo && elo <= high,
                "{counts:?}: {elo} [{low}, {high}]"
            );
            assert!(high - low > 200.0, "{counts:?}: [{low}, {high}]");
        }
        let (_, low, high) = Pentanomial([0, 0, 1, 0, 0]).elo();
        assert!(low < -100.0 && high > 100.0, "[{low}, {high}]");
        // 100 pairs: within 10 % of the interval from their own variance alone.
        let many = Pentanomial([5, 20, 50, 20, 5]);
        let (_, low, high) = many.elo();
        let mean = 0.5;
        let variance = [5.0, 20.0, 50.0, 20.0, 5.0]
            .iter()
            .zip(PAIR_SCORES)
            .map(|(c, x)| c * (x - mean) * (x - mean))
            .sum::<f64>()
            / 100.0;
        let raw = elo_of_score(mean + Z95 * (variance / 100.0_f64).sqrt()) * 2.0;
        let width = high - low;
        assert!((width / raw - 1.0).abs() < 0.1, "{width} against {raw}");
        // A pair alone says little of who is stronger.
        assert!((Pentanomial([0, 0, 0, 0, 1]).los() - 0.5).abs() < 0.4);
    }

    #[test]
    fn elo_and_los_follow_the_score() {
        let even = Pentanomial([5, 20, 50, 20, 5]);
        let (elo, low, high) = even.elo();
        assert!(elo.abs() < 1e-9 && low < 0.0 && high > 0.0);
        assert!((even.los() - 0.5).abs() < 1e-6);
        let ahead = Pentanomial([2, 10, 40, 30, 18]);
        let (elo, low, _) = ahead.elo();
        assert!(elo > 50.0 && low > 0.0, "{elo} {low}");
        assert!(ahead.los() > 0.99);
        assert!((expected_score(elo_of_score(0.7)) - 0.7).abs() < 1e-12);
    }
}

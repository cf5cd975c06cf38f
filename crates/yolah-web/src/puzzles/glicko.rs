//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), as lichess rates its
//! puzzles: each attempt is a game between the solver and the puzzle, won by the one that
//! wins it, and both ratings move.

/// The system's constant τ, which limits how fast the volatility changes (Glickman suggests
/// 0.3 to 1.2; 0.5 is his example's).
pub const TAU: f64 = 0.5;
/// A new rating.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};
/// The deviation never falls below this: a rating keeps moving.
pub const MIN_DEVIATION: f64 = 45.0;
/// Glicko's scale: 400 / ln 10.
const SCALE: f64 = 173.7178;
/// The volatility iteration's tolerance.
const EPSILON: f64 = 1e-6;

/// A Glicko-2 rating on the Glicko scale (1500 for a newcomer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD): how uncertain it is.
    pub deviation: f64,
    /// Its volatility σ: how erratic its holder's results are.
    pub volatility: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

impl Rating {
    /// The rating after one rating period with these games: each an opponent's rating and
    /// the score (1 a win, ½ a draw, 0 a loss). With no game, only the deviation grows.
    pub fn after(self, games: &[(Rating, f64)]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (phi * SCALE).min(START.deviation),
                ..self
            };
        }
        let mut v_inverse = 0.0;
        let mut sum = 0.0;
        for &(opponent, score) in games {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let g_j = g(opponent.deviation / SCALE);
            let expected = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            v_inverse += g_j * g_j * expected * (1.0 - expected);
            sum += g_j * (score - expected);
        }
        let v = 1.0 / v_inverse;
        let delta = v * sum;
        // The new volatility: the root of f by the Illinois algorithm (step 5).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let sigma = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: mu * SCALE + 1500.0,
            deviation: phi * SCALE,
            volatility: sigma,
        }
    }

    /// Both ratings after an attempt: the solver's and the puzzle's, from the ratings before;
    /// `won` if the puzzle was solved.
    pub fn attempt(solver: Rating, puzzle: Rating, won: bool) -> (Rating, Rating) {
        let score = if won { 1.0 } else { 0.0 };
        let floor = |r: Rating| Rating {
            deviation: r.deviation.max(MIN_DEVIATION),
            ..r
        };
        (
            floor(solver.after(&[(puzzle, score)])),
            floor(puzzle.after(&[(solver, 1.0 - score)])),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: 1500 (RD 200, σ 0.06) against 1400 (30), 1550 (100) and
    /// 1700 (300), winning the first and losing the others, becomes 1464.06 (151.52, 0.05999).
    #[test]
    fn glickmans_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = player.after(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_solved_puzzle_raises_the_solver_and_lowers_the_puzzle() {
        let (solver, puzzle) = Rating::attempt(START, START, true);
        assert!(solver.rating > 1500.0 && puzzle.rating < 1500.0);
        assert!((solver.rating - 1500.0 + puzzle.rating - 1500.0).abs() < 1e-9);
        assert!(solver.deviation < START.deviation);
        let (failed, _) = Rating::attempt(START, START, false);
        assert!(failed.rating < 1500.0);
        // Many solved in a row: the rating climbs, the deviation stays above its floor.
        let mut solver = START;
        for _ in 0..200 {
            solver = Rating::attempt(solver, START, true).0;
        }
        assert!(solver.rating > 2000.0 && solver.deviation >= MIN_DEVIATION);
    }

    #[test]
    fn no_game_only_widens_the_deviation() {
        let rating = Rating {
            rating: 1700.0,
            deviation: 100.0,
            volatility: 0.06,
        };
        let after = rating.after(&[]);
        assert!((after.rating - 1700.0).abs() < 1e-12 && after.deviation > 100.0);
    }
}

//! Ratings from game results: the Bradley–Terry (logistic) model fitted by maximum likelihood,
//! on the Elo scale, with 95 % intervals from the inverse of the Hessian (book chapter 8).
//!
//! Player i scores against player j with probability `1 / (1 + 10^((r_j − r_i) / 400))`; a draw
//! counts half a win. Only differences are defined, so ratings are centred on a mean of 0 and
//! the covariance is the pseudo-inverse of the information matrix. One virtual draw is added to
//! each pair that played, as `BayesElo`'s prior does: a perfect score then gives a large, finite
//! difference instead of an infinite one, and hundreds of real games swamp it.

/// Elo points per natural unit of the logistic.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One game for the fit: black's index, white's index, black's half points (2, 1 or 0).
pub type GameResult = (usize, usize, u32);

/// Fitted ratings and their covariance.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Ratings, centred on 0.
    pub elo: Vec<f64>,
    covariance: Vec<Vec<f64>>,
}

/// The expected score of a player `difference` Elo above its opponent.
pub fn expected_score(difference: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-difference / 400.0))
}

impl Fit {
    /// The 95 % interval of player `i`'s rating (relative to the mean of all).
    pub fn interval(&self, i: usize) -> (f64, f64) {
        let half = Z95 * self.covariance[i][i].max(0.0).sqrt();
        (self.elo[i] - half, self.elo[i] + half)
    }

    /// `r_i − r_j` with its 95 % interval.
    pub fn difference(&self, i: usize, j: usize) -> (f64, f64, f64) {
        let c = &self.covariance;
        let half = Z95 * (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0).sqrt();
        let d = self.elo[i] - self.elo[j];
        (d, d - half, d + half)
    }
}

/// Fits the ratings of `players` players to `results`. `None` when the games do not link
/// every player to every other (some pairs of groups never met): differences are then
/// undefined.
pub fn fit(players: usize, results: &[GameResult]) -> Option<Fit> {
    let mut games = vec![vec![0.0; players]; players];
    let mut points = vec![vec![0.0; players]; players];
    for &(black, white, half_points) in results {
        games[black][white] += 1.0;
        games[white][black] += 1.0;
        points[black][white] += f64::from(half_points) / 2.0;
        points[white][black] += f64::from(2 - half_points.min(2)) / 2.0;
    }
    for i in 0..players {
        for j in 0..players {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += 1.0;
                points[i][j] += 0.5;
            }
        }
    }
    let mut elo = vec![0.0; players];
    for _ in 0..200 {
        let (gradient, information) = derivatives(&elo, &games, &points);
        let covariance = pseudo_inverse(&information)?;
        let mut largest = 0.0f64;
        for i in 0..players {
            // Newton's step, capped so that a far start cannot overshoot.
            let step: f64 = (0..players).map(|j| covariance[i][j] * gradient[j]).sum();
            let step = step.clamp(-400.0, 400.0);
            elo[i] += step;
            largest = largest.max(step.abs());
        }
        let mean = elo.iter().sum::<f64>() / players as f64;
        for r in &mut elo {
            *r -= mean;
        }
        if largest < 1e-9 {
            break;
        }
    }
    let (_, information) = derivatives(&elo, &games, &points);
    let covariance = pseudo_inverse(&information)?;
    Some(Fit { elo, covariance })
}

/// The log-likelihood's gradient and the information matrix (minus its Hessian) at `elo`.
fn derivatives(elo: &[f64], games: &[Vec<f64>], points: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = elo.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j || games[i][j] == 0.0 {
                continue;
            }
            let p = expected_score(elo[i] - elo[j]);
            gradient[i] += K * (points[i][j] - games[i][j] * p);
            let w = K * K * games[i][j] * p * (1.0 - p);
            information[i][i] += w;
            information[i][j] -= w;
        }
    }
    (gradient, information)
}

/// The pseudo-inverse of an information matrix whose null space is the constant vector (the
/// case when every player is linked to every other): `(L + J/n)⁻¹ − J/n`, `J` all ones.
fn pseudo_inverse(information: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = information.len();
    let shift = 1.0 / n as f64;
    let shifted: Vec<Vec<f64>> = information
        .iter()
        .map(|row| row.iter().map(|x| x + shift).collect())
        .collect();
    let mut inverse = invert(shifted)?;
    for row in &mut inverse {
        for x in row.iter_mut() {
            *x -= shift;
        }
    }
    Some(inverse)
}

/// Gauss–Jordan inversion with partial pivoting; `None` if the matrix is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 * scale {
            return None;
        }
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inverse[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    for j in 0..n {
                        a[row][j] -= factor * a[col][j];
                        inverse[row][j] -= factor * inverse[col][j];
                    }
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_small_matrix() {
        let a = vec![vec![4.0, 7.0], vec![2.0, 6.0]];
        let inv = invert(a).unwrap();
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inv[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }

    #[test]
    fn an_even_match_is_rated_even() {
        let results: Vec<GameResult> = (0..50).flat_map(|_| [(0, 1, 2), (1, 0, 2)]).collect();
        let fit = fit(2, &results).unwrap();
        let (d, low, high) = fit.difference(0, 1);
        assert!(d.abs() < 1e-9);
        assert!(low < -50.0 && high > 50.0);
    }

    #[test]
    fn a_perfect_score_is_finite() {
        let fit = fit(2, &[(0, 1, 2), (1, 0, 0)]).unwrap();
        let (d, low, _) = fit.difference(0, 1);
        assert!(d.is_finite() && d > 100.0 && low < d);
    }

    #[test]
    fn groups_that_never_met_cannot_be_rated() {
        assert!(fit(4, &[(0, 1, 2), (2, 3, 1)]).is_none());
    }
}

//! The Bradley–Terry fit recovers known ratings from simulated games, and its 95 % intervals
//! hold the truth about 95 % of the time.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use yolah_ai::arena::ratings::{GameResult, expected_score, fit};

/// Games between every pair of players of the given true ratings; 10 % draws.
fn simulate(truth: &[f64], games_per_pair: usize, rng: &mut SmallRng) -> Vec<GameResult> {
    let mut results = Vec::new();
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let expected = expected_score(truth[i] - truth[j]);
            for g in 0..games_per_pair {
                let u: f64 = rng.random();
                // Wins with probability expected − 0.05, draws with 0.1: expected score kept.
                let half_points = u32::from(u < expected - 0.05) + u32::from(u < expected + 0.05);
                // Alternate colours; the model has no colour advantage.
                results.push(if g % 2 == 0 {
                    (i, j, half_points)
                } else {
                    (j, i, 2 - half_points)
                });
            }
        }
    }
    results
}

#[test]
fn known_ratings_are_recovered() {
    let truth = [250.0, 100.0, 0.0, -350.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let mut rng = SmallRng::seed_from_u64(1);
    let results = simulate(&truth, 2000, &mut rng);
    let fit = fit(truth.len(), &results).unwrap();
    for (i, &t) in truth.iter().enumerate() {
        let (low, high) = fit.interval(i);
        assert!(
            (fit.elo[i] - (t - mean)).abs() < 25.0,
            "player {i}: {} vs {}",
            fit.elo[i],
            t - mean
        );
        assert!(low < fit.elo[i] && fit.elo[i] < high);
        assert!(high - low < 60.0, "2000 games a pair: a tight interval");
    }
    let (d, low, high) = fit.difference(0, 1);
    assert!(
        low > 100.0 && high < 200.0 && (d - 150.0).abs() < 25.0,
        "{d} [{low}, {high}]"
    );
}

#[test]
fn intervals_cover_the_truth_about_95_percent_of_the_time() {
    let truth = [60.0, 0.0];
    let mut rng = SmallRng::seed_from_u64(2);
    let trials = 400;
    let covered = (0..trials)
        .filter(|_| {
            let results = simulate(&truth, 200, &mut rng);
            let (_, low, high) = fit(2, &results).unwrap().difference(0, 1);
            low <= 60.0 && 60.0 <= high
        })
        .count();
    let rate = covered as f64 / f64::from(trials);
    // Draws make the binomial interval slightly conservative; a broken interval would be far off.
    assert!((0.92..=0.99).contains(&rate), "coverage {rate}");
}

//! Random-play balance against the book: over 10^6 random games it reports black 49.9 %,
//! white 39.5 %, draws 10.5 %.
//!
//! The seed is fixed, so the test is deterministic; the tolerance is still statistical: five
//! standard errors of the difference of two independent 10^6-game proportions (~0.35 points)
//! plus the book's rounding (0.05). An engine bug that shifts any rate by half a point fails.

use yolah_core::random_games::random_games;

#[test]
fn random_games_match_the_books_rates() {
    let games = 1_000_000u64;
    let tally = random_games(games, 2026, &|_| {});
    assert_eq!(tally.games(), games);
    let n = games as f64;
    for (name, count, book) in [
        ("black wins", tally.black_wins, 0.499),
        ("white wins", tally.white_wins, 0.395),
        ("draws", tally.draws, 0.105),
    ] {
        let rate = count as f64 / n;
        let standard_error = (2.0 * book * (1.0 - book) / n).sqrt();
        let tolerance = 5.0 * standard_error + 0.0005;
        assert!(
            (rate - book).abs() <= tolerance,
            "{name}: {:.3} % vs the book's {:.1} % (tolerance {:.3} points)",
            100.0 * rate,
            100.0 * book,
            100.0 * tolerance
        );
    }
}

#[test]
fn the_seed_fixes_the_tally_whatever_the_threads() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let a = one.install(|| random_games(50_000, 9, &|_| {}));
    let b = two.install(|| random_games(50_000, 9, &|_| {}));
    assert_eq!(a, b);
    assert_ne!(
        a,
        random_games(50_000, 10, &|_| {}),
        "another seed, other games"
    );
}

//! The random games in vector registers (`wide`, eight to an AVX-512 register, four to an
//! AVX2 one) against the rules and against the scalar path: every game legal move by move with
//! the scores it reports, the number of games asked for, and the results' distribution the
//! scalar path's. Each test runs every width this CPU has and says which it skipped.

use yolah_core::random_games::{Path, random_games_on};
use yolah_core::tally::Tally;
use yolah_core::wide::Width;
mod common;

use yolah_core::{Color, Position, wide};

/// The widths this CPU runs; the others named on standard error.
fn widths() -> Vec<Width> {
    [Width::Avx512, Width::Avx2]
        .into_iter()
        .filter(|&width| {
            let here = width.available();
            if !here {
                eprintln!("skipped: this CPU has no {width:?} path");
            }
            here
        })
        .collect()
}

#[test]
fn every_wide_game_is_legal_and_scored_right() {
    for width in widths() {
        every_game_is_legal_and_scored_right(width);
    }
}

fn every_game_is_legal_and_scored_right(width: Width) {
    let games = wide::traced_games(width, 3_000, 5).expect("an available width");
    assert_eq!(games.len(), 3_000);
    let mut lengths = 0;
    for (n, (moves, scores)) in games.iter().enumerate() {
        let mut position = Position::start();
        for &m in moves {
            assert_eq!(
                position.check_move(m),
                Ok(()),
                "{width:?} game {n}: {m} in {position}"
            );
            position.play(m);
        }
        assert!(
            position.game_over(),
            "{width:?} game {n} ended early: {position}"
        );
        assert_eq!(
            [position.score(Color::Black), position.score(Color::White)],
            *scores,
            "{width:?} game {n}"
        );
        lengths += moves.len();
    }
    assert!(lengths > 3_000 * 30, "games as long as random games are");
}

#[test]
fn the_number_of_games_asked_for() {
    for width in widths() {
        for games in [1, 3, 4, 5, 7, 8, 9, 13, 1_000] {
            let tally = wide::random_games(width, games, 3).expect("an available width");
            assert_eq!(tally.games(), games, "{width:?}");
            assert_eq!(
                wide::random_games(width, games, 3),
                Some(tally),
                "{width:?} reproducible"
            );
        }
    }
}

/// Both paths draw every move uniformly, so their results follow one distribution: over
/// 400,000 games each, each share within 0.6 points (about five standard errors).
#[test]
fn wide_results_have_the_scalar_distribution() {
    let scalar = random_games_on(Path::Portable, 400_000, 11, &|_| {});
    for width in widths() {
        let wide = wide::random_games(width, 400_000, 11).expect("an available width");
        same_distribution(width, &wide, &scalar);
    }
}

fn same_distribution(width: Width, wide: &Tally, scalar: &Tally) {
    let share = |t: &Tally, n: u64| n as f64 / t.games() as f64;
    for (what, a, b) in [
        (
            "black",
            share(wide, wide.black_wins),
            share(scalar, scalar.black_wins),
        ),
        (
            "white",
            share(wide, wide.white_wins),
            share(scalar, scalar.white_wins),
        ),
        (
            "draws",
            share(wide, wide.draws),
            share(scalar, scalar.draws),
        ),
    ] {
        assert!(
            (a - b).abs() < 0.006,
            "{width:?} {what}: wide {a:.4}, scalar {b:.4}"
        );
    }
}

/// Playouts from positions of real games: every game given comes back once with its tag,
/// and each position's mean result is the scalar playouts' (within 0.035 of a point: about
/// four standard errors of the difference of two means over 6,000 playouts each).
#[test]
fn playouts_from_any_position_have_the_scalar_results() {
    for width in widths() {
        playouts_have_the_scalar_results(width);
    }
}

fn playouts_have_the_scalar_results(width: Width) {
    use rand::SeedableRng;
    let positions: Vec<Position> = (0..4)
        .flat_map(|seed| common::random_game(seed).into_iter().step_by(11))
        .filter(|p| !p.game_over())
        .take(12)
        .collect();
    let per = 6_000usize;
    let mut given = 0usize;
    let mut half_points = vec![0u64; positions.len()];
    let mut back = vec![0usize; positions.len()];
    let ran = wide::interleaved_on(
        width,
        9,
        &mut || {
            (given < per * positions.len()).then(|| {
                let i = given % positions.len();
                given += 1;
                (i, positions[i])
            })
        },
        &mut |i, outcome| {
            back[i] += 1;
            half_points[i] += u64::from(outcome.half_points(positions[i].side_to_move()));
        },
    );
    assert!(ran, "{width:?} is available");
    assert!(back.iter().all(|&n| n == per), "{width:?}: {back:?}");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
    for (i, position) in positions.iter().enumerate() {
        let scalar: u64 = (0..per)
            .map(|_| {
                let outcome = yolah_core::Playout::new(position).run(&mut rng);
                u64::from(outcome.half_points(position.side_to_move()))
            })
            .sum();
        let mean = |h: u64| h as f64 / (2.0 * per as f64);
        let (a, b) = (mean(half_points[i]), mean(scalar));
        assert!(
            (a - b).abs() < 0.035,
            "{width:?} {position}: wide {a:.4}, scalar {b:.4}"
        );
    }
}

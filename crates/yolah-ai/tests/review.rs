//! Game review (`yolah_ai::review`): a game with a planted blunder near the end, whose
//! verdict and the moves that kept the win an exhaustive search checks; the classes'
//! thresholds and lichess's accuracy.

mod common;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;
use yolah_ai::Limits;
use yolah_ai::eval::Weights;
use yolah_ai::players::minimax::Minimax;
use yolah_ai::review::{self, Class, Reviewer, Settings};
use yolah_core::{Move, Position};

/// A game from the start: `random` random plies, then the tuned heuristic at 2,000 nodes a
/// move; at the first position with at most `free` free squares where the mover wins and
/// some move does not, that move is played instead (the planted blunder). Returns the moves,
/// the planted ply and the moves that won there.
fn game_with_a_blunder(
    seed: u64,
    random: usize,
    free: u32,
) -> Option<(Vec<Move>, usize, Vec<Move>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut player = Minimax::new(Weights::tuned(), 16, 1);
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    let mut position = Position::start();
    let mut moves = Vec::new();
    let mut planted = None;
    while !position.game_over() {
        let legal = position.moves();
        let m = if moves.len() < random {
            legal[rng.random_range(0..legal.len())]
        } else if planted.is_none() && 64 - position.occupied().count() <= free {
            let values = common::move_values(&position);
            let winning: Vec<Move> = values
                .iter()
                .filter(|(_, v)| *v == 1)
                .map(|&(m, _)| m)
                .collect();
            match values.iter().find(|(_, v)| *v < 1) {
                Some(&(losing, _)) if !winning.is_empty() => {
                    planted = Some((moves.len(), winning));
                    losing
                }
                _ => player.search(&position, limits).mv,
            }
        } else {
            player.search(&position, limits).mv
        };
        position.play(m);
        moves.push(m);
    }
    planted.map(|(ply, winning)| (moves, ply, winning))
}

#[test]
fn a_planted_blunder_is_found_with_the_moves_that_kept_the_win() {
    let settings = Settings {
        nodes: 5000,
        exact_free: 14,
        exact_nodes: 2_000_000,
        time: Duration::from_hours(1),
    };
    let mut reviewer = Reviewer::new(settings, None);
    let mut checked = 0;
    for seed in 0..40 {
        if checked == 3 {
            break;
        }
        let Some((moves, ply, winning)) = game_with_a_blunder(seed, 8, 10) else {
            continue;
        };
        let mut calls = 0;
        let review = reviewer.review(&Position::start(), &moves, |done, total| {
            assert!(done <= total);
            calls += 1;
        });
        assert!(calls > moves.len(), "progress after each search");
        assert_eq!(review.moves.len(), moves.len());
        let judged = &review.moves[ply];
        assert_eq!(judged.played, moves[ply].to_string());
        assert_eq!(judged.class, Class::Blunder, "seed {seed}: {judged:?}");
        let verdict = judged.exact.as_ref().expect("both positions proved");
        assert!(verdict.before > 0 && verdict.after <= 0, "{verdict:?}");
        let mut kept = verdict.kept_by.clone().expect("every move proved");
        let mut expected: Vec<String> = winning.iter().map(Move::to_string).collect();
        kept.sort();
        expected.sort();
        assert_eq!(kept, expected, "seed {seed}");
        let text = verdict.text();
        assert!(
            text.starts_with(&format!("won by {} → ", verdict.before)),
            "{text}"
        );
        if let [only] = expected.as_slice() {
            assert!(
                text.ends_with(&format!("only {only} kept the win")),
                "{text}"
            );
        }
        // Every move with an exact verdict, and every value said to be proved, agrees with the
        // exhaustive search on its result; every class is its loss's.
        let mut position = Position::start();
        for (m, judged) in moves.iter().zip(&review.moves) {
            let near = 64 - position.occupied().count() <= 10;
            if let Some(verdict) = &judged.exact
                && near
            {
                assert_eq!(
                    verdict.before.signum(),
                    common::solve(&position, -1, 1),
                    "ply {}",
                    judged.ply
                );
            }
            if judged.before.proved && near {
                let sign = if judged.before.margin > 0.0 {
                    1
                } else if judged.before.margin < 0.0 {
                    -1
                } else {
                    0
                };
                assert_eq!(sign, common::solve(&position, -1, 1), "ply {}", judged.ply);
            }
            // A proved result kept with fewer points is no best move, though it loses no
            // expected score.
            let fewer = judged
                .exact
                .as_ref()
                .is_some_and(|v| v.after < v.before && v.after.signum() == v.before.signum());
            if judged.class != Class::Only && fewer {
                assert_eq!(judged.class, Class::Good, "{judged:?}");
            } else if judged.class != Class::Only {
                assert_eq!(judged.class, Class::of(judged.loss), "{judged:?}");
            }
            if judged.played == judged.best && judged.exact.is_none() {
                assert!(judged.loss <= 0.0, "the engine's own move: {judged:?}");
            }
            position.play(*m);
        }
        // The end is the game's.
        let margin = i32::from(position.score(yolah_core::Color::Black))
            - i32::from(position.score(yolah_core::Color::White));
        assert!(review.end.proved && (review.end.margin - f64::from(margin)).abs() < 1e-9);
        for accuracy in review.accuracy {
            assert!(accuracy.is_some_and(|a| (0.0..=100.0).contains(&a)));
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} games had a blunder to plant");
}

/// Random players' endgames: a move that keeps a proved result with fewer points (won by 4 →
/// won by 2) loses no expected score, yet is *good*, not *best*; one that keeps its margin is
/// *best*.
#[test]
fn a_proved_result_kept_with_fewer_points_is_good_not_best() {
    let settings = Settings {
        nodes: 300,
        exact_free: 12,
        exact_nodes: 500_000,
        time: Duration::from_hours(1),
    };
    let mut reviewer = Reviewer::new(settings, None);
    let mut seen = 0;
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut position = Position::start();
        let mut moves = Vec::new();
        while !position.game_over() {
            let legal = position.moves();
            let m = legal[rng.random_range(0..legal.len())];
            position.play(m);
            moves.push(m);
        }
        let review = reviewer.review(&Position::start(), &moves, |_, _| {});
        for judged in &review.moves {
            let Some(verdict) = &judged.exact else {
                continue;
            };
            if judged.class == Class::Only || verdict.after.signum() != verdict.before.signum() {
                continue;
            }
            if verdict.after < verdict.before {
                assert_eq!(judged.class, Class::Good, "seed {seed}: {judged:?}");
                seen += 1;
            } else {
                assert_eq!(judged.class, Class::Best, "seed {seed}: {judged:?}");
            }
        }
        if seen >= 3 {
            return;
        }
    }
    panic!("only {seen} moves kept their result with fewer points");
}

#[test]
fn forced_moves_are_not_judged_and_the_classes_cut_where_stated() {
    assert_eq!(Class::of(0.0), Class::Best);
    assert_eq!(Class::of(review::BEST), Class::Good);
    assert_eq!(Class::of(review::INACCURACY - 1e-9), Class::Good);
    assert_eq!(Class::of(review::INACCURACY), Class::Inaccuracy);
    assert_eq!(Class::of(review::MISTAKE), Class::Mistake);
    assert_eq!(Class::of(review::BLUNDER), Class::Blunder);
    assert_eq!(Class::of(1.0), Class::Blunder);
    assert!((review::move_accuracy(0.0) - 100.0).abs() < 1e-3);
    assert!(
        (review::move_accuracy(0.10) - 63.583).abs() < 0.01,
        "lichess's curve"
    );
    assert!(review::move_accuracy(1.0).abs() < 1e-9, "clipped at 0");

    // Forced moves (a stuck side's passes) are "only"; with no free squares asked, the
    // solver proves nothing.
    let forced_in = |moves: &[Move]| {
        let mut position = Position::start();
        moves.iter().any(|&m| {
            let only = position.moves().len() == 1;
            position.play(m);
            only
        })
    };
    let (moves, ..) = (0..200)
        .filter_map(|seed| game_with_a_blunder(seed, 8, 10))
        .find(|(moves, ..)| forced_in(moves))
        .expect("a game with a forced move");
    let mut reviewer = Reviewer::new(
        Settings {
            nodes: 500,
            exact_free: 0,
            exact_nodes: 1,
            time: Duration::from_hours(1),
        },
        None,
    );
    let review = reviewer.review(&Position::start(), &moves, |_, _| {});
    let mut position = Position::start();
    let mut forced = 0;
    for (m, judged) in moves.iter().zip(&review.moves) {
        let only = position.moves().len() == 1;
        assert_eq!(judged.class == Class::Only, only, "ply {}", judged.ply);
        forced += usize::from(only);
        assert!(judged.exact.is_none());
        position.play(*m);
    }
    assert!(forced > 0, "the game's passes");
    assert!(
        Settings {
            nodes: 0,
            ..Settings::default()
        }
        .check()
        .is_err()
    );
    assert!(
        Settings {
            exact_free: review::MAX_EXACT_FREE + 1,
            ..Settings::default()
        }
        .check()
        .is_err()
    );
    for time in [Duration::from_millis(999), Duration::from_secs(3601)] {
        assert!(
            Settings {
                time,
                ..Settings::default()
            }
            .check()
            .is_err()
        );
    }
    assert!(Settings::default().check().is_ok());
}

/// The moves of `tests/data/long_review_game.txt`: a random game whose review once ran for
/// minutes and grew past a gigabyte.
pub fn long_review_game() -> Vec<Move> {
    let text = include_str!("data/long_review_game.txt");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|m| m.parse().expect("a move"))
        .collect()
}

/// A review whose time runs out says so, judges every move all the same (the positions the
/// solver did not reach by the engine, not proved), and still ends on the game's own result.
#[test]
fn a_review_out_of_time_says_so_and_judges_every_move() {
    let moves = long_review_game();
    let settings = Settings {
        nodes: 300,
        time: Duration::from_secs(1),
        ..Settings::default()
    };
    let review = Reviewer::new(settings, None).review(&Position::start(), &moves, |_, _| {});
    assert!(review.out_of_time);
    assert_eq!(review.moves.len(), moves.len());
    // The game is over at its end: black lost by 5, proved whatever the time.
    assert!(review.end.proved);
    assert!((review.end.margin + 5.0).abs() < 1e-9, "{:?}", review.end);
    // Given all the time it needs at a small budget, the same review is not out of time.
    let settings = Settings {
        nodes: 300,
        exact_nodes: 1000,
        time: Duration::from_hours(1),
        ..Settings::default()
    };
    let review = Reviewer::new(settings, None).review(&Position::start(), &moves, |_, _| {});
    assert!(!review.out_of_time);
}

/// A game of the tuned heuristic at 1,000 nodes a move, one move in three random (the mistakes
/// a review is for).
fn a_played_game(seed: u64) -> Vec<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut player = Minimax::new(Weights::tuned(), 16, 1);
    let limits = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    let mut position = Position::start();
    let mut moves = Vec::new();
    while !position.game_over() {
        let legal = position.moves();
        let m = if rng.random_range(0..3) == 0 {
            legal[rng.random_range(0..legal.len())]
        } else {
            player.search(&position, limits).mv
        };
        position.play(m);
        moves.push(m);
    }
    moves
}

/// Each move's value for its mover, each proved by a solver of its own within `budget` nodes
/// (the truth a review is held to), if all are.
fn proved_move_values(position: &Position, budget: u64) -> Option<Vec<(Move, i32)>> {
    let mut solver = Minimax::solver(16, 1);
    position
        .moves()
        .iter()
        .map(|&m| {
            let mut child = *position;
            child.play(m);
            solver.prove(&child, budget).map(|v| (m, -v))
        })
        .collect()
}

/// The ways `review` of `moves` contradicts proofs of `budget` nodes a move, in words, and
/// how many positions were proved to check it: the positions from the end back while their
/// moves are proved (to four positions in a row that are not).
fn contradictions(moves: &[Move], review: &review::Review, budget: u64) -> (Vec<String>, usize) {
    let mut positions = vec![Position::start()];
    for &m in moves {
        let mut next = *positions.last().unwrap();
        next.play(m);
        positions.push(next);
    }
    let (mut found, mut checked, mut unproved) = (Vec::new(), 0, 0);
    for (i, judged) in review.moves.iter().enumerate().rev() {
        let Some(values) = proved_move_values(&positions[i], budget) else {
            unproved += 1;
            if unproved == 4 {
                break;
            }
            continue;
        };
        unproved = 0;
        checked += 1;
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let value = |name: &str| {
            values
                .iter()
                .find(|(m, _)| m.to_string() == name)
                .map(|v| v.1)
        };
        let played = value(&judged.played).unwrap();
        let mut say = |what: String| found.push(format!("ply {}: {what}: {judged:?}", judged.ply));
        if played == best && !matches!(judged.class, Class::Best | Class::Only) {
            say(format!("the best move ({played}) is {:?}", judged.class));
        }
        if played < best && judged.class == Class::Best {
            say(format!("{played} is called best where {best} is proved"));
        }
        if value(&judged.best).is_some_and(|named| named < played) {
            say("the move named best is proved worse than the move played".to_string());
        }
        if judged.before.proved && (judged.before.margin - f64::from(best)).abs() > 1e-9 {
            say(format!(
                "before is said proved {} where {best} is",
                judged.before.margin
            ));
        }
        if judged.after.proved && (judged.after.margin - f64::from(played)).abs() > 1e-9 {
            say(format!(
                "after is said proved {} where {played} is",
                judged.after.margin
            ));
        }
        if let Some(verdict) = &judged.exact
            && (verdict.before, verdict.after) != (best, played)
        {
            say(format!(
                "the verdict {verdict:?} where {best} and {played} are proved"
            ));
        }
    }
    (found, checked)
}

/// A review never contradicts the solver. Random games' reviews (six here;
/// `YOLAH_REVIEW_GAMES=100` for the notebook's hundred, `YOLAH_REVIEW_FROM=K` from seed K), at the default solver settings but a
/// smaller budget, against each position's moves proved one by one within that budget.
#[test]
fn a_review_never_contradicts_the_solver() {
    let games: u64 = std::env::var("YOLAH_REVIEW_GAMES").map_or(6, |n| n.parse().unwrap());
    let from: u64 = std::env::var("YOLAH_REVIEW_FROM").map_or(0, |n| n.parse().unwrap());
    let budget = 200_000;
    let settings = Settings {
        nodes: 2000,
        exact_nodes: budget,
        time: Duration::from_hours(1),
        ..Settings::default()
    };
    let mut reviewer = Reviewer::new(settings, None);
    let (mut all, mut checked) = (Vec::new(), 0);
    for seed in from..from + games {
        let moves = a_played_game(seed);
        let review = reviewer.review(&Position::start(), &moves, |_, _| {});
        let (found, n) = contradictions(&moves, &review, budget);
        all.extend(found.into_iter().map(|f| format!("game {seed}, {f}")));
        checked += n;
    }
    eprintln!(
        "{games} games: {checked} proved positions checked, {} contradictions",
        all.len()
    );
    assert!(all.is_empty(), "{}", all.join("\n"));
    assert!(
        checked as u64 >= 15 * games,
        "only {checked} positions proved"
    );
}

/// The fixed case: a game whose ply 34 (22 free squares) the review called an
/// inaccuracy (+1.33 → +0.27, best g8:g7) when only positions of 20 free squares or fewer were
/// proved, though the solver proves `g8:h7` a best move (lost by 1, as three others; the rest lose
/// by more).
#[test]
fn the_best_move_a_capped_review_called_an_inaccuracy_is_best() {
    let text = include_str!("data/best_move_called_inaccuracy.txt");
    let moves: Vec<Move> = text
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    let mut position = Position::start();
    for &m in &moves[..34] {
        position.play(m);
    }
    assert_eq!(64 - position.occupied().count(), 22);
    let values = proved_move_values(&position, 200_000).expect("every move proved");
    let best = values.iter().map(|v| v.1).max().unwrap();
    let value = |name: &str| {
        values
            .iter()
            .find(|(m, _)| m.to_string() == name)
            .unwrap()
            .1
    };
    assert_eq!(value("g8:h7"), best, "g8:h7 is a best move: {values:?}");
    let settings = Settings {
        nodes: 2000,
        exact_nodes: 200_000,
        time: Duration::from_hours(1),
        ..Settings::default()
    };
    let review = Reviewer::new(settings, None).review(&Position::start(), &moves, |_, _| {});
    let judged = &review.moves[34];
    assert_eq!(judged.class, Class::Best, "{judged:?}");
    assert_eq!(
        value(&judged.best),
        best,
        "the move named best is a best move"
    );
    assert!(judged.before.proved && (judged.before.margin - f64::from(best)).abs() < 1e-9);
    let (found, _) = contradictions(&moves, &review, 200_000);
    assert!(found.is_empty(), "{found:?}");
}

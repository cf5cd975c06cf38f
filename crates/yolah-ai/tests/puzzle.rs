//! Puzzles (`yolah_ai::puzzle`): every puzzle found in games is checked by an exhaustive
//! search — its solution's every move of the solver's is the only one keeping the result, the
//! replies legal, the proof's values those of the solver — and a puzzle file's forgeries are
//! refused by `Puzzle::check`.

mod common;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use yolah_ai::Limits;
use yolah_ai::eval::Weights;
use yolah_ai::players::minimax::{Minimax, Pruning};
use yolah_ai::puzzle::{Finder, Goal, Puzzle, Settings};
use yolah_core::{Move, Position};

/// A game from the start: `random` random plies, then the tuned heuristic at 500 nodes,
/// without late-move pruning (which plays these games better, with fewer puzzles in them: the
/// games are only a source of positions, kept as they were).
fn game(seed: u64, random: usize) -> Vec<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut player = Minimax::new(Weights::tuned(), 4, 1);
    player.pruning = Pruning {
        move_count: false,
        ..Pruning::PLAY
    };
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let mut position = Position::start();
    let mut moves = Vec::new();
    while !position.game_over() {
        let legal = position.moves();
        let m = if moves.len() < random {
            legal[rng.random_range(0..legal.len())]
        } else {
            player.search(&position, limits).mv
        };
        position.play(m);
        moves.push(m);
    }
    moves
}

/// Checks with the exhaustive search that `keeper` alone, of the moves of `position`, keeps
/// the result `goal` asks (every other strictly worse), and returns that result.
fn check_unique(position: &Position, keeper: Move, context: &str) -> i32 {
    let values = common::move_values(position);
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    let keepers: Vec<Move> = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(m, _)| m)
        .collect();
    assert_eq!(keepers, [keeper], "{context}: {values:?}");
    best
}

#[test]
fn every_puzzle_found_is_unique_by_an_exhaustive_search() {
    let settings = Settings {
        free: 12,
        nodes: 1_000_000,
        length: 3,
    };
    let mut finder = Finder::new(settings);
    let mut found = 0;
    let mut longer = 0;
    for seed in 0..100 {
        let moves = game(seed, 10);
        let Some((ply, position, puzzle)) = finder.in_game(&Position::start(), &moves) else {
            continue;
        };
        let context = format!("game {seed} ply {ply}");
        // Its position is the game's at that ply, within the free squares asked.
        let mut replayed = Position::start();
        for &m in &moves[..ply] {
            replayed.play(m);
        }
        assert_eq!(replayed, position, "{context}");
        assert!(
            64 - position.occupied().count() <= settings.free,
            "{context}"
        );
        // The proof: every legal move once, best first, each value the exhaustive result.
        assert_eq!(puzzle.moves.len(), position.moves().len(), "{context}");
        for pair in puzzle.moves.windows(2) {
            assert!(pair[0].1 >= pair[1].1, "{context}: best first");
        }
        for &(m, value) in &puzzle.moves {
            let mut child = position;
            child.play(m);
            assert_eq!(
                value.signum(),
                -common::solve(&child, -1, 1),
                "{context}: {m}"
            );
        }
        // The solution: each of the solver's moves the only keeper, each reply legal.
        let result = check_unique(&position, puzzle.solution[0], &context);
        assert_eq!(
            puzzle.goal,
            if result == 1 { Goal::Win } else { Goal::Draw },
            "{context}"
        );
        assert_eq!(puzzle.value.signum(), result, "{context}");
        assert_eq!(puzzle.solution.len() % 2, 1, "{context}");
        assert!(puzzle.solution.len() < 2 * settings.length, "{context}");
        let mut now = position;
        for (k, &m) in puzzle.solution.iter().enumerate() {
            if k % 2 == 0 && k > 0 {
                assert_eq!(
                    check_unique(&now, m, &context),
                    result,
                    "{context}: move {k}"
                );
            }
            now.check_move(m).unwrap();
            now.play(m);
        }
        if puzzle.solution.len() > 1 {
            longer += 1;
        }
        // Its line in a file, read back and checked, is the same puzzle.
        let named = puzzle.puzzle(&position, context.clone());
        let line = serde_json::to_string(&named).unwrap();
        let read: Puzzle = serde_json::from_str(&line).unwrap();
        assert_eq!(read, named);
        let (at, solution) = read.check().unwrap();
        assert_eq!((at, solution), (position, puzzle.solution.clone()));
        found += 1;
    }
    eprintln!("{found} puzzles, {longer} longer than one move");
    assert!(found >= 5, "only {found} puzzles in 100 games");
    assert!(longer >= 1, "no solution longer than one move in {found}");
}

/// A puzzle to forge: found in the first game that has one.
fn a_puzzle() -> Puzzle {
    let mut finder = Finder::new(Settings {
        free: 11,
        nodes: 1_000_000,
        length: 2,
    });
    (0..60)
        .find_map(|seed| {
            let moves = game(seed, 10);
            finder
                .in_game(&Position::start(), &moves)
                .map(|(_, position, found)| found.puzzle(&position, format!("game {seed}")))
        })
        .expect("a puzzle in 60 games")
}

#[test]
fn forged_puzzles_are_refused_with_the_reason() {
    let puzzle = a_puzzle();
    puzzle.check().unwrap();
    let refused = |forge: &dyn Fn(&mut Puzzle), why: &str| {
        let mut forged = puzzle.clone();
        forge(&mut forged);
        let error = forged.check().unwrap_err();
        assert!(error.contains(why), "{why}: {error}");
        assert!(!error.contains('\n'), "{error}");
    };
    refused(&|p| p.id = "0000000000000000".into(), "its id");
    refused(&|p| p.position = "garbage".into(), "its position");
    refused(&|p| p.solution.clear(), "a solution of 0 moves");
    refused(&|p| p.solution.push("a1:a1".into()), "moves");
    refused(&|p| p.solution[0] = "a1:h8".into(), "solution move 1");
    refused(&|p| p.moves.pop().map(|_| ()).unwrap(), "its proof has");
    refused(
        &|p| {
            let first = p.moves[0].1;
            let last = p.moves.len() - 1;
            p.moves[last].1 = first;
        },
        "moves keeping the result",
    );
    refused(&|p| p.moves[0].0 = p.moves[1].0.clone(), "twice");
    refused(
        &|p| {
            p.goal = match p.goal {
                Goal::Win => Goal::Draw,
                Goal::Draw => Goal::Win,
            };
        },
        "its goal",
    );
    refused(&|p| p.value += 100, "its value");
    refused(
        &|p| {
            for m in &mut p.moves {
                m.1 = -5;
            }
        },
        "every move loses",
    );
    // A field the format does not have is refused when the line is read.
    let line = serde_json::to_string(&puzzle).unwrap();
    let extra = line.replacen('{', "{\"rating\":1500,", 1);
    assert!(serde_json::from_str::<Puzzle>(&extra).is_err());
}

#[test]
fn settings_are_checked() {
    Settings::default().check().unwrap();
    for (settings, why) in [
        (
            Settings {
                free: 0,
                ..Settings::default()
            },
            "--free",
        ),
        (
            Settings {
                free: 25,
                ..Settings::default()
            },
            "--free",
        ),
        (
            Settings {
                nodes: 0,
                ..Settings::default()
            },
            "--nodes",
        ),
        (
            Settings {
                length: 11,
                ..Settings::default()
            },
            "--length",
        ),
    ] {
        assert!(settings.check().unwrap_err().contains(why));
    }
}

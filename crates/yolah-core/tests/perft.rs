//! Perft counts from the start and from positions in `tests/data/perft.txt`, and the
//! bulk-counting perft against a plain play-everything recursion.

mod common;

use yolah_core::{Position, perft};

/// Leaves by playing every move down to depth 0: no shortcut, the reference for `perft`.
fn perft_plain(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 || position.game_over() {
        return 1;
    }
    let mut leaves = 0;
    for &m in &position.moves() {
        position.play(m);
        leaves += perft_plain(position, depth - 1);
        position.undo(m);
    }
    leaves
}

#[test]
fn start_position_counts() {
    let mut position = Position::start();
    let expected = [1, 56, 2_988, 164_512, 8_655_628];
    for (depth, &leaves) in expected.iter().enumerate() {
        assert_eq!(perft(&mut position, depth as u32), leaves, "depth {depth}");
    }
    assert_eq!(
        position,
        Position::start(),
        "perft leaves the position as it found it"
    );
}

/// Bulk-counting perft equals the plain recursion from many positions of random games.
#[test]
fn bulk_counting_matches_plain_recursion() {
    for seed in 0..40 {
        for mut position in common::random_game(seed).into_iter().step_by(7) {
            for depth in 0..=3 {
                let plain = perft_plain(&mut position, depth);
                assert_eq!(
                    perft(&mut position, depth),
                    plain,
                    "{position} depth {depth}"
                );
            }
        }
    }
}

/// The parallel count is the same, from the start and from positions with passes and ends.
#[test]
fn parallel_perft_counts_the_same() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut start = Position::start();
    assert_eq!(
        pool.install(|| yolah_core::perft::perft_parallel(&start, 5)),
        perft(&mut start, 5)
    );
    for seed in 0..6 {
        for mut position in common::random_game(seed).into_iter().step_by(9) {
            assert_eq!(
                pool.install(|| yolah_core::perft::perft_parallel(&position, 6)),
                perft(&mut position, 6),
                "{position}"
            );
        }
    }
}

/// White's pieces are walled into the corners, so white passes after every black move.
#[test]
fn counts_passes_and_finished_games() {
    let mut position: Position = "wx4xw/xx4xx/8/3bb3/3bb3/8/xx4xx/wx4xw b 6 6 12"
        .parse()
        .unwrap();
    let black_moves = u64::from(position.count_moves(yolah_core::Color::Black));
    assert!(black_moves > 0);
    assert_eq!(perft(&mut position, 1), black_moves);
    assert_eq!(
        perft(&mut position, 2),
        black_moves,
        "each black move is answered by a pass"
    );
    for depth in 0..=4 {
        assert_eq!(
            perft(&mut position, depth),
            perft_plain(&mut position, depth)
        );
    }
    // A finished game is one leaf at every depth.
    let mut last = *common::random_game(3).last().unwrap();
    for depth in 0..=4 {
        assert_eq!(perft(&mut last, depth), 1);
    }
}

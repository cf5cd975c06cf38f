//! `MAX_MOVES` bounds the moves of every position the notation can describe.

use yolah_core::{Bitboard, MAX_MOVES, Square, attacks};

/// Four pieces of one side on an otherwise empty board, every placement (635,376): other
/// pieces and holes only remove targets, so this is the worst case.
#[test]
fn no_placement_of_four_pieces_exceeds_max_moves() {
    let mut most = 0;
    for a in 0..64u8 {
        for b in a + 1..64 {
            for c in b + 1..64 {
                for d in c + 1..64 {
                    let pieces: Bitboard = [a, b, c, d]
                        .into_iter()
                        .map(|i| Square::new(i).unwrap())
                        .collect();
                    let moves: u32 = pieces.squares().map(|s| attacks(s, pieces).count()).sum();
                    most = most.max(moves);
                }
            }
        }
    }
    assert_eq!(most, 100);
    assert!(most as usize <= MAX_MOVES);
}

//! The book's example game (ch. 1, §2.3.3): the corrected list replays to black 24, white 32;
//! the printed list fails at its misprinted pass, move 48.

mod common;

use yolah_core::{Color, IllegalMove, Move, Outcome, Position};

fn moves(name: &str) -> Vec<Move> {
    common::data(name)
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn corrected_game_ends_black_24_white_32() {
    let moves = moves("book_game.txt");
    assert_eq!(moves.len(), 64);
    let mut position = Position::start();
    for (i, &m) in moves.iter().enumerate() {
        assert!(!position.game_over(), "over before move {}", i + 1);
        position
            .check_move(m)
            .unwrap_or_else(|e| panic!("move {} {m}: {e}", i + 1));
        position.play(m);
    }
    assert!(position.game_over());
    assert_eq!(position.ply(), 64);
    assert_eq!(
        (position.score(Color::Black), position.score(Color::White)),
        (24, 32)
    );
    assert_eq!(position.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn printed_game_is_rejected_at_move_48() {
    let moves = moves("book_game_printed.txt");
    assert_eq!(moves.len(), 65);
    let mut position = Position::start();
    for (i, &m) in moves.iter().enumerate() {
        if let Err(reason) = position.check_move(m) {
            assert_eq!(i + 1, 48);
            assert!(
                matches!(
                    reason,
                    IllegalMove::CannotPass {
                        side: Color::White,
                        ..
                    }
                ),
                "{reason}"
            );
            return;
        }
        position.play(m);
    }
    panic!("the printed list was accepted");
}

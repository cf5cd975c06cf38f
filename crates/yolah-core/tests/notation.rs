//! Position and move notation: round trips and every rejection case.

mod common;

use proptest::prelude::*;
use yolah_core::{Move, Position, START, Square};

#[test]
fn start_notation_is_the_start_position() {
    let parsed: Position = START.parse().unwrap();
    assert_eq!(parsed, Position::start());
    assert_eq!(Position::start().to_string(), START);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every position of a random game prints and parses back to itself (hash included).
    #[test]
    fn positions_round_trip(seed in any::<u64>()) {
        for position in common::random_game(seed) {
            let text = position.to_string();
            let parsed: Position = text.parse().unwrap();
            prop_assert_eq!(parsed, position, "{}", text);
        }
    }

    /// Arbitrary text never panics the parser.
    #[test]
    fn arbitrary_text_is_rejected_or_round_trips(text in "\\PC{0,60}") {
        if let Ok(position) = text.parse::<Position>() {
            prop_assert_eq!(position.to_string().parse::<Position>().unwrap(), position);
        }
    }
}

/// `tests/data/bad_positions.txt`: each position is rejected with the stated message.
#[test]
fn bad_positions_are_rejected_with_their_reason() {
    let cases = common::data("bad_positions.txt");
    let mut count = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let (expected, text) = line
            .split_once(" | ")
            .map_or((line.trim_end_matches(" |"), ""), |p| p);
        let error = text.parse::<Position>().expect_err(text).to_string();
        assert!(
            error.contains(expected),
            "'{text}': got '{error}', expected '{expected}'"
        );
        count += 1;
    }
    assert!(count >= 20, "the data file has its cases");
}

#[test]
fn moves_round_trip_and_bad_moves_say_why() {
    for from in Square::all() {
        for to in Square::all().filter(|&to| to != from) {
            let m = Move::new(from, to);
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
    }
    assert_eq!("a1:a1".parse::<Move>().unwrap(), Move::PASS);
    for (text, expected) in [
        ("e4g2", "expected <from>:<to>"),
        ("e4:", "is not a square"),
        ("i1:a2", "'i1' is not a square"),
        ("e9:e8", "'e9' is not a square"),
        ("E4:G2", "'E4' is not a square"),
        ("b2:b2", "a piece must leave its square"),
        ("", "expected <from>:<to>"),
    ] {
        let error = text.parse::<Move>().expect_err(text).to_string();
        assert!(error.contains(expected), "'{text}': got '{error}'");
    }
}

/// Positions built from bits are checked as text is, and for squares used twice.
#[test]
fn positions_from_parts_are_checked() {
    use yolah_core::{Bitboard, Color, ParsePositionError};
    let start = Position::start();
    let pieces = [start.pieces(Color::Black), start.pieces(Color::White)];
    assert_eq!(
        Position::from_parts_checked(pieces, Bitboard::EMPTY, [0, 0], 0),
        Ok(start)
    );
    let a1 = Bitboard(1);
    assert_eq!(
        Position::from_parts_checked(pieces, a1, [1, 0], 1),
        Err(ParsePositionError::Overlap)
    );
    let error = Position::from_parts_checked(pieces, Bitboard::EMPTY, [0, 0], 5).unwrap_err();
    assert!(
        error.to_string().contains("ply 5 cannot be reached"),
        "{error}"
    );
}

/// A position with moves from it, the one way a line of text gives one (`--position`, the
/// engine protocol): the moves are played in turn, each checked, an error names the move.
#[test]
fn a_position_line_plays_its_moves_and_names_a_bad_one() {
    use yolah_core::{ParseLineError, PositionLine};
    let line: PositionLine = "startpos moves a1:c1 h1:h4".parse().unwrap();
    assert_eq!(line.start, Position::start());
    assert_eq!(line.moves.len(), 2);
    let mut expected = Position::start();
    for m in ["a1:c1", "h1:h4"] {
        expected.play(m.parse().unwrap());
    }
    assert_eq!(line.position(), expected);
    let from_notation: PositionLine = format!("{} moves h1:h4", {
        let mut p = Position::start();
        p.play("a1:c1".parse().unwrap());
        p
    })
    .parse()
    .unwrap();
    assert_eq!(from_notation.position(), expected);
    let alone: PositionLine = "startpos".parse().unwrap();
    assert!(alone.moves.is_empty());
    let error = "startpos moves a1:c1 a1:a2"
        .parse::<PositionLine>()
        .unwrap_err();
    assert!(
        matches!(&error, ParseLineError::Move(bad) if bad.number == Some(2)),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("move 2 'a1:a2' (white to play) is illegal: "),
        "{error}"
    );
    let error = "startpos a1:c1".parse::<PositionLine>().unwrap_err();
    assert!(matches!(error, ParseLineError::Position(_)), "{error}");
}

//! The book's differential and property tests (§2.4.2), driven by proptest over random games.

mod common;

use common::{naive_moves, random_game};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::{
    Bitboard, Cell, Move, MoveList, Position, Square, attacks, slider::Slider, slider::subsets,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Magic move generation agrees with the square-by-square walk at every ply.
    #[test]
    fn magic_moves_match_naive_moves(seed in any::<u64>()) {
        for position in random_game(seed) {
            let mut fast: Vec<Move> = position.moves().to_vec();
            fast.sort();
            prop_assert_eq!(fast, naive_moves(&position), "{}", position);
        }
    }

    /// Playing then undoing any legal move restores everything, the hash included; the hash
    /// kept up to date equals the hash computed from scratch.
    #[test]
    fn undo_restores_everything(seed in any::<u64>()) {
        for position in random_game(seed) {
            prop_assert_eq!(position.hash(), position.compute_hash());
            for &m in &position.moves() {
                let mut after = position;
                after.play(m);
                prop_assert_eq!(after.hash(), after.compute_hash(), "{} after {}", position, m);
                after.undo(m);
                prop_assert_eq!(after, position, "{} undo {}", position, m);
            }
        }
    }

    /// A move moves the piece, leaves a hole, scores a point and changes nothing else;
    /// a pass only advances the ply.
    #[test]
    fn moves_change_exactly_what_they_should(seed in any::<u64>()) {
        for position in random_game(seed) {
            let side = position.side_to_move();
            for &m in &position.moves() {
                let mut after = position;
                after.play(m);
                prop_assert_eq!(after.ply(), position.ply() + 1);
                prop_assert_eq!(after.side_to_move(), side.opponent());
                for square in Square::all() {
                    let expected = if m.is_pass() {
                        position.cell(square)
                    } else if square == m.from() {
                        Cell::Hole
                    } else if square == m.to() {
                        Cell::Piece(side)
                    } else {
                        position.cell(square)
                    };
                    prop_assert_eq!(after.cell(square), expected, "{} {} at {}", position, m, square);
                }
                let gained = u8::from(!m.is_pass());
                prop_assert_eq!(after.score(side), position.score(side) + gained);
                prop_assert_eq!(after.score(side.opponent()), position.score(side.opponent()));
            }
        }
    }

    /// A finished game offers only the pass, and still does after a pass.
    #[test]
    fn finished_game_offers_only_the_pass(seed in any::<u64>()) {
        let mut last = *random_game(seed).last().unwrap();
        prop_assert!(last.game_over());
        prop_assert_eq!(last.moves().to_vec(), vec![Move::PASS]);
        // No move follows the end, not even the pass the generator lists for perft's sake.
        prop_assert_eq!(last.check_move(Move::PASS), Err(yolah_core::IllegalMove::GameOver));
        last.play(Move::PASS);
        prop_assert_eq!(last.moves().to_vec(), vec![Move::PASS]);
        prop_assert!(last.outcome().is_some());
    }

    /// `check_move` accepts exactly the generated moves, among all 4,096 (from, to) pairs,
    /// before the end of the game (and none after it).
    #[test]
    fn check_move_agrees_with_generation(seed in any::<u64>()) {
        for position in random_game(seed).into_iter().step_by(5) {
            let legal = if position.game_over() { MoveList::new() } else { position.moves() };
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    prop_assert_eq!(
                        position.check_move(m).is_ok(),
                        legal.contains(&m),
                        "{} {} {:?}", position, m, position.check_move(m)
                    );
                }
            }
        }
    }

    /// `random_move` only plays legal moves.
    #[test]
    fn random_move_is_legal(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed ^ 1);
        for position in random_game(seed) {
            let m = position.random_move(&mut rng);
            prop_assert!(position.moves().contains(&m), "{} {}", position, m);
        }
    }

    /// The `pdep` path and the portable path of `Bitboard::nth` agree.
    #[test]
    fn nth_paths_agree(bits in any::<u64>()) {
        let b = Bitboard(bits);
        for n in 0..b.count() {
            let expected = b.squares().nth(n as usize).unwrap();
            prop_assert_eq!(b.nth_portable(n), expected);
            #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
            prop_assert_eq!(b.nth_pdep(n), expected);
            prop_assert_eq!(b.nth(n), expected);
        }
    }
}

/// Every square, every relevant occupancy (107,648 cases): the magic lookup equals the slow
/// slide, with edge squares occupied or not.
#[test]
fn magic_lookup_is_exact_for_every_occupancy() {
    for from in Square::all() {
        let edges = Bitboard(0xff00_0000_0000_00ff | 0x8181_8181_8181_8181);
        for slider in Slider::ALL {
            for occupied in subsets(slider.relevant_mask(from)) {
                for extra in [Bitboard::EMPTY, edges & !Bitboard::from_square(from)] {
                    let blockers = occupied | extra;
                    let expected = Slider::Orthogonal.reachable(from, blockers)
                        | Slider::Diagonal.reachable(from, blockers);
                    assert_eq!(attacks(from, blockers), expected, "{from} {blockers:?}");
                }
            }
        }
    }
}

#[test]
fn start_position_has_the_books_56_moves() {
    let moves: Vec<String> = Position::start()
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves.len(), 56);
    // The book's listing 27 prints them; a sample from each piece.
    for m in ["a1:a7", "e4:h7", "d5:g8", "h8:b8"] {
        assert!(moves.contains(&m.to_owned()), "{m}");
    }
}

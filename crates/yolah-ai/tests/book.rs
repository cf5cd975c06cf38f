//! The opening book compiled in from `tables/book.rs`: what the generator writes, complete
//! along its lines, every move legal, found through every symmetry, played by minimax.

use yolah_ai::Spec;
use yolah_ai::book::{self, walk};
use yolah_core::{Move, Position, Symmetry};

#[test]
fn the_file_is_what_the_generator_writes() {
    let entries: Vec<_> = book::entries().collect();
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/book.rs"));
    assert_eq!(book::source(&book::settings(), &entries), text);
}

#[test]
fn every_position_on_the_books_lines_has_a_legal_move_and_nothing_else_is_in_it() {
    let settings = book::settings();
    let entry = book::entry;
    let mut wanted = 0;
    walk::walk(
        &settings,
        |key| entry(key).map(|e| Move::from_raw(e.mv)),
        |ply, key, node| {
            wanted += 1;
            assert_eq!(u32::from(node.position.ply()), ply);
            assert_eq!(book::canonical(&node.position).0, key);
            let found =
                entry(key).unwrap_or_else(|| panic!("{} is not in the book", node.position));
            let mv = Move::from_raw(found.mv);
            assert!(
                node.position.check_move(mv).is_ok(),
                "{mv} is not legal in {}",
                node.position
            );
            assert!(!mv.is_pass());
        },
    )
    .unwrap_or_else(|key| panic!("position {key:#x} has no move"));
    assert_eq!(wanted, book::len());
    if settings.plies > 0 {
        assert!(book::probe(&Position::start()).is_some());
    }
}

#[test]
fn a_position_and_its_images_get_the_same_move_mapped() {
    let mut position = Position::start();
    let Some(found) = book::probe(&position) else {
        return; // an empty book (before the first generation)
    };
    position.play(found.mv);
    // Every reply of the other side is on the book's lines only past its full plies; the
    // book's first reply to the start's book move is there either way (full plies ≥ 1 or not).
    for reply in position.moves().iter().take(5) {
        let mut after = position;
        after.play(*reply);
        let Some(found) = book::probe(&after) else {
            continue;
        };
        for symmetry in Symmetry::ALL {
            let image = symmetry.position(&after);
            let mapped = book::probe(&image).expect("the image is in the book too");
            // The image's move is the move's image, or a move of the same value where the
            // image is itself symmetric.
            let mut one = image;
            one.play(mapped.mv);
            let mut other = image;
            other.play(symmetry.mv(found.mv));
            assert_eq!(book::canonical(&one).0, book::canonical(&other).0);
            assert_eq!(mapped.value, found.value);
        }
    }
}

#[test]
fn minimax_plays_the_book_and_says_so_unless_told_not_to() {
    let start = Position::start();
    let Some(found) = book::probe(&start) else {
        return;
    };
    // The book answers timed moves.
    let spec: Spec = "minimax:time=50ms,eval=nn".parse().unwrap();
    let report = spec.agent(1).choose(&start);
    assert!(report.book);
    assert_eq!(report.mv, found.mv);
    assert_eq!(report.nodes, None);
    assert!(report.detail.starts_with("book move"), "{}", report.detail);
    assert_eq!(report.depth, Some(found.depth));
    // Off when told, and by default for other evaluations than the shipped network (the
    // book is its choices); on when told.
    // A depth or a node limit asks for a search.
    for (spec, book) in [
        ("minimax:time=50ms,eval=nn,book=off", false),
        ("minimax:time=50ms", false),
        ("minimax:time=50ms,book=on", true),
        ("minimax:depth=2,eval=nn", false),
        ("minimax:nodes=500,book=on", false),
    ] {
        let report = spec.parse::<Spec>().unwrap().agent(1).choose(&start);
        assert_eq!(report.book, book, "{spec}");
        assert_eq!(report.nodes.is_some_and(|n| n > 0), !book, "{spec}");
    }
    // Out of the book, minimax searches.
    let mut later = start;
    for _ in 0..=book::settings().plies {
        later.play(later.moves()[0]);
    }
    if book::probe(&later).is_none() {
        let report = "minimax:depth=2"
            .parse::<Spec>()
            .unwrap()
            .agent(1)
            .choose(&later);
        assert!(!report.book);
    }
}

//! The opening book: the first plies' positions with the moves long searches chose for them,
//! compiled into the binary.
//!
//! `cargo xtask gen-book` walks the lines the book covers ([`walk`]), searches each position
//! whose side to move the book plays (the network player, a fixed number of nodes, so the book
//! is reproducible), and writes `tables/book.rs`: a `phf` map (a perfect hash built at compile
//! time) from a position's key to its move. Nothing is built at run time.
//!
//! One entry serves the eight symmetric images of a position: it is stored under the
//! [`canonical`] key (the smallest hash of the eight images), its move in that image's frame,
//! and a lookup maps the move back.

pub mod walk;

use yolah_core::{Move, Position, Symmetry};

/// One entry as the map holds it, in the frame of the canonical image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move ([`Move::raw`]).
    pub mv: u16,
    /// Its value for the side to move, in hundredths of a point of margin, as the search gave it.
    pub value: i16,
    /// The depth of the search's last finished iteration.
    pub depth: u8,
}

/// What a book was built with: the arguments of `cargo xtask gen-book`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Positions before this ply are covered (along the book's lines).
    pub plies: u32,
    /// Before this ply, every move of both sides is followed; after it, only the book's own
    /// moves on its side (and every reply of the other).
    pub full_plies: u32,
    /// Nodes searched per position (the first thread's count, one thread).
    pub nodes: u64,
}

impl Settings {
    /// The player that searches the book's positions: book off, so a new book never copies
    /// the old.
    pub fn spec(&self) -> String {
        format!("minimax:nodes={},eval=nn,book=off", self.nodes)
    }
}

// `SETTINGS` and `BOOK: phf::Map<u64, Entry>`, written by `cargo xtask gen-book`.
include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/book.rs"));

/// A book move for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the position.
    pub mv: Move,
    /// Its value for the side to move, in hundredths of a point of margin.
    pub value: i32,
    /// The depth of the search that chose it.
    pub depth: u32,
}

/// The settings the shipped book was built with.
pub fn settings() -> Settings {
    SETTINGS
}

/// The number of positions in the shipped book (each standing for its symmetric images).
pub fn len() -> usize {
    BOOK.len()
}

/// The entry stored under a [`canonical`] key.
pub fn entry(key: u64) -> Option<Entry> {
    BOOK.get(&key).copied()
}

/// Every entry of the shipped book, by key.
pub fn entries() -> impl Iterator<Item = (u64, Entry)> {
    BOOK.entries().map(|(key, entry)| (*key, *entry))
}

/// The key of `position`'s symmetry class (the smallest hash of its eight images) and the
/// symmetry that maps `position` onto the image with that hash.
pub fn canonical(position: &Position) -> (u64, Symmetry) {
    Symmetry::ALL
        .iter()
        .map(|&symmetry| (symmetry.position(position).hash(), symmetry))
        .min_by_key(|&(hash, _)| hash)
        .expect("eight symmetries")
}

/// The image of `position` whose hash is its [`canonical`] key.
pub fn canonical_position(position: &Position) -> Position {
    canonical(position).1.position(position)
}

/// The book's move for `position`, if the book has the position (or one of its images) and
/// its move is legal there.
pub fn probe(position: &Position) -> Option<BookMove> {
    if position.game_over() {
        return None;
    }
    let (key, symmetry) = canonical(position);
    let entry = BOOK.get(&key)?;
    let mv = symmetry.inverse().mv(Move::from_raw(entry.mv));
    position.check_move(mv).ok()?;
    Some(BookMove {
        mv,
        value: i32::from(entry.value),
        depth: u32::from(entry.depth),
    })
}

/// The text of `tables/book.rs` for these settings and entries, exactly as the generator
/// writes it (entries sorted by key).
pub fn source(settings: &Settings, entries: &[(u64, Entry)]) -> String {
    use std::fmt::Write as _;
    let mut entries = entries.to_vec();
    entries.sort_unstable_by_key(|&(key, _)| key);
    let Settings {
        plies,
        full_plies,
        nodes,
    } = *settings;
    let mut text = format!(
        "// The opening book, {} positions: written by `cargo xtask gen-book --plies {plies} \
         --full-plies {full_plies} --nodes {nodes}`. Do not edit.\n\
         // Key: the canonical hash of a position; move, value and depth from the search of the\n\
         // canonical image (crates/yolah-ai/src/book/mod.rs).\n\
         #[allow(clippy::unreadable_literal)]\n\
         const SETTINGS: Settings = Settings {{ plies: {plies}, full_plies: {full_plies}, nodes: {nodes} }};\n\
         #[allow(clippy::unreadable_literal)]\n\
         static BOOK: phf::Map<u64, Entry> = phf::phf_map! {{\n",
        entries.len()
    );
    for (key, entry) in entries {
        let _ = writeln!(
            text,
            "    {key:#018x}u64 => Entry {{ mv: {}, value: {}, depth: {} }},",
            entry.mv, entry.value, entry.depth
        );
    }
    text.push_str("};\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_images_of_a_position_share_a_key_and_map_the_move_back() {
        let mut position = Position::start();
        for m in ["a1:c3", "h1:f3", "c3:c6"] {
            position.play(m.parse().unwrap());
        }
        let (key, symmetry) = canonical(&position);
        assert_eq!(symmetry.position(&position).hash(), key);
        for image in Symmetry::ALL.map(|s| s.position(&position)) {
            let (image_key, image_symmetry) = canonical(&image);
            assert_eq!(image_key, key);
            assert_eq!(
                image_symmetry.position(&image),
                canonical_position(&position)
            );
        }
    }

    #[test]
    fn the_source_is_sorted_and_says_what_built_it() {
        let settings = Settings {
            plies: 2,
            full_plies: 1,
            nodes: 1000,
        };
        let entry = |mv| Entry {
            mv,
            value: -12,
            depth: 3,
        };
        let text = source(&settings, &[(9, entry(7)), (3, entry(5))]);
        assert!(text.contains("--plies 2 --full-plies 1 --nodes 1000"));
        let three = text
            .find("0x0000000000000003u64 => Entry { mv: 5, value: -12")
            .unwrap();
        let nine = text.find("0x0000000000000009u64").unwrap();
        assert!(three < nine);
    }
}

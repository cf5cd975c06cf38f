//! The positions a book covers, ply by ply.
//!
//! A book plays either side. Before [`Settings::full_plies`] every move of both sides is
//! followed (so games that open with random moves still meet the book); after it, each side's
//! lines follow only the book's move where that side is to move and every reply of the other.
//! A position needs a book move when it lies on a line of its side to move. Positions are kept
//! as their canonical images ([`super::canonical`]), so symmetric lines are walked once.

use super::{Settings, canonical};
use std::collections::BTreeMap;
use yolah_core::{Color, Move, Position};

/// A position on the book's lines, and the sides whose lines reach it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// The canonical image.
    pub position: Position,
    /// Bit 0: black's lines reach it; bit 1: white's.
    sides: u8,
}

impl Node {
    /// Whether the book must have a move here: a line of the side to move reaches it.
    pub fn wanted(&self) -> bool {
        self.sides & side_bit(self.position.side_to_move()) != 0
    }
}

fn side_bit(color: Color) -> u8 {
    1 << color.index()
}

/// The positions of one ply, by canonical key (sorted, so every walk is the same).
pub type Level = BTreeMap<u64, Node>;

/// Ply 0: the start, on both sides' lines.
pub fn first_level() -> Level {
    let start = Position::start();
    let (key, symmetry) = canonical(&start);
    Level::from([(
        key,
        Node {
            position: symmetry.position(&start),
            sides: 0b11,
        },
    )])
}

/// The positions of ply `ply + 1`, from those of `ply` and the book's moves there
/// (`book_move(key)`, in the canonical image's frame; not asked before `full_plies`, where
/// every move is followed). A wanted position without a move is an error naming its key.
pub fn next_level(
    level: &Level,
    ply: u32,
    settings: &Settings,
    book_move: impl Fn(u64) -> Option<Move>,
) -> Result<Level, u64> {
    let mut next = Level::new();
    for (&key, node) in level {
        let position = &node.position;
        if position.game_over() {
            continue;
        }
        let mover = side_bit(position.side_to_move());
        let chosen = if node.wanted() && ply >= settings.full_plies {
            Some(book_move(key).ok_or(key)?)
        } else {
            None
        };
        for &m in &position.moves() {
            let sides = if ply < settings.full_plies {
                0b11
            } else if Some(m) == chosen {
                node.sides
            } else {
                node.sides & !mover
            };
            if sides == 0 {
                continue;
            }
            let mut child = *position;
            child.play(m);
            let (child_key, symmetry) = canonical(&child);
            next.entry(child_key)
                .or_insert(Node {
                    position: symmetry.position(&child),
                    sides: 0,
                })
                .sides |= sides;
        }
    }
    Ok(next)
}

/// Walks the book's lines to `settings.plies`, calling `visit(ply, key, node)` on every
/// wanted position; `book_move` gives the moves of the plies already visited.
pub fn walk(
    settings: &Settings,
    book_move: impl Fn(u64) -> Option<Move>,
    mut visit: impl FnMut(u32, u64, &Node),
) -> Result<(), u64> {
    let mut level = first_level();
    for ply in 0..settings.plies {
        for (&key, node) in &level {
            if node.wanted() {
                visit(ply, key, node);
            }
        }
        if ply + 1 < settings.plies {
            level = next_level(&level, ply, settings, &book_move)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(plies: u32, full_plies: u32) -> Settings {
        Settings {
            plies,
            full_plies,
            nodes: 1,
        }
    }

    /// The first legal move of the canonical image, as a stand-in book.
    fn first_move(levels: &[Level]) -> impl Fn(u64) -> Option<Move> + '_ {
        |key| {
            levels
                .iter()
                .find_map(|level| level.get(&key))
                .map(|node| node.position.moves()[0])
        }
    }

    #[test]
    fn full_plies_follow_every_move_and_later_plies_the_book_side_only() {
        // The start has four symmetries (it maps to itself across both diagonals).
        let zero = first_level();
        let one = next_level(&zero, 0, &settings(3, 1), |_| None).unwrap();
        let children = Position::start().moves().len();
        assert!(one.len() < children && one.len() * 4 >= children);
        assert!(one.values().all(Node::wanted));
        // Ply 1 onwards: black's lines take every white reply, white's only its book move.
        let levels = [zero, one.clone()];
        let two = next_level(&one, 1, &settings(3, 1), first_move(&levels)).unwrap();
        let black_lines = two.values().filter(|n| n.sides & 1 != 0).count();
        let white_lines = two.values().filter(|n| n.sides & 2 != 0).count();
        assert!(white_lines <= one.len());
        assert!(black_lines > 10 * one.len());
        assert!(two.values().all(|n| n.position.ply() == 2));
    }

    #[test]
    fn a_wanted_position_without_a_move_is_named() {
        let zero = first_level();
        let key = *zero.keys().next().unwrap();
        assert_eq!(next_level(&zero, 0, &settings(2, 0), |_| None), Err(key));
        assert!(next_level(&zero, 0, &settings(2, 1), |_| None).is_ok());
    }
}

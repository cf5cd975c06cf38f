//! One game of a PGN file, and what reading and writing share: the tag values' escaping.

use yolah_core::{Move, Position};

/// The `forfeit` of a record whose loser resigned (the board's games): PGN's `Termination` is
/// then `normal`, as in chess.
pub const RESIGNED: &str = "resigned";

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The position it starts from (the `FEN` tag, or the start).
    pub start: Position,
    /// Its moves, checked legal.
    pub moves: Vec<Move>,
    /// The result token at its end (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// The position after every move.
    pub fn end(&self) -> Position {
        let mut position = self.start;
        for &m in &self.moves {
            position.play(m);
        }
        position
    }
}

/// The value of tag `name` among `tags`.
pub(super) fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Escapes a tag value: `\` and `"` get a backslash, control characters become spaces.
pub(super) fn escape(value: &str) -> String {
    let mut text = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                text.push('\\');
                text.push(c);
            }
            c if c.is_control() => text.push(' '),
            c => text.push(c),
        }
    }
    text
}

//! A position drawn as SVG, for notebooks (`Position._repr_svg_`): 8 × 8 squares of 40 px,
//! rank 8 at the top as `yolah show` prints it.

use std::fmt::Write as _;
use yolah_core::{Cell, Color, Position, Square};

const SIDE: u32 = 40;
const MARGIN: u32 = 20;

/// The SVG text of `position`.
pub fn board(position: &Position) -> String {
    let size = 8 * SIDE + 2 * MARGIN;
    let targets: Vec<Square> = if position.game_over() {
        Vec::new()
    } else {
        position
            .moves()
            .iter()
            .filter(|m| !m.is_pass())
            .map(|m| m.to())
            .collect()
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" \
         viewBox=\"0 0 {size} {size}\" font-family=\"sans-serif\" font-size=\"12\">\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#f4f1ea\"/>"
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let square = Square::from_coords(file as i8, rank as i8).expect("on the board");
            let x = MARGIN + file * SIDE;
            let y = MARGIN + (7 - rank) * SIDE;
            let light = (file + rank) % 2 == 1;
            let fill = match position.cell(square) {
                Cell::Hole => "#3b3b3b",
                _ if light => "#e8d9b5",
                _ => "#b58863",
            };
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SIDE}\" height=\"{SIDE}\" fill=\"{fill}\"/>"
            );
            let (cx, cy) = (x + SIDE / 2, y + SIDE / 2);
            match position.cell(square) {
                Cell::Piece(color) => {
                    let (fill, stroke) = match color {
                        Color::Black => ("#111", "#eee"),
                        Color::White => ("#fafafa", "#222"),
                    };
                    let _ = write!(
                        svg,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"14\" fill=\"{fill}\" \
                         stroke=\"{stroke}\" stroke-width=\"2\"/>"
                    );
                }
                Cell::Empty if targets.contains(&square) => {
                    let _ = write!(
                        svg,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"5\" fill=\"#2a6\" opacity=\"0.7\"/>"
                    );
                }
                _ => {}
            }
        }
    }
    for i in 0..8u32 {
        let file = char::from(b'a' + i as u8);
        let rank = 8 - i;
        let c = MARGIN + i * SIDE + SIDE / 2;
        let _ = write!(
            svg,
            "<text x=\"{c}\" y=\"{}\" text-anchor=\"middle\">{file}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{rank}</text>",
            size - 5,
            MARGIN / 2,
            c + 4
        );
    }
    svg.push_str("</svg>");
    svg
}

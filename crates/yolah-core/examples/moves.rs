//! The legal moves of a position, given in our notation or the start.
//!
//! `cargo run -p yolah-core --example moves -- "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0"`

use yolah_core::{Diagram, Position};

fn main() {
    let position = match std::env::args().nth(1) {
        Some(text) => match text.parse::<Position>() {
            Ok(position) => position,
            Err(error) => {
                eprintln!("error: {error}");
                std::process::exit(2);
            }
        },
        None => Position::start(),
    };
    println!("{}", Diagram::new(&position));
    let moves = position.moves();
    println!("{} moves for {}:", moves.len(), position.side_to_move());
    for m in &moves {
        print!("{m} ");
    }
    println!();
}

//! Asks a player for its move in a position: a spec (as the command line's `yolah think`
//! takes it) and a position in our notation, both optional.
//!
//! `cargo run --release -p yolah-ai --example ask_a_player -- "minimax:eval=nn,time=200ms"`

use yolah_ai::Spec;
use yolah_core::Position;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "minimax:depth=6".to_string());
    let spec: Spec = spec
        .parse()
        .unwrap_or_else(|error| fail(&format!("{error}")));
    let position = match args.next() {
        Some(text) => text
            .parse::<Position>()
            .unwrap_or_else(|error| fail(&format!("{error}"))),
        None => Position::start(),
    };
    if position.game_over() {
        fail("the game is over in that position");
    }
    let report = spec.agent(1).choose(&position);
    println!("{spec} plays {} in {position}", report.mv);
    if let Some(value) = report.value {
        println!("its expected score: {value:.3} (0 a loss, 1 a win)");
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
}

//! One random game from the start, move by move, with its seed.
//!
//! `cargo run -p yolah-core --example random_game -- 7`

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_core::Position;

fn main() {
    let seed: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 1,
        Some(Ok(seed)) => seed,
        Some(Err(_)) => {
            eprintln!("error: the seed is a whole number from 0 to {}", u64::MAX);
            std::process::exit(2);
        }
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::start();
    let mut moves = Vec::new();
    while !position.game_over() {
        let m = position.random_move(&mut rng);
        position.play(m);
        moves.push(m.to_string());
    }
    println!("{}", moves.join(" "));
    println!("{position}");
    println!("{:?}", position.outcome().expect("the game is over"));
}

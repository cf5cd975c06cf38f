//! A short match from Rust: two players, a few games in colour pairs (each random opening
//! played once with each side), the score of the first.
//!
//! `cargo run --release -p yolah-ai --example short_match -- 4`

use yolah_ai::Spec;
use yolah_ai::arena::game::play_game;
use yolah_ai::arena::opening::random_opening;
use yolah_core::Outcome;

fn main() {
    let pairs: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 2,
        Some(Ok(pairs @ 1..=100)) => pairs,
        Some(_) => {
            eprintln!("error: the number of colour pairs is a whole number from 1 to 100");
            std::process::exit(2);
        }
    };
    let first: Spec = "minimax:depth=3".parse().expect("a valid spec");
    let second: Spec = "mcts:iterations=300".parse().expect("a valid spec");
    let mut half_points = 0;
    for pair in 0..pairs {
        let opening = random_opening(4, pair);
        for first_is_black in [true, false] {
            let (mut a, mut b) = (first.agent(2 * pair), second.agent(2 * pair + 1));
            let (black, white) = if first_is_black {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let game = play_game(black, white, &opening, |_, _| {});
            let color = if first_is_black {
                yolah_core::Color::Black
            } else {
                yolah_core::Color::White
            };
            half_points += game.outcome.half_points(color);
            let result = match game.outcome {
                Outcome::Draw => "draw".to_string(),
                Outcome::Win(winner) => format!("{winner} wins"),
            };
            println!(
                "pair {pair}, {first} as {color}: {} to {}, {result}",
                game.scores[0], game.scores[1]
            );
        }
    }
    println!(
        "{first} scored {:.1} of {} against {second}",
        f64::from(half_points) / 2.0,
        2 * pairs
    );
}

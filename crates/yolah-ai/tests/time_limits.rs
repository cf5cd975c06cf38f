//! A player given t per move never takes more than t + 5 ms, counted from the call to the
//! return, thread start-up and tree upkeep included. One test alone in its binary, so no other
//! test competes for the two cores while it measures.

use std::time::{Duration, Instant};
use yolah_ai::Spec;
use yolah_ai::arena::opening::random_opening;
use yolah_core::Position;

const GRACE: Duration = Duration::from_millis(5);

#[test]
fn time_limits_are_honoured() {
    let specs = [
        ("montecarlo:time=20ms", 20),
        ("montecarlo:time=20ms,threads=2", 20),
        ("mcts:time=20ms", 20),
        ("mcts:time=20ms,threads=2", 20),
        ("mcts:time=3ms", 3),
        ("mcts:time=60ms", 60),
        ("minimax:time=20ms", 20),
        ("minimax:time=20ms,threads=2", 20),
        ("minimax:time=3ms", 3),
    ];
    for (text, ms) in specs {
        let spec: Spec = text.parse().unwrap();
        let limit = Duration::from_millis(ms) + GRACE;
        let mut agent = spec.agent(1);
        let mut opponent = "random".parse::<Spec>().unwrap().agent(2);
        // Whole games, so that tree reuse, passes and the end are all timed.
        let games = if ms >= 50 { 1 } else { 3 };
        let mut longest = Duration::ZERO;
        let mut moves = 0;
        for game in 0..games {
            let mut position = Position::start();
            for &m in &random_opening(2, game) {
                position.play(m);
            }
            while !position.game_over() {
                let mv = if position.side_to_move() == yolah_core::Color::Black {
                    let start = Instant::now();
                    let report = agent.choose(&position);
                    let took = start.elapsed();
                    assert!(
                        took <= limit,
                        "{text}: {took:?} > {limit:?} at {position} ({report})"
                    );
                    assert!(report.time <= took);
                    longest = longest.max(took);
                    moves += 1;
                    report.mv
                } else {
                    opponent.choose(&position).mv
                };
                position.play(mv);
            }
        }
        eprintln!("{text}: longest of {moves} moves {longest:?}");
        // The time is used, not wasted: the longest move is close to the limit.
        assert!(
            longest >= Duration::from_millis(ms) * 3 / 4,
            "{text}: {longest:?}"
        );
    }
}

//! A player given t per move takes at most t + 5 ms, counted from the call to the return,
//! thread start-up and tree upkeep included. One test alone in its binary, so no other test
//! competes for the two cores while it measures. The machines are shared: a thread the system
//! deschedules for a while can make one move late whatever the player does, so one late move in
//! fifty is forgiven (a player that ignores its clock at some stage of the game is late on many),
//! and even that one must stay under twice the limit plus 30 ms. A search on every core waits
//! for its slowest thread, and on a busy machine one of them is often descheduled for a time
//! slice: multi-threaded players are forgiven one late move in ten (seen in CI: 4 of 95 moves
//! of `mcts:time=20ms,threads=2` at 27–43 ms while other work ran).

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
        ("minimax:time=20ms,eval=nn", 20),
        // More threads than cores: capped at the cores, so the promise holds.
        ("mcts:time=20ms,threads=64", 20),
        ("montecarlo:time=20ms,threads=256", 20),
        ("minimax:time=20ms,threads=64", 20),
    ];
    for (text, ms) in specs {
        let spec: Spec = text.parse().unwrap();
        let limit = Duration::from_millis(ms) + GRACE;
        let mut agent = spec.agent(1);
        let mut opponent = "random".parse::<Spec>().unwrap().agent(2);
        // Whole games, so that tree reuse, passes and the end are all timed.
        let games = if ms >= 50 { 1 } else { 3 };
        let mut longest = Duration::ZERO;
        let mut moves: usize = 0;
        let mut late = Vec::new();
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
                        took <= limit * 2 + Duration::from_millis(20),
                        "{text}: {took:?}, far over {limit:?}, at {position} ({report})"
                    );
                    if took > limit {
                        late.push(format!("{took:?} at {position} ({report})"));
                    }
                    assert!(report.time <= took);
                    longest = longest.max(took.min(limit));
                    moves += 1;
                    report.mv
                } else {
                    opponent.choose(&position).mv
                };
                position.play(mv);
            }
        }
        eprintln!(
            "{text}: longest of {moves} moves {longest:?}, {} over {limit:?}",
            late.len()
        );
        let forgiven = if text.contains("threads=") {
            moves.div_ceil(10)
        } else {
            moves.div_ceil(50)
        };
        assert!(
            late.len() <= forgiven,
            "{text}: {} of {moves} moves over {limit:?}:\n{}",
            late.len(),
            late.join("\n")
        );
        // The time is used, not wasted: the longest move is close to the limit.
        assert!(
            longest >= Duration::from_millis(ms) * 3 / 4,
            "{text}: {longest:?}"
        );
    }
}

//! A player given t per move takes at most t + 5 ms, counted from the call to the return,
//! thread start-up and tree upkeep included, less only the time the system kept the calling
//! thread off the CPU while it was ready to run (the kernel's own accounting of that thread,
//! `/proc/thread-self/schedstat`). So the verdict is the player's, not the machine's: the test
//! runs with a busy thread per core of its own making, as a loaded laptop or CI machine would,
//! and a multi-threaded search must answer without waiting for a helper the system has
//! descheduled. A player that ignores its clock computes past it on the CPU and still fails.
//! One test alone in its binary, so no other test competes for the cores while it measures.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use yolah_ai::arena::opening::random_opening;
use yolah_ai::{Forfeit, Limits, Player, Report, Spec};
use yolah_core::Position;

const GRACE: Duration = Duration::from_millis(5);

/// Field `field` of the calling thread's scheduler statistics: 0, the time it has run on a
/// CPU; 1, the time it has waited, ready to run, for one.
fn schedstat(field: usize) -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("the kernel accounts for its threads");
    let nanos: u64 = stat
        .split_whitespace()
        .nth(field)
        .and_then(|n| n.parse().ok())
        .expect("schedstat: cpu time, run delay, slices");
    Duration::from_nanos(nanos)
}

/// How long the calling thread has waited, ready to run, for a CPU since it started.
fn run_delay() -> Duration {
    schedstat(1)
}

/// What one player's moves came to.
struct Verdict {
    moves: usize,
    /// Moves over the limit by more than the time the system kept the thread waiting.
    late: Vec<String>,
    /// The longest move, wall time, capped at the limit.
    longest: Duration,
}

/// Plays `games` whole games (tree reuse, passes and the end all timed) of `player` against
/// random, judging each of its moves against `limit`.
fn judge(player: &mut dyn Player, limits: Limits, limit: Duration, games: u64) -> Verdict {
    let mut opponent = "random".parse::<Spec>().unwrap().agent(2);
    let mut verdict = Verdict {
        moves: 0,
        late: Vec::new(),
        longest: Duration::ZERO,
    };
    for game in 0..games {
        let mut position = Position::start();
        for &m in &random_opening(2, game) {
            position.play(m);
        }
        while !position.game_over() {
            let mv = if position.side_to_move() == yolah_core::Color::Black {
                let waited = run_delay();
                let start = Instant::now();
                let report: Report = player.choose(&position, limits);
                let took = start.elapsed();
                let descheduled = run_delay().saturating_sub(waited);
                if took.saturating_sub(descheduled) > limit {
                    verdict.late.push(format!(
                        "{took:?} ({descheduled:?} descheduled) at {position} ({report})"
                    ));
                }
                assert!(report.time <= took);
                verdict.longest = verdict.longest.max(took.min(limit));
                verdict.moves += 1;
                report.mv
            } else {
                opponent.choose(&position).mv
            };
            position.play(mv);
        }
    }
    verdict
}

/// A player that ignores its clock: it computes for four times its time, on the CPU (so a
/// loaded machine, which stretches its wall time but not its work, cannot hide it).
struct Ignorant;

impl Player for Ignorant {
    fn think(
        &mut self,
        position: &Position,
        limits: Limits,
        _progress: &mut (dyn FnMut(&Report) + Send),
    ) -> Result<Report, Forfeit> {
        let start = Instant::now();
        let until = schedstat(0) + limits.time.unwrap() * 4;
        let mut spins = 0u64;
        while schedstat(0) < until {
            spins = std::hint::black_box(spins + 1);
        }
        Ok(Report::new(position.moves()[0], start.elapsed()))
    }
}

#[test]
fn time_limits_are_honoured_on_a_busy_machine() {
    // A busy thread per core for the whole test.
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let busy: Vec<_> = (0..cores)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut spins = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    spins = std::hint::black_box(spins + 1);
                }
            })
        })
        .collect();

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
        let mut player = spec.player(1);
        let games = if ms >= 50 { 1 } else { 3 };
        let verdict = judge(player.as_mut(), spec.limits(), limit, games);
        eprintln!(
            "{text}: longest of {} moves {:?}, {} over {limit:?} on the CPU",
            verdict.moves,
            verdict.longest,
            verdict.late.len()
        );
        // One move in fifty may meet what no accounting shows (a page fault on first touch).
        assert!(
            verdict.late.len() <= verdict.moves.div_ceil(50),
            "{text}: {} of {} moves over {limit:?}:\n{}",
            verdict.late.len(),
            verdict.moves,
            verdict.late.join("\n")
        );
        // The time is used, not wasted: the longest move is close to the limit.
        assert!(
            verdict.longest >= Duration::from_millis(ms) * 3 / 4,
            "{text}: {:?}",
            verdict.longest
        );
    }

    // The judge has teeth: a player that ignores its clock fails it on every move.
    let limits = Limits {
        time: Some(Duration::from_millis(10)),
        ..Limits::default()
    };
    let verdict = judge(&mut Ignorant, limits, Duration::from_millis(10) + GRACE, 1);
    assert!(
        verdict.late.len() * 10 >= verdict.moves * 9,
        "{} of {} moves judged late",
        verdict.late.len(),
        verdict.moves
    );

    stop.store(true, Ordering::Relaxed);
    for thread in busy {
        thread.join().unwrap();
    }
}

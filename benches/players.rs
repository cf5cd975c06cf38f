//! Player benchmarks: Monte Carlo playouts per second and MCTS iterations per second, on one
//! and two threads, from the start and from a middle-game position. Criterion's throughput is
//! the rate (elements = playouts or iterations).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use yolah_ai::Spec;
use yolah_core::Position;

/// Iterations per search: long enough that thread start-up is noise.
const ITERATIONS: u64 = 20_000;

fn positions() -> [(&'static str, Position); 2] {
    [
        ("start", Position::start()),
        (
            "middle",
            // 16 plies into a game: the searches see shorter playouts and fewer moves.
            "x1xx2xx/8/1b2wx1b/3xxx2/1w1xxw1x/2b5/2xw4/xx2b2x b 8 8 16"
                .parse()
                .expect("a valid position"),
        ),
    ]
}

fn search(c: &mut Criterion, player: &str) {
    let mut group = c.benchmark_group(player);
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(20);
    for (name, position) in positions() {
        for threads in [1, 2] {
            let spec: Spec = format!("{player}:iterations={ITERATIONS},threads={threads}")
                .parse()
                .expect("a valid spec");
            // A fresh player each time: MCTS would otherwise keep growing one tree.
            group.bench_function(format!("{name}/threads={threads}"), |b| {
                b.iter_batched(
                    || spec.agent(1),
                    |mut agent| agent.choose(&position).mv,
                    BatchSize::LargeInput,
                );
            });
        }
    }
    group.finish();
}

fn montecarlo(c: &mut Criterion) {
    search(c, "montecarlo");
}

fn mcts(c: &mut Criterion) {
    search(c, "mcts");
}

criterion_group!(benches, montecarlo, mcts);
criterion_main!(benches);

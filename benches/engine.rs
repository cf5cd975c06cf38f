//! Engine benchmarks: move generation, random games, perft, play/undo vs copy-restore.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::hint::black_box;
use yolah_benches::sample_positions;
use yolah_core::random_games::{CHUNK, Path, random_games_on};
use yolah_core::{Playout, Position, perft};

fn movegen(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).moves().len())
                .sum::<usize>()
        });
    });
    group.bench_function("count_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_moves(p.side_to_move()))
                .sum::<u32>()
        });
    });
    group.bench_function("random_move", |b| {
        let mut rng = SmallRng::seed_from_u64(1);
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).random_move(&mut rng).raw())
                .fold(0, u16::wrapping_add)
        });
    });
    group.finish();
}

fn random_game(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    // The book's path: draw a move, play it, test for game over, every ply.
    group.bench_function("random_move+play", |b| {
        let mut rng = SmallRng::seed_from_u64(2);
        b.iter(|| {
            let mut position = Position::start();
            while !position.game_over() {
                position.play(position.random_move(&mut rng));
            }
            black_box(position.outcome())
        });
    });
    // The book's slower path: build the move list, pick one.
    group.bench_function("moves+play", |b| {
        let mut rng = SmallRng::seed_from_u64(3);
        b.iter(|| {
            let mut position = Position::start();
            while !position.game_over() {
                let moves = position.moves();
                position.play(moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]);
            }
            black_box(position.outcome())
        });
    });
    group.bench_function("playout", |b| {
        let mut rng = SmallRng::seed_from_u64(4);
        let start = Playout::new(&Position::start());
        b.iter(|| black_box(start.clone().run(&mut rng)));
    });
    group.finish();
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(CHUNK));
    // One chunk on one thread, on each path this CPU runs: four playouts interleaved in
    // scalar registers, four to an AVX2 register, eight to an AVX-512 one.
    for path in Path::ALL {
        if !path.available() {
            continue;
        }
        group.bench_function(format!("chunk_{}", path.name()), |b| {
            let pool = rayon_single();
            b.iter(|| pool.install(|| black_box(random_games_on(path, CHUNK, 5, &|_| {}))));
        });
    }
    group.finish();
}

fn rayon_single() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one thread")
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(8_655_628));
    group.sample_size(20);
    group.bench_function("perft4", |b| {
        b.iter(|| perft(&mut Position::start(), black_box(4)));
    });
    group.finish();
}

/// Book listing 24: the same tree walk with undo or with a saved copy.
fn undo_vs_restore(c: &mut Criterion) {
    fn with_undo(position: &mut Position, depth: u32) -> u64 {
        if depth == 0 || position.game_over() {
            return 1;
        }
        let mut count = 0;
        for &m in &position.moves() {
            position.play(m);
            count += with_undo(position, depth - 1);
            position.undo(m);
        }
        count
    }
    fn with_restore(position: &mut Position, depth: u32) -> u64 {
        if depth == 0 || position.game_over() {
            return 1;
        }
        let mut count = 0;
        let saved = *position;
        for &m in &position.moves() {
            position.play(m);
            count += with_restore(position, depth - 1);
            *position = saved;
        }
        count
    }
    let mut group = c.benchmark_group("tree_walk_depth3");
    group.throughput(Throughput::Elements(164_512));
    group.bench_function("play_undo", |b| {
        b.iter_batched(
            Position::start,
            |mut p| with_undo(&mut p, 3),
            BatchSize::SmallInput,
        );
    });
    group.bench_function("copy_restore", |b| {
        b.iter_batched(
            Position::start,
            |mut p| with_restore(&mut p, 3),
            BatchSize::SmallInput,
        );
    });
    group.finish();
}

criterion_group!(benches, movegen, random_game, perft4, undo_vs_restore);
criterion_main!(benches);

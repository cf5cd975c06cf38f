//! The minimax player's costs: the evaluation (features and weights) per position, and the
//! search's nodes per second on the bench positions (depth 6, one thread, fresh table).
//! Criterion's throughput is positions evaluated, or nodes searched.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use yolah_ai::Limits;
use yolah_ai::eval::{Features, Weights};
use yolah_ai::players::minimax::Minimax;
use yolah_ai::search::bench;

fn evaluation(c: &mut Criterion) {
    let positions = bench::positions();
    let weights = Weights::tuned();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("features", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| Features::of(black_box(p)).values[0])
                .sum::<i32>()
        });
    });
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| weights.evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
    group.bench_function("count_moves (for scale)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_moves(p.side_to_move()))
                .sum::<u32>()
        });
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    let positions = bench::positions();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut player = Minimax::new(Weights::tuned(), 16, 1);
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            player.clear();
            player.search(p, limits).nodes
        })
        .sum();
    let mut group = c.benchmark_group("minimax");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("bench positions, depth 6", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    player.clear();
                    player.search(p, limits).nodes
                })
                .sum::<u64>()
        });
    });
    group.finish();
}

criterion_group!(benches, evaluation, search);
criterion_main!(benches);

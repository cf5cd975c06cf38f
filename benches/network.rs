//! The network evaluation's costs (`docs/network-format.md`), next to the heuristic's, for
//! the shipped network and for networks of each first-layer size the inference runs (128,
//! 256, 512, 1024 units; random weights, which cost what trained ones do): evaluating with a
//! kept accumulator (what the search does), recomputing the accumulator first, the float
//! reference, the accumulator's update by a move and its undo against recomputing it, and
//! the search's nodes per second; and the `alphazero` player's network, in floats and in bytes.
//! Throughput: positions (or moves, or nodes) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::sync::Arc;
use yolah_ai::Limits;
use yolah_ai::eval::network::{Parameters, Shape, max_second_weight};
use yolah_ai::eval::{Network, Weights};
use yolah_ai::players::minimax::Minimax;
use yolah_ai::search::bench;

/// The first-layer sizes measured besides the shipped network's.
const SIZES: [usize; 4] = [128, 256, 512, 1024];

/// A network of `hidden` first-layer units (second layer 32, the features on) with random
/// weights within the limits the inference holds.
fn random_network(hidden: usize, seed: u64) -> Arc<Network> {
    let shape = Shape {
        hidden,
        second: 32,
        ..Shape::V1
    };
    let mut p = Parameters::zeros(shape);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut fill = |v: &mut [f32], bound: f32| {
        for x in v {
            *x = rng.random_range(-bound..bound);
        }
    };
    fill(&mut p.input, 0.2);
    fill(&mut p.bias1, 0.2);
    for s in &mut p.stacks {
        fill(&mut s.hidden, max_second_weight(hidden).min(1.0) / 4.0);
        fill(&mut s.dense, 0.1);
        fill(&mut s.output, 0.5);
        fill(&mut s.skip, 0.5);
    }
    Arc::new(Network::new(p))
}

fn evaluation(c: &mut Criterion) {
    let positions = bench::positions();
    let weights = Weights::tuned();
    let network = Network::shipped();
    let accumulators: Vec<_> = positions.iter().map(|p| network.accumulator(p)).collect();
    let mut group = c.benchmark_group("network");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("heuristic evaluate", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| weights.evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
    group.bench_function("network evaluate (kept accumulator)", |b| {
        b.iter(|| {
            positions
                .iter()
                .zip(&accumulators)
                .map(|(p, acc)| network.evaluate(black_box(acc), black_box(p)))
                .sum::<i32>()
        });
    });
    group.bench_function("network evaluate (accumulator recomputed)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| network.evaluate(&network.accumulator(black_box(p)), p))
                .sum::<i32>()
        });
    });
    group.bench_function("float reference forward", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| network.parameters().forward(black_box(p)))
                .sum::<f32>()
        });
    });
    for hidden in SIZES {
        let sized = random_network(hidden, 1);
        let accumulators: Vec<_> = positions.iter().map(|p| sized.accumulator(p)).collect();
        group.bench_function(format!("{hidden} units evaluate (kept accumulator)"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .zip(&accumulators)
                    .map(|(p, acc)| sized.evaluate(black_box(acc), black_box(p)))
                    .sum::<i32>()
            });
        });
    }
    group.finish();

    // One move on the accumulator (from the parent's into the child's, as the search's lazy
    // updates do), against computing it for the new position.
    let moves: Vec<_> = positions
        .iter()
        .filter(|p| !p.game_over())
        .map(|p| (*p, p.moves()[0]))
        .collect();
    let mut group = c.benchmark_group("accumulator");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("played (incremental)", |b| {
        let mut child = accumulators[0].clone();
        b.iter(|| {
            for ((p, m), acc) in moves.iter().zip(&accumulators) {
                network.played(acc, &mut child, p.side_to_move(), black_box(*m));
                black_box(&child);
            }
        });
    });
    group.bench_function("recompute", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|(p, m)| {
                    let mut child = *p;
                    child.play(*m);
                    network.accumulator(black_box(&child))
                })
                .count()
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
    let mut group = c.benchmark_group("minimax nodes/s");
    group.sample_size(10);
    let mut players = vec![
        (
            "heuristic".to_string(),
            Minimax::new(Weights::tuned(), 16, 1),
        ),
        (
            "shipped network".to_string(),
            Minimax::new(Arc::clone(&Network::shipped()), 16, 1),
        ),
    ];
    for hidden in SIZES {
        players.push((
            format!("{hidden} units"),
            Minimax::new(random_network(hidden, 1), 16, 1),
        ));
    }
    for (name, mut player) in players {
        let nodes: u64 = positions
            .iter()
            .map(|p| {
                player.clear();
                player.search(p, limits).nodes
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(&name, |b| {
            b.iter(|| {
                for p in &positions {
                    player.clear();
                    black_box(player.search(p, limits));
                }
            });
        });
    }
    group.finish();
}

/// The `alphazero` player's network, the shipped one, on the bench positions not over: its
/// whole forward pass (priors of the legal moves and value) and the features alone.
fn alphazero(c: &mut Criterion) {
    use yolah_ai::players::alphazero::network::{Activations, mover_features};
    use yolah_ai::players::alphazero::quantized::{Quantized, Scratch};
    let positions: Vec<_> = bench::positions()
        .into_iter()
        .filter(|p| !p.game_over())
        .collect();
    let moves: Vec<_> = positions.iter().map(yolah_core::Position::moves).collect();
    let network = yolah_ai::players::alphazero::player::shipped();
    let mut group = c.benchmark_group("alphazero network");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("forward", |b| {
        let mut act = Activations::default();
        b.iter(|| {
            positions
                .iter()
                .zip(&moves)
                .map(|(p, m)| network.forward(black_box(p), m.as_slice(), &mut act).value)
                .sum::<f32>()
        });
    });
    let quantized = Quantized::new(Arc::clone(&network));
    group.bench_function("forward in bytes", |b| {
        let mut scratch = Scratch::default();
        b.iter(|| {
            positions
                .iter()
                .zip(&moves)
                .map(|(p, m)| {
                    quantized
                        .forward(black_box(p), m.as_slice(), &mut scratch)
                        .value
                })
                .sum::<f32>()
        });
    });
    group.bench_function("features", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| mover_features(black_box(p)).iter().sum::<f32>())
                .sum::<f32>()
        });
    });
    group.finish();
}

criterion_group!(benches, evaluation, search, alphazero);
criterion_main!(benches);

//! The network evaluation's costs (`docs/network-format.md`), next to the heuristic's:
//! evaluating with a kept accumulator (what the search does), recomputing the accumulator
//! first, the float reference, and the accumulator's update by a move and its undo against
//! recomputing it. Throughput: positions (or moves) per second.
//!
//! The issue asked to quantise only if it is faster at equal strength, and to measure both:
//! [`FloatNetwork`] is the unquantised alternative written the way the integer inference is
//! (an `f32` accumulator kept by moves, the same loops for the compiler to vectorise), so the
//! two are compared like for like. It lives here, not in the library: the search runs one
//! inference, the measured winner.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use yolah_ai::Limits;
use yolah_ai::eval::network::{
    BOARD_INPUTS, DENSE, HIDDEN, HIDDEN2, INPUTS, Parameters, active_inputs, dense_inputs, input,
};
use yolah_ai::eval::{Network, Weights};
use yolah_ai::players::minimax::Minimax;
use yolah_ai::search::bench;
use yolah_core::{Color, Move, Position};

/// The network in `f32` throughout, with an incremental accumulator.
struct FloatNetwork {
    input: Vec<[f32; HIDDEN]>,
    bias1: [f32; HIDDEN],
    hidden: Vec<[f32; HIDDEN]>,
    dense: [[f32; HIDDEN2]; DENSE],
    bias2: [f32; HIDDEN2],
    output: [f32; HIDDEN2],
    skip: [f32; DENSE],
    bias3: f32,
}

impl FloatNetwork {
    fn new(p: &Parameters) -> FloatNetwork {
        let rows = |w: &[f32], n: usize| -> Vec<[f32; HIDDEN]> {
            (0..n)
                .map(|i| std::array::from_fn(|h| w[i * HIDDEN + h]))
                .collect()
        };
        FloatNetwork {
            input: rows(&p.input, INPUTS),
            bias1: std::array::from_fn(|h| p.bias1[h]),
            hidden: rows(&p.hidden, HIDDEN2),
            dense: std::array::from_fn(|k| std::array::from_fn(|j| p.dense[j * DENSE + k])),
            bias2: std::array::from_fn(|j| p.bias2[j]),
            output: std::array::from_fn(|j| p.output[j]),
            skip: std::array::from_fn(|k| p.skip[k]),
            bias3: p.bias3,
        }
    }

    fn accumulator(&self, position: &Position) -> [f32; HIDDEN] {
        let mut acc = self.bias1;
        for i in active_inputs(position) {
            acc.iter_mut()
                .zip(&self.input[i])
                .for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// A move (`sign` 1) or its undo (`sign` −1): the piece's square changes and a hole appears.
    fn update(&self, acc: &mut [f32; HIDDEN], mover: Color, m: Move, sign: f32) {
        if m.is_pass() {
            return;
        }
        let (from, to) = (m.from().index(), m.to().index());
        let (old, new, hole) = (
            &self.input[input(mover.index(), from)],
            &self.input[input(mover.index(), to)],
            &self.input[input(2, from)],
        );
        for h in 0..HIDDEN {
            acc[h] += sign * (new[h] + hole[h] - old[h]);
        }
    }

    fn rest_for_black(&self, acc: &[f32; HIDDEN], position: &Position) -> f32 {
        let side = if position.side_to_move() == Color::White {
            &self.input[BOARD_INPUTS]
        } else {
            &[0.0; HIDDEN]
        };
        let h: [f32; HIDDEN] = std::array::from_fn(|i| (acc[i] + side[i]).clamp(0.0, 1.0));
        let dense = dense_inputs(position);
        let mut z = self.bias2;
        for (k, &d) in dense.iter().enumerate() {
            z.iter_mut()
                .zip(&self.dense[k])
                .for_each(|(z, &w)| *z += w * d);
        }
        for (z, row) in z.iter_mut().zip(&self.hidden) {
            // Eight partial sums, so the additions need not run in order and can vectorise.
            let mut lanes = [0.0f32; 8];
            for (w, x) in row.chunks_exact(8).zip(h.chunks_exact(8)) {
                for l in 0..8 {
                    lanes[l] += w[l] * x[l];
                }
            }
            *z += lanes.iter().sum::<f32>();
        }
        let mut out = self.bias3;
        for (&w, &d) in self.skip.iter().zip(&dense) {
            out += w * d;
        }
        for (&w, &z) in self.output.iter().zip(&z) {
            out += w * z.clamp(0.0, 1.0);
        }
        out
    }
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
    let float = FloatNetwork::new(network.parameters());
    let float_accumulators: Vec<_> = positions.iter().map(|p| float.accumulator(p)).collect();
    for (p, acc) in positions.iter().zip(&float_accumulators) {
        let (fast, reference) = (
            float.rest_for_black(acc, p),
            network.parameters().forward(p),
        );
        assert!((fast - reference).abs() < 1e-3, "{fast} vs {reference}");
    }
    group.bench_function("float network evaluate (kept accumulator)", |b| {
        b.iter(|| {
            positions
                .iter()
                .zip(&float_accumulators)
                .map(|(p, acc)| float.rest_for_black(black_box(acc), black_box(p)))
                .sum::<f32>()
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
    group.finish();

    // One move and its undo on the accumulator, against computing it for the new position.
    let moves: Vec<_> = positions
        .iter()
        .filter(|p| !p.game_over())
        .map(|p| (*p, p.moves()[0]))
        .collect();
    let mut group = c.benchmark_group("accumulator");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("play + undo (incremental)", |b| {
        let mut accs = accumulators.clone();
        b.iter(|| {
            for ((p, m), acc) in moves.iter().zip(accs.iter_mut()) {
                network.play(acc, p.side_to_move(), *m);
                network.undo(acc, p.side_to_move(), black_box(*m));
            }
        });
    });
    group.bench_function("float play + undo (incremental)", |b| {
        let mut accs = float_accumulators.clone();
        b.iter(|| {
            for ((p, m), acc) in moves.iter().zip(accs.iter_mut()) {
                float.update(acc, p.side_to_move(), *m, 1.0);
                float.update(acc, p.side_to_move(), black_box(*m), -1.0);
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
    for (name, mut player) in [
        ("heuristic", Minimax::new(Weights::tuned(), 16, 1)),
        (
            "network",
            Minimax::new(Arc::clone(&Network::shipped()), 16, 1),
        ),
    ] {
        let nodes: u64 = positions
            .iter()
            .map(|p| {
                player.clear();
                player.search(p, limits).nodes
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
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

criterion_group!(benches, evaluation, search);
criterion_main!(benches);

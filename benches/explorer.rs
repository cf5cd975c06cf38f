//! The opening explorer's lookup: the moves of a position in a database of
//! over a million (position, move) entries, built in memory from seeded random games, as the
//! board asks it while a person steps through a game. Also the time to open (read and check)
//! such a database from its bytes, which `yolah explorer DB` pays once a query.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::hint::black_box;
use yolah_ai::explorer::{Builder, Explorer};
use yolah_core::{Move, Position};

/// Random games until the database holds over a million entries; returns it, its bytes, and
/// positions to look up (every position of the first 20 games: openings to endings).
fn database() -> (Explorer, Vec<u8>, Vec<Position>) {
    let mut builder = Builder::new();
    let mut asked = Vec::new();
    let mut seed = 0;
    while builder.entries() < 1_000_000 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut position = Position::start();
        let mut moves: Vec<Move> = Vec::new();
        while !position.game_over() {
            if seed < 20 {
                asked.push(position);
            }
            let m = position.random_move(&mut rng);
            moves.push(m);
            position.play(m);
        }
        let outcome = position.outcome().expect("over");
        builder
            .add(&Position::start(), &moves, outcome)
            .expect("legal moves");
        seed += 1;
    }
    let bytes = builder.to_bytes();
    let explorer = Explorer::from_bytes(bytes.clone()).expect("a whole database");
    (explorer, bytes, asked)
}

fn explorer(c: &mut Criterion) {
    let (explorer, bytes, asked) = database();
    eprintln!(
        "explorer: {} entries from {} games ({:.1} MB), {} positions asked",
        explorer.len(),
        explorer.games(),
        bytes.len() as f64 / 1e6,
        asked.len()
    );
    let mut group = c.benchmark_group("explorer");
    group.bench_function("moves of one position (1 M entries)", |b| {
        let mut k = 0;
        b.iter(|| {
            k = (k + 1) % asked.len();
            black_box(explorer.moves(black_box(&asked[k])))
        });
    });
    group.sample_size(10);
    group.bench_function("open from bytes (1 M entries)", |b| {
        b.iter(|| black_box(Explorer::from_bytes(bytes.clone()).expect("whole")));
    });
    group.finish();
}

criterion_group!(benches, explorer);
criterion_main!(benches);

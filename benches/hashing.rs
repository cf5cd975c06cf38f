//! Book listing 10 in Rust terms: the position of the single set bit of a `u64` by a magic
//! perfect hash, `std::collections::HashMap`, `phf::Map` (compile-time perfect hash) and
//! `trailing_zeros` (one instruction).

use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::HashMap;
use std::hint::black_box;

/// The book's K = 6 magic (found with an SMT solver, §2.3.1).
const MAGIC: u64 = 0x0264_3c51_ab9d_fa5b;
const K: u32 = 6;

#[allow(clippy::unreadable_literal)]
static PHF: phf::Map<u64, u8> = phf::phf_map! {
    0x1u64 => 0u8,
    0x2u64 => 1u8,
    0x4u64 => 2u8,
    0x8u64 => 3u8,
    0x10u64 => 4u8,
    0x20u64 => 5u8,
    0x40u64 => 6u8,
    0x80u64 => 7u8,
    0x100u64 => 8u8,
    0x200u64 => 9u8,
    0x400u64 => 10u8,
    0x800u64 => 11u8,
    0x1000u64 => 12u8,
    0x2000u64 => 13u8,
    0x4000u64 => 14u8,
    0x8000u64 => 15u8,
    0x10000u64 => 16u8,
    0x20000u64 => 17u8,
    0x40000u64 => 18u8,
    0x80000u64 => 19u8,
    0x100000u64 => 20u8,
    0x200000u64 => 21u8,
    0x400000u64 => 22u8,
    0x800000u64 => 23u8,
    0x1000000u64 => 24u8,
    0x2000000u64 => 25u8,
    0x4000000u64 => 26u8,
    0x8000000u64 => 27u8,
    0x10000000u64 => 28u8,
    0x20000000u64 => 29u8,
    0x40000000u64 => 30u8,
    0x80000000u64 => 31u8,
    0x100000000u64 => 32u8,
    0x200000000u64 => 33u8,
    0x400000000u64 => 34u8,
    0x800000000u64 => 35u8,
    0x1000000000u64 => 36u8,
    0x2000000000u64 => 37u8,
    0x4000000000u64 => 38u8,
    0x8000000000u64 => 39u8,
    0x10000000000u64 => 40u8,
    0x20000000000u64 => 41u8,
    0x40000000000u64 => 42u8,
    0x80000000000u64 => 43u8,
    0x100000000000u64 => 44u8,
    0x200000000000u64 => 45u8,
    0x400000000000u64 => 46u8,
    0x800000000000u64 => 47u8,
    0x1000000000000u64 => 48u8,
    0x2000000000000u64 => 49u8,
    0x4000000000000u64 => 50u8,
    0x8000000000000u64 => 51u8,
    0x10000000000000u64 => 52u8,
    0x20000000000000u64 => 53u8,
    0x40000000000000u64 => 54u8,
    0x80000000000000u64 => 55u8,
    0x100000000000000u64 => 56u8,
    0x200000000000000u64 => 57u8,
    0x400000000000000u64 => 58u8,
    0x800000000000000u64 => 59u8,
    0x1000000000000000u64 => 60u8,
    0x2000000000000000u64 => 61u8,
    0x4000000000000000u64 => 62u8,
    0x8000000000000000u64 => 63u8,
};

fn magic_index(bit: u64) -> usize {
    (bit.wrapping_mul(MAGIC) >> (64 - K)) as usize
}

fn hashing(c: &mut Criterion) {
    let samples: Vec<u64> = (0..64).map(|i| 1u64 << i).collect();
    // The magic table, checked to be a perfect hash before it is measured.
    let mut table = [u8::MAX; 64];
    for (i, &bit) in samples.iter().enumerate() {
        assert_eq!(
            table[magic_index(bit)],
            u8::MAX,
            "the magic is a perfect hash"
        );
        table[magic_index(bit)] = i as u8;
    }
    let map: HashMap<u64, u8> = samples
        .iter()
        .enumerate()
        .map(|(i, &b)| (b, i as u8))
        .collect();
    for (i, &bit) in samples.iter().enumerate() {
        assert_eq!(usize::from(PHF[&bit]), i);
    }

    let mut group = c.benchmark_group("set_bit_position");
    let mut idx = 0usize;
    let mut next = move || {
        idx = idx.wrapping_add(1);
        samples[idx & 63]
    };
    group.bench_function("magic_perfect_hash", |b| {
        b.iter(|| table[magic_index(black_box(next()))]);
    });
    let mut next2 = next.clone();
    group.bench_function("std_hashmap", |b| b.iter(|| map[&black_box(next2())]));
    let mut next3 = next.clone();
    group.bench_function("phf_map", |b| b.iter(|| PHF[&black_box(next3())]));
    let mut next4 = next.clone();
    group.bench_function("trailing_zeros", |b| {
        b.iter(|| black_box(next4()).trailing_zeros());
    });
    group.finish();
}

criterion_group!(benches, hashing);
criterion_main!(benches);

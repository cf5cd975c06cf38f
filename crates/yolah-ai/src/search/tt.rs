//! The transposition table: what earlier searches learnt of a position, keyed by its Zobrist
//! hash (which covers the pieces, the holes, the side to move and the score split, so a stored
//! value, which counts the final margin, is valid wherever the key matches).
//!
//! Buckets of four entries fill one 64-byte cache line; the number of buckets is a power of
//! two, so the index is the hash's low bits. Each entry is two atomic words, the key stored
//! xored with the data, so threads share the table without locks: a torn write reads as a
//! miss (the lockless hashing of Hyatt and Mann). Replacement keeps deep entries of the
//! current search and gives way to old ones.

use std::sync::atomic::{AtomicU64, Ordering};
use yolah_core::Move;

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is at most this (no move reached alpha).
    Upper = 1,
    /// The value is at least this (a move reached beta).
    Lower = 2,
    /// The value itself.
    Exact = 3,
}

/// The depth stored for a value that no heuristic touched: the whole subtree was searched to
/// the end of the game, so it holds at any depth.
pub const PROVEN: u8 = u8::MAX;

/// One entry read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// Its value for the side to move.
    pub value: i16,
    /// The depth searched ([`PROVEN`] for an exact subtree).
    pub depth: u8,
    /// What the value means.
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        let mv = self.mv.map_or(0, |m| u64::from(m.raw()) | 0x8000);
        mv | u64::from(self.value as u16) << 16
            | u64::from(self.depth) << 32
            | (self.bound as u64) << 40
            | u64::from(self.generation & GENERATION_MASK) << 42
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        let raw = data as u16;
        Some(Entry {
            mv: (raw & 0x8000 != 0).then(|| Move::from_raw(raw & 0x0fff)),
            value: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            bound,
            generation: ((data >> 42) as u8) & GENERATION_MASK,
        })
    }
}

const GENERATION_MASK: u8 = 63;
const BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// The slots one key may use: one cache line, aligned to it, so that a probe reads one line
/// (a plain slice of slots began 16 bytes past a line, and every bucket straddled two).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

/// The table's memory: zeroed buckets from an allocation aligned to 2 MiB and, on Linux,
/// marked for transparent huge pages before it is first written. A probe lands anywhere in
/// the table, and with 4 KiB pages nearly every one also missed the TLB: the prefetch of the
/// child's bucket waited for the page walk (91 % of `Searcher::play`'s samples, 13 % of a
/// network search's, `perf record` on an AMD EPYC with a 16 MiB table).
struct Buckets {
    start: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

/// A huge page's size and the allocation's alignment.
const HUGE_PAGE: usize = 2 << 20;

// SAFETY: the buckets are atomics, which threads share; the memory is owned.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` (at least 1) zeroed buckets: empty slots.
    fn zeroed(len: usize) -> Buckets {
        debug_assert!(len > 0);
        let layout = std::alloc::Layout::from_size_align(len * size_of::<Bucket>(), HUGE_PAGE)
            .expect("a table of at most MAX_MEGABYTES");
        // SAFETY: the layout's size is not 0 (a bucket at least).
        let bytes = unsafe { std::alloc::alloc(layout) };
        let Some(start) = std::ptr::NonNull::new(bytes) else {
            std::alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        // SAFETY: the range is this allocation's; the advice only chooses the pages' size
        // (where the kernel does not take it, the pages stay small).
        unsafe {
            libc::madvise(bytes.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        // SAFETY: the allocation holds `layout.size()` bytes; all zeros is a bucket of empty
        // slots (two zero atomic words each).
        unsafe { bytes.write_bytes(0, layout.size()) };
        Buckets {
            start: start.cast(),
            len,
            layout,
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` buckets, initialised in `zeroed`, live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.start.as_ptr().cast(), self.layout) };
    }
}

/// A shared transposition table.
pub struct Table {
    buckets: Buckets,
    mask: usize,
    generation: std::sync::atomic::AtomicU8,
}

/// The largest table, in MiB.
pub const MAX_MEGABYTES: usize = 16_384;

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two of buckets).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.clamp(1, MAX_MEGABYTES) << 20;
        // The largest power of two that fits (a power of two fits exactly).
        let fit = bytes / size_of::<Bucket>();
        let buckets = 1 << fit.max(1).ilog2();
        Table {
            buckets: Buckets::zeroed(buckets),
            mask: buckets - 1,
            generation: std::sync::atomic::AtomicU8::new(0),
        }
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Marks a new search: entries of earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|bucket| &bucket.0) {
            slot.key.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.buckets[key as usize & self.mask].0
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, for a probe soon after (a hint:
    /// nothing is read).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const Bucket = &raw const self.buckets[key as usize & self.mask];
            // SAFETY: a prefetch reads nothing; the address is a bucket of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What the table holds for `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed);
            (stored ^ data == key)
                .then(|| Entry::unpack(data))
                .flatten()
        })
    }

    /// Stores what a search learnt of `key`. The same position's entry is replaced unless it is
    /// deeper and of this search; otherwise the shallowest, oldest entry of the bucket goes.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, value: i32, depth: u8, bound: Bound) {
        let generation = self.generation();
        let age =
            |entry: &Entry| (generation.wrapping_sub(entry.generation) & GENERATION_MASK) as i32;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        let mut keep_move = None;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed);
            let Some(entry) = Entry::unpack(data) else {
                victim = i;
                break;
            };
            if stored ^ data == key {
                if entry.depth > depth && bound != Bound::Exact && age(&entry) == 0 {
                    return;
                }
                victim = i;
                keep_move = entry.mv;
                break;
            }
            let worth = i32::from(entry.depth) - 8 * age(&entry);
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let entry = Entry {
            mv: mv.or(keep_move),
            value: value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            bound,
            generation,
        };
        let data = entry.pack();
        bucket[victim].key.store(key ^ data, Ordering::Relaxed);
        bucket[victim].data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yolah_core::Square;

    fn mv(from: u8, to: u8) -> Move {
        Move::new(Square::new(from).unwrap(), Square::new(to).unwrap())
    }

    #[test]
    fn a_table_is_the_largest_power_of_two_that_fits() {
        for (megabytes, expected) in [(1, 1), (2, 2), (3, 2), (16, 16), (17, 16), (100, 64)] {
            assert_eq!(
                Table::new(megabytes).bytes(),
                expected << 20,
                "{megabytes} MiB"
            );
        }
    }

    #[test]
    fn a_bucket_is_one_cache_line_on_its_boundary() {
        assert_eq!((size_of::<Bucket>(), align_of::<Bucket>()), (64, 64));
        for megabytes in [1, 16] {
            // On a huge page's boundary, so that the kernel may back it with huge pages.
            let table = Table::new(megabytes);
            assert_eq!(table.buckets.as_ptr() as usize % HUGE_PAGE, 0);
            assert_eq!(table.buckets.len() * 64, megabytes << 20);
            assert!(table.buckets.iter().all(|b| b.0.iter().all(|slot| {
                slot.key.load(Ordering::Relaxed) == 0 && slot.data.load(Ordering::Relaxed) == 0
            })));
        }
        let table = Table::new(1);
        // A prefetch of any key reads nothing and changes nothing.
        table.prefetch(u64::MAX);
        assert_eq!(table.probe(u64::MAX), None);
    }

    #[test]
    fn entries_round_trip() {
        for value in [-32768, -10064, -1, 0, 1, 10064, 32767] {
            for mv in [None, Some(Move::PASS), Some(mv(63, 0)), Some(mv(12, 45))] {
                let entry = Entry {
                    mv,
                    value,
                    depth: 200,
                    bound: Bound::Lower,
                    generation: 63,
                };
                assert_eq!(Entry::unpack(entry.pack()), Some(entry));
            }
        }
    }

    #[test]
    fn store_and_probe() {
        let table = Table::new(1);
        assert!(table.bytes() <= 1 << 20);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(table.probe(key), None);
        table.store(key, Some(mv(1, 2)), -77, 5, Bound::Exact);
        let entry = table.probe(key).unwrap();
        assert_eq!(
            (entry.mv, entry.value, entry.depth),
            (Some(mv(1, 2)), -77, 5)
        );
        // A shallower result of the same search does not overwrite a deeper one ...
        table.store(key, Some(mv(3, 4)), 10, 2, Bound::Lower);
        assert_eq!(table.probe(key).unwrap().depth, 5);
        // ... but does in a later search, keeping the move when it has none.
        table.new_search();
        table.store(key, None, 10, 2, Bound::Lower);
        let entry = table.probe(key).unwrap();
        assert_eq!((entry.mv, entry.depth), (Some(mv(1, 2)), 2));
        // Another key with the same index lands in the same bucket without evicting it.
        let other = key ^ (1 << 60);
        table.store(other, None, 3, 1, Bound::Upper);
        assert!(table.probe(key).is_some() && table.probe(other).is_some());
        table.clear();
        assert_eq!(table.probe(key), None);
    }

    #[test]
    fn a_full_bucket_evicts_its_least_useful_entry() {
        let table = Table::new(1);
        let base = 7u64;
        let keys: Vec<u64> = (0..5).map(|i| base | (i + 1) << 40).collect();
        for (i, &key) in keys.iter().take(4).enumerate() {
            table.store(key, None, 0, 10 + i as u8, Bound::Exact);
        }
        table.store(keys[4], None, 0, 1, Bound::Exact);
        assert_eq!(table.probe(keys[0]), None, "the shallowest entry went");
        assert!(keys[1..].iter().all(|&k| table.probe(k).is_some()));
    }
}

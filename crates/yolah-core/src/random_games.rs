//! Random games (book §2.4.3): many uniformly random games, their results tallied.
//!
//! Games are dealt in fixed chunks, each with its own generator seeded from (seed, chunk), so a
//! seed gives the same tally whatever the number of threads.
//!
//! Three paths ([`Path`]), chosen at run time: on a CPU with AVX-512, eight games in the lanes
//! of its registers, with AVX2 four ([`crate::wide`]); elsewhere the portable path, where [`LANES`] games are
//! played in lockstep, one ply of each in turn. One game is a single chain of dependent steps
//! (table lookups, the draw, the move), so the CPU waits on latency; independent games
//! interleaved give it work to overlap. Same rules, same moves distribution; the paths
//! play different games for the same seed (each is reproducible on its own).

use crate::playout::Playout;
use crate::position::{Outcome, Position};
use crate::tally::Tally;
use crate::wide::Width;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Games played in lockstep by one thread.
pub const LANES: usize = 4;

/// The most games one run plays: about a day on one core.
pub const MAX_GAMES: u64 = 100_000_000_000;

/// Games per chunk: large enough to amortise scheduling, small enough for smooth progress.
pub const CHUNK: u64 = 4096;

/// How random games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Eight games in the lanes of AVX-512 registers ([`crate::wide`]).
    Avx512,
    /// Four games in the lanes of AVX2 registers ([`crate::wide`]).
    Avx2,
    /// [`LANES`] games interleaved in scalar registers: any CPU.
    Portable,
}

impl Path {
    /// Every path, fastest first.
    pub const ALL: [Path; 3] = [Path::Avx512, Path::Avx2, Path::Portable];

    /// The fastest path this CPU runs.
    pub fn best() -> Path {
        Path::ALL
            .into_iter()
            .find(|path| path.available())
            .unwrap_or(Path::Portable)
    }

    /// Its vector registers, if it has them.
    pub fn width(self) -> Option<Width> {
        match self {
            Path::Avx512 => Some(Width::Avx512),
            Path::Avx2 => Some(Width::Avx2),
            Path::Portable => None,
        }
    }

    /// Whether this CPU runs it.
    pub fn available(self) -> bool {
        self.width().is_none_or(Width::available)
    }

    /// Its name: `avx512`, `avx2` or `portable`.
    pub fn name(self) -> &'static str {
        match self {
            Path::Avx512 => "avx512",
            Path::Avx2 => "avx2",
            Path::Portable => "portable",
        }
    }

    /// The path of a name, if it is one.
    pub fn named(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|path| path.name() == name)
    }
}

/// Plays `games` random games from the start on the current rayon pool, on this CPU's best
/// path, calling `progress` with the number of games finished in each chunk as it completes.
///
/// ```
/// use yolah_core::random_games::random_games;
/// let tally = random_games(1_000, 42, &|_| {});
/// assert_eq!(tally.games(), 1_000);
/// assert_eq!(tally, random_games(1_000, 42, &|_| {}));
/// ```
pub fn random_games(games: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    random_games_on(Path::best(), games, seed, progress)
}

/// [`random_games`] on `path`, which this CPU must run ([`Path::available`]).
pub fn random_games_on(
    path: Path,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    assert!(path.available(), "the {} path on this CPU", path.name());
    let chunks = games.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let count = CHUNK.min(games - chunk * CHUNK);
            let seed = chunk_seed(seed, chunk);
            let tally = match path.width() {
                Some(width) => crate::wide::random_games(width, count, seed)
                    .expect("the path was checked to be available"),
                None => play_interleaved(count, &mut SmallRng::seed_from_u64(seed)),
            };
            progress(count);
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// Plays `games` random games from the start, [`LANES`] at a time in lockstep.
fn play_interleaved<R: Rng + ?Sized>(games: u64, rng: &mut R) -> Tally {
    let start = Playout::new(&Position::start());
    let mut tally = Tally::default();
    let mut to_start = games;
    interleaved(
        rng,
        || {
            to_start.checked_sub(1).map(|left| {
                to_start = left;
                ((), start.clone())
            })
        },
        |(), outcome| tally.record(outcome),
    );
    tally
}

/// Plays random games to the end on this CPU's fastest path, on one thread: `next` gives each
/// new game (a tag and the position it starts from) until it returns `None`; `done` gets each
/// result with its tag. Returns when every game given has ended. The vector paths draw from
/// a seed taken from `rng`, the portable one from `rng` itself ([`interleaved`]).
pub fn playouts<T: Copy, R: Rng + ?Sized>(
    rng: &mut R,
    next: &mut dyn FnMut() -> Option<(T, Position)>,
    done: &mut dyn FnMut(T, Outcome),
) {
    if let Some(width) = Width::best() {
        let played = crate::wide::interleaved_on(width, rng.next_u64(), next, done);
        debug_assert!(played, "the best width is available");
    } else {
        interleaved(
            rng,
            || next().map(|(tag, position)| (tag, Playout::new(&position))),
            done,
        );
    }
}

/// Plays random games [`LANES`] at a time in lockstep, on one thread: `next` gives each new
/// game (a tag and its playout) until it returns `None`; `done` gets each result with its tag.
/// Returns when every game given has ended.
pub fn interleaved<T: Copy, R: Rng + ?Sized>(
    rng: &mut R,
    mut next: impl FnMut() -> Option<(T, Playout)>,
    mut done: impl FnMut(T, Outcome),
) {
    let mut lanes: [Option<(T, Playout)>; LANES] = std::array::from_fn(|_| next());
    while lanes.iter().any(Option::is_some) {
        for lane in &mut lanes {
            if let Some((tag, playout)) = lane
                && playout.step(rng).is_none()
            {
                done(*tag, playout.outcome());
                *lane = next();
            }
        }
    }
}

/// Mixes the run's seed with a chunk number.
fn chunk_seed(seed: u64, chunk: u64) -> u64 {
    crate::zobrist::splitmix64(seed ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

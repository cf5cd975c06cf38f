//! Random games in the lanes of vector registers: eight to an AVX-512 register, four to an
//! AVX2 one ([`Width`]), the instruction set chosen at run time.
//!
//! The same algorithm as [`Playout`](crate::Playout), the cached target sets cut by each new
//! obstacle, with every step done for a register of games at once: the side's four target
//! sets chosen by a lane mask and counted lane by lane, the move drawn from a generator per
//! lane (xorshift128+, `⌊r · n / 2³²⌋` from 32 random bits, biased by at most `n / 2³²` ≈
//! 10⁻⁸), the n-th set bit found by `pdep` lane by lane, the four lines through the arrival
//! square computed from its rank and file, each piece's loss cut from the line it shares with
//! the arrival square, and the mover's new targets found by the subtraction trick on the
//! words and their bit-reversed images. No table is read. A lane whose game ends is tallied
//! and starts the next game; no lane waits for another. Two registers of games are in flight
//! (`kernel::GROUPS`) so the CPU overlaps their chains of dependent steps.
//!
//! The step is written once (`kernel`) over the operations it needs; `avx512` and
//! `avx2` supply them. Both play other games than the scalar path for the same seed (and
//! than each other): the tests check that every game each plays is legal move by move, and
//! that its results have the scalar path's distribution.

use crate::tally::Tally;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod kernel;

/// A register's width: the instruction set the games are played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Eight games to an AVX-512 register (F, DQ, BW, VPOPCNTDQ, GFNI, BMI2).
    Avx512,
    /// Four games to an AVX2 register (AVX2, BMI2).
    Avx2,
}

impl Width {
    /// Games in one register.
    pub fn lanes(self) -> usize {
        match self {
            Width::Avx512 => 8,
            Width::Avx2 => 4,
        }
    }

    /// Whether this CPU runs it.
    pub fn available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Width::Avx512 => avx512::available(),
                Width::Avx2 => avx2::available(),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The widest this CPU runs, if any.
    pub fn best() -> Option<Width> {
        [Width::Avx512, Width::Avx2]
            .into_iter()
            .find(|width| width.available())
    }
}

/// Plays `games` random games from the start, a register of them at a time, the generators
/// seeded from `seed`; `None` if this CPU cannot ([`Width::available`]).
pub fn random_games(width: Width, games: u64, seed: u64) -> Option<Tally> {
    play::<false>(width, games, seed, &mut |_| {})
}

/// The games of [`random_games`] move by move (passes included), each with its final scores,
/// for tests; `None` if this CPU cannot.
pub fn traced_games(
    width: Width,
    games: u64,
    seed: u64,
) -> Option<Vec<(Vec<crate::Move>, [u8; 2])>> {
    let mut out = Vec::new();
    play::<true>(width, games, seed, &mut |game| out.push(game))?;
    Some(out)
}

/// Plays random games to the end a register of `width` at a time: `next` gives each new game
/// (a tag and the position it starts from) until it returns `None`, `done` gets each result
/// with its tag; returns when every game given has ended. The generators are seeded from
/// `seed`. `false`, playing nothing, if this CPU cannot ([`Width::available`]); callers that
/// just want the fastest path use [`crate::random_games::playouts`].
pub fn interleaved_on<T: Copy>(
    width: Width,
    seed: u64,
    next: &mut dyn FnMut() -> Option<(T, crate::Position)>,
    done: &mut dyn FnMut(T, crate::Outcome),
) -> bool {
    if !width.available() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has the features each function is compiled for (checked just above).
    unsafe {
        match width {
            Width::Avx512 => avx512::interleaved(seed, next, done),
            Width::Avx2 => avx2::interleaved(seed, next, done),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (seed, next, done);
    true
}

/// Plays `games` games from the start on registers of `width`, tracing them with `TRACE`.
fn play<const TRACE: bool>(
    width: Width,
    games: u64,
    seed: u64,
    traced: &mut dyn FnMut((Vec<crate::Move>, [u8; 2])),
) -> Option<Tally> {
    if !width.available() {
        return None;
    }
    // SAFETY: as in `interleaved_on`.
    #[cfg(target_arch = "x86_64")]
    let tally = unsafe {
        match width {
            Width::Avx512 => avx512::play::<TRACE>(games, seed, traced),
            Width::Avx2 => avx2::play::<TRACE>(games, seed, traced),
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let tally = {
        let _ = (games, seed, traced);
        unreachable!("no width is available off x86-64")
    };
    Some(tally)
}

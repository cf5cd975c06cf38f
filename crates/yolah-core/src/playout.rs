//! `Playout`: a random game played to the end as fast as we know how.
//!
//! A random game only needs the move counts and target sets of the eight pieces. Obstacles only
//! ever grow by one square per move — the arrival square; the departure square was occupied
//! already and stays so as a hole — so the target sets are cached and updated instead of
//! recomputed: a new obstacle at `to` removes, from every piece's set, the squares at and beyond
//! `to` on the ray from that piece through `to` (`BEYOND`, an AND-NOT for each piece, no
//! branch), and only the piece that moved needs a magic lookup. Compared with calling
//! [`Position::random_move`] then [`Position::play`] each ply (8 lookups per ply), this is the
//! difference measured in the README.

use crate::attacks::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::mv::Move;
use crate::position::{Outcome, Position};
use crate::square::Square;
use rand::{Rng, RngExt};

/// `BEYOND[to][from]`: the squares from `to` (included) to the board edge on the ray that
/// starts at `from` and passes through `to`; empty when they share no line. Built at compile
/// time (32 KiB).
pub(crate) static BEYOND: [[u64; 64]; 64] = {
    let mut table = [[0u64; 64]; 64];
    let steps: [(i8, i8); 8] = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, -1),
        (-1, 1),
    ];
    let mut from = 0;
    while from < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = steps[d];
            // Walk the ray; every square `to` on it gets the squares from itself to the edge.
            let (mut f, mut r) = ((from % 8) as i8 + df, (from / 8) as i8 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let to = (r * 8 + f) as usize;
                let (mut g, mut s) = (f, r);
                let mut tail = 0u64;
                while g >= 0 && g < 8 && s >= 0 && s < 8 {
                    tail |= 1 << (s * 8 + g);
                    g += df;
                    s += dr;
                }
                table[to][from] = tail;
                f += df;
                r += dr;
            }
            d += 1;
        }
        from += 1;
    }
    table
};

/// A game being played out at random. Pieces 0–3 are black's, 4–7 white's.
///
/// ```
/// use rand::SeedableRng;
/// use yolah_core::{Playout, Position};
/// let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
/// let outcome = Playout::new(&Position::start()).run(&mut rng);
/// // The same seed plays the same game.
/// let again = Playout::new(&Position::start()).run(&mut rand::rngs::SmallRng::seed_from_u64(7));
/// assert_eq!(outcome, again);
/// ```
#[derive(Clone, Debug)]
pub struct Playout {
    squares: [usize; 8],
    targets: [u64; 8],
    occupied: u64,
    scores: [u8; 2],
    side: usize,
}

impl Playout {
    /// Starts from `position`.
    pub fn new(position: &Position) -> Playout {
        let occupied = position.occupied();
        let mut squares = [0; 8];
        let mut targets = [0; 8];
        for color in Color::ALL {
            for (i, square) in position.pieces(color).squares().enumerate() {
                squares[color.index() * 4 + i] = square.index();
                targets[color.index() * 4 + i] = attacks(square, occupied).0;
            }
        }
        Playout {
            squares,
            targets,
            occupied: occupied.0,
            scores: [position.score(Color::Black), position.score(Color::White)],
            side: position.side_to_move().index(),
        }
    }

    /// Plays one uniformly random legal move (the pass when the side has none) and returns it;
    /// `None`, playing nothing, once the game is over.
    #[inline]
    pub fn step<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Move> {
        let base = self.side * 4;
        let t = [
            self.targets[base],
            self.targets[base + 1],
            self.targets[base + 2],
            self.targets[base + 3],
        ];
        let n0 = t[0].count_ones();
        let n01 = n0 + t[1].count_ones();
        let n012 = n01 + t[2].count_ones();
        let n = n012 + t[3].count_ones();
        if n == 0 {
            let other = (1 - self.side) * 4;
            if self.targets[other..other + 4].iter().all(|&b| b == 0) {
                return None;
            }
            self.side ^= 1;
            return Some(Move::PASS);
        }
        let k = rng.random_range(0..n);
        let piece = usize::from(k >= n0) + usize::from(k >= n01) + usize::from(k >= n012);
        let before = [0, n0, n01, n012][piece];
        let to = Bitboard(t[piece]).nth(k - before);
        let mover = base + piece;
        let from = self.squares[mover];
        self.occupied |= 1 << to.index();
        self.cut(&BEYOND[to.index()]);
        self.squares[mover] = to.index();
        self.targets[mover] = attacks(to, Bitboard(self.occupied)).0;
        self.scores[self.side] += 1;
        self.side ^= 1;
        Some(Move::new(
            Square::new(from as u8).expect("a board square"),
            to,
        ))
    }

    /// `targets[j] &= !cut[squares[j]]` for the eight pieces: one gather with AVX-512.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    #[inline(always)]
    fn cut(&mut self, cut: &[u64; 64]) {
        use std::arch::x86_64::{
            _mm512_andnot_si512, _mm512_i64gather_epi64, _mm512_loadu_si512, _mm512_storeu_si512,
        };
        // SAFETY: AVX-512F is enabled at compile time; the loads and store cover exactly the
        // two 8 x 64-bit arrays; every index in `squares` is a square (< 64), so the gather
        // reads inside `cut`.
        unsafe {
            let index = _mm512_loadu_si512(self.squares.as_ptr().cast());
            let gathered = _mm512_i64gather_epi64::<8>(index, cut.as_ptr().cast());
            let targets = _mm512_loadu_si512(self.targets.as_ptr().cast());
            _mm512_storeu_si512(
                self.targets.as_mut_ptr().cast(),
                _mm512_andnot_si512(gathered, targets),
            );
        }
    }

    /// `targets[j] &= !cut[squares[j]]` for the eight pieces.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    #[inline(always)]
    fn cut(&mut self, cut: &[u64; 64]) {
        for j in 0..8 {
            self.targets[j] &= !cut[self.squares[j]];
        }
    }

    /// Plays random moves until the game is over; returns the result.
    pub fn run<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        while self.step(rng).is_some() {}
        self.outcome()
    }

    /// The squares each piece can move to now, pieces 0–3 black's, 4–7 white's (for tests).
    pub fn targets(&self) -> [Bitboard; 8] {
        self.targets.map(Bitboard)
    }

    /// The result by score; meaningful once [`Playout::step`] has returned `None`.
    pub fn outcome(&self) -> Outcome {
        Outcome::from_scores(self.scores[0], self.scores[1])
    }
}

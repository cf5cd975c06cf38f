//! Random games eight at a time, one in each 64-bit lane of AVX-512 registers.
//!
//! The same algorithm as [`Playout`](crate::Playout), the cached target sets cut by each new
//! obstacle ([`BEYOND`]), with every step done for eight games at once: the side's four
//! target sets chosen by a lane mask, counted with per-lane popcounts, the move drawn from a
//! generator per lane (xorshift128+), the n-th set bit found by a binary search on popcounts
//! (no `pdep` in vector form), the cuts and the moved piece's magic lookup by gathers. A lane
//! whose game ends is tallied and starts the next game; no lane waits for another.
//!
//! It plays other games than the scalar path for the same seed (another generator, and a
//! move drawn as `⌊r · n / 2³²⌋` from 32 random bits, biased by at most `n / 2³²` ≈ 10⁻⁸):
//! the tests check that every game it plays is legal move by move, and that its results have
//! the scalar path's distribution.
//!
//! Used when the CPU has AVX-512 F, DQ and VPOPCNTDQ, checked at run time ([`available`]), so
//! a portable build uses it on such a CPU too.

use crate::random_games::Tally;

/// Games in one register.
pub const LANES: usize = 8;

/// Whether this CPU runs the eight-lane path.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("gfni")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Plays `games` random games from the start, eight at a time, the generators seeded from
/// `seed`; `None` if this CPU cannot ([`available`]).
pub fn random_games(games: u64, seed: u64) -> Option<Tally> {
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: the CPU has the features the kernel is compiled for (checked just above).
        return Some(unsafe { x86::play::<false>(games, seed, &mut |_| {}) });
    }
    let _ = (games, seed);
    None
}

/// The games of [`random_games`] move by move (passes included), each with its final
/// scores, for tests; `None` if this CPU cannot.
pub fn traced_games(games: u64, seed: u64) -> Option<Vec<(Vec<crate::Move>, [u8; 2])>> {
    #[cfg(target_arch = "x86_64")]
    if available() {
        let mut out = Vec::new();
        // SAFETY: as in `random_games`.
        let _ = unsafe { x86::play::<true>(games, seed, &mut |game| out.push(game)) };
        return Some(out);
    }
    let _ = (games, seed);
    None
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{LANES, Tally};
    use crate::{Color, Move, Position, Square, attacks};
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512,
        _mm512_cmpeq_epi64_mask, _mm512_cmpge_epu64_mask, _mm512_cmpgt_epu64_mask,
        _mm512_mask_add_epi64, _mm512_mask_blend_epi64,
        _mm512_mask_or_epi64,
        _mm512_mul_epu32, _mm512_or_si512, _mm512_popcnt_epi64,
        _mm512_set1_epi64, _mm512_setzero_si512, _mm512_slli_epi64, _mm512_sllv_epi64,
        _mm512_srli_epi64, _mm512_srlv_epi64, _mm512_storeu_si512, _mm512_xor_si512,
        _mm512_cmplt_epu64_mask, _mm512_gf2p8affine_epi64_epi8, _mm512_mask_andnot_epi64,
        _mm512_mask_mov_epi64, _mm512_set_epi8, _mm512_shuffle_epi8, _mm512_sub_epi64,
        _mm512_test_epi64_mask,
    };

    /// Eight games, piece `j` of each in lane-wise registers: pieces 0–3 black's, 4–7 white's.
    struct Games {
        squares: [__m512i; 8],
        targets: [__m512i; 8],
        occupied: __m512i,
        scores: [__m512i; 2],
        /// Lanes where white is to move.
        white: __mmask8,
        /// Lanes whose last ply was a pass.
        passed: __mmask8,
        /// Lanes playing a game.
        active: __mmask8,
        /// xorshift128+ state, one generator a lane.
        rng: [__m512i; 2],
        /// Each lane's moves so far (traced runs only).
        moves: Vec<Vec<Move>>,
    }

    /// Every lane the same value.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn splat(x: u64) -> __m512i {
        _mm512_set1_epi64(x.cast_signed())
    }

    /// The lanes of a register.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn lanes(x: __m512i) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        // SAFETY: the store writes exactly the 64 bytes of `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), x) };
        out
    }

    /// The next 64 random bits of each lane (xorshift128+).
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn next(rng: &mut [__m512i; 2]) -> __m512i {
        let mut x = rng[0];
        let y = rng[1];
        rng[0] = y;
        x = _mm512_xor_si512(x, _mm512_slli_epi64::<23>(x));
        rng[1] = _mm512_xor_si512(
            _mm512_xor_si512(x, y),
            _mm512_xor_si512(_mm512_srli_epi64::<17>(x), _mm512_srli_epi64::<26>(y)),
        );
        _mm512_add_epi64(rng[1], y)
    }

    /// The position of each lane's `r`-th set bit of `t` (`r` below its popcount; 0 for an
    /// empty `t`): `pdep` on the integer units, lane by lane, which leaves the vector units
    /// free for the rest (a binary search on popcounts in vector form was slower).
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn nth(t: __m512i, r: __m512i) -> __m512i {
        let (t, r) = (lanes(t), lanes(r));
        let mut at = [0u64; LANES];
        for lane in 0..LANES {
            let bit = std::arch::x86_64::_pdep_u64(1u64 << (r[lane] & 63), t[lane]);
            at[lane] = u64::from(bit.trailing_zeros() & 63);
        }
        // SAFETY: reading the 64 bytes of `at`.
        unsafe { std::arch::x86_64::_mm512_loadu_si512(at.as_ptr().cast()) }
    }

    /// Each lane's 64-bit word with its bits in reverse order (a8…h1 becomes h1…a8): bytes
    /// reversed by a shuffle, bits within bytes by a GF(2) affine map.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn reverse(x: __m512i) -> __m512i {
        let bytes = _mm512_set_epi8(
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
            15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
        );
        let flipped = _mm512_shuffle_epi8(x, bytes);
        _mm512_gf2p8affine_epi64_epi8::<0>(flipped, splat(0x8040_2010_0804_0201))
    }

    /// The four lines through each lane's square `at` (rank, file, diagonal, anti-diagonal),
    /// the square included; computed, not looked up.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn lines(at: __m512i) -> [__m512i; 4] {
        let rank = _mm512_srli_epi64::<3>(at);
        let file = _mm512_and_si512(at, splat(7));
        let eights = |x: __m512i| _mm512_slli_epi64::<3>(x);
        // A shift by 64 or more gives 0: of each pair, the one with the wrong sign
        // vanishes (and both give the main line when the difference is 0).
        let up = |line: u64, by: __m512i, down: __m512i| {
            _mm512_or_si512(
                _mm512_sllv_epi64(splat(line), eights(by)),
                _mm512_srlv_epi64(splat(line), eights(down)),
            )
        };
        let sum = _mm512_add_epi64(rank, file);
        let seven = splat(7);
        [
            _mm512_sllv_epi64(splat(0xff), eights(rank)),
            _mm512_sllv_epi64(splat(0x0101_0101_0101_0101), file),
            up(
                0x8040_2010_0804_0201,
                _mm512_sub_epi64(rank, file),
                _mm512_sub_epi64(file, rank),
            ),
            up(
                0x0102_0408_1020_4080,
                _mm512_sub_epi64(sum, seven),
                _mm512_sub_epi64(seven, sum),
            ),
        ]
    }

    /// The squares a piece on each lane's `bit` reaches along `lines` (its lines, its own
    /// square included) over `occupied`: on each line, the nearest obstacle each way by the
    /// subtraction trick (`o − 2r` forwards, the same on reversed words backwards), then the
    /// obstacles themselves removed.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn reach(bit: __m512i, lines: &[__m512i; 4], occupied: __m512i) -> __m512i {
        let twice = _mm512_add_epi64(bit, bit);
        let reversed = reverse(bit);
        let back = _mm512_add_epi64(reversed, reversed);
        let mut found = _mm512_setzero_si512();
        for &line in lines {
            let line = _mm512_andnot_si512(bit, line);
            let o = _mm512_and_si512(occupied, line);
            let forward = _mm512_sub_epi64(o, twice);
            let backward = reverse(_mm512_sub_epi64(reverse(o), back));
            found = _mm512_or_si512(
                found,
                _mm512_and_si512(_mm512_xor_si512(forward, backward), line),
            );
        }
        _mm512_andnot_si512(occupied, found)
    }

    /// The start position, piece by piece: squares and target sets, and the occupancy.
    struct Start {
        squares: [u64; 8],
        targets: [u64; 8],
        occupied: u64,
    }

    impl Start {
        fn new() -> Start {
            let start = Position::start();
            let occupied = start.occupied();
            let mut out = Start {
                squares: [0; 8],
                targets: [0; 8],
                occupied: occupied.0,
            };
            let pieces = Color::ALL
                .into_iter()
                .flat_map(|color| start.pieces(color).squares());
            for (j, square) in pieces.enumerate() {
                out.squares[j] = square.index() as u64;
                out.targets[j] = attacks(square, occupied).0;
            }
            out
        }
    }

    impl Games {
        /// Eight idle lanes, their generators seeded from `state` (which moves on).
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        fn new(state: &mut u64) -> Games {
            let mut seeds = [[0u64; LANES]; 2];
            for lane in 0..LANES {
                for half in &mut seeds {
                    *state = crate::zobrist::splitmix64(*state);
                    // xorshift128+ must not start from zero.
                    half[lane] = *state | 1;
                }
            }
            // SAFETY: reading 64 bytes from each array of eight u64.
            let rng = seeds
                .map(|half| unsafe { std::arch::x86_64::_mm512_loadu_si512(half.as_ptr().cast()) });
            let zero = _mm512_setzero_si512();
            Games {
                squares: [zero; 8],
                targets: [zero; 8],
                occupied: zero,
                scores: [zero; 2],
                white: 0,
                passed: 0,
                active: 0,
                rng,
                moves: vec![Vec::new(); LANES],
            }
        }

        /// The start position in the lanes of `lanes` (all lanes when new).
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        #[inline]
        fn start(&mut self, start: &Start, lanes: __mmask8) {
            for j in 0..8 {
                self.squares[j] =
                    _mm512_mask_blend_epi64(lanes, self.squares[j], splat(start.squares[j]));
                self.targets[j] =
                    _mm512_mask_blend_epi64(lanes, self.targets[j], splat(start.targets[j]));
            }
            self.occupied =
                _mm512_mask_blend_epi64(lanes, self.occupied, splat(start.occupied));
            let zero = _mm512_setzero_si512();
            for side in &mut self.scores {
                *side = _mm512_mask_blend_epi64(lanes, *side, zero);
            }
            self.white &= !lanes;
            self.passed &= !lanes;
            self.active |= lanes;
        }
    }

    /// Games in flight on one thread: independent groups of eight, stepped in turn, so the
    /// CPU overlaps one group's long chain of dependent steps (counts, draw, bit search,
    /// gathers) with the others'.
    pub const GROUPS: usize = 2;

    /// Plays `games` games from the start, [`GROUPS`] groups of eight lanes at a time; with
    /// `TRACE`, gives each finished game's moves and scores to `traced`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    pub(super) fn play<const TRACE: bool>(
        games: u64,
        seed: u64,
        traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
    ) -> Tally {
        let mut tally = Tally::default();
        let start = Start::new();
        let mut state = seed;
        let mut to_start = games;
        let mut groups: [Games; GROUPS] = std::array::from_fn(|_| {
            let mut g = Games::new(&mut state);
            let first = to_start.min(LANES as u64);
            to_start -= first;
            g.start(&start, ((1u16 << first) - 1) as u8);
            g
        });
        while groups.iter().any(|g| g.active != 0) {
            for g in &mut groups {
                if g.active != 0 {
                    step::<TRACE>(g, &start, &mut to_start, &mut tally, traced);
                }
            }
        }
        tally
    }

    /// One ply of every game of `g`: a finished game is tallied and its lane starts the next
    /// one while `to_start` games remain.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn step<const TRACE: bool>(
        g: &mut Games,
        start: &Start,
        to_start: &mut u64,
        tally: &mut Tally,
        traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
    ) {
        let zero = _mm512_setzero_si512();
        let one = splat(1);
        // The side to move's four target sets, counted.
        let t: [__m512i; 4] = std::array::from_fn(|i| {
            _mm512_mask_blend_epi64(g.white, g.targets[i], g.targets[i + 4])
        });
        let c = t.map(|t| _mm512_popcnt_epi64(t));
        let n0 = c[0];
        let n01 = _mm512_add_epi64(n0, c[1]);
        let n012 = _mm512_add_epi64(n01, c[2]);
        let n = _mm512_add_epi64(n012, c[3]);
        let none = _mm512_cmpeq_epi64_mask(n, zero) & g.active;
        let over = none & g.passed;
        let moving = g.active & !none;
        // A move drawn uniformly: k in 0..n from 32 random bits.
        let r = _mm512_srli_epi64::<32>(next(&mut g.rng));
        let k = _mm512_srli_epi64::<32>(_mm512_mul_epu32(r, n));
        let past = [
            _mm512_cmpge_epu64_mask(k, n0),
            _mm512_cmpge_epu64_mask(k, n01),
            _mm512_cmpge_epu64_mask(k, n012),
        ];
        let mut chosen = t[0];
        let mut before = zero;
        let mut piece = zero;
        for (i, (&mask, count)) in past.iter().zip([n0, n01, n012]).enumerate() {
            chosen = _mm512_mask_blend_epi64(mask, chosen, t[i + 1]);
            before = _mm512_mask_blend_epi64(mask, before, count);
            piece = _mm512_mask_add_epi64(piece, mask, piece, one);
        }
        let to = nth(chosen, _mm512_sub(k, before));
        let mover = _mm512_mask_add_epi64(piece, g.white, piece, splat(4));
        let moved: [__mmask8; 8] =
            std::array::from_fn(|j| _mm512_cmpeq_epi64_mask(mover, splat(j as u64)) & moving);
        if TRACE {
            let mut from = zero;
            for (j, &mask) in moved.iter().enumerate() {
                from = _mm512_mask_blend_epi64(mask, from, g.squares[j]);
            }
            let (from, to) = (lanes(from), lanes(to));
            for lane in 0..LANES {
                let bit = 1u8 << lane;
                if moving & bit != 0 {
                    let square = |s: u64| Square::new(s as u8).expect("a square");
                    g.moves[lane].push(Move::new(square(from[lane]), square(to[lane])));
                } else if none & !over & bit != 0 {
                    g.moves[lane].push(Move::PASS);
                }
            }
        }
        // The move: its arrival square becomes an obstacle, hiding what lies beyond it
        // from every piece; the mover's targets are looked up anew.
        g.occupied = _mm512_mask_or_epi64(g.occupied, moving, g.occupied, _mm512_sllv_epi64(one, to));
        // What a piece loses: on the line it shares with `to`, the squares from `to` on,
        // away from it (nothing if it shares none, or if `to` was out of its reach: then
        // those squares were too).
        let bit = _mm512_sllv_epi64(one, to);
        let through = lines(to);
        let above = _mm512_sub_epi64(zero, bit);
        let below = _mm512_or_si512(bit, _mm512_sub_epi64(bit, one));
        for j in 0..8 {
            let square = _mm512_sllv_epi64(one, g.squares[j]);
            let mut line = zero;
            for &candidate in &through {
                let on = _mm512_test_epi64_mask(candidate, square);
                line = _mm512_mask_mov_epi64(line, on, candidate);
            }
            let away = _mm512_mask_blend_epi64(
                _mm512_cmplt_epu64_mask(g.squares[j], to),
                below,
                above,
            );
            let cut = _mm512_and_si512(line, away);
            g.targets[j] = _mm512_mask_andnot_epi64(g.targets[j], moving, cut, g.targets[j]);
        }
        let reach = reach(bit, &through, g.occupied);
        for (j, &mask) in moved.iter().enumerate() {
            g.targets[j] = _mm512_mask_blend_epi64(mask, g.targets[j], reach);
            g.squares[j] = _mm512_mask_blend_epi64(mask, g.squares[j], to);
        }
        let black_moved = moving & !g.white;
        let white_moved = moving & g.white;
        g.scores[0] = _mm512_mask_add_epi64(g.scores[0], black_moved, g.scores[0], one);
        g.scores[1] = _mm512_mask_add_epi64(g.scores[1], white_moved, g.scores[1], one);
        g.white ^= g.active;
        g.passed = none;
        if over != 0 {
            let black = _mm512_cmpgt_epu64_mask(g.scores[0], g.scores[1]) & over;
            let white = _mm512_cmpgt_epu64_mask(g.scores[1], g.scores[0]) & over;
            tally.black_wins += u64::from(black.count_ones());
            tally.white_wins += u64::from(white.count_ones());
            tally.draws += u64::from((over & !black & !white).count_ones());
            if TRACE {
                let (b, w) = (lanes(g.scores[0]), lanes(g.scores[1]));
                for lane in 0..LANES {
                    if over & (1 << lane) != 0 {
                        let mut game = std::mem::take(&mut g.moves[lane]);
                        // The pass before the end was no move: neither side could move
                        // then already (the lane learns it one ply later).
                        if game.last() == Some(&Move::PASS) {
                            game.pop();
                        }
                        traced((game, [b[lane] as u8, w[lane] as u8]));
                    }
                }
            }
            // Finished lanes start the next games while there are games to start.
            let mut again: __mmask8 = 0;
            for lane in 0..LANES {
                if over & (1 << lane) != 0 && *to_start > 0 {
                    again |= 1 << lane;
                    *to_start -= 1;
                }
            }
            g.active &= !over;
            g.start(start, again);
        }
    }

    /// `a - b` lane by lane.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn _mm512_sub(a: __m512i, b: __m512i) -> __m512i {
        std::arch::x86_64::_mm512_sub_epi64(a, b)
    }
}

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

use crate::tally::Tally;

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

/// Plays random games to the end, eight to a register: `next` gives each new game (a tag and
/// the position it starts from) until it returns `None`, `done` gets each result with its tag;
/// returns when every game given has ended. The generators are seeded from `seed`. `false`,
/// playing nothing, if this CPU cannot ([`available`]): then use
/// [`crate::random_games::interleaved`].
pub fn interleaved<T: Copy>(
    seed: u64,
    next: &mut dyn FnMut() -> Option<(T, crate::Position)>,
    done: &mut dyn FnMut(T, crate::Outcome),
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: as in `random_games`.
        unsafe { x86::interleaved(seed, next, done) };
        return true;
    }
    let _ = (seed, next, done);
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{LANES, Tally};
    use crate::{Color, Move, Outcome, Position, Square, attacks};
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512,
        _mm512_cmpeq_epi64_mask, _mm512_cmpge_epu64_mask, _mm512_cmpgt_epu64_mask,
        _mm512_cmplt_epu64_mask, _mm512_gf2p8affine_epi64_epi8, _mm512_mask_add_epi64,
        _mm512_mask_andnot_epi64, _mm512_mask_blend_epi64, _mm512_mask_mov_epi64,
        _mm512_mask_or_epi64, _mm512_mul_epu32, _mm512_or_si512, _mm512_popcnt_epi64,
        _mm512_set_epi8, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_epi8,
        _mm512_slli_epi64, _mm512_sllv_epi64, _mm512_srli_epi64, _mm512_srlv_epi64,
        _mm512_storeu_si512, _mm512_sub_epi64, _mm512_test_epi64_mask, _mm512_xor_si512,
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
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0,
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
            11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
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
        fn new(start: &Position) -> Start {
            let occupied = start.occupied();
            let mut out = Start {
                squares: [0; 8],
                targets: [0; 8],
                occupied: occupied.0,
            };
            // Black's pieces 0–3, white's 4–7 (a missing piece: square 0, no targets).
            for color in Color::ALL {
                for (i, square) in start.pieces(color).squares().take(4).enumerate() {
                    let j = color.index() * 4 + i;
                    out.squares[j] = square.index() as u64;
                    out.targets[j] = attacks(square, occupied).0;
                }
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

        /// Lane `lane` starts a game from `position`.
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        fn set(&mut self, lane: usize, position: &Position) {
            let start = Start::new(position);
            let bit = 1u8 << lane;
            let put = |v: &mut __m512i, x: u64| *v = _mm512_mask_blend_epi64(bit, *v, splat(x));
            for j in 0..8 {
                put(&mut self.squares[j], start.squares[j]);
                put(&mut self.targets[j], start.targets[j]);
            }
            put(&mut self.occupied, start.occupied);
            put(&mut self.scores[0], u64::from(position.score(Color::Black)));
            put(&mut self.scores[1], u64::from(position.score(Color::White)));
            if position.side_to_move() == Color::White {
                self.white |= bit;
            } else {
                self.white &= !bit;
            }
            self.passed &= !bit;
            self.active |= bit;
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
            self.occupied = _mm512_mask_blend_epi64(lanes, self.occupied, splat(start.occupied));
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
        let start = Start::new(&Position::start());
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

    /// Plays games from the positions `next` gives, tagged, until it gives none; each
    /// result to `done` with its tag.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    pub(super) fn interleaved<T: Copy>(
        seed: u64,
        next: &mut dyn FnMut() -> Option<(T, Position)>,
        done: &mut dyn FnMut(T, Outcome),
    ) {
        let mut state = seed;
        let mut groups: [(Games, [Option<T>; LANES]); GROUPS] =
            std::array::from_fn(|_| (Games::new(&mut state), [None; LANES]));
        for (games, tags) in &mut groups {
            for (lane, tag) in tags.iter_mut().enumerate() {
                if let Some((given, position)) = next() {
                    games.set(lane, &position);
                    *tag = Some(given);
                }
            }
        }
        while groups.iter().any(|(games, _)| games.active != 0) {
            for (games, tags) in &mut groups {
                if games.active == 0 {
                    continue;
                }
                let drawn = games.draw();
                games.play(&drawn);
                if drawn.over == 0 {
                    continue;
                }
                let (black, white) = (lanes(games.scores[0]), lanes(games.scores[1]));
                games.active &= !drawn.over;
                for lane in 0..LANES {
                    if drawn.over & (1 << lane) == 0 {
                        continue;
                    }
                    let scores = (black[lane] as u8, white[lane] as u8);
                    if let Some(tag) = tags[lane].take() {
                        done(tag, Outcome::from_scores(scores.0, scores.1));
                    }
                    if let Some((given, position)) = next() {
                        games.set(lane, &position);
                        tags[lane] = Some(given);
                    }
                }
            }
        }
    }

    /// One ply of every game of `games`: a finished game is tallied and its lane starts the
    /// next one while `to_start` games remain.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
    #[inline]
    fn step<const TRACE: bool>(
        games: &mut Games,
        start: &Start,
        to_start: &mut u64,
        tally: &mut Tally,
        traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
    ) {
        let drawn = games.draw();
        if TRACE {
            games.trace(&drawn);
        }
        games.play(&drawn);
        if drawn.over != 0 {
            games.finish::<TRACE>(drawn.over, start, to_start, tally, traced);
        }
    }

    /// A ply's move in each lane.
    struct Drawn {
        /// The arrival squares.
        to: __m512i,
        /// For each piece, the lanes where it moves.
        movers: [__mmask8; 8],
        /// Lanes that move.
        moving: __mmask8,
        /// Lanes whose side has no move.
        none: __mmask8,
        /// Lanes whose game is over (no move, after a pass).
        over: __mmask8,
    }

    impl Games {
        /// Draws each lane's move uniformly among the side to move's (none: a pass).
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        #[inline]
        fn draw(&mut self) -> Drawn {
            let zero = _mm512_setzero_si512();
            let one = splat(1);
            // The side to move's four target sets, counted.
            let sets: [__m512i; 4] = std::array::from_fn(|i| {
                _mm512_mask_blend_epi64(self.white, self.targets[i], self.targets[i + 4])
            });
            let counts = sets.map(|set| _mm512_popcnt_epi64(set));
            let n0 = counts[0];
            let n01 = _mm512_add_epi64(n0, counts[1]);
            let n012 = _mm512_add_epi64(n01, counts[2]);
            let n = _mm512_add_epi64(n012, counts[3]);
            let none = _mm512_cmpeq_epi64_mask(n, zero) & self.active;
            let over = none & self.passed;
            let moving = self.active & !none;
            // The index of the move among the n: from 32 random bits, `bits * n >> 32`.
            let bits = _mm512_srli_epi64::<32>(next(&mut self.rng));
            let index = _mm512_srli_epi64::<32>(_mm512_mul_epu32(bits, n));
            let mut chosen = sets[0];
            let mut before = zero;
            let mut piece = zero;
            for (i, count) in [n0, n01, n012].into_iter().enumerate() {
                let past = _mm512_cmpge_epu64_mask(index, count);
                chosen = _mm512_mask_blend_epi64(past, chosen, sets[i + 1]);
                before = _mm512_mask_blend_epi64(past, before, count);
                piece = _mm512_mask_add_epi64(piece, past, piece, one);
            }
            let to = nth(chosen, _mm512_sub_epi64(index, before));
            let mover = _mm512_mask_add_epi64(piece, self.white, piece, splat(4));
            let movers =
                std::array::from_fn(|j| _mm512_cmpeq_epi64_mask(mover, splat(j as u64)) & moving);
            Drawn {
                to,
                movers,
                moving,
                none,
                over,
            }
        }

        /// Writes down each lane's move (tests only).
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        fn trace(&mut self, drawn: &Drawn) {
            let mut from = _mm512_setzero_si512();
            for (j, &mask) in drawn.movers.iter().enumerate() {
                from = _mm512_mask_blend_epi64(mask, from, self.squares[j]);
            }
            let (from, to) = (lanes(from), lanes(drawn.to));
            let square = |s: u64| Square::new(s as u8).expect("a square");
            for lane in 0..LANES {
                let bit = 1u8 << lane;
                if drawn.moving & bit != 0 {
                    self.moves[lane].push(Move::new(square(from[lane]), square(to[lane])));
                } else if drawn.none & !drawn.over & bit != 0 {
                    self.moves[lane].push(Move::PASS);
                }
            }
        }

        /// Plays the drawn moves: each arrival square becomes an obstacle, hiding what lies
        /// beyond it from every piece; the mover's targets are found anew; the turn passes.
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        #[inline]
        fn play(&mut self, drawn: &Drawn) {
            let (zero, one) = (_mm512_setzero_si512(), splat(1));
            let (to, moving) = (drawn.to, drawn.moving);
            let bit = _mm512_sllv_epi64(one, to);
            self.occupied = _mm512_mask_or_epi64(self.occupied, moving, self.occupied, bit);
            // What a piece loses: on the line it shares with `to`, the squares from `to` on,
            // away from it (nothing if it shares none, or if `to` was out of its reach: then
            // those squares were too).
            let through = lines(to);
            let above = _mm512_sub_epi64(zero, bit);
            let below = _mm512_or_si512(bit, _mm512_sub_epi64(bit, one));
            for j in 0..8 {
                let square = _mm512_sllv_epi64(one, self.squares[j]);
                let mut line = zero;
                for &candidate in &through {
                    let on = _mm512_test_epi64_mask(candidate, square);
                    line = _mm512_mask_mov_epi64(line, on, candidate);
                }
                let below_to = _mm512_cmplt_epu64_mask(self.squares[j], to);
                let cut = _mm512_and_si512(line, _mm512_mask_blend_epi64(below_to, below, above));
                self.targets[j] =
                    _mm512_mask_andnot_epi64(self.targets[j], moving, cut, self.targets[j]);
            }
            let reach = reach(bit, &through, self.occupied);
            for (j, &mask) in drawn.movers.iter().enumerate() {
                self.targets[j] = _mm512_mask_blend_epi64(mask, self.targets[j], reach);
                self.squares[j] = _mm512_mask_blend_epi64(mask, self.squares[j], to);
            }
            let [black, white] = &mut self.scores;
            *black = _mm512_mask_add_epi64(*black, moving & !self.white, *black, one);
            *white = _mm512_mask_add_epi64(*white, moving & self.white, *white, one);
            self.white ^= self.active;
            self.passed = drawn.none;
        }

        /// Tallies the games of the lanes `over` and starts the next ones there while
        /// `to_start` games remain.
        #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq,gfni,bmi2")]
        fn finish<const TRACE: bool>(
            &mut self,
            over: __mmask8,
            start: &Start,
            to_start: &mut u64,
            tally: &mut Tally,
            traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
        ) {
            let [black, white] = self.scores;
            let black_won = _mm512_cmpgt_epu64_mask(black, white) & over;
            let white_won = _mm512_cmpgt_epu64_mask(white, black) & over;
            tally.black_wins += u64::from(black_won.count_ones());
            tally.white_wins += u64::from(white_won.count_ones());
            tally.draws += u64::from((over & !black_won & !white_won).count_ones());
            if TRACE {
                let (black, white) = (lanes(black), lanes(white));
                for lane in 0..LANES {
                    if over & (1 << lane) != 0 {
                        let mut game = std::mem::take(&mut self.moves[lane]);
                        // The pass before the end was no move: neither side could move
                        // then already (the lane learns it one ply later).
                        if game.last() == Some(&Move::PASS) {
                            game.pop();
                        }
                        traced((game, [black[lane] as u8, white[lane] as u8]));
                    }
                }
            }
            let mut again: __mmask8 = 0;
            for lane in 0..LANES {
                if over & (1 << lane) != 0 && *to_start > 0 {
                    again |= 1 << lane;
                    *to_start -= 1;
                }
            }
            self.active &= !over;
            self.start(start, again);
        }
    }
}

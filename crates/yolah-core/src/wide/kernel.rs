//! The random-game step written once for any lane width: the operations it needs on a
//! register of lanes ([`Simd`]) and the games in flight ([`Games`]). Each instruction set
//! implements [`Simd`] with `#[inline(always)]` wrappers of its intrinsics and calls
//! [`play`] or [`interleaved`] from one function compiled for its features, into which all
//! of this is inlined.

use crate::tally::Tally;
use crate::{Color, Move, Outcome, Position, Square, attacks};

/// The most lanes a register has (AVX-512: eight games).
pub(super) const MAX_LANES: usize = 8;

/// A register of 64-bit lanes and a mask with one flag a lane.
pub(super) trait Simd {
    /// Lanes in a register.
    const LANES: usize;
    /// A register.
    type V: Copy;
    /// One flag a lane.
    type M: Copy;

    /// Every lane `x`.
    fn splat(x: u64) -> Self::V;
    /// The first [`Simd::LANES`] of `x`.
    fn load(x: &[u64; MAX_LANES]) -> Self::V;
    /// The lanes, in the first [`Simd::LANES`] places.
    fn store(x: Self::V) -> [u64; MAX_LANES];
    fn add(a: Self::V, b: Self::V) -> Self::V;
    fn sub(a: Self::V, b: Self::V) -> Self::V;
    fn and(a: Self::V, b: Self::V) -> Self::V;
    fn or(a: Self::V, b: Self::V) -> Self::V;
    fn xor(a: Self::V, b: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(a: Self::V, b: Self::V) -> Self::V;
    /// `a << n`, 0 where `n` is 64 or more.
    fn shl(a: Self::V, n: Self::V) -> Self::V;
    /// `a >> n`, 0 where `n` is 64 or more.
    fn shr(a: Self::V, n: Self::V) -> Self::V;
    /// Each lane's set bits.
    fn popcnt(a: Self::V) -> Self::V;
    /// The low 32 bits of each lane multiplied, to 64.
    fn mul32(a: Self::V, b: Self::V) -> Self::V;
    /// Each lane's bits in reverse order.
    fn reverse(a: Self::V) -> Self::V;
    fn eq(a: Self::V, b: Self::V) -> Self::M;
    /// `a > b`, for lanes below 2⁶³.
    fn gt(a: Self::V, b: Self::V) -> Self::M;
    /// `a & b == 0`.
    fn testn(a: Self::V, b: Self::V) -> Self::M;
    /// `b` where `m` is set, else `a`.
    fn blend(m: Self::M, a: Self::V, b: Self::V) -> Self::V;
    /// The mask of the lanes whose bits are set in `bits`.
    fn mask(bits: u8) -> Self::M;
    /// The lanes a mask names, as bits.
    fn bits(m: Self::M) -> u8;
    fn m_and(a: Self::M, b: Self::M) -> Self::M;
    fn m_or(a: Self::M, b: Self::M) -> Self::M;
    fn m_xor(a: Self::M, b: Self::M) -> Self::M;
    /// `a & !b`.
    fn m_andnot(a: Self::M, b: Self::M) -> Self::M;
}

/// The next 64 random bits of each lane (xorshift128+).
#[inline(always)]
fn next<S: Simd>(rng: &mut [S::V; 2]) -> S::V {
    let mut x = rng[0];
    let y = rng[1];
    rng[0] = y;
    x = S::xor(x, S::shl(x, S::splat(23)));
    rng[1] = S::xor(
        S::xor(x, y),
        S::xor(S::shr(x, S::splat(17)), S::shr(y, S::splat(26))),
    );
    S::add(rng[1], y)
}

/// The position of each lane's `r`-th set bit of `t` (`r` below its popcount; 0 for an
/// empty `t`): `pdep` on the integer units, lane by lane, which leaves the vector units free
/// for the rest (a binary search on popcounts in vector form was slower).
#[inline(always)]
fn nth<S: Simd>(t: S::V, r: S::V) -> S::V {
    let (t, r) = (S::store(t), S::store(r));
    let mut at = [0u64; MAX_LANES];
    for lane in 0..S::LANES {
        // SAFETY: this is inlined only into functions compiled for BMI2, which the CPU has
        // (each instruction set's entry points are called after checking it).
        let bit = unsafe { std::arch::x86_64::_pdep_u64(1u64 << (r[lane] & 63), t[lane]) };
        at[lane] = u64::from(bit.trailing_zeros() & 63);
    }
    S::load(&at)
}

/// The four lines through each lane's square `at` (rank, file, diagonal, anti-diagonal), the
/// square included; computed, not looked up.
#[inline(always)]
fn lines<S: Simd>(at: S::V) -> [S::V; 4] {
    let rank = S::shr(at, S::splat(3));
    let file = S::and(at, S::splat(7));
    let eights = |x: S::V| S::shl(x, S::splat(3));
    // A shift by 64 or more gives 0: of each pair, the one with the wrong sign vanishes (and
    // both give the main line when the difference is 0).
    let up = |line: u64, by: S::V, down: S::V| {
        S::or(
            S::shl(S::splat(line), eights(by)),
            S::shr(S::splat(line), eights(down)),
        )
    };
    let sum = S::add(rank, file);
    let seven = S::splat(7);
    [
        S::shl(S::splat(0xff), eights(rank)),
        S::shl(S::splat(0x0101_0101_0101_0101), file),
        up(
            0x8040_2010_0804_0201,
            S::sub(rank, file),
            S::sub(file, rank),
        ),
        up(
            0x0102_0408_1020_4080,
            S::sub(sum, seven),
            S::sub(seven, sum),
        ),
    ]
}

/// For each lane, the squares from `to` (included) to the edge on the ray from `from` through
/// `to`, empty where they share no line (the scalar path's `BEYOND` table); `through` are the
/// lines through `to` and `bit` its square. Computed: on the line both share, the squares from
/// `to` on, away from `from` (gathering them from the table was 4.7 % slower on the AVX2
/// path, the notebook says).
#[inline(always)]
fn beyond<S: Simd>(to: S::V, from: S::V, through: &[S::V; 4], bit: S::V) -> S::V {
    let (zero, one) = (S::splat(0), S::splat(1));
    let square = S::shl(one, from);
    let mut line = zero;
    for &candidate in through {
        line = S::blend(S::testn(candidate, square), candidate, line);
    }
    let above = S::sub(zero, bit);
    let below = S::or(bit, S::sub(bit, one));
    S::and(line, S::blend(S::gt(to, from), below, above))
}

/// The squares a piece on each lane's `bit` reaches along `lines` (its lines, its own square
/// included) over `occupied`: on each line, the nearest obstacle each way by the subtraction
/// trick (`o − 2r` forwards, the same on reversed words backwards), then the obstacles
/// themselves removed.
#[inline(always)]
fn reach<S: Simd>(bit: S::V, lines: &[S::V; 4], occupied: S::V) -> S::V {
    let twice = S::add(bit, bit);
    let reversed = S::reverse(bit);
    let back = S::add(reversed, reversed);
    let mut found = S::splat(0);
    for &line in lines {
        let line = S::andnot(bit, line);
        let o = S::and(occupied, line);
        let forward = S::sub(o, twice);
        let backward = S::reverse(S::sub(S::reverse(o), back));
        found = S::or(found, S::and(S::xor(forward, backward), line));
    }
    S::andnot(occupied, found)
}

/// A start position, piece by piece: squares and target sets, and the occupancy.
pub(super) struct Start {
    squares: [u64; 8],
    targets: [u64; 8],
    occupied: u64,
}

impl Start {
    pub(super) fn new(start: &Position) -> Start {
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

/// A register's games, piece `j` of each in lane-wise registers: pieces 0–3 black's, 4–7
/// white's.
struct Games<S: Simd> {
    squares: [S::V; 8],
    targets: [S::V; 8],
    occupied: S::V,
    scores: [S::V; 2],
    /// Lanes where white is to move.
    white: S::M,
    /// Lanes whose last ply was a pass.
    passed: S::M,
    /// Lanes playing a game.
    active: S::M,
    /// xorshift128+ state, one generator a lane.
    rng: [S::V; 2],
    /// Each lane's moves so far (traced runs only).
    moves: Vec<Vec<Move>>,
}

/// A ply's move in each lane.
struct Drawn<S: Simd> {
    /// The arrival squares.
    to: S::V,
    /// For each piece, the lanes where it moves.
    movers: [S::M; 8],
    /// Lanes that move.
    moving: S::M,
    /// Lanes whose side has no move.
    none: S::M,
    /// Lanes whose game is over (no move, after a pass).
    over: S::M,
}

impl<S: Simd> Games<S> {
    /// Idle lanes, their generators seeded from `state` (which moves on).
    #[inline(always)]
    fn new(state: &mut u64) -> Games<S> {
        let mut seeds = [[0u64; MAX_LANES]; 2];
        for lane in 0..S::LANES {
            for half in &mut seeds {
                *state = crate::zobrist::splitmix64(*state);
                // xorshift128+ must not start from zero.
                half[lane] = *state | 1;
            }
        }
        let zero = S::splat(0);
        Games {
            squares: [zero; 8],
            targets: [zero; 8],
            occupied: zero,
            scores: [zero; 2],
            white: S::mask(0),
            passed: S::mask(0),
            active: S::mask(0),
            rng: seeds.map(|half| S::load(&half)),
            moves: vec![Vec::new(); S::LANES],
        }
    }

    /// Whether any lane plays a game.
    #[inline(always)]
    fn busy(&self) -> bool {
        S::bits(self.active) != 0
    }

    /// Lane `lane` starts a game from `position`.
    #[inline(always)]
    fn set(&mut self, lane: usize, position: &Position) {
        let start = Start::new(position);
        let bit = S::mask(1u8 << lane);
        let put = |v: &mut S::V, x: u64| *v = S::blend(bit, *v, S::splat(x));
        for j in 0..8 {
            put(&mut self.squares[j], start.squares[j]);
            put(&mut self.targets[j], start.targets[j]);
        }
        put(&mut self.occupied, start.occupied);
        put(&mut self.scores[0], u64::from(position.score(Color::Black)));
        put(&mut self.scores[1], u64::from(position.score(Color::White)));
        self.white = if position.side_to_move() == Color::White {
            S::m_or(self.white, bit)
        } else {
            S::m_andnot(self.white, bit)
        };
        self.passed = S::m_andnot(self.passed, bit);
        self.active = S::m_or(self.active, bit);
    }

    /// `start` in the lanes of `lanes`.
    #[inline(always)]
    fn start(&mut self, start: &Start, lanes: S::M) {
        for j in 0..8 {
            self.squares[j] = S::blend(lanes, self.squares[j], S::splat(start.squares[j]));
            self.targets[j] = S::blend(lanes, self.targets[j], S::splat(start.targets[j]));
        }
        self.occupied = S::blend(lanes, self.occupied, S::splat(start.occupied));
        for side in &mut self.scores {
            *side = S::blend(lanes, *side, S::splat(0));
        }
        self.white = S::m_andnot(self.white, lanes);
        self.passed = S::m_andnot(self.passed, lanes);
        self.active = S::m_or(self.active, lanes);
    }

    /// Draws each lane's move uniformly among the side to move's (none: a pass).
    #[inline(always)]
    fn draw(&mut self) -> Drawn<S> {
        let zero = S::splat(0);
        let one = S::splat(1);
        // The side to move's four target sets, counted.
        let sets: [S::V; 4] =
            std::array::from_fn(|i| S::blend(self.white, self.targets[i], self.targets[i + 4]));
        let counts = sets.map(S::popcnt);
        let n0 = counts[0];
        let n01 = S::add(n0, counts[1]);
        let n012 = S::add(n01, counts[2]);
        let n = S::add(n012, counts[3]);
        let none = S::m_and(S::eq(n, zero), self.active);
        let over = S::m_and(none, self.passed);
        let moving = S::m_andnot(self.active, none);
        // The index of the move among the n: from 32 random bits, `bits * n >> 32`.
        let thirty_two = S::splat(32);
        let bits = S::shr(next::<S>(&mut self.rng), thirty_two);
        let index = S::shr(S::mul32(bits, n), thirty_two);
        let mut chosen = sets[0];
        let mut before = zero;
        let mut piece = zero;
        for (i, count) in [n0, n01, n012].into_iter().enumerate() {
            // Where the index is at least `count`, the move is a later piece's.
            let earlier = S::gt(count, index);
            chosen = S::blend(earlier, sets[i + 1], chosen);
            before = S::blend(earlier, count, before);
            piece = S::blend(earlier, S::add(piece, one), piece);
        }
        let to = nth::<S>(chosen, S::sub(index, before));
        let mover = S::blend(self.white, piece, S::add(piece, S::splat(4)));
        let movers = std::array::from_fn(|j| S::m_and(S::eq(mover, S::splat(j as u64)), moving));
        Drawn {
            to,
            movers,
            moving,
            none,
            over,
        }
    }

    /// Writes down each lane's move (tests only).
    fn trace(&mut self, drawn: &Drawn<S>) {
        let mut from = S::splat(0);
        for (j, &mask) in drawn.movers.iter().enumerate() {
            from = S::blend(mask, from, self.squares[j]);
        }
        let (from, to) = (S::store(from), S::store(drawn.to));
        let square = |s: u64| Square::new(s as u8).expect("a square");
        let (moving, passing) = (
            S::bits(drawn.moving),
            S::bits(S::m_andnot(drawn.none, drawn.over)),
        );
        for lane in 0..S::LANES {
            let bit = 1u8 << lane;
            if moving & bit != 0 {
                self.moves[lane].push(Move::new(square(from[lane]), square(to[lane])));
            } else if passing & bit != 0 {
                self.moves[lane].push(Move::PASS);
            }
        }
    }

    /// Plays the drawn moves: each arrival square becomes an obstacle, hiding what lies
    /// beyond it from every piece; the mover's targets are found anew; the turn passes.
    #[inline(always)]
    fn play(&mut self, drawn: &Drawn<S>) {
        let one = S::splat(1);
        let (to, moving) = (drawn.to, drawn.moving);
        let bit = S::shl(one, to);
        self.occupied = S::blend(moving, self.occupied, S::or(self.occupied, bit));
        // What a piece loses: on the line it shares with `to`, the squares from `to` on, away
        // from it (nothing if it shares none, or if `to` was out of its reach: then those
        // squares were too).
        let through = lines::<S>(to);
        for j in 0..8 {
            let cut = beyond::<S>(to, self.squares[j], &through, bit);
            self.targets[j] = S::blend(moving, self.targets[j], S::andnot(cut, self.targets[j]));
        }
        let reach = reach::<S>(bit, &through, self.occupied);
        for (j, &mask) in drawn.movers.iter().enumerate() {
            self.targets[j] = S::blend(mask, self.targets[j], reach);
            self.squares[j] = S::blend(mask, self.squares[j], to);
        }
        let [black, white] = &mut self.scores;
        *black = S::blend(S::m_andnot(moving, self.white), *black, S::add(*black, one));
        *white = S::blend(S::m_and(moving, self.white), *white, S::add(*white, one));
        self.white = S::m_xor(self.white, self.active);
        self.passed = drawn.none;
    }

    /// Tallies the games of the lanes `over` and starts the next ones there while `to_start`
    /// games remain.
    #[inline(always)]
    fn finish<const TRACE: bool>(
        &mut self,
        over: S::M,
        start: &Start,
        to_start: &mut u64,
        tally: &mut Tally,
        traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
    ) {
        let [black, white] = self.scores;
        let black_won = S::bits(S::m_and(S::gt(black, white), over));
        let white_won = S::bits(S::m_and(S::gt(white, black), over));
        let over_bits = S::bits(over);
        tally.black_wins += u64::from(black_won.count_ones());
        tally.white_wins += u64::from(white_won.count_ones());
        tally.draws += u64::from((over_bits & !black_won & !white_won).count_ones());
        if TRACE {
            let (black, white) = (S::store(black), S::store(white));
            for lane in 0..S::LANES {
                if over_bits & (1 << lane) != 0 {
                    let mut game = std::mem::take(&mut self.moves[lane]);
                    // The pass before the end was no move: neither side could move then
                    // already (the lane learns it one ply later).
                    if game.last() == Some(&Move::PASS) {
                        game.pop();
                    }
                    traced((game, [black[lane] as u8, white[lane] as u8]));
                }
            }
        }
        let mut again = 0u8;
        for lane in 0..S::LANES {
            if over_bits & (1 << lane) != 0 && *to_start > 0 {
                again |= 1 << lane;
                *to_start -= 1;
            }
        }
        self.active = S::m_andnot(self.active, over);
        self.start(start, S::mask(again));
    }
}

/// Games in flight on one thread: independent groups of a register's lanes, stepped in turn,
/// so the CPU overlaps one group's long chain of dependent steps (counts, draw, bit search)
/// with the others'.
pub(super) const GROUPS: usize = 2;

/// Plays `games` games from the start, [`GROUPS`] registers at a time; with `TRACE`, gives
/// each finished game's moves and scores to `traced`.
#[inline(always)]
pub(super) fn play<S: Simd, const TRACE: bool>(
    games: u64,
    seed: u64,
    traced: &mut dyn FnMut((Vec<Move>, [u8; 2])),
) -> Tally {
    let mut tally = Tally::default();
    let start = Start::new(&Position::start());
    let mut state = seed;
    let mut to_start = games;
    let mut groups: [Games<S>; GROUPS] = std::array::from_fn(|_| {
        let mut g = Games::new(&mut state);
        let first = to_start.min(S::LANES as u64);
        to_start -= first;
        g.start(&start, S::mask(((1u16 << first) - 1) as u8));
        g
    });
    while groups.iter().any(Games::busy) {
        for g in &mut groups {
            if !g.busy() {
                continue;
            }
            let drawn = g.draw();
            if TRACE {
                g.trace(&drawn);
            }
            g.play(&drawn);
            if S::bits(drawn.over) != 0 {
                g.finish::<TRACE>(drawn.over, &start, &mut to_start, &mut tally, traced);
            }
        }
    }
    tally
}

/// Plays games from the positions `next` gives, tagged, until it gives none; each result to
/// `done` with its tag.
#[inline(always)]
pub(super) fn interleaved<S: Simd, T: Copy>(
    seed: u64,
    next: &mut dyn FnMut() -> Option<(T, Position)>,
    done: &mut dyn FnMut(T, Outcome),
) {
    let mut state = seed;
    let mut groups: [(Games<S>, [Option<T>; MAX_LANES]); GROUPS] =
        std::array::from_fn(|_| (Games::new(&mut state), [None; MAX_LANES]));
    for (games, tags) in &mut groups {
        for (lane, tag) in tags.iter_mut().take(S::LANES).enumerate() {
            if let Some((given, position)) = next() {
                games.set(lane, &position);
                *tag = Some(given);
            }
        }
    }
    while groups.iter().any(|(games, _)| games.busy()) {
        for (games, tags) in &mut groups {
            if !games.busy() {
                continue;
            }
            let drawn = games.draw();
            games.play(&drawn);
            let over = S::bits(drawn.over);
            if over == 0 {
                continue;
            }
            let (black, white) = (S::store(games.scores[0]), S::store(games.scores[1]));
            games.active = S::m_andnot(games.active, drawn.over);
            for lane in 0..S::LANES {
                if over & (1 << lane) == 0 {
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

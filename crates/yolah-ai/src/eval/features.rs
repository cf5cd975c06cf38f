//! The features of a position a human looks at, each counted as black's minus white's.
//!
//! All of them are bitboard computations: two flood fills (king steps and queen moves, both
//! sides at once) give territory and the regions only one side can reach; a Kogge–Stone slide
//! gives the squares each side reaches in one move. [`Features::of`] costs about as much as
//! generating the moves of both sides a few times (see `cargo bench -p yolah-benches --bench
//! search`).

use yolah_core::bitboard::{FILE_A, FILE_H};
use yolah_core::{Bitboard, Color, Position};

/// Every feature, in the order of [`Features::values`] and of the weight files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Legal moves (pieces × targets).
    Mobility,
    /// Free squares reached in one move by this side and not by the other.
    OneMoveExclusive,
    /// Free squares this side reaches in fewer queen moves than the other (or only it reaches).
    QueenTerritory,
    /// Free squares this side reaches in fewer king steps than the other (or only it reaches).
    KingTerritory,
    /// Free squares only this side can still reach: points it is sure to be able to collect.
    Exclusive,
    /// Pieces with no free neighbour: they will never move again.
    Blocked,
    /// Pieces with one or two free neighbours: nearly blocked.
    Cornered,
    /// Free squares next to this side's pieces (each counted once per piece).
    Liberties,
    /// 1 if this side has no move.
    NoMove,
    /// This side's points so far.
    Score,
    /// 1 for the side to move: the tempo.
    ToMove,
}

/// The number of features.
pub const COUNT: usize = 11;

impl Feature {
    /// All features, in order.
    pub const ALL: [Feature; COUNT] = [
        Feature::Mobility,
        Feature::OneMoveExclusive,
        Feature::QueenTerritory,
        Feature::KingTerritory,
        Feature::Exclusive,
        Feature::Blocked,
        Feature::Cornered,
        Feature::Liberties,
        Feature::NoMove,
        Feature::Score,
        Feature::ToMove,
    ];

    /// The name in weight files.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Mobility => "mobility",
            Feature::OneMoveExclusive => "one_move_exclusive",
            Feature::QueenTerritory => "queen_territory",
            Feature::KingTerritory => "king_territory",
            Feature::Exclusive => "exclusive",
            Feature::Blocked => "blocked",
            Feature::Cornered => "cornered",
            Feature::Liberties => "liberties",
            Feature::NoMove => "no_move",
            Feature::Score => "score",
            Feature::ToMove => "to_move",
        }
    }
}

/// The features of one position, each black's count minus white's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// In the order of [`Feature::ALL`].
    pub values: [i32; COUNT],
    /// Free squares left (56 at the start, 0 at the latest end): the game phase.
    pub free: u32,
}

impl Features {
    /// Computes every feature of `position`. Always inlined, so that the search's copy
    /// compiled for AVX2 ([`crate::players::minimax::Instructions`]) computes them with it
    /// (the eight directions of [`slides`] in two vector registers).
    #[inline(always)]
    pub fn of(position: &Position) -> Features {
        let black = position.pieces(Color::Black).0;
        let white = position.pieces(Color::White).0;
        let free = !position.occupied().0;

        let mobility_black = position.count_moves(Color::Black) as i32;
        let mobility_white = position.count_moves(Color::White) as i32;

        // The king race (cheap steps) floods every square either side can ever reach; the
        // queen race (dearer steps), knowing them, stops as soon as no square both can reach
        // is left to decide: 30 % less time than two whole races (notebook).
        let king = race(black, white, free, None, |set| neighbours(set) & free);
        let queen = race(black, white, free, Some(king.reached), |set| {
            slides(set, free) & free
        });
        let (reach_black, reach_white) = queen.first;
        let (blocked, cornered, liberties) = crowding(black, white, free);
        let to_move = match position.side_to_move() {
            Color::Black => 1,
            Color::White => -1,
        };
        let mut values = [0; COUNT];
        values[Feature::Mobility as usize] = mobility_black - mobility_white;
        values[Feature::OneMoveExclusive as usize] =
            ones(reach_black & !reach_white) - ones(reach_white & !reach_black);
        values[Feature::QueenTerritory as usize] = queen.territory;
        values[Feature::KingTerritory as usize] = king.territory;
        values[Feature::Exclusive as usize] = king.exclusive;
        values[Feature::Blocked as usize] = blocked;
        values[Feature::Cornered as usize] = cornered;
        values[Feature::Liberties as usize] = liberties;
        values[Feature::NoMove as usize] =
            i32::from(mobility_black == 0) - i32::from(mobility_white == 0);
        values[Feature::Score as usize] =
            i32::from(position.score(Color::Black)) - i32::from(position.score(Color::White));
        values[Feature::ToMove as usize] = to_move;
        Features {
            values,
            free: free.count_ones(),
        }
    }

    /// One feature.
    pub fn get(&self, feature: Feature) -> i32 {
        self.values[feature as usize]
    }
}

#[inline(always)]
fn ones(b: u64) -> i32 {
    b.count_ones() as i32
}

/// What a race of two flood fills gives, black's minus white's.
struct Race {
    /// Squares reached strictly first.
    territory: i32,
    /// Squares reached by one side only.
    exclusive: i32,
    /// The free squares each side reaches in one step (black's, white's).
    first: (u64, u64),
    /// The free squares each side reaches at all (black's, white's).
    reached: (u64, u64),
}

/// Floods both sides at once one `step` at a time; a square belongs to the side that reaches
/// it first (nobody's on a tie). Given `reached` (the free squares each side reaches at all,
/// from another race: any step that moves through free squares reaches the same ones), it
/// stops once every square both reach has been reached by one of them: the rest are squares
/// only one side reaches, its own whenever it gets there.
#[inline(always)]
fn race(
    black: u64,
    white: u64,
    free: u64,
    reached: Option<(u64, u64)>,
    step: impl Fn(u64) -> u64,
) -> Race {
    let (mut seen_black, mut seen_white) = (black, white);
    let (mut front_black, mut front_white) = (black, white);
    let (mut own_black, mut own_white) = (0, 0);
    let mut first = None;
    // Without `reached`, the flood goes on to its end: a square one side has reached may be
    // reached by the other later. The first step is always taken: it is `first`.
    let undecided = |seen: u64| reached.is_none_or(|(b, w)| b & w & !seen != 0);
    while first.is_none() || front_black | front_white != 0 && undecided(seen_black | seen_white) {
        let next_black = step(front_black) & !seen_black;
        let next_white = step(front_white) & !seen_white;
        first.get_or_insert((next_black, next_white));
        own_black |= next_black & !seen_white & !next_white;
        own_white |= next_white & !seen_black & !next_black;
        seen_black |= next_black;
        seen_white |= next_white;
        front_black = next_black;
        front_white = next_white;
    }
    let (reached_black, reached_white) = reached.unwrap_or((seen_black & free, seen_white & free));
    let only_black = reached_black & !reached_white;
    let only_white = reached_white & !reached_black;
    own_black |= only_black & !seen_black;
    own_white |= only_white & !seen_white;
    Race {
        territory: ones(own_black) - ones(own_white),
        exclusive: ones(only_black) - ones(only_white),
        first: first.unwrap_or((0, 0)),
        reached: (reached_black, reached_white),
    }
}

/// Blocked pieces, nearly blocked pieces and liberties, black's minus white's.
#[inline(always)]
fn crowding(black: u64, white: u64, free: u64) -> (i32, i32, i32) {
    let mut blocked = 0;
    let mut cornered = 0;
    let mut liberties = 0;
    for (pieces, sign) in [(black, 1), (white, -1)] {
        let mut rest = pieces;
        while rest != 0 {
            let piece = rest & rest.wrapping_neg();
            rest ^= piece;
            let around = (neighbours(piece) & free).count_ones() as i32;
            blocked += sign * i32::from(around == 0);
            cornered += sign * i32::from(around == 1 || around == 2);
            liberties += sign * around;
        }
    }
    (blocked, cornered, liberties)
}

#[inline(always)]
fn neighbours(set: u64) -> u64 {
    Bitboard(set).neighbours().0
}

const NOT_A: u64 = !FILE_A.0;
const NOT_H: u64 = !FILE_H.0;

/// The squares a queen standing on any square of `from` attacks when only the `free` squares
/// can be crossed: the free squares it can land on, and the first blocker in each direction.
/// Kogge–Stone fills, eight directions at once, no table.
#[inline(always)]
pub fn slides(from: u64, free: u64) -> u64 {
    let left = |b: u64, s: u32| b << s;
    let right = |b: u64, s: u32| b >> s;
    let mut out = 0;
    // (shift, direction, the mask of squares a step may land on)
    let dirs: [(u32, bool, u64); 8] = [
        (8, true, u64::MAX),  // north
        (8, false, u64::MAX), // south
        (1, true, NOT_A),     // east
        (1, false, NOT_H),    // west
        (9, true, NOT_A),     // north-east
        (7, true, NOT_H),     // north-west
        (7, false, NOT_A),    // south-east
        (9, false, NOT_H),    // south-west
    ];
    for (s, up, mask) in dirs {
        let shift = |b: u64, k: u32| if up { left(b, k) } else { right(b, k) };
        let mut generated = from;
        let mut open = free & mask;
        generated |= open & shift(generated, s);
        open &= shift(open, s);
        generated |= open & shift(generated, 2 * s);
        open &= shift(open, 2 * s);
        generated |= open & shift(generated, 4 * s);
        out |= shift(generated, s) & mask;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use yolah_core::{Square, attacks};

    /// The distance of every square from `pieces` in `steps` through free squares (`u32::MAX`:
    /// never), by a breadth-first search square by square: the definition the fills compute.
    fn distances(pieces: u64, free: u64, steps: impl Fn(Square) -> u64) -> [u32; 64] {
        let mut distance = [u32::MAX; 64];
        let mut queue: std::collections::VecDeque<Square> = Square::all()
            .filter(|s| pieces >> s.index() & 1 == 1)
            .collect();
        for square in &queue {
            distance[square.index()] = 0;
        }
        while let Some(square) = queue.pop_front() {
            for next in Square::all() {
                let bit = 1u64 << next.index();
                if steps(square) & free & bit != 0 && distance[next.index()] == u32::MAX {
                    distance[next.index()] = distance[square.index()] + 1;
                    queue.push_back(next);
                }
            }
        }
        distance
    }

    /// Black's count minus white's of the `free` squares where `mine(own, other)` holds.
    fn count(
        free: u64,
        black: &[u32; 64],
        white: &[u32; 64],
        mine: impl Fn(u32, u32) -> bool,
    ) -> i32 {
        (0..64)
            .filter(|&s| free >> s & 1 == 1)
            .map(|s| i32::from(mine(black[s], white[s])) - i32::from(mine(white[s], black[s])))
            .sum()
    }

    #[test]
    fn races_match_a_breadth_first_search_square_by_square() {
        let mut rng = SmallRng::seed_from_u64(59);
        for _ in 0..60 {
            let mut position = Position::start();
            while !position.game_over() {
                let free = !position.occupied().0;
                let occupied = position.occupied();
                let (black, white) = (
                    position.pieces(Color::Black).0,
                    position.pieces(Color::White).0,
                );
                let features = Features::of(&position);
                let king = |s: Square| Bitboard(1 << s.index()).neighbours().0;
                let queen = |s: Square| attacks(s, occupied).0;
                let (kb, kw) = (distances(black, free, king), distances(white, free, king));
                let (qb, qw) = (distances(black, free, queen), distances(white, free, queen));
                let expected = [
                    (Feature::QueenTerritory, count(free, &qb, &qw, |d, e| d < e)),
                    (Feature::KingTerritory, count(free, &kb, &kw, |d, e| d < e)),
                    (
                        Feature::Exclusive,
                        count(free, &kb, &kw, |d, e| d != u32::MAX && e == u32::MAX),
                    ),
                    (
                        Feature::OneMoveExclusive,
                        count(free, &qb, &qw, |d, e| d == 1 && e != 1),
                    ),
                ];
                for (feature, value) in expected {
                    assert_eq!(features.get(feature), value, "{feature:?} in {position}");
                }
                let moves = position.moves();
                position.play(moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]);
            }
        }
    }

    #[test]
    fn slides_match_the_magic_attacks() {
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..2000 {
            let occupied: u64 = rand::Rng::next_u64(&mut rng) & rand::Rng::next_u64(&mut rng);
            for square in Square::all() {
                let expected = attacks(square, Bitboard(occupied)).0;
                // The magic attacks stop before a blocker; slides include it.
                let got = slides(1 << square.index(), !occupied) & !occupied;
                assert_eq!(got, expected, "{square} {occupied:#x}");
            }
        }
    }
}

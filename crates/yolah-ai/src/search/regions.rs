//! Exact endgames by regions. A piece moves through free squares only, along lines of
//! neighbouring squares, so it never leaves the king-connected group of free squares it touches.
//! The board splits into **areas**: groups of free squares together with the pieces that touch
//! them (a piece touching two groups joins them). When no area holds pieces of both sides,
//! the sides can no longer meet: each makes, independently, the longest run of moves its pieces
//! have in their areas (a one-player problem, solved exactly with a cache), and the final
//! margin is known without search.
//!
//! While they still meet, the areas still bound the margin and prune the search ([`Study`]):
//! an area of one side's pieces only gives that side exactly its run, any other area at most
//! its free squares; and of a side's moves in its own areas, one that keeps their run is
//! enough.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use yolah_core::{Bitboard, Color, Move, Position, attacks};

/// How much one-player search a position may cost before it is left to the main search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaLimits {
    /// The largest area (free squares) solved as a one-player problem.
    pub area: u32,
    /// The most one-player positions expanded for one position of the main search (what is
    /// finished stays cached, so a later visit goes further).
    pub budget: u64,
}

/// A playing search's limits. The one-player search grows fast with the area: at 24 squares
/// the network's bench took twice as long (`yolah bench`, 4.0 s against 2.0 s), at 16 no
/// longer than without regions; the budget keeps a short move short (a 3 ms move once took
/// 300 ms in one big area; 4,096 expansions a position still let it take 50 ms).
pub const PLAY_LIMITS: AreaLimits = AreaLimits {
    area: 16,
    budget: 256,
};
/// `solve`'s limits: proving takes long anyway, but one position's one-player runs must not
/// take seconds and gigabytes (with no budget, one study of a 24-square area ran for minutes:
/// a longest run is a longest path). What a study leaves unfinished a later visit goes on with.
pub const SOLVE_LIMITS: AreaLimits = AreaLimits {
    area: 24,
    budget: SOLVE_BUDGET,
};
/// [`SOLVE_LIMITS`]'s expansions a position.
const SOLVE_BUDGET: u64 = 1 << 16;
/// Cached one-player results kept before the cache starts again: with a study's budget, the
/// cache holds at most this many and one study's more.
const MAX_CACHE: usize = 1 << 20;
/// The most memory a [`Regions`] holds, MiB: its cache full, with the table's growth.
pub const MEMORY_MB: u64 = 64;

/// A hasher for pairs of bitboards: a multiply and a rotate per word, far cheaper than the
/// standard library's keyed hash (nothing here comes from an adversary).
#[derive(Default)]
struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(29) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// What the areas say of a position: how many more moves each side can make, at least and
/// at most, and which of the side to move's moves a search may drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Study {
    /// Black's and white's fewest and most moves still to come. An area of one side's pieces
    /// only, solved, gives its longest run exactly: nothing that happens elsewhere stops it or
    /// adds to it. Any other area its pieces touch adds from none up to its free squares (a
    /// move fills one, and no square is ever freed).
    pub moves: [[i32; 2]; 2],
    /// The side to move's pieces in its own solved areas, and one move of theirs that keeps
    /// the longest run those areas allow (it leaves that run less one), if they have a move.
    /// Such an area's run can be made at any pace, so their other moves are never better
    /// than this one: a search may drop them and keep its value exact.
    pub own: Option<(u64, Move)>,
}

impl Study {
    /// The least and the most points of margin the side to move of `position` can end with.
    pub fn margins(&self, position: &Position) -> (i32, i32) {
        let us = position.side_to_move();
        let them = us.opponent();
        let now = i32::from(position.score(us)) - i32::from(position.score(them));
        let (ours, theirs) = (self.moves[us.index()], self.moves[them.index()]);
        (now + ours[0] - theirs[1], now + ours[1] - theirs[0])
    }
}

/// One-player longest runs, cached by (free squares of the area, the side's pieces in it).
#[derive(Default)]
pub struct Regions {
    cache: HashMap<(u64, u64), u8, BuildHasherDefault<BoardHasher>>,
    /// One-player positions expanded since the cache was made: the work a search's clock
    /// must also see.
    spent: u64,
}

/// The free squares reachable from `seeds` through king steps over `free`.
fn fill(seeds: Bitboard, free: Bitboard) -> Bitboard {
    let mut area = Bitboard(seeds.0 & free.0);
    loop {
        let grown = Bitboard((area.0 | area.neighbours().0) & free.0);
        if grown == area {
            return area;
        }
        area = grown;
    }
}

/// A group of free squares and the pieces that touch it, black's and white's.
#[derive(Clone, Copy, Default)]
struct Area {
    free: u64,
    pieces: [u64; 2],
}

/// The position's areas (at most eight: each touches a piece, and a piece is in one).
fn areas(position: &Position) -> ([Area; 8], usize) {
    let black = position.pieces(Color::Black);
    let white = position.pieces(Color::White);
    let pieces = Bitboard(black.0 | white.0);
    let free = Bitboard(!position.occupied().0);
    let mut out = [Area::default(); 8];
    let mut count = 0;
    let mut left = Bitboard(pieces.neighbours().0 & free.0);
    while left.0 != 0 {
        let seed = Bitboard(1 << left.lowest().index());
        let mut area = fill(seed, free);
        let mut touching = Bitboard(area.neighbours().0 & pieces.0);
        loop {
            let more = Bitboard(touching.neighbours().0 & free.0 & !area.0);
            if more.0 == 0 {
                break;
            }
            area = Bitboard(area.0 | fill(more, free).0);
            touching = Bitboard(area.neighbours().0 & pieces.0);
        }
        left = Bitboard(left.0 & !area.0);
        let sides = [touching.0 & black.0, touching.0 & white.0];
        out[count] = Area {
            free: area.0,
            pieces: sides,
        };
        count += 1;
    }
    (out, count)
}

impl Regions {
    /// A new, empty cache.
    pub fn new() -> Regions {
        Regions::default()
    }

    /// The final margin for the side to move when the sides can no longer meet (and every
    /// one-sided area is small enough to solve), `None` otherwise. A finished game is
    /// separated, with its own margin.
    pub fn separated_margin(&mut self, position: &Position, limits: AreaLimits) -> Option<i32> {
        let us = position.side_to_move();
        self.separated_scores(position, limits)
            .map(|scores| scores[us.index()] - scores[us.opponent().index()])
    }

    /// The final scores, black's then white's, when the sides can no longer meet (every
    /// one-sided area small enough to solve within `limits`): each side makes the longest
    /// run of moves its areas allow, whatever the other does, so these are the scores of
    /// best play, proved. `None` when an area is shared or too large, or the budget runs out.
    pub fn separated_scores(
        &mut self,
        position: &Position,
        limits: AreaLimits,
    ) -> Option<[i32; 2]> {
        // A shared area ends the question before any one-player search, the costly part.
        let (areas, count) = areas(position);
        if areas[..count]
            .iter()
            .any(|a| a.pieces[0] != 0 && a.pieces[1] != 0)
        {
            return None;
        }
        let study = self.study_areas(position, &areas[..count], limits);
        let [black, white] = study.moves;
        (black[0] == black[1] && white[0] == white[1]).then(|| {
            let final_score = |c: Color, runs: [i32; 2]| i32::from(position.score(c)) + runs[0];
            [
                final_score(Color::Black, black),
                final_score(Color::White, white),
            ]
        })
    }

    /// What the areas tell a search of `position`, one-player runs solved within `limits`.
    pub fn study(&mut self, position: &Position, limits: AreaLimits) -> Study {
        let (areas, count) = areas(position);
        self.study_areas(position, &areas[..count], limits)
    }

    /// [`Regions::study`] of `position`, whose areas are `areas`.
    fn study_areas(&mut self, position: &Position, areas: &[Area], limits: AreaLimits) -> Study {
        let us = position.side_to_move().index();
        let mut budget = limits.budget;
        let mut study = Study {
            moves: [[0; 2]; 2],
            own: None,
        };
        let (mut own, mut keep) = (0u64, None);
        for area in areas {
            let squares = area.free.count_ones() as i32;
            let side = match area.pieces {
                [_, 0] => 0,
                [0, _] => 1,
                _ => {
                    // Shared: each side from no move to as many as the area has squares.
                    study.moves[0][1] += squares;
                    study.moves[1][1] += squares;
                    continue;
                }
            };
            let pieces = area.pieces[side];
            let Some(run) = self.run(area.free, pieces, limits, &mut budget) else {
                study.moves[side][1] += squares;
                continue;
            };
            let run_moves = i32::from(run);
            study.moves[side][0] += run_moves;
            study.moves[side][1] += run_moves;
            if side == us {
                own |= pieces;
                if run > 0 && keep.is_none() {
                    keep = self.first_move(area.free, pieces, run, &mut budget);
                }
            }
        }
        study.own = keep.map(|keep| (own, keep));
        study
    }

    /// The longest run of `pieces` over `free` when the area is small enough for `limits`,
    /// from the cache (cleared when full) or searched; `None` if not or the budget runs out.
    fn run(&mut self, free: u64, pieces: u64, limits: AreaLimits, budget: &mut u64) -> Option<u8> {
        if free.count_ones() > limits.area {
            return None;
        }
        self.longest(free, pieces, budget)
    }

    /// One-player positions expanded so far (every study's, never reset).
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// A move of `pieces` over `free` after which they still make `run − 1` moves.
    fn first_move(&mut self, free: u64, pieces: u64, run: u8, budget: &mut u64) -> Option<Move> {
        let occupied = Bitboard(!free);
        let mut movers = Bitboard(pieces);
        while movers.0 != 0 {
            let from = movers.pop_lowest();
            let mut targets = Bitboard(attacks(from, occupied).0 & free);
            while targets.0 != 0 {
                let to = targets.pop_lowest();
                let to_bit = 1u64 << to.index();
                let moved = pieces ^ (1 << from.index()) ^ to_bit;
                if self.longest(free & !to_bit, moved, budget)? + 1 == run {
                    return Some(Move::new(from, to));
                }
            }
        }
        None
    }

    /// The longest run of moves of `pieces` over the free squares `free` (everything else
    /// blocks), by exhaustive search with the cache; `None` once `budget` expansions are
    /// spent.
    fn longest(&mut self, free: u64, pieces: u64, budget: &mut u64) -> Option<u8> {
        if let Some(&run) = self.cache.get(&(free, pieces)) {
            return Some(run);
        }
        *budget = budget.checked_sub(1)?;
        self.spent += 1;
        let bound = free.count_ones() as u8;
        let occupied = Bitboard(!free);
        let mut best = 0;
        let mut movers = Bitboard(pieces);
        'pieces: while movers.0 != 0 {
            let from = movers.pop_lowest();
            let mut targets = Bitboard(attacks(from, occupied).0 & free);
            while targets.0 != 0 {
                let to = targets.pop_lowest();
                let to_bit = 1u64 << to.index();
                let moved = pieces ^ (1 << from.index()) ^ to_bit;
                let run = 1 + self.longest(free & !to_bit, moved, budget)?;
                if run > best {
                    best = run;
                    if best == bound {
                        break 'pieces;
                    }
                }
            }
        }
        if self.cache.len() >= MAX_CACHE {
            self.cache.clear();
        }
        self.cache.insert((free, pieces), best);
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_over_is_separated_with_its_own_margin() {
        let over: Position =
            "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64"
                .parse()
                .unwrap();
        assert_eq!(
            Regions::new().separated_margin(&over, PLAY_LIMITS),
            Some(-8)
        );
    }

    #[test]
    fn the_start_is_not_separated() {
        assert_eq!(
            Regions::new().separated_margin(&Position::start(), PLAY_LIMITS),
            None
        );
    }

    /// A study never expands more one-player positions than its budget, and the cache never
    /// holds more than its bound and one study's: with no budget, one study of a 24-square
    /// area ran for minutes and grew the cache past a gigabyte.
    #[test]
    fn a_study_keeps_its_budget_and_the_cache_its_bound() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(70);
        let mut regions = Regions::new();
        let mut costly = 0;
        for i in 0..200 {
            let free = 22 + i % 8;
            let mut position = Position::start();
            while !position.game_over() && 64 - position.occupied().count() > free {
                position.play(position.random_move(&mut rng));
            }
            let before = regions.spent();
            regions.study(&position, SOLVE_LIMITS);
            let spent = regions.spent() - before;
            assert!(
                spent <= SOLVE_LIMITS.budget,
                "{spent} expansions: {position}"
            );
            assert!(regions.cache.len() as u64 <= MAX_CACHE as u64 + SOLVE_LIMITS.budget);
            costly += usize::from(spent == SOLVE_LIMITS.budget);
        }
        // Some studies ran into the budget: it is what bounds them.
        assert!(costly > 0, "no study reached the budget");
    }
}

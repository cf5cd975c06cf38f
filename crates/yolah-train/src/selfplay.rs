//! Self-play: games of one player against itself from random openings, every searched
//! position kept with its labels (the result and margin the game ended with, and the search's
//! own score), as training data for the network. With [`Exact`], the positions of a game's
//! end that the solver proves within a node budget also get their exact value
//! ([`Sample::exact`]), beside the game's labels.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use yolah_ai::arena::game::play_game;
use yolah_ai::arena::opening::random_opening;
pub use yolah_ai::arena::shard::Shard;
use yolah_ai::data::Sample;
use yolah_ai::player::Report;
use yolah_ai::players::minimax::Minimax;
use yolah_ai::spec::Spec;
use yolah_core::zobrist::{fnv1a, splitmix64};
use yolah_core::{Color, Position};

/// The most games a run may ask for.
pub const MAX_GAMES: u64 = 10_000_000;
/// The most random opening plies.
pub const MAX_RANDOM_PLIES: u32 = 40;
/// The most free squares of a position the solver is asked to prove.
pub const MAX_EXACT_FREE: u32 = 32;
/// The most nodes the solver may search for one position.
pub const MAX_EXACT_NODES: u64 = 100_000_000;
/// The solver's transposition table, per thread.
const SOLVER_TABLE_MB: usize = 32;

/// Exact labels: the positions of a game with at most `free` free squares, from its last
/// back, solved within `nodes` nodes each (the solver keeps its table through one game's
/// positions, so each helps the one before; going back stops at the first it cannot prove).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exact {
    /// Positions with at most this many free squares are solved.
    pub free: u32,
    /// The solver's node budget per position.
    pub nodes: u64,
}

impl Exact {
    /// Checks the settings; the error names the option.
    pub fn check(self) -> Result<(), String> {
        if !(1..=MAX_EXACT_FREE).contains(&self.free) {
            return Err(format!(
                "--exact-free must be from 1 to {MAX_EXACT_FREE}, not {}",
                self.free
            ));
        }
        if !(1..=MAX_EXACT_NODES).contains(&self.nodes) {
            return Err(format!(
                "--exact-nodes must be from 1 to {MAX_EXACT_NODES}, not {}",
                self.nodes
            ));
        }
        Ok(())
    }
}

/// What decides a self-play run's games: with a node- or iteration-limited spec, the same
/// config gives the same data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The player, for both sides.
    pub spec: String,
    /// Games to play.
    pub games: u64,
    /// Random plies before the player takes over (the exploration: each game starts elsewhere).
    pub random_plies: u32,
    /// The run's seed.
    pub seed: u64,
    /// The part of the games this run plays, when the work is split (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Exact labels for the positions the solver proves, if asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
}

impl Config {
    /// Checks the config: a spec that parses, counts within their limits.
    pub fn check(&self) -> Result<Spec, String> {
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(format!(
                "--games must be from 1 to {MAX_GAMES}, not {}",
                self.games
            ));
        }
        if self.random_plies > MAX_RANDOM_PLIES {
            return Err(format!(
                "--random-plies must be at most {MAX_RANDOM_PLIES}, not {}",
                self.random_plies
            ));
        }
        if let Some(exact) = self.exact {
            exact.check()?;
        }
        self.spec
            .parse::<Spec>()
            .map_err(|e| format!("player {}: {e}", yolah_core::text::quote(&self.spec)))
    }

    /// A fingerprint of what decides each game (spec, random plies, seed, exact labels; not
    /// the number of games, which a resumed run may raise), FNV-1a, stored in the data file's
    /// header so that a file is never resumed by another run.
    ///
    /// The games' seeds are drawn as [`game_seed`] draws them since `GAMES`: a file of the
    /// runs before, whose neighbouring seeds played the same games, is not resumed by this one.
    pub fn fingerprint(&self) -> u64 {
        const GAMES: &str = "game seeds 2";
        let json = match self.exact {
            None => serde_json::to_string(&(GAMES, &self.spec, self.random_plies, self.seed)),
            Some(exact) => {
                serde_json::to_string(&(GAMES, &self.spec, self.random_plies, self.seed, exact))
            }
        }
        .expect("a config serialises");
        fnv1a(json.as_bytes())
    }
}

/// The search's value of a report, in hundredths of a point for the side to move: the
/// minimax margin when there is one, else the expected score mapped to ±1000.
fn score(report: &Report) -> i16 {
    let hundredths = match (report.margin, report.value) {
        (Some(margin), _) => margin.points * 100.0,
        (None, Some(value)) => (value - 0.5) * 2000.0,
        (None, None) => 0.0,
    };
    hundredths.round().clamp(-10_000.0, 10_000.0) as i16
}

/// The seed of game `number` of a run of seed `seed`: the run's seed is mixed before the
/// number joins it, so that runs of neighbouring seeds (a loop's generations: `seed × 1000 +
/// g`) play different games. (`seed ^ number` gave seeds that differ in their low bits the
/// same games in another order: a loop whose network was not promoted played one
/// generation's games again, generation after generation.)
pub fn game_seed(seed: u64, number: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ number)
}

/// Plays game `number` of the run and returns its samples: every position after the opening
/// where the side to move had a choice, in order.
pub fn play(config: &Config, spec: &Spec, number: u64) -> Vec<Sample> {
    let game_seed = game_seed(config.seed, number);
    let opening = random_opening(config.random_plies, game_seed);
    let mut black = spec.agent_for_game(splitmix64(game_seed ^ 1));
    let mut white = spec.agent_for_game(splitmix64(game_seed ^ 2));
    let mut searched: Vec<(Position, i16)> = Vec::new();
    let game = play_game(&mut black, &mut white, &opening, |position, report| {
        if position.moves().len() > 1 {
            searched.push((*position, score(report)));
        }
    });
    let final_margin = i16::from(game.scores[0]) - i16::from(game.scores[1]);
    let mut samples: Vec<Sample> = searched
        .into_iter()
        .map(|(position, score)| {
            let margin = match position.side_to_move() {
                Color::Black => final_margin,
                Color::White => -final_margin,
            } as i8;
            Sample {
                position,
                result: margin.signum(),
                margin,
                score,
                exact: None,
            }
        })
        .collect();
    if let Some(exact) = config.exact {
        label_exactly(&mut samples, exact);
    }
    samples
}

thread_local! {
    /// Each thread's solver, its table kept between games (and cleared for each).
    static SOLVER: RefCell<Option<Minimax>> = const { RefCell::new(None) };
}

/// Gives the positions of one game that the solver proves (from the last back, while it
/// proves them) their exact values. The same game gives the same labels: the solver
/// starts each game with an empty table and searches by nodes.
pub fn label_exactly(samples: &mut [Sample], exact: Exact) {
    prove_from_the_end(
        samples,
        |s| &s.position,
        exact,
        |s, margin| s.exact = Some(margin.clamp(-64, 64) as i8),
    );
}

/// The solver's walk of [`label_exactly`] over any game's items in order of play: `label`
/// gets each item whose position (`position_of`) it proves, with its exact margin for the
/// side to move, from the last back while it proves them.
pub fn prove_from_the_end<T>(
    items: &mut [T],
    position_of: impl Fn(&T) -> &Position,
    exact: Exact,
    mut label: impl FnMut(&mut T, i32),
) {
    SOLVER.with_borrow_mut(|solver| {
        let solver = solver.get_or_insert_with(|| Minimax::solver(SOLVER_TABLE_MB, 1));
        solver.clear();
        for item in items.iter_mut().rev() {
            let position = position_of(item);
            let free = 64 - position.occupied().count();
            if free > exact.free {
                continue;
            }
            let Some(margin) = solver.prove(position, exact.nodes) else {
                break;
            };
            label(item, margin);
        }
    });
}

impl Config {
    /// The numbers of the games this run plays, in order: all, or its shard's.
    pub fn numbers(&self) -> Vec<u64> {
        match self.shard {
            None => (0..self.games).collect(),
            Some(Shard { index, count }) => {
                (index - 1..self.games).step_by(count as usize).collect()
            }
        }
    }
}

/// Plays this run's games from its `first` (an index into [`Config::numbers`]) on the threads
/// of `pool` and hands each game's samples to `on_game` on the calling thread, in order (games
/// finish out of order; they wait for their turn). Stops starting games once `on_game` fails,
/// and returns its error.
pub fn run<E: Send>(
    config: &Config,
    spec: &Spec,
    first: usize,
    pool: &rayon::ThreadPool,
    mut on_game: impl FnMut(u64, Vec<Sample>) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    let failed = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let numbers = config.numbers();
    let numbers = &numbers;
    std::thread::scope(|scope| {
        let failed = &failed;
        scope.spawn(move || {
            pool.install(|| {
                (first..numbers.len())
                    .into_par_iter()
                    .for_each_with(sender, |sender, i| {
                        if !failed.load(Ordering::Relaxed) {
                            let _ = sender.send((i, play(config, spec, numbers[i])));
                        }
                    });
            });
        });
        let mut waiting = BTreeMap::new();
        let mut next = first;
        for (i, samples) in receiver {
            waiting.insert(i, samples);
            while let Some(samples) = waiting.remove(&next) {
                if let Err(error) = on_game(numbers[next], samples) {
                    failed.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                next += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use yolah_ai::Limits;
    use yolah_ai::players::minimax::proven_margin;

    /// The runs of a loop's generations (seeds 45001, 45002, …) play different games: none of
    /// one run's first games is among the other's.
    #[test]
    fn neighbouring_seeds_play_different_games() {
        let config = |seed| Config {
            spec: "minimax:nodes=50".to_string(),
            games: 8,
            random_plies: 6,
            seed,
            shard: None,
            exact: None,
        };
        let openings = |seed| -> Vec<Vec<Sample>> {
            let config = config(seed);
            let spec = config.check().unwrap();
            (0..8).map(|n| play(&config, &spec, n)).collect()
        };
        let (a, b) = (openings(45_002), openings(45_003));
        for game in &a {
            assert!(!b.contains(game), "a game of seed 45002 is one of 45003's");
        }
    }

    #[test]
    fn a_game_gives_labelled_positions_reproducibly() {
        let config = Config {
            spec: "minimax:nodes=300".to_string(),
            games: 2,
            random_plies: 4,
            seed: 5,
            shard: None,
            exact: None,
        };
        let spec = config.check().unwrap();
        let samples = play(&config, &spec, 0);
        assert!(samples.len() > 10, "{}", samples.len());
        assert_eq!(samples, play(&config, &spec, 0), "reproducible");
        assert_ne!(samples, play(&config, &spec, 1));
        // The labels agree: both sides see the same margin with opposite signs.
        let last = samples.last().unwrap();
        for sample in &samples {
            let same_side = sample.position.side_to_move() == last.position.side_to_move();
            let expected = if same_side { last.margin } else { -last.margin };
            assert_eq!(sample.margin, expected);
            assert_eq!(sample.result, sample.margin.signum());
            assert!(Sample::from_bytes(&sample.to_bytes()).is_ok());
        }
        assert_eq!(samples[0].position.ply(), 4, "after the opening");
        assert_ne!(
            config.fingerprint(),
            Config {
                seed: 6,
                ..config.clone()
            }
            .fingerprint()
        );
        assert_eq!(
            config.fingerprint(),
            Config {
                games: 9,
                ..config.clone()
            }
            .fingerprint()
        );
        let sharded = Config {
            games: 7,
            shard: Some("2/3".parse().unwrap()),
            ..config.clone()
        };
        assert_eq!(sharded.numbers(), [1, 4]);
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let bad = Config {
            games: 0,
            ..config.clone()
        };
        assert!(bad.check().unwrap_err().contains("--games"));
    }

    /// Exact labels: the game's last positions are proved, from the end back; each is the
    /// solver's value found again from scratch; the rest keep the game's labels; the same
    /// game gives the same labels; and the fingerprint says which.
    #[test]
    fn exact_labels_are_the_solvers_values() {
        let plain = Config {
            spec: "minimax:nodes=300".to_string(),
            games: 1,
            random_plies: 4,
            seed: 9,
            shard: None,
            exact: None,
        };
        let config = Config {
            exact: Some(Exact {
                free: 14,
                nodes: 200_000,
            }),
            ..plain.clone()
        };
        let spec = config.check().unwrap();
        let samples = play(&config, &spec, 0);
        let game = play(&plain, &spec, 0);
        assert_eq!(samples.len(), game.len(), "the same game");
        assert_eq!(samples, play(&config, &spec, 0), "reproducible");
        let exact = samples.iter().filter(|s| s.exact.is_some()).count();
        assert!(exact >= 3, "{exact} exact values");
        // The exact ones are the game's last positions, all within the free squares asked.
        let first = samples.iter().position(|s| s.exact.is_some()).unwrap();
        assert!(samples[first..].iter().all(|s| s.exact.is_some()));
        let mut solver = Minimax::solver(16, 1);
        for (sample, played) in samples.iter().zip(&game) {
            // The game's labels are kept beside the exact value.
            assert_eq!(
                Sample {
                    exact: None,
                    ..*sample
                },
                *played
            );
            let Some(exact) = sample.exact else {
                continue;
            };
            assert!(64 - sample.position.occupied().count() <= 14);
            let outcome = solver.search(&sample.position, Limits::default());
            assert!(outcome.proven);
            let margin = proven_margin(outcome.value).unwrap_or(0);
            assert_eq!(i32::from(exact), margin, "{}", sample.position);
            assert_eq!(Sample::from_bytes(&sample.to_bytes()).unwrap(), *sample);
        }
        assert_ne!(config.fingerprint(), plain.fingerprint());
        // A file of the runs whose neighbouring seeds played the same games is not resumed.
        let before_game_seeds =
            serde_json::to_string(&(&plain.spec, plain.random_plies, plain.seed)).unwrap();
        assert_ne!(plain.fingerprint(), fnv1a(before_game_seeds.as_bytes()));
        for (free, nodes, name) in [
            (0, 10, "--exact-free"),
            (33, 10, "--exact-free"),
            (10, 0, "--exact-nodes"),
        ] {
            let bad = Config {
                exact: Some(Exact { free, nodes }),
                ..plain.clone()
            };
            assert!(bad.check().unwrap_err().contains(name), "{free} {nodes}");
        }
    }
}

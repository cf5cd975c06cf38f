//! The genetic algorithm that tunes the heuristic weights (book chapter 6).
//!
//! An individual is one weight vector (early and late weights of every feature). Its fitness is
//! its score in games against a fixed panel of opponents, each game from a random opening and
//! played twice with colours swapped, every search limited by nodes so that a run is
//! reproducible. Each generation:
//! 1. every individual plays the panel from openings drawn for that generation (the same
//!    openings for all: common random numbers make the comparison fairer);
//! 2. the best are kept as they are (elitism) and keep their results, so an elite's fitness is
//!    averaged over every generation it lived;
//! 3. the rest of the next generation are children: two parents picked by tournaments of
//!    three, blend crossover (BLX-α, each gene drawn around and between the parents'), then
//!    Gaussian mutation of some genes.
//!
//! All randomness comes from the run's seed and the generation number, so a run resumed from
//! its checkpoint continues exactly as if it had never stopped.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use yolah_ai::agent::Agent;
use yolah_ai::arena::game::play_game;
use yolah_ai::arena::opening::random_opening;
use yolah_ai::eval::Weights;
use yolah_ai::eval::features::COUNT;
use yolah_ai::players::minimax::Minimax;
use yolah_ai::spec::{Spec, SpecError};
use yolah_core::Color;
use yolah_core::text::quote;
use yolah_core::zobrist::splitmix64;

/// Genes of an individual: early then late weights.
pub const GENES: usize = 2 * COUNT;

/// The weights the tuning starts from: set by hand, before any tuning.
pub const START_JSON: &str = include_str!("../../yolah-ai/data/weights-start.json");

/// The opponent name that stands for minimax with the starting weights at the run's nodes.
pub const START: &str = "start";

/// Table size of the players of a tuning game, in MiB (their searches are small).
const TABLE_MB: usize = 2;

/// A tuning run's settings; stored in its checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Individuals per generation.
    pub population: usize,
    /// Generations to run.
    pub generations: u32,
    /// Individuals kept unchanged into the next generation.
    pub elite: usize,
    /// Openings per opponent per generation (each played with both colours).
    pub openings: u32,
    /// Nodes per move of the individuals' searches (and of the `start` opponent's).
    pub nodes: u64,
    /// The panel: `start` or player specs.
    pub opponents: Vec<String>,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// The seed of everything random.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            population: 24,
            generations: 30,
            elite: 3,
            openings: 8,
            nodes: 5000,
            opponents: vec![START.to_string(), "mcts:iterations=5000".to_string()],
            random_plies: 4,
            seed: 1,
        }
    }
}

/// The largest accepted value of each count a user can set.
pub const MAX_POPULATION: usize = 1000;
/// See [`MAX_POPULATION`].
pub const MAX_GENERATIONS: u32 = 10_000;
/// See [`MAX_POPULATION`].
pub const MAX_OPENINGS: u32 = 1000;
/// See [`MAX_POPULATION`].
pub const MAX_NODES: u64 = 100_000_000;
/// See [`MAX_POPULATION`]; beyond it an opening is longer than many games.
pub const MAX_RANDOM_PLIES: u32 = 40;

impl Config {
    /// Checks every number and parses the panel.
    pub fn check(&self) -> Result<Vec<Option<Spec>>, String> {
        let range = |name: &str, value: u64, low: u64, high: u64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(format!("{name} must be from {low} to {high}, not {value}"))
            }
        };
        range(
            "population",
            self.population as u64,
            2,
            MAX_POPULATION as u64,
        )?;
        range(
            "generations",
            u64::from(self.generations),
            1,
            u64::from(MAX_GENERATIONS),
        )?;
        range("elite", self.elite as u64, 0, self.population as u64 - 1)?;
        range(
            "openings",
            u64::from(self.openings),
            1,
            u64::from(MAX_OPENINGS),
        )?;
        range("nodes", self.nodes, 1, MAX_NODES)?;
        range(
            "random plies",
            u64::from(self.random_plies),
            0,
            u64::from(MAX_RANDOM_PLIES),
        )?;
        if self.opponents.is_empty() {
            return Err("the panel needs at least one opponent".to_string());
        }
        self.opponents
            .iter()
            .map(|text| {
                if text == START {
                    Ok(None)
                } else {
                    text.parse()
                        .map(Some)
                        .map_err(|e: SpecError| format!("opponent {}: {e}", quote(text)))
                }
            })
            .collect()
    }

    /// The spec of the individuals' searches.
    fn searcher_spec(&self) -> Spec {
        format!("minimax:nodes={}", self.nodes)
            .parse()
            .expect("nodes are checked")
    }

    /// Games each individual plays per generation.
    pub fn games_per_individual(&self) -> u32 {
        self.opponents.len() as u32 * self.openings * 2
    }
}

/// One individual and its results so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// Early then late weights.
    pub genes: Vec<i32>,
    /// Half points won (2 a win, 1 a draw).
    pub half_points: u64,
    /// Games played.
    pub games: u64,
}

impl Individual {
    fn new(genes: [i32; GENES]) -> Individual {
        Individual {
            genes: genes.to_vec(),
            half_points: 0,
            games: 0,
        }
    }

    /// The share of points won, 0 to 1 (0 before any game).
    pub fn fitness(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.half_points as f64 / (2 * self.games) as f64
    }

    /// Its weights.
    pub fn weights(&self) -> Weights {
        let mut genes = [0; GENES];
        genes.copy_from_slice(&self.genes);
        Weights::from_genes(&genes)
    }
}

/// One generation's line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// The generation, from 0.
    pub generation: u32,
    /// The best individual's fitness (over all its games).
    pub best: f64,
    /// The mean fitness of this generation's games.
    pub mean: f64,
    /// The best individual's games.
    pub best_games: u64,
    /// The best individual's genes.
    pub genes: Vec<i32>,
}

/// Everything a run needs to go on: written after each generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The settings.
    pub config: Config,
    /// The next generation to evaluate.
    pub generation: u32,
    /// That generation's individuals.
    pub population: Vec<Individual>,
    /// One row per finished generation.
    pub log: Vec<LogRow>,
}

impl Checkpoint {
    /// A new run: the starting weights and mutants of them.
    pub fn new(config: Config, start: Weights) -> Checkpoint {
        let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(config.seed));
        let start = start.genes();
        let mut population = vec![Individual::new(start)];
        while population.len() < config.population {
            let mut genes = start;
            mutate(&mut genes, &mut rng, 0.5);
            population.push(Individual::new(genes));
        }
        Checkpoint {
            config,
            generation: 0,
            population,
            log: Vec::new(),
        }
    }

    /// Whether every generation is done.
    pub fn finished(&self) -> bool {
        self.generation >= self.config.generations
    }

    /// The best weights found: those of the last log row (the start before any).
    pub fn best(&self) -> Option<Weights> {
        self.log.last().map(|row| {
            Individual {
                genes: row.genes.clone(),
                half_points: 0,
                games: 0,
            }
            .weights()
        })
    }

    /// Plays one generation on `threads` threads (calling `tick` after each game), logs it and
    /// breeds the next.
    pub fn step(&mut self, threads: usize, tick: &(dyn Fn() + Sync)) -> Result<(), String> {
        let panel = self.config.check()?;
        let results = self.play_generation(&panel, threads, tick)?;
        let mut fresh = 0.0;
        for (individual, (half_points, games)) in self.population.iter_mut().zip(results) {
            fresh += half_points as f64 / (2 * games) as f64;
            individual.half_points += half_points;
            individual.games += games;
        }
        let mut ranked = self.population.clone();
        ranked.sort_by(|a, b| b.fitness().total_cmp(&a.fitness()));
        let best = &ranked[0];
        self.log.push(LogRow {
            generation: self.generation,
            best: best.fitness(),
            mean: fresh / self.population.len() as f64,
            best_games: best.games,
            genes: best.genes.clone(),
        });
        self.population = self.breed(&ranked);
        self.generation += 1;
        Ok(())
    }

    /// Every individual's half points and games in this generation.
    fn play_generation(
        &self,
        panel: &[Option<Spec>],
        threads: usize,
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<(u64, u64)>, String> {
        let config = &self.config;
        let round = splitmix64(config.seed ^ splitmix64(u64::from(self.generation) + 1));
        let openings: Vec<_> = (0..config.openings)
            .map(|i| random_opening(config.random_plies, splitmix64(round ^ u64::from(i))))
            .collect();
        // One job per game: (individual, opponent, opening, individual's colour).
        let count = openings.len();
        let jobs: Vec<(usize, usize, usize, Color)> = (0..self.population.len())
            .flat_map(|i| {
                (0..panel.len()).flat_map(move |o| {
                    (0..count).flat_map(move |k| {
                        Color::ALL.into_iter().map(move |color| (i, o, k, color))
                    })
                })
            })
            .collect();
        let start = Weights::from_json(START_JSON).expect("the starting weights are valid");
        let searcher = config.searcher_spec();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        let half_points: Vec<(usize, u64)> = pool.install(|| {
            jobs.par_iter()
                .map(|&(i, o, k, color)| {
                    let mut me = Agent::new(
                        searcher.clone(),
                        Box::new(Minimax::new(self.population[i].weights(), TABLE_MB, 1)),
                    );
                    let seed = splitmix64(round ^ (o as u64) << 32 ^ (k as u64) << 1);
                    let mut opponent = match &panel[o] {
                        None => {
                            Agent::new(searcher.clone(), Box::new(Minimax::new(start, TABLE_MB, 1)))
                        }
                        Some(spec) => spec.agent_for_game(seed),
                    };
                    let game = match color {
                        Color::Black => play_game(&mut me, &mut opponent, &openings[k], |_, _| {}),
                        Color::White => play_game(&mut opponent, &mut me, &openings[k], |_, _| {}),
                    };
                    tick();
                    (i, u64::from(game.outcome.half_points(color)))
                })
                .collect()
        });
        let mut results = vec![(0, 0); self.population.len()];
        for (i, points) in half_points {
            results[i].0 += points;
            results[i].1 += 1;
        }
        Ok(results)
    }

    /// The next generation from this one ranked best first.
    fn breed(&self, ranked: &[Individual]) -> Vec<Individual> {
        let config = &self.config;
        let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(
            config.seed ^ splitmix64(u64::from(self.generation) + 1) ^ 0xb4ee_d000,
        ));
        let mut next: Vec<Individual> = ranked[..config.elite].to_vec();
        while next.len() < config.population {
            let mother = tournament(ranked, &mut rng);
            let father = tournament(ranked, &mut rng);
            let mut genes = [0; GENES];
            for (i, gene) in genes.iter_mut().enumerate() {
                let from = f64::from(mother.genes[i]);
                let to = f64::from(father.genes[i]);
                let blend: f64 = rng.random_range(-0.25..1.25);
                *gene = (from + blend * (to - from)).round() as i32;
            }
            mutate(&mut genes, &mut rng, 0.15);
            next.push(Individual::new(genes));
        }
        next
    }
}

/// The fitter of three individuals drawn at random.
fn tournament<'a>(ranked: &'a [Individual], rng: &mut ChaCha8Rng) -> &'a Individual {
    (0..3)
        .map(|_| &ranked[rng.random_range(0..ranked.len())])
        .max_by(|a, b| a.fitness().total_cmp(&b.fitness()))
        .expect("three draws")
}

/// Adds Gaussian noise to each gene with probability `rate`: σ is 10 plus a quarter of the
/// gene's size, so small and large weights both move.
fn mutate(genes: &mut [i32; GENES], rng: &mut ChaCha8Rng, rate: f64) {
    for gene in genes.iter_mut() {
        if rng.random::<f64>() < rate {
            // Box–Muller.
            let u1: f64 = rng.random_range(f64::EPSILON..1.0);
            let u2: f64 = rng.random();
            let normal = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            let sigma = 10.0 + 0.25 * f64::from(gene.abs());
            *gene = (f64::from(*gene) + sigma * normal).round() as i32;
        }
    }
    *genes = Weights::from_genes(genes).genes();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Config {
        Config {
            population: 4,
            generations: 2,
            elite: 1,
            openings: 1,
            nodes: 200,
            opponents: vec![START.to_string(), "random".to_string()],
            random_plies: 2,
            seed: 9,
        }
    }

    #[test]
    fn a_generation_plays_logs_and_breeds() {
        let mut run = Checkpoint::new(tiny(), Weights::from_json(START_JSON).unwrap());
        assert_eq!(run.population.len(), 4);
        assert_eq!(
            run.population[0].weights().genes(),
            Weights::from_json(START_JSON).unwrap().genes()
        );
        run.step(2, &|| {}).unwrap();
        assert_eq!(run.generation, 1);
        assert_eq!(run.log.len(), 1);
        let row = &run.log[0];
        assert!((0.0..=1.0).contains(&row.best) && row.mean <= row.best);
        assert_eq!(row.best_games, 4);
        // The elite keeps its results; the children start afresh.
        assert_eq!(run.population[0].games, 4);
        assert!(run.population[1..].iter().all(|i| i.games == 0));
        assert_eq!(run.population[0].genes, row.genes);
    }

    #[test]
    fn a_run_is_reproducible_and_resumes_exactly() {
        let start = Weights::from_json(START_JSON).unwrap();
        let mut straight = Checkpoint::new(tiny(), start);
        straight.step(1, &|| {}).unwrap();
        straight.step(2, &|| {}).unwrap();
        let mut resumed = Checkpoint::new(tiny(), start);
        resumed.step(2, &|| {}).unwrap();
        let saved = serde_json::to_string(&resumed).unwrap();
        let mut resumed: Checkpoint = serde_json::from_str(&saved).unwrap();
        resumed.step(1, &|| {}).unwrap();
        assert_eq!(straight, resumed);
        assert!(straight.finished());
    }

    #[test]
    fn bad_settings_are_refused() {
        type Change = fn(&mut Config);
        let cases: [(Change, &str); 5] = [
            (|c| c.population = 1, "population must be from 2"),
            (|c| c.elite = 4, "elite must be from 0 to 3"),
            (|c| c.nodes = 0, "nodes must be from 1"),
            (
                |c| c.opponents = vec!["mcts:depth=2".into()],
                "opponent 'mcts:depth=2'",
            ),
            (|c| c.opponents.clear(), "at least one opponent"),
        ];
        for (change, expected) in cases {
            let mut config = tiny();
            change(&mut config);
            let error = config.check().unwrap_err();
            assert!(error.contains(expected), "{error}");
        }
    }

    #[test]
    fn mutation_stays_within_the_weight_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut genes = [yolah_ai::eval::weights::MAX_WEIGHT; GENES];
        for _ in 0..100 {
            mutate(&mut genes, &mut rng, 1.0);
        }
        assert!(
            genes
                .iter()
                .all(|g| g.abs() <= yolah_ai::eval::weights::MAX_WEIGHT)
        );
    }
}

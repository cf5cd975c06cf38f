//! SPSA: the tuning of a player's search constants through games, as fishtest and `OpenBench`
//! tune chess engines (simultaneous perturbation stochastic approximation, Spall 1992).
//!
//! Each iteration `k` moves every parameter at once: each `θᵢ` is perturbed by `± cₖ·stepᵢ`
//! (the sign `Δᵢ` drawn at random), the player with `θ + cₖΔ` plays the player with `θ − cₖΔ`
//! (or each plays the panel of `against`) a few game pairs from random openings, colours
//! swapped, and each parameter moves by `aₖ · r / (2cₖΔᵢ) · stepᵢ`, `r` the first's score
//! minus the second's (−1 to 1). The schedules are Spall's: `aₖ = a / (A + k + 1)^α`, `cₖ = c /
//! (k + 1)^γ`, α = 0.602, γ = 0.101, A a tenth of the iterations the run starts with. Parameters are kept in their
//! ranges and rounded to whole numbers when played.
//!
//! Every game is searched to a node limit or a time the base spec sets; with a node limit and
//! a run's seed the games, and so the whole run, are reproducible: a run resumed from its
//! checkpoint goes on exactly as if it had not stopped.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use yolah_ai::arena::game::play_game;
use yolah_ai::arena::opening::random_opening;
use yolah_ai::options::ValueKind;
use yolah_ai::spec::Spec;
use yolah_core::Color;
use yolah_core::text::quote;
use yolah_core::zobrist::splitmix64;

/// Spall's exponent of the gain `aₖ`.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation `cₖ`.
pub const GAMMA: f64 = 0.101;
/// The most iterations a run may have.
pub const MAX_ITERATIONS: u32 = 1_000_000;
/// The most game pairs an iteration may play.
pub const MAX_PAIRS: u32 = 1000;

/// A run's settings; kept in its checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The player tuned, with its limits: `minimax:nodes=20000` (its other options are kept).
    pub base: String,
    /// The parameters tuned: tunable options of the base's player.
    pub params: Vec<String>,
    /// The panel each side plays instead of the other (empty: `θ+` against `θ−`).
    pub against: Vec<String>,
    /// Iterations to run.
    pub iterations: u32,
    /// Game pairs an iteration.
    pub pairs: u32,
    /// The gain's scale `a`, in steps.
    pub a: f64,
    /// The perturbation's scale `c`, in steps.
    pub c: f64,
    /// The stability constant `A` of the gain: a tenth of the iterations the run was started
    /// with (a run extended by `--resume --iterations` keeps its schedule).
    pub big_a: f64,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// The seed of everything random.
    pub seed: u64,
}

impl Config {
    /// The `A` of a run of `iterations` iterations: a tenth of them.
    pub fn stability(iterations: u32) -> f64 {
        f64::from(iterations) / 10.0
    }

    /// `aₖ`.
    pub fn a_k(&self, k: u32) -> f64 {
        self.a / (self.big_a + f64::from(k) + 1.0).powf(ALPHA)
    }

    /// `cₖ`.
    pub fn c_k(&self, k: u32) -> f64 {
        self.c / (f64::from(k) + 1.0).powf(GAMMA)
    }

    /// Checks every setting; the parameters with their ranges and starting values.
    pub fn check(&self) -> Result<Vec<Param>, String> {
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(format!(
                "--iterations must be from 1 to {MAX_ITERATIONS}, not {}",
                self.iterations
            ));
        }
        if !(1..=MAX_PAIRS).contains(&self.pairs) {
            return Err(format!(
                "--pairs must be from 1 to {MAX_PAIRS}, not {}",
                self.pairs
            ));
        }
        if !(self.big_a.is_finite() && self.big_a >= 0.0) {
            return Err(format!(
                "the stability constant A must be at least 0, not {}",
                self.big_a
            ));
        }
        for (name, value) in [("--spsa-a", self.a), ("--spsa-c", self.c)] {
            if !(value.is_finite() && value > 0.0 && value <= 1000.0) {
                return Err(format!(
                    "{name} must be above 0 and at most 1000, not {value}"
                ));
            }
        }
        if self.random_plies > 40 {
            return Err(format!(
                "--random-plies must be from 0 to 40, not {}",
                self.random_plies
            ));
        }
        let base: Spec = self
            .base
            .parse()
            .map_err(|e| format!("--spsa {}: {e}", quote(&self.base)))?;
        for spec in &self.against {
            spec.parse::<Spec>()
                .map_err(|e| format!("--against {}: {e}", quote(spec)))?;
        }
        let info = base.info();
        let tunable: Vec<_> = info
            .options
            .iter()
            .filter_map(|o| match o.kind {
                ValueKind::Tunable { min, max, step } => Some((o, min, max, step)),
                _ => None,
            })
            .collect();
        if tunable.is_empty() {
            return Err(format!(
                "--spsa {}: {} has no tunable constants",
                quote(&self.base),
                info.name
            ));
        }
        let names = || {
            tunable
                .iter()
                .map(|t| t.0.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.params.is_empty() {
            return Err(format!("--params: name at least one of {}", names()));
        }
        let mut params: Vec<Param> = Vec::new();
        for name in &self.params {
            let Some(&(option, min, max, step)) = tunable.iter().find(|t| t.0.name == name) else {
                return Err(format!(
                    "--params: {} is not a tunable constant of {} ({})",
                    quote(name),
                    info.name,
                    names()
                ));
            };
            if params.iter().any(|p| &p.name == name) {
                return Err(format!("--params: {} is given twice", quote(name)));
            }
            if base.sets(name) {
                return Err(format!(
                    "--spsa {}: sets {name}, which is tuned (it starts from its default)",
                    quote(&self.base)
                ));
            }
            let default: f64 = option
                .default
                .parse()
                .map_err(|_| format!("{name}'s default is not a number"))?;
            params.push(Param {
                name: name.clone(),
                value: default,
                min: min as f64,
                max: max as f64,
                step: step as f64,
            });
        }
        Ok(params)
    }
}

/// One parameter: its current value and range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its option's name.
    pub name: String,
    /// Its value now (a real number; played rounded).
    pub value: f64,
    /// Its smallest value.
    pub min: f64,
    /// Its largest value.
    pub max: f64,
    /// The step its perturbation is scaled by.
    pub step: f64,
}

impl Param {
    /// `value` kept in range and rounded, as played.
    fn played(&self, value: f64) -> i64 {
        value.clamp(self.min, self.max).round() as i64
    }
}

/// One iteration's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The iteration, from 0.
    pub iteration: u32,
    /// Its perturbation, in steps.
    pub c_k: f64,
    /// Its gain.
    pub a_k: f64,
    /// `θ+`'s score minus `θ−`'s, −1 to 1.
    pub result: f64,
    /// The games played.
    pub games: u32,
    /// Every parameter's value after the iteration, in `config.params`'s order.
    pub values: Vec<f64>,
}

/// Everything a run needs to go on: written after each iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The settings.
    pub config: Config,
    /// The parameters now.
    pub params: Vec<Param>,
    /// The next iteration.
    pub iteration: u32,
    /// One row per finished iteration.
    pub log: Vec<Row>,
}

/// One iteration's games: its perturbation, the two perturbed players, and each game (the
/// side playing, its opponent in the panel, the opening, the colour).
pub struct Plan {
    /// The iteration.
    pub iteration: u32,
    round: u64,
    delta: Vec<f64>,
    c_k: f64,
    a_k: f64,
    plus: Spec,
    minus: Spec,
    panel: Vec<Spec>,
    openings: Vec<Vec<yolah_core::Move>>,
    jobs: Vec<(usize, usize, usize, Color)>,
}

impl Plan {
    /// How many games the iteration plays.
    pub fn games(&self) -> usize {
        self.jobs.len()
    }

    /// Plays the games `games` (indices into the plan) on `threads` threads, calling `tick`
    /// after each: each game's index and the playing side's half points.
    pub fn play(
        &self,
        games: &[usize],
        threads: usize,
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<(usize, u32)>, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        Ok(pool.install(|| {
            games
                .par_iter()
                .map(|&game| {
                    let (s, o, i, color) = self.jobs[game];
                    let seed = splitmix64(self.round ^ ((o as u64) << 32) ^ ((i as u64) << 1));
                    let mut me = [&self.plus, &self.minus][s].agent_for_game(seed);
                    let mut opponent = if self.panel.is_empty() {
                        self.minus.agent_for_game(seed ^ 1)
                    } else {
                        self.panel[o].agent_for_game(seed ^ 1)
                    };
                    let opening = &self.openings[i];
                    let played = match color {
                        Color::Black => play_game(&mut me, &mut opponent, opening, |_, _| {}),
                        Color::White => play_game(&mut opponent, &mut me, opening, |_, _| {}),
                    };
                    tick();
                    (game, played.outcome.half_points(color))
                })
                .collect()
        }))
    }
}

/// Table size of a tuning game's players, MiB.
const TABLE_MB: u64 = 16;

impl Run {
    /// A new run, its parameters at their defaults.
    pub fn new(config: Config) -> Result<Run, String> {
        let params = config.check()?;
        Ok(Run {
            config,
            params,
            iteration: 0,
            log: Vec::new(),
        })
    }

    /// Whether every iteration is done.
    pub fn finished(&self) -> bool {
        self.iteration >= self.config.iterations
    }

    /// The base spec with `values` (one per parameter); for a game (`game`), a table of
    /// [`TABLE_MB`] unless the base sets one.
    fn spec_with(&self, values: &[i64], game: bool) -> Result<Spec, String> {
        let mut spec: Spec = self.config.base.parse().map_err(|e| format!("{e}"))?;
        if game && !spec.sets("tt") {
            spec = spec
                .with("tt", &TABLE_MB.to_string())
                .map_err(|e| format!("{e}"))?;
        }
        for (param, value) in self.params.iter().zip(values) {
            spec = spec
                .with(&param.name, &value.to_string())
                .map_err(|e| format!("{e}"))?;
        }
        Ok(spec)
    }

    /// The player as tuned so far, as a spec (the values rounded).
    pub fn tuned_spec(&self) -> Result<Spec, String> {
        let values: Vec<i64> = self.params.iter().map(|p| p.played(p.value)).collect();
        self.spec_with(&values, false)
    }

    /// Plays iteration `self.iteration` on `threads` threads (calling `tick` after each
    /// game), moves the parameters and logs it.
    pub fn step(&mut self, threads: usize, tick: &(dyn Fn() + Sync)) -> Result<(), String> {
        let plan = self.plan()?;
        let all: Vec<usize> = (0..plan.games()).collect();
        let points = plan.play(&all, threads, tick)?;
        self.apply(&plan, &points);
        Ok(())
    }

    /// Iteration `self.iteration`'s games, to play in one place or in parts (each game's
    /// seed is its own, so the parts' games are the games of the whole).
    pub fn plan(&self) -> Result<Plan, String> {
        let config = &self.config;
        let k = self.iteration;
        let round = splitmix64(config.seed ^ splitmix64(u64::from(k) + 1));
        let mut rng = ChaCha8Rng::seed_from_u64(round);
        let delta: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
            .collect();
        let (c_k, a_k) = (config.c_k(k), config.a_k(k));
        let side = |sign: f64| -> Vec<i64> {
            self.params
                .iter()
                .zip(&delta)
                .map(|(p, d)| p.played(p.value + sign * c_k * d * p.step))
                .collect()
        };
        let plus = self.spec_with(&side(1.0), true)?;
        let minus = self.spec_with(&side(-1.0), true)?;
        let panel: Vec<Spec> = config
            .against
            .iter()
            .map(|s| s.parse().map_err(|e| format!("{e}")))
            .collect::<Result<_, String>>()?;
        let openings: Vec<_> = (0..config.pairs)
            .map(|i| random_opening(config.random_plies, splitmix64(round ^ u64::from(i))))
            .collect();
        // One job a game: (the side playing, its opponent in the panel, opening, colour).
        // Without a panel θ+ plays θ−; with one, each plays each of the panel.
        let sides: &[usize] = if panel.is_empty() { &[0] } else { &[0, 1] };
        let opponents = panel.len().max(1);
        let count = openings.len();
        let jobs: Vec<(usize, usize, usize, Color)> = sides
            .iter()
            .flat_map(|&s| {
                (0..opponents).flat_map(move |o| {
                    (0..count).flat_map(move |i| Color::ALL.into_iter().map(move |c| (s, o, i, c)))
                })
            })
            .collect();
        Ok(Plan {
            iteration: k,
            round,
            delta,
            c_k,
            a_k,
            plus,
            minus,
            panel,
            openings,
            jobs,
        })
    }

    /// Moves the parameters by `plan`'s games, whose half points are `points` (game, half
    /// points: every game of the plan once, in any order), and logs the iteration.
    pub fn apply(&mut self, plan: &Plan, points: &[(usize, u32)]) {
        let side_of = |game: usize| plan.jobs[game].0;
        // Each side's score, 0 to 1; without a panel θ−'s is what θ+ did not take.
        let games_of = |s: usize| points.iter().filter(|p| side_of(p.0) == s).count() as f64;
        let score = |s: usize| {
            points
                .iter()
                .filter(|p| side_of(p.0) == s)
                .map(|p| f64::from(p.1))
                .sum::<f64>()
                / (2.0 * games_of(s))
        };
        let result = if plan.panel.is_empty() {
            2.0 * score(0) - 1.0
        } else {
            score(0) - score(1)
        };
        for (param, d) in self.params.iter_mut().zip(&plan.delta) {
            let gradient = result / (2.0 * plan.c_k * d);
            param.value =
                (param.value + plan.a_k * gradient * param.step).clamp(param.min, param.max);
        }
        self.log.push(Row {
            iteration: plan.iteration,
            c_k: plan.c_k,
            a_k: plan.a_k,
            result,
            games: plan.jobs.len() as u32,
            values: self.params.iter().map(|p| p.value).collect(),
        });
        self.iteration += 1;
    }

    /// The log as CSV: `iteration,c_k,a_k,result,games`, then each parameter's value.
    pub fn csv(&self) -> String {
        let mut text = String::from("iteration,c_k,a_k,result,games");
        for p in &self.params {
            text.push(',');
            text.push_str(&p.name);
        }
        text.push('\n');
        for row in &self.log {
            let _ = write!(
                text,
                "{},{:.6},{:.6},{:.4},{}",
                row.iteration, row.c_k, row.a_k, row.result, row.games
            );
            for v in &row.values {
                let _ = write!(text, ",{v:.4}");
            }
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Config {
        Config {
            base: "minimax:nodes=300".to_string(),
            params: vec!["lmr_base".to_string(), "lmp_a".to_string()],
            against: Vec::new(),
            iterations: 4,
            pairs: 1,
            a: 2.0,
            c: 1.0,
            big_a: 0.4,
            random_plies: 4,
            seed: 7,
        }
    }

    #[test]
    fn the_schedules_are_spalls() {
        let config = Config {
            iterations: 100,
            big_a: Config::stability(100),
            ..tiny()
        };
        assert!((config.big_a - 10.0).abs() < 1e-12);
        assert!((config.a_k(0) - 2.0 / 11f64.powf(0.602)).abs() < 1e-12);
        assert!((config.c_k(9) - 1.0 / 10f64.powf(0.101)).abs() < 1e-12);
        assert!(config.a_k(50) < config.a_k(0) && config.c_k(50) < config.c_k(0));
    }

    #[test]
    fn an_iteration_moves_every_parameter_within_its_range_and_resumes_exactly() {
        let mut run = Run::new(tiny()).unwrap();
        assert!((run.params[0].value - 50.0).abs() < 1e-12);
        run.step(2, &|| {}).unwrap();
        let row = &run.log[0];
        assert_eq!(row.games, 2);
        assert!((-1.0..=1.0).contains(&row.result));
        // Both move by a_k · r / (2 c_k) steps, in the direction of their sign.
        for (p, start) in run.params.iter().zip([50.0, 4.0]) {
            let moved = (p.value - start).abs() / p.step;
            assert!((moved - row.a_k * row.result.abs() / (2.0 * row.c_k)).abs() < 1e-9);
        }
        // Through a checkpoint (JSON), the same as straight on.
        let mut straight = run.clone();
        let mut resumed: Run = serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
        for _ in 0..3 {
            straight.step(2, &|| {}).unwrap();
            resumed.step(1, &|| {}).unwrap();
        }
        assert_eq!(straight, resumed);
        assert!(straight.finished());
        let tuned = straight.tuned_spec().unwrap().to_string();
        assert!(tuned.starts_with("minimax:lmp_a="), "{tuned}");
        assert!(
            tuned.contains("nodes=300") && !tuned.contains("tt="),
            "{tuned}"
        );
    }

    #[test]
    fn bad_settings_are_refused() {
        let refused = |change: &dyn Fn(&mut Config), text: &str| {
            let mut config = tiny();
            change(&mut config);
            let error = config.check().unwrap_err();
            assert!(error.contains(text), "{error}");
        };
        refused(&|c| c.iterations = 0, "--iterations must be");
        refused(&|c| c.pairs = 0, "--pairs must be");
        refused(&|c| c.a = f64::NAN, "--spsa-a must be");
        refused(
            &|c| c.params = vec!["nope".into()],
            "not a tunable constant of minimax",
        );
        refused(&|c| c.params = vec![], "name at least one of lmr_after");
        refused(
            &|c| c.params = vec!["lmp_a".into(), "lmp_a".into()],
            "given twice",
        );
        refused(
            &|c| c.base = "mcts:iterations=10".into(),
            "has no tunable constants",
        );
        refused(
            &|c| c.base = "minimax:lmp_a=3".into(),
            "sets lmp_a, which is tuned",
        );
        refused(&|c| c.against = vec!["nosuch".into()], "--against 'nosuch'");
    }
}

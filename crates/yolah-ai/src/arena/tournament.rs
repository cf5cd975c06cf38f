//! Round robins with paired openings (book chapter 8), and the files that let one be resumed.
//!
//! Every pair of players meets `games_per_pair` times: each random opening is played twice with
//! colours swapped, so neither player profits from a lucky opening. The schedule is a pure
//! function of the [`Config`] — game `n` is always the same pairing, colours and opening — so a
//! run can stop anywhere and a resumed one plays exactly the games not yet recorded.
//!
//! A tournament directory holds `tournament.json` (the config), `games.csv` (one
//! [`GameRecord`] per finished game, flushed as each ends) and, at the end, `ratings.json`.

use crate::arena::game::play_game;
use crate::arena::opening::random_opening;
use crate::arena::ratings::{self, Fit, GameResult};
use crate::arena::record::{self, GameRecord, RecordWriter, read_records};
use crate::spec::{Spec, SpecError};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use yolah_core::Color;
use yolah_core::zobrist::splitmix64;

/// What decides a tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The players' specs.
    pub specs: Vec<String>,
    /// Games between each pair (an odd number leaves the last opening played once).
    pub games_per_pair: u32,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// Seed of the openings and of players whose spec sets no seed.
    pub seed: u64,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Its number.
    pub game: u64,
    /// Index of black's spec.
    pub black: usize,
    /// Index of white's spec.
    pub white: usize,
    /// Seed of its opening (shared by the two games of a pair).
    pub opening_seed: u64,
}

/// A config whose players cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A spec does not parse.
    Spec(String, SpecError),
    /// Fewer than two players.
    TooFewPlayers,
    /// The same spec twice.
    Repeated(String),
    /// No games to play.
    NoGames,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Spec(text, error) => write!(f, "player '{text}': {error}"),
            ConfigError::TooFewPlayers => f.write_str("a tournament needs at least two players"),
            ConfigError::Repeated(text) => {
                write!(
                    f,
                    "player '{text}' is listed twice; give it a different seed or option"
                )
            }
            ConfigError::NoGames => f.write_str("games per pair must be at least 1"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The players, checked: at least two, all different, all valid.
    pub fn players(&self) -> Result<Vec<Spec>, ConfigError> {
        if self.specs.len() < 2 {
            return Err(ConfigError::TooFewPlayers);
        }
        if self.games_per_pair == 0 {
            return Err(ConfigError::NoGames);
        }
        let mut specs: Vec<Spec> = Vec::new();
        for text in &self.specs {
            let spec: Spec = text
                .parse()
                .map_err(|e| ConfigError::Spec(text.clone(), e))?;
            if specs.contains(&spec) {
                return Err(ConfigError::Repeated(text.clone()));
            }
            specs.push(spec);
        }
        Ok(specs)
    }

    /// Every game, round by round: in round `r` each pair plays opening `r` twice, colours
    /// swapped, so that a partial run is balanced.
    pub fn schedule(&self) -> Vec<Scheduled> {
        let n = self.specs.len();
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let mut games = Vec::new();
        for round in 0..u64::from(self.games_per_pair.div_ceil(2)) {
            for (p, &(i, j)) in pairs.iter().enumerate() {
                let opening_seed = splitmix64(self.seed ^ splitmix64(round << 32 | p as u64));
                for (k, (black, white)) in [(i, j), (j, i)].into_iter().enumerate() {
                    if 2 * round + k as u64 >= u64::from(self.games_per_pair) {
                        break;
                    }
                    games.push(Scheduled {
                        game: games.len() as u64,
                        black,
                        white,
                        opening_seed,
                    });
                }
            }
        }
        games
    }
}

/// Plays one scheduled game. Players whose spec sets no seed get one from the game.
pub fn play_scheduled(config: &Config, specs: &[Spec], scheduled: Scheduled) -> GameRecord {
    let opening = random_opening(config.random_plies, scheduled.opening_seed);
    let seed =
        |color: Color| splitmix64(config.seed ^ (scheduled.game << 1 | color.index() as u64));
    let mut black = specs[scheduled.black].agent(seed(Color::Black));
    let mut white = specs[scheduled.white].agent(seed(Color::White));
    let game = play_game(&mut black, &mut white, &opening, |_, _| {});
    GameRecord::new(
        scheduled.game,
        &config.specs[scheduled.black],
        &config.specs[scheduled.white],
        &game,
    )
}

/// Plays `games` on `threads` games at a time; `on_record` gets each record as its game ends,
/// on the calling thread. Stops early (unstarted games are not played) when it fails.
pub fn run_games<E: Send>(
    config: &Config,
    specs: &[Spec],
    games: &[Scheduled],
    threads: usize,
    mut on_record: impl FnMut(GameRecord) -> Result<(), E>,
) -> Result<(), E> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool of a valid size starts");
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                games.par_iter().for_each_with(sender, |sender, &game| {
                    if !stop.load(Ordering::Relaxed) {
                        let _ = sender.send(play_scheduled(config, specs, game));
                    }
                });
            });
        });
        for record in receiver {
            if let Err(error) = on_record(record) {
                stop.store(true, Ordering::Relaxed);
                return Err(error);
            }
        }
        Ok(())
    })
}

/// Wins, draws and losses between every two players, from their records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// `wdl[i][j]`: player i's wins, draws and losses against player j.
    pub wdl: Vec<Vec<[u32; 3]>>,
    results: Vec<GameResult>,
}

impl Crosstable {
    /// Tallies `records` between `specs`; a record naming another player is an error.
    pub fn new(specs: &[String], records: &[GameRecord]) -> Result<Crosstable, String> {
        let n = specs.len();
        let index = |text: &str| {
            specs
                .iter()
                .position(|s| s == text)
                .ok_or_else(|| format!("game between unknown player '{text}'"))
        };
        let mut wdl = vec![vec![[0; 3]; n]; n];
        let mut results = Vec::with_capacity(records.len());
        for record in records {
            let (black, white) = (index(&record.black)?, index(&record.white)?);
            // Records are checked when read back; those played here are right by construction.
            let outcome = record
                .outcome()
                .ok_or_else(|| format!("game {}: bad result '{}'", record.game, record.result))?;
            let half = outcome.half_points(Color::Black);
            wdl[black][white][2 - half as usize] += 1;
            wdl[white][black][half as usize] += 1;
            results.push((black, white, half));
        }
        Ok(Crosstable { wdl, results })
    }

    /// Player i's games.
    pub fn games(&self, i: usize) -> u32 {
        self.wdl[i].iter().flatten().sum()
    }

    /// Player i's points (a draw is half a point).
    pub fn points(&self, i: usize) -> f64 {
        self.wdl[i]
            .iter()
            .map(|[w, d, _]| f64::from(*w) + f64::from(*d) / 2.0)
            .sum()
    }

    /// The Bradley–Terry fit of all games; `None` if some players are not linked by games.
    pub fn fit(&self) -> Option<Fit> {
        ratings::fit(self.wdl.len(), &self.results)
    }
}

/// One player's line of `ratings.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The spec.
    pub spec: String,
    /// Rating, Elo, centred on the players' mean.
    pub elo: f64,
    /// Low end of the 95 % interval.
    pub elo_low: f64,
    /// High end of the 95 % interval.
    pub elo_high: f64,
    /// Games played.
    pub games: u32,
    /// Points per game, 0 to 1.
    pub score: f64,
}

/// The content of `ratings.json`, best player first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    /// The players.
    pub players: Vec<Rating>,
}

impl Ratings {
    /// Ratings from a crosstable and its fit, best first.
    pub fn new(specs: &[String], table: &Crosstable, fit: &Fit) -> Ratings {
        let mut players: Vec<Rating> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let (elo_low, elo_high) = fit.interval(i);
                let games = table.games(i);
                Rating {
                    spec: spec.clone(),
                    elo: fit.elo[i],
                    elo_low,
                    elo_high,
                    games,
                    score: table.points(i) / f64::from(games.max(1)),
                }
            })
            .collect();
        players.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        Ratings { players }
    }
}

/// A tournament directory that cannot be used, and why.
#[derive(Debug)]
pub struct StoreError {
    /// The file concerned.
    pub path: PathBuf,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for StoreError {}

/// The files of a tournament directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

/// A resumed tournament: its config, the games already recorded, the writer for the rest.
pub struct Resumed {
    /// The config the tournament was started with.
    pub config: Config,
    /// Its records so far, checked.
    pub records: Vec<GameRecord>,
    /// Whether a partial row left by a kill was cut off.
    pub cut_partial_row: bool,
    /// Appends the next records.
    pub writer: RecordWriter,
}

impl Store {
    /// The store in `dir`.
    pub fn new(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn error(path: PathBuf, reason: impl fmt::Display) -> StoreError {
        StoreError {
            path,
            reason: reason.to_string(),
        }
    }

    /// Starts a new tournament: writes `tournament.json` and an empty `games.csv`. Refuses a
    /// directory that holds one already (its games would be lost).
    pub fn create(&self, config: &Config) -> Result<RecordWriter, StoreError> {
        let games = self.path("games.csv");
        if games.exists() {
            return Err(Self::error(
                games,
                "a tournament was started here; add --resume to finish it or choose another --out",
            ));
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| Self::error(self.dir.clone(), e))?;
        let json = serde_json::to_string_pretty(config).expect("a config serialises");
        self.write_atomically("tournament.json", &json)?;
        RecordWriter::create(&games).map_err(|e| Self::error(games, e))
    }

    /// Reopens a tournament: reads its config and records, cuts a partial last row, and checks
    /// that every record is a game of the schedule, each once.
    pub fn resume(&self) -> Result<Resumed, StoreError> {
        let config_path = self.path("tournament.json");
        let text = std::fs::read_to_string(&config_path)
            .map_err(|e| Self::error(config_path.clone(), e))?;
        let config: Config =
            serde_json::from_str(&text).map_err(|e| Self::error(config_path.clone(), e))?;
        config
            .players()
            .map_err(|e| Self::error(config_path.clone(), e))?;
        let games = self.path("games.csv");
        let cut = record::cut_partial_row(&games).map_err(|e| Self::error(games.clone(), e))?;
        let records = read_records(&games).map_err(|e| Self::error(games.clone(), e))?;
        let schedule = config.schedule();
        let mut seen = HashSet::new();
        for record in &records {
            let expected = usize::try_from(record.game)
                .ok()
                .and_then(|n| schedule.get(n))
                .map(|s| (&config.specs[s.black], &config.specs[s.white]));
            if expected != Some((&record.black, &record.white)) {
                return Err(Self::error(
                    games,
                    format!("game {} is not in this tournament's schedule", record.game),
                ));
            }
            if !seen.insert(record.game) {
                return Err(Self::error(
                    games,
                    format!("game {} is recorded twice", record.game),
                ));
            }
        }
        let writer = RecordWriter::append(&games).map_err(|e| Self::error(games, e))?;
        Ok(Resumed {
            config,
            records,
            cut_partial_row: cut,
            writer,
        })
    }

    /// Writes `ratings.json`.
    pub fn write_ratings(&self, ratings: &Ratings) -> Result<(), StoreError> {
        let json = serde_json::to_string_pretty(ratings).expect("ratings serialise");
        self.write_atomically("ratings.json", &json)
    }

    /// Writes a file whole or not at all: to a temporary name, then renamed.
    fn write_atomically(&self, name: &str, text: &str) -> Result<(), StoreError> {
        let path = self.path(name);
        let temporary = self.path(&format!(".{name}.tmp"));
        std::fs::write(&temporary, format!("{text}\n"))
            .and_then(|()| std::fs::rename(&temporary, &path))
            .map_err(|e: io::Error| Self::error(path, e))
    }
}

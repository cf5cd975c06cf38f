//! Round robins with paired openings (book chapter 8), and the files that let one be resumed.
//!
//! Every pair of players meets `games_per_pair` times: each random opening is played twice with
//! colours swapped, so neither player profits from a lucky opening. The schedule is a pure
//! function of the [`Config`] — game `n` is always the same pairing, colours and opening — so a
//! run can stop anywhere and a resumed one plays exactly the games not yet recorded.
//!
//! A tournament directory holds `tournament.json` (the config), `games.csv` (one
//! [`GameRecord`] per finished game, flushed as each ends) and, at the end, `ratings.json`.

use crate::arena::game::{Arbiter, play_opening};
use crate::arena::lock::DirLock;
use crate::arena::opening::{Opening, random_opening};
use crate::arena::ratings::{self, Fit, GameResult};
use crate::arena::record::{GameRecord, RecordFile, RecordWriter, Tail};
use crate::arena::shard::Shard;
use crate::clock::TimeControl;
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
use yolah_core::text::quote;
use yolah_core::zobrist::{fnv1a, splitmix64};

/// The most games a match or a tournament may schedule (its schedule is held in memory).
pub const MAX_GAMES: u64 = 1_000_000;

/// The most random plies an opening may have: well inside the shortest games.
pub const MAX_RANDOM_PLIES: u32 = 40;

/// The most games played at once.
pub const MAX_THREADS: usize = 1024;

/// What decides a tournament's schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The players' specs.
    pub specs: Vec<String>,
    /// Games between each pair (an odd number leaves the last opening played once).
    pub games_per_pair: u32,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// Seed of the openings and of players whose spec sets no seed.
    pub seed: u64,
    /// The part of the schedule this run plays, when the work is split (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The opening suite's lines (`--openings FILE`), used in order (round r plays line
    /// r modulo their number) instead of random plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Vec<String>>,
    /// Whether the suite is used in an order shuffled by the seed (`--shuffle-openings`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shuffle_openings: bool,
    /// The game clock (`--tc`), if the games have one; a player's own `tc=` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// A gauntlet (`--gauntlet`): the first player meets each of the others, and the others
    /// do not meet each other.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gauntlet: bool,
    /// Whether games end as soon as their result is proved (`--adjudicate`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adjudicate: bool,
    /// A gauntlet's sequential test, one per opponent (`--sprt`, as written in canonical
    /// form): kept here so that a resumed run goes on testing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
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
    /// Its round: the pair's games share it, and with a suite it picks the opening.
    pub round: u64,
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
    /// More games than [`MAX_GAMES`].
    TooManyGames(u64),
    /// More random plies than [`MAX_RANDOM_PLIES`].
    TooManyRandomPlies(u32),
    /// An opening suite with a bad line, or none.
    Openings(String),
    /// A player with a game clock (`tc=`) in a run without one for the others (no `--tc`).
    OneClock(String),
    /// A test that does not parse, or one outside a gauntlet.
    Test(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Spec(text, error) => write!(f, "player {}: {error}", quote(text)),
            ConfigError::TooFewPlayers => f.write_str("a tournament needs at least two players"),
            ConfigError::Repeated(text) => {
                write!(
                    f,
                    "player {} is listed twice; give it a different seed or option",
                    quote(text)
                )
            }
            ConfigError::NoGames => f.write_str("games per pair must be at least 1"),
            ConfigError::TooManyGames(games) => write!(
                f,
                "{games} games is too many: at most {MAX_GAMES} in one match or tournament"
            ),
            ConfigError::Openings(why) => write!(f, "opening suite: {why}"),
            ConfigError::Test(why) => write!(f, "--sprt: {why}"),
            ConfigError::OneClock(text) => write!(
                f,
                "player {} has its own clock (tc=) but the others have none: give --tc, or \
                 tc= to every player",
                quote(text)
            ),
            ConfigError::TooManyRandomPlies(plies) => write!(
                f,
                "{plies} random opening plies is too many: at most {MAX_RANDOM_PLIES}"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The number of games of the schedule.
    pub fn games(&self) -> u64 {
        self.pairs().len() as u64 * u64::from(self.games_per_pair)
    }

    /// The pairs that meet, by index, the first-listed first: every pair in a round robin,
    /// the first player with each other in a gauntlet.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.specs.len();
        if self.gauntlet {
            return (1..n).map(|j| (0, j)).collect();
        }
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    }

    /// A fingerprint of the whole config, stored in each record so that a record is never
    /// mistaken for a game of another run: FNV-1a over its JSON, as 16 hex digits.
    /// The shard is left out: a shard's games are the whole run's games, and merge back.
    pub fn fingerprint(&self) -> String {
        let whole = Config {
            shard: None,
            ..self.clone()
        };
        let json = serde_json::to_string(&whole).expect("a config serialises");
        format!("{:016x}", fnv1a(json.as_bytes()))
    }

    /// A pair of players that would play some game twice, and how many different games it
    /// has: with an opening suite and no game clock, two players that each repeat themselves
    /// ([`Spec::repeats_itself`]) play each opening's game in each colour once, then the same
    /// games again (the runner cycles through the suite), so more than twice the suite's
    /// games between them would count games twice.
    pub fn repeating_pair(&self, specs: &[Spec]) -> Option<(usize, usize, u32)> {
        let openings = self.openings.as_ref()?;
        if self.time_control.is_some() {
            return None;
        }
        let distinct = u32::try_from(openings.len())
            .unwrap_or(u32::MAX)
            .saturating_mul(2);
        if self.games_per_pair <= distinct {
            return None;
        }
        let firsts = if self.gauntlet { 1 } else { specs.len() };
        (0..firsts)
            .flat_map(|a| (a + 1..specs.len()).map(move |b| (a, b)))
            .find(|&(a, b)| specs[a].repeats_itself() && specs[b].repeats_itself())
            .map(|(a, b)| (a, b, distinct))
    }

    /// The players, checked: at least two, all different, all valid; and the counts, checked
    /// against their limits.
    pub fn players(&self) -> Result<Vec<Spec>, ConfigError> {
        if self.specs.len() < 2 {
            return Err(ConfigError::TooFewPlayers);
        }
        if self.games_per_pair == 0 {
            return Err(ConfigError::NoGames);
        }
        if self.games() > MAX_GAMES {
            return Err(ConfigError::TooManyGames(self.games()));
        }
        if self.random_plies > MAX_RANDOM_PLIES {
            return Err(ConfigError::TooManyRandomPlies(self.random_plies));
        }
        if let Some(lines) = &self.openings {
            let text = lines.join("\n");
            crate::arena::opening::parse_suite(&text).map_err(ConfigError::Openings)?;
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
        if self.sprt.is_some() && !self.gauntlet {
            return Err(ConfigError::Test(
                "a tournament tests its players only in a gauntlet".to_string(),
            ));
        }
        self.test().map_err(ConfigError::Test)?;
        if self.time_control.is_none()
            && let Some(first) = specs.iter().find(|s| s.time_control().is_some())
            && specs.iter().any(|s| s.time_control().is_none())
        {
            return Err(ConfigError::OneClock(first.to_string()));
        }
        Ok(specs)
    }

    /// The gauntlet's test, if it has one.
    pub fn test(&self) -> Result<Option<crate::arena::sprt::Sprt>, String> {
        self.sprt.as_deref().map(str::parse).transpose()
    }

    /// The game clocks of a game between `black` and `white`: each player's own (`tc=`), or
    /// the run's; `None` for a game without clocks.
    pub fn clocks(&self, black: &Spec, white: &Spec) -> Option<[TimeControl; 2]> {
        match (
            black.time_control().or(self.time_control),
            white.time_control().or(self.time_control),
        ) {
            (Some(b), Some(w)) => Some([b, w]),
            _ => None,
        }
    }

    /// The games this run plays: the schedule, or its shard's part of it.
    pub fn schedule_here(&self) -> Vec<Scheduled> {
        let mut games = self.schedule();
        if let Some(shard) = self.shard {
            games.retain(|g| shard.contains(g.game));
        }
        games
    }

    /// Every game, round by round: in round `r` each pair plays opening `r` twice, colours
    /// swapped, so that a partial run is balanced.
    pub fn schedule(&self) -> Vec<Scheduled> {
        let pairs = self.pairs();
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
                        round,
                    });
                }
            }
        }
        games
    }
}

impl Config {
    /// The opening of a scheduled game: the suite's line of its round (in the seed's shuffled
    /// order with `shuffle_openings`), or random plies from the start.
    pub fn opening(&self, scheduled: &Scheduled) -> Result<Opening, String> {
        let Some(lines) = &self.openings else {
            return Ok(Opening {
                start: yolah_core::Position::start(),
                moves: random_opening(self.random_plies, scheduled.opening_seed),
            });
        };
        if lines.is_empty() {
            return Err("the opening suite is empty".to_string());
        }
        let n = lines.len() as u64;
        let mut index = scheduled.round % n;
        if self.shuffle_openings {
            index = shuffled(index, n, self.seed);
        }
        Opening::parse(&lines[index as usize]).map_err(|e| format!("opening {}: {e}", index + 1))
    }
}

/// Position `i` of an order of `0..n` drawn from `seed`: `(a·i + b) mod n` with `a` coprime
/// to `n`, a permutation computed for one index at a time (no table per game).
fn shuffled(i: u64, n: u64, seed: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut a = splitmix64(seed) % n;
    while gcd(a, n) != 1 {
        a = (a + 1) % n;
    }
    let b = splitmix64(seed ^ 0x5EED) % n;
    ((u128::from(a) * u128::from(i) + u128::from(b)) % u128::from(n)) as u64
}

/// Plays one scheduled game. Each player's seed comes from the game (its number, its colour,
/// the run's seed), mixed with the spec's own seed if it sets one.
pub fn play_scheduled(config: &Config, specs: &[Spec], scheduled: Scheduled) -> GameRecord {
    let opening = config
        .opening(&scheduled)
        .expect("the suite was checked before the games");
    let seed =
        |color: Color| splitmix64(config.seed ^ (scheduled.game << 1 | color.index() as u64));
    let mut black = specs[scheduled.black].agent_for_game(seed(Color::Black));
    let mut white = specs[scheduled.white].agent_for_game(seed(Color::White));
    let arbiter = Arbiter {
        clocks: config.clocks(&specs[scheduled.black], &specs[scheduled.white]),
        adjudicate: config.adjudicate,
    };
    let game = play_opening(&mut black, &mut white, &opening, arbiter, |_, _| {});
    GameRecord::new(
        scheduled.game,
        &config.fingerprint(),
        &config.specs[scheduled.black],
        &config.specs[scheduled.white],
        &game,
    )
}

/// The pool that plays `threads` games at a time: at most [`MAX_THREADS`], and a system that
/// refuses to start them is an error that says so.
pub fn game_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(format!(
            "--threads must be from 1 to {MAX_THREADS}, not {threads}"
        ));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Plays `games` on the threads of `pool`; `on_record` gets each record as its game ends, on
/// the calling thread. Stops early (unstarted games are not played) when it fails.
pub fn run_games<E: Send>(
    config: &Config,
    specs: &[Spec],
    games: &[Scheduled],
    pool: &rayon::ThreadPool,
    on_record: impl FnMut(GameRecord) -> Result<(), E>,
) -> Result<(), E> {
    run_games_while(config, specs, games, pool, |_| true, on_record)
}

/// [`run_games`], skipping each game that `wanted` no longer wants when its turn comes (the
/// games of an opponent whose test has decided).
pub fn run_games_while<E: Send>(
    config: &Config,
    specs: &[Spec],
    games: &[Scheduled],
    pool: &rayon::ThreadPool,
    wanted: impl Fn(&Scheduled) -> bool + Sync,
    mut on_record: impl FnMut(GameRecord) -> Result<(), E>,
) -> Result<(), E> {
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    // The games run on the pool; this thread takes their records as they end.
    pool.in_place_scope(|scope| {
        let stop = &stop;
        let wanted = &wanted;
        scope.spawn(move |_| {
            games.par_iter().for_each_with(sender, |sender, &game| {
                if !stop.load(Ordering::Relaxed) && wanted(&game) {
                    let (handled, wait) = mpsc::sync_channel(1);
                    if sender
                        .send((play_scheduled(config, specs, game), handled))
                        .is_ok()
                    {
                        // The thread takes its next game only once this record is handled,
                        // so that what the record decides (a test's verdict, an error) is
                        // seen before: at one thread, no game starts after a decision.
                        let _ = wait.recv();
                    }
                }
            });
        });
        for (record, handled) in receiver {
            let result = on_record(record);
            if result.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = handled.send(());
            result?;
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

/// A tournament directory that cannot be used, and why: one line that names the file.
#[derive(Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

fn store_error(path: &Path, reason: impl fmt::Display) -> StoreError {
    StoreError(format!("'{}': {reason}", path.display()))
}

/// The files of a tournament directory, owned by this run: it holds the directory's lock
/// ([`DirLock`]) from the moment it is opened until it is dropped.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    lock: DirLock,
    /// Made by this run ([`Store::create`]): [`Store::discard`] may remove it.
    new: bool,
}

/// A resumed tournament: its config, the games already recorded, the writer for the rest.
pub struct Resumed {
    /// The config the tournament was started with.
    pub config: Config,
    /// Its records so far, checked.
    pub records: Vec<GameRecord>,
    /// How the games file ended: a damaged last row left by an interruption has been cut, a
    /// missing last newline added.
    pub tail: Tail,
    /// Appends the next records; `None` when the tournament is finished (nothing is written
    /// then, so a finished tournament of an older format still shows its results).
    pub writer: Option<RecordWriter>,
}

/// The name of the games file in a tournament directory.
pub const GAMES_FILE: &str = "games.csv";

impl Store {
    fn lock(dir: &Path) -> Result<Store, StoreError> {
        let lock = DirLock::take(dir).map_err(|e| StoreError(e.to_string()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
            lock,
            new: false,
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Starts a new tournament in `dir` (created if needed): writes `tournament.json` and a
    /// `games.csv` with its header. Refuses a directory that holds a tournament already (its
    /// games would be lost) or that another run holds.
    pub fn create(dir: &Path, config: &Config) -> Result<(Store, RecordWriter), StoreError> {
        config
            .players()
            .map_err(|e| StoreError(format!("bad tournament: {e}")))?;
        if dir.exists() && !dir.is_dir() {
            return Err(store_error(
                dir,
                "is a file, not a directory; choose another --out",
            ));
        }
        let games = dir.join(GAMES_FILE);
        // Checked before anything is made, and again under the lock: a refusal leaves nothing.
        let lock = DirLock::take_new(dir, || {
            if games.exists() {
                let state = match Store::read(dir) {
                    Ok((config, records)) if records.len() == config.schedule_here().len() => {
                        format!(
                            "holds a finished tournament ({} games); choose another --out, or \
                             --resume to print its results",
                            records.len()
                        )
                    }
                    Ok((config, records)) => format!(
                        "holds an unfinished tournament ({} of {} games); add --resume to \
                         finish it or choose another --out",
                        records.len(),
                        config.schedule_here().len()
                    ),
                    Err(_) => "holds a tournament; add --resume to finish it or choose another \
                               --out"
                        .to_string(),
                };
                return Err(store_error(dir, state).0);
            }
            crate::files::ensure_empty(dir)
        })
        .map_err(StoreError)?;
        let store = Store {
            dir: dir.to_path_buf(),
            lock,
            new: true,
        };
        let json = serde_json::to_string_pretty(config).expect("a config serialises");
        let made = store
            .write_atomically("tournament.json", &json)
            .and_then(|()| {
                RecordWriter::create(&games)
                    .map_err(|e| store_error(&games, format!("cannot create: {e}")))
            });
        match made {
            Ok(writer) => Ok((store, writer)),
            Err(error) => {
                store.discard();
                Err(error)
            }
        }
    }

    /// Removes the new tournament of a run refused before its first game (its `--pgn` file
    /// refused, a full disk): its files, then the lock file and the directory if
    /// [`Store::create`] made them. A tournament this run did not create is left as it is.
    pub fn discard(self) {
        if !self.new {
            return;
        }
        for name in [GAMES_FILE, "tournament.json"] {
            let _ = std::fs::remove_file(self.path(name));
        }
        self.lock.discard();
    }

    /// The config and checked records of the tournament in `dir`, without taking its lock.
    pub fn read(dir: &Path) -> Result<(Config, Vec<GameRecord>), StoreError> {
        let (config, file) = Store::read_files(dir)?;
        Ok((config, file.records))
    }

    fn read_files(dir: &Path) -> Result<(Config, RecordFile), StoreError> {
        let config_path = dir.join("tournament.json");
        let text = crate::files::read_text_bounded(&config_path, crate::files::MAX_SETTINGS)
            .map_err(|e| store_error(&config_path, format!("cannot read: {e}")))?;
        let config: Config =
            serde_json::from_str(&text).map_err(|e| store_error(&config_path, e))?;
        config.players().map_err(|e| store_error(&config_path, e))?;
        let games = dir.join(GAMES_FILE);
        let file = RecordFile::read(&games).map_err(|e| StoreError(e.to_string()))?;
        check_against_schedule(&config, &file.records, file.fingerprinted)
            .map_err(|e| store_error(&games, e))?;
        Ok((config, file))
    }

    /// Reopens the tournament in `dir` for this run: reads its config and records, checks that
    /// every record is a game of its schedule (number, players, colours, opening, config
    /// fingerprint), each once, cuts a damaged last row and ends a last row that lacks its
    /// newline.
    pub fn resume(dir: &Path) -> Result<(Store, Resumed), StoreError> {
        if !dir.is_dir() {
            return Err(store_error(
                dir,
                "no such directory: there is no tournament to resume",
            ));
        }
        let store = Store::lock(dir)?;
        let (config, file) = Store::read_files(dir)?;
        let games = store.path(GAMES_FILE);
        let finished =
            file.records.len() >= config.schedule_here().len() && file.tail == Tail::Clean;
        let writer = if finished {
            None
        } else {
            Some(
                RecordWriter::append(&games, &file)
                    .map_err(|e| store_error(&games, format!("cannot append: {e}")))?,
            )
        };
        let resumed = Resumed {
            config,
            records: file.records,
            tail: file.tail,
            writer,
        };
        Ok((store, resumed))
    }

    /// Writes `ratings.json`.
    pub fn write_ratings(&self, ratings: &Ratings) -> Result<(), StoreError> {
        let json = serde_json::to_string_pretty(ratings).expect("ratings serialise");
        self.write_atomically("ratings.json", &json)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a file whole or not at all, durably ([`crate::files::write_durably`]).
    fn write_atomically(&self, name: &str, text: &str) -> Result<(), StoreError> {
        let path = self.path(name);
        crate::files::write_durably(&path, format!("{text}\n").as_bytes())
            .map_err(|e: io::Error| store_error(&path, format!("cannot write: {e}")))
    }
}

/// Checks that every record is the game its number schedules: the same players in the same
/// colours, the same opening, the same config fingerprint (every row of a file whose header
/// has the `config` column; older files have none); and that no game is recorded twice. The error names the first record that
/// disagrees.
pub fn check_against_schedule(
    config: &Config,
    records: &[GameRecord],
    fingerprinted: bool,
) -> Result<(), String> {
    let schedule = config.schedule();
    let fingerprint = config.fingerprint();
    let mut seen = HashSet::new();
    for record in records {
        let n = record.game;
        let Some(scheduled) = usize::try_from(n).ok().and_then(|i| schedule.get(i)) else {
            return Err(format!(
                "game {n} is not in this tournament's schedule ({} games)",
                schedule.len()
            ));
        };
        if let Some(shard) = config.shard
            && !shard.contains(n)
        {
            return Err(format!("game {n} is not part of shard {shard}"));
        }
        if fingerprinted && record.config != fingerprint {
            let theirs = if record.config.is_empty() {
                "no config fingerprint".to_string()
            } else {
                format!("config {}", record.config)
            };
            return Err(format!(
                "game {n} belongs to another run ({theirs}, this one is {fingerprint})"
            ));
        }
        let (black, white) = (
            &config.specs[scheduled.black],
            &config.specs[scheduled.white],
        );
        if (&record.black, &record.white) != (black, white) {
            return Err(format!(
                "game {n} is scheduled as {black} (black) vs {white} (white), recorded as {} vs {}",
                record.black, record.white
            ));
        }
        let opening = config.opening(scheduled)?;
        let moves: Vec<String> = opening.moves.iter().map(ToString::to_string).collect();
        let played: Vec<&str> = record.moves.split_whitespace().take(moves.len()).collect();
        let start = record.start_position()?;
        if start != opening.start || record.opening_plies as usize != moves.len() || played != moves
        {
            return Err(format!(
                "game {n} does not start with its scheduled opening ({})",
                opening.to_line()
            ));
        }
        if !seen.insert(n) {
            return Err(format!("game {n} is recorded twice"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffled_suite_is_a_permutation_drawn_from_the_seed() {
        for n in [1, 2, 7, 200, 1024] {
            let mut seen: Vec<u64> = (0..n).map(|i| shuffled(i, n, 9)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "{n}");
        }
        let order = |seed| (0..200).map(|i| shuffled(i, 200, seed)).collect::<Vec<_>>();
        assert_eq!(order(1), order(1));
        assert_ne!(order(1), order(2));
        assert_ne!(order(1), (0..200).collect::<Vec<_>>());
    }

    // A decision taken on a game's record stops every game not yet started, however
    // long the record takes to handle (at one thread, the next game never starts).
    #[test]
    fn a_decision_on_a_record_stops_the_games_not_yet_started() {
        let config = Config {
            specs: vec!["random".to_string(), "random:seed=2".to_string()],
            games_per_pair: 6,
            random_plies: 0,
            seed: 1,
            shard: None,
            openings: None,
            shuffle_openings: false,
            time_control: None,
            gauntlet: false,
            adjudicate: false,
            sprt: None,
        };
        let specs = config.players().unwrap();
        let pool = game_pool(1).unwrap();
        for _ in 0..5 {
            let decided = AtomicBool::new(false);
            let mut played = 0;
            run_games_while(
                &config,
                &specs,
                &config.schedule(),
                &pool,
                |_| !decided.load(Ordering::Relaxed),
                |_| {
                    played += 1;
                    // Handling a record takes time (files written, lines printed).
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    decided.store(true, Ordering::Relaxed);
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert_eq!(played, 1, "a game started after the decision");
        }
    }
}

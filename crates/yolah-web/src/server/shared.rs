//! What the server's parts share: its limits and settings, the state every connection
//! sees, and what a client holds of it (connections, games, memory).

use crate::room::Rooms;
use crate::slots::Slots;
use crate::store::Store;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// A message longer than this gets an error and changes nothing.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// A message longer than this closes the connection (the WebSocket layer refuses it).
pub const MAX_FRAME: usize = 64 * 1024;

/// The memory budget of a server that is given none, MiB: room for dozens of games on a
/// small machine.
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1024;

/// How long a game may sit without a message or a search before it is closed.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_mins(15);

/// The WebSocket close code of a full server: try again later.
pub const CLOSE_TRY_LATER: u16 = 1013;

/// The WebSocket close code of an idle game (the application range).
pub const CLOSE_IDLE: u16 = 4000;

/// Searches of games people play at once, for each `max_searches` slot: people's moves are
/// short (the machine's share of a clock, or its spec's time) and must not queue behind
/// watchers, yet one client opening many games cannot start unboundedly many searches.
pub const PLAY_SLOTS_PER_SEARCH: usize = 4;

/// The shared games one connection may have hosted and still open (each is kept a while
/// after its players leave, for them to come back): a page cannot take every room.
pub const MAX_HOSTED: usize = 4;

/// How long the machine waits to search again after a move of its the store could not keep.
pub const RETRY_AFTER: Duration = Duration::from_secs(2);

/// Runs `work` (the store's reads and writes) off the async workers where the runtime has
/// others to take their tasks (a multi-threaded one, as `yolah serve` runs), so a slow disk
/// stalls this connection, not the others.
pub(super) fn blocking<T>(work: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}

/// The lines an analysis shows (multi-PV), best first.
pub const ANALYSIS_LINES: usize = 3;

/// The longest the engine thinks on one position of an analysis board before it pauses.
pub const MAX_ANALYSIS_TIME: Duration = Duration::from_mins(2);

/// What a server allows.
#[derive(Clone, Debug)]
pub struct Config {
    /// Searches of watched games (machine against machine) running at once; more wait their
    /// turn. Games a person plays do not wait for these.
    pub max_searches: usize,
    /// Games (connections) at once; more are refused.
    pub max_games: usize,
    /// The memory all live games' machine players may hold together, MiB.
    pub max_memory_mb: u64,
    /// A game without a message or a search for this long is closed.
    pub idle_timeout: Duration,
    /// A connection with no game, or a game without a move, is closed sooner: after this.
    pub empty_timeout: Duration,
    /// Origins besides the page's own that may open games, like `http://example.com:8080`.
    pub allowed_origins: Vec<String>,
    /// The time control of games whose page asks for none (`yolah serve --tc`).
    pub time_control: Option<yolah_ai::TimeControl>,
    /// Connections one client address may hold open at once; more are closed as they come.
    pub max_connections_per_address: usize,
    /// Connections of all clients at once; more are closed as they come.
    pub max_connections: usize,
    /// Games one client address may keep without waiting (new games, hosted games); then
    /// one more each `new_game_refill`.
    pub new_game_burst: u32,
    /// How often a client address may keep one more game once its burst is spent.
    pub new_game_refill: Duration,
    /// How long a client has to send a request's headers, and then its body, before its
    /// connection is closed.
    pub header_timeout: Duration,
    /// How hard a finished game's review looks (`/games/ID/review.json`).
    pub review: yolah_ai::review::Settings,
    /// The puzzles of `/puzzles` (`yolah serve --puzzles`; the shipped set by default).
    pub puzzles: Arc<crate::puzzles::Set>,
    /// The opening explorer's database of `/explorer.json` (`yolah serve --explorer`; none
    /// by default).
    pub explorer: Option<Arc<yolah_ai::explorer::Explorer>>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Config {
            max_searches: cores,
            max_games: 200,
            max_memory_mb: DEFAULT_MAX_MEMORY_MB,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            empty_timeout: EMPTY_GAME_TIMEOUT,
            allowed_origins: Vec::new(),
            time_control: None,
            max_connections_per_address: MAX_CONNECTIONS_PER_ADDRESS,
            max_connections: MAX_CONNECTIONS,
            new_game_burst: NEW_GAME_BURST,
            new_game_refill: NEW_GAME_REFILL,
            header_timeout: HEADER_TIMEOUT,
            review: yolah_ai::review::Settings::default(),
            puzzles: Arc::new(crate::puzzles::Set::shipped()),
            explorer: None,
        }
    }
}

/// What all connections share.
pub(super) struct Shared {
    pub(super) config: Config,
    /// The page, made once.
    pub(super) page: String,
    /// The slots of searches no person waits on for a move: watched games' and analyses'.
    pub(super) watch_searches: Arc<Slots>,
    /// The slots of machine moves in games a person plays: apart from the watchers', so a
    /// person never waits behind them, and bounded too ([`PLAY_SLOTS_PER_SEARCH`] times
    /// `max_searches`).
    pub(super) play_searches: Arc<Slots>,
    /// The games (each a WebSocket) of each client address, and all of them.
    pub(super) games: SharedHoldings,
    pub(super) searching: AtomicUsize,
    /// MiB reserved by live games.
    pub(super) memory_mb: AtomicU64,
    /// MiB reserved by each client address's games.
    pub(super) memory_by_address:
        std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, u64>>,
    /// Games between two browsers.
    pub(super) rooms: Rooms,
    /// Every game but the analyses, kept.
    pub(super) store: Arc<Store>,
    /// The games each client address may still keep.
    pub(super) creations: Creations,
    /// The puzzle attempts each client address may still make.
    pub(super) attempts: Creations,
    /// Finished games' reviews.
    pub(super) reviews: Arc<crate::review::Reviews>,
}

/// The default of [`Config::empty_timeout`].
pub const EMPTY_GAME_TIMEOUT: Duration = Duration::from_mins(2);

/// The default of [`Config::header_timeout`].
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The default of [`Config::max_connections_per_address`].
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 64;

/// The default of [`Config::max_connections`]: eight addresses' worth, far below the file
/// descriptors a process has (1,024 at least).
pub const MAX_CONNECTIONS: usize = 512;

/// The largest request body read (the puzzles' requests are a few hundred bytes).
pub const MAX_BODY: usize = 64 * 1024;

/// The default of [`Config::new_game_burst`]: a person starts a game every few seconds at
/// most; one connection made 1,471 kept games a second before this bound.
pub const NEW_GAME_BURST: u32 = 30;

/// The default of [`Config::new_game_refill`].
pub const NEW_GAME_REFILL: Duration = Duration::from_secs(5);

/// A client as its bounds count it: an IPv4 address, or an IPv6 address's /64 (what one
/// household or host is given: counting whole IPv6 addresses would give one client 2^64).
pub(super) fn client(ip: std::net::IpAddr) -> std::net::IpAddr {
    match ip {
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => std::net::IpAddr::V6(std::net::Ipv6Addr::from(
                v6.to_bits() & !u128::from(u64::MAX),
            )),
        },
        v4 @ std::net::IpAddr::V4(_) => v4,
    }
}

/// What clients hold of one of the server's caps (connections, games): each client address's
/// count, and all of them (an unknown address counts as one client).
#[derive(Default)]
pub(super) struct Holdings {
    pub(super) by_address: std::collections::HashMap<Option<std::net::IpAddr>, usize>,
    pub(super) total: usize,
}

pub(super) type SharedHoldings = Arc<std::sync::Mutex<Holdings>>;

pub(super) fn total(tally: &SharedHoldings) -> usize {
    tally
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .total
}

/// One unit of a cap held by a client address (a connection, a game), counted while it lives.
pub struct AddressSlot {
    pub(super) open: SharedHoldings,
    pub(super) ip: Option<std::net::IpAddr>,
}

impl AddressSlot {
    /// A slot for `ip` if it holds fewer than `per_address` and all fewer than `total`.
    pub(super) fn take(
        open: &SharedHoldings,
        ip: Option<std::net::IpAddr>,
        (per_address, total): (usize, usize),
    ) -> Option<AddressSlot> {
        let mut counts = open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if counts.total >= total {
            return None;
        }
        let count = counts.by_address.entry(ip).or_insert(0);
        if *count >= per_address {
            return None;
        }
        *count += 1;
        counts.total += 1;
        Some(AddressSlot {
            open: Arc::clone(open),
            ip,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        counts.total -= 1;
        if let Some(count) = counts.by_address.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.by_address.remove(&self.ip);
            }
        }
    }
}

/// The games each client address may still keep: [`Config::new_game_burst`] at once, then one
/// each [`Config::new_game_refill`] (a token bucket per address).
pub(super) struct Creations {
    pub(super) buckets:
        std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, (f64, Instant)>>,
    pub(super) burst: u32,
    pub(super) refill: Duration,
}

impl Creations {
    /// Takes one creation of `what` (new games, new puzzle players) for `ip`, or says how
    /// long to wait.
    pub(super) fn take(&self, ip: Option<std::net::IpAddr>, what: &str) -> Result<(), String> {
        let Some(ip) = ip else { return Ok(()) };
        let burst = f64::from(self.burst);
        let refill = self.refill.as_secs_f64().max(1e-3);
        let now = Instant::now();
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > 100_000 {
            // Forget the addresses whose bucket is full again.
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() / refill < burst
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() / refill).min(burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - *tokens) * refill;
            Err(format!(
                "too many {what} from this address: wait {:.0} s (at most {} at once, then one \
                 every {refill} s)",
                wait.ceil(),
                self.burst
            ))
        }
    }
}

/// Memory reserved from the server's budget for one game's players, returned when dropped.
pub(super) struct Reservation {
    pub(super) shared: Arc<Shared>,
    pub(super) mb: u64,
    pub(super) peer: Option<std::net::IpAddr>,
}

/// The most of `--max-memory` one client address may reserve: an eighth, but at least what
/// one game of two players may ask here (the largest tree each), or all of it if less.
pub(super) fn memory_share(max: u64) -> u64 {
    (max / 8)
        .max(2 * crate::game::MAX_TREE_MB.max(crate::game::MAX_TT_MB))
        .min(max)
}

impl Reservation {
    /// `mb` from the server's budget for `peer` (none: not a client's, like a review's).
    pub(super) fn take(
        shared: &Arc<Shared>,
        mb: u64,
        peer: Option<std::net::IpAddr>,
    ) -> Result<Reservation, String> {
        let max = shared.config.max_memory_mb;
        shared
            .memory_mb
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                (used + mb <= max).then_some(used + mb)
            })
            .map_err(|used| {
                format!(
                    "the server's memory for players is spent: this game needs {mb} MiB, \
                     {} of {max} MiB are free; ask for smaller tables (tt, tree) or try later",
                    max.saturating_sub(used)
                )
            })?;
        let mut reservation = Reservation {
            shared: Arc::clone(shared),
            mb,
            peer: None,
        };
        let Some(ip) = peer else {
            return Ok(reservation);
        };
        let share = memory_share(max);
        let mut by_address = shared
            .memory_by_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let held = by_address.get(&ip).copied().unwrap_or(0);
        if held + mb > share {
            // The server's part goes back as `reservation` drops.
            return Err(format!(
                "this address holds {held} MiB of players' memory, and may hold {share} of \
                 the server's {max} MiB: this game needs {mb}; close a game first"
            ));
        }
        by_address.insert(ip, held + mb);
        reservation.peer = Some(ip);
        Ok(reservation)
    }
}

/// Gives `mb` of `peer`'s part of the memory back.
pub(super) fn give_back(shared: &Shared, peer: Option<std::net::IpAddr>, mb: u64) {
    let Some(ip) = peer else { return };
    let mut by_address = shared
        .memory_by_address
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(held) = by_address.get_mut(&ip) {
        *held = held.saturating_sub(mb);
        if *held == 0 {
            by_address.remove(&ip);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        give_back(&self.shared, self.peer, self.mb);
        self.shared.memory_mb.fetch_sub(self.mb, Ordering::AcqRel);
    }
}

/// Counts a connection while it lives.
pub(super) struct Counted<'a>(pub(super) &'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

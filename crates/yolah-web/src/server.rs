//! The HTTP side: the page, a health line, and one WebSocket per game. Each connection owns its
//! game; machine moves are searched on blocking threads.
//!
//! What a browser-facing server on a user's machine owes them:
//! - **Origins.** A WebSocket is opened only from the page's own origin (the `Host` it was
//!   served from) or an origin the user allowed; and the `Host` itself must be an address,
//!   `localhost`, or an allowed origin's host, so that a page on another site cannot reach the
//!   server by pointing its own name at 127.0.0.1 (DNS rebinding). Anything else gets 403
//!   before the upgrade. A client that sends no `Origin` is not a browser page, and is served.
//! - **Memory.** Each game reserves what its machine players may hold (tables, trees) from one
//!   budget for the whole server; a game that does not fit is refused with the reason, and a
//!   game's reservation is returned when it is replaced, ends or times out.
//! - **Idle games** (no message and no search for the idle timeout) are closed, with a reason.
//! - **Fairness.** Searches of games a person plays start at once (each on one thread, at most
//!   10 s); games only watched (machine against machine) share a few search slots among
//!   themselves, so watchers cannot make a person wait.
//! - **A full server** answers with a close frame (1013, try again later) and the reason.

use crate::archive::Selection;
use crate::game::Table;
use crate::message::{
    ClientMessage, Focus, GameMessage, HostGame, JoinRoom, LineMessage, NewGame, OpenGame,
    PlayMove, ReportMessage, ServerMessage, Undo,
};
use crate::room::{Room, Rooms, Seat};
use crate::slots::{Slots, share};
use crate::store::{FORGET_EMPTY_AFTER, Kept, Kind, Pin, Playing, Store, Written, secret};
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State as Extract};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;
use yolah_ai::limits::StopFlag;
use yolah_ai::{Player, Report};
use yolah_core::Color;

/// The board page; its modules and style are served under `/static/` ([`crate::assets`]).
const INDEX: &str = include_str!("index.html");

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
fn blocking<T>(work: impl FnOnce() -> T) -> T {
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
struct Shared {
    config: Config,
    /// The page, made once.
    page: String,
    /// The slots of searches no person waits on for a move: watched games' and analyses'.
    watch_searches: Arc<Slots>,
    /// The slots of machine moves in games a person plays: apart from the watchers', so a
    /// person never waits behind them, and bounded too ([`PLAY_SLOTS_PER_SEARCH`] times
    /// `max_searches`).
    play_searches: Arc<Slots>,
    /// The games (each a WebSocket) of each client address, and all of them.
    games: Tallied,
    searching: AtomicUsize,
    /// MiB reserved by live games.
    memory_mb: AtomicU64,
    /// MiB reserved by each client address's games.
    memory_by_address: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, u64>>,
    /// Games between two browsers.
    rooms: Rooms,
    /// Every game but the analyses, kept.
    store: Arc<Store>,
    /// The games each client address may still keep.
    creations: Creations,
    /// The puzzle attempts each client address may still make.
    attempts: Creations,
    /// Finished games' reviews.
    reviews: Arc<crate::review::Reviews>,
}

/// The page, proposing the default player of every command and the server's time control.
fn page(config: &Config) -> String {
    // Short enough to be read whole in a phone's narrow field.
    let clock = config.time_control.map_or_else(
        || "none, or like 5min+3s".to_string(),
        |tc| format!("{tc} (the server's)"),
    );
    INDEX
        .replace("{{DEFAULT_PLAYER}}", yolah_ai::catalogue::DEFAULT_PLAYER)
        .replace("{{TIME_CONTROL}}", &clock)
        .replace(
            "{{EXPLORER_DATABASE}}",
            if config.explorer.is_some() {
                "yes"
            } else {
                "no"
            },
        )
}

/// The server's routes: `/` the page, `/ws` a game, `/health` the games, searches and memory
/// now, `/games` the archive of the games `store` keeps.
pub fn router(config: Config, store: Arc<Store>) -> Router {
    let (shared_burst, shared_refill) = (config.new_game_burst, config.new_game_refill);
    let review = config.review;
    let shared = Arc::new(Shared {
        page: page(&config),
        watch_searches: Slots::new(config.max_searches),
        play_searches: Slots::new(config.max_searches.max(1) * PLAY_SLOTS_PER_SEARCH),
        config,
        games: Tallied::default(),
        searching: AtomicUsize::new(0),
        memory_mb: AtomicU64::new(0),
        memory_by_address: std::sync::Mutex::default(),
        rooms: Rooms::new(Arc::clone(&store)),
        reviews: crate::review::Reviews::new(Arc::clone(&store), review),
        store,
        creations: Creations {
            buckets: std::sync::Mutex::default(),
            burst: shared_burst,
            refill: shared_refill,
        },
        attempts: Creations {
            buckets: std::sync::Mutex::default(),
            burst: shared_burst,
            refill: shared_refill,
        },
    });
    Router::new()
        .route(
            "/",
            get(|Extract(shared): Extract<Arc<Shared>>| async move { Html(shared.page.clone()) }),
        )
        .route("/static/{*path}", get(crate::assets::serve))
        .route("/health", get(health))
        .route("/export.pgn", get(crate::export::export))
        .route("/games", get(crate::archive::page))
        .route(
            "/games.json",
            get(|Extract(shared): Extract<Arc<Shared>>, asked: Result<Query<Selection>, QueryRejection>| async move {
                let asked = asked.map(|Query(selection)| selection).map_err(|why| why.body_text());
                off_workers(move || crate::archive::list(&shared.store, asked)).await
            }),
        )
        .route(
            "/games.pgn",
            get(|Extract(shared): Extract<Arc<Shared>>, Query(selection): Query<Selection>| async move {
                off_workers(move || crate::archive::pgn(&shared.store, &selection)).await
            }),
        )
        .route(
            "/games/{id}/review.json",
            get(|Extract(shared): Extract<Arc<Shared>>, Path(id): Path<String>| async move {
                off_workers(move || crate::review::respond(shared.reviews.status(&id))).await
            })
            .post(
                |Extract(shared): Extract<Arc<Shared>>, headers: HeaderMap, peer: Option<axum::Extension<Peer>>, Path(id): Path<String>| async move {
                    // A page of another site may not spend the server's searches.
                    if let Err(why) = check_origin(&headers, &shared.config.allowed_origins) {
                        return (StatusCode::FORBIDDEN, Json(serde_json::json!({"error": why})))
                            .into_response();
                    }
                    off_workers(move || {
                        // The reviewing thread's tables count against --max-memory.
                        let reserve = || {
                            Reservation::take(&shared, yolah_ai::review::MEMORY_MB, None)
                                .map(|held| Box::new(held) as crate::review::Held)
                        };
                        let client = peer.map(|axum::Extension(Peer(ip))| ip);
                        crate::review::respond(shared.reviews.ask(&id, client, reserve))
                    })
                    .await
                },
            ),
        )
        .route(
            "/puzzles",
            get(|| async { Html(PUZZLES_PAGE) }),
        )
        .route(
            "/puzzles.json",
            get(|Extract(shared): Extract<Arc<Shared>>, list: Result<Query<PuzzleList>, QueryRejection>| async move {
                let Ok(Query(list)) = list else {
                    let reason = "count and from must be whole numbers from 0, and nothing else asked";
                    return refusal(&crate::puzzles::Refused { status: 400, reason: reason.into() });
                };
                match shared.config.puzzles.list(list.from.unwrap_or(0), list.count.unwrap_or(10)) {
                    Ok(puzzles) => Json(puzzles).into_response(),
                    Err(refused) => refusal(&refused),
                }
            }),
        )
        .route(
            "/explorer.json",
            get(|Extract(shared): Extract<Arc<Shared>>, asked: Result<Query<crate::explorer::Asked>, QueryRejection>| async move {
                off_workers(move || {
                    crate::explorer::answer(shared.config.explorer.as_deref(), &shared.store, asked)
                })
                .await
            }),
        )
        .route("/puzzles/next", axum::routing::post(next_puzzle))
        .route("/puzzles/{id}/attempt", axum::routing::post(attempt_puzzle))
        .route("/ws", get(upgrade))
        .with_state(shared)
}

/// The archive's reads, on a blocking thread: a long listing never holds an async worker
/// (nor the store's writer: the archive reads through a connection of its own).
async fn off_workers(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the archive's reader failed",
        )
            .into_response()
    })
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

/// The client's address, as the connection loop saw it.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub std::net::IpAddr);

/// Serves until the process ends, keeping its games in `store`: each connection under a
/// header timeout ([`Config::header_timeout`], and the same again for its body), at most
/// [`Config::max_connections_per_address`] from one client address and
/// [`Config::max_connections`] in all (a client that half-sends requests cannot hold the
/// server's sockets).
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    store: impl Into<Arc<Store>>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    // An address holds at most its share of the server's connections, and never more than
    // its own bound.
    let bounds = (
        config
            .max_connections_per_address
            .min(share(config.max_connections))
            .max(1),
        config.max_connections.max(1),
    );
    let header_timeout = config.header_timeout;
    let app = router(config, store.into());
    let open = Tallied::default();
    loop {
        let Ok((tcp, address)) = listener.accept().await else {
            // Out of file descriptors, or a connection reset before it was taken: wait a
            // little rather than spin, and go on.
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let ip = client(address.ip());
        let Some(slot) = AddressSlot::take(&open, Some(ip), bounds) else {
            continue; // Dropped: closed at once.
        };
        // Without Nagle's delay: a state sent right after another message would otherwise
        // wait for the page's delayed acknowledgement (40 ms), and a clock would seem to jump.
        let _ = tcp.set_nodelay(true);
        let app = app.clone();
        // The slot lives as long as the connection, and as long as a WebSocket it becomes
        // (the upgrade handler keeps a share of it: hyper is done with the connection then).
        let slot = Arc::new(slot);
        tokio::spawn(async move {
            let held = Arc::clone(&slot);
            let service = hyper::service::service_fn(
                move |request: axum::extract::Request<hyper::body::Incoming>| {
                    let (app, held) = (app.clone(), Arc::clone(&held));
                    async move {
                        let (mut parts, body) = request.into_parts();
                        parts.extensions.insert(Peer(ip));
                        parts.extensions.insert(held);
                        let body = match whole_body(body, header_timeout).await {
                            Ok(body) => body,
                            Err(refused) => return Ok(refused),
                        };
                        tower::ServiceExt::oneshot(
                            app,
                            axum::extract::Request::from_parts(parts, body),
                        )
                        .await
                    }
                },
            );
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(Deadline::new(tcp, header_timeout)), service)
                .with_upgrades()
                .await;
        });
    }
}

/// A connection whose writes must each make progress within `within`: a client that asks and
/// never reads (pipelined requests, a full socket) has its connection closed then, where
/// hyper would wait for ever (it has no write deadline).
struct Deadline<T> {
    inner: T,
    within: Duration,
    /// When the write waiting now fails, if one waits.
    timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Deadline<T> {
    fn new(inner: T, within: Duration) -> Deadline<T> {
        Deadline {
            inner,
            within,
            timer: None,
        }
    }

    /// `progress` of a write, or the error once it has waited `within`.
    fn bounded<R>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        progress: std::task::Poll<std::io::Result<R>>,
    ) -> std::task::Poll<std::io::Result<R>> {
        use std::future::Future as _;
        if progress.is_ready() {
            self.timer = None;
            return progress;
        }
        let within = self.within;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(within)));
        match timer.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing of what it was sent",
            ))),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }
}

impl<T: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Deadline<T> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Deadline<T> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let progress = std::pin::Pin::new(&mut self.inner).poll_write(cx, buf);
        self.bounded(cx, progress)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let progress = std::pin::Pin::new(&mut self.inner).poll_flush(cx);
        self.bounded(cx, progress)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let progress = std::pin::Pin::new(&mut self.inner).poll_shutdown(cx);
        self.bounded(cx, progress)
    }
}

/// A request's body, read whole within `within` and at most [`MAX_BODY`] bytes, or the
/// answer that refuses it (408, 413; the connection then closes, its body unread): a body
/// that never arrives holds no connection past its deadline.
async fn whole_body(
    body: hyper::body::Incoming,
    within: Duration,
) -> Result<axum::body::Body, Response> {
    use http_body_util::BodyExt as _;
    use hyper::body::Body as _;
    if body.is_end_stream() {
        return Ok(axum::body::Body::empty());
    }
    let refuse = |status: StatusCode, why: String| {
        let mut response = (status, Json(serde_json::json!({ "error": why }))).into_response();
        response.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        response
    };
    match tokio::time::timeout(
        within,
        http_body_util::Limited::new(body, MAX_BODY).collect(),
    )
    .await
    {
        Ok(Ok(collected)) => Ok(axum::body::Body::from(collected.to_bytes())),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a request's body is at most {MAX_BODY} bytes"),
        )),
        Ok(Err(e)) => Err(refuse(
            StatusCode::BAD_REQUEST,
            format!("the body did not read: {e}"),
        )),
        Err(_) => Err(refuse(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body did not arrive within {} s", within.as_secs_f64()),
        )),
    }
}

/// A client as its bounds count it: an IPv4 address, or an IPv6 address's /64 (what one
/// household or host is given: counting whole IPv6 addresses would give one client 2^64).
fn client(ip: std::net::IpAddr) -> std::net::IpAddr {
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
struct Tally {
    by_address: std::collections::HashMap<Option<std::net::IpAddr>, usize>,
    total: usize,
}

type Tallied = Arc<std::sync::Mutex<Tally>>;

fn total(tally: &Tallied) -> usize {
    tally
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .total
}

/// One unit of a cap held by a client address (a connection, a game), counted while it lives.
pub struct AddressSlot {
    open: Tallied,
    ip: Option<std::net::IpAddr>,
}

impl AddressSlot {
    /// A slot for `ip` if it holds fewer than `per_address` and all fewer than `total`.
    fn take(
        open: &Tallied,
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
struct Creations {
    buckets: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, (f64, Instant)>>,
    burst: u32,
    refill: Duration,
}

impl Creations {
    /// Takes one creation of `what` (new games, new puzzle players) for `ip`, or says how
    /// long to wait.
    fn take(&self, ip: Option<std::net::IpAddr>, what: &str) -> Result<(), String> {
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

/// The puzzles page.
const PUZZLES_PAGE: &str = include_str!("puzzles.html");

/// `/puzzles.json`'s query.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleList {
    count: Option<usize>,
    from: Option<usize>,
}

/// A refused puzzle request: its status and `{"error": …}`.
fn refusal(refused: &crate::puzzles::Refused) -> Response {
    let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(serde_json::json!({ "error": refused.reason }))).into_response()
}

/// A puzzle request's body as JSON, from the page's own origin or an allowed one (another
/// site's page may not spend a browser's attempts), or why not.
fn request<T: serde::de::DeserializeOwned>(
    shared: &Shared,
    headers: &HeaderMap,
    bytes: &[u8],
) -> Result<T, crate::puzzles::Refused> {
    check_origin(headers, &shared.config.allowed_origins).map_err(|reason| {
        crate::puzzles::Refused {
            status: 403,
            reason,
        }
    })?;
    serde_json::from_slice(bytes).map_err(|e| crate::puzzles::Refused {
        status: 400,
        reason: format!("not a request of this kind: {e}"),
    })
}

/// `POST /puzzles/next`.
async fn next_puzzle(
    Extract(shared): Extract<Arc<Shared>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Response {
    let asker: crate::puzzles::Asker = match request(&shared, &headers, &bytes) {
        Ok(asker) => asker,
        Err(refused) => return refusal(&refused),
    };
    off_workers(
        move || match shared.config.puzzles.next(&shared.store, &asker.solver) {
            Ok(next) => Json(next).into_response(),
            Err(refused) => refusal(&refused),
        },
    )
    .await
}

/// `POST /puzzles/ID/attempt`: a new browser's first counted attempt is bounded by address.
async fn attempt_puzzle(
    Extract(shared): Extract<Arc<Shared>>,
    headers: HeaderMap,
    peer: Option<axum::Extension<Peer>>,
    Path(id): Path<String>,
    bytes: axum::body::Bytes,
) -> Response {
    let attempt: crate::puzzles::Attempt = match request(&shared, &headers, &bytes) {
        Ok(attempt) => attempt,
        Err(refused) => return refusal(&refused),
    };
    let peer = peer.map(|axum::Extension(Peer(ip))| ip);
    off_workers(move || {
        // A browser's first attempt is a new row; every counted attempt writes: both bounded
        // by address.
        let limit = |new: bool| {
            if new {
                shared.creations.take(peer, "new puzzle players")?;
            }
            shared.attempts.take(peer, "puzzle attempts")
        };
        match shared
            .config
            .puzzles
            .attempt(&shared.store, &id, &attempt, limit)
        {
            Ok(answer) => Json(answer).into_response(),
            Err(refused) => refusal(&refused),
        }
    })
    .await
}

async fn health(Extract(shared): Extract<Arc<Shared>>) -> impl IntoResponse {
    Json(serde_json::json!({
        "games": total(&shared.games),
        "searching": shared.searching.load(Ordering::Relaxed),
        "waiting": shared.watch_searches.waiting() + shared.play_searches.waiting(),
        "memory_mb": crate::memory::resident_mb(),
        "reserved_mb": shared.memory_mb.load(Ordering::Relaxed),
        "max_memory_mb": shared.config.max_memory_mb,
    }))
}

async fn upgrade(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    peer: Option<axum::Extension<Peer>>,
    slot: Option<axum::Extension<Arc<AddressSlot>>>,
    Extract(shared): Extract<Arc<Shared>>,
) -> Response {
    if let Err(why) = check_origin(&headers, &shared.config.allowed_origins) {
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    let peer = peer.map(|axum::Extension(Peer(ip))| ip);
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            // The address's slot is held for as long as the game's socket lives.
            let _slot = slot;
            play(socket, shared, peer).await;
        })
}

/// An origin as compared: lower case, without a trailing slash.
fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The host part of a `Host` header or an origin's authority (`[::1]:8080` → `[::1]`).
fn host_name(authority: &str) -> &str {
    if authority.starts_with('[') {
        authority.split_inclusive(']').next().unwrap_or(authority)
    } else {
        authority.split(':').next().unwrap_or(authority)
    }
}

/// Whether a WebSocket may be opened with these headers (see the module's notes), and if
/// not, why.
pub fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let allowed: Vec<String> = allowed.iter().map(|o| normalise_origin(o)).collect();
    let host = text(header::HOST).map(str::to_ascii_lowercase);
    if let Some(host) = &host {
        let name = host_name(host);
        let literal = name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok();
        let named = allowed.iter().any(|origin| {
            origin
                .split_once("://")
                .is_some_and(|(_, authority)| host_name(authority) == name)
        });
        if !(literal || name == "localhost" || named) {
            return Err(format!(
                "host {} is not served: open the page at an address or localhost, or start the \
                 server with --allow-origin http://{}",
                yolah_core::text::quote(host),
                yolah_core::text::clip(host)
            ));
        }
    }
    let Some(origin) = text(header::ORIGIN) else {
        return Ok(()); // Not a browser page: browsers always send an Origin.
    };
    let origin = normalise_origin(origin);
    let own = host.as_ref().is_some_and(|host| {
        origin == format!("http://{host}") || origin == format!("https://{host}")
    });
    if own || allowed.contains(&origin) {
        Ok(())
    } else {
        Err(format!(
            "origin {} may not open games here; start the server with --allow-origin {} to allow it",
            yolah_core::text::quote(&origin),
            yolah_core::text::clip(&origin)
        ))
    }
}

/// Memory reserved from the server's budget for one game's players, returned when dropped.
struct Reservation {
    shared: Arc<Shared>,
    mb: u64,
    peer: Option<std::net::IpAddr>,
}

/// The most of `--max-memory` one client address may reserve: an eighth, but at least what
/// one game of two players may ask here (the largest tree each), or all of it if less.
fn memory_share(max: u64) -> u64 {
    (max / 8)
        .max(2 * crate::game::MAX_TREE_MB.max(crate::game::MAX_TT_MB))
        .min(max)
}

impl Reservation {
    /// `mb` from the server's budget for `peer` (none: not a client's, like a review's).
    fn take(
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
fn give_back(shared: &Shared, peer: Option<std::net::IpAddr>, mb: u64) {
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
struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What a search thread tells its connection.
enum Event {
    Progress {
        generation: u64,
        side: Color,
        ply: usize,
        report: Report,
    },
    Done {
        generation: u64,
        side: Color,
        ply: usize,
        report: Report,
        player: Box<dyn Player>,
        stop: StopFlag,
        /// An analysis that gave its slot to another search: it goes on when its turn comes.
        preempted: bool,
    },
    /// A search abandoned before it had a slot: its flag, for the next.
    Dropped { stop: StopFlag },
}

/// One connection's game.
struct Connection {
    shared: Arc<Shared>,
    events: mpsc::UnboundedSender<Event>,
    table: Option<Table>,
    /// The memory the table's players may hold, reserved from the server's budget.
    reservation: Option<Reservation>,
    /// Each side's player, kept between its moves (MCTS reuses its tree); `None` while it
    /// searches.
    players: [Option<Box<dyn Player>>; 2],
    /// The running search's number; a result of another number is stale.
    generation: u64,
    /// The running search's stop flag.
    running: Option<StopFlag>,
    /// Stop flags of finished searches, for the next ones.
    flags: Vec<StopFlag>,
    /// Whether the running search is an analysis (its move is not played).
    analysing: bool,
    /// The game between two browsers this connection is in, instead of a game of its own.
    member: Option<Member>,
    /// The rooms this connection has hosted (at most [`MAX_HOSTED`] still open).
    hosted: Vec<std::sync::Weak<Room>>,
    /// How the store keeps the table's game (none for an analysis).
    kept: Option<KeptGame>,
    /// Messages for the page besides the state (the kept game's id and token).
    outbox: Vec<ServerMessage>,
    /// Whether the table changed since the store last wrote it (a new or opened game is
    /// written as it is kept or taken).
    unsaved: bool,
    /// When the machine searches again after a move the store could not keep.
    retry_at: Option<std::time::Instant>,
    /// The client's address: what it may keep is bounded by address.
    peer: Option<std::net::IpAddr>,
    /// The position the analysis thinks on (its ply), and the time it has spent on it.
    analysed: Option<(usize, yolah_core::Position, Duration)>,
}

/// A connection's game as the store keeps it.
struct KeptGame {
    id: String,
    /// The token that gives it back; none for a game only shown (from the archive): it is
    /// not played here and not written.
    token: Option<String>,
    /// This connection's mark on the row: a page that opens the game elsewhere takes it.
    holder: String,
    /// Keeps the game from being forgotten while this page has it open.
    _pin: Pin,
    /// The archive's "playing" while this page plays it (none for a game only shown).
    _playing: Option<Playing>,
}

/// A connection's place in a room.
struct Member {
    room: Arc<Room>,
    seat: Seat,
    token: Option<String>,
    /// The room's news, until the connection's loop takes it.
    updates: Option<broadcast::Receiver<ServerMessage>>,
}

impl Member {
    /// A room message as this member sees it (its own seat and token).
    fn own(&self, message: ServerMessage) -> ServerMessage {
        match message {
            ServerMessage::Room(mut room) => {
                room.seat = match self.seat {
                    Seat::Side(side) => side.to_string(),
                    Seat::Spectator => "spectator".to_string(),
                };
                room.token.clone_from(&self.token);
                room.key = matches!(self.seat, Seat::Side(_)).then(|| self.room.key().to_string());
                ServerMessage::Room(room)
            }
            other => other,
        }
    }
}

impl Connection {
    fn new(shared: Arc<Shared>, events: mpsc::UnboundedSender<Event>) -> Connection {
        Connection {
            shared,
            events,
            table: None,
            reservation: None,
            players: [None, None],
            generation: 0,
            running: None,
            flags: Vec::new(),
            analysing: false,
            member: None,
            hosted: Vec::new(),
            kept: None,
            outbox: Vec::new(),
            unsaved: false,
            retry_at: None,
            peer: None,
            analysed: None,
        }
    }

    /// Whether this connection plays a game that is not over: a seat in a room, or its own
    /// game with a person's side. As on lichess, it is given no analysis, evaluation or engine
    /// line of it until it ends.
    fn playing_live(&self) -> bool {
        match &self.member {
            Some(member) => member.seat != Seat::Spectator && !member.room.over(),
            None => {
                !self.shown_only()
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.has_human() && !t.is_analysis() && !t.over())
            }
        }
    }

    /// Refuses an analysis to a connection that plays a game not over (see
    /// [`Connection::playing_live`]); a seat in a room is checked before the message takes
    /// the connection out of it.
    fn may_analyse(&self, message: &ClientMessage) -> Result<(), String> {
        if matches!(message, ClientMessage::New(NewGame { analysis: true, .. }))
            && self.playing_live()
        {
            return Err(
                "no analysis while you play a game, as on lichess: Analyse opens when \
                        it ends (resign or start a new game to leave it)"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// How long this connection may idle: the server's idle timeout, or its empty timeout
    /// ([`Config::empty_timeout`]) if less while it holds no game with a move (a person's first
    /// move, or the friend a room waits for, is a reason to wait; an empty socket is not).
    fn idle_timeout(&self) -> Duration {
        let idle = self.shared.config.idle_timeout;
        if self.empty() {
            idle.min(self.shared.config.empty_timeout)
        } else {
            idle
        }
    }

    /// Whether this connection holds no game with a move: no game, or a new one (not an
    /// analysis, not a friends' game) in which nobody has moved.
    fn empty(&self) -> bool {
        self.member.is_none()
            && self
                .table
                .as_ref()
                .is_none_or(|t| t.moves() == 0 && !t.is_analysis())
    }

    /// Whether the game shown is only shown (opened from the archive without its token).
    fn shown_only(&self) -> bool {
        self.kept.as_ref().is_some_and(|kept| kept.token.is_none())
    }

    fn state(&self) -> Option<ServerMessage> {
        let shown_only = self.shown_only();
        self.table.as_ref().map(|t| {
            let mut state = t.state(self.running.is_some());
            if shown_only {
                state.legal.clear();
                if let Some(clocks) = state.clocks.as_mut() {
                    clocks.running = None;
                }
            }
            ServerMessage::State(Box::new(state))
        })
    }

    /// When the side to move of this connection's own game runs out of time.
    fn deadline(&self) -> Option<std::time::Instant> {
        match &self.member {
            Some(member) => member.room.deadline(),
            None if self.shown_only() => None,
            None => self.table.as_ref().and_then(Table::deadline),
        }
    }

    /// Writes the game as it stands to the store (an analysis or a game only shown is not
    /// written); the messages if another page has taken the game; an error if the store
    /// could not keep it.
    fn persist(&mut self) -> Result<Vec<ServerMessage>, String> {
        let (Some(kept), Some(table)) = (&self.kept, &self.table) else {
            return Ok(Vec::new());
        };
        if kept.token.is_none() || !std::mem::take(&mut self.unsaved) {
            return Ok(Vec::new());
        }
        match self
            .shared
            .store
            .save(&kept.id, Some(&kept.holder), &table.saved())
        {
            Ok(Written::Kept) => Ok(Vec::new()),
            Ok(Written::Taken) => {
                self.drop_game();
                Ok(vec![ServerMessage::Error {
                    message: "this game is open in another tab or window now; reload to take \
                              it back here"
                        .to_string(),
                }])
            }
            Err(message) => {
                self.unsaved = true;
                Err(message)
            }
        }
    }

    /// Keeps the change a message made; if the store cannot keep it, the game is put back
    /// as it was (`before`) and the change refused: nothing the page is shown as played is
    /// unkept.
    fn keep_or_undo(&mut self, before: Option<Table>) -> Result<Vec<ServerMessage>, String> {
        self.persist().inspect_err(|_| {
            self.abandon();
            self.table = before;
            self.unsaved = false;
        })
    }

    /// A message from the page, handled and kept: the messages for the page, and whether it
    /// was taken.
    fn receive(&mut self, text: &str) -> (Vec<ServerMessage>, bool) {
        let before = self.table.clone();
        let handled = self.handle(text);
        // The kept game's id and token first, then what came of the message.
        let mut messages = std::mem::take(&mut self.outbox);
        if let Err(message) = handled {
            messages.push(ServerMessage::Error { message });
            return (messages, false);
        }
        match self.keep_or_undo(before) {
            Ok(news) => messages.extend(news),
            // Undone: the page is shown the game as it was, and why.
            Err(message) => messages.push(ServerMessage::Error { message }),
        }
        // A machine to move searches (again, after an undone change).
        self.think();
        messages.extend(self.state());
        (messages, true)
    }

    /// Forgets this connection's game (the store keeps it as last written).
    fn drop_game(&mut self) {
        self.abandon();
        self.players = [None, None];
        self.reservation = None;
        self.table = None;
        self.kept = None;
    }

    /// Keeps a new game of this page's own, and tells the page its id and token.
    fn keep(&mut self, table: &Table) -> Result<(), String> {
        let token = secret(2);
        let kept = Kept {
            id: secret(1),
            kind: Kind::Own,
            tokens: [Some(token.clone()), Some(token.clone())],
            key: None,
            saved: table.saved(),
        };
        let holder = secret(1);
        let pin = self
            .shared
            .store
            .create(&kept, Some(&holder), FORGET_EMPTY_AFTER)?;
        self.outbox.push(ServerMessage::Game(GameMessage {
            id: kept.id.clone(),
            token: Some(token.clone()),
        }));
        self.kept = Some(KeptGame {
            _playing: Some(self.shared.store.play(&kept.id, Some(&holder))),
            id: kept.id,
            token: Some(token),
            holder,
            _pin: pin,
        });
        Ok(())
    }

    /// Opens the kept game `id`: a shared game as [`JoinRoom`] without its join secret (the
    /// side `token` holds, else watching); a page's own game played on with its token (read
    /// and taken from the page that held it in one step), else only shown.
    fn open(&mut self, id: &str, token: Option<&str>) -> Result<(), String> {
        let id = id.trim();
        let holder = secret(1);
        let missing = || {
            format!(
                "no game {}: its link is wrong, or it never had a move",
                yolah_core::text::quote(id)
            )
        };
        let kept = self.shared.store.load(id)?.ok_or_else(missing)?;
        let config = &self.shared.config;
        if kept.kind == Kind::Friends {
            // Its room holds it: a side only with a side's token.
            let room = self
                .shared
                .rooms
                .find(id, config.max_games, config.idle_timeout)?;
            self.enter(room, token, None, None);
            return Ok(());
        }
        let owner = token.filter(|t| kept.tokens.iter().flatten().any(|k| k == t));
        // Checked before it is taken: a game that cannot be played here is not taken from
        // the page that has it.
        let memory = Table::restore(&kept.saved)
            .map_err(|e| format!("game {id} cannot be taken up: {e}"))?
            .memory_mb();
        self.drop_game();
        if owner.is_some() {
            self.reservation = Some(Reservation::take(&self.shared, memory, self.peer)?);
        }
        // Pinned before it is read: the forgetting of games with no move cannot take it now.
        let pin = self.shared.store.pin(id);
        let (game, owns) = self
            .shared
            .store
            .take(id, owner, &holder)?
            .ok_or_else(missing)?;
        // The game as it was taken (a write of the page before may have come since the check).
        let table = Table::restore(&game.saved)
            .map_err(|e| format!("game {id} cannot be taken up: {e}"))?;
        let token = owns.then(|| owner.map(str::to_string)).flatten();
        self.outbox.push(ServerMessage::Game(GameMessage {
            id: id.to_string(),
            token: token.clone(),
        }));
        self.kept = Some(KeptGame {
            id: id.to_string(),
            _playing: token
                .is_some()
                .then(|| self.shared.store.play(id, Some(&holder))),
            token,
            holder,
            _pin: pin,
        });
        self.table = Some(table);
        Ok(())
    }

    /// At the side to move's deadline: the messages if it has lost on time (a room tells its
    /// members itself).
    fn flag(&mut self) -> Vec<ServerMessage> {
        if let Some(member) = &self.member {
            if member.room.check_flag() {
                member.room.publish();
            }
            return Vec::new();
        }
        let flagged = self.table.as_mut().is_some_and(Table::check_flag);
        if !flagged {
            return Vec::new();
        }
        self.abandon();
        self.unsaved = true;
        let mut messages = self
            .persist()
            .unwrap_or_else(|message| vec![ServerMessage::Error { message }]);
        messages.extend(self.state());
        messages
    }

    /// Stops and forgets the running search.
    fn abandon(&mut self) {
        if let Some(stop) = self.running.take() {
            stop.raise();
            self.generation += 1;
        }
    }

    /// A page's time control: none asked for is the server's, `none` is none.
    fn time_control(&self, tc: Option<&str>) -> Result<Option<yolah_ai::TimeControl>, String> {
        Ok(match tc.map(str::trim) {
            None | Some("") => self.shared.config.time_control,
            Some("none") => None,
            Some(text) => Some(text.parse().map_err(|e| format!("tc {e}"))?),
        })
    }

    /// Sits down in `room` (this connection's own game ends), and tells everyone there.
    fn enter(
        &mut self,
        room: Arc<Room>,
        token: Option<&str>,
        key: Option<&str>,
        prefer: Option<Color>,
    ) {
        self.drop_game();
        let updates = room.subscribe();
        let (seat, token) = room.join(token, key, prefer);
        room.publish();
        self.member = Some(Member {
            room,
            seat,
            token,
            updates: Some(updates),
        });
    }

    /// Hosts a game between two browsers and sits down in it.
    fn host(&mut self, host: HostGame) -> Result<(), String> {
        let HostGame {
            colour,
            position,
            tc,
        } = host;
        let prefer = match colour.trim() {
            "black" => Color::Black,
            "random" if rand::random::<bool>() => Color::Black,
            "white" | "random" => Color::White,
            other => {
                return Err(format!(
                    "colour {} is not black, white or random",
                    yolah_core::text::quote(other)
                ));
            }
        };
        let tc = self.time_control(tc.as_deref())?;
        let config = &self.shared.config;
        let grace = config.idle_timeout;
        self.hosted.retain(|room| {
            room.upgrade()
                .is_some_and(|room| !room.forgotten(grace) && self.shared.rooms.holds(&room))
        });
        if self.hosted.len() >= MAX_HOSTED {
            return Err(format!(
                "this page has hosted {MAX_HOSTED} shared games still open; finish or leave \
                 one first"
            ));
        }
        self.shared.creations.take(self.peer, "new games")?;
        let room = self.shared.rooms.create(
            position.as_deref(),
            tc,
            config.max_games,
            config.idle_timeout,
        )?;
        self.hosted.push(Arc::downgrade(&room));
        let key = room.key().to_string();
        self.enter(room, None, Some(&key), Some(prefer));
        Ok(())
    }

    /// Leaves the room this connection is in, if any, and tells those left.
    fn leave_room(&mut self) {
        if let Some(member) = self.member.take() {
            member.room.leave(member.seat);
            member.room.publish();
        }
    }

    /// The table, to change: the store writes it after the message.
    fn table_mut(&mut self) -> Result<&mut Table, String> {
        self.unsaved = true;
        self.table
            .as_mut()
            .ok_or_else(|| "no game: start one first".to_string())
    }

    /// Stops an analysis whose position has changed (a new one starts on the new position).
    fn abandon_analysis(&mut self) {
        if self.analysing {
            self.abandon();
        }
    }

    /// A message of a game between two browsers, if this connection is in one and the
    /// message is the room's; any other message takes the connection out of its room.
    fn handle_in_room(&mut self, message: &ClientMessage) -> Option<Result<(), String>> {
        let member = self.member.as_ref()?;
        let (room, seat) = (Arc::clone(&member.room), member.seat);
        let done = match message {
            ClientMessage::Play(PlayMove { mv }) => Some(room.play(seat, mv)),
            ClientMessage::Resign(_) => Some(room.resign(seat)),
            ClientMessage::Undo(Undo { to: None }) => Some(room.takeback(seat)),
            ClientMessage::Decline(_) => Some(room.decline(seat)),
            ClientMessage::Undo(Undo { to: Some(_) }) => Some(Err(
                "in a game between two browsers, take back one move (both must ask)".to_string(),
            )),
            ClientMessage::Pause(_) | ClientMessage::Resume(_) => {
                Some(Err("a game between people does not pause".to_string()))
            }
            _ => None,
        };
        if let Some(done) = done {
            return Some(done.map(|()| room.publish()));
        }
        self.leave_room();
        None
    }

    fn handle(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_MESSAGE {
            return Err(format!("message longer than {MAX_MESSAGE} bytes"));
        }
        let message: ClientMessage =
            serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
        self.may_analyse(&message)?;
        if let Some(done) = self.handle_in_room(&message) {
            return done;
        }
        if self.shown_only()
            && matches!(
                message,
                ClientMessage::Play(_)
                    | ClientMessage::Undo(_)
                    | ClientMessage::Resign(_)
                    | ClientMessage::Pause(_)
                    | ClientMessage::Resume(_)
            )
        {
            return Err(
                "this game is shown from the archive, not played here: Analyse to study it"
                    .to_string(),
            );
        }
        match message {
            ClientMessage::New(NewGame {
                black,
                white,
                position,
                tc,
                moves,
                analysis,
            }) => {
                let tc = self.time_control(tc.as_deref())?;
                let mut table = if analysis {
                    Table::analysis(position.as_deref())?
                } else {
                    Table::new(&black, &white, position.as_deref(), tc)?
                };
                table.replay(&moves)?;
                if !analysis {
                    self.shared.creations.take(self.peer, "new games")?;
                }
                // The old game is kept as it stands, its clocks too (Back brings it back);
                // its players and memory go before the new game's are reserved.
                self.unsaved = true;
                let _ = self.persist();
                self.drop_game();
                let memory = if analysis {
                    analysis_spec().memory_mb()
                } else {
                    table.memory_mb()
                };
                self.reservation = Some(Reservation::take(&self.shared, memory, self.peer)?);
                if !analysis {
                    self.keep(&table)?;
                }
                table.start_turn();
                self.table = Some(table);
            }
            ClientMessage::Play(PlayMove { mv }) => {
                self.table_mut()?.human_move(&mv)?;
                self.abandon_analysis();
            }
            ClientMessage::Undo(Undo { to }) => {
                let table = self.table_mut()?;
                let mut trial = table.clone();
                match to {
                    Some(moves) => trial.undo_to(moves)?,
                    None => trial.undo()?,
                }
                *table = trial;
                self.abandon();
            }
            ClientMessage::Resign(_) => {
                self.table_mut()?.resign()?;
                self.abandon();
            }
            ClientMessage::Pause(_) => {
                self.table_mut()?.pause()?;
                self.abandon();
            }
            ClientMessage::Resume(_) => self.table_mut()?.resume()?,
            ClientMessage::Focus(Focus { ply }) => {
                self.table_mut()?.focus(ply)?;
                // The search on the position before stops; the next starts on this one.
                self.abandon_analysis();
            }
            ClientMessage::Decline(_) => {
                return Err("only a game between two browsers has takebacks to decline".into());
            }
            ClientMessage::Host(host) => self.host(host)?,
            ClientMessage::Join(JoinRoom { room, key, token }) => {
                let config = &self.shared.config;
                let room = self
                    .shared
                    .rooms
                    .find(&room, config.max_games, config.idle_timeout)?;
                self.enter(room, token.as_deref(), key.as_deref(), None);
            }
            ClientMessage::Open(OpenGame { game, token }) => self.open(&game, token.as_deref())?,
        }
        Ok(())
    }

    /// The limits of an analysis of `position` (after `ply` moves): it thinks at most
    /// [`MAX_ANALYSIS_TIME`] on a position over all its turns; none once that is spent.
    fn analysis_limits(
        &mut self,
        ply: usize,
        position: yolah_core::Position,
    ) -> Option<yolah_ai::Limits> {
        if self
            .analysed
            .as_ref()
            .is_none_or(|(p, q, _)| (*p, *q) != (ply, position))
        {
            self.analysed = Some((ply, position, Duration::ZERO));
        }
        let spent = self.analysed.as_ref().map_or(Duration::ZERO, |a| a.2);
        let left = MAX_ANALYSIS_TIME
            .checked_sub(spent)
            .filter(|t| !t.is_zero())?;
        Some(yolah_ai::Limits {
            time: Some(left),
            ..yolah_ai::Limits::default()
        })
    }

    /// Starts the machine's search if a machine is to move and none runs.
    fn think(&mut self) {
        if self.running.is_some() || self.shown_only() || self.retry_at.is_some() {
            return;
        }
        let Some(table) = &self.table else { return };
        let has_human = table.has_human();
        // The reports say which position they are of: an analysis's may be an earlier one.
        let (spec, ply, position, limits, analysing) = if let Some(spec) = table.machine_to_move() {
            let limits = table.machine_limits(spec);
            (spec.clone(), table.moves(), table.position(), limits, false)
        } else if let Some((ply, position)) = table.to_analyse() {
            let Some(limits) = self.analysis_limits(ply, position) else {
                return;
            };
            (analysis_spec(), ply, position, limits, true)
        } else {
            return;
        };
        self.analysing = analysing;
        let side = position.side_to_move();
        // A player kept from the side's last move (MCTS's tree); else one is made once the
        // search has its slot, so that a search waiting for one holds no table.
        let kept = self.players[side.index()].take();
        let seed: u64 = rand::random();
        let stop = self.flags.pop().unwrap_or_default();
        self.running = Some(stop);
        let generation = self.generation;
        let events = self.events.clone();
        let shared = Arc::clone(&self.shared);
        let client = self.peer;
        // An analysis is a search no person waits on for a move, like a watched game's.
        let watched = !has_human || analysing;
        tokio::spawn(async move {
            // Watched games and analyses share their slots; a person's game takes one of its
            // own kind, so it never waits behind them. Each client has its share, in turn.
            let slots = if watched {
                &shared.watch_searches
            } else {
                &shared.play_searches
            };
            // A search abandoned while it waits (its page moved on) leaves the queue at once.
            let permit = tokio::select! {
                permit = slots.acquire(client) => permit,
                () = raised(stop) => {
                    let _ = events.send(Event::Dropped { stop });
                    return;
                }
            };
            // An analysis gives its slot up after a turn if anyone waits, and queues again.
            let preempted = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let turns = analysing.then(|| {
                let (slots, preempted) = (Arc::clone(slots), Arc::clone(&preempted));
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(crate::slots::TURN).await;
                        if slots.anyone_waiting() {
                            preempted.store(true, Ordering::Relaxed);
                            stop.raise();
                            return;
                        }
                    }
                })
            });
            let limits = yolah_ai::Limits {
                stop: Some(stop),
                ..limits
            };
            let _ = tokio::task::spawn_blocking(move || {
                shared.searching.fetch_add(1, Ordering::Relaxed);
                let _counted = Counted(&shared.searching);
                let mut player = kept.unwrap_or_else(|| spec.player(seed));
                let report = if stop.is_raised() {
                    // Abandoned while it waited: no search.
                    Report::new(position.moves()[0], std::time::Duration::ZERO)
                } else {
                    player.choose_observed(&position, limits, &mut |report| {
                        let _ = events.send(Event::Progress {
                            generation,
                            side,
                            ply,
                            report: report.clone(),
                        });
                    })
                };
                if let Some(turns) = turns {
                    turns.abort();
                }
                drop(permit);
                let _ = events.send(Event::Done {
                    generation,
                    side,
                    ply,
                    report,
                    player,
                    stop,
                    preempted: preempted.load(Ordering::Relaxed),
                });
            })
            .await;
        });
    }

    /// A search's news; the messages for the page.
    fn event(&mut self, event: Event) -> Vec<ServerMessage> {
        match event {
            Event::Progress {
                generation,
                side,
                ply,
                report,
            } if generation == self.generation => {
                vec![report_message(
                    side,
                    ply,
                    &report,
                    false,
                    !self.playing_live(),
                )]
            }
            Event::Progress { .. } => Vec::new(),
            Event::Dropped { stop } => {
                stop.lower();
                self.flags.push(stop);
                Vec::new()
            }
            Event::Done {
                generation,
                side,
                ply,
                report,
                player,
                stop,
                preempted,
            } => {
                stop.lower();
                self.flags.push(stop);
                if generation != self.generation {
                    return Vec::new();
                }
                self.running = None;
                let Some(table) = self.table.as_mut() else {
                    return Vec::new();
                };
                self.players[side.index()] = Some(player);
                let mut before = None;
                if self.analysing {
                    if let Some((.., spent)) = self.analysed.as_mut() {
                        *spent += report.time;
                    }
                    let spent = self.analysed.as_ref().map_or(Duration::ZERO, |a| a.2);
                    if preempted && spent < MAX_ANALYSIS_TIME {
                        // Its turn is over: what it found is shown, and it queues again.
                        self.generation += 1;
                        return vec![report_message(side, ply, &report, false, true)];
                    }
                    // Proved, or thought its longest: this position waits for Go; another
                    // position shown is searched.
                    table.analysed(ply);
                } else {
                    before = Some(table.clone());
                    table.machine_move(report.mv);
                    self.unsaved = true;
                }
                self.generation += 1;
                let evaluation = !self.playing_live();
                let mut messages = vec![report_message(side, ply, &report, true, evaluation)];
                if before.is_some() {
                    match self.keep_or_undo(before) {
                        Ok(news) => messages.extend(news),
                        Err(message) => {
                            // Not played: the machine tries again a little later.
                            messages.push(ServerMessage::Error { message });
                            self.retry_at = Some(std::time::Instant::now() + RETRY_AFTER);
                        }
                    }
                }
                messages
            }
        }
    }
}

/// Resolves once `stop` is raised (looked at every 50 ms).
async fn raised(stop: StopFlag) {
    while !stop.is_raised() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The player of analysis boards: the strongest, searching until it is stopped (the opening
/// book off: an analysis shows a search, even of the first plies).
fn analysis_spec() -> yolah_ai::Spec {
    format!(
        "{},book=off,lines={ANALYSIS_LINES}",
        yolah_ai::catalogue::DEFAULT_PLAYER
    )
    .parse()
    .expect("the default player's spec is valid")
}

impl Drop for Connection {
    /// A connection that goes (closed, or its task dropped) stops its search and leaves its
    /// room.
    fn drop(&mut self) {
        self.abandon();
        // The game is kept with the time its side to move has used: its clock stands still
        // until the page comes back.
        self.unsaved = true;
        let _ = self.persist();
        self.leave_room();
    }
}

/// What the page is told of `side`'s search on the position after `ply` moves: with its
/// `evaluation` (values, depth, line, counts), or only the move and the time (a game a person
/// plays, while it is played).
fn report_message(
    side: Color,
    ply: usize,
    report: &Report,
    done: bool,
    evaluation: bool,
) -> ServerMessage {
    let mv = report.mv.to_string();
    let time_ms = (report.time.as_secs_f64() * 1e4).round() / 10.0;
    ServerMessage::Report(Box::new(if evaluation {
        ReportMessage {
            side: side.to_string(),
            ply,
            text: report.to_string(),
            mv,
            value: report.value,
            points: report.margin.map(|m| m.points),
            proved: report.margin.is_some_and(|m| m.proved),
            depth: report.depth,
            pv: report.pv.iter().map(ToString::to_string).collect(),
            lines: report
                .lines
                .iter()
                .map(|line| LineMessage {
                    pv: line.pv.iter().map(ToString::to_string).collect(),
                    points: line.margin.points,
                    proved: line.margin.proved,
                    value: line.value,
                })
                .collect(),
            done,
            time_ms,
            nodes: report.nodes,
            iterations: report.iterations,
        }
    } else {
        ReportMessage {
            side: side.to_string(),
            ply,
            text: mv.clone(),
            mv,
            value: None,
            points: None,
            proved: false,
            depth: None,
            pv: Vec::new(),
            lines: Vec::new(),
            done,
            time_ms,
            nodes: None,
            iterations: 0,
        }
    }))
}

/// The next message of a room's news (never, for a connection in no room).
async fn next_update(
    updates: &mut Option<broadcast::Receiver<ServerMessage>>,
) -> Result<ServerMessage, broadcast::error::RecvError> {
    match updates {
        Some(receiver) => receiver.recv().await,
        None => std::future::pending().await,
    }
}

/// How long one message may take to leave: a page that sends but never reads fills its
/// socket's buffers, and then its connection is closed (so it cannot hold a game slot past
/// this, whatever its idle timeout).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `message`; false if the connection is gone or cannot take it within `within`.
async fn send(socket: &mut WebSocket, message: &ServerMessage, within: Duration) -> bool {
    let text = serde_json::to_string(message).expect("messages serialise");
    matches!(
        tokio::time::timeout(within, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// Closes the connection with `code` and `reason` (a close frame's reason is at most 123
/// bytes).
async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let frame = CloseFrame {
        code,
        reason: reason[..end].to_string().into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// One connection, until the page goes away or idles: its game and its searches die with it.
async fn play(mut socket: WebSocket, shared: Arc<Shared>, peer: Option<std::net::IpAddr>) {
    let max = shared.config.max_games;
    let Some(_game) = AddressSlot::take(&shared.games, peer, (share(max), max)) else {
        let reason = if total(&shared.games) >= max {
            format!("the server has {max} games already; try later")
        } else {
            format!(
                "this address has {} games open, its share of the server's {max}; close one",
                share(max)
            )
        };
        close(&mut socket, CLOSE_TRY_LATER, &reason).await;
        return;
    };
    let (events, mut news) = mpsc::unbounded_channel();
    let mut connection = Connection::new(Arc::clone(&shared), events);
    connection.peer = peer;
    // The news of the room the connection is in (taken from it when it joins one).
    let mut updates: Option<broadcast::Receiver<ServerMessage>> = None;
    let mut last_activity = Instant::now();
    loop {
        let idle_timeout = connection.idle_timeout();
        let idle_at = last_activity + idle_timeout;
        if let Some(receiver) = connection.member.as_mut().and_then(|m| m.updates.take()) {
            updates = Some(receiver);
        }
        if connection.member.is_none() {
            updates = None;
        }
        let flag_at = connection.deadline().map(Instant::from_std);
        let retry_at = connection.retry_at.map(Instant::from_std);
        let outgoing = tokio::select! {
            () = tokio::time::sleep_until(flag_at.unwrap_or(idle_at)), if flag_at.is_some() => {
                last_activity = Instant::now();
                blocking(|| connection.flag())
            }
            update = next_update(&mut updates), if updates.is_some() => {
                last_activity = Instant::now();
                match (update, &connection.member) {
                    (Ok(message), Some(member)) => vec![member.own(message)],
                    // Too far behind: the whole state again.
                    (Err(_), Some(member)) => member
                        .room
                        .messages(member.seat, member.token.clone()),
                    (_, None) => Vec::new(),
                }
            }
            () = tokio::time::sleep_until(idle_at), if connection.running.is_none() => {
                let reason = format!("idle for {} s: the game is closed", idle_timeout.as_secs());
                close(&mut socket, CLOSE_IDLE, &reason).await;
                break;
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let (messages, taken) = blocking(|| connection.receive(text.as_str()));
                    // A refused message keeps no empty connection open (`"x"` every minute
                    // would hold a game slot for ever); a game's page may send what it likes.
                    if taken || !connection.empty() {
                        last_activity = Instant::now();
                    }
                    messages
                }
                Some(Ok(Message::Binary(_))) => vec![ServerMessage::Error {
                    message: "messages are JSON text".to_string(),
                }],
                Some(Ok(_)) => Vec::new(),
                // Closed, or broken (a frame over the limit): the game ends.
                Some(Err(_)) | None => break,
            },
            Some(event) = news.recv() => {
                last_activity = Instant::now();
                let mut messages = blocking(|| connection.event(event));
                if !messages.is_empty() && connection.running.is_none() {
                    connection.think();
                    messages.extend(connection.state());
                }
                messages
            }
            () = tokio::time::sleep_until(retry_at.unwrap_or(idle_at)), if retry_at.is_some() => {
                connection.retry_at = None;
                connection.think();
                connection.state().into_iter().collect()
            }
        };
        let within = SEND_TIMEOUT.min(shared.config.idle_timeout);
        for message in &outgoing {
            if !send(&mut socket, message, within).await {
                connection.abandon();
                return;
            }
        }
    }
    connection.abandon();
}

//! The HTTP side: the page, the routes, the health line, the upgrade to a WebSocket, and the
//! bounds on every request a client makes.

use super::connection::play;
use super::shared::{
    AddressSlot, Config, Creations, MAX_BODY, MAX_FRAME, PLAY_SLOTS_PER_SEARCH, Reservation,
    Shared, SharedHoldings, client, total,
};
use crate::archive::Selection;
use crate::room::Rooms;
use crate::slots::{Slots, share};
use crate::store::Store;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State as Extract};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The board page; its modules and style are served under `/static/` ([`crate::assets`]).
pub(super) const INDEX: &str = include_str!("../index.html");

/// The page, proposing the default player of every command and the server's time control.
pub(super) fn page(config: &Config) -> String {
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
        games: SharedHoldings::default(),
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
pub(super) async fn off_workers(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the archive's reader failed",
        )
            .into_response()
    })
}

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
    let open = SharedHoldings::default();
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
pub(super) struct Deadline<T> {
    inner: T,
    within: Duration,
    /// When the write waiting now fails, if one waits.
    timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Deadline<T> {
    pub(super) fn new(inner: T, within: Duration) -> Deadline<T> {
        Deadline {
            inner,
            within,
            timer: None,
        }
    }

    /// `progress` of a write, or the error once it has waited `within`.
    pub(super) fn bounded<R>(
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
pub(super) async fn whole_body(
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

/// The puzzles page.
pub(super) const PUZZLES_PAGE: &str = include_str!("../puzzles.html");

/// `/puzzles.json`'s query.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PuzzleList {
    count: Option<usize>,
    from: Option<usize>,
}

/// A refused puzzle request: its status and `{"error": …}`.
pub(super) fn refusal(refused: &crate::puzzles::Refused) -> Response {
    let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(serde_json::json!({ "error": refused.reason }))).into_response()
}

/// A puzzle request's body as JSON, from the page's own origin or an allowed one (another
/// site's page may not spend a browser's attempts), or why not.
pub(super) fn request<T: serde::de::DeserializeOwned>(
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
pub(super) async fn next_puzzle(
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
pub(super) async fn attempt_puzzle(
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

pub(super) async fn health(Extract(shared): Extract<Arc<Shared>>) -> impl IntoResponse {
    Json(serde_json::json!({
        "games": total(&shared.games),
        "searching": shared.searching.load(Ordering::Relaxed),
        "waiting": shared.watch_searches.waiting() + shared.play_searches.waiting(),
        "memory_mb": crate::memory::resident_mb(),
        "reserved_mb": shared.memory_mb.load(Ordering::Relaxed),
        "max_memory_mb": shared.config.max_memory_mb,
    }))
}

pub(super) async fn upgrade(
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
pub(super) fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The host part of a `Host` header or an origin's authority (`[::1]:8080` → `[::1]`).
pub(super) fn host_name(authority: &str) -> &str {
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

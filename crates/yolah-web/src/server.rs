//! The HTTP side: the page, a health line, and one WebSocket per game. Each connection owns its
//! game; machine moves are searched on blocking threads, at most a few at a time server-wide.

use crate::game::Table;
use crate::message::{ClientMessage, NewGame, PlayMove, ServerMessage};
use axum::Router;
use axum::extract::State as Extract;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::{Html, IntoResponse, Json};
use axum::routing::get;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Semaphore, mpsc};
use yolah_ai::limits::StopFlag;
use yolah_ai::{Player, Report};
use yolah_core::Color;

/// The page, with its style and script: nothing to build, nothing to fetch.
const INDEX: &str = include_str!("index.html");

/// A message longer than this gets an error and changes nothing.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// A message longer than this closes the connection (the WebSocket layer refuses it).
pub const MAX_FRAME: usize = 64 * 1024;

/// What a server allows.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Searches running at once over all games; more wait their turn.
    pub max_searches: usize,
    /// Games (connections) at once; more are refused.
    pub max_games: usize,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Config {
            max_searches: cores,
            max_games: 200,
        }
    }
}

/// What all connections share.
struct Shared {
    config: Config,
    searches: Arc<Semaphore>,
    games: AtomicUsize,
    searching: AtomicUsize,
}

/// The server's routes: `/` the page, `/ws` a game, `/health` the games and searches now.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        config,
        searches: Arc::new(Semaphore::new(config.max_searches.max(1))),
        games: AtomicUsize::new(0),
        searching: AtomicUsize::new(0),
    });
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route("/health", get(health))
        .route("/ws", get(upgrade))
        .with_state(shared)
}

/// Serves until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    axum::serve(listener, router(config)).await
}

async fn health(Extract(shared): Extract<Arc<Shared>>) -> impl IntoResponse {
    Json(serde_json::json!({
        "games": shared.games.load(Ordering::Relaxed),
        "searching": shared.searching.load(Ordering::Relaxed),
    }))
}

async fn upgrade(ws: WebSocketUpgrade, Extract(shared): Extract<Arc<Shared>>) -> impl IntoResponse {
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| play(socket, shared))
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
        report: Report,
    },
    Done {
        generation: u64,
        report: Report,
        player: Box<dyn Player>,
        stop: StopFlag,
    },
}

/// One connection's game.
struct Connection {
    shared: Arc<Shared>,
    events: mpsc::UnboundedSender<Event>,
    table: Option<Table>,
    /// Each side's player, kept between its moves (MCTS reuses its tree); `None` while it
    /// searches.
    players: [Option<Box<dyn Player>>; 2],
    /// The running search's number; a result of another number is stale.
    generation: u64,
    /// The running search's stop flag.
    running: Option<StopFlag>,
    /// Stop flags of finished searches, for the next ones.
    flags: Vec<StopFlag>,
}

impl Connection {
    fn state(&self) -> Option<ServerMessage> {
        self.table
            .as_ref()
            .map(|t| ServerMessage::State(t.state(self.running.is_some())))
    }

    /// Stops and forgets the running search.
    fn abandon(&mut self) {
        if let Some(stop) = self.running.take() {
            stop.raise();
            self.generation += 1;
        }
    }

    fn handle(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_MESSAGE {
            return Err(format!("message longer than {MAX_MESSAGE} bytes"));
        }
        let message: ClientMessage =
            serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
        match message {
            ClientMessage::New(NewGame {
                black,
                white,
                position,
            }) => {
                let table = Table::new(&black, &white, position.as_deref())?;
                self.abandon();
                self.table = Some(table);
                self.players = [None, None];
            }
            ClientMessage::Play(PlayMove { mv }) => {
                let table = self.table.as_mut().ok_or("no game: start one first")?;
                table.human_move(&mv)?;
            }
            ClientMessage::Undo(_) => {
                let table = self.table.as_mut().ok_or("no game: start one first")?;
                let mut trial = table.clone();
                trial.undo()?;
                *table = trial;
                self.abandon();
            }
        }
        Ok(())
    }

    /// Starts the machine's search if a machine is to move and none runs.
    fn think(&mut self) {
        if self.running.is_some() {
            return;
        }
        let Some(table) = &self.table else { return };
        let Some(spec) = table.machine_to_move().cloned() else {
            return;
        };
        let position = table.position();
        let side = position.side_to_move();
        let player = self.players[side.index()]
            .take()
            .unwrap_or_else(|| spec.player(rand::random()));
        let stop = self.flags.pop().unwrap_or_default();
        self.running = Some(stop);
        let generation = self.generation;
        let events = self.events.clone();
        let shared = Arc::clone(&self.shared);
        tokio::spawn(async move {
            let Ok(permit) = Arc::clone(&shared.searches).acquire_owned().await else {
                return;
            };
            let limits = yolah_ai::Limits {
                stop: Some(stop),
                ..spec.limits()
            };
            let _ = tokio::task::spawn_blocking(move || {
                shared.searching.fetch_add(1, Ordering::Relaxed);
                let _counted = Counted(&shared.searching);
                let mut player = player;
                let report = if stop.is_raised() {
                    // Abandoned while it waited: no search.
                    Report::new(position.moves()[0], std::time::Duration::ZERO)
                } else {
                    player.choose_observed(&position, limits, &mut |report| {
                        let _ = events.send(Event::Progress {
                            generation,
                            side,
                            report: report.clone(),
                        });
                    })
                };
                drop(permit);
                let _ = events.send(Event::Done {
                    generation,
                    report,
                    player,
                    stop,
                });
            })
            .await;
        });
    }

    /// A search's news; `Some` message for the page.
    fn event(&mut self, event: Event) -> Vec<ServerMessage> {
        match event {
            Event::Progress {
                generation,
                side,
                report,
            } if generation == self.generation => vec![report_message(side, &report)],
            Event::Progress { .. } => Vec::new(),
            Event::Done {
                generation,
                report,
                player,
                stop,
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
                let side = table.position().side_to_move();
                self.players[side.index()] = Some(player);
                table.machine_move(report.mv);
                self.generation += 1;
                vec![report_message(side, &report)]
            }
        }
    }
}

/// What the page is told of `side`'s search.
fn report_message(side: Color, report: &Report) -> ServerMessage {
    ServerMessage::Report {
        side: side.to_string(),
        text: report.to_string(),
    }
}

async fn send(socket: &mut WebSocket, message: &ServerMessage) -> bool {
    let text = serde_json::to_string(message).expect("messages serialise");
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// One connection, until the page goes away: its game and its searches die with it.
async fn play(mut socket: WebSocket, shared: Arc<Shared>) {
    let games = shared.games.fetch_add(1, Ordering::Relaxed) + 1;
    let _counted = Counted(&shared.games);
    if games > shared.config.max_games {
        let busy = ServerMessage::Error {
            message: format!(
                "the server has {} games already; try later",
                shared.config.max_games
            ),
        };
        send(&mut socket, &busy).await;
        return;
    }
    let (events, mut news) = mpsc::unbounded_channel();
    let mut connection = Connection {
        shared: Arc::clone(&shared),
        events,
        table: None,
        players: [None, None],
        generation: 0,
        running: None,
        flags: Vec::new(),
    };
    loop {
        let outgoing = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => match connection.handle(text.as_str()) {
                    Ok(()) => {
                        connection.think();
                        connection.state().into_iter().collect()
                    }
                    Err(message) => vec![ServerMessage::Error { message }],
                },
                Some(Ok(Message::Binary(_))) => vec![ServerMessage::Error {
                    message: "messages are JSON text".to_string(),
                }],
                Some(Ok(_)) => Vec::new(),
                // Closed, or broken (a frame over the limit): the game ends.
                Some(Err(_)) | None => break,
            },
            Some(event) = news.recv() => {
                let mut messages = connection.event(event);
                if !messages.is_empty() && connection.running.is_none() {
                    connection.think();
                    messages.extend(connection.state());
                }
                messages
            }
        };
        for message in &outgoing {
            if !send(&mut socket, message).await {
                connection.abandon();
                return;
            }
        }
    }
    connection.abandon();
}

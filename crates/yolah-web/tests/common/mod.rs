//! What the server's tests share: a server on loopback, WebSocket pages, HTTP requests.
#![allow(dead_code, reason = "each test program uses some of these")]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use yolah_core::{Move, Position};

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn server(config: yolah_web::Config) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(yolah_web::serve(
        listener,
        config,
        yolah_web::Store::memory(),
    ));
    address
}

pub async fn connect(address: std::net::SocketAddr) -> Socket {
    let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/ws"))
        .await
        .unwrap();
    socket
}

pub async fn send(socket: &mut Socket, message: &Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

/// The next message of type `kind`, skipping others; 20 s at most.
pub async fn next(socket: &mut Socket, kind: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(wait, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} message in time"))
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// The next state in which nobody is thinking.
pub async fn settled(socket: &mut Socket) -> Value {
    loop {
        let state = next(socket, "state").await;
        if state["thinking"] == false {
            return state;
        }
    }
}

/// Replays a state's moves from its start and checks the position, scores and result.
pub fn check(state: &Value) {
    let mut position: Position = state["start"].as_str().unwrap().parse().unwrap();
    for text in state["moves"].as_array().unwrap() {
        let mv: Move = text.as_str().unwrap().parse().unwrap();
        assert_eq!(position.check_move(mv), Ok(()), "{state}");
        position.play(mv);
    }
    assert_eq!(position.to_string(), state["position"], "{state}");
    let scores = [
        position.score(yolah_core::Color::Black),
        position.score(yolah_core::Color::White),
    ];
    assert_eq!(state["scores"], json!(scores));
    assert_eq!(state["result"].is_string(), position.game_over(), "{state}");
}

/// The next room message.
pub async fn room(socket: &mut Socket) -> Value {
    next(socket, "room").await
}

/// The next state with `moves` moves.
pub async fn state_after(socket: &mut Socket, moves: usize) -> Value {
    loop {
        let state = next(socket, "state").await;
        if state["moves"].as_array().unwrap().len() == moves {
            return state;
        }
    }
}

/// `GET path` on the server: the status line's code and the body.
pub async fn get(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    let (code, response) = get_whole(address, path).await;
    (code, response.split_once("\r\n\r\n").unwrap().1.to_string())
}

/// `GET path` on the server: the status line's code and the whole response, headers included.
pub async fn get_whole(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    request(address, "GET", path, "").await
}

/// `POST path` (no body) on the server, with `headers` (each ending in CRLF): the status
/// line's code and the body.
pub async fn post(address: std::net::SocketAddr, path: &str, headers: &str) -> (u16, String) {
    let (code, response) = request(address, "POST", path, headers).await;
    (code, response.split_once("\r\n\r\n").unwrap().1.to_string())
}

async fn request(
    address: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &str,
) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Length: 0\r\n{headers}\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let code = response.split(' ').nth(1).unwrap().parse().unwrap();
    (code, response)
}

/// The store at `db`, once the server before it on that file (a runtime shut down in the
/// background, as a killed process) has let its lock go: 20 s at most.
pub fn open_when_free(db: &std::path::Path) -> yolah_web::Store {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match yolah_web::Store::open(db) {
            Ok(store) => return store,
            Err(e) if e.contains("in use") && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// A server on loopback `port` (0: any; a given one can be taken again after a restart) over
/// the database `db`, in a runtime of its own: shutting the runtime down stops the server and
/// every connection at once, as a killed process would. Its address and the runtime.
pub fn board_server(
    db: &std::path::Path,
    port: u16,
) -> (std::net::SocketAddr, tokio::runtime::Runtime) {
    board_server_with(db, port, yolah_web::Config::default())
}

/// [`board_server`] with `config`.
pub fn board_server_with(
    db: &std::path::Path,
    port: u16,
    config: yolah_web::Config,
) -> (std::net::SocketAddr, tokio::runtime::Runtime) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let store = open_when_free(db);
    let (bound, listening) = std::sync::mpsc::channel();
    runtime.spawn(async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        socket.bind(([127, 0, 0, 1], port).into()).unwrap();
        let listener = socket.listen(64).unwrap();
        bound.send(listener.local_addr().unwrap()).unwrap();
        yolah_web::serve(listener, config, store).await
    });
    (listening.recv().unwrap(), runtime)
}

/// A TCP connection to `address` from the loopback address 127.0.0.`last` (a client of its own
/// to the server's bounds by address).
pub async fn tcp_from(address: std::net::SocketAddr, last: u8) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(([127, 0, 0, last], 0).into()).unwrap();
    socket.connect(address).await.unwrap()
}

/// A page's WebSocket from 127.0.0.`last`, or the error that refused it.
pub async fn try_connect_from(
    address: std::net::SocketAddr,
    last: u8,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let stream = tcp_from(address, last).await;
    tokio_tungstenite::client_async(
        format!("ws://{address}/ws"),
        tokio_tungstenite::MaybeTlsStream::Plain(stream),
    )
    .await
    .map(|(socket, _)| socket)
}

/// [`try_connect_from`], which must open.
pub async fn connect_from(address: std::net::SocketAddr, last: u8) -> Socket {
    try_connect_from(address, last).await.unwrap()
}

/// An opening explorer's database of three games from the start: two begin a1:c3 (then h1:f3,
/// black won; a8:b7, drawn), one h8:h5 (white won).
pub fn small_explorer() -> yolah_ai::explorer::Explorer {
    use yolah_core::{Color, Move, Outcome, Position};
    let moves = |text: &str| -> Vec<Move> { text.split(' ').map(|m| m.parse().unwrap()).collect() };
    let mut builder = yolah_ai::explorer::Builder::new();
    let start = Position::start();
    for (line, outcome) in [
        ("a1:c3 h1:f3", Outcome::Win(Color::Black)),
        ("a1:c3 a8:b7", Outcome::Draw),
        ("h8:h5", Outcome::Win(Color::White)),
    ] {
        builder.add(&start, &moves(line), outcome).unwrap();
    }
    yolah_ai::explorer::Explorer::from_bytes(builder.to_bytes()).unwrap()
}

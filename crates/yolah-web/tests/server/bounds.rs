//! What a client may hold: origins, the memory budget, idle and busy servers, a client that never reads, rooms per connection.

use crate::common::{Socket, connect, next, room, send, server, settled};
use crate::support::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A WebSocket handshake with these extra headers: the socket, or the refusal's status and
/// body.
async fn connect_with(
    address: std::net::SocketAddr,
    headers: &[(&str, &str)],
) -> Result<Socket, (u16, String)> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{address}/ws").into_client_request().unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err((
            response.status().as_u16(),
            String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned(),
        )),
        Err(e) => panic!("{e}"),
    }
}

// Only the page's own origin (or one the user allows) opens games, and a
// host name pointed at the loopback by another site (DNS rebinding) is refused.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_of_other_origins_cannot_open_games() {
    let config = yolah_web::Config {
        allowed_origins: vec!["http://friend.example.org:9000".to_string()],
        ..yolah_web::Config::default()
    };
    let address = server(config).await;
    let own = format!("http://{address}");
    let host = address.to_string();
    let rebound_host = format!("evil.example.com:{}", address.port());
    let rebound_origin = format!("http://{rebound_host}");
    for (headers, expected) in [
        (
            vec![("origin", "http://evil.example.com")],
            Some("may not open games"),
        ),
        (vec![("origin", "null")], Some("may not open games")),
        (
            vec![
                ("host", rebound_host.as_str()),
                ("origin", rebound_origin.as_str()),
            ],
            Some("is not served"),
        ),
        (vec![("origin", own.as_str())], None),
        (
            vec![
                ("host", host.as_str()),
                ("origin", "http://FRIEND.example.org:9000/"),
            ],
            None,
        ),
        (
            vec![
                ("host", "localhost:1234"),
                ("origin", "http://localhost:1234"),
            ],
            None,
        ),
        (vec![], None),
    ] {
        let result = connect_with(address, &headers).await;
        match (result, expected) {
            (Err((status, body)), Some(expected)) => {
                assert_eq!(status, 403, "{headers:?}");
                assert!(body.contains(expected), "{headers:?}: {body}");
            }
            (Ok(mut socket), None) => {
                send(
                    &mut socket,
                    &json!({"type": "new", "black": "human", "white": "random"}),
                )
                .await;
                settled(&mut socket).await;
            }
            (Ok(_), Some(_)) => panic!("{headers:?} was accepted"),
            (Err(refusal), None) => panic!("{headers:?} was refused: {refusal:?}"),
        }
    }
}

// The players of all live games share one memory budget; a game that does
// not fit is refused with the reason, and a closed game gives its memory back.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_players_share_a_memory_budget() {
    let config = yolah_web::Config {
        max_memory_mb: 100,
        ..yolah_web::Config::default()
    };
    let address = server(config).await;
    let new_game = json!({"type": "new", "black": "human", "white": "minimax:tt=64"});
    let mut first = connect(address).await;
    send(&mut first, &new_game).await;
    settled(&mut first).await;
    assert_eq!(health(address).await["reserved_mb"], 64);
    let mut second = connect(address).await;
    send(&mut second, &new_game).await;
    let refused = next(&mut second, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("memory for players is spent"),
        "{refused}"
    );
    // A smaller game fits; replacing a game returns the old one's memory first.
    send(
        &mut first,
        &json!({"type": "new", "black": "human", "white": "minimax:tt=32"}),
    )
    .await;
    settled(&mut first).await;
    assert_eq!(health(address).await["reserved_mb"], 32);
    drop(first);
    let start = Instant::now();
    while health(address).await["reserved_mb"] != 0 {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the memory comes back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    send(&mut second, &new_game).await;
    settled(&mut second).await;
}

/// The close frame that ends `socket`: its code and reason.
async fn closed(socket: &mut Socket) -> (u16, String) {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("closed in time");
        match message {
            Some(Ok(Message::Close(Some(frame)))) => {
                return (frame.code.into(), frame.reason.to_string());
            }
            Some(Ok(_)) => {}
            other => panic!("no close frame: {other:?}"),
        }
    }
}

// Idle games are closed, a full server says so in a close frame, and
// watched games cannot make a person wait.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_full_and_busy_servers_stay_fair() {
    let config = yolah_web::Config {
        idle_timeout: Duration::from_millis(300),
        max_games: 3,
        max_searches: 2,
        ..yolah_web::Config::default()
    };
    let address = server(config).await;
    // Two watched games of long searches take every watch slot.
    let watch =
        json!({"type": "new", "black": "montecarlo:time=6s", "white": "montecarlo:time=6s"});
    let mut watchers = Vec::new();
    for _ in 0..2 {
        let mut socket = connect(address).await;
        send(&mut socket, &watch).await;
        watchers.push(socket);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut person = connect(address).await;
    send(
        &mut person,
        &json!({"type": "new", "black": "human", "white": "random"}),
    )
    .await;
    let state = settled(&mut person).await;
    let start = Instant::now();
    send(
        &mut person,
        &json!({"type": "play", "move": state["legal"][0]}),
    )
    .await;
    let reply = settled(&mut person).await;
    assert_eq!(reply["moves"].as_array().unwrap().len(), 2, "{reply}");
    // Far less than a watcher's 6 s search, with room for a busy machine.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // The server is full: the fourth connection is told so, and why.
    let mut fourth = connect(address).await;
    let (code, reason) = closed(&mut fourth).await;
    assert_eq!(code, yolah_web::server::CLOSE_TRY_LATER);
    assert!(reason.contains("3 games already"), "{reason}");
    // The person's game, now without a message or a search, is closed once idle.
    let (code, reason) = closed(&mut person).await;
    assert_eq!(code, yolah_web::server::CLOSE_IDLE);
    assert!(reason.contains("idle"), "{reason}");
    drop(watchers);
}

// Games with a clock. A person who lets their time run out loses on time, told by
// the server without a message from the page; machines share their clock and finish a game
// on it; the server's time control serves games that ask for none; a bad one is refused.

/// A page that sends but never reads cannot hold a game slot: once its
/// socket's buffers are full, a reply that cannot leave within the bound closes it, and the
/// slot is free again (before, the server waited in its send for ever and never ran the idle
/// timer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_and_frees_its_slot() {
    let config = yolah_web::Config {
        idle_timeout: Duration::from_secs(2),
        max_games: 1,
        // The deaf client's new games are refused past this, and the next page's game too
        // (same address) if the bound were the default.
        new_game_burst: 100_000,
        ..yolah_web::Config::default()
    };
    let address = server(config).await;
    let mut deaf = connect(address).await;
    let new = json!({"type": "new", "black": "human", "white": "human"}).to_string();
    let start = Instant::now();
    let mut sent = 0;
    // Sends until the server stops taking messages or closes; never reads a reply.
    while start.elapsed() < Duration::from_mins(1) {
        match tokio::time::timeout(
            Duration::from_secs(1),
            deaf.send(tokio_tungstenite::tungstenite::Message::Text(
                new.clone().into(),
            )),
        )
        .await
        {
            Ok(Ok(())) => sent += 1,
            _ => break,
        }
    }
    // The slot comes back within the send bound (2 s here) and a margin for a busy machine.
    let freed = Instant::now();
    while health(address).await["games"] != 0 {
        assert!(
            freed.elapsed() < Duration::from_secs(20),
            "the deaf client still holds its game after {sent} messages"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut page = connect(address).await;
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "random"}),
    )
    .await;
    let state = settled(&mut page).await;
    assert!(state["result"].is_null(), "{state}");
    drop(deaf);
}

/// One connection cannot take every shared room (it hosted 158 in a
/// second before): past the bound it is told why, and the rooms stay free for others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_hosts_a_bounded_number_of_rooms() {
    let address = server(yolah_web::Config::default()).await;
    let mut greedy = connect(address).await;
    for _ in 0..yolah_web::server::MAX_HOSTED {
        send(&mut greedy, &json!({"type": "host", "colour": "black"})).await;
        let hosted = room(&mut greedy).await;
        assert!(hosted["id"].is_string(), "{hosted}");
    }
    for _ in 0..50 {
        send(&mut greedy, &json!({"type": "host", "colour": "black"})).await;
        let refused = next(&mut greedy, "error").await;
        assert!(
            refused["message"].as_str().unwrap().contains("still open"),
            "{refused}"
        );
    }
    // Another page hosts as usual.
    let mut other = connect(address).await;
    send(&mut other, &json!({"type": "host", "colour": "white"})).await;
    assert!(room(&mut other).await["id"].is_string());
}

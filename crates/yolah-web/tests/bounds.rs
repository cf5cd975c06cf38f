//! No single client can hold the server. Bodies that never arrive are
//! closed like headers that never arrive; the server bounds its connections in all; search
//! slots are shared in turn between client addresses; no address holds more than its share of
//! the games, and a connection with no game goes soon. Clients come from 127.0.0.2, .3, ….

mod common;

use common::{connect_from, next, send, server, tcp_from, try_connect_from};
use futures_util::StreamExt;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Reads what the server sends until it closes, within `within`; `None` if it stays open.
async fn closed_within(stream: &mut tokio::net::TcpStream, within: Duration) -> Option<String> {
    let mut buffer = Vec::new();
    match tokio::time::timeout(within, stream.read_to_end(&mut buffer)).await {
        Ok(_) => Some(String::from_utf8_lossy(&buffer).into_owned()),
        Err(_) => None,
    }
}

/// Item 4: a request whose body never arrives is answered 408 and closed after the deadline
/// (it was held forever, and 64 of them locked their address out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_never_arrives_is_closed_and_frees_its_slot() {
    let address = server(yolah_web::Config {
        header_timeout: Duration::from_secs(1),
        max_connections_per_address: 6,
        ..yolah_web::Config::default()
    })
    .await;
    let mut held = Vec::new();
    for last in [2, 3] {
        for _ in 0..6 {
            let mut stream = tcp_from(address, last).await;
            stream
                .write_all(
                    b"POST /puzzles/next HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                      Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
                )
                .await
                .unwrap();
            held.push(stream);
        }
    }
    let started = Instant::now();
    for stream in &mut held {
        let answer = closed_within(stream, Duration::from_secs(30))
            .await
            .expect("a connection whose body never came is still open after 30 s");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    eprintln!(
        "12 connections with a missing body closed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Both addresses may connect again.
    for last in [2, 3] {
        let mut stream = tcp_from(address, last).await;
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let answer = closed_within(&mut stream, Duration::from_secs(20))
            .await
            .unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    // A body over the limit is refused, not read.
    let mut stream = tcp_from(address, 4).await;
    let big = format!(
        "POST /puzzles/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n",
        yolah_web::server::MAX_BODY + 1
    );
    stream.write_all(big.as_bytes()).await.unwrap();
    let _ = stream
        .write_all(&vec![b' '; yolah_web::server::MAX_BODY + 1])
        .await;
    let answer = closed_within(&mut stream, Duration::from_secs(20))
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}

/// Item 4: the server holds at most `max_connections` in all, whatever the addresses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_bounds_its_connections_in_all() {
    let address = server(yolah_web::Config {
        header_timeout: Duration::from_mins(1),
        max_connections_per_address: 4,
        max_connections: 8,
        ..yolah_web::Config::default()
    })
    .await;
    let mut held = Vec::new();
    for last in [2, 3] {
        for _ in 0..4 {
            let mut stream = tcp_from(address, last).await;
            stream
                .write_all(b"GET /health HTTP/1.1\r\nHo")
                .await
                .unwrap();
            held.push(stream);
        }
    }
    // A third address finds the server full: closed at once.
    let mut refused = tcp_from(address, 4).await;
    let _ = refused
        .write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        .await;
    let answer = closed_within(&mut refused, Duration::from_secs(10)).await;
    assert_eq!(
        answer.as_deref(),
        Some(""),
        "served past the server's bound"
    );
    // One goes, and the third address is served.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut stream = tcp_from(address, 4).await;
        let _ = stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .await;
        let answer = closed_within(&mut stream, Duration::from_secs(10)).await;
        if answer.is_some_and(|a| a.starts_with("HTTP/1.1 200")) {
            break;
        }
        assert!(Instant::now() < deadline, "the slot never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The next report of an analysis on `socket`, within `within`.
async fn first_report(socket: &mut common::Socket, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    tokio::time::timeout(within, next(socket, "report"))
        .await
        .ok()
        .map(|_| started.elapsed())
}

/// An analysis board of the start position.
async fn analyse(socket: &mut common::Socket) {
    send(
        socket,
        &json!({"type": "new", "black": "human", "white": "human", "analysis": true}),
    )
    .await;
}

/// Item 5: with one search slot, two analysis boards of one address held it for minutes
/// (another address's first report came after 239 s); now the slot goes round in turns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_search_slot() {
    let address = server(yolah_web::Config {
        max_searches: 1,
        ..yolah_web::Config::default()
    })
    .await;
    let mut first = connect_from(address, 2).await;
    let mut second = connect_from(address, 2).await;
    analyse(&mut first).await;
    assert!(
        first_report(&mut first, Duration::from_secs(20))
            .await
            .is_some()
    );
    analyse(&mut second).await;
    let mut other = connect_from(address, 3).await;
    analyse(&mut other).await;
    let waited = first_report(&mut other, Duration::from_mins(1))
        .await
        .expect("another address's analysis had no report within 60 s");
    eprintln!(
        "127.0.0.3's first report after {:.1} s (turns of {} s)",
        waited.as_secs_f64(),
        yolah_web::slots::TURN.as_secs()
    );
    // The second board of the first address has its turn too.
    assert!(
        first_report(&mut second, Duration::from_mins(1))
            .await
            .is_some(),
        "the first address's second board never had a turn"
    );
}

/// Item 6: four addresses of 50 idle sockets filled `--max-games 200`; now an address
/// holds at most an eighth of the games, and a connection with no game is closed soon.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_holds_its_share_of_the_games_and_empty_ones_expire() {
    let address = server(yolah_web::Config {
        max_games: 40,
        empty_timeout: Duration::from_secs(2),
        ..yolah_web::Config::default()
    })
    .await;
    let share = yolah_web::slots::share(40);
    assert_eq!(share, 5);
    let mut held = Vec::new();
    for _ in 0..share {
        held.push(connect_from(address, 2).await);
    }
    // A third game of that address is closed with the reason; another address is served.
    let mut third = connect_from(address, 2).await;
    let closed = tokio::time::timeout(Duration::from_secs(20), third.next())
        .await
        .expect("the address's game over its share was not closed");
    match closed {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), yolah_web::server::CLOSE_TRY_LATER);
            assert!(frame.reason.contains("its share"), "{}", frame.reason);
        }
        other => panic!("not a close frame: {other:?}"),
    }
    let mut other = connect_from(address, 3).await;
    // A game with a move stays; the empty ones go after the empty timeout.
    send(
        &mut other,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    let state = common::settled(&mut other).await;
    send(
        &mut other,
        &json!({"type": "play", "move": state["legal"][0]}),
    )
    .await;
    common::state_after(&mut other, 1).await;
    let started = Instant::now();
    for socket in &mut held {
        loop {
            match tokio::time::timeout(Duration::from_secs(30), socket.next()).await {
                Ok(Some(Ok(Message::Close(Some(frame))))) => {
                    assert_eq!(u16::from(frame.code), yolah_web::server::CLOSE_IDLE);
                    break;
                }
                Ok(Some(Ok(_))) => {}
                other => panic!("an empty connection was not closed: {other:?}"),
            }
        }
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    // The game with a move is still open, and the address may open games again.
    send(&mut other, &json!({"type": "undo"})).await;
    common::state_after(&mut other, 0).await;
    assert!(try_connect_from(address, 2).await.is_ok());
}

/// Item 2, the server's side: an analysis that proved its position waits there (paused, for
/// Go), yet a move brings a position it has not finished with, which it searches at once and
/// reports on (it stayed paused, and the page showed the old verdict beside the new board).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_goes_on_to_the_next_position_after_a_proof() {
    let address = server(yolah_web::Config::default()).await;
    let mut page = connect_from(address, 2).await;
    let endgame = "x2xxwbx/2xxxxxx/1wxxxxx1/xxbxx1wx/1xxxxxxx/1b1xx1x1/3xxxxb/xx2wx1x b 19 19 38";
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "human", "analysis": true,
                "position": endgame}),
    )
    .await;
    // Proved: a final report, then the position waits for Go.
    loop {
        let report = next(&mut page, "report").await;
        if report["done"] == true {
            assert_eq!(report["proved"], true, "{report}");
            assert_eq!(report["ply"], 0, "{report}");
            break;
        }
    }
    let state = loop {
        let state = next(&mut page, "state").await;
        if state["thinking"] == false {
            break state;
        }
    };
    assert_eq!(state["paused"], true, "{state}");
    send(
        &mut page,
        &json!({"type": "play", "move": state["legal"][0]}),
    )
    .await;
    let state = common::state_after(&mut page, 1).await;
    assert_eq!(
        (state["paused"].clone(), state["thinking"].clone()),
        (json!(false), json!(true)),
        "{state}"
    );
    let report = next(&mut page, "report").await;
    assert_eq!(report["ply"], 1, "a report on the new position: {report}");
}

/// The attack on these bounds: a page that asks for analysis after analysis while its address
/// holds its share of the slots left every one waiting, each with a player and its table (one
/// address grew the server by 3.5 GiB). A search abandoned while it waits leaves the queue,
/// and a player is made only once its search has a slot. And an empty connection is not kept
/// open by refused messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_searches_do_not_wait_and_junk_keeps_nothing_open() {
    let address = server(yolah_web::Config {
        max_searches: 1,
        empty_timeout: Duration::from_secs(2),
        ..yolah_web::Config::default()
    })
    .await;
    // The address's one slot: a watched game's long move.
    let mut watched = connect_from(address, 2).await;
    send(
        &mut watched,
        &json!({"type": "new", "black": "minimax:time=10s", "white": "minimax:time=10s"}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut page = connect_from(address, 2).await;
    for _ in 0..100 {
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "human", "analysis": true}),
        )
        .await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (_, health) = common::get(address, "/health").await;
    let health: serde_json::Value = serde_json::from_str(&health).unwrap();
    assert!(
        health["waiting"].as_u64().unwrap() <= 2,
        "abandoned searches still wait: {health}"
    );
    // An empty connection sending junk is closed after the empty timeout all the same.
    // Timed from before the handshake: the server's clock starts when it accepts, which a
    // busy machine may put well before the client sees the upgrade.
    let started = Instant::now();
    let mut junk = connect_from(address, 3).await;
    loop {
        futures_util::SinkExt::send(&mut junk, Message::Text("x".into()))
            .await
            .ok();
        match tokio::time::timeout(Duration::from_millis(500), junk.next()).await {
            Ok(Some(Ok(Message::Close(Some(frame))))) => {
                assert_eq!(u16::from(frame.code), yolah_web::server::CLOSE_IDLE);
                break;
            }
            Ok(None | Some(Err(_))) => break,
            _ => {}
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "junk kept an empty connection open"
        );
    }
    assert!(started.elapsed() >= Duration::from_secs(2));
}

/// The attack on these bounds: four games of one address with the largest trees reserved all
/// of `--max-memory`, and every other address's new game was refused. An address now reserves
/// at most an eighth of it (at least one game's worth of two players with the largest trees).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_reserves_its_share_of_the_memory() {
    let address = server(yolah_web::Config {
        max_memory_mb: 1024,
        ..yolah_web::Config::default()
    })
    .await;
    let game = json!({"type": "new", "black": "human", "white": "mcts:tree=128,iterations=10", "tc": "none"});
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut page = connect_from(address, 2).await;
        send(&mut page, &game).await;
        let state = next(&mut page, "state").await;
        assert!(state["moves"].is_array(), "{state}");
        held.push(page);
    }
    // A third of 128 MiB is over the address's 256.
    let mut third = connect_from(address, 2).await;
    send(&mut third, &game).await;
    let refused = next(&mut third, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("may hold 256"),
        "{refused}"
    );
    // Another address has its own share.
    let mut other = connect_from(address, 3).await;
    send(&mut other, &game).await;
    let state = next(&mut other, "state").await;
    assert!(state["moves"].is_array(), "{state}");
    // A game closed gives its part back.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        send(&mut third, &game).await;
        let reply = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let message = third.next().await.unwrap().unwrap();
                if let Message::Text(text) = message {
                    let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["type"] == "state" || value["type"] == "error" {
                        return value;
                    }
                }
            }
        })
        .await
        .unwrap();
        if reply["type"] == "state" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the memory never came back: {reply}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The attack on these bounds: requests pipelined by a client that never reads its answers
/// held their connection for ever (hyper has no write deadline), and 64 connections of each of
/// 8 addresses held the server. A write that makes no progress within the header timeout now
/// closes the connection; and an address holds at most an eighth of `--max-connections`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed() {
    let address = server(yolah_web::Config {
        header_timeout: Duration::from_secs(1),
        max_connections: 64,
        ..yolah_web::Config::default()
    })
    .await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    socket.bind(([127, 0, 0, 2], 0).into()).unwrap();
    let mut stream = socket.connect(address).await.unwrap();
    let request = format!("GET /static/page/main.js HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let all = request.repeat(2000);
    // Written while the server still reads them (its answers pile up unread): the requests
    // written whole are those it may answer.
    let mut written = 0;
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while written < all.len() {
            match stream.write(&all.as_bytes()[written..]).await {
                Ok(0) | Err(_) => return,
                Ok(n) => written += n,
            }
        }
    })
    .await;
    let asked = written / request.len();
    let started = Instant::now();
    // Not read for a while: the server's writes wait, then it gives up.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut buffer = vec![0u8; 1 << 16];
    let mut answered = Vec::new();
    let closed = tokio::time::timeout(Duration::from_mins(1), async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => answered.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "a client that never reads is still served after a minute"
    );
    let answers = String::from_utf8_lossy(&answered)
        .matches("HTTP/1.1 200")
        .count();
    eprintln!(
        "closed after {:.1} s, {answers} of {asked} answers sent",
        started.elapsed().as_secs_f64()
    );
    assert!(
        answers < asked,
        "the server waited for the client to read them all"
    );
    // An address's share of 64 connections is 8.
    let mut held = Vec::new();
    for _ in 0..8 {
        let mut stream = tcp_from(address, 3).await;
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHo")
            .await
            .unwrap();
        held.push(stream);
    }
    let mut ninth = tcp_from(address, 3).await;
    let _ = ninth
        .write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        .await;
    assert_eq!(
        closed_within(&mut ninth, Duration::from_secs(10))
            .await
            .as_deref(),
        Some(""),
        "a ninth connection of one address was served"
    );
}

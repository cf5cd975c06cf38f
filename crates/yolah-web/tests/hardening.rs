//! The board's store and server against what a review found — a
//! seat taken from the archive, games forgotten while played, moves shown as played that a full
//! disk did not keep, a takeover that overwrote an acknowledged move, a flood of kept games,
//! half-sent requests, one damaged row failing the archive.

mod common;

use common::{Socket, board_server, connect, get, next, room, send, server, settled, state_after};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use yolah_web::store::{Kept, Kind, Store, Written};

/// Hosts a game between two browsers on `address`: the host's socket and its room message.
async fn host(address: std::net::SocketAddr, colour: &str) -> (Socket, Value) {
    let mut host = connect(address).await;
    send(
        &mut host,
        &json!({"type": "host", "colour": colour, "tc": "none"}),
    )
    .await;
    let hosted = room(&mut host).await;
    (host, hosted)
}

/// Item 1: the game's id is public (the archive lists it once it has a move); a page that
/// opens or joins it without the link's secret only watches, and the friend with the link
/// still gets the free side.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_from_the_archive_only_watches_a_friends_game() {
    let address = server(yolah_web::Config::default()).await;
    let (mut host, hosted) = host(address, "black").await;
    let key = hosted["key"].as_str().expect("the host is told the secret");
    assert_ne!(hosted["id"], hosted["key"]);
    let start = state_after(&mut host, 0).await;
    send(
        &mut host,
        &json!({"type": "play", "move": start["legal"][0]}),
    )
    .await;
    state_after(&mut host, 1).await;

    let (_, body) = get(address, "/games.json").await;
    let listed: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(listed["games"][0]["id"], hosted["id"], "{listed}");
    assert!(!body.contains(key), "the archive shows no secret: {body}");

    // Opened from the archive, joined by its id, or with a wrong secret: a spectator, told
    // no secret, whose moves are refused.
    for attempt in [
        json!({"type": "open", "game": hosted["id"]}),
        json!({"type": "join", "room": hosted["id"]}),
        json!({"type": "join", "room": hosted["id"], "key": "0000", "token": "forged"}),
    ] {
        let mut stranger = connect(address).await;
        send(&mut stranger, &attempt).await;
        let seat = room(&mut stranger).await;
        assert_eq!(
            (
                seat["seat"].clone(),
                seat["token"].clone(),
                seat["key"].clone()
            ),
            (json!("spectator"), Value::Null, Value::Null),
            "{attempt}: {seat}"
        );
        let state = state_after(&mut stranger, 1).await;
        send(
            &mut stranger,
            &json!({"type": "play", "move": state["legal"][0]}),
        )
        .await;
        assert!(
            next(&mut stranger, "error").await["message"]
                .as_str()
                .unwrap()
                .contains("spectators")
        );
    }

    // The friend with the invitation sits.
    let mut friend = connect(address).await;
    send(
        &mut friend,
        &json!({"type": "join", "room": hosted["id"], "key": key}),
    )
    .await;
    let seat = room(&mut friend).await;
    assert_eq!(seat["seat"], "white", "{seat}");
    let state = state_after(&mut friend, 1).await;
    send(
        &mut friend,
        &json!({"type": "play", "move": state["legal"][0]}),
    )
    .await;
    state_after(&mut host, 2).await;
}

/// Item 3: a friends' game with no move yet, older than the idle timeout, is not forgotten
/// while its room is open (another page's new game used to prune it, and every later move was
/// acknowledged but never stored); after a restart its link still brings it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friends_game_waiting_for_its_friend_is_never_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let store = Arc::new(Store::open(&db).unwrap());
    let config = yolah_web::Config {
        idle_timeout: Duration::from_secs(1),
        ..yolah_web::Config::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(yolah_web::serve(listener, config, Arc::clone(&store)));
    let (mut host, hosted) = host(address, "black").await;
    // Past the idle timeout (the host keeps its connection alive), then another page's new
    // game, which forgets old games with no move.
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        send(&mut host, &json!({"type": "decline"})).await;
        next(&mut host, "error").await;
    }
    let mut other = connect(address).await;
    send(
        &mut other,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    settled(&mut other).await;
    assert!(
        store
            .load(hosted["id"].as_str().unwrap())
            .unwrap()
            .is_some()
    );

    let mut friend = connect(address).await;
    send(
        &mut friend,
        &json!({"type": "join", "room": hosted["id"], "key": hosted["key"]}),
    )
    .await;
    assert_eq!(room(&mut friend).await["seat"], "white");
    let start = state_after(&mut host, 0).await;
    send(
        &mut host,
        &json!({"type": "play", "move": start["legal"][0]}),
    )
    .await;
    let played = state_after(&mut friend, 1).await;
    let kept = store.load(hosted["id"].as_str().unwrap()).unwrap().unwrap();
    assert_eq!(kept.saved.moves, [played["moves"][0].as_str().unwrap()]);
}

/// Item 4: on a full disk a move is refused with the store's reason and undone (the state
/// sent after it does not have it); once there is room again, play goes on; after a restart
/// every acknowledged move is there and no refused one.
#[test]
fn a_move_the_full_disk_cannot_keep_is_refused_and_undone() {
    let disk = yolah_testkit::writers::SmallDisk::new(512 * 1024);
    let db = disk.path().join("games.sqlite");
    let (address, runtime) = board_server(&db, 0);
    let acknowledged = runtime.block_on(async {
        let mut page = connect(address).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "human"}),
        )
        .await;
        let mut state = settled(&mut page).await;
        for _ in 0..4 {
            send(
                &mut page,
                &json!({"type": "play", "move": state["legal"][0]}),
            )
            .await;
            state = settled(&mut page).await;
        }
        disk.fill();
        // Moves until the store refuses one (each longer game needs more of the log).
        let mut refused = None;
        for _ in 0..60 {
            if !state["result"].is_null() {
                break;
            }
            let before = state["moves"].as_array().unwrap().len();
            send(
                &mut page,
                &json!({"type": "play", "move": state["legal"][0]}),
            )
            .await;
            let answer = loop {
                let message = next_any(&mut page).await;
                if message["type"] == "error" || message["type"] == "state" {
                    break message;
                }
            };
            if answer["type"] == "error" {
                let message = answer["message"].as_str().unwrap().to_string();
                let after = next(&mut page, "state").await;
                assert_eq!(
                    after["moves"].as_array().unwrap().len(),
                    before,
                    "a refused move is not shown as played: {after}"
                );
                refused = Some(message);
                break;
            }
            state = answer;
        }
        let refused = refused.expect("a full disk refuses a move within 60");
        assert!(refused.contains("cannot keep the game"), "{refused}");
        assert!(!refused.contains('\n'), "{refused}");
        disk.free();
        send(
            &mut page,
            &json!({"type": "play", "move": state["legal"][0]}),
        )
        .await;
        let state = settled(&mut page).await;
        (state["moves"].clone(), next_game_id(&db))
    });
    runtime.shutdown_background();
    let store = common::open_when_free(&db);
    let kept = store.load(&acknowledged.1).unwrap().unwrap();
    let expected: Vec<String> = acknowledged
        .0
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(kept.saved.moves, expected);
}

/// The next message of any type (20 s at most).
async fn next_any(socket: &mut Socket) -> Value {
    use futures_util::StreamExt;
    let message = tokio::time::timeout(Duration::from_secs(20), socket.next())
        .await
        .expect("a message in time")
        .expect("the socket is open")
        .unwrap();
    serde_json::from_str(message.to_text().unwrap()).unwrap()
}

/// The id of the one game with moves in the database `db` (read through a reader that does
/// not take the server's lock).
fn next_game_id(db: &std::path::Path) -> String {
    let reader =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    reader
        .query_row("SELECT id FROM games WHERE plies > 0", [], |row| row.get(0))
        .unwrap()
}

/// Item 7: two pages taking one game over and over from each other, each writing a move at a
/// time: every state the store acknowledged is a prefix of the final game (a takeover reads
/// the game and takes it in one step, so no acknowledged write falls between them and is
/// overwritten).
#[test]
fn taking_a_game_over_never_loses_an_acknowledged_move() {
    let store = Arc::new(Store::memory());
    let kept = Kept {
        id: "race".into(),
        kind: Kind::Own,
        tokens: [Some("t".into()), Some("t".into())],
        key: None,
        saved: empty_game(),
    };
    let _pin = store.create(&kept, Some("0"), 60).unwrap();
    let tabs: Vec<_> = (0..2)
        .map(|tab| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                let holder = tab.to_string();
                let mut acknowledged = Vec::new();
                let mut game = store.take("race", Some("t"), &holder).unwrap().unwrap().0;
                for k in 0..400 {
                    game.saved.moves.push(format!("{tab}-{k}"));
                    match store.save("race", Some(&holder), &game.saved).unwrap() {
                        Written::Kept => acknowledged.push(game.saved.moves.clone()),
                        Written::Taken => {
                            game = store.take("race", Some("t"), &holder).unwrap().unwrap().0;
                        }
                    }
                }
                acknowledged
            })
        })
        .collect();
    let acknowledged: Vec<Vec<String>> = tabs
        .into_iter()
        .flat_map(|tab| tab.join().unwrap())
        .collect();
    let last = store.load("race").unwrap().unwrap().saved.moves;
    // Each tab writes 400 times; a write after the other took the game over is refused.
    assert!(acknowledged.len() >= 100, "{}", acknowledged.len());
    for moves in &acknowledged {
        assert!(
            last.starts_with(moves),
            "an acknowledged state of {} moves was overwritten",
            moves.len()
        );
    }
}

fn empty_game() -> yolah_web::game::Saved {
    yolah_web::game::Saved {
        black: "human".into(),
        white: "human".into(),
        start: yolah_core::Position::start().to_string(),
        tc: None,
        moves: Vec::new(),
        clocks: Vec::new(),
        flagged: None,
        resigned: None,
        turn_ms: 0,
        paused: false,
        result: None,
    }
}

/// Item 9: one address cannot keep games without bound (one connection kept 1,471 a second):
/// past its burst it is told to wait, and other work goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_are_bounded_by_address() {
    let address = server(yolah_web::Config {
        new_game_burst: 5,
        new_game_refill: Duration::from_hours(1),
        ..yolah_web::Config::default()
    })
    .await;
    let mut flood = connect(address).await;
    let new = json!({"type": "new", "black": "human", "white": "human"});
    for _ in 0..5 {
        send(&mut flood, &new).await;
        next(&mut flood, "game").await;
    }
    for _ in 0..20 {
        send(&mut flood, &new).await;
        let refused = next(&mut flood, "error").await;
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.starts_with("too many new games from this address"),
            "{message}"
        );
    }
    // Hosting is a new game too.
    send(&mut flood, &json!({"type": "host", "colour": "black"})).await;
    assert!(
        next(&mut flood, "error").await["message"]
            .as_str()
            .unwrap()
            .starts_with("too many new games")
    );
    let (_, body) = get(address, "/games.json").await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["games"],
        json!([])
    );
}

/// The smaller items: half-sent requests are closed after the header timeout, and one address
/// holds at most its share of connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_are_closed_and_bounded_by_address() {
    let address = server(yolah_web::Config {
        header_timeout: Duration::from_secs(1),
        max_connections_per_address: 8,
        ..yolah_web::Config::default()
    })
    .await;
    let mut half = Vec::new();
    for _ in 0..8 {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHo")
            .await
            .unwrap();
        half.push(stream);
    }
    // The ninth is closed at once.
    let mut ninth = tokio::net::TcpStream::connect(address).await.unwrap();
    let _ = ninth
        .write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        .await;
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), ninth.read_to_end(&mut buffer)).await;
    assert!(
        matches!(read, Ok(Ok(0) | Err(_))),
        "the ninth connection was served: {}",
        String::from_utf8_lossy(&buffer)
    );
    // The half-sent ones are closed within the header timeout (and a margin for a busy
    // machine).
    for mut stream in half {
        let mut buffer = Vec::new();
        let read =
            tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut buffer)).await;
        assert!(read.is_ok(), "a half-sent request is still open after 20 s");
    }
    // And the address may connect again.
    let (code, _) = get(address, "/health").await;
    assert_eq!(code, 200);
}

/// Plays `n` games of one move each, people on both sides.
async fn one_move_games(address: std::net::SocketAddr, n: usize) {
    for _ in 0..n {
        let mut page = connect(address).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "human"}),
        )
        .await;
        let state = settled(&mut page).await;
        send(
            &mut page,
            &json!({"type": "play", "move": state["legal"][0]}),
        )
        .await;
        state_after(&mut page, 1).await;
    }
}

/// The smaller items: one damaged row (malformed JSON) is listed with what can be read and
/// left out of the PGN export with its reason; the archive never fails for it.
#[test]
fn a_damaged_row_does_not_fail_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let (address, runtime) = board_server(&db, 0);
    runtime.block_on(one_move_games(address, 2));
    // Another program (or a bad disk) damages one game's JSON.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE games SET game = '{\"moves\": [' WHERE rowid = (SELECT min(rowid) FROM games)",
            [],
        )
        .unwrap();
    runtime.block_on(async {
        let (code, body) = get(address, "/games.json").await;
        assert_eq!(code, 200, "{body}");
        let listed: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(listed["games"].as_array().unwrap().len(), 2, "{listed}");
        let (code, pgn) = common::get_whole(address, "/games.pgn").await;
        assert_eq!(code, 200, "{pgn}");
        assert!(
            pgn.to_ascii_lowercase().contains("x-yolah-skipped: "),
            "{pgn}"
        );
        assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    });
    runtime.shutdown_background();
}

/// The review of these fixes, finding 1: a WebSocket counts toward its address's bound of
/// connections for as long as it lives (the count was given back when the HTTP connection
/// became a WebSocket, so one address could take every game).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_count_toward_the_address_bound() {
    let address = server(yolah_web::Config {
        max_connections_per_address: 4,
        ..yolah_web::Config::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect(address).await);
    }
    let fifth = tokio_tungstenite::connect_async(format!("ws://{address}/ws")).await;
    assert!(
        fifth.is_err(),
        "a fifth WebSocket from one address was opened"
    );
    // One closed, one more may come.
    drop(held.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while tokio_tungstenite::connect_async(format!("ws://{address}/ws"))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the slot never came back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Finding 2: rooms nobody is in do not keep others from hosting (one address hosted every
/// room and left); the room nobody has been in for longest leaves memory, and its link still
/// brings it back from the file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_rooms_make_way_for_new_ones() {
    let address = server(yolah_web::Config {
        max_games: 4,
        ..yolah_web::Config::default()
    })
    .await;
    let mut first = None;
    for _ in 0..4 {
        let (socket, hosted) = host(address, "black").await;
        first.get_or_insert(hosted);
        drop(socket);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_host, hosted) = host(address, "white").await;
    assert!(hosted["id"].is_string(), "{hosted}");
    let first = first.unwrap();
    let mut back = connect(address).await;
    send(
        &mut back,
        &json!({"type": "join", "room": first["id"], "token": first["token"]}),
    )
    .await;
    assert_eq!(room(&mut back).await["seat"], "black");
}

/// Finding 3: a page's own game closed for idleness before its first move is kept: its
/// token brings it back after the idle timeout and other pages' new games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_closed_before_its_first_move_comes_back() {
    let address = server(yolah_web::Config {
        idle_timeout: Duration::from_secs(1),
        ..yolah_web::Config::default()
    })
    .await;
    let mut page = connect(address).await;
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    let kept = next(&mut page, "game").await;
    drop(page);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut other = connect(address).await;
    send(
        &mut other,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    next(&mut other, "game").await;
    let mut back = connect(address).await;
    send(
        &mut back,
        &json!({"type": "open", "game": kept["id"], "token": kept["token"]}),
    )
    .await;
    assert_eq!(next(&mut back, "game").await["token"], kept["token"]);
}

/// Finding 4: an undo the full disk refuses while the machine thinks does not leave the
/// machine stopped (it then lost on time): its search starts again, and with room again its
/// move is played.
#[test]
fn a_refused_undo_leaves_the_machine_thinking() {
    let disk = yolah_testkit::writers::SmallDisk::new(512 * 1024);
    let db = disk.path().join("games.sqlite");
    let (address, runtime) = board_server(&db, 0);
    runtime.block_on(async {
        let mut page = connect(address).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "minimax:time=1s", "tc": "5min+0s"}),
        )
        .await;
        let state = settled(&mut page).await;
        disk.fill();
        // Moves until one is refused, then the machine's turn: fill, move (kept or refused).
        let mut now = state;
        let mut refused = false;
        for _ in 0..60 {
            disk.free();
            send(&mut page, &json!({"type": "play", "move": now["legal"][0]})).await;
            let thinking = loop {
                let s = next(&mut page, "state").await;
                if s["thinking"] == true || !s["result"].is_null() {
                    break s;
                }
            };
            if !thinking["result"].is_null() {
                break;
            }
            disk.fill();
            send(&mut page, &json!({"type": "undo"})).await;
            let answer = loop {
                let m = next_any(&mut page).await;
                if m["type"] == "error" || m["type"] == "state" {
                    break m;
                }
            };
            if answer["type"] == "error" {
                refused = true;
                let after = next(&mut page, "state").await;
                assert_eq!(after["thinking"], true, "the machine thinks again: {after}");
                disk.free();
                let played = settled(&mut page).await;
                assert_eq!(
                    played["moves"].as_array().unwrap().len(),
                    thinking["moves"].as_array().unwrap().len() + 1,
                    "{played}"
                );
                break;
            }
            now = settled(&mut page).await;
        }
        assert!(refused, "the full disk never refused an undo");
    });
    runtime.shutdown_background();
}

/// Finding 6: a row whose columns are of the wrong type is listed like a row with damaged JSON
/// (it failed every page with a 400).
#[test]
fn a_row_of_wrong_types_does_not_fail_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let (address, runtime) = board_server(&db, 0);
    runtime.block_on(one_move_games(address, 1));
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE games SET created = 'x', result = 7", [])
        .unwrap();
    runtime.block_on(async {
        let (code, body) = get(address, "/games.json").await;
        assert_eq!(code, 200, "{body}");
        let (code, body) = get(address, "/games.pgn").await;
        assert_eq!(code, 200, "{body}");
    });
    runtime.shutdown_background();
}

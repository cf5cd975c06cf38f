//! Whole games over the WebSocket: against a machine, between two clients with a spectator, on a clock, hostile messages, a disconnect, fifty at once, PGN export.

use crate::common::{Socket, check, connect, get, next, room, send, server, settled, state_after};
use crate::support::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use yolah_core::Position;

/// A new server and a game on it, a person (black) against the random player: the socket and
/// the first settled state.
async fn against_random() -> (Socket, Value) {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "human", "white": "random"}),
    )
    .await;
    let state = settled(&mut socket).await;
    (socket, state)
}

/// Plays the first legal move of `state` and waits for the machine's answer: the next settled
/// state.
async fn play_first(socket: &mut Socket, state: &Value) -> Value {
    let first = state["legal"][0].clone();
    send(socket, &json!({"type": "play", "move": first})).await;
    settled(socket).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_a_whole_game_against_a_machine() {
    let (mut socket, mut state) = against_random().await;
    while state["result"].is_null() {
        assert_eq!(state["side"], "black", "the human's turn: {state}");
        state = play_first(&mut socket, &state).await;
        check(&state);
    }
    let result = state["result"].as_str().unwrap();
    assert!(
        ["black wins", "white wins", "draw"]
            .iter()
            .any(|r| result.starts_with(r)),
        "{result}"
    );
    // Undo goes back to the human's last turn, and the game goes on from there.
    send(&mut socket, &json!({"type": "undo"})).await;
    let undone = settled(&mut socket).await;
    check(&undone);
    assert!(undone["result"].is_null(), "{undone}");
    assert_eq!(undone["side"], "black");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_get_an_error_and_change_nothing() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    let before = settled(&mut socket).await;
    let cases: Vec<(Message, &str)> = vec![
        (Message::Text("not json".into()), "bad message"),
        (Message::Text("{\"type\":\"fly\"}".into()), "bad message"),
        (
            Message::Text("{\"type\":\"play\",\"move\":\"a1:c3\",\"extra\":1}".into()),
            "bad message",
        ),
        (
            Message::Text(json!({"type": "play", "move": "e4"}).to_string().into()),
            "'e4' is not a move",
        ),
        (
            Message::Text(json!({"type": "play", "move": "h1:h8"}).to_string().into()),
            "is illegal",
        ),
        (
            Message::Text(
                json!({"type": "new", "black": "engine:cmd=/bin/sh", "white": "human"})
                    .to_string()
                    .into(),
            ),
            "other programs",
        ),
        (
            Message::Text(
                json!({"type": "new", "black": "human", "white": "human", "position": "8/8"})
                    .to_string()
                    .into(),
            ),
            "position '8/8'",
        ),
        (
            Message::Text(
                json!({"type": "play", "move": "x".repeat(5000)})
                    .to_string()
                    .into(),
            ),
            "longer than 4096 bytes",
        ),
        (Message::Binary(vec![1, 2, 3].into()), "JSON text"),
        (
            Message::Text(json!({"type": "undo"}).to_string().into()),
            "nothing to undo",
        ),
    ];
    for (message, expected) in cases {
        socket.send(message).await.unwrap();
        let error = next(&mut socket, "error").await;
        let text = error["message"].as_str().unwrap();
        assert!(text.contains(expected), "{expected}: {text}");
    }
    // Nothing changed: a legal move still plays from the same position.
    send(
        &mut socket,
        &json!({"type": "play", "move": before["legal"][0]}),
    )
    .await;
    let after = settled(&mut socket).await;
    assert_eq!(after["moves"].as_array().unwrap().len(), 1, "{after}");
    assert_eq!(after["start"], before["position"]);
    // A frame over the limit closes the connection; the server lives on.
    let huge = "y".repeat(100_000);
    let _ = socket.send(Message::Text(huge.into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the connection is closed");
    let mut again = connect(address).await;
    send(
        &mut again,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    settled(&mut again).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnect_frees_the_game_and_stops_its_search() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "mcts:time=10s", "white": "human"}),
    )
    .await;
    let thinking = next(&mut socket, "state").await;
    assert_eq!(thinking["thinking"], true);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(health(address).await["searching"], 1);
    drop(socket);
    let start = Instant::now();
    loop {
        let now = health(address).await;
        if now["games"] == 0 && now["searching"] == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the 10 s search is stopped: {now}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_at_once() {
    // Fifty pages from five addresses (one address holds at most an eighth of the games):
    // more new games at once than one address may keep by default
    // (`a_flood_of_new_games_is_bounded_by_address` tests that bound).
    let address = server(yolah_web::Config {
        new_game_burst: 100,
        ..yolah_web::Config::default()
    })
    .await;
    let games: Vec<_> = (0..50)
        .map(|i| {
            tokio::spawn(async move {
                let mut socket = crate::common::connect_from(address, 2 + (i % 5) as u8).await;
                let (black, white) = if i % 2 == 0 {
                    ("random", "mcts:iterations=200,tree=8")
                } else {
                    ("mcts:iterations=200,tree=8", "random")
                };
                send(
                    &mut socket,
                    &json!({"type": "new", "black": black, "white": white}),
                )
                .await;
                loop {
                    let state = next(&mut socket, "state").await;
                    if state["result"].is_string() {
                        check(&state);
                        return state["moves"].as_array().unwrap().len();
                    }
                }
            })
        })
        .collect();
    for game in games {
        let moves = game.await.unwrap();
        assert!(moves >= 10, "{moves}");
    }
    let start = Instant::now();
    while health(address).await["games"] != 0 {
        assert!(start.elapsed() < Duration::from_secs(5));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_and_a_side_loses_on_time() {
    let address = server(yolah_web::Config {
        time_control: Some("2s+100ms".parse().unwrap()),
        ..yolah_web::Config::default()
    })
    .await;
    let mut page = connect(address).await;
    // Timed from before the game is asked for: its clock starts on the server, which a busy
    // machine may put well before this side reads the first state.
    let started = Instant::now();
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "random", "tc": "400ms+0"}),
    )
    .await;
    let state = next(&mut page, "state").await;
    assert_eq!(state["clocks"]["control"], "400ms+0");
    assert_eq!(state["clocks"]["black_ms"], 400);
    assert_eq!(state["clocks"]["running"], "black");
    let state = next(&mut page, "state").await;
    assert_eq!(state["result"], "white wins on time", "{state}");
    assert!(
        started.elapsed() >= Duration::from_millis(400),
        "{:?} {state}",
        started.elapsed()
    );
    assert_eq!(state["clocks"]["black_ms"], 0);
    assert_eq!(state["clocks"]["running"], Value::Null);
    send(&mut page, &json!({"type": "play", "move": "a1:a2"})).await;
    assert_eq!(
        next(&mut page, "error").await["message"],
        "the game is over"
    );
    // Machines on the server's clock: every move charged, nobody flags, the game ends.
    send(
        &mut page,
        &json!({"type": "new", "black": "minimax:eval=nn", "white": "mcts"}),
    )
    .await;
    let mut state = next(&mut page, "state").await;
    assert_eq!(state["clocks"]["control"], "2s+100ms");
    while state["result"].is_null() {
        state = next(&mut page, "state").await;
    }
    check(&state);
    assert!(
        !state["result"].as_str().unwrap().contains("on time"),
        "{state}"
    );
    let clocks = &state["clocks"];
    assert!(clocks["black_ms"].as_u64().unwrap() > 0, "{state}");
    assert!(clocks["white_ms"].as_u64().unwrap() > 0, "{state}");
    // `none` turns the server's clock off; a bad one is refused and changes nothing.
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "random", "tc": "none"}),
    )
    .await;
    assert_eq!(next(&mut page, "state").await["clocks"], Value::Null);
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "random", "tc": "5"}),
    )
    .await;
    let error = next(&mut page, "error").await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("tc '5': a time control is BASE[+INC]"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_take_back_to_a_move_and_undo_a_watched_game() {
    let (mut socket, mut state) = against_random().await;
    for _ in 0..3 {
        state = play_first(&mut socket, &state).await;
    }
    assert_eq!(state["moves"].as_array().unwrap().len(), 6);
    send(&mut socket, &json!({"type": "undo", "to": 3})).await;
    let refused = next(&mut socket, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("machine's turn"),
        "{refused}"
    );
    send(&mut socket, &json!({"type": "undo", "to": 2})).await;
    let back = settled(&mut socket).await;
    assert_eq!(
        back["moves"],
        json!(state["moves"].as_array().unwrap()[..2])
    );
    send(&mut socket, &json!({"type": "resign"})).await;
    let resigned = settled(&mut socket).await;
    assert_eq!(
        resigned["result"], "white wins by resignation",
        "{resigned}"
    );
    assert!(resigned["legal"].as_array().unwrap().is_empty());

    // A watched game: undo takes one move back and pauses; resume lets it go on.
    send(
        &mut socket,
        &json!({"type": "new", "black": "random", "white": "random"}),
    )
    .await;
    let playing = loop {
        let state = next(&mut socket, "state").await;
        if state["moves"].as_array().unwrap().len() >= 4 {
            break state;
        }
    };
    send(&mut socket, &json!({"type": "undo"})).await;
    let mut before = playing;
    let undone = loop {
        let state = next(&mut socket, "state").await;
        if state["paused"] == true {
            break state;
        }
        before = state;
    };
    // The game as it stood when the undo came, less its last move.
    let moves = before["moves"].as_array().unwrap();
    assert_eq!(undone["moves"], json!(moves[..moves.len() - 1]), "{undone}");
    assert_eq!(undone["thinking"], false);
    send(&mut socket, &json!({"type": "resume"})).await;
    let finished = loop {
        let state = next(&mut socket, "state").await;
        if state["result"].is_string() {
            break state;
        }
    };
    check(&finished);
    send(&mut socket, &json!({"type": "resign"})).await;
    assert!(
        next(&mut socket, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("over")
    );
}

/// Black (the guest) asks to take its move back; white (the host) declines, black
/// asks again, white accepts: the move goes.
async fn takeback_declined_then_accepted(host: &mut Socket, guest: &mut Socket) {
    send(guest, &json!({"type": "undo"})).await;
    let asked = loop {
        let message = room(host).await;
        if message["takeback"].is_string() {
            break message;
        }
    };
    assert_eq!(asked["takeback"], "black");
    // Declined: the request goes, the move stays; the asker cannot decline it.
    send(guest, &json!({"type": "decline"})).await;
    assert!(
        next(guest, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("no takeback to decline")
    );
    send(host, &json!({"type": "decline"})).await;
    loop {
        let message = room(guest).await;
        if message["takeback"].is_null() {
            break;
        }
    }
    send(guest, &json!({"type": "undo"})).await;
    loop {
        if room(host).await["takeback"] == "black" {
            break;
        }
    }
    send(host, &json!({"type": "undo"})).await;
    state_after(host, 0).await;
}

/// Plays a game between two sockets (black's, white's) to its end, each side its first legal
/// move; the final state.
async fn play_to_the_end(sockets: [&mut Socket; 2], mut state: Value) -> Value {
    while state["result"].is_null() {
        let side = usize::from(state["side"] == "white");
        let first = state["legal"][0].clone();
        let moves = state["moves"].as_array().unwrap().len();
        send(sockets[side], &json!({"type": "play", "move": first})).await;
        state = loop {
            let next = next(sockets[0], "state").await;
            if next["moves"].as_array().unwrap().len() > moves || next["result"].is_string() {
                break next;
            }
        };
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_a_game_with_a_spectator_and_a_reconnect() {
    let address = server(yolah_web::Config::default()).await;
    let mut host = connect(address).await;
    send(&mut host, &json!({"type": "host", "colour": "white"})).await;
    let hosted = room(&mut host).await;
    assert_eq!(hosted["seat"], "white", "{hosted}");
    let id = hosted["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 16);
    let host_token = hosted["token"].as_str().unwrap().to_string();
    let key = hosted["key"].as_str().unwrap().to_string();
    let mut guest = connect(address).await;
    send(&mut guest, &json!({"type": "join", "room": id, "key": key})).await;
    let joined = room(&mut guest).await;
    assert_eq!(joined["seat"], "black", "{joined}");
    let guest_token = joined["token"].as_str().unwrap().to_string();
    assert_ne!(guest_token, host_token);
    let mut watcher = connect(address).await;
    send(&mut watcher, &json!({"type": "join", "room": id})).await;
    let watching = room(&mut watcher).await;
    assert_eq!(
        (watching["seat"].clone(), watching["token"].clone()),
        (json!("spectator"), Value::Null)
    );
    let present = loop {
        let message = room(&mut host).await;
        if message["spectators"] == 1 {
            break message;
        }
    };
    assert_eq!(present["present"], json!([true, true]));
    assert_eq!(present["seat"], "white", "each member sees its own seat");

    // Out of turn, and a spectator, are refused.
    send(&mut host, &json!({"type": "play", "move": "h1:h2"})).await;
    assert!(
        next(&mut host, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("black's turn")
    );
    send(&mut watcher, &json!({"type": "play", "move": "a1:a2"})).await;
    assert!(
        next(&mut watcher, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("spectators")
    );

    // A move reaches everyone at once; a takeback needs both sides.
    send(&mut guest, &json!({"type": "play", "move": "a1:c3"})).await;
    assert_eq!(state_after(&mut host, 1).await["moves"][0], "a1:c3");
    state_after(&mut watcher, 1).await;
    takeback_declined_then_accepted(&mut host, &mut guest).await;
    send(&mut guest, &json!({"type": "play", "move": "a1:c3"})).await;
    state_after(&mut host, 1).await;

    // The guest drops; with its token it gets black back and the game as it stands.
    drop(guest);
    loop {
        if room(&mut host).await["present"] == json!([false, true]) {
            break;
        }
    }
    let mut guest = connect(address).await;
    send(
        &mut guest,
        &json!({"type": "join", "room": id, "token": guest_token}),
    )
    .await;
    assert_eq!(room(&mut guest).await["seat"], "black");
    let state = state_after(&mut guest, 1).await;
    let state = play_to_the_end([&mut guest, &mut host], state).await;
    check(&state);
    let seen = loop {
        let seen = next(&mut watcher, "state").await;
        if seen["result"].is_string() {
            break seen;
        }
    };
    assert_eq!(seen["moves"], state["moves"]);
    send(
        &mut watcher,
        &json!({"type": "join", "room": "0000000000000000"}),
    )
    .await;
    assert!(
        next(&mut watcher, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("no shared game")
    );
}

/// A game the page shows, exported as the runner's PGN record, reads back (with the
/// reader `yolah replay` uses) into the same final position; a resignation keeps its result;
/// bad moves are refused with a reason.
#[tokio::test]
async fn a_game_exported_as_pgn_reads_back_into_the_same_position() {
    let address = server(yolah_web::Config::default()).await;
    let mut position = Position::start();
    let mut moves = Vec::new();
    let mut rng = 7u64;
    while !position.game_over() {
        let legal = position.moves();
        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let m = legal.as_slice()[(rng >> 33) as usize % legal.len()];
        position.play(m);
        moves.push(m.to_string());
    }
    let path = format!(
        "/export.pgn?moves={}&black=human&white=random&tc=1min%2B1s",
        moves.join(",")
    );
    let (code, body) = get(address, &path).await;
    assert_eq!(code, 200, "{body}");
    let (games, cut) = yolah_ai::arena::pgn::parse(&body).unwrap();
    assert_eq!((games.len(), cut), (1, None));
    assert_eq!(games[0].end(), position);
    assert_eq!(games[0].tag("White"), Some("random"));
    assert_eq!(games[0].tag("TimeControl"), Some("60+1"));
    assert_eq!(games[0].tag("Event"), Some("yolah serve"));
    // Resigned after two moves: the result stands, the reader takes it.
    let (code, body) = get(
        address,
        "/export.pgn?moves=a1:c3,h1:f3&black=human&white=minimax&result=white%20wins%20by%20resignation",
    )
    .await;
    assert_eq!(code, 200, "{body}");
    let (games, _) = yolah_ai::arena::pgn::parse(&body).unwrap();
    assert_eq!(games[0].result, "0-1");
    assert!(body.contains("{black resigns}"), "{body}");
    // A game going on: `*`, and its termination says so; the reader takes it.
    let (_, body) = get(address, "/export.pgn?moves=a1:c3").await;
    assert!(body.contains("[Result \"*\"]"), "{body}");
    assert!(body.contains("[Termination \"unterminated\"]"), "{body}");
    let (games, _) = yolah_ai::arena::pgn::parse(&body).unwrap();
    assert_eq!((games[0].result.as_str(), games[0].moves.len()), ("*", 1));
    let (code, body) = get(address, "/export.pgn?moves=a1:a1").await;
    assert_eq!(code, 400);
    assert!(body.contains("illegal") && !body.contains('\n'), "{body}");
}

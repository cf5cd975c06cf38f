//! Games kept in the server's SQLite file come back after a reload and a restart of
//! the server (a game against a level on a clock, a game between two browsers), open only
//! for show without their token, and are listed and exported by the archive.

mod common;

use common::{Socket, board_server, connect, get, next, room, send, settled, state_after};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;

/// A server on the database `db` that can be stopped as a whole.
fn server_on(db: &Path) -> (SocketAddr, tokio::runtime::Runtime) {
    board_server(db, 0)
}

/// Plays the first legal move and waits for the machine's answer.
async fn play_first(socket: &mut Socket, state: &Value) -> Value {
    send(socket, &json!({"type": "play", "move": state["legal"][0]})).await;
    settled(socket).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_come_back_after_a_reload_and_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let (address, runtime) = server_on(&db);

    // A game against a level on a clock: three moves each, then the page reloads.
    let mut page = connect(address).await;
    send(
        &mut page,
        &json!({"type": "new", "black": "human", "white": "random", "tc": "5min+2s"}),
    )
    .await;
    let kept = next(&mut page, "game").await;
    let mut state = settled(&mut page).await;
    for _ in 0..3 {
        state = play_first(&mut page, &state).await;
    }
    let clocks = state["clocks"].clone();
    drop(page);
    let mut page = connect(address).await;
    let open = json!({"type": "open", "game": kept["id"], "token": kept["token"]});
    send(&mut page, &open).await;
    assert_eq!(next(&mut page, "game").await["token"], kept["token"]);
    let reloaded = settled(&mut page).await;
    assert_eq!(reloaded["position"], state["position"]);
    assert_eq!(reloaded["clocks"]["black_ms"], clocks["black_ms"]);
    assert_eq!(reloaded["clocks"]["white_ms"], clocks["white_ms"]);
    assert_eq!(reloaded["clocks"]["running"], "black");

    // A game between two browsers, two moves played.
    let mut host = connect(address).await;
    send(
        &mut host,
        &json!({"type": "host", "colour": "black", "tc": "none"}),
    )
    .await;
    let hosted = room(&mut host).await;
    let mut guest = connect(address).await;
    let invitation = json!({"type": "join", "room": hosted["id"], "key": hosted["key"]});
    send(&mut guest, &invitation).await;
    let joined = room(&mut guest).await;
    assert_eq!(joined["seat"], "white");
    let start = state_after(&mut host, 0).await;
    send(
        &mut host,
        &json!({"type": "play", "move": start["legal"][0]}),
    )
    .await;
    let after = state_after(&mut guest, 1).await;
    send(
        &mut guest,
        &json!({"type": "play", "move": after["legal"][0]}),
    )
    .await;
    let friends = state_after(&mut host, 2).await;

    // The server stops with everything in flight, and starts again on the same file.
    drop((page, host, guest));
    runtime.shutdown_background();
    let (address, runtime) = server_on(&db);

    let mut page = connect(address).await;
    send(&mut page, &open).await;
    let restarted = settled(&mut page).await;
    assert_eq!(restarted["position"], state["position"]);
    assert_eq!(restarted["moves"], state["moves"]);
    assert_eq!(restarted["clocks"]["black_ms"], clocks["black_ms"]);
    assert_eq!(restarted["clocks"]["white_ms"], clocks["white_ms"]);
    // It goes on: the person moves, the machine answers.
    let on = play_first(&mut page, &restarted).await;
    let played = on["moves"].as_array().unwrap().len();
    assert!(played >= 8, "{on}");

    // The friends come back to their sides with their tokens.
    let mut host = connect(address).await;
    let rejoin = json!({"type": "join", "room": hosted["id"], "token": hosted["token"]});
    send(&mut host, &rejoin).await;
    assert_eq!(room(&mut host).await["seat"], "black");
    let mut guest = connect(address).await;
    let open_guest = json!({"type": "open", "game": hosted["id"], "token": joined["token"]});
    send(&mut guest, &open_guest).await;
    assert_eq!(room(&mut guest).await["seat"], "white");
    let back = state_after(&mut host, 2).await;
    assert_eq!(back["position"], friends["position"]);
    send(
        &mut host,
        &json!({"type": "play", "move": back["legal"][0]}),
    )
    .await;
    state_after(&mut guest, 3).await;

    shown_without_token(address, &kept, played).await;
    archive_lists(address, &kept, &hosted, &on, played).await;
    runtime.shutdown_background();
}

/// Without its token a page's own game is only shown: no moves, no search.
async fn shown_without_token(address: SocketAddr, kept: &Value, played: usize) {
    let mut stranger = connect(address).await;
    send(&mut stranger, &json!({"type": "open", "game": kept["id"]})).await;
    assert_eq!(next(&mut stranger, "game").await["token"], Value::Null);
    let shown = next(&mut stranger, "state").await;
    assert_eq!(shown["moves"].as_array().unwrap().len(), played);
    assert_eq!(shown["legal"], json!([]));
    send(&mut stranger, &json!({"type": "play", "move": "a1:a1"})).await;
    let refused = next(&mut stranger, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("shown from the archive")
    );
    send(&mut stranger, &json!({"type": "open", "game": "0123abcd"})).await;
    let missing = next(&mut stranger, "error").await;
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .starts_with("no game '0123abcd'")
    );
}

/// The archive lists both games, newest first; "my games" by ids; both export as PGN and
/// read back into the positions the server has; bad requests are refused in one line.
async fn archive_lists(
    address: SocketAddr,
    kept: &Value,
    hosted: &Value,
    on: &Value,
    played: usize,
) {
    let (code, body) = get(address, "/games.json").await;
    assert_eq!(code, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let ids: Vec<&Value> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["id"])
        .collect();
    assert_eq!(ids.len(), 2, "{list}");
    assert!(
        ids.contains(&&kept["id"]) && ids.contains(&&hosted["id"]),
        "{list}"
    );
    let (_, body) = get(
        address,
        &format!("/games.json?ids={}", kept["id"].as_str().unwrap()),
    )
    .await;
    let mine: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(mine["games"][0]["plies"], played);
    assert_eq!(mine["games"][0]["white"], "random");
    let (code, pgn) = get(address, "/games.pgn").await;
    assert_eq!(code, 200, "{pgn}");
    let (games, cut) = yolah_ai::arena::pgn::parse(&pgn).unwrap();
    assert_eq!((games.len(), cut), (2, None));
    let ends: Vec<String> = games.iter().map(|g| g.end().to_string()).collect();
    assert!(
        ends.contains(&on["position"].as_str().unwrap().to_string()),
        "{ends:?}"
    );
    for bad in [
        "/games.json?page=0",
        "/games.json?per_page=1000",
        "/games.pgn?ids=zz!",
        "/games.json?page=1&ids=ab",
    ] {
        let (code, body) = get(address, bad).await;
        assert_eq!(code, 400, "{bad}: {body}");
        assert!(!body.contains('\n'), "{bad}: {body}");
    }
    // The JSON route answers its errors in JSON, as /explorer.json and /puzzles.json do.
    for (bad, said) in [
        (
            "/games.json?per_page=abc",
            "per_page must be a number from 1 to 100, not 'abc'",
        ),
        ("/games.json?colour=1", "unknown field `colour`"),
        ("/games.json?per_page=0", "not '0'"),
    ] {
        let (code, body) = get(address, bad).await;
        assert_eq!(code, 400, "{bad}: {body}");
        let error: serde_json::Value = serde_json::from_str(&body).expect(&body);
        let error = error["error"].as_str().expect(&body);
        assert!(error.contains(said), "{bad}: {error}");
    }
    let (code, page) = get(address, "/games").await;
    assert_eq!(code, 200);
    assert!(page.contains("<title>Yolah — games</title>"));
}

/// Two tabs with the same game: the one that opened it last plays it; the other is told so
/// and its moves are not written over the first one's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_opened_in_another_tab_moves_there() {
    let dir = tempfile::tempdir().unwrap();
    let (address, runtime) = server_on(&dir.path().join("games.sqlite"));
    let mut first = connect(address).await;
    send(
        &mut first,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    let kept = next(&mut first, "game").await;
    let state = next(&mut first, "state").await;
    let mut second = connect(address).await;
    send(
        &mut second,
        &json!({"type": "open", "game": kept["id"], "token": kept["token"]}),
    )
    .await;
    next(&mut second, "state").await;
    send(
        &mut first,
        &json!({"type": "play", "move": state["legal"][0]}),
    )
    .await;
    let error = next(&mut first, "error").await;
    assert!(
        error["message"].as_str().unwrap().contains("another tab"),
        "{error}"
    );
    send(
        &mut second,
        &json!({"type": "play", "move": state["legal"][1]}),
    )
    .await;
    let played = state_after(&mut second, 1).await;
    assert_eq!(played["moves"][0], state["legal"][1]);
    runtime.shutdown_background();
}

/// The status `/games.json?ids=ID` gives the game `id`.
async fn status(address: SocketAddr, id: &Value) -> Value {
    let (code, body) = get(
        address,
        &format!("/games.json?ids={}", id.as_str().unwrap()),
    )
    .await;
    assert_eq!(code, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    list["games"][0]["status"].clone()
}

/// Waits (30 s at most) until the archive gives game `id` the status `wanted`; `what`
/// says what it would mean if it never did.
async fn status_becomes(address: SocketAddr, id: &Value, wanted: &str, what: &str) {
    let start = std::time::Instant::now();
    while status(address, id).await != wanted {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "{what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The archive says what became of each game. A game a page plays is
/// "playing"; left for a new game (or by a closed page) it is "adjourned", and its token
/// takes it up again, "playing"; a finished one is "finished".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_is_adjourned_and_taken_up_again() {
    let dir = tempfile::tempdir().unwrap();
    let (address, runtime) = server_on(&dir.path().join("games.sqlite"));
    let mut page = connect(address).await;
    let new = json!({"type": "new", "black": "human", "white": "random", "tc": "none"});
    send(&mut page, &new).await;
    let first = next(&mut page, "game").await;
    let state = settled(&mut page).await;
    play_first(&mut page, &state).await;
    assert_eq!(status(address, &first["id"]).await, "playing");
    // New game: the first is left.
    send(&mut page, &new).await;
    let second = next(&mut page, "game").await;
    let state = settled(&mut page).await;
    play_first(&mut page, &state).await;
    assert_eq!(status(address, &first["id"]).await, "adjourned");
    assert_eq!(status(address, &second["id"]).await, "playing");
    // The page closes: both are left.
    drop(page);
    status_becomes(
        address,
        &second["id"],
        "adjourned",
        "the closed page's game is still played",
    )
    .await;
    // Shown to a stranger it stays adjourned; its token takes it up where it stopped.
    let mut stranger = connect(address).await;
    send(&mut stranger, &json!({"type": "open", "game": first["id"]})).await;
    settled(&mut stranger).await;
    assert_eq!(status(address, &first["id"]).await, "adjourned");
    let mut back = connect(address).await;
    let open = json!({"type": "open", "game": first["id"], "token": first["token"]});
    send(&mut back, &open).await;
    let resumed = settled(&mut back).await;
    assert_eq!(status(address, &first["id"]).await, "playing");
    let on = play_first(&mut back, &resumed).await;
    assert!(on["moves"].as_array().unwrap().len() > resumed["moves"].as_array().unwrap().len());
    // Another tab takes it with the token and closes: the first tab lost it, so it is left.
    let mut other = connect(address).await;
    send(&mut other, &open).await;
    settled(&mut other).await;
    assert_eq!(status(address, &first["id"]).await, "playing");
    drop(other);
    status_becomes(
        address,
        &first["id"],
        "adjourned",
        "a game no page plays any more is still playing",
    )
    .await;
    // A friends' game is playing while a player sits at it, and left when both have gone.
    let mut host = connect(address).await;
    send(
        &mut host,
        &json!({"type": "host", "colour": "black", "tc": "none"}),
    )
    .await;
    let hosted = room(&mut host).await;
    let mut guest = connect(address).await;
    send(
        &mut guest,
        &json!({"type": "join", "room": hosted["id"], "key": hosted["key"]}),
    )
    .await;
    room(&mut guest).await;
    let start_state = state_after(&mut host, 0).await;
    send(
        &mut host,
        &json!({"type": "play", "move": start_state["legal"][0]}),
    )
    .await;
    state_after(&mut guest, 1).await;
    assert_eq!(status(address, &hosted["id"]).await, "playing");
    drop((host, guest));
    status_becomes(
        address,
        &hosted["id"],
        "adjourned",
        "a friends' game both players left is still playing",
    )
    .await;
    // A game over is finished.
    let random = json!({"type": "new", "black": "random", "white": "random", "tc": "none"});
    send(&mut back, &random).await;
    let over = next(&mut back, "game").await;
    status_becomes(
        address,
        &over["id"],
        "finished",
        "the random game never ends",
    )
    .await;
    runtime.shutdown_background();
}

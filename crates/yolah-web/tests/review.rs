//! A finished game's review on the server (`/games/ID/review.json`): refused while the game is
//! played, made once when asked, kept across a restart, and, on a full disk, a clear failure
//! that asking again mends.

mod common;

use common::{Socket, board_server_with, connect, get, next, post, send, settled};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use yolah_core::{Color, Position};

/// A review quick enough for a debug build.
fn config() -> yolah_web::Config {
    yolah_web::Config {
        review: yolah_ai::review::Settings {
            nodes: 300,
            exact_free: 10,
            exact_nodes: 20_000,
            time: std::time::Duration::from_hours(1),
        },
        ..yolah_web::Config::default()
    }
}

/// A game between two people at one board, each playing its first legal move, `plies` moves
/// of it (to the end if `None`): its id and last state.
async fn play(page: &mut Socket, plies: Option<usize>) -> (String, Value) {
    send(
        page,
        &json!({"type": "new", "black": "human", "white": "human"}),
    )
    .await;
    let id = next(page, "game").await["id"].as_str().unwrap().to_string();
    let mut state = settled(page).await;
    while state["result"].is_null()
        && plies.is_none_or(|n| state["moves"].as_array().unwrap().len() < n)
    {
        send(page, &json!({"type": "play", "move": state["legal"][0]})).await;
        state = settled(page).await;
    }
    (id, state)
}

fn address(id: &str) -> String {
    format!("/games/{id}/review.json")
}

/// Asks until the review is done or fails (`POST` once, then `GET`): the last answer's code
/// and JSON, and each status seen.
async fn review(server: std::net::SocketAddr, id: &str) -> (u16, Value, Vec<String>) {
    let (mut code, mut body) = post(server, &address(id), "").await;
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_mins(5);
    loop {
        let json: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        seen.push(json["status"].as_str().unwrap_or("").to_string());
        if code != 202 {
            return (code, json, seen);
        }
        assert!(Instant::now() < deadline, "no review in time: {json}");
        tokio::time::sleep(Duration::from_millis(50)).await;
        (code, body) = get(server, &address(id)).await;
    }
}

#[test]
fn a_finished_game_is_reviewed_once_kept_and_refused_while_played() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let (server, runtime) = board_server_with(&db, 0, config());
    let (id, state, first) = runtime.block_on(async {
        let mut page = connect(server).await;
        let (id, mut state) = play(&mut page, Some(6)).await;
        // A game being played has no review, and asking starts none.
        for (code, body) in [
            get(server, &address(&id)).await,
            post(server, &address(&id), "").await,
        ] {
            assert_eq!(code, 409, "{body}");
            assert!(body.contains("still being played"), "{body}");
        }
        // Another site's page may not spend the server's searches.
        let (code, body) = post(
            server,
            &address(&id),
            "Origin: http://elsewhere.example\r\n",
        )
        .await;
        assert_eq!(code, 403, "{body}");
        for (path, what) in [
            (address("0123abcd"), "no game"),
            (address("not-an-id"), "no game"),
        ] {
            let (code, body) = get(server, &path).await;
            assert_eq!(code, 404, "{body}");
            assert!(body.contains(what), "{body}");
        }
        // The rest of the game.
        while state["result"].is_null() {
            send(
                &mut page,
                &json!({"type": "play", "move": state["legal"][0]}),
            )
            .await;
            state = settled(&mut page).await;
        }
        let (code, body) = get(server, &address(&id)).await;
        assert_eq!(code, 200, "not asked yet: {body}");
        assert!(body.contains(r#""status":"none""#), "{body}");
        let (code, review, seen) = review(server, &id).await;
        assert_eq!(code, 200, "{review}");
        assert!(
            seen[..seen.len() - 1]
                .iter()
                .all(|s| s == "queued" || s == "reviewing"),
            "{seen:?}"
        );
        // Asked again: the same review, at once.
        let (code, again) = post(server, &address(&id), "").await;
        assert_eq!(code, 200);
        assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), review);
        (id, state, review)
    });
    check(&state, &first);
    // The review is kept: a server started again on the file has it without searching.
    drop(runtime);
    let (server, runtime) = board_server_with(&db, 0, config());
    runtime.block_on(async {
        let (code, body) = get(server, &address(&id)).await;
        assert_eq!(code, 200, "{body}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), first);
    });
}

/// The review says what the game was: each move as played, by the side that played it, a
/// class the guide names, accuracies in range, and the end as the final scores make it.
fn check(state: &Value, review: &Value) {
    assert_eq!(review["status"], "done");
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let judged = review["moves"].as_array().unwrap();
    assert_eq!(judged.len(), moves.len());
    let mut position: Position = state["start"].as_str().unwrap().parse().unwrap();
    for (j, played) in judged.iter().zip(&moves) {
        assert_eq!(j["played"], *played);
        assert_eq!(j["side"], position.side_to_move().name());
        let class = j["class"].as_str().unwrap();
        assert!(
            ["only", "best", "good", "inaccuracy", "mistake", "blunder"].contains(&class),
            "{j}"
        );
        let loss = j["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{j}");
        position.play(played.parse().unwrap());
    }
    for accuracy in review["accuracy"].as_array().unwrap() {
        let a = accuracy.as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a), "{accuracy}");
    }
    let margin = i32::from(position.score(Color::Black)) - i32::from(position.score(Color::White));
    assert_eq!(review["end"]["proved"], true, "{}", review["end"]);
    assert_eq!(
        review["end"]["margin"],
        json!(f64::from(margin)),
        "{}",
        review["end"]
    );
}

/// A review the full disk cannot keep fails with the reason (the game is untouched), and
/// asking again once there is room makes and keeps it.
#[test]
fn a_review_the_full_disk_cannot_keep_fails_clearly_and_is_made_when_asked_again() {
    // Room for the game's write-ahead log (SQLite checkpoints it at 4 MiB).
    let disk = yolah_testkit::writers::SmallDisk::new(8 << 20);
    let db = disk.path().join("games.sqlite");
    let (server, runtime) = board_server_with(&db, 0, config());
    runtime.block_on(async {
        let mut page = connect(server).await;
        let (id, state) = play(&mut page, None).await;
        disk.fill();
        let (code, failed, _) = review(server, &id).await;
        assert_eq!(code, 500, "{failed}");
        assert_eq!(failed["status"], "failed");
        let why = failed["error"].as_str().unwrap();
        assert!(why.starts_with("cannot keep the review"), "{why}");
        assert!(!why.contains('\n'), "{why}");
        let (code, body) = get(server, &address(&id)).await;
        assert_eq!(code, 500, "a failure is said until asked again: {body}");
        disk.free();
        let (code, review, _) = review(server, &id).await;
        assert_eq!(code, 200, "{review}");
        check(&state, &review);
        // The game itself is as it was.
        let mut other = connect(server).await;
        send(&mut other, &json!({"type": "open", "game": id})).await;
        let shown = settled(&mut other).await;
        assert_eq!(shown["moves"], state["moves"]);
    });
}

/// One game's review after another, each asked for as the one before ends: the reviewing
/// thread, ending as each is asked for, never leaves one waiting for nobody (it did: a
/// request in the moment the thread was letting its tables go found it "working" and waited
/// for ever).
#[test]
fn reviews_asked_one_after_another_are_all_made() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = listener.local_addr().unwrap();
        tokio::spawn(yolah_web::serve(
            listener,
            config(),
            yolah_web::Store::memory(),
        ));
        let mut page = connect(server).await;
        let mut ids = Vec::new();
        for plies in [3, 4, 5, 6, 7, 8] {
            // Games ended by resigning after a few moves: quick to review.
            let (id, _) = play(&mut page, Some(plies)).await;
            send(&mut page, &json!({"type": "resign"})).await;
            let over = settled(&mut page).await;
            assert!(!over["result"].is_null(), "{over}");
            ids.push(id);
        }
        for id in &ids {
            let (code, review, _) = review(server, id).await;
            assert_eq!(code, 200, "{id}: {review}");
        }
    });
}

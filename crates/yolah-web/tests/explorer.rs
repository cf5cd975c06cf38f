//! `/explorer.json`: the analysis board's opening explorer answers from the
//! database `yolah serve --explorer` read, as `yolah explorer DB --json` does; bad queries are
//! `400` with one reason, and a server without a database says so (`404`).

mod common;

use common::{board_server, board_server_with, connect, get, next, send, small_explorer};
use serde_json::{Value, json};
use std::sync::Arc;

#[test]
fn the_explorer_answers_from_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let config = yolah_web::Config {
        explorer: Some(Arc::new(small_explorer())),
        ..yolah_web::Config::default()
    };
    let (address, runtime) = board_server_with(&dir.path().join("games.sqlite"), 0, config);
    runtime.block_on(async {
        let start = yolah_core::START.replace(' ', "+");
        let (code, body) = get(address, &format!("/explorer.json?position={start}")).await;
        assert_eq!(code, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(answer["games"], 3);
        assert_eq!(answer["side"], "black");
        assert_eq!(answer["moves"][0]["move"], "a1:c3");
        assert_eq!(answer["moves"][0]["games"], 2);
        assert_eq!(answer["moves"][0]["score"], 0.75);
        assert_eq!(answer["moves"][1]["move"], "h8:h5");
        assert_eq!(answer["book"], answer["moves"][0]["move"], "{answer}");
        assert_eq!(answer["moves"][0]["book"], true);
        let long = "x".repeat(300);
        for (bad, why) in [
            ("/explorer.json", "ask ?position="),
            ("/explorer.json?position=nonsense", "bad position"),
            (
                &format!("/explorer.json?position={long}") as &str,
                "too long",
            ),
            (
                &format!("/explorer.json?position={start}&more=1") as &str,
                "nothing else",
            ),
            (
                &format!("/explorer.json?position={start}&source=web") as &str,
                "database or games",
            ),
        ] {
            let (code, body) = get(address, bad).await;
            assert_eq!(code, 400, "{bad}: {body}");
            let error: Value = serde_json::from_str(&body).unwrap();
            assert!(
                error["error"].as_str().unwrap().contains(why),
                "{bad}: {body}"
            );
        }
    });
    runtime.shutdown_background();
    // Without a database: said, not guessed.
    let (address, runtime) = board_server(&dir.path().join("other.sqlite"), 0);
    runtime.block_on(async {
        let start = yolah_core::START.replace(' ', "+");
        let (code, body) = get(address, &format!("/explorer.json?position={start}")).await;
        assert_eq!(code, 404, "{body}");
        assert!(body.contains("yolah serve --explorer DB"), "{body}");
        // This server's own games: none finished yet.
        let games = format!("/explorer.json?position={start}&source=games");
        let (code, body) = get(address, &games).await;
        assert_eq!(code, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (&answer["games"], &answer["moves"]),
            (&json!(0), &json!([]))
        );
    });
    runtime.shutdown_background();
}

/// A finished game of the server's is in its explorer's `games` source at once.
#[test]
fn a_finished_game_is_in_the_servers_own_explorer() {
    let dir = tempfile::tempdir().unwrap();
    let (address, runtime) = board_server(&dir.path().join("games.sqlite"), 0);
    runtime.block_on(async {
        let mut page = connect(address).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "random", "white": "random:seed=3", "tc": "none"}),
        )
        .await;
        let start = std::time::Instant::now();
        let over = loop {
            let state = next(&mut page, "state").await;
            if state["result"].is_string() {
                break state;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "no end"
            );
        };
        let first = over["moves"][0].as_str().unwrap().to_string();
        let notation = yolah_core::START.replace(' ', "+");
        let path = format!("/explorer.json?position={notation}&source=games");
        let begin = std::time::Instant::now();
        loop {
            let (code, body) = get(address, &path).await;
            assert_eq!(code, 200, "{body}");
            let answer: Value = serde_json::from_str(&body).unwrap();
            if answer["games"] == 1 {
                assert_eq!(answer["moves"][0]["move"], first.as_str(), "{answer}");
                break;
            }
            assert!(
                begin.elapsed() < std::time::Duration::from_secs(10),
                "{answer}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    });
    runtime.shutdown_background();
}

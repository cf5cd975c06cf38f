//! The board's review of a long game in a process of its own (so that no other test's server
//! shares the memory measured): it shows progress, ends, and `/health` says what the process
//! holds, which stays within the review's bound of what it held before.

mod common;

use common::{board_server_with, connect, get, next, post, send, settled};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn address(id: &str) -> String {
    format!("/games/{id}/review.json")
}

/// The random game whose review once ran for minutes, grew past a gigabyte and stalled the
/// board's queue at "128 of 152" while `/health` said 160 MiB: on the board its review shows
/// progress, ends, and `/health` says what the process holds, which stays within the review's
/// bound of what it held before.
#[test]
fn a_long_review_ends_in_bounded_memory_and_health_says_what_the_process_holds() {
    let moves: Vec<String> = include_str!("../../yolah-ai/tests/data/long_review_game.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let config = yolah_web::Config {
        review: yolah_ai::review::Settings {
            nodes: 300,
            time: Duration::from_secs(5),
            ..yolah_ai::review::Settings::default()
        },
        ..yolah_web::Config::default()
    };
    // The shared network is loaded before the memory is read: it is not the review's.
    drop(yolah_ai::eval::network::Network::shipped());
    let (server, runtime) = board_server_with(&dir.path().join("games.sqlite"), 0, config);
    runtime.block_on(async {
        let mut page = connect(server).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "human"}),
        )
        .await;
        let id = next(&mut page, "game").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut state = settled(&mut page).await;
        for m in &moves {
            // The board plays a forced pass itself.
            if m == "a1:a1" && !state["legal"].as_array().unwrap().contains(&json!(m)) {
                continue;
            }
            send(&mut page, &json!({"type": "play", "move": m})).await;
            state = settled(&mut page).await;
        }
        assert!(!state["result"].is_null(), "{state}");
        let health = |body: String| -> Value { serde_json::from_str(&body).unwrap() };
        let before = health(get(server, "/health").await.1);
        let resident = before["memory_mb"].as_u64().expect("Linux says");
        assert!(resident > 0, "{before}");
        let (mut code, _) = post(server, &address(&id), "").await;
        let (mut peak, mut seen) = (0, Vec::new());
        let deadline = Instant::now() + Duration::from_mins(5);
        while code == 202 {
            assert!(
                Instant::now() < deadline,
                "the review never ended: {seen:?}"
            );
            let now = health(get(server, "/health").await.1);
            peak = peak.max(now["memory_mb"].as_u64().unwrap());
            let body;
            (code, body) = get(server, &address(&id)).await;
            let json: Value = serde_json::from_str(&body).unwrap();
            if json["status"] == "reviewing" {
                seen.push(json["done"].as_u64().unwrap());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(code, 200);
        assert!(seen.len() > 1, "progress shown: {seen:?}");
        let bound = resident + yolah_ai::review::MEMORY_MB + 64;
        assert!(
            peak <= bound,
            "{peak} MiB held, {resident} before the review"
        );
    });
}

//! `/explorer.json` (issue 57, item 2): the analysis board's opening explorer answers from the
//! database `yolah serve --explorer` read, as `yolah explorer DB --json` does; bad queries are
//! `400` with one reason, and a server without a database says so (`404`).

mod common;

use common::{board_server, board_server_with, get, small_explorer};
use serde_json::Value;
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
        let (code, body) = get(address, "/explorer.json?position=startpos").await;
        assert_eq!(code, 404, "{body}");
        assert!(body.contains("yolah serve --explorer DB"), "{body}");
    });
    runtime.shutdown_background();
}

//! On a database of a million games, a deep page of the archive costs what
//! the first does, and four readers walking the archive do not hold up a player's moves.
//! Timings a busy machine can bend: ignored, run on its own by `.ci/run` (test programs run one
//! after another there). `YOLAH_ARCHIVE_GAMES` sets the number of games (1,000,000).
//!
//! `cargo test -p yolah-web --test archive_load -- --ignored --nocapture` prints the figures.

mod common;

use common::{connect, get, send, settled};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Fills the database at `db` (already made by the store) with `n` games of one move each,
/// one a second, as a long-lived server's archive would hold.
fn fill(db: &std::path::Path, n: usize) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    let saved = serde_json::json!({
        "black": "human", "white": "random",
        "start": yolah_core::Position::start().to_string(),
        "tc": null, "moves": ["a1:c3"], "clocks": [], "flagged": null, "resigned": null,
        "turn_ms": 0, "paused": false, "result": null
    })
    .to_string();
    let tx = conn.transaction().unwrap();
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO games (id, kind, black_token, white_token, holder, created, updated,
                                    game, plies, result)
                 VALUES (?1, 'own', 't', 't', NULL, ?2, ?2, ?3, 1, NULL)",
            )
            .unwrap();
        for k in 0..n {
            let created = i64::try_from(k).unwrap();
            insert
                .execute(rusqlite::params![format!("{k:016x}"), created, saved])
                .unwrap();
        }
    }
    tx.commit().unwrap();
}

/// The old way of finding the deepest page (count, then OFFSET), timed on the same file for
/// comparison: its time and the first id on it.
fn count_and_offset(db: &std::path::Path) -> (Duration, String) {
    let reader = rusqlite::Connection::open(db).unwrap();
    let offset = Instant::now();
    let total: i64 = reader
        .query_row("SELECT count(*) FROM games WHERE plies > 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    let deep: String = reader
        .query_row(
            "SELECT id FROM games WHERE plies > 0 ORDER BY created DESC, id LIMIT 20 OFFSET ?1",
            [total - 20],
            |r| r.get(0),
        )
        .unwrap();
    (offset.elapsed(), deep)
}

/// The median and the largest of `times`, ms.
fn median_max(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[times.len() / 2]), ms(times[times.len() - 1]))
}

#[test]
#[ignore = "timing on a million-game database: run on its own"]
fn a_deep_archive_page_and_four_readers_do_not_slow_a_move() {
    let n: usize = std::env::var("YOLAH_ARCHIVE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    drop(yolah_web::Store::open(&db).unwrap());
    let started = Instant::now();
    fill(&db, n);
    eprintln!(
        "{n} games written in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let (offset, deep) = count_and_offset(&db);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let store = Arc::new(yolah_web::Store::open(&db).unwrap());
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(yolah_web::serve(
            listener,
            yolah_web::Config::default(),
            store,
        ));
        // The deepest page, by its cursor: the twenty oldest games.
        let cursor = format!("/games.json?older=20-{:016x}", 20);
        let mut pages = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            let (code, body) = get(address, &cursor).await;
            pages.push(t.elapsed());
            assert_eq!(code, 200, "{body}");
            assert!(body.contains(&format!("{:016x}", 0)), "the oldest game is on it");
        }
        let (page_median, page_max) = median_max(&mut pages);
        eprintln!(
            "deepest page by cursor: median {page_median:.1} ms, max {page_max:.1} ms; \
             count + OFFSET on the same file: {:.1} ms ({deep})",
            offset.as_secs_f64() * 1e3
        );

        // Four readers walking the archive while a person plays people's moves.
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let readers: Vec<_> = (0..4)
            .map(|r| {
                let stop = Arc::clone(&stop);
                tokio::spawn(async move {
                    let mut reads = 0u32;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let at = (r * 250_000 + reads as usize * 997) % n.max(1);
                        let path = format!("/games.json?older={at}-{at:016x}&per_page=100");
                        let (code, _) = get(address, &path).await;
                        assert_eq!(code, 200);
                        reads += 1;
                    }
                    reads
                })
            })
            .collect();
        let mut page = connect(address).await;
        send(
            &mut page,
            &json!({"type": "new", "black": "human", "white": "human", "tc": "none"}),
        )
        .await;
        let mut state = settled(&mut page).await;
        let mut moves = Vec::new();
        while state["result"].is_null() && moves.len() < 40 {
            let t = Instant::now();
            send(&mut page, &json!({"type": "play", "move": state["legal"][0]})).await;
            state = settled(&mut page).await;
            moves.push(t.elapsed());
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut reads = 0;
        for reader in readers {
            reads += reader.await.unwrap();
        }
        let (move_median, move_max) = median_max(&mut moves);
        eprintln!(
            "{} moves beside four archive readers ({reads} pages read): median {move_median:.1} ms, \
             max {move_max:.1} ms",
            moves.len()
        );
        assert!(page_max < 1000.0, "the deepest page took {page_max:.0} ms");
        assert!(move_max < 1000.0, "a move took {move_max:.0} ms beside the readers");
    });
    runtime.shutdown_background();
}

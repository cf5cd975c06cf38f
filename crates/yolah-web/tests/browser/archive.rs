//! Games kept: a reload and a restart, the archive, history between views, an adjourned game.

use crate::common::board_server;
use crate::support::*;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The clocks as the page shows them, ms.
async fn clocks_shown(client: &Client) -> (u64, u64) {
    let shown = run(
        client,
        "return [Number(document.getElementById('clock-black').dataset.ms),
                 Number(document.getElementById('clock-white').dataset.ms)];",
    )
    .await;
    (shown[0].as_u64().unwrap(), shown[1].as_u64().unwrap())
}

/// A game against a level on a clock comes back after a reload and
/// after the server restarts (same moves, same clocks: a clock does not run while the server
/// is down); played to its end, it is in the archive (`/games`, and "My games"), which opens
/// it on the board at its last position, only to look at.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn games_survive_a_reload_and_a_restart_and_fill_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let port = free_port();
    let mut server = board_server(&db, port).1;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, log) = browser(width, height).await;
        client
            .goto(&format!("http://127.0.0.1:{port}/"))
            .await
            .unwrap();
        wait_for(&client, "connected", |p| p["connected"] == "yes").await;
        let tc = client.find(Locator::Id("tc")).await.unwrap();
        tc.send_keys("5min+2s").await.unwrap();
        level_game(&client, 1, "black").await;
        let mut now = wait_for(&client, "a game against level 1", |p| {
            p["players"] == "human|random" && p["human"] == "yes"
        })
        .await;
        for _ in 0..2 {
            now = play_first(&client, &now).await;
        }
        let before = clocks_shown(&client).await;
        client.refresh().await.unwrap();
        let reloaded = wait_for(&client, "the game after a reload", |p| {
            p["connected"] == "yes" && p["ply"] == now["ply"]
        })
        .await;
        assert_eq!(reloaded["moves"], now["moves"], "{name}");
        assert_eq!(reloaded["players"], "human|random");
        // The reopened game's own settings are in its New-game form, as a person reads them.
        let form = run(
            &client,
            "const shown = (id) => { const e = document.getElementById(id);
                                      return e.selectedOptions ? e.selectedOptions[0].textContent : e.value; };
             return [shown('mode'), shown('level'), shown('colour'), shown('tc')];",
        )
        .await;
        assert_eq!(
            form,
            json!([
                "the machine, by level",
                "level 1 (moves at random)",
                "black (moves first)",
                "5min+2s"
            ]),
            "{name}"
        );
        let after = clocks_shown(&client).await;
        assert_eq!(after.1, before.1, "{name}: white's clock, not running");
        assert!(
            after.0 <= before.0 && after.0 + 5000 > before.0,
            "{name}: {before:?} {after:?}"
        );
        // The server goes down with the page open, and comes back on the same file.
        server.shutdown_background();
        wait_for(&client, "the page sees the server go", |p| {
            p["connected"] == "no"
        })
        .await;
        server = board_server(&db, port).1;
        let restarted = wait_for(&client, "the game after a restart", |p| {
            p["connected"] == "yes" && p["ply"] == now["ply"] && p["human"] == "yes"
        })
        .await;
        assert_eq!(restarted["moves"], now["moves"], "{name}");
        assert_eq!(clocks_shown(&client).await.1, before.1, "{name}");
        now = restarted;
        while now["result"] == "" {
            now = play_first(&client, &now).await;
        }
        final_board(&client, &now).await;
        archive_opens(&client, port, &now, name, width).await;
        assert_no_console_errors(&client, log, name).await;
        client.close().await.unwrap();
    }
    server.shutdown_background();
}

/// The archive lists the game just played (this browser's, "My games") and opens it at its
/// last position; without its token (another person's browser) it is only shown.
async fn archive_opens(client: &Client, port: u16, now: &Value, name: &str, width: u32) {
    // The archive lists it (newest first) and opens it.
    client
        .goto(&format!("http://127.0.0.1:{port}/games?mine=1"))
        .await
        .unwrap();
    let row = wait_for_row(client).await;
    // Players as people read them: this browser's side "you", the machine by its level.
    assert!(row["text"].as_str().unwrap().contains("● you"), "{row}");
    assert!(row["text"].as_str().unwrap().contains("○ level 1"), "{row}");
    // Its length in moves as chess players count them (pairs), and in plies.
    let plies = now["moves"].as_str().unwrap().split(' ').count();
    let length = format!("{} moves ({plies} plies)", plies.div_ceil(2));
    assert!(
        row["text"].as_str().unwrap().contains(&length),
        "{length}: {row}"
    );
    assert!(
        row["text"]
            .as_str()
            .unwrap()
            .contains(now["result"].as_str().unwrap()),
        "{row}"
    );
    assert!(on_screen(&row), "{name}: the first game {row}");
    assert!(
        row["right"].as_f64().unwrap() <= f64::from(width),
        "{name}: {row}"
    );
    archive_card_in_reading_order(client, name).await;
    screenshot(client, &format!("{name}-archive.png")).await;
    run(client, "document.querySelector('#games .game').click();").await;
    let shown = wait_for(client, "the game from the archive", |p| {
        p["connected"] == "yes" && p["moves"] == now["moves"]
    })
    .await;
    assert_eq!(shown["result"], now["result"], "{name}");
    assert_seen(client, "result").await;
    // A browser without its token (another person's) sees it only to look at.
    run(client, "localStorage.removeItem('yolah.games');").await;
    client.refresh().await.unwrap();
    let shown = wait_for(client, "the game shown to another person", |p| {
        p["connected"] == "yes" && p["moves"] == now["moves"]
    })
    .await;
    assert_eq!(shown["human"], "no", "{name}: only shown, nobody to move");
    // In the archive of a browser without its token, its person is not "you"; Back brings
    // the game again (its page reconnects from the back-forward cache).
    client
        .goto(&format!("http://127.0.0.1:{port}/games"))
        .await
        .unwrap();
    let row = wait_for_row(client).await;
    assert!(
        row["text"].as_str().unwrap().contains("● a person"),
        "{name}: {row}"
    );
    client.back().await.unwrap();
    wait_for(client, "the game shown again", |p| {
        p["connected"] == "yes" && p["moves"] == now["moves"]
    })
    .await;
    let status = run(
        client,
        "return document.getElementById('status').textContent;",
    )
    .await;
    assert!(
        status.as_str().unwrap().contains("from the archive"),
        "{status}"
    );
    assert_seen(client, "analyse").await;
    assert_unseen(client, "undo").await;
    assert_unseen(client, "banner").await;
}

/// The archive's first card has its parts in reading order: on a phone's two
/// columns, the date on a line of its own, then the players side by side, then the result and
/// the length; on a desktop, all on one line from left to right.
async fn archive_card_in_reading_order(client: &Client, name: &str) {
    let boxes = run(
        client,
        "const card = document.querySelector('#games .game');
         const at = (cls) => { const b = card.querySelector('.' + cls).getBoundingClientRect();
                               return [Math.round(b.top), Math.round(b.left)]; };
         return {date: at('date'), black: at('black'), white: at('white'),
                 result: at('result'), length: at('length')};",
    )
    .await;
    let top = |k: &str| boxes[k][0].as_f64().unwrap();
    let left = |k: &str| boxes[k][1].as_f64().unwrap();
    // One line: tops a few pixels apart (cells of different sizes are centred on it).
    let line = |a: &str, b: &str| (top(a) - top(b)).abs() < 8.0;
    if name == "phone" {
        assert!(
            top("date") < top("black") && top("black") < top("result"),
            "{name}: {boxes}"
        );
        assert!(
            line("black", "white") && left("black") < left("white"),
            "{name}: {boxes}"
        );
        assert!(
            line("result", "length") && left("result") < left("length"),
            "{name}: {boxes}"
        );
        assert!(
            !line("date", "black") && !line("black", "result"),
            "{name}: {boxes}"
        );
    } else {
        let order = ["date", "black", "white", "result", "length"];
        assert!(
            order.windows(2).all(|w| left(w[0]) < left(w[1])),
            "{name}: {boxes}"
        );
    }
}

/// The archive's first game row as a person sees it (waits for the list to load).
async fn wait_for_row(client: &Client) -> Value {
    let start = Instant::now();
    loop {
        let row = run(
            client,
            "const e = document.querySelector('#games .game');
             if (!e) return null;
             const style = getComputedStyle(e);
             const box = e.getBoundingClientRect();
             return {display: style.display, visibility: style.visibility, text: e.textContent,
                     width: box.width, height: box.height, right: box.right};",
        )
        .await;
        if !row.is_null() {
            return row;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no game listed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Analyse after a game and "Back to playing" return to that game (its id,
/// moves and clocks), not a new one; each view is an entry of the browser's history, so
/// Back and Forward move between the game, its analysis and the landing (never `data:,`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn back_to_playing_returns_to_the_game_and_history_moves_between_views() {
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        wait_for(&client, "connected", |p| p["connected"] == "yes").await;
        let tc = client.find(Locator::Id("tc")).await.unwrap();
        tc.send_keys("5min+3s").await.unwrap();
        level_game(&client, 1, "black").await;
        let mut now = wait_for(&client, "a game against level 1", |p| {
            p["players"] == "human|random" && p["human"] == "yes"
        })
        .await;
        for _ in 0..5 {
            now = play_first(&client, &now).await;
        }
        assert_eq!(now["ply"], "10", "{name}");
        click(&client, "resign").await;
        let game = wait_for(&client, "resigned", |p| p["result"] != "").await;
        let game_address = address_shown(&client).await;
        assert!(
            game_address.starts_with("/?game="),
            "{name}: {game_address}"
        );
        let clocks = clocks_shown(&client).await;
        click(&client, "banner-close").await;
        assert_seen(&client, "analyse").await;
        click(&client, "analyse").await;
        wait_for(&client, "the analysis of the game", |p| {
            p["analysis"] == "yes" && p["moves"] == game["moves"]
        })
        .await;
        let back_to_the_game = |client: &Client, what: &'static str| {
            let client = client.clone();
            let (game, game_address) = (game.clone(), game_address.clone());
            async move {
                let shown = wait_for(&client, what, |p| {
                    p["analysis"] == "no" && p["moves"] == game["moves"]
                })
                .await;
                assert_eq!(shown["result"], game["result"], "{name}: {what}");
                assert_eq!(address_shown(&client).await, game_address, "{name}: {what}");
                assert_eq!(clocks_shown(&client).await, clocks, "{name}: {what}");
            }
        };
        click(&client, "analyse").await;
        back_to_the_game(&client, "Back to playing").await;
        // Forward: the analysis again; Back: the game.
        client.forward().await.unwrap();
        wait_for(&client, "Forward to the analysis", |p| {
            p["analysis"] == "yes" && p["moves"] == game["moves"]
        })
        .await;
        assert!(address_shown(&client).await.contains("moves="), "{name}");
        client.back().await.unwrap();
        back_to_the_game(&client, "Back to the game").await;
        // Back from the game: the landing it was chosen on, not the browser's blank page.
        client.back().await.unwrap();
        wait_for(&client, "the landing", |p| p["connected"] == "yes").await;
        assert_eq!(address_shown(&client).await, "/", "{name}");
        assert_seen(&client, "landing").await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// A game left for a new one is "adjourned" in the archive, "resume" on
/// this browser's; its row takes it up where it stopped, and the person moves on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_game_left_is_adjourned_in_the_archive_and_resumed() {
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        level_game(&client, 1, "black").await;
        let now = wait_for(&client, "a game against level 1", |p| {
            p["players"] == "human|random" && p["human"] == "yes"
        })
        .await;
        let left = play_first(&client, &now).await;
        let id = run(&client, "return page.kept.id;").await;
        let id = id.as_str().unwrap().to_string();
        // New game: the first is left.
        level_game(&client, 1, "black").await;
        wait_for(&client, "the new game", |p| p["ply"] == "0").await;
        client
            .goto(&format!("http://{address}/games?mine=1"))
            .await
            .unwrap();
        wait_for_row(&client).await;
        let row = run(
            &client,
            &format!(
                "const row = document.querySelector('#games a[href=\"/?game={id}\"]');
                 const result = row.querySelector('.result');
                 const box = result.getBoundingClientRect();
                 return {{text: result.innerText, width: box.width, height: box.height,
                         display: getComputedStyle(result).display,
                         visibility: getComputedStyle(result).visibility}};"
            ),
        )
        .await;
        assert_eq!(row["text"], "adjourned: resume", "{name}: {row}");
        assert!(on_screen(&row), "{name}: {row}");
        run(
            &client,
            &format!("document.querySelector('#games a[href=\"/?game={id}\"]').click();"),
        )
        .await;
        let resumed = wait_for(&client, "the game taken up", |p| {
            p["connected"] == "yes" && p["moves"] == left["moves"] && p["human"] == "yes"
        })
        .await;
        play_first(&client, &resumed).await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

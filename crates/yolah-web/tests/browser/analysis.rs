//! Analysis: what a game in play hides, bad links, three lines and the proof, the explorer.

use crate::common::small_explorer;
use crate::support::*;
use fantoccini::Client;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use yolah_core::Move;

/// No analysis, evaluation or engine line of a game one plays while it is
/// played (as on lichess), against a level or a friend; the server refuses a seated
/// player's analysis of it too. Once the game is over, Analyse is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn no_analysis_of_a_game_while_one_plays_it() {
    // What the page would send to analyse the game it shows (as its Analyse button did).
    const ANALYSE: &str = "document.getElementById('error').textContent = '';
        page.socket.send(JSON.stringify({ type: 'new', black: 'human', white: 'human',
            analysis: true, position: page.state.start, moves: page.state.moves }));";
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        wait_for(&client, "connected", |p| p["connected"] == "yes").await;
        custom_game(&client, "human", "minimax:depth=3").await;
        let now = wait_for(&client, "our turn", |p| {
            p["human"] == "yes" && p["ply"] == "0"
        })
        .await;
        play_first(&client, &now).await;
        wait_for(&client, "the machine's report", |p| {
            p["reports"].as_u64().unwrap() >= 1 && p["ply"] == "2"
        })
        .await;
        for id in ["analyse", "evalbar", "pv", "graph", "copy-link"] {
            assert_unseen(&client, id).await;
        }
        let report = run(
            &client,
            "return document.getElementById('report').textContent;",
        )
        .await;
        assert!(
            !report.as_str().unwrap().contains("depth"),
            "{name}: {report}"
        );
        let evaluations = run(&client, "return Object.keys(page.evals).length;").await;
        assert_eq!(evaluations, 0, "{name}: the server sent evaluations");
        run(&client, ANALYSE).await;
        let refused = wait_for(&client, "refused", |p| p["error"] != "").await;
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains("no analysis while you play"),
            "{name}: {refused}"
        );
        assert_eq!(refused["analysis"], "no", "{name}");
        click(&client, "resign").await;
        wait_for(&client, "over", |p| p["result"] != "").await;
        click(&client, "banner-close").await;
        assert_seen(&client, "analyse").await;
        click(&client, "analyse").await;
        wait_for(&client, "analysis after the end", |p| {
            p["analysis"] == "yes" && p["ply"] == "2"
        })
        .await;
        assert_no_console_errors(&client, port, name).await;

        // A friend's game: white, on its move, has no Analyse, and is refused one.
        let (_guest_driver, guest, _) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        wait_for(&client, "connected", |p| p["connected"] == "yes").await;
        click(&client, "landing-friend").await;
        wait_for(&client, "a hosted game", |p| p["seat"] == "black").await;
        let link = run(
            &client,
            "return document.getElementById('invite-link').value;",
        )
        .await;
        guest.goto(link.as_str().unwrap()).await.unwrap();
        wait_for(&guest, "the guest seated", |p| p["seat"] == "white").await;
        friend_moves(&client, &guest).await;
        wait_for(&guest, "white's turn", |p| p["human"] == "yes").await;
        assert_unseen(&guest, "analyse").await;
        run(&guest, ANALYSE).await;
        let refused = wait_for(&guest, "refused", |p| p["error"] != "").await;
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains("no analysis while you play"),
            "{name}: {refused}"
        );
        assert_eq!(refused["seat"], "white", "{name}: still seated");
        assert_eq!(
            page(&client).await["reports"],
            0,
            "{name}: the opponent is told nothing"
        );
        guest.close().await.unwrap();
        client.close().await.unwrap();
    }
}

/// A bad analysis link (a wrong move, a position that is not one) shows
/// the landing with the one-line error and a clean address, as an unknown game does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_bad_analysis_link_shows_the_landing_with_the_error() {
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        for link in ["/?moves=a1:c3,h1:f3,zz:zz", "/?position=garbage"] {
            client
                .goto(&format!("http://{address}{link}"))
                .await
                .unwrap();
            let shown = wait_for(&client, "the error", |p| p["error"] != "").await;
            assert_seen(&client, "landing").await;
            assert_seen(&client, "error").await;
            let error = shown["error"].as_str().unwrap();
            assert!(!error.contains('\n'), "{name} {link}: one line: {error}");
            // The landing's board: the start, not an empty board.
            let pieces = run(
                &client,
                "return document.querySelectorAll('#board .piece').length;",
            )
            .await;
            assert_eq!(pieces, 8, "{name} {link}");
            assert_eq!(address_shown(&client).await, "/", "{name} {link}");
            assert_eq!(shown["ply"], "", "{name} {link}: no board of nothing");
        }
        // The landing's way out works.
        click(&client, "landing-level").await;
        wait_for(&client, "a game", |p| p["ply"] == "0").await;
        assert_unseen(&client, "landing").await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// An analysis shows its three best lines with black's values; on an
/// endgame the solver settles, "proved: black wins by 3" over them and each line to the end.
/// Each line is laid out on screen, one under the other, inside the page's width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn an_analysis_shows_three_lines_and_the_proof() {
    let address = memory_server().await;
    let endgame = "x2xxwbx/2xxxxxx/1wxxxxx1/xxbxx1wx/1xxxxxxx/1b1xx1x1/3xxxxb/xx2wx1x b 19 19 38";
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        // From the start: three lines, each with black's value, no proof.
        client
            .goto(&format!("http://{address}/?moves=a1:c3,h1:f3"))
            .await
            .unwrap();
        let shown = wait_text(&client, "pv", |t| t.lines().count() == 4).await;
        assert!(shown.starts_with("best lines (depth "), "{name}: {shown}");
        assert!(!shown.contains("proved"), "{name}: {shown}");
        let rows = seen_rows(&client).await;
        assert_eq!(rows.len(), 3, "{name}: {rows:?}");
        for (k, row) in rows.iter().enumerate() {
            assert!(
                row.starts_with(&format!("{}. black ", k + 1)),
                "{name}: {row}"
            );
        }
        // The endgame: proved, the only winning move first.
        client
            .goto(&format!(
                "http://{address}/?position={}",
                endgame.replace(' ', "%20")
            ))
            .await
            .unwrap();
        let shown = wait_text(&client, "pv", |t| {
            t.contains("proved: black wins by 3") && t.lines().count() == 4
        })
        .await;
        let rows = seen_rows(&client).await;
        assert!(
            rows[0].starts_with("1. black wins by 3 b3:d1 "),
            "{name}: {shown}"
        );
        assert!(
            rows[1].starts_with("2. white wins by 2 b3:c2 "),
            "{name}: {shown}"
        );
        assert!(
            rows[2].starts_with("3. white wins by 3 b3:c3 "),
            "{name}: {shown}"
        );
        screenshot(&client, &format!("{name}-analysis-lines.png")).await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// The engine's lines as a person sees them: each row's text, every row on screen, inside
/// the window's width and below the one before it.
async fn seen_rows(client: &Client) -> Vec<String> {
    let rows = run(
        client,
        "return [...document.querySelectorAll('#pv .line')].map(row => {
             const box = row.getBoundingClientRect(), style = getComputedStyle(row);
             return {text: row.innerText.replace(/\\s+/g, ' '), top: box.top, bottom: box.bottom,
                     left: box.left, right: box.right, height: box.height,
                     visible: style.visibility === 'visible' && style.display !== 'none',
                     width: window.innerWidth};
         });",
    )
    .await;
    let rows = rows.as_array().unwrap();
    let mut above = f64::MIN;
    for row in rows {
        let number = |key: &str| row[key].as_f64().unwrap();
        assert!(row["visible"] == true && number("height") > 0.0, "{row}");
        assert!(
            number("left") >= 0.0 && number("right") <= number("width"),
            "{row}"
        );
        assert!(number("top") >= above, "{row}");
        above = number("bottom");
    }
    rows.iter()
        .map(|row| row["text"].as_str().unwrap().to_string())
        .collect()
}

/// What an analysis shows is about the position shown, or says that it
/// waits. A proof ends the search there (the analysis waits for Go); a move played then does
/// not leave the old verdict beside the new position. Stepping back through a finished
/// game's analysis, each position shows its own report, arrow and lines, or that it waits,
/// and a position analysed before shows its arrow and lines again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn an_analysis_shows_only_the_position_shown() {
    let address = memory_server().await;
    let endgame = "x2xxwbx/2xxxxxx/1wxxxxx1/xxbxx1wx/1xxxxxxx/1b1xx1x1/3xxxxb/xx2wx1x b 19 19 38";
    let (_driver, client, port) = browser(1280, 800).await;
    client
        .goto(&format!(
            "http://{address}/?position={}",
            endgame.replace(' ', "%20")
        ))
        .await
        .unwrap();
    // Proved: the search ends, and the analysis waits for Go.
    let verdict = last_word_here(&client).await;
    assert!(
        verdict.starts_with("black would play b3:d1, black +3.00 (proved)"),
        "{verdict}"
    );
    wait_text(&client, "pause", |t| t == "Go").await;
    let rows = seen_rows(&client).await;
    let line: Vec<String> = rows[0]
        .strip_prefix("1. black wins by 3 ")
        .unwrap_or_else(|| panic!("{rows:?}"))
        .split_whitespace()
        .map(String::from)
        .collect();
    lines_and_arrow_of(&client, &verdict).await;
    // A move: the verdict on the position before goes at once.
    square(&client, "b3").await.click().await.unwrap();
    square(&client, "d1").await.click().await.unwrap();
    wait_for(&client, "the move played", |p| p["ply"] != "0").await;
    report_follows(&client, &verdict, Duration::from_secs(1)).await;
    let after = last_word_here(&client).await;
    lines_and_arrow_of(&client, &after).await;
    // Back to the start: its own verdict, kept, with its lines and arrow; then the last again.
    click(&client, "first").await;
    report_follows(&client, &after, Duration::from_millis(300)).await;
    let start = last_word_here(&client).await;
    assert!(
        start.starts_with("black would play b3:d1, black +3.00 (proved)"),
        "{start}"
    );
    lines_and_arrow_of(&client, &start).await;
    click(&client, "last").await;
    report_follows(&client, &start, Duration::from_millis(300)).await;
    let last = last_word_here(&client).await;
    lines_and_arrow_of(&client, &last).await;
    // A finished game: its proved line played to the end, where nothing is left to analyse.
    client
        .goto(&format!(
            "http://{address}/?position={}&moves={}",
            endgame.replace(' ', "%20"),
            line.join(",")
        ))
        .await
        .unwrap();
    let over = wait_text(&client, "report", |t| t.contains("game is over")).await;
    // Stepping back through it: each position its own report or a wait, never the one
    // before's; then its last word, with its lines and arrow.
    let mut seen = vec![over];
    for _ in 0..line.len() {
        click(&client, "back").await;
        report_follows(&client, seen.last().unwrap(), Duration::from_millis(300)).await;
        let word = last_word_here(&client).await;
        lines_and_arrow_of(&client, &word).await;
        seen.push(word);
    }
    // And forward again: the reports kept show at once, with their lines and arrows.
    for k in (0..line.len()).rev() {
        click(&client, "forward").await;
        let (_, shown, about) = shown_report(&client).await;
        if k == 0 {
            assert_eq!(shown, seen[0]);
        } else {
            assert_eq!(about, Some(true), "{shown}");
            assert_eq!(shown, seen[k], "the verdict kept for this position");
            lines_and_arrow_of(&client, &shown).await;
        }
    }
    assert_no_console_errors(&client, port, "analysis of the position shown").await;
    client.close().await.unwrap();
}

/// Whether the report box's text `shown` is a report on the position after the first `view`
/// moves of the game (`now`): its side is the side to move there, and its move is legal there
/// (a pass where that side must pass). `None` when it names no move: then it must say that
/// it waits, is paused, or that the game is over there.
fn report_on(shown: &str, now: &Value, view: usize) -> Option<bool> {
    let head = shown.split([',', '(']).next().unwrap_or("");
    let words: Vec<&str> = head.split_whitespace().collect();
    let (side, mv) = match words.as_slice() {
        [side, "would", "play", mv] | [side, "played" | "considers", mv] => (*side, *mv),
        [side, "passed"] | [side, "must", "pass"] => (*side, "a1:a1"),
        _ => {
            assert!(
                [
                    "waiting for analysis",
                    "paused: press Go",
                    "game is over here"
                ]
                .iter()
                .any(|w| shown.contains(w)),
                "neither a report nor a wait: {shown:?}"
            );
            return None;
        }
    };
    let position = position_at(now, view);
    let legal = mv
        .parse::<Move>()
        .is_ok_and(|mv| position.check_move(mv).is_ok());
    Some(side == position.side_to_move().to_string() && legal)
}

/// The report box as a person reads it, on screen, with the page's game and the position it
/// shows read at the same moment, and what the report is about (see [`report_on`]).
async fn shown_report(client: &Client) -> (Value, String, Option<bool>) {
    assert_seen(client, "report").await;
    let now = run(
        client,
        "const b = document.body.dataset, m = document.getElementById('moves').dataset;
         return {view: b.view || '', moves: m.moves || '', start: m.start || '',
                 text: document.getElementById('report').innerText};",
    )
    .await;
    let shown = now["text"].as_str().unwrap().to_string();
    // No game yet: nothing shown.
    let Ok(view) = now["view"].as_str().unwrap().parse() else {
        return (now, shown, None);
    };
    let about = report_on(&shown, &now, view);
    (now, shown, about)
}

/// For `within`, the report box is always on the position shown or says that it waits;
/// never `old`, the report on the position shown before.
async fn report_follows(client: &Client, old: &str, within: Duration) {
    let start = Instant::now();
    while start.elapsed() < within {
        let (now, shown, about) = shown_report(client).await;
        assert_ne!(
            about,
            Some(false),
            "a report on another position than the {} shown: {shown:?}",
            now["view"]
        );
        assert_ne!(shown, old, "the report on the position before, still shown");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the report box shows the engine's last word on the position shown (Go pressed
/// if it says that it is paused there): proved, or an only move (played without a search,
/// so without a value); its text.
async fn last_word_here(client: &Client) -> String {
    let start = Instant::now();
    loop {
        let (now, shown, about) = shown_report(client).await;
        assert_ne!(
            about,
            Some(false),
            "a report on another position than the {} shown: {shown:?}",
            now["view"]
        );
        let last_word = shown.contains(" would play ") || shown.contains(" passed");
        if about == Some(true) && last_word && (shown.contains("(proved)") || !shown.contains('%'))
        {
            return shown;
        }
        if shown.contains("paused: press Go") {
            assert_eq!(text(client, "pause").await, "Go");
            click(client, "pause").await;
            wait_text(client, "report", |t| !t.contains("paused")).await;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no last word on the position shown: {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The engine's lines under a proved `report` on screen, the first from its move, and (but
/// for a pass) its move as the arrow on the board; none under an only move's (no value).
async fn lines_and_arrow_of(client: &Client, report: &str) {
    if !report.contains("(proved)") {
        assert_unseen(client, "pv").await;
        assert_unseen(client, "arrow").await;
        return;
    }
    assert_seen(client, "pv").await;
    let lines = text(client, "pv").await;
    assert!(lines.contains("proved: "), "{lines}");
    let rows = seen_rows(client).await;
    let mv = report
        .split([',', '('])
        .next()
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap();
    if report.contains(" passed") {
        assert!(rows[0].contains(" a1:a1"), "{report}: {rows:?}");
        assert_unseen(client, "arrow").await;
    } else {
        assert!(
            rows[0].split_whitespace().any(|w| w == mv),
            "{report}: {rows:?}"
        );
        arrow_from_to(client, mv, report).await;
    }
}

/// The opening explorer beside the analysis board, from the server's
/// database: the moves played from the position shown with their games and score, the book's
/// starred; a move clicked is played, and the explorer follows; never while a person plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn the_explorer_follows_the_analysis_board() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let config = yolah_web::Config {
        explorer: Some(std::sync::Arc::new(small_explorer())),
        ..yolah_web::Config::default()
    };
    tokio::spawn(yolah_web::serve(
        listener,
        config,
        yolah_web::Store::memory(),
    ));
    let rows = |client: &Client| {
        let client = client.clone();
        async move {
            run(
                &client,
                "return [...document.querySelectorAll('#explorer .move-row')]
                     .filter(r => r.getBoundingClientRect().height > 0)
                     .map(r => r.innerText.replace(/\\s+/g, ' ').trim());",
            )
            .await
        }
    };
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        // While a person plays, no explorer.
        client.goto(&format!("http://{address}/")).await.unwrap();
        level_game(&client, 1, "black").await;
        wait_for(&client, "a game", |p| p["human"] == "yes").await;
        assert_unseen(&client, "explorer").await;
        // A finished game of the server's, for its own tab.
        custom_game(&client, "random", "random").await;
        let over = wait_for(&client, "the game's end", |p| {
            p["result"] != "" && p["players"] == "random|random"
        })
        .await;
        let first = over["moves"]
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        // An analysis from the start.
        let start = yolah_core::START.replace(' ', "%20");
        client
            .goto(&format!("http://{address}/?position={start}"))
            .await
            .unwrap();
        wait_for(&client, "the analysis", |p| {
            p["analysis"] == "yes" && p["ply"] == "0"
        })
        .await;
        wait_text(&client, "explorer", |t| t.contains("3 games from here")).await;
        assert_seen(&client, "explorer").await;
        assert_eq!(
            rows(&client).await,
            json!(["a1:c3 ★ 2 75 %", "h8:h5 1 0 %"]),
            "{name}"
        );
        screenshot(&client, &format!("{name}-explorer.png")).await;
        // A move clicked is played; the explorer shows the position after it.
        run(
            &client,
            "document.querySelector('#explorer .move-row').click();",
        )
        .await;
        wait_for(&client, "a1:c3 played", |p| p["moves"] == "a1:c3").await;
        wait_text(&client, "explorer", |t| t.contains("2 games from here")).await;
        assert_eq!(
            rows(&client).await,
            json!(["a8:b7 1 50 %", "h1:f3 1 0 %"]),
            "{name}: white's score"
        );
        // Back at the start (viewing), the start's moves again.
        key(&client, "Home").await;
        wait_text(&client, "explorer", |t| t.contains("3 games from here")).await;
        // The server's own games: the random game, and every finished game before it here.
        click(&client, "explorer-games").await;
        let own = wait_text(&client, "explorer", |t| t.contains("from here")).await;
        assert!(
            rows(&client)
                .await
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r.as_str().unwrap().starts_with(&first)),
            "{name}: {first}: {own}"
        );
        click(&client, "explorer-database").await;
        wait_text(&client, "explorer", |t| t.contains("3 games from here")).await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

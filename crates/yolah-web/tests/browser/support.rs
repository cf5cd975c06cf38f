//! What every page test uses: the browser and its driver, reading and driving the page.

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use yolah_core::{Cell, Color, Move, Position};

pub(crate) const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver, killed when dropped.
pub(crate) struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Chromium at `width`×`height` CSS pixels (a phone's: touch and its device scale), and the
/// port of its chromedriver (for the console log).
pub(crate) async fn browser(width: u32, height: u32) -> (Driver, Client, u16) {
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (apt-get install chromium chromium-driver)"),
    );
    let mut options = json!({
        "binary": CHROMIUM,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", format!("--window-size={width},{height}")]
    });
    if width < 700 {
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": true}
        });
    }
    let capabilities = json!({
        "goog:chromeOptions": options,
        "goog:loggingPrefs": {"browser": "ALL"}
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let start = Instant::now();
    loop {
        // Plain HTTP to chromedriver on loopback: no TLS library to build.
        match ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return (driver, client, port),
            Err(error) => {
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "chromedriver answers: {error}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// The browser's console messages so far (chromedriver's log, emptied as it is read).
pub(crate) async fn console(client: &Client, port: u16) -> Vec<Value> {
    let session = client.session_id().await.unwrap().expect("a session");
    let body = r#"{"type":"browser"}"#;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let request = format!(
        "POST /session/{session}/se/log HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // chromedriver keeps the connection open: read the headers, then Content-Length bytes.
    let mut response = Vec::new();
    let mut buffer = [0; 4096];
    let body = loop {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .expect("chromedriver answers the log request")
            .unwrap();
        assert!(
            read > 0,
            "chromedriver closed: {}",
            String::from_utf8_lossy(&response)
        );
        response.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&response).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .expect("a Content-Length");
            if body.len() >= length {
                break body[..length].to_string();
            }
        }
    };
    let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    answer["value"].as_array().cloned().unwrap_or_default()
}

/// What the page shows, read from its elements' data attributes.
pub(crate) async fn page(client: &Client) -> Value {
    client
        .execute(
            "const b = document.body.dataset;
             const m = document.getElementById('moves').dataset;
             const r = document.getElementById('report').dataset;
             return {human: b.human || '', ply: b.ply || '', legal: b.legal || '',
                     players: b.players || '', view: b.view || '', viewing: b.viewing || '',
                     analysis: b.analysis || '', paused: b.paused || '', thinking: b.thinking || '',
                     flipped: b.flipped || '', seat: b.seat || '', friend: b.friend || '',
                     connected: b.connected || '', side: b.side || '',
                     takeback: b.takeback || '',
                     reports: Number(r.count || 0), report_ply: r.ply || '',
                     banner: document.getElementById('banner').hidden ? '' :
                             document.getElementById('banner-text').textContent,
                     error: document.getElementById('error').textContent,
                     result: document.getElementById('result').dataset.result || '',
                     moves: m.moves || '', start: m.start || ''};",
            vec![],
        )
        .await
        .unwrap()
}

/// Waits until `done` holds of the page (30 s at most).
pub(crate) async fn wait_for(client: &Client, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let now = page(client).await;
        if done(&now) {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what}: the page shows {now}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Clicks the element with this id.
pub(crate) async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Runs a line of script on the page.
pub(crate) async fn run(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// A new game against a level, the person playing `colour`.
pub(crate) async fn level_game(client: &Client, level: u32, colour: &str) {
    run(
        client,
        &format!(
            "document.getElementById('mode').value = 'level';
             document.getElementById('level').value = '{level}';
             document.getElementById('colour').value = '{colour}';
             document.getElementById('mode').dispatchEvent(new Event('change'));"
        ),
    )
    .await;
    click(client, "new").await;
}

/// A new game between custom players (`human` or specs).
pub(crate) async fn custom_game(client: &Client, black: &str, white: &str) {
    run(
        client,
        "document.getElementById('mode').value = 'custom';
         document.getElementById('mode').dispatchEvent(new Event('change'));",
    )
    .await;
    for (id, value) in [("black", black), ("white", white)] {
        let input = client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(value).await.unwrap();
    }
    click(client, "new").await;
}

pub(crate) async fn square(client: &Client, name: &str) -> fantoccini::elements::Element {
    client
        .find(Locator::Css(&format!("[data-square='{name}']")))
        .await
        .unwrap()
}

/// Clicks the first legal move (piece, then its marked target) and waits for the page to
/// take it (and a machine's reply, in a game against one).
pub(crate) async fn play_first(client: &Client, now: &Value) -> Value {
    let legal = now["legal"].as_str().unwrap().to_string();
    let mv = legal.split(' ').next().unwrap();
    let (from, to) = mv.split_once(':').unwrap();
    square(client, from).await.click().await.unwrap();
    let target = square(client, to).await;
    let class = target.attr("class").await.unwrap().unwrap_or_default();
    assert!(class.contains("target"), "{to} marked: {class}");
    target.click().await.unwrap();
    wait_for(client, "the move taken", |p| {
        p["ply"] != now["ply"] && (p["result"] != "" || p["human"] == "yes")
    })
    .await
}

/// The engine's position after the first `count` moves of the game the page shows (`now`).
pub(crate) fn position_at(now: &Value, count: usize) -> Position {
    let mut position: Position = now["start"].as_str().unwrap().parse().unwrap();
    for text in now["moves"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .take(count)
    {
        let mv: Move = text.parse().unwrap();
        assert_eq!(position.check_move(mv), Ok(()), "{text}");
        position.play(mv);
    }
    position
}

/// The board shown, square by square, against the engine's position after the first `count`
/// moves of the game.
pub(crate) async fn board_shows(client: &Client, now: &Value, count: usize) {
    let position = position_at(now, count);
    let cells = run(
        client,
        "const c = {}; document.querySelectorAll('[data-square]')
           .forEach(d => c[d.dataset.square] = d.dataset.cell); return c;",
    )
    .await;
    for square in yolah_core::Square::all() {
        let expected = match position.cell(square) {
            Cell::Piece(Color::Black) => "black",
            Cell::Piece(Color::White) => "white",
            Cell::Hole => "hole",
            Cell::Empty => "empty",
        };
        assert_eq!(
            cells[square.to_string()],
            expected,
            "{square} after {count} moves"
        );
    }
}

pub(crate) async fn key(client: &Client, key: &str) {
    // WebDriver's key codes: Left, Right, Home, End.
    let code = match key {
        "ArrowLeft" => "\u{E012}",
        "ArrowRight" => "\u{E014}",
        "Home" => "\u{E011}",
        "End" => "\u{E010}",
        _ => unreachable!(),
    };
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(code)
        .await
        .unwrap();
}

pub(crate) async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("YOLAH_SCREENSHOTS") {
        run(client, "window.scrollTo(0, 0);").await;
        // The last move's slide ends first (160 ms).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(path, client.screenshot().await.unwrap()).unwrap();
    }
}

/// A fresh page has a name and offers a choice (the machine, a friend, analysis)
/// rather than a game already started; the machine's button starts one against level 6.
pub(crate) async fn landing(client: &Client, name: &str) {
    wait_for(client, "connected", |p| p["connected"] == "yes").await;
    for id in [
        "masthead",
        "landing",
        "landing-level",
        "landing-friend",
        "landing-analyse",
    ] {
        assert_seen(client, id).await;
    }
    let title = run(
        client,
        "return document.querySelector('#masthead h1').textContent;",
    )
    .await;
    assert_eq!(title, "Yolah");
    assert_eq!(page(client).await["ply"], "", "no game before a choice");
    // No clock in a game without one: its empty frames are not drawn either.
    assert_unseen(client, "clocks").await;
    // Controls act only when they can: with no game, none of the game's.
    for id in ["undo", "resign", "flip", "analyse", "pause"] {
        assert_unseen(client, id).await;
    }
    screenshot(client, &format!("{name}-landing.png")).await;
    // The rules' diagrams, with their captions apart (at least 8 px between
    // two on one row, none over another).
    let crowded = run(
        client,
        "document.getElementById('rules').open = true;
         const boxes = [...document.querySelectorAll('#diagrams .figure')]
             .map(f => f.getBoundingClientRect());
         const close = [];
         for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
             const a = boxes[i], b = boxes[j];
             const rows = a.top < b.bottom && b.top < a.bottom;
             const gap = Math.max(b.left - a.right, a.left - b.right);
             if (rows && gap < 8) close.push([i, j, gap]);
         }
         document.getElementById('rules').open = false;
         return {figures: boxes.length, close};",
    )
    .await;
    assert_eq!(crowded["figures"], 3, "{name}: {crowded}");
    assert_eq!(
        crowded["close"],
        json!([]),
        "{name}: captions apart: {crowded}"
    );
    click(client, "landing-level").await;
    let game = wait_for(client, "the first game", |p| p["ply"] == "0").await;
    assert_eq!(
        game["players"], "human|minimax:time=300ms,eval=nn",
        "{game}"
    );
    assert_unseen(client, "landing").await;
    // The machine is named by its level while it thinks, not by its spec: every status the
    // page shows while the move is answered is recorded.
    run(
        client,
        "window.statuses = [];
         const status = document.getElementById('status');
         new MutationObserver(() => window.statuses.push(status.textContent))
           .observe(status, {childList: true, characterData: true, subtree: true});",
    )
    .await;
    play_first(client, &game).await;
    let statuses = run(client, "return window.statuses;").await;
    assert!(
        statuses
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().contains("white (level 6) is thinking")),
        "{name}: the machine never named by its level: {statuses}"
    );
}

/// How the element `id` is laid out: its computed display and visibility, and its size.
pub(crate) async fn layout(client: &Client, id: &str) -> Value {
    run(
        client,
        &format!(
            "const e = document.getElementById('{id}');
             const style = getComputedStyle(e);
             const box = e.getBoundingClientRect();
             return {{display: style.display, visibility: style.visibility,
                      width: box.width, height: box.height}};"
        ),
    )
    .await
}

/// Whether a layout is on screen: displayed, visible, with a size.
pub(crate) fn on_screen(seen: &Value) -> bool {
    seen["display"] != "none"
        && seen["visibility"] == "visible"
        && seen["width"].as_f64().unwrap() > 0.0
        && seen["height"].as_f64().unwrap() > 0.0
}

/// Asserts that the element `id` is not on screen: not displayed, invisible, or of no size.
pub(crate) async fn assert_unseen(client: &Client, id: &str) {
    let seen = layout(client, id).await;
    assert!(!on_screen(&seen), "{id} is on screen: {seen}");
}

/// Asserts that the element `id` is what a person sees: displayed, visible, with a size.
pub(crate) async fn assert_seen(client: &Client, id: &str) {
    let seen = layout(client, id).await;
    assert!(on_screen(&seen), "{id} is not on screen: {seen}");
}

/// The page against the engine at the end of a game: the moves replay to the board shown,
/// both scores and the result.
pub(crate) async fn final_board(client: &Client, now: &Value) {
    let mut position: Position = now["start"].as_str().unwrap().parse().unwrap();
    for text in now["moves"].as_str().unwrap().split_whitespace() {
        let mv: Move = text.parse().unwrap();
        assert_eq!(position.check_move(mv), Ok(()), "{text}");
        position.play(mv);
    }
    assert!(position.game_over());
    let cells: Value = client
        .execute(
            "const c = {}; document.querySelectorAll('[data-square]')
               .forEach(d => c[d.dataset.square] = d.dataset.cell); return c;",
            vec![],
        )
        .await
        .unwrap();
    for square in yolah_core::Square::all() {
        let expected = match position.cell(square) {
            Cell::Piece(Color::Black) => "black",
            Cell::Piece(Color::White) => "white",
            Cell::Hole => "hole",
            Cell::Empty => "empty",
        };
        assert_eq!(cells[square.to_string()], expected, "{square}");
    }
    let (black, white) = (position.score(Color::Black), position.score(Color::White));
    for (id, score) in [("score-black", black), ("score-white", white)] {
        let shown = client
            .find(Locator::Id(id))
            .await
            .unwrap()
            .attr("data-score")
            .await
            .unwrap();
        assert_eq!(shown, Some(score.to_string()), "{id}");
    }
    let result = client
        .find(Locator::Id("result"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let who = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "black wins",
        std::cmp::Ordering::Less => "white wins",
        std::cmp::Ordering::Equal => "draw",
    };
    assert_eq!(result, format!("Game over: {who} {black}-{white}"));
}

/// No error in the browser's console so far (chromedriver on `port`).
pub(crate) async fn assert_no_console_errors(client: &Client, port: u16, name: &str) {
    let errors: Vec<Value> = console(client, port)
        .await
        .into_iter()
        .filter(|entry| entry["level"] == "SEVERE")
        .collect();
    assert!(errors.is_empty(), "{name}: console errors {errors:?}");
}

/// A server on loopback for one test, with an in-memory store.
pub(crate) async fn memory_server() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(yolah_web::serve(
        listener,
        yolah_web::Config::default(),
        yolah_web::Store::memory(),
    ));
    address
}

/// The page's address after the host: its path and query.
pub(crate) async fn address_shown(client: &Client) -> String {
    run(client, "return location.pathname + location.search;")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// In a game between two browsers: `mover` clicks its first legal move; waits until `other`
/// sees it.
pub(crate) async fn friend_moves(mover: &Client, other: &Client) -> Value {
    let here = wait_for(mover, "the mover's turn", |p| p["human"] == "yes").await;
    let legal = here["legal"].as_str().unwrap().to_string();
    let (from, to) = legal.split(' ').next().unwrap().split_once(':').unwrap();
    square(mover, from).await.click().await.unwrap();
    square(mover, to).await.click().await.unwrap();
    wait_for(other, "the move seen by the other", |p| {
        p["ply"] != here["ply"]
    })
    .await
}

/// The text of the element `id` as a person reads it.
pub(crate) async fn text(client: &Client, id: &str) -> String {
    run(
        client,
        &format!("return document.getElementById('{id}').innerText;"),
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// The engine's move in the position shown is an arrow on the board, from
/// the centre of its square to the centre of its target (the ends within a third of a square).
pub(crate) async fn arrow_on_its_squares(client: &Client, name: &str) {
    // A report with a line may take a moment.
    let start = Instant::now();
    while !on_screen(&layout(client, "arrow").await) && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The move it shows, read with its place in one step: the analysis goes on, and the
    // arrow may change between two reads.
    arrow_from_to(client, "", name).await;
}

/// The arrow on the board, from the centre of the square of move `mv` (empty: the move the
/// arrow says it shows) to the centre of its target (the ends within a third of a square).
pub(crate) async fn arrow_from_to(client: &Client, mv: &str, name: &str) {
    assert_seen(client, "arrow").await;
    let seen = run(
        client,
        &format!(
            "const svg = document.getElementById('arrow');
         const mv = '{mv}' || svg.dataset.move;
         const [from, to] = mv.split(':')
             .map(n => document.querySelector(`[data-square='${{n}}']`).getBoundingClientRect());
         const line = svg.querySelector('line').getBoundingClientRect();
         const centre = b => [b.left + b.width / 2, b.top + b.height / 2];
         const [fx, fy] = centre(from), [tx, ty] = centre(to);
         return {{move: mv, side: from.width,
                 left: line.left - Math.min(fx, tx), right: Math.max(fx, tx) - line.right,
                 top: line.top - Math.min(fy, ty), bottom: Math.max(fy, ty) - line.bottom}};"
        ),
    )
    .await;
    let side = seen["side"].as_f64().unwrap();
    for edge in ["left", "right", "top", "bottom"] {
        let gap = seen[edge].as_f64().unwrap().abs();
        assert!(
            gap < side / 3.0,
            "{name}: the arrow's {edge} is off by {gap}: {seen}"
        );
    }
}

/// Waits until the element `id`'s text satisfies `done`, and returns it.
pub(crate) async fn wait_text(client: &Client, id: &str, done: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let shown = text(client, id).await;
        if done(&shown) {
            return shown;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{id} shows {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

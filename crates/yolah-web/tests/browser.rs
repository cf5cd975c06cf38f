//! The page in a real headless Chromium, driven over `WebDriver` (`chromedriver`): a whole game
//! clicked against `random`, then the board, the scores and the result shown are checked
//! against the moves replayed by the engine. With `YOLAH_SCREENSHOT=FILE` it also saves a
//! screenshot taken mid-game (the README's picture).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them):
//! `cargo test -p yolah-web --test browser -- --ignored`.

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yolah_core::{Cell, Color, Move, Position};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn browser() -> (Driver, Client) {
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (apt-get install chromium chromium-driver)"),
    );
    let capabilities = json!({
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1000,720"]
        }
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
            Ok(client) => return (driver, client),
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

/// What the page shows, read from its elements' data attributes.
async fn page(client: &Client) -> Value {
    client
        .execute(
            "const b = document.body.dataset;
             const m = document.getElementById('moves').dataset;
             return {human: b.human || '', ply: b.ply || '', legal: b.legal || '',
                     players: b.players || '',
                     result: document.getElementById('result').dataset.result || '',
                     moves: m.moves || '', start: m.start || ''};",
            vec![],
        )
        .await
        .unwrap()
}

/// Waits until `done` holds of the page (20 s at most).
async fn wait_for(client: &Client, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let now = page(client).await;
        if done(&now) {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: the page shows {now}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Clicks the element with this id.
async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Types the players of the next game.
async fn sides(client: &Client, black: &str, white: &str) {
    for (id, value) in [("black", black), ("white", white)] {
        let input = client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(value).await.unwrap();
    }
}

async fn square(client: &Client, name: &str) -> fantoccini::elements::Element {
    client
        .find(Locator::Css(&format!("[data-square='{name}']")))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_whole_game_clicked_in_chromium() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(yolah_web::serve(listener, yolah_web::Config::default()));
    let (_driver, client) = browser().await;
    client.goto(&format!("http://{address}/")).await.unwrap();
    wait_for(&client, "the first game", |p| p["ply"] == "0").await;

    // Human (black) against random.
    let white = client.find(Locator::Id("white")).await.unwrap();
    white.clear().await.unwrap();
    white.send_keys("random").await.unwrap();
    click(&client, "new").await;
    let mut now = wait_for(&client, "a game against random", |p| {
        p["players"] == "human|random" && p["human"] == "yes"
    })
    .await;
    // An error stays until the game moves on (issue 16: it used to stay after the reply).
    click(&client, "undo").await;
    let error = || async {
        client
            .find(Locator::Id("error"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    };
    let start = Instant::now();
    while error().await.is_empty() && start.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(error().await, "nothing to undo");
    let screenshot = std::env::var_os("YOLAH_SCREENSHOT");
    while now["result"] == "" {
        let ply: usize = now["ply"].as_str().unwrap().parse().unwrap();
        let legal = now["legal"].as_str().unwrap().to_string();
        let mv = legal.split(' ').next().unwrap();
        let (from, to) = mv.split_once(':').unwrap();
        square(&client, from).await.click().await.unwrap();
        // The piece's targets are marked; the move's destination among them.
        let target = square(&client, to).await;
        let class = target.attr("class").await.unwrap().unwrap_or_default();
        assert!(class.contains("target"), "{to} marked: {class}");
        if ply >= 20
            && let Some(path) = screenshot.as_ref().filter(|_| ply < 22)
        {
            std::fs::write(path, client.screenshot().await.unwrap()).unwrap();
        }
        target.click().await.unwrap();
        now = wait_for(&client, "the reply", |p| {
            p["result"] != "" || (p["human"] == "yes" && p["ply"] != now["ply"])
        })
        .await;
    }
    assert_eq!(error().await, "", "the error went with the next move");

    final_board(&client, &now).await;
    flip(&client).await;
    clock(&client).await;
    client.close().await.unwrap();
}

/// Playing white against a machine turns the board to white's side; the button turns it back
/// (issue 16). Leaves the sides as human against random.
async fn flip(client: &Client) {
    // Playing white against a machine turns the board to white's side; the button turns it
    // back (issue 16).
    let first_square = |client: &Client| {
        let client = client.clone();
        async move {
            client
                .execute(
                    "return [document.body.dataset.flipped,
                             document.getElementById('board').firstChild.dataset.square];",
                    vec![],
                )
                .await
                .unwrap()
        }
    };
    assert_eq!(first_square(client).await, serde_json::json!(["no", "a8"]));
    sides(client, "random", "human").await;
    click(client, "new").await;
    wait_for(client, "white against random", |p| {
        p["players"] == "random|human"
    })
    .await;
    assert_eq!(first_square(client).await, serde_json::json!(["yes", "h1"]));
    click(client, "flip").await;
    assert_eq!(first_square(client).await, serde_json::json!(["no", "a8"]));
    sides(client, "human", "random").await;
}

/// A game on a clock (issue 15): both clocks shown, black's runs down on the page, and the
/// server ends the game when it runs out.
async fn clock(client: &Client) {
    let tc = client.find(Locator::Id("tc")).await.unwrap();
    tc.send_keys("1500ms+0").await.unwrap();
    click(client, "new").await;
    wait_for(client, "a game on a clock", |p| {
        p["ply"] == "0" && p["result"] == ""
    })
    .await;
    let clock = |client: &Client| {
        let client = client.clone();
        async move {
            client
                .execute(
                    "return {hidden: document.getElementById('clocks').hidden,
                             black: Number(document.getElementById('clock-black').dataset.ms),
                             white: Number(document.getElementById('clock-white').dataset.ms)};",
                    vec![],
                )
                .await
                .unwrap()
        }
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let first = clock(client).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = clock(client).await;
    assert_eq!(first["hidden"], false, "{first}");
    assert_eq!(later["white"], 1500, "{later}");
    let (a, b) = (
        first["black"].as_f64().unwrap(),
        later["black"].as_f64().unwrap(),
    );
    assert!(
        a < 1500.0 && b < a - 150.0,
        "black's clock runs: {first} then {later}"
    );
    let over = wait_for(client, "a loss on time", |p| p["result"] != "").await;
    assert_eq!(over["result"], "white wins on time", "{over}");
    assert_eq!(clock(client).await["black"], 0);
}

/// The page against the engine at the end of a game: the moves replay to the board shown,
/// both scores and the result.
async fn final_board(client: &Client, now: &Value) {
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

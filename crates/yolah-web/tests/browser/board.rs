//! A game on the board: played to the end at a desktop's and a phone's size, a full disk, a takeback.

use crate::common::board_server;
use crate::support::*;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::time::Duration;

/// On a full disk a move is refused on the page: the error stays on screen,
/// the move is not shown as played (not after a moment either), and once there is room the
/// same move goes through and the error goes.
#[test]
#[ignore = "needs chromium and chromedriver, and root for a small tmpfs: cargo test -p yolah-web --test browser -- --ignored"]
fn a_move_the_disk_cannot_keep_is_refused_on_the_page() {
    let disk = yolah_testkit::writers::SmallDisk::new(512 * 1024);
    let (address, runtime) = board_server(&disk.path().join("games.sqlite"), 0);
    runtime.block_on(async {
        let (_driver, client, port) = browser(1280, 800).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        wait_for(&client, "connected", |p| p["connected"] == "yes").await;
        custom_game(&client, "human", "human").await;
        let mut now = wait_for(&client, "a game", |p| {
            p["human"] == "yes" && p["ply"] == "0"
        })
        .await;
        for _ in 0..4 {
            now = play_first(&client, &now).await;
        }
        disk.fill();
        // Moves until one is refused (each longer game needs more of the file).
        let mut refused = None;
        for _ in 0..60 {
            let legal = now["legal"].as_str().unwrap().to_string();
            let (from, to) = legal.split(' ').next().unwrap().split_once(':').unwrap();
            square(&client, from).await.click().await.unwrap();
            square(&client, to).await.click().await.unwrap();
            let after = wait_for(&client, "the move taken or refused", |p| {
                p["ply"] != now["ply"] || p["error"] != ""
            })
            .await;
            if after["error"] != "" {
                refused = Some(after);
                break;
            }
            now = after;
        }
        let refused = refused.expect("the full disk refuses a move within 60");
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains("cannot keep the game"),
            "{refused}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        let later = page(&client).await;
        assert_eq!(
            later["ply"], now["ply"],
            "the refused move is not shown: {later}"
        );
        assert_eq!(later["moves"], now["moves"]);
        assert_seen(&client, "error").await;
        disk.free();
        let legal = later["legal"].as_str().unwrap().to_string();
        let (from, to) = legal.split(' ').next().unwrap().split_once(':').unwrap();
        square(&client, from).await.click().await.unwrap();
        square(&client, to).await.click().await.unwrap();
        let played = wait_for(&client, "the move kept", |p| p["ply"] != now["ply"]).await;
        assert_eq!(played["error"], "", "{played}");
        assert_no_console_errors(&client, port, "full disk").await;
        client.close().await.unwrap();
    });
    runtime.shutdown_background();
}

/// Plays the first legal move by dragging its piece to its target: a mouse's press,
/// move and release, or a finger's (`touch`), through `WebDriver`'s input actions; waits for
/// the page to take it (and a machine's reply).
async fn drag_first(client: &Client, now: &Value, touch: bool) -> Value {
    use fantoccini::actions::{
        InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction, TouchActions,
    };
    let legal = now["legal"].as_str().unwrap().to_string();
    let (from, to) = legal.split(' ').next().unwrap().split_once(':').unwrap();
    let steps = [
        PointerAction::MoveToElement {
            element: square(client, from).await,
            duration: None,
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        },
        PointerAction::MoveBy {
            duration: Some(Duration::from_millis(50)),
            x: 8.0,
            y: 8.0,
        },
        PointerAction::MoveToElement {
            element: square(client, to).await,
            duration: Some(Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        },
    ];
    if touch {
        let actions = steps
            .into_iter()
            .fold(TouchActions::new("finger".into()), InputSource::then);
        client.perform_actions(actions).await.unwrap();
    } else {
        let actions = steps
            .into_iter()
            .fold(MouseActions::new("mouse".into()), InputSource::then);
        client.perform_actions(actions).await.unwrap();
    }
    let moved = wait_for(client, "the dragged move taken", |p| {
        p["ply"] != now["ply"] && (p["result"] != "" || p["human"] == "yes")
    })
    .await;
    let first = moved["moves"]
        .as_str()
        .unwrap()
        .split(' ')
        .nth(now["ply"].as_str().unwrap().parse::<usize>().unwrap());
    assert_eq!(first, Some(format!("{from}:{to}").as_str()), "{moved}");
    moved
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn the_board_in_chromium_at_desktop_and_phone_sizes() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(yolah_web::serve(
        listener,
        yolah_web::Config::default(),
        yolah_web::Store::memory(),
    ));
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        landing(&client, name).await;
        level_game_to_the_end(&client, name).await;
        evaluation_where_it_belongs(&client).await;
        navigation(&client, name).await;
        undo_in_every_mode(&client).await;
        shared_link_and_analysis(&client, &address.to_string(), name).await;
        passes_in_the_move_list(&client, &address.to_string()).await;
        if name == "desktop" {
            sounds(&client).await;
            flip(&client).await;
            clock(&client).await;
        } else {
            phone_layout(&client).await;
        }
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
    play_a_friend(&address.to_string()).await;
}

/// A stranger who has the game's id but not the invitation's secret (the archive's
/// link) watches, and is told so.
async fn a_stranger_only_watches(link: &str) {
    let (_stranger_driver, stranger, _) = browser(1280, 800).await;
    let public = link.split("&key=").next().unwrap();
    assert_ne!(public, link, "the invitation carries a secret: {link}");
    stranger.goto(public).await.unwrap();
    wait_for(&stranger, "the stranger watching", |p| {
        p["seat"] == "spectator"
    })
    .await;
    assert_seen(&stranger, "presence").await;
    let presence = run(
        &stranger,
        "return document.getElementById('presence').textContent;",
    )
    .await;
    assert!(
        presence.as_str().unwrap().starts_with("you are watching"),
        "{presence}"
    );
    assert_unseen(&stranger, "undo").await;
    assert_unseen(&stranger, "resign").await;
    stranger.close().await.unwrap();
}

/// A game between two browsers, a desktop's (black, the host) and a phone's (white, through
/// the link): played to the end, with the phone reloading the page and the desktop's
/// connection dropped in the middle; both end on the same game, with no console errors.
async fn play_a_friend(address: &str) {
    let (_host_driver, host, host_port) = browser(1280, 800).await;
    let (_guest_driver, guest, guest_port) = browser(390, 844).await;
    host.goto(&format!("http://{address}/")).await.unwrap();
    wait_for(&host, "connected", |p| p["connected"] == "yes").await;
    assert_seen(&host, "landing-friend").await;
    click(&host, "landing-friend").await;
    wait_for(&host, "a hosted game", |p| p["seat"] == "black").await;
    assert_unseen(&host, "landing").await;
    let link = run(
        &host,
        "return document.getElementById('invite-link').value;",
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("/?join="), "{link}");
    guest.goto(&link).await.unwrap();
    wait_for(&guest, "the guest seated", |p| p["seat"] == "white").await;
    wait_for(&host, "the friend arrived", |p| p["friend"] == "yes").await;
    a_stranger_only_watches(&link).await;
    let mut now = page(&host).await;
    let mut played = 0;
    while now["result"] == "" {
        let (mover, other) = if now["side"] == "black" {
            (&host, &guest)
        } else {
            (&guest, &host)
        };
        let here = wait_for(mover, "the mover's turn", |p| p["human"] == "yes").await;
        let legal = here["legal"].as_str().unwrap().to_string();
        let (from, to) = legal.split(' ').next().unwrap().split_once(':').unwrap();
        square(mover, from).await.click().await.unwrap();
        square(mover, to).await.click().await.unwrap();
        played += 1;
        now = wait_for(other, "the move seen by the other", |p| {
            p["ply"] != here["ply"]
        })
        .await;
        if played == 8 {
            // The phone reloads: its token gives it white back.
            guest.goto(&link).await.unwrap();
            wait_for(&guest, "white again, the game as it stands", |p| {
                p["seat"] == "white" && p["moves"] == now["moves"]
            })
            .await;
        }
        if played == 4 {
            // A takeback: white asks, black agrees; the last move goes.
            // The mover's own page may show its move a moment after the other's.
            let before = wait_for(&guest, "the fourth move on the mover's page", |p| {
                p["ply"] == now["ply"]
            })
            .await;
            click(&guest, "undo").await;
            wait_for(&host, "the offer", |p| p["takeback"] == "white").await;
            // Declined first: the offer goes, the move stays; then asked again.
            assert_seen(&host, "decline-takeback").await;
            click(&host, "decline-takeback").await;
            wait_for(&guest, "declined", |p| p["takeback"] == "").await;
            assert_eq!(page(&guest).await["ply"], before["ply"]);
            click(&guest, "undo").await;
            wait_for(&host, "the offer again", |p| p["takeback"] == "white").await;
            click(&host, "accept-takeback").await;
            now = wait_for(&guest, "taken back", |p| p["ply"] != before["ply"]).await;
            assert_eq!(now["ply"], "3", "{now}");
        }
        if played == 16 {
            // The desktop's connection drops: the page reconnects and rejoins.
            run(&host, "page.socket.close();").await;
            wait_for(&host, "reconnected", |p| {
                p["connected"] == "yes" && p["seat"] == "black" && p["moves"] == now["moves"]
            })
            .await;
        }
    }
    let host_end = wait_for(&host, "the end", |p| p["result"] != "").await;
    let guest_end = wait_for(&guest, "the end", |p| p["result"] != "").await;
    assert_eq!(host_end["moves"], guest_end["moves"]);
    assert_eq!(host_end["banner"], host_end["result"]);
    final_board(&guest, &guest_end).await;
    for (client, port) in [(&host, host_port), (&guest, guest_port)] {
        let errors: Vec<Value> = console(client, port)
            .await
            .into_iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .collect();
        assert!(
            errors.is_empty(),
            "a friend's game: console errors {errors:?}"
        );
    }
    host.close().await.unwrap();
    guest.close().await.unwrap();
}

/// Level 1 (random), the person black: an error shown until the game moves on, the game
/// clicked to the end, the board and result checked, the banner, and a rematch with the
/// colours swapped (the board turns to white's side).
async fn level_game_to_the_end(client: &Client, name: &str) {
    level_game(client, 1, "black").await;
    wait_for(client, "a game against level 1", |p| {
        p["players"] == "human|random" && p["human"] == "yes"
    })
    .await;
    click(client, "undo").await;
    let mut now = wait_for(client, "an error", |p| p["error"] != "").await;
    assert_eq!(now["error"], "nothing to undo");
    // The first move by drag and drop (a finger on the phone), the rest by clicks.
    now = drag_first(client, &now, name == "phone").await;
    while now["result"] == "" {
        let ply: usize = now["ply"].as_str().unwrap().parse().unwrap();
        if (20..22).contains(&ply) {
            screenshot(client, &format!("{name}-game.png")).await;
        }
        now = play_first(client, &now).await;
        assert_eq!(now["error"], "", "the error went with the move");
    }
    final_board(client, &now).await;
    assert_eq!(now["banner"], now["result"], "the game-over banner");
    assert_unseen(client, "undo").await;
    assert_seen(client, "flip").await;
    click(client, "rematch").await;
    let rematch = wait_for(client, "the rematch", |p| {
        p["players"] == "random|human" && p["banner"] == ""
    })
    .await;
    assert_eq!(rematch["flipped"], "yes", "white's side at the bottom");
    // Resign: the banner says who won and how.
    let resigned = {
        let now = wait_for(client, "white's turn", |p| p["human"] == "yes").await;
        assert_eq!(now["ply"], "1");
        click(client, "resign").await;
        wait_for(client, "a resignation", |p| p["result"] != "").await
    };
    assert_eq!(resigned["result"], "black wins by resignation");
    assert_eq!(resigned["banner"], "black wins by resignation");
}

/// The move list as navigation: a click on a move, ← → Home End, and take back to here.
async fn navigation(client: &Client, name: &str) {
    level_game(client, 1, "black").await;
    let mut now = wait_for(client, "a new game", |p| {
        p["players"] == "human|random" && p["human"] == "yes" && p["ply"] == "0"
    })
    .await;
    for _ in 0..3 {
        now = play_first(client, &now).await;
    }
    assert_eq!(now["ply"], "6");
    client
        .find(Locator::Css("#moves .move[data-ply='2']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let viewed = wait_for(client, "move 2 shown", |p| p["view"] == "2").await;
    assert_eq!(viewed["viewing"], "yes");
    board_shows(client, &viewed, 2).await;
    // Moves numbered in pairs, black's first; plies where half-moves are counted.
    let second = viewed["moves"]
        .as_str()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .to_string();
    let status = run(
        client,
        "return document.getElementById('status').textContent;",
    )
    .await;
    // The way back named as this device offers it, keys or the button.
    let back = if name == "phone" {
        "▶| to return)"
    } else {
        "→ or End to return)"
    };
    assert_eq!(
        status.as_str().unwrap(),
        format!("viewing the position after 1… {second} (ply 2 of 6; {back}")
    );
    // "Take back to here" where the person is to move, not where the
    // machine is (the server would refuse it).
    assert_seen(client, "takeback").await;
    key(client, "ArrowLeft").await;
    board_shows(
        client,
        &wait_for(client, "←", |p| p["view"] == "1").await,
        1,
    )
    .await;
    assert_unseen(client, "takeback").await;
    key(client, "Home").await;
    board_shows(
        client,
        &wait_for(client, "Home", |p| p["view"] == "0").await,
        0,
    )
    .await;
    let status = run(
        client,
        "return document.getElementById('status').textContent;",
    )
    .await;
    assert!(
        status
            .as_str()
            .unwrap()
            .starts_with("viewing the start (ply 0 of 6;"),
        "{status}"
    );
    key(client, "ArrowRight").await;
    wait_for(client, "→", |p| p["view"] == "1").await;
    key(client, "End").await;
    let back = wait_for(client, "End", |p| p["viewing"] == "no").await;
    board_shows(client, &back, 6).await;
    // Take back to move 2: black (the person) to move there.
    click(client, "back").await;
    click(client, "back").await;
    click(client, "back").await;
    click(client, "back").await;
    wait_for(client, "◀ four times", |p| p["view"] == "2").await;
    click(client, "takeback").await;
    let taken = wait_for(client, "taken back", |p| p["ply"] == "2").await;
    assert_eq!(taken["viewing"], "no");
    assert_eq!(taken["human"], "yes");
    board_shows(client, &taken, 2).await;
}

/// Undo against a level, between two people here, and in a watched game (which pauses).
async fn undo_in_every_mode(client: &Client) {
    // Against a level: back to the person's previous turn.
    let now = wait_for(client, "the person's turn", |p| p["human"] == "yes").await;
    click(client, "undo").await;
    wait_for(client, "undone", |p| p["ply"] == "0").await;
    let _ = now;
    // Two people here: one move back.
    custom_game(client, "human", "human").await;
    let now = wait_for(client, "two people", |p| {
        p["players"] == "human|human" && p["ply"] == "0"
    })
    .await;
    let now = play_first(client, &now).await;
    assert_eq!(now["ply"], "1");
    click(client, "undo").await;
    wait_for(client, "one move back", |p| p["ply"] == "0").await;
    // Watched: undo takes a move back and pauses; Resume lets it go on.
    custom_game(client, "mcts:time=200ms", "mcts:time=200ms").await;
    wait_for(client, "two moves watched", |p| {
        p["players"] == "mcts:time=200ms|mcts:time=200ms" && p["ply"] == "2"
    })
    .await;
    click(client, "undo").await;
    let paused = wait_for(client, "paused", |p| p["paused"] == "yes").await;
    let kept: usize = paused["ply"].as_str().unwrap().parse().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        page(client).await["ply"],
        paused["ply"],
        "nothing moves while paused"
    );
    click(client, "pause").await;
    wait_for(client, "resumed", |p| {
        p["paused"] == "no" && p["ply"].as_str().unwrap().parse::<usize>().unwrap() > kept
    })
    .await;
}

/// In a game against the machine
/// the evaluation is hidden (the bar, the line, the report's values) while it is played; the
/// report keeps the move and its time. Once the game is over, its analysis shows it.
async fn evaluation_where_it_belongs(client: &Client) {
    custom_game(client, "human", "minimax:depth=3").await;
    let now = wait_for(client, "our turn", |p| {
        p["human"] == "yes" && p["ply"] == "0"
    })
    .await;
    play_first(client, &now).await;
    wait_for(client, "the machine's report", |p| {
        p["reports"].as_u64().unwrap() >= 1 && p["ply"] == "2"
    })
    .await;
    let text = |client: &Client| {
        let client = client.clone();
        async move {
            run(
                &client,
                "return document.getElementById('report').textContent;",
            )
            .await
            .as_str()
            .unwrap()
            .to_string()
        }
    };
    let hidden = text(client).await;
    assert!(hidden.starts_with("white played "), "{hidden}");
    assert!(
        !hidden.contains("depth") && !hidden.contains("black "),
        "{hidden}"
    );
    for id in ["evalbar", "pv", "graph"] {
        assert_unseen(client, id).await;
    }
    let board_before = layout(client, "board").await;
    // A move slides its piece: slowed down here, so that the test sees it moving.
    run(client, "page.moveMs = 3000;").await;
    let now = wait_for(client, "our turn again", |p| p["human"] == "yes").await;
    play_first(client, &now).await;
    let moving = run(
        client,
        "return [...document.querySelectorAll('.piece')]
                 .filter(p => getComputedStyle(p).transform !== 'none').length;",
    )
    .await;
    assert!(moving.as_u64().unwrap() >= 1, "a piece in motion: {moving}");
    run(client, "page.moveMs = 160;").await;
    // Over: its analysis shows everything.
    wait_for(client, "our turn", |p| p["human"] == "yes").await;
    click(client, "resign").await;
    wait_for(client, "resigned", |p| p["result"] != "").await;
    click(client, "banner-close").await;
    click(client, "analyse").await;
    wait_for(client, "analysis", |p| {
        p["analysis"] == "yes" && p["reports"].as_u64().unwrap() >= 1
    })
    .await;
    wait_for(client, "a report in analysis", |p| p["thinking"] == "yes").await;
    assert_seen(client, "evalbar").await;
    // The bar appearing moves nothing: the board keeps its size.
    let board_after = layout(client, "board").await;
    assert_eq!(
        (&board_before["width"], &board_before["height"]),
        (&board_after["width"], &board_after["height"]),
        "the board changed size as the evaluation bar appeared"
    );
    let shown = text(client).await;
    assert!(
        shown.contains("depth") && shown.contains("black "),
        "{shown}"
    );
    click(client, "analyse").await;
    wait_for(client, "a game again", |p| p["analysis"] == "no").await;
}

/// A shared link opens its game in analysis; the engine reports live; Stop stops it; a
/// move on the analysis board; the evaluation bar, principal variation and graph; copy link.
async fn shared_link_and_analysis(client: &Client, address: &str, name: &str) {
    let start = yolah_core::START.replace(' ', "%20");
    client
        .goto(&format!(
            "http://{address}/?position={start}&moves=a1:c3,h1:f3"
        ))
        .await
        .unwrap();
    let opened = wait_for(client, "the shared game", |p| p["moves"] == "a1:c3 h1:f3").await;
    assert_eq!(opened["analysis"], "yes");
    board_shows(client, &opened, 2).await;
    let live = wait_for(client, "two live reports", |p| {
        p["reports"].as_u64().unwrap() >= 2 && p["report_ply"] == "2"
    })
    .await;
    assert_eq!(live["thinking"], "yes", "{live}");
    screenshot(client, &format!("{name}-analysis.png")).await;
    // What a person sees: the bar and the line laid out with a size, not just present.
    for id in ["evalbar", "pv"] {
        assert_seen(client, id).await;
    }
    let pv = run(client, "return document.getElementById('pv').textContent;").await;
    assert!(pv.as_str().unwrap().starts_with("best lines"), "{pv}");
    // A move for black on the board, then the engine on the new position.
    let now = page(client).await;
    let moved = play_first(client, &now).await;
    assert_eq!(moved["ply"], "3");
    wait_for(client, "a report on the new position", |p| {
        p["report_ply"] == "3"
    })
    .await;
    let points = run(
        client,
        "return Number(document.getElementById('graph').dataset.points);",
    )
    .await;
    assert!(
        points.as_u64().unwrap() >= 2,
        "the graph has {points} points"
    );
    // With its points the graph is on screen (it never was: the page set a
    // property SVG elements do not have, and the `hidden` attribute stayed).
    assert_seen(client, "graph").await;
    // The engine's best move on the new position, as an arrow.
    arrow_on_its_squares(client, "analysis").await;
    // The PGN link is the size of the buttons beside it.
    let sizes = run(
        client,
        "const h = (id) => { const b = document.getElementById(id).getBoundingClientRect();
                             return [b.height, b.top]; };
         return {pgn: h('export-pgn'), download: h('download'), copy: h('copy')};",
    )
    .await;
    let height = |id: &str| sizes[id][0].as_f64().unwrap();
    assert!(height("download") > 0.0, "{sizes}");
    assert!(
        (height("pgn") - height("download")).abs() < 1.5
            && (height("pgn") - height("copy")).abs() < 1.5,
        "{sizes}"
    );
    // Stepping back, the engine thinks on the position shown, and the
    // graph fills with it; at the end again, on the last.
    click(client, "first").await;
    wait_for(client, "a report on the start", |p| p["report_ply"] == "0").await;
    click(client, "last").await;
    wait_for(client, "a report on the last position", |p| {
        p["report_ply"] == "3"
    })
    .await;
    // Undo on the analysis board: one move back, and the engine on that position again.
    click(client, "undo").await;
    wait_for(client, "undone in analysis", |p| p["ply"] == "2").await;
    let moved = play_first(client, &page(client).await).await;
    click(client, "pause").await;
    let stopped = wait_for(client, "stopped", |p| {
        p["paused"] == "yes" && p["thinking"] == "no"
    })
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        page(client).await["reports"],
        stopped["reports"],
        "no reports once stopped"
    );
    click(client, "copy-link").await;
    let link = run(
        client,
        "return document.getElementById('share').dataset.copied;",
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("moves=a1%3Ac3%2Ch1%3Af3%2C"), "{link}");
    client.goto(&link).await.unwrap();
    let again = wait_for(client, "the copied link", |p| p["ply"] == "3").await;
    assert_eq!(again["moves"], moved["moves"]);
    // Back to playing: a new game from the form.
    click(client, "analyse").await;
    wait_for(client, "a game again", |p| p["analysis"] == "no").await;
}

/// Sounds are off until switched on (the switch says which), then a move makes one.
async fn sounds(client: &Client) {
    custom_game(client, "human", "random").await;
    let now = wait_for(client, "our turn", |p| {
        p["human"] == "yes" && p["ply"] == "0"
    })
    .await;
    let played = |client: &Client| {
        let client = client.clone();
        async move {
            run(&client, "return page.soundsPlayed;")
                .await
                .as_u64()
                .unwrap()
        }
    };
    let label = |client: &Client| {
        let client = client.clone();
        async move {
            run(
                &client,
                "return document.getElementById('sound').textContent;",
            )
            .await
        }
    };
    assert_seen(client, "sound").await;
    assert_eq!(label(client).await, "Sound: off");
    let before = played(client).await;
    let now = play_first(client, &now).await;
    assert_eq!(played(client).await, before, "silent while off");
    click(client, "sound").await;
    assert_eq!(label(client).await, "Sound: on");
    play_first(client, &now).await;
    // The switch's own beep, then our move and the reply.
    assert!(played(client).await >= before + 3, "sounds when on");
    click(client, "sound").await;
    assert_eq!(label(client).await, "Sound: off");
}

/// A run of one side's passes is one entry of the move list, `pass ×N`, which
/// stays current while the positions inside the run are shown.
async fn passes_in_the_move_list(client: &Client, address: &str) {
    // A random game in which black passes three turns running (plies 51, 53, 55).
    let moves = "h8:h5,e5:f5,h5:e8,a8:b7,a1:e1,f5:f8,e8:f7,d4:b6,d5:d6,f8:h6,e1:f1,h6:g5,f1:f2,\
                 g5:g7,e4:b1,b6:c7,d6:g6,g7:h7,g6:f6,c7:e7,f2:f4,e7:d8,f7:e6,h1:h4,b1:b2,d8:d7,\
                 b2:c3,h4:h2,c3:f3,d7:b5,f4:e3,b5:c4,f3:e2,c4:d3,e2:c2,h2:g1,e3:c1,g1:g3,c1:d1,\
                 b7:b8,d1:d2,g3:g2,c2:b3,b8:a7,b3:b4,a7:a2,b4:a5,h7:g8,a5:a6,a2:a3,a1:a1,a3:a4,\
                 a1:a1,g2:h3,a1:a1,h3:g4";
    client
        .goto(&format!("http://{address}/?moves={moves}"))
        .await
        .unwrap();
    wait_for(client, "the game with passes", |p| p["ply"] == "56").await;
    let list = run(
        client,
        "const box = document.getElementById('moves');
         return {text: box.textContent, entries: box.querySelectorAll('.move').length,
                 passes: [...box.querySelectorAll('.pass')].map(e => e.textContent)};",
    )
    .await;
    assert_eq!(list["entries"], 54, "{list}");
    assert_eq!(list["passes"], json!(["pass ×3"]), "{list}");
    assert!(!list["text"].as_str().unwrap().contains("a1:a1"), "{list}");
    // No move number hidden by the run: white's moves after black's hidden passes carry
    // theirs, as the review names them.
    assert!(
        list["text"]
            .as_str()
            .unwrap()
            .ends_with("26. pass ×3 a3:a4 27… g2:h3 28… h3:g4 "),
        "{list}"
    );
    // Inside the run (after black's second pass), the run's entry is the current one.
    key(client, "ArrowLeft").await;
    key(client, "ArrowLeft").await;
    key(client, "ArrowLeft").await;
    let current = run(
        client,
        "return document.querySelector('#moves .current').textContent;",
    )
    .await;
    assert_eq!(current, "pass ×3");
}

/// On a phone: the board fits the width, nothing scrolls sideways, and the buttons come
/// before the move list.
async fn phone_layout(client: &Client) {
    let layout = run(
        client,
        "const r = (id) => document.getElementById(id).getBoundingClientRect();
         const outside = [...document.querySelectorAll('main *')].filter(e => {
             const b = e.getBoundingClientRect();
             return b.width > 0 && (b.left < -0.5 || b.right > window.innerWidth + 0.5);
         }).map(e => (e.id || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().left)
                     + '..' + Math.round(e.getBoundingClientRect().right));
         return {outside, width: window.innerWidth, scroll: document.documentElement.scrollWidth,
                 board: r('board').right, undo: r('undo').bottom, moves: r('moves').top};",
    )
    .await;
    let number = |key: &str| layout[key].as_f64().unwrap();
    // The masthead's tagline in at most two lines (it took five).
    let tagline = run(
        client,
        "const span = document.querySelector('#masthead span');
         return {height: span.getBoundingClientRect().height,
                 font: parseFloat(getComputedStyle(span).fontSize)};",
    )
    .await;
    assert!(
        tagline["height"].as_f64().unwrap() <= 2.6 * tagline["font"].as_f64().unwrap(),
        "the tagline in two lines at most: {tagline}"
    );
    assert!(number("board") <= number("width"), "{layout}");
    assert!(number("scroll") <= number("width"), "{layout}");
    assert!(number("undo") <= number("moves"), "{layout}");
    assert_eq!(
        layout["outside"],
        json!([]),
        "everything within the screen: {layout}"
    );
    // Each field's placeholder is read whole, not cut off.
    let cut = run(
        client,
        "document.getElementById('setup').open = true;
         document.getElementById('share').open = true;
         const ctx = document.createElement('canvas').getContext('2d');
         return [...document.querySelectorAll('input[placeholder]')].filter(i => {
             const style = getComputedStyle(i);
             ctx.font = style.font;
             const room = i.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
             return i.clientWidth > 0 && ctx.measureText(i.placeholder).width > room;
         }).map(i => i.id + ': ' + i.placeholder);",
    )
    .await;
    assert_eq!(cut, json!([]), "placeholders cut off on a phone");
}

/// Playing white against a machine turns the board to white's side; the button turns it back
/// .
async fn flip(client: &Client) {
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
    level_game(client, 1, "black").await;
    wait_for(client, "black against random", |p| {
        p["players"] == "human|random"
    })
    .await;
    assert_eq!(first_square(client).await, serde_json::json!(["no", "a8"]));
    level_game(client, 1, "white").await;
    wait_for(client, "white against random", |p| {
        p["players"] == "random|human"
    })
    .await;
    assert_eq!(first_square(client).await, serde_json::json!(["yes", "h1"]));
    click(client, "flip").await;
    assert_eq!(first_square(client).await, serde_json::json!(["no", "a8"]));
}

/// A game on a clock: both clocks shown, black's runs down on the page, and the
/// server ends the game when it runs out.
async fn clock(client: &Client) {
    let tc = client.find(Locator::Id("tc")).await.unwrap();
    tc.send_keys("1500ms+0").await.unwrap();
    level_game(client, 1, "black").await;
    wait_for(client, "a game on a clock", |p| {
        p["ply"] == "0" && p["result"] == "" && p["players"] == "human|random"
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
    // Clocks a person reads at a glance: large, the side to move's lit, red under
    // 10 s (computed style, not the class).
    let look = run(
        client,
        "const s = (id) => getComputedStyle(document.getElementById(id));
         return {size: parseFloat(s('clock-black').fontSize),
                 black: s('clock-black').color, white: s('clock-white').color,
                 lit: s('clock-black').backgroundColor, unlit: s('clock-white').backgroundColor};",
    )
    .await;
    assert!(look["size"].as_f64().unwrap() >= 24.0, "{look}");
    assert_eq!(look["black"], "rgb(192, 57, 43)", "under 10 s: {look}");
    assert_ne!(
        look["lit"], look["unlit"],
        "the side to move's clock is lit: {look}"
    );
    assert_seen(client, "clock-black").await;
    let over = wait_for(client, "a loss on time", |p| p["result"] != "").await;
    assert_eq!(over["result"], "white wins on time", "{over}");
    assert_eq!(clock(client).await["black"], 0);
}

/// In a friends' game a takeback takes back the asker's own last move and
/// the reply after it (black asks on its turn, white agrees: both moves go), not the
/// opponent's move alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_takeback_takes_back_the_askers_own_move() {
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_host_driver, host, _) = browser(width, height).await;
        let (_guest_driver, guest, _) = browser(width, height).await;
        host.goto(&format!("http://{address}/")).await.unwrap();
        wait_for(&host, "connected", |p| p["connected"] == "yes").await;
        click(&host, "landing-friend").await;
        wait_for(&host, "a hosted game", |p| p["seat"] == "black").await;
        let link = run(
            &host,
            "return document.getElementById('invite-link').value;",
        )
        .await;
        guest.goto(link.as_str().unwrap()).await.unwrap();
        wait_for(&guest, "the guest seated", |p| p["seat"] == "white").await;
        friend_moves(&host, &guest).await;
        friend_moves(&guest, &host).await;
        let asked = wait_for(&host, "black's turn again", |p| {
            p["human"] == "yes" && p["ply"] == "2"
        })
        .await;
        click(&host, "undo").await;
        wait_for(&guest, "the offer", |p| p["takeback"] == "black").await;
        assert_seen(&guest, "accept-takeback").await;
        let offer = run(
            &guest,
            "return document.getElementById('presence').textContent;",
        )
        .await;
        assert!(
            offer
                .as_str()
                .unwrap()
                .contains("black asks to take back their last move"),
            "{name}: {offer}"
        );
        click(&guest, "accept-takeback").await;
        let taken = wait_for(&host, "taken back", |p| p["ply"] != asked["ply"]).await;
        assert_eq!(
            taken["ply"], "0",
            "{name}: black's move and white's reply go: {taken}"
        );
        assert_eq!(taken["human"], "yes", "{name}: black to move again");
        // The guest's page hears of it a moment after the host's, through the room.
        wait_for(&guest, "the offer gone", |p| p["takeback"] == "").await;
        host.close().await.unwrap();
        guest.close().await.unwrap();
    }
}

//! Reports and analysis: the numbers a page draws, nothing shown of a game in play, live analysis, three proved lines.

use crate::common::{Socket, connect, next, room, send, server, settled, state_after};
use serde_json::{Value, json};

/// The next report; 20 s at most.
async fn report(socket: &mut Socket) -> Value {
    next(socket, "report").await
}

/// A watched game's reports carry the numbers the page draws (a game a person plays gets
/// none while it is played: see the next test).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_carry_the_numbers_a_page_draws() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "minimax:depth=3", "white": "minimax:depth=3"}),
    )
    .await;
    let last = loop {
        let report = report(&mut socket).await;
        assert_eq!(report["side"], "black", "{report}");
        assert_eq!(report["ply"], 0, "{report}");
        if report["done"] == true {
            break report;
        }
    };
    assert_eq!(last["depth"], 3, "{last}");
    assert!(last["points"].is_f64() && last["value"].is_f64(), "{last}");
    assert_eq!(last["pv"][0], last["move"], "{last}");
    let state = state_after(&mut socket, 1).await;
    assert_eq!(state["moves"][0], last["move"], "{state}");
}

/// As on lichess, a game a person plays gives them no analysis,
/// evaluation or engine line while it is played: the machine's reports carry its move and
/// time only, and a seated player's analysis is refused (against a machine, and in a
/// friends' game); once the game is over, analysis opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_analysis_or_evaluation_of_a_game_while_a_person_plays_it() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "human", "white": "minimax:depth=3"}),
    )
    .await;
    settled(&mut socket).await;
    send(&mut socket, &json!({"type": "play", "move": "a1:c3"})).await;
    loop {
        let report = report(&mut socket).await;
        for field in ["points", "value", "depth", "nodes"] {
            assert!(report[field].is_null(), "{field}: {report}");
        }
        assert_eq!(report["pv"], json!([]), "{report}");
        assert_eq!(report["text"], report["move"], "{report}");
        if report["done"] == true {
            break;
        }
    }
    let playing = settled(&mut socket).await;
    let analyse = json!({"type": "new", "black": "human", "white": "human", "analysis": true,
                         "moves": playing["moves"]});
    send(&mut socket, &analyse).await;
    let refused = next(&mut socket, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("no analysis while you play"),
        "{refused}"
    );
    send(&mut socket, &json!({"type": "resign"})).await;
    assert!(next(&mut socket, "state").await["result"].is_string());
    send(&mut socket, &analyse).await;
    let analysis = next(&mut socket, "state").await;
    assert_eq!(analysis["analysis"], true, "{analysis}");

    // A friends' game: neither seat may analyse it; a spectator may.
    let mut host = connect(address).await;
    send(&mut host, &json!({"type": "host", "colour": "white"})).await;
    let hosted = room(&mut host).await;
    let mut guest = connect(address).await;
    send(
        &mut guest,
        &json!({"type": "join", "room": hosted["id"], "key": hosted["key"]}),
    )
    .await;
    assert_eq!(room(&mut guest).await["seat"], "black");
    send(&mut guest, &json!({"type": "play", "move": "a1:c3"})).await;
    state_after(&mut host, 1).await;
    for seated in [&mut host, &mut guest] {
        send(seated, &analyse).await;
        let refused = next(seated, "error").await;
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .starts_with("no analysis while you play"),
            "{refused}"
        );
    }
    send(&mut host, &json!({"type": "play", "move": "h1:f3"})).await;
    state_after(&mut guest, 2).await;
    let mut watcher = connect(address).await;
    send(&mut watcher, &json!({"type": "join", "room": hosted["id"]})).await;
    assert_eq!(room(&mut watcher).await["seat"], "spectator");
    send(&mut watcher, &analyse).await;
    // The room's state may come first.
    while next(&mut watcher, "state").await["analysis"] != true {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_thinks_live_follows_the_moves_and_pauses() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    send(
        &mut socket,
        &json!({"type": "new", "black": "", "white": "", "analysis": true}),
    )
    .await;
    let state = next(&mut socket, "state").await;
    assert_eq!(state["analysis"], true, "{state}");
    assert_eq!(state["players"], json!(["human", "human"]));
    for _ in 0..2 {
        let live = report(&mut socket).await;
        assert_eq!(
            (live["ply"].clone(), live["done"].clone()),
            (json!(0), json!(false))
        );
    }
    // A move (either side's: the person moves both) restarts it on the new position.
    send(&mut socket, &json!({"type": "play", "move": "a1:c3"})).await;
    send(&mut socket, &json!({"type": "play", "move": "h1:f3"})).await;
    let live = loop {
        let live = report(&mut socket).await;
        if live["ply"] == 2 {
            break live;
        }
    };
    assert_eq!(live["side"], "black", "{live}");
    send(&mut socket, &json!({"type": "pause"})).await;
    let paused = next(&mut socket, "state").await;
    assert_eq!(
        (paused["paused"].clone(), paused["thinking"].clone()),
        (json!(true), json!(false))
    );
    // Nothing more is searched while paused: the next message is the answer to resume.
    send(&mut socket, &json!({"type": "resume"})).await;
    let resumed = next(&mut socket, "state").await;
    assert_eq!(resumed["paused"], false, "{resumed}");
    assert_eq!(resumed["thinking"], true, "{resumed}");
    send(&mut socket, &json!({"type": "undo"})).await;
    let undone = loop {
        let state = next(&mut socket, "state").await;
        if state["moves"].as_array().unwrap().len() == 1 {
            break state;
        }
    };
    assert_eq!(undone["side"], "white", "{undone}");
    send(&mut socket, &json!({"type": "resign"})).await;
    let refused = next(&mut socket, "error").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("nothing to resign")
    );
}

/// An analysis's engine follows the position the page shows (`focus`):
/// its reports are of that position, and of the last again when the page returns to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_follows_the_position_shown() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    let moves = ["a1:c3", "h1:f3", "h8:h7"];
    send(
        &mut socket,
        &json!({"type": "new", "black": "human", "white": "human", "analysis": true,
                "moves": moves}),
    )
    .await;
    report_of(&mut socket, 3).await;
    send(&mut socket, &json!({"type": "focus", "ply": 1})).await;
    let report = report_of(&mut socket, 1).await;
    // Of the position after a1:c3: white to move, and its move one of white's.
    assert_eq!(report["side"], "white", "{report}");
    send(&mut socket, &json!({"type": "focus", "ply": null})).await;
    report_of(&mut socket, 3).await;
    // Past the end, or in a game that is no analysis: one line, nothing changed.
    send(&mut socket, &json!({"type": "focus", "ply": 9})).await;
    let refused = next(&mut socket, "error").await;
    assert_eq!(refused["message"], "the game has 3 moves, not 9");
}

/// The next report on the position after `ply` moves.
async fn report_of(socket: &mut Socket, ply: usize) -> Value {
    loop {
        let report = next(socket, "report").await;
        if report["ply"] == ply {
            return report;
        }
    }
}

/// An analysis gives the top three lines with their values. On an endgame
/// the solver settles (a shipped puzzle, whose proof ranks every move), they are proved: the
/// only winning move by 3, then the moves that lose by 2 and by 3, each line legal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_gives_three_lines_proved_in_the_endgame() {
    let address = server(yolah_web::Config::default()).await;
    let mut socket = connect(address).await;
    let position = "x2xxwbx/2xxxxxx/1wxxxxx1/xxbxx1wx/1xxxxxxx/1b1xx1x1/3xxxxb/xx2wx1x b 19 19 38";
    send(
        &mut socket,
        &json!({"type": "new", "black": "human", "white": "human", "analysis": true,
                "position": position}),
    )
    .await;
    let report = loop {
        let report = report_of(&mut socket, 0).await;
        let lines = report["lines"].as_array().unwrap();
        assert!(lines.len() <= 3, "{report}");
        if lines.len() == 3 && lines.iter().all(|line| line["proved"] == true) {
            break report;
        }
        assert!(
            report["done"] != true,
            "done without three proved lines: {report}"
        );
    };
    let lines = report["lines"].as_array().unwrap();
    assert_eq!(lines[0]["pv"], report["pv"], "{report}");
    let found: Vec<(&str, f64)> = lines
        .iter()
        .map(|line| {
            (
                line["pv"][0].as_str().unwrap(),
                line["points"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [("b3:d1", 3.0), ("b3:c2", -2.0), ("b3:c3", -3.0)]);
    for line in lines {
        let mut end: yolah_core::Position = position.parse().unwrap();
        for m in line["pv"].as_array().unwrap() {
            let m = m.as_str().unwrap().parse().unwrap();
            assert_eq!(end.check_move(m), Ok(()), "{line}");
            end.play(m);
        }
        assert!(end.game_over(), "a proved line goes to the end: {line}");
    }
    // A game's reports carry no lines.
    send(
        &mut socket,
        &json!({"type": "new", "black": "minimax:depth=2", "white": "minimax:depth=2"}),
    )
    .await;
    let report = loop {
        // The analysis's last report may come first.
        let report = next(&mut socket, "report").await;
        if report["done"] == true && report["depth"] == 2 {
            break report;
        }
    };
    assert_eq!(report["lines"], json!([]), "{report}");
}

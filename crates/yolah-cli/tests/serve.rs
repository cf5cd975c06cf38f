//! `yolah serve` as a user starts it: it says where it serves, serves the page, and refuses
//! bad settings and a busy port in one line.

mod common;

use common::{assert_clean_error, yolah};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn serve_says_where_and_serves_the_page() {
    let (mut child, address) = start(std::path::Path::new(":memory:"));
    assert!(address.starts_with("127.0.0.1:"), "loopback: {address}");
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>Yolah</title>"));
}

#[test]
fn bad_settings_and_a_busy_port_are_one_line_errors() {
    for (args, expected, code) in [
        (vec!["serve", "--port", "70000"], "70000", 2),
        (vec!["serve", "--bind", "localhost:1"], "--bind", 2),
        (
            vec!["serve", "--max-games", "0"],
            "--max-games must be from 1 to 10000",
            2,
        ),
        (
            vec!["serve", "--max-searches", "5000"],
            "--max-searches must be from 1 to 1024",
            2,
        ),
        (
            vec!["serve", "--review-nodes", "0"],
            "--review-nodes must be from 1 to 100000000, not 0",
            2,
        ),
    ] {
        let output = yolah(&args, "");
        assert_clean_error(&output, expected);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
    }
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let output = yolah(&["serve", "--port", &port, "--db", ":memory:"], "");
    assert_clean_error(&output, "cannot listen on 127.0.0.1:");
    assert_eq!(output.status.code(), Some(1));
    // Refused, it leaves nothing behind: no database, no folder for it.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new").join("games.sqlite");
    let output = yolah(
        &["serve", "--port", &port, "--db", db.to_str().unwrap()],
        "",
    );
    assert_clean_error(&output, "cannot listen on 127.0.0.1:");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A value clap refuses gets the usage and a help command too.
    let output = yolah(&["serve", "--port", "99999"], "");
    assert_clean_error(&output, "(more: yolah serve --help)");
    assert_eq!(output.status.code(), Some(2));
}

/// `yolah serve --db PATH` on a port of its own: the child and its address.
fn start(db: &std::path::Path) -> (std::process::Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .strip_prefix("serving the board on http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    assert!(first.contains(&db.display().to_string()), "{first}");
    (child, address)
}

type Socket = tungstenite::WebSocket<std::net::TcpStream>;

fn socket(address: &str) -> Socket {
    let stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    tungstenite::client(format!("ws://{address}/ws"), stream)
        .unwrap()
        .0
}

/// The next message of type `kind`, skipping others.
fn next(socket: &mut Socket, kind: &str) -> serde_json::Value {
    loop {
        if let tungstenite::Message::Text(text) = socket.read().unwrap() {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// The next state or error.
fn reply(socket: &mut Socket) -> serde_json::Value {
    loop {
        if let tungstenite::Message::Text(text) = socket.read().unwrap() {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == "state" || value["type"] == "error" {
                return value;
            }
        }
    }
}

fn moves_of(state: &serde_json::Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The server killed (SIGKILL) in the middle of a burst of moves, after a
/// number of acknowledgements drawn at random, and started again on the same file keeps every
/// move it had acknowledged (the state it sent after each), nothing doubled, and the game goes
/// on from there.
#[test]
fn a_killed_server_keeps_every_acknowledged_move() {
    use rand::{RngExt, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let mut checked = 0;
    for round in 0..8 {
        // A whole game of random moves, people on both sides of one board.
        let mut position = yolah_core::Position::start();
        let mut game = Vec::new();
        while !position.game_over() {
            let moves = position.moves();
            let mv = moves.as_slice()[rng.random_range(0..moves.len())];
            position.play(mv);
            game.push(mv.to_string());
        }
        let (mut child, address) = start(&db);
        let mut page = socket(&address);
        let new = r#"{"type":"new","black":"human","white":"human","tc":"none"}"#;
        page.send(tungstenite::Message::text(new)).unwrap();
        let kept = next(&mut page, "game");
        next(&mut page, "state");
        // The burst: every move sent at once; the kill after a number of acknowledgements.
        for mv in &game {
            let play = format!(r#"{{"type":"play","move":"{mv}"}}"#);
            page.send(tungstenite::Message::text(play)).unwrap();
        }
        // Replies (a state, or an error for a pass the server had played itself) before the
        // kill.
        let kill_after = rng.random_range(1..game.len());
        let mut acknowledged = Vec::new();
        for _ in 0..kill_after {
            let reply = reply(&mut page);
            if reply["type"] == "state" {
                acknowledged = moves_of(&reply);
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        drop(page);
        let (mut child, address) = start(&db);
        let mut page = socket(&address);
        let open = serde_json::json!({"type": "open", "game": kept["id"], "token": kept["token"]});
        page.send(tungstenite::Message::text(open.to_string()))
            .unwrap();
        assert_eq!(next(&mut page, "game")["token"], kept["token"]);
        let state = next(&mut page, "state");
        let kept_moves = moves_of(&state);
        assert!(
            kept_moves.len() >= acknowledged.len() && !acknowledged.is_empty(),
            "round {round}: {} kept, {} acknowledged",
            kept_moves.len(),
            acknowledged.len()
        );
        assert_eq!(kept_moves[..], game[..kept_moves.len()], "round {round}");
        checked += acknowledged.len();
        // The game goes on where it stood.
        if let Some(mv) = game.get(kept_moves.len()) {
            let play = format!(r#"{{"type":"play","move":"{mv}"}}"#);
            page.send(tungstenite::Message::text(play)).unwrap();
            // (A move may bring the other side's pass with it, played by the server.)
            let on = moves_of(&reply(&mut page));
            assert!(
                on.len() > kept_moves.len() && game.starts_with(&on),
                "round {round}: {on:?} after {kept_moves:?}"
            );
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    eprintln!("8 kills, {checked} acknowledged moves checked, none lost");
}

/// A second server on the same database file is refused with one line (it
/// would overwrite the first one's games), and the file is left to the first.
#[test]
fn a_second_server_on_one_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let (mut first, _) = start(&db);
    let output = yolah(&["serve", "--port", "0", "--db", db.to_str().unwrap()], "");
    assert_clean_error(&output, "in use by another yolah serve");
    assert_eq!(output.status.code(), Some(1));
    first.kill().unwrap();
    first.wait().unwrap();
    // The first gone, the file is free again.
    let (mut again, _) = start(&db);
    again.kill().unwrap();
    again.wait().unwrap();
}

/// `yolah serve --port 0 --db DB` started, its stdout read through, and its first line.
fn serving(
    db: &std::ffi::OsStr,
) -> (
    std::process::Child,
    BufReader<std::process::ChildStdout>,
    String,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    output.read_line(&mut first).unwrap();
    (child, output, first)
}

/// Stops a server with SIGTERM: it must exit with 0; what it printed after its first line.
fn stopped(
    mut child: std::process::Child,
    mut output: BufReader<std::process::ChildStdout>,
) -> String {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    output.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{rest}");
    rest
}

/// Ctrl-C or SIGTERM stops the server cleanly: its games are folded from the
/// write-ahead log into the file (the file alone, copied elsewhere, holds them), it says so,
/// and exits with 0. Folders it made for `--db` are said on the first line.
#[test]
fn sigterm_folds_every_game_into_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new/folder/games.sqlite");
    let (child, output, first) = serving(db.as_os_str());
    assert!(
        first.contains(&format!(
            "(folder {} made)",
            dir.path().join("new/folder").display()
        )),
        "{first}"
    );
    let address = first
        .strip_prefix("serving the board on http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .to_string();
    let mut page = socket(&address);
    let new = r#"{"type":"new","black":"human","white":"human","tc":"none"}"#;
    page.send(tungstenite::Message::text(new)).unwrap();
    next(&mut page, "game");
    next(&mut page, "state");
    page.send(tungstenite::Message::text(
        r#"{"type":"play","move":"a1:c3"}"#,
    ))
    .unwrap();
    assert_eq!(moves_of(&next(&mut page, "state")), ["a1:c3"]);
    let rest = stopped(child, output);
    assert!(rest.starts_with("stopped; every game is in "), "{rest}");
    let copy = dir.path().join("copy.sqlite");
    std::fs::copy(&db, &copy).unwrap();
    let plies: i64 = rusqlite::Connection::open(&copy)
        .unwrap()
        .query_row("SELECT plies FROM games", [], |row| row.get(0))
        .unwrap();
    assert_eq!(plies, 1);
}

/// A file that is not a game database is refused with one line, and left as it was.
#[test]
fn a_damaged_database_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let junk = b"SQLite format 3\0 but not really: the rest of the header is junk....".repeat(20);
    std::fs::write(&path, &junk).unwrap();
    let output = yolah(
        &["serve", "--port", "0", "--db", path.to_str().unwrap()],
        "",
    );
    assert_clean_error(&output, "--db ");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&path).unwrap(), junk, "the file is unchanged");
}

/// `--db :memory:` says on starting and on stopping that the games live only in memory, not
/// that they are "in :memory:".
#[test]
fn a_memory_database_says_its_games_are_not_kept() {
    let (child, output, first) = serving(std::ffi::OsStr::new(":memory:"));
    assert!(
        first.contains("games kept in memory only (--db :memory:): gone when the server stops"),
        "{first}"
    );
    let rest = stopped(child, output);
    assert_eq!(
        rest.trim(),
        "stopped; the games were kept in memory only (--db :memory:) and are gone"
    );
    assert!(!std::path::Path::new(":memory:").exists());
}

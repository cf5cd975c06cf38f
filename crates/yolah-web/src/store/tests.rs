//! The unit tests of `store.rs`.

use super::*;
use yolah_core::Position;

fn game(moves: &[&str]) -> Saved {
    Saved {
        black: "human".into(),
        white: "random".into(),
        start: yolah_core::Position::start().to_string(),
        tc: None,
        moves: moves.iter().map(ToString::to_string).collect(),
        clocks: Vec::new(),
        flagged: None,
        resigned: None,
        turn_ms: 0,
        paused: false,
        result: None,
    }
}

fn kept(id: &str, moves: &[&str]) -> Kept {
    Kept {
        id: id.into(),
        kind: Kind::Own,
        tokens: [Some("t".into()), None],
        key: None,
        saved: game(moves),
    }
}

#[test]
fn a_game_is_kept_changed_and_listed() {
    let store = Arc::new(Store::memory());
    let _a = store.create(&kept("a", &[]), Some("h1"), 60).unwrap();
    let _b = store
        .create(&kept("b", &["a1:c3"]), Some("h1"), 60)
        .unwrap();
    assert_eq!(
        store
            .save("a", Some("h1"), &game(&["a1:c3", "h1:f3"]))
            .unwrap(),
        Written::Kept
    );
    // Another connection took it (with its token): the first one's writes are refused.
    let (taken, owner) = store.take("a", Some("t"), "h2").unwrap().unwrap();
    assert!(owner);
    assert_eq!(taken.saved.moves, ["a1:c3", "h1:f3"]);
    assert_eq!(
        store.save("a", Some("h1"), &game(&["a1:b2"])).unwrap(),
        Written::Taken
    );
    // Without the token, it is only read.
    let (_, owner) = store.take("a", Some("wrong"), "h3").unwrap().unwrap();
    assert!(!owner);
    assert_eq!(
        store.save("a", Some("h2"), &game(&["a1:c3"])).unwrap(),
        Written::Kept
    );
    let a = store.load("a").unwrap().unwrap();
    assert_eq!(a.saved.moves, ["a1:c3"]);
    assert_eq!(a.tokens, [Some("t".to_string()), None]);
    assert!(store.load("nope").unwrap().is_none());
    let page = store.list(&Cursor::Newest, 10).unwrap();
    assert_eq!(page.games.len(), 2);
    assert_eq!(page.games.iter().map(|g| g.plies).sum::<usize>(), 2);
    assert_eq!((page.newer, page.older), (None, None));
    assert_eq!(store.summaries(&["b", "zz"]).unwrap()[0].id, "b");
}

#[test]
fn the_archive_says_what_became_of_each_game() {
    let store = Arc::new(Store::memory());
    let status = |id: &str| store.summaries(&[id]).unwrap()[0].status;
    let _pin = store.create(&kept("a", &["a1:c3"]), Some("h"), 60).unwrap();
    // Played, then left, then played again by two pages at once and left by one.
    assert_eq!(status("a"), Status::Adjourned);
    let playing = store.play("a", Some("h"));
    assert_eq!(status("a"), Status::Playing);
    let again = store.play("a", Some("h"));
    drop(playing);
    assert_eq!(status("a"), Status::Playing);
    drop(again);
    assert_eq!(status("a"), Status::Adjourned);
    // A page whose game another page took plays it no more.
    let _lost = store.play("a", Some("h"));
    store.take("a", Some("t"), "h2").unwrap();
    assert_eq!(status("a"), Status::Adjourned);
    let taken = store.play("a", Some("h2"));
    assert_eq!(status("a"), Status::Playing);
    drop(taken);
    // Left for a week: abandoned (the list says it too).
    store
        .lock()
        .execute(
            "UPDATE games SET updated = ?1 WHERE id = 'a'",
            params![now() - ABANDONED_AFTER - 1],
        )
        .unwrap();
    assert_eq!(status("a"), Status::Abandoned);
    assert_eq!(
        store.list(&Cursor::Newest, 10).unwrap().games[0].status,
        Status::Abandoned
    );
    let _playing = store.play("a", Some("h2"));
    assert_eq!(status("a"), Status::Playing);
    // Over: finished, whoever has it open.
    let mut over = game(&["a1:c3"]);
    over.result = Some("black wins 1-0".to_string());
    store.save("a", Some("h2"), &over).unwrap();
    assert_eq!(status("a"), Status::Finished);
}

/// The explorer's moves of the start position, as (move, black, draws, white).
fn explored_at_start(store: &Store) -> Vec<(String, u32, u32, u32)> {
    let mut moves: Vec<_> = store
        .explored(&Position::start())
        .unwrap()
        .into_iter()
        .map(|p| {
            (
                p.mv.to_string(),
                p.tally.black,
                p.tally.draws,
                p.tally.white,
            )
        })
        .collect();
    moves.sort();
    moves
}

#[test]
fn finished_games_are_counted_once_and_again_when_they_change() {
    let store = Arc::new(Store::memory());
    let _pin = store.create(&kept("a", &[]), Some("h"), 60).unwrap();
    // Going on: not counted.
    store.save("a", Some("h"), &game(&["a1:c3"])).unwrap();
    assert!(explored_at_start(&store).is_empty());
    // Over (a resignation: the page's words): counted, once however often it is saved.
    let mut over = game(&["a1:c3", "h1:f3"]);
    over.result = Some("white wins by resignation".to_string());
    over.resigned = Some("black".to_string());
    store.save("a", Some("h"), &over).unwrap();
    store.save("a", Some("h"), &over).unwrap();
    assert_eq!(explored_at_start(&store), [("a1:c3".to_string(), 0, 0, 1)]);
    let mut after = Position::start();
    after.play("a1:c3".parse().unwrap());
    assert_eq!(store.explored(&after).unwrap().len(), 1);
    // Taken back after its end: out of the counts; over again another way: counted so.
    store.save("a", Some("h"), &game(&["a1:b2"])).unwrap();
    assert!(explored_at_start(&store).is_empty());
    assert!(store.explored(&after).unwrap().is_empty());
    let mut again = game(&["a1:b2"]);
    again.result = Some("black wins by resignation".to_string());
    again.resigned = Some("white".to_string());
    store.save("a", Some("h"), &again).unwrap();
    assert_eq!(explored_at_start(&store), [("a1:b2".to_string(), 1, 0, 0)]);
    // A second game through the same move adds to it.
    let _pin = store.create(&kept("b", &[]), Some("h"), 60).unwrap();
    store.save("b", Some("h"), &again).unwrap();
    assert_eq!(explored_at_start(&store), [("a1:b2".to_string(), 2, 0, 0)]);
}

/// A game whose explorer entry was damaged in the file (ours are written from checked games)
/// is still kept when it changes: the entry that cannot be read is not taken out in part (its
/// old counts stay, and the server says so), and the game's new state is counted.
#[test]
fn a_damaged_explorer_entry_does_not_stop_its_game_from_being_kept() {
    let store = Arc::new(Store::memory());
    let _pin = store.create(&kept("a", &[]), Some("h"), 60).unwrap();
    let mut over = game(&["a1:c3", "h1:f3"]);
    over.result = Some("white wins by resignation".to_string());
    over.resigned = Some("black".to_string());
    store.save("a", Some("h"), &over).unwrap();
    let damaged = serde_json::json!(["", "a1:c3 a1:c4", "0-1"]).to_string();
    store
        .lock()
        .execute(
            "UPDATE games SET explored = ?1 WHERE id = 'a'",
            params![damaged],
        )
        .unwrap();
    let mut again = game(&["a1:b2"]);
    again.result = Some("black wins by resignation".to_string());
    again.resigned = Some("white".to_string());
    store.save("a", Some("h"), &again).unwrap();
    // The old counts stay (nothing of them was taken out), the new game is counted.
    assert_eq!(
        explored_at_start(&store),
        [
            ("a1:b2".to_string(), 1, 0, 0),
            ("a1:c3".to_string(), 0, 0, 1)
        ]
    );
    let text: String = store
        .lock()
        .query_row("SELECT game FROM games WHERE id = 'a'", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert!(text.contains("a1:b2"), "{text}");
    // The entry is the new game's, readable again: the next change takes it out.
    store.save("a", Some("h"), &game(&["a1:b2"])).unwrap();
    assert_eq!(explored_at_start(&store), [("a1:c3".to_string(), 0, 0, 1)]);
}

#[test]
fn a_file_from_before_the_explorer_has_its_finished_games_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("older.sqlite");
    {
        let db = Connection::open(&path).unwrap();
        for step in &MIGRATIONS[..VERSION - 1] {
            db.execute_batch(step).unwrap();
        }
        db.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {};",
            VERSION - 1
        ))
        .unwrap();
        let mut over = game(&["h8:h5"]);
        over.result = Some("white wins by resignation".to_string());
        over.resigned = Some("black".to_string());
        // More finished games than one batch counts, and one going on.
        let going = game(&["h8:h5"]);
        let games = (0..1200)
            .map(|k| (format!("done-{k:04}"), &over))
            .chain([("going".to_string(), &going)]);
        for (id, saved) in games {
            db.execute(
                "INSERT INTO games (id, kind, created, updated, game, plies, result)
                 VALUES (?1, 'own', 5, 5, ?2, 1, ?3)",
                params![id, serde_json::to_string(saved).unwrap(), saved.result],
            )
            .unwrap();
        }
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        explored_at_start(&store),
        [("h8:h5".to_string(), 0, 0, 1200)]
    );
    drop(store);
    // Counted once: opening again counts nothing twice.
    let store = Store::open(&path).unwrap();
    assert_eq!(
        explored_at_start(&store),
        [("h8:h5".to_string(), 0, 0, 1200)]
    );
}

#[test]
fn a_write_that_finds_no_row_is_an_error() {
    let store = Arc::new(Store::memory());
    let error = store
        .save("gone", None, &game(&["a1:c3"]))
        .expect_err("no row to change");
    assert!(error.contains("no longer in the database"), "{error}");
    let error = store
        .set_tokens("gone", &[Some("t".into()), None], "k")
        .expect_err("no row to change");
    assert!(error.contains("no longer"), "{error}");
}

#[test]
fn pages_go_by_place_not_by_count() {
    let store = Arc::new(Store::memory());
    let mut pins = Vec::new();
    for k in 0..25 {
        pins.push(
            store
                .create(&kept(&format!("{k:02x}"), &["a1:c3"]), None, 60)
                .unwrap(),
        );
    }
    // Every game once, newest first, going older page by page and back newer.
    let mut seen = Vec::new();
    let mut cursor = Cursor::Newest;
    let mut pages = Vec::new();
    loop {
        let page = store.list(&cursor, 10).unwrap();
        seen.extend(page.games.iter().map(|g| g.id.clone()));
        pages.push(page.clone());
        let Some(older) = page.older else { break };
        let (created, id) = older.split_once('-').unwrap();
        cursor = Cursor::Older(created.parse().unwrap(), id.to_string());
    }
    assert_eq!(pages.len(), 3);
    let mut all = seen.clone();
    all.sort();
    all.dedup();
    assert_eq!((seen.len(), all.len()), (25, 25));
    let newer = pages[2].newer.clone().unwrap();
    let (created, id) = newer.split_once('-').unwrap();
    let back = store
        .list(&Cursor::Newer(created.parse().unwrap(), id.to_string()), 10)
        .unwrap();
    assert_eq!(back.games, pages[1].games);
}

#[test]
fn games_that_never_had_a_move_are_forgotten_unless_held_open() {
    let store = Arc::new(Store::memory());
    drop(store.create(&kept("empty", &[]), None, 60).unwrap());
    // Held open by a page: never forgotten, however old.
    let held = store.create(&kept("held", &[]), None, 60).unwrap();
    let _next = store.create(&kept("next", &[]), None, -1).unwrap();
    assert!(store.load("empty").unwrap().is_none());
    assert!(store.load("held").unwrap().is_some());
    assert!(store.load("next").unwrap().is_some());
    // Its page gone, it goes with the next new game, and its review with it (a game
    // resigned before its first move is over, and may be reviewed).
    drop(held);
    store.keep_review("held", "", "{}").unwrap();
    store.keep_review("next", "", "{}").unwrap();
    let _last = store.create(&kept("last", &[]), None, -1).unwrap();
    assert!(store.load("held").unwrap().is_none());
    assert_eq!(store.review("held").unwrap(), None);
    assert!(store.review("next").unwrap().is_some());
}

#[test]
fn a_second_server_on_the_same_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let first = Store::open(&path).unwrap();
    let error = Store::open(&path).err().expect("refused");
    assert!(error.contains("in use by another yolah serve"), "{error}");
    assert!(!error.contains('\n'), "{error}");
    // Nor under another name: a symbolic link, a hard link, a `file:` name.
    let symbolic = dir.path().join("symbolic.sqlite");
    std::os::unix::fs::symlink(&path, &symbolic).unwrap();
    let hard = dir.path().join("hard.sqlite");
    std::fs::hard_link(&path, &hard).unwrap();
    for other in [symbolic, hard] {
        let error = Store::open(&other).err().expect("refused");
        assert!(error.contains("in use by another yolah serve"), "{error}");
    }
    drop(first);
    Store::open(&path).unwrap();
    // A refused file is left as it was, with nothing beside it.
    let junk = dir.path().join("junk.txt");
    std::fs::write(
        &junk,
        "not a database, and long enough to say so ".repeat(40),
    )
    .unwrap();
    assert!(Store::open(&junk).is_err());
    assert!(!dir.path().join("junk.txt.lock").exists());
}

#[test]
fn a_file_stamped_with_our_version_but_without_the_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stamped.sqlite");
    Connection::open(&path)
        .unwrap()
        .execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION};"
        ))
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    let error = Store::open(&path).err().expect("refused");
    assert!(
        error.contains("damaged") && error.contains("no games table"),
        "{error}"
    );
    assert!(std::fs::read(&path).unwrap() == before, "the file changed");
}

#[test]
fn a_checkpoint_leaves_every_game_in_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let store = Arc::new(Store::open(&path).unwrap());
    let _pin = store.create(&kept("a", &["a1:c3"]), None, 60).unwrap();
    store.checkpoint().unwrap();
    // A copy of the file alone (no -wal beside it) has the game.
    let copy = dir.path().join("copy.sqlite");
    std::fs::copy(&path, &copy).unwrap();
    let db = Connection::open(&copy).unwrap();
    let games: i64 = db
        .query_row("SELECT count(*) FROM games", [], |row| row.get(0))
        .unwrap();
    assert_eq!(games, 1);
}

#[test]
fn a_damaged_row_is_listed_and_its_reason_given_when_read() {
    let store = Arc::new(Store::memory());
    let _a = store.create(&kept("a", &["a1:c3"]), None, 60).unwrap();
    let _b = store.create(&kept("b", &["a1:c3"]), None, 60).unwrap();
    store
        .lock()
        .execute("UPDATE games SET game = '{broken' WHERE id = 'b'", [])
        .unwrap();
    let page = store.list(&Cursor::Newest, 10).unwrap();
    assert_eq!(page.games.len(), 2);
    let b = page.games.iter().find(|g| g.id == "b").unwrap();
    assert_eq!(b.black, "?");
    assert!(store.load("b").unwrap_err().starts_with("game b:"));
    assert_eq!(store.summaries(&["a", "b"]).unwrap().len(), 2);
}

#[test]
fn an_older_file_is_migrated_and_its_games_listed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    {
        // A file as the first schema left it, with a game of two moves.
        let db = Connection::open(&path).unwrap();
        db.execute_batch(MIGRATIONS[0]).unwrap();
        db.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 1;"
        ))
        .unwrap();
        let saved = serde_json::to_string(&game(&["a1:c3", "h1:f3"])).unwrap();
        db.execute(
            "INSERT INTO games VALUES ('old', 'own', 't', 't', NULL, 5, 5, ?1)",
            params![saved],
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let games = store.list(&Cursor::Newest, 10).unwrap().games;
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].id.as_str(), games[0].plies), ("old", 2));
    assert_eq!(games[0].black, "human");
    drop(store);
    let db = Connection::open(&path).unwrap();
    let version: i64 = db
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, i64::try_from(VERSION).unwrap());
}

#[test]
fn foreign_newer_and_damaged_files_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("foreign.sqlite");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    let newer = dir.path().join("newer.sqlite");
    Connection::open(&newer)
        .unwrap()
        .execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 99;"
        ))
        .unwrap();
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, b"not a database at all, just some words".repeat(40)).unwrap();
    // Our schema's stamp and every step's tables but the last's (the explorer's).
    let reviewless = dir.path().join("reviewless.sqlite");
    {
        let db = Connection::open(&reviewless).unwrap();
        for step in &MIGRATIONS[..VERSION - 1] {
            db.execute_batch(step).unwrap();
        }
        db.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION};"
        ))
        .unwrap();
    }
    let newer_text = format!("schema is version 99, newer than this yolah's {VERSION}");
    for (path, expected) in [
        (&foreign, "not a Yolah game database"),
        (&newer, newer_text.as_str()),
        (&junk, "file is not a database"),
        (
            &reviewless,
            "the file is damaged: its games table lacks the column explored",
        ),
    ] {
        let before = std::fs::read(path).unwrap();
        let error = Store::open(path).err().expect("refused");
        assert!(error.contains(expected), "{error}");
        assert!(
            error.starts_with("--db ") && !error.contains('\n'),
            "{error}"
        );
        assert!(
            std::fs::read(path).unwrap() == before,
            "{} changed",
            path.display()
        );
    }
    // A new file is made, folders and all, and opens again.
    let fresh = dir.path().join("a/b/games.sqlite");
    Store::open(&fresh).unwrap();
    Store::open(&fresh).unwrap();
}

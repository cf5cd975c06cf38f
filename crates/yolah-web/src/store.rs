//! The server's games in SQLite (`yolah serve --db PATH`): every game but an analysis board,
//! kept after each change so that a reload, a dropped connection or a restart takes it up
//! again where it stood, and listed in the archive (`/games`).
//!
//! One row a game: the game itself as JSON ([`Saved`]), the side tokens, and the columns the
//! archive sorts and shows. Each write is one transaction in WAL mode: a process killed at any
//! moment loses at most the change in flight, never the file. The schema is versioned
//! (`user_version`) and migrated on open, step by step ([`MIGRATIONS`]); the file is marked
//! as ours (`application_id`), so another program's database, a newer schema or a damaged
//! file is refused with one line rather than changed.

use crate::game::Saved;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// `Yola` in ASCII: the `application_id` of our files.
pub const APPLICATION_ID: i32 = 0x596f_6c61;

/// The schema, one step per version: step `k` takes a file from version `k` to `k + 1`.
pub const MIGRATIONS: [&str; 2] = [
    // 1: the games.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        black_token TEXT,
        white_token TEXT,
        holder TEXT,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        game TEXT NOT NULL
    );",
    // 2: what the archive lists and sorts by, taken from the games already kept.
    "ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE games ADD COLUMN result TEXT;
     UPDATE games SET plies = json_array_length(game, '$.moves'),
                      result = json_extract(game, '$.result');
     CREATE INDEX games_by_date ON games (created DESC);",
];

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// The most games one page of the archive lists.
pub const MAX_PAGE: usize = 100;

/// Whose a kept game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// One page's game: against the machine, watched, or people at one board. Its token
    /// gives the whole game back.
    Own,
    /// Two browsers' game: each side's token gives that side back.
    Friends,
}

impl Kind {
    fn text(self) -> &'static str {
        match self {
            Kind::Own => "own",
            Kind::Friends => "friends",
        }
    }
}

/// A kept game.
#[derive(Clone, Debug)]
pub struct Kept {
    /// Its id.
    pub id: String,
    /// Whose it is.
    pub kind: Kind,
    /// Black's and white's tokens (an own game's token is on both).
    pub tokens: [Option<String>; 2],
    /// The game.
    pub saved: Saved,
}

/// One line of the archive.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Summary {
    /// The game's id: the board opens it at `/?game=ID`.
    pub id: String,
    /// `own` or `friends`.
    pub kind: Kind,
    /// Black's player.
    pub black: String,
    /// White's player.
    pub white: String,
    /// The result, or none while it goes on.
    pub result: Option<String>,
    /// Its moves so far, passes included.
    pub plies: usize,
    /// When it started and when it last changed, seconds since 1970 (UTC).
    pub created: i64,
    /// When it last changed.
    pub updated: i64,
}

/// The games of a server.
pub struct Store {
    db: Mutex<Connection>,
}

/// `words` random 64-bit words in hex, from the thread's cryptographic generator: game ids
/// and the tokens that give a game's sides back.
pub fn secret(words: usize) -> String {
    let words: Vec<String> = (0..words)
        .map(|_| format!("{:016x}", rand::random::<u64>()))
        .collect();
    words.concat()
}

/// Seconds since 1970.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn sql(e: &rusqlite::Error) -> String {
    let text = e.to_string();
    text.lines().next().unwrap_or_default().to_string()
}

impl Store {
    /// The database at `path` (`:memory:` for one that lives as long as the server), made if
    /// it does not exist and migrated if older; refused with one line if it is not ours, is
    /// newer than this build, or is damaged.
    pub fn open(path: &Path) -> Result<Store, String> {
        let shown = path.display();
        let refuse = |why: String| format!("--db {shown}: {why}");
        if path.as_os_str() == ":memory:" {
            return Ok(Store::memory());
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| refuse(format!("cannot make its folder: {e}")))?;
        }
        let db = Connection::open(path).map_err(|e| refuse(sql(&e)))?;
        Store::prepare(db).map_err(refuse)
    }

    /// A database in memory, gone with the server.
    pub fn memory() -> Store {
        let db = Connection::open_in_memory().expect("SQLite opens a database in memory");
        Store::prepare(db).expect("a new database takes the schema")
    }

    fn prepare(db: Connection) -> Result<Store, String> {
        let pragma = |name: &str| -> Result<i64, String> {
            db.query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))
                .map_err(|e| sql(&e))
        };
        // The first read of a file that is not SQLite fails here: "file is not a database".
        let application = pragma("application_id")?;
        let version = pragma("user_version")?;
        let tables = db
            .query_row("SELECT count(*) FROM sqlite_master", [], |row| {
                row.get::<_, i64>(0)
            })
            .map_err(|e| sql(&e))?;
        if application != i64::from(APPLICATION_ID) && (application != 0 || tables > 0) {
            return Err(
                "not a Yolah game database (another program's file); give another --db".to_string(),
            );
        }
        let version = usize::try_from(version).unwrap_or(usize::MAX);
        if version > VERSION {
            return Err(format!(
                "its schema is version {version}, newer than this yolah's {VERSION}; \
                 use a newer yolah"
            ));
        }
        let check: String = db
            .query_row("PRAGMA quick_check", [], |row| row.get(0))
            .map_err(|e| sql(&e))?;
        if check != "ok" {
            return Err(format!("the file is damaged ({check})"));
        }
        db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            .map_err(|e| sql(&e))?;
        db.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(|e| sql(&e))?;
        let store = Store { db: Mutex::new(db) };
        store.migrate(version)?;
        Ok(store)
    }

    /// Takes the schema from `version` to [`VERSION`], each step in its own transaction.
    fn migrate(&self, version: usize) -> Result<(), String> {
        let mut db = self.lock();
        for (step, migration) in MIGRATIONS.iter().enumerate().skip(version) {
            let tx = db.transaction().map_err(|e| sql(&e))?;
            tx.execute_batch(migration)
                .and_then(|()| {
                    tx.execute_batch(&format!(
                        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {};",
                        step + 1
                    ))
                })
                .map_err(|e| format!("cannot migrate to schema {}: {}", step + 1, sql(&e)))?;
            tx.commit().map_err(|e| sql(&e))?;
        }
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps a new game; games that never had a move and have not changed for `forget`
    /// seconds go (a page that opens many games and plays none does not fill the file).
    pub fn create(&self, kept: &Kept, holder: Option<&str>, forget: i64) -> Result<(), String> {
        let now = now();
        let game = serde_json::to_string(&kept.saved).expect("a game serialises");
        let db = self.lock();
        db.execute(
            "DELETE FROM games WHERE plies = 0 AND updated < ?1",
            params![now - forget],
        )
        .and_then(|_| {
            db.execute(
                "INSERT INTO games (id, kind, black_token, white_token, holder, created, updated,
                                    game, plies, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9)",
                params![
                    kept.id,
                    kept.kind.text(),
                    kept.tokens[0],
                    kept.tokens[1],
                    holder,
                    now,
                    game,
                    plies(&kept.saved),
                    kept.saved.result,
                ],
            )
        })
        .map(|_| ())
        .map_err(|e| format!("cannot keep the game: {}", sql(&e)))
    }

    /// Writes the game `id` as it stands, if `holder` still holds it (none: a shared game,
    /// held by the server); false if another connection took it since.
    pub fn save(&self, id: &str, holder: Option<&str>, saved: &Saved) -> Result<bool, String> {
        let game = serde_json::to_string(saved).expect("a game serialises");
        let changed = self
            .lock()
            .execute(
                "UPDATE games SET game = ?1, plies = ?2, result = ?3, updated = ?4
                 WHERE id = ?5 AND holder IS ?6",
                params![game, plies(saved), saved.result, now(), id, holder],
            )
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))?;
        Ok(changed == 1)
    }

    /// Sets a shared game's side tokens (as pages take the sides).
    pub fn set_tokens(&self, id: &str, tokens: &[Option<String>; 2]) -> Result<(), String> {
        self.lock()
            .execute(
                "UPDATE games SET black_token = ?1, white_token = ?2 WHERE id = ?3",
                params![tokens[0], tokens[1], id],
            )
            .map(|_| ())
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))
    }

    /// Makes `holder` the connection that holds the game `id` (the one before loses it).
    pub fn hold(&self, id: &str, holder: &str) -> Result<(), String> {
        self.lock()
            .execute(
                "UPDATE games SET holder = ?1 WHERE id = ?2",
                params![holder, id],
            )
            .map(|_| ())
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))
    }

    /// The game `id`, if kept; a row that does not read is refused with the reason.
    pub fn load(&self, id: &str) -> Result<Option<Kept>, String> {
        let row = self
            .lock()
            .query_row(
                "SELECT kind, black_token, white_token, game FROM games WHERE id = ?1",
                params![id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, Option<String>>(1)?,
                        row.get::<_, Option<String>>(2)?,
                        row.get::<_, String>(3)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| sql(&e))?;
        let Some((kind, black, white, game)) = row else {
            return Ok(None);
        };
        let kind = match kind.as_str() {
            "own" => Kind::Own,
            "friends" => Kind::Friends,
            other => return Err(format!("game {id}: unknown kind {other:?}")),
        };
        let saved = serde_json::from_str(&game).map_err(|e| format!("game {id}: {e}"))?;
        Ok(Some(Kept {
            id: id.to_string(),
            kind,
            tokens: [black, white],
            saved,
        }))
    }

    /// Page `page` (from 1) of the games that have moves, newest first, `per_page` a page;
    /// and how many there are in all.
    pub fn list(&self, page: usize, per_page: usize) -> Result<(Vec<Summary>, usize), String> {
        let per_page = per_page.clamp(1, MAX_PAGE);
        let offset = page.saturating_sub(1).saturating_mul(per_page);
        let db = self.lock();
        let total: i64 = db
            .query_row("SELECT count(*) FROM games WHERE plies > 0", [], |row| {
                row.get(0)
            })
            .map_err(|e| sql(&e))?;
        let mut statement = db
            .prepare(
                "SELECT id, kind, json_extract(game, '$.black'), json_extract(game, '$.white'),
                        plies, result, created, updated FROM games
                 WHERE plies > 0 ORDER BY created DESC, id LIMIT ?1 OFFSET ?2",
            )
            .map_err(|e| sql(&e))?;
        let rows = statement
            .query_map(
                params![
                    i64::try_from(per_page).unwrap_or(i64::MAX),
                    i64::try_from(offset).unwrap_or(i64::MAX)
                ],
                summary,
            )
            .map_err(|e| sql(&e))?;
        let games = rows.collect::<Result<Vec<_>, _>>().map_err(|e| sql(&e))?;
        Ok((games, usize::try_from(total).unwrap_or(0)))
    }

    /// The games of `ids` that are kept (any number of moves), newest first.
    pub fn summaries(&self, ids: &[&str]) -> Result<Vec<Summary>, String> {
        let db = self.lock();
        let mut statement = db
            .prepare(
                "SELECT id, kind, json_extract(game, '$.black'), json_extract(game, '$.white'),
                        plies, result, created, updated FROM games
                 WHERE id = ?1",
            )
            .map_err(|e| sql(&e))?;
        let mut found = Vec::new();
        for id in ids {
            if let Some(row) = statement
                .query_row(params![id], summary)
                .optional()
                .map_err(|e| sql(&e))?
            {
                found.push(row);
            }
        }
        found.sort_by(|a, b| b.created.cmp(&a.created).then(a.id.cmp(&b.id)));
        Ok(found)
    }
}

/// A game's moves, as a column.
fn plies(saved: &Saved) -> i64 {
    i64::try_from(saved.moves.len()).unwrap_or(i64::MAX)
}

/// A summary from a row of `id, kind, black, white, plies, result, created, updated` (the
/// players read by SQLite out of the kept JSON).
fn summary(row: &rusqlite::Row<'_>) -> rusqlite::Result<Summary> {
    let name = |k: usize| -> rusqlite::Result<String> {
        Ok(row
            .get::<_, Option<String>>(k)?
            .unwrap_or_else(|| "?".to_string()))
    };
    let kind: String = row.get(1)?;
    Ok(Summary {
        id: row.get(0)?,
        kind: if kind == "friends" {
            Kind::Friends
        } else {
            Kind::Own
        },
        black: name(2)?,
        white: name(3)?,
        plies: usize::try_from(row.get::<_, i64>(4)?).unwrap_or(0),
        result: row.get(5)?,
        created: row.get(6)?,
        updated: row.get(7)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            saved: game(moves),
        }
    }

    #[test]
    fn a_game_is_kept_changed_and_listed() {
        let store = Store::memory();
        store.create(&kept("a", &[]), Some("h1"), 60).unwrap();
        store
            .create(&kept("b", &["a1:c3"]), Some("h1"), 60)
            .unwrap();
        assert!(
            store
                .save("a", Some("h1"), &game(&["a1:c3", "h1:f3"]))
                .unwrap()
        );
        // Another connection took it: the first one's writes are refused.
        store.hold("a", "h2").unwrap();
        assert!(!store.save("a", Some("h1"), &game(&["a1:b2"])).unwrap());
        let a = store.load("a").unwrap().unwrap();
        assert_eq!(a.saved.moves, ["a1:c3", "h1:f3"]);
        assert_eq!(a.tokens, [Some("t".to_string()), None]);
        assert!(store.load("nope").unwrap().is_none());
        let (games, total) = store.list(1, 10).unwrap();
        assert_eq!(total, 2);
        assert_eq!(games.iter().map(|g| g.plies).sum::<usize>(), 3);
        let (page, _) = store.list(2, 1).unwrap();
        assert_eq!(page.len(), 1);
        assert_eq!(store.summaries(&["b", "zz"]).unwrap()[0].id, "b");
    }

    #[test]
    fn games_that_never_had_a_move_are_forgotten() {
        let store = Store::memory();
        store.create(&kept("empty", &[]), None, 60).unwrap();
        store.create(&kept("next", &[]), None, -1).unwrap();
        assert!(store.load("empty").unwrap().is_none());
        assert!(store.load("next").unwrap().is_some());
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
        let (games, total) = store.list(1, 10).unwrap();
        assert_eq!(total, 1);
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
        for (path, expected) in [
            (&foreign, "not a Yolah game database"),
            (&newer, "schema is version 99, newer than this yolah's 2"),
            (&junk, "file is not a database"),
        ] {
            let before = std::fs::read(path).unwrap();
            let error = Store::open(path).err().expect("refused");
            assert!(error.contains(expected), "{error}");
            assert!(
                error.starts_with("--db ") && !error.contains('\n'),
                "{error}"
            );
            assert_eq!(std::fs::read(path).unwrap(), before, "{}", path.display());
        }
        // A new file is made, folders and all, and opens again.
        let fresh = dir.path().join("a/b/games.sqlite");
        Store::open(&fresh).unwrap();
        Store::open(&fresh).unwrap();
    }
}

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
//!
//! One server a file: the server holds an advisory lock on the file while it lives, and a
//! second one is refused, whatever name it is given. Games written by the server's connections go through one writing
//! connection; the archive reads through a connection of its own, so a long listing never
//! makes a player's move wait (WAL lets readers and the writer work at once). A game a page
//! or a room holds open is [pinned](Store::pin): the forgetting of games with no move never
//! takes it. A write that finds no row to change is an error, never a silent success.

use crate::game::Saved;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};
use yolah_ai::explorer::{Outcomes, Played};

mod counts;
use counts::{key, recount};

/// `Yola` in ASCII: the `application_id` of our files.
pub const APPLICATION_ID: i32 = 0x596f_6c61;

/// The schema, one step per version: step `k` takes a file from version `k` to `k + 1`.
pub const MIGRATIONS: [&str; 6] = [
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
    // 3: the secret of a friends' game's join link, apart from its public id (a game kept
    // before has one made: its old link, the id alone, now only watches); the archive pages
    // by (created, id) over the games with moves.
    "ALTER TABLE games ADD COLUMN join_key TEXT;
     UPDATE games SET join_key = lower(hex(randomblob(16))) WHERE kind = 'friends';
     DROP INDEX games_by_date;
     CREATE INDEX games_listed ON games (created, id) WHERE plies > 0;",
    // 4: the reviews of finished games (`/games/ID/review.json`), each with the moves it
    // judged: a review of other moves than the game's is stale.
    "CREATE TABLE reviews (
        id TEXT PRIMARY KEY,
        moves TEXT NOT NULL,
        review TEXT NOT NULL,
        created INTEGER NOT NULL
    );",
    // 5: puzzles (`/puzzles`): each browser's rating and streak, each puzzle's rating, and
    // which puzzles each browser has tried (a puzzle counts once).
    "CREATE TABLE solvers (
        id TEXT PRIMARY KEY,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        streak INTEGER NOT NULL,
        best INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        created INTEGER NOT NULL
    );
    CREATE TABLE puzzle_ratings (
        id TEXT PRIMARY KEY,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts INTEGER NOT NULL
    );
    CREATE TABLE attempts (
        solver TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        solved INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (solver, puzzle)
    );",
    // 6: the opening explorer of the server's own games: the finished games' moves counted
    // by position (the position's Zobrist hash, the move's code) and result; on each game,
    // what it was counted as (`explored`: its start, moves and result; none until counted),
    // so that a game changed after its end (an undo) is taken out and counted again.
    "CREATE TABLE explorer (
        hash INTEGER NOT NULL,
        move INTEGER NOT NULL,
        black INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        white INTEGER NOT NULL,
        PRIMARY KEY (hash, move)
    ) WITHOUT ROWID;
    ALTER TABLE games ADD COLUMN explored TEXT;",
];

/// The columns of the reviews table of [`VERSION`].
const REVIEW_COLUMNS: [&str; 4] = ["id", "moves", "review", "created"];
/// The columns of the puzzles' tables of [`VERSION`].
const SOLVER_COLUMNS: [&str; 9] = [
    "id",
    "rating",
    "deviation",
    "volatility",
    "streak",
    "best",
    "solved",
    "failed",
    "created",
];
const PUZZLE_COLUMNS: [&str; 5] = ["id", "rating", "deviation", "volatility", "attempts"];
const ATTEMPT_COLUMNS: [&str; 4] = ["solver", "puzzle", "solved", "at"];
/// The columns of the explorer's table of [`VERSION`].
const EXPLORER_COLUMNS: [&str; 5] = ["hash", "move", "black", "draws", "white"];

/// The columns the schema of [`VERSION`] has: a file that says it is at that version but
/// lacks one is damaged.
const COLUMNS: [&str; 12] = [
    "id",
    "kind",
    "black_token",
    "white_token",
    "holder",
    "created",
    "updated",
    "game",
    "plies",
    "result",
    "join_key",
    "explored",
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
    /// A friends' game's join secret: the link that gives a free side carries it (the id is
    /// public, in the archive; this is not).
    pub key: Option<String>,
    /// The game.
    pub saved: Saved,
}

/// What a write of a game found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// The game is kept as it stands.
    Kept,
    /// Another connection holds the game now: nothing was written.
    Taken,
}

/// Where a page of the archive starts: after (older than) or before (newer than) a game's
/// place in the list, or at the newest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cursor {
    /// The newest games.
    Newest,
    /// The games older than this one (`created`, `id`).
    Older(i64, String),
    /// The games newer than this one.
    Newer(i64, String),
}

/// A page of the archive: its games, newest first, and where the pages beside it start (none
/// at an end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The games.
    pub games: Vec<Summary>,
    /// The cursor of the page of newer games.
    pub newer: Option<String>,
    /// The cursor of the page of older games.
    pub older: Option<String>,
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
    /// What became of it.
    pub status: Status,
    /// The mark of the page that holds it (none for a friends' game): who plays it.
    #[serde(skip)]
    pub holder: Option<String>,
}

/// What became of a kept game, as the archive says it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Over: it has a result.
    Finished,
    /// Played now: a page of one of its players (or a friends' game's room) has it open.
    Playing,
    /// Left unfinished less than [`ABANDONED_AFTER`] ago: whoever holds its token takes it
    /// up again where it stopped (`/?game=ID` from their browser).
    Adjourned,
    /// Left unfinished for longer; it can still be taken up the same way.
    Abandoned,
}

/// An unfinished game nobody plays is abandoned once it has not changed for this long
/// (seconds): a week.
pub const ABANDONED_AFTER: i64 = 7 * 24 * 3600;

/// The games of a server.
pub struct Store {
    /// The connection every write goes through.
    db: Mutex<Connection>,
    /// The archive's connection (a file's; a database in memory has only the one).
    reader: Option<Mutex<Connection>>,
    /// The ids of games pages and rooms hold open, and how many hold each.
    pinned: Mutex<HashMap<String, usize>>,
    /// The games played now (a subset of the pinned: a page that only shows a game pins it
    /// without playing it): for each id, the holders playing it (a page's mark; "" for a
    /// room), and how many times each.
    playing: Mutex<HashMap<String, HashMap<String, usize>>>,
    /// The lock that makes the file this server's alone (none in memory), held until the
    /// store is dropped.
    file_lock: Option<std::fs::File>,
}

/// A game held open: the store does not forget it while this lives.
pub struct Pin {
    store: Arc<Store>,
    id: String,
}

impl Drop for Pin {
    fn drop(&mut self) {
        release(&self.store.pinned, &self.id);
    }
}

/// A game played now (a page of its player's, or its room, by `holder`): the archive says
/// "playing" while this lives and `holder` still holds the game (a page whose game another
/// page took plays it no more).
pub struct Playing {
    store: Arc<Store>,
    id: String,
    holder: String,
}

impl Drop for Playing {
    fn drop(&mut self) {
        let mut playing = lock(&self.store.playing);
        if let Some(holders) = playing.get_mut(&self.id) {
            if let Some(count) = holders.get_mut(&self.holder) {
                *count -= 1;
                if *count == 0 {
                    holders.remove(&self.holder);
                }
            }
            if holders.is_empty() {
                playing.remove(&self.id);
            }
        }
    }
}

/// One holder fewer of `id` in `held`.
fn release(held: &Mutex<HashMap<String, usize>>, id: &str) {
    let mut held = lock(held);
    if let Some(count) = held.get_mut(id) {
        *count -= 1;
        if *count == 0 {
            held.remove(id);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes an advisory lock on the database file itself (`flock`: apart from SQLite's own
/// `fcntl` locks), so that a second server on the same file, under any name (a symbolic or
/// hard link, another spelling of the path), is refused. Dropped after the store's
/// connections (the fields' order), so closing it cannot touch SQLite's locks.
fn lock_file(path: &Path) -> Result<std::fs::File, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot lock it: {e}"))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err("in use by another yolah serve; stop it or give another --db".to_string())
        }
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock it: {e}")),
    }
}

/// How long a kept game that never had a move, held open by no page, is kept: a week (a page
/// closed while it waits for its first move comes back to it; what a client may create is
/// bounded by address, so these cannot fill the file).
pub const FORGET_EMPTY_AFTER: i64 = 7 * 24 * 3600;

/// How the store opens a file: read and write, made if missing, a path and never a `file:`
/// URI (a URI would name the same file by another name).
const FLAGS: OpenFlags = OpenFlags::SQLITE_OPEN_READ_WRITE
    .union(OpenFlags::SQLITE_OPEN_CREATE)
    .union(OpenFlags::SQLITE_OPEN_NO_MUTEX);

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

pub(crate) fn sql(e: &rusqlite::Error) -> String {
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
        let db = Connection::open_with_flags(path, FLAGS).map_err(|e| refuse(sql(&e)))?;
        let file_lock = lock_file(path).map_err(refuse)?;
        let mut store = Store::prepare(db).map_err(refuse)?;
        let reader = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .and_then(|reader| {
            reader.busy_timeout(std::time::Duration::from_secs(5))?;
            Ok(reader)
        })
        .map_err(|e| refuse(sql(&e)))?;
        store.reader = Some(Mutex::new(reader));
        store.file_lock = Some(file_lock);
        Ok(store)
    }

    /// A database in memory, gone with the server.
    pub fn memory() -> Store {
        let db = Connection::open_in_memory().expect("SQLite opens a database in memory");
        Store::prepare(db).expect("a new database takes the schema")
    }

    /// Writes everything the write-ahead log holds into the database file itself, so that
    /// the file alone has every game (at a server's end: `games.sqlite` can then be copied
    /// on its own).
    pub fn checkpoint(&self) -> Result<(), String> {
        self.lock()
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(|e| format!("cannot checkpoint the games: {}", sql(&e)))
    }

    /// Holds the game `id` open: it is not forgotten (as a game with no move is) while the
    /// returned pin lives.
    pub fn pin(self: &Arc<Store>, id: &str) -> Pin {
        *lock(&self.pinned).entry(id.to_string()).or_insert(0) += 1;
        Pin {
            store: Arc::clone(self),
            id: id.to_string(),
        }
    }

    /// Counts in the explorer the finished games not counted yet (those of a file from before
    /// the explorer), a few hundred in each transaction: a kill loses none of the work done.
    fn count_finished(&self) -> Result<(), String> {
        let db = self.lock();
        let failed = |e: rusqlite::Error| format!("cannot count the finished games: {}", sql(&e));
        // In the order of the ids (the primary key), from where the last batch stopped: each
        // row is read once.
        let mut after = String::new();
        loop {
            let tx = db.unchecked_transaction().map_err(failed)?;
            let batch: Vec<(String, String)> = tx
                .prepare(
                    "SELECT CAST(id AS TEXT), CAST(game AS TEXT) FROM games
                     WHERE id > ?1 AND result IS NOT NULL AND explored IS NULL
                     ORDER BY id LIMIT 500",
                )
                .and_then(|mut statement| {
                    statement
                        .query_map(params![after], |row| Ok((row.get(0)?, row.get(1)?)))?
                        .collect()
                })
                .map_err(failed)?;
            let Some((last, _)) = batch.last() else {
                return Ok(());
            };
            after.clone_from(last);
            for (id, game) in &batch {
                match serde_json::from_str::<Saved>(game) {
                    Ok(saved) => recount(&tx, id, &saved).map_err(failed)?,
                    // A damaged row is listed, not counted; marked, so it is not read again.
                    Err(_) => {
                        tx.execute("UPDATE games SET explored = '' WHERE id = ?1", params![id])
                            .map_err(failed)?;
                    }
                }
            }
            tx.commit().map_err(failed)?;
        }
    }

    /// The moves the server's finished games played from `position`, with how they ended.
    pub fn explored(&self, position: &yolah_core::Position) -> Result<Vec<Played>, String> {
        let db = self.read();
        let failed = |e: rusqlite::Error| format!("cannot read the explorer: {}", sql(&e));
        let mut statement = db
            .prepare("SELECT move, black, draws, white FROM explorer WHERE hash = ?1")
            .map_err(failed)?;
        let rows = statement
            .query_map(params![key(position.hash())], |row| {
                let count = |k: usize| -> rusqlite::Result<u32> {
                    Ok(u32::try_from(row.get::<_, i64>(k)?).unwrap_or(0))
                };
                Ok(Played {
                    mv: yolah_core::Move::from_raw(
                        u16::try_from(row.get::<_, i64>(0)?).unwrap_or(0),
                    ),
                    tally: Outcomes {
                        black: count(1)?,
                        draws: count(2)?,
                        white: count(3)?,
                    },
                })
            })
            .map_err(failed)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(failed)
    }

    /// Marks the game `id` as played now by `holder` (a page's mark on the row; none for a
    /// room) while the returned guard lives and the row is still `holder`'s (see
    /// [`Status::Playing`]).
    pub fn play(self: &Arc<Store>, id: &str, holder: Option<&str>) -> Playing {
        let holder = holder.unwrap_or_default().to_string();
        *lock(&self.playing)
            .entry(id.to_string())
            .or_default()
            .entry(holder.clone())
            .or_insert(0) += 1;
        Playing {
            store: Arc::clone(self),
            id: id.to_string(),
            holder,
        }
    }

    /// What became of the listed games, `now` (seconds since 1970).
    fn with_status(&self, games: &mut [Summary], now: i64) {
        let playing = lock(&self.playing);
        for game in games {
            game.status = if game.result.is_some() {
                Status::Finished
            } else if playing.get(&game.id).is_some_and(|holders| {
                holders.contains_key(game.holder.as_deref().unwrap_or_default())
            }) {
                Status::Playing
            } else if now - game.updated >= ABANDONED_AFTER {
                Status::Abandoned
            } else {
                Status::Adjourned
            };
        }
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
        // Checked before anything is written: a file stamped with a schema but without its
        // table is damaged, not new.
        let games = db
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
                [],
                |row| row.get::<_, i64>(0),
            )
            .map_err(|e| sql(&e))?;
        if version > 0 && games == 0 {
            return Err(format!(
                "the file is damaged: it says schema {version} but has no games table"
            ));
        }
        // A file at this version is checked whole before anything is written to it.
        if version == VERSION {
            Store::check_schema(&db)?;
        }
        db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            .map_err(|e| sql(&e))?;
        db.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(|e| sql(&e))?;
        let store = Store {
            db: Mutex::new(db),
            reader: None,
            pinned: Mutex::default(),
            playing: Mutex::default(),
            file_lock: None,
        };
        store.migrate(version)?;
        Store::check_schema(&store.lock())?;
        store.count_finished()?;
        Ok(store)
    }

    /// Fails unless every table has every column of this version (a file
    /// stamped with our version whose table is gone or different is damaged, not empty).
    fn check_schema(db: &Connection) -> Result<(), String> {
        for (table, wanted) in [
            ("games", &COLUMNS[..]),
            ("reviews", &REVIEW_COLUMNS[..]),
            ("solvers", &SOLVER_COLUMNS[..]),
            ("puzzle_ratings", &PUZZLE_COLUMNS[..]),
            ("attempts", &ATTEMPT_COLUMNS[..]),
            ("explorer", &EXPLORER_COLUMNS[..]),
        ] {
            let mut statement = db
                .prepare("SELECT name FROM pragma_table_info(?1)")
                .map_err(|e| sql(&e))?;
            let columns = statement
                .query_map(params![table], |row| row.get::<_, String>(0))
                .and_then(Iterator::collect::<Result<Vec<_>, _>>)
                .map_err(|e| sql(&e))?;
            if let Some(missing) = wanted
                .iter()
                .find(|c| !columns.iter().any(|have| have == *c))
            {
                return Err(format!(
                    "the file is damaged: its {table} table lacks the column {missing}"
                ));
            }
        }
        Ok(())
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

    pub(crate) fn lock(&self) -> MutexGuard<'_, Connection> {
        lock(&self.db)
    }

    /// The archive's connection.
    pub(crate) fn read(&self) -> MutexGuard<'_, Connection> {
        self.reader.as_ref().map_or_else(|| self.lock(), lock)
    }

    /// Keeps a new game and pins it (see [`Store::pin`]); games that never had a move, have
    /// not changed for `forget` seconds and are not pinned go (a page that opens many games
    /// and plays none does not fill the file).
    pub fn create(
        self: &Arc<Store>,
        kept: &Kept,
        holder: Option<&str>,
        forget: i64,
    ) -> Result<Pin, String> {
        let now = now();
        let game = serde_json::to_string(&kept.saved).expect("a game serialises");
        let pin = self.pin(&kept.id);
        // The pins are read under the writer's lock: a page pins a game before it reads it,
        // so a game opened now is either pinned here or written after this.
        let db = self.lock();
        let pinned: Vec<String> = lock(&self.pinned).keys().cloned().collect();
        let pinned = serde_json::to_string(&pinned).expect("ids serialise");
        db.execute(
            "DELETE FROM games WHERE plies = 0 AND updated < ?1
                                 AND id NOT IN (SELECT value FROM json_each(?2))",
            params![now - forget, pinned],
        )
        // The reviews of games forgotten (one resigned before its first move) go with them.
        .and_then(|_| {
            db.execute(
                "DELETE FROM reviews WHERE id NOT IN (SELECT id FROM games)",
                [],
            )
        })
        .and_then(|_| {
            db.execute(
                "INSERT INTO games (id, kind, black_token, white_token, holder, created, updated,
                                    game, plies, result, join_key)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10)",
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
                    kept.key,
                ],
            )
        })
        .map(|_| pin)
        .map_err(|e| format!("cannot keep the game: {}", sql(&e)))
    }

    /// Writes the game `id` as it stands, if `holder` still holds it (none: a shared game,
    /// held by the server). A game no longer kept at all is an error: the change was not
    /// kept.
    pub fn save(&self, id: &str, holder: Option<&str>, saved: &Saved) -> Result<Written, String> {
        let game = serde_json::to_string(saved).expect("a game serialises");
        let db = self.lock();
        let failed = |e: rusqlite::Error| format!("cannot keep the game: {}", sql(&e));
        // The game and the explorer's counts of it change together, or neither does.
        let tx = db.unchecked_transaction().map_err(failed)?;
        let changed = tx
            .execute(
                "UPDATE games SET game = ?1, plies = ?2, result = ?3, updated = ?4
                 WHERE id = ?5 AND holder IS ?6",
                params![game, plies(saved), saved.result, now(), id, holder],
            )
            .map_err(failed)?;
        if changed == 1 {
            recount(&tx, id, saved).map_err(failed)?;
            tx.commit().map_err(failed)?;
            return Ok(Written::Kept);
        }
        drop(tx);
        let exists = db
            .query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(()))
            .optional()
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))?
            .is_some();
        if exists {
            Ok(Written::Taken)
        } else {
            Err(format!(
                "cannot keep the game: game {id} is no longer in the database; the move was not kept"
            ))
        }
    }

    /// Sets a shared game's side tokens (as pages take the sides) and its join secret.
    pub fn set_tokens(
        &self,
        id: &str,
        tokens: &[Option<String>; 2],
        key: &str,
    ) -> Result<(), String> {
        let changed = self
            .lock()
            .execute(
                "UPDATE games SET black_token = ?1, white_token = ?2, join_key = ?3 WHERE id = ?4",
                params![tokens[0], tokens[1], key, id],
            )
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))?;
        if changed == 1 {
            Ok(())
        } else {
            Err(format!(
                "cannot keep the game: game {id} is no longer in the database"
            ))
        }
    }

    /// The game `id`, if kept; and if `token` is one of its tokens, taken by `holder` in the
    /// same transaction (the connection that held it before loses it): no write of the old
    /// holder can fall between the read and the taking. Whether it was taken.
    pub fn take(
        &self,
        id: &str,
        token: Option<&str>,
        holder: &str,
    ) -> Result<Option<(Kept, bool)>, String> {
        let mut db = self.lock();
        let tx = db.transaction().map_err(|e| sql(&e))?;
        let Some(kept) = Store::row(&tx, id)? else {
            return Ok(None);
        };
        let owner = token.is_some_and(|t| kept.tokens.iter().flatten().any(|k| k == t));
        if owner {
            tx.execute(
                "UPDATE games SET holder = ?1 WHERE id = ?2",
                params![holder, id],
            )
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))?;
        }
        tx.commit()
            .map_err(|e| format!("cannot keep the game: {}", sql(&e)))?;
        Ok(Some((kept, owner)))
    }

    /// The game `id`, if kept; a row that does not read is refused with the reason.
    pub fn load(&self, id: &str) -> Result<Option<Kept>, String> {
        Store::row(&self.read(), id)
    }

    fn row(db: &Connection, id: &str) -> Result<Option<Kept>, String> {
        let row = db
            .query_row(
                "SELECT kind, black_token, white_token, game, join_key FROM games WHERE id = ?1",
                params![id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, Option<String>>(1)?,
                        row.get::<_, Option<String>>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, Option<String>>(4)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| sql(&e))?;
        let Some((kind, black, white, game, key)) = row else {
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
            key,
            saved,
        }))
    }

    /// The review kept of game `id`, if any: the moves it judged (separated by spaces) and
    /// the review's JSON.
    pub fn review(&self, id: &str) -> Result<Option<(String, String)>, String> {
        self.read()
            .query_row(
                "SELECT CAST(moves AS TEXT), CAST(review AS TEXT) FROM reviews WHERE id = ?1",
                params![id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(|e| format!("cannot read the review of game {id}: {}", sql(&e)))
    }

    /// Keeps the review of game `id` made of `moves` (replacing one of other moves), if the
    /// game is still kept.
    pub fn keep_review(&self, id: &str, moves: &str, review: &str) -> Result<(), String> {
        let changed = self
            .lock()
            .execute(
                "INSERT OR REPLACE INTO reviews (id, moves, review, created)
                 SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)",
                params![id, moves, review, now()],
            )
            .map_err(|e| format!("cannot keep the review: {}", sql(&e)))?;
        if changed == 1 {
            Ok(())
        } else {
            Err(format!(
                "cannot keep the review: game {id} is no longer in the database"
            ))
        }
    }

    /// A page of at most `per_page` games that have moves, newest first, from `cursor`.
    pub fn list(&self, cursor: &Cursor, per_page: usize) -> Result<Page, String> {
        let per_page = per_page.clamp(1, MAX_PAGE);
        // One more than asked: whether there is a page beyond.
        let limit = i64::try_from(per_page + 1).unwrap_or(i64::MAX);
        let (condition, order, created, id) = match cursor {
            Cursor::Newest => ("1", "DESC", 0, ""),
            Cursor::Older(created, id) => {
                ("(created, id) < (?2, ?3)", "DESC", *created, id.as_str())
            }
            Cursor::Newer(created, id) => {
                ("(created, id) > (?2, ?3)", "ASC", *created, id.as_str())
            }
        };
        let db = self.read();
        let mut statement = db
            .prepare(&format!(
                "SELECT {SUMMARY} FROM games WHERE plies > 0 AND {condition}
                 ORDER BY created {order}, id {order} LIMIT ?1"
            ))
            .map_err(|e| sql(&e))?;
        let rows = match cursor {
            Cursor::Newest => statement.query_map(params![limit], summary),
            _ => statement.query_map(params![limit, created, id], summary),
        }
        .map_err(|e| sql(&e))?;
        let mut games = rows.collect::<Result<Vec<_>, _>>().map_err(|e| sql(&e))?;
        let beyond = games.len() > per_page;
        games.truncate(per_page);
        self.with_status(&mut games, now());
        if matches!(cursor, Cursor::Newer(..)) {
            games.reverse();
        }
        let mark = |g: &Summary| format!("{}-{}", g.created, g.id);
        let (before, after) = match cursor {
            Cursor::Newest => (None, beyond.then(|| games.last().map(mark)).flatten()),
            Cursor::Older(..) => (
                games.first().map(mark),
                beyond.then(|| games.last().map(mark)).flatten(),
            ),
            Cursor::Newer(..) => (
                beyond.then(|| games.first().map(mark)).flatten(),
                games.last().map(mark),
            ),
        };
        Ok(Page {
            games,
            newer: before,
            older: after,
        })
    }

    /// The games of `ids` that are kept (any number of moves), newest first.
    pub fn summaries(&self, ids: &[&str]) -> Result<Vec<Summary>, String> {
        let db = self.read();
        let mut statement = db
            .prepare(&format!("SELECT {SUMMARY} FROM games WHERE id = ?1"))
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
        self.with_status(&mut found, now());
        Ok(found)
    }
}

/// The columns of a [`Summary`]: the players read by SQLite out of the kept JSON, or `?` from
/// a row whose JSON is damaged, each column of the type the summary reads (a damaged row is
/// listed with what can be read; opening it says what is wrong).
const SUMMARY: &str = "CAST(id AS TEXT), CAST(kind AS TEXT),
    CASE WHEN json_valid(game) THEN CAST(json_extract(game, '$.black') AS TEXT) END,
    CASE WHEN json_valid(game) THEN CAST(json_extract(game, '$.white') AS TEXT) END,
    CAST(plies AS INTEGER),
    CASE WHEN typeof(result) = 'text' THEN result END,
    CAST(created AS INTEGER), CAST(updated AS INTEGER),
    CASE WHEN typeof(holder) = 'text' THEN holder END";

/// A game's moves, as a column.
fn plies(saved: &Saved) -> i64 {
    i64::try_from(saved.moves.len()).unwrap_or(i64::MAX)
}

/// A summary from a row of [`SUMMARY`].
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
        // Set from the store's own knowledge after the query (`with_status`).
        status: Status::Adjourned,
        holder: row.get(8)?,
    })
}

#[cfg(test)]
mod tests;

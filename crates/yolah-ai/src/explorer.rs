//! The opening explorer's database: for each position reached in a set of games, the moves
//! played from it, each with how many games it was played in and how those games ended
//! (`yolah explorer build FILES… --out DB`, `yolah explorer DB -p POSITION`;
//! `docs/explorer-format.md`). Positions are told apart by their Zobrist hash (pieces, holes,
//! points, side to move), so transpositions meet. The file is built in memory, written whole
//! through a locked `DB.partial` and renamed: a reader never sees half a database.

use crate::files;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use yolah_core::{Color, Move, Outcome, Position};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"YOLAHEX2";
/// The first bytes of the first format, whose checksum left the game count out.
const MAGIC_1: &[u8; 8] = b"YOLAHEX1";
/// Header: magic, key check (u64), games (u64), entries (u64), CRC-32 (u32) of the games and
/// entries counts and of the entries: every byte after the key check is checked.
const HEADER: usize = 8 + 8 + 8 + 8 + 4;
/// An entry: position hash (u64), move (u16), black's wins, draws, white's wins (u32 each).
const ENTRY: usize = 8 + 2 + 4 * 3;
/// The largest database read: 2 GiB (about 97 M entries).
pub const MAX_BYTES: u64 = 2 << 30;

/// The CRC-32 of the header's two counts (`counts`, 16 bytes) and then the entries.
fn checksum(counts: &[u8], body: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(counts);
    hasher.update(body);
    hasher.finalize()
}

/// The hash of a fixed position: a database whose header holds another was built with other
/// Zobrist keys, and its positions would not be found.
fn key_check() -> u64 {
    let mut position = Position::start();
    for m in ["a1:c3", "h1:f3"] {
        position.play(m.parse().expect("a move"));
    }
    position.hash()
}

/// How the games a move was played in ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Games black won.
    pub black: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games white won.
    pub white: u32,
}

impl Outcomes {
    /// Games in all.
    pub fn games(&self) -> u64 {
        u64::from(self.black) + u64::from(self.draws) + u64::from(self.white)
    }

    /// The share of the points `side` scored in these games (a draw is half), 0 to 1.
    pub fn score(&self, side: Color) -> f64 {
        let wins = match side {
            Color::Black => self.black,
            Color::White => self.white,
        };
        (f64::from(wins) + f64::from(self.draws) / 2.0) / self.games().max(1) as f64
    }

    /// One game more, ended so.
    pub fn add(&mut self, outcome: Outcome) {
        let count = match outcome {
            Outcome::Win(Color::Black) => &mut self.black,
            Outcome::Win(Color::White) => &mut self.white,
            Outcome::Draw => &mut self.draws,
        };
        *count = count.saturating_add(1);
    }
}

/// A move of a position, with its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// How its games ended.
    pub tally: Outcomes,
}

/// A database being built: every position of the games added, with its moves.
#[derive(Default)]
pub struct Builder {
    moves: HashMap<(u64, u16), Outcomes>,
    games: u64,
}

impl Builder {
    /// Nothing added yet.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Adds a finished game: its moves from `start` (each legal: checked) and how it ended.
    /// A game cut short (adjudicated, forfeited) counts its moves with its result.
    pub fn add(
        &mut self,
        start: &Position,
        moves: &[Move],
        outcome: Outcome,
    ) -> Result<(), String> {
        let mut position = *start;
        let mut seen = Vec::with_capacity(moves.len());
        for (ply, &m) in moves.iter().enumerate() {
            position
                .check_move(m)
                .map_err(|e| format!("move {} ({m}): {e}", ply + 1))?;
            seen.push((position.hash(), m.raw()));
            position.play(m);
        }
        for key in seen {
            self.moves.entry(key).or_default().add(outcome);
        }
        self.games += 1;
        Ok(())
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Distinct (position, move) pairs.
    pub fn entries(&self) -> usize {
        self.moves.len()
    }

    /// The database's bytes, as [`Builder::write`] writes them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut entries: Vec<(&(u64, u16), &Outcomes)> = self.moves.iter().collect();
        entries.sort_unstable_by_key(|(key, _)| **key);
        let mut body = Vec::with_capacity(entries.len() * ENTRY);
        for ((hash, mv), tally) in entries {
            body.extend_from_slice(&hash.to_le_bytes());
            body.extend_from_slice(&mv.to_le_bytes());
            for count in [tally.black, tally.draws, tally.white] {
                body.extend_from_slice(&count.to_le_bytes());
            }
        }
        let mut bytes = Vec::with_capacity(HEADER + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&key_check().to_le_bytes());
        bytes.extend_from_slice(&self.games.to_le_bytes());
        bytes.extend_from_slice(&(self.moves.len() as u64).to_le_bytes());
        let crc = checksum(&bytes[16..32], &body);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Writes the database to `path`, which must not exist (nor be a link, even a broken
    /// one): whole or not at all. It is written into `PATH.partial`, locked while it is
    /// written (a second build of the same file is refused); a `PATH.partial` that is not a
    /// leftover of ours (empty, or starting with our magic) is refused and left as it is. The
    /// file is made durable, then renamed to `path` without replacing anything. A failure (a
    /// full disk) removes the partial file.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let shown = path.display();
        if path.symlink_metadata().is_ok() {
            return Err(format!(
                "'{shown}' exists: the explorer writes a new database; remove it or choose another --out"
            ));
        }
        let partial = partial_path(path);
        let partial_shown = partial.display();
        let file =
            open_partial(&partial).map_err(|e| format!("cannot write '{partial_shown}': {e}"))?;
        if file.try_lock().is_err() {
            return Err(format!(
                "'{shown}' is being written by another yolah explorer build; wait for it or choose another --out"
            ));
        }
        // Locked: still the file at that name (not one another build renamed meanwhile), and
        // ours to write over.
        let (opened, named) = (file.metadata(), partial.symlink_metadata());
        let same = match (&opened, &named) {
            (Ok(a), Ok(b)) => same_file(a, b),
            _ => false,
        };
        if !same {
            return Err(format!(
                "'{shown}' is being written by another yolah explorer build; wait for it or choose another --out"
            ));
        }
        if !leftover_of_ours(&file) {
            return Err(format!(
                "'{partial_shown}' is in the way and is not a database being written: remove it or choose another --out"
            ));
        }
        let written = write_whole(&file, &self.to_bytes())
            .and_then(|()| rename_new(&partial, path))
            .and_then(|()| files::sync_folder(path));
        if let Err(error) = written {
            // Ours alone to remove: unless the rename was refused because `path` appeared, the
            // partial file is still the one written here.
            let _ = std::fs::remove_file(&partial);
            return Err(format!("cannot write '{shown}': {error}"));
        }
        Ok(())
    }
}

/// Opens `PATH.partial` for writing, made if missing, never through a link.
fn open_partial(partial: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).read(true).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(partial)
}

/// Whether two metadata are of the same file (device and inode).
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino() && b.file_type().is_file() && a.nlink() == 1
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && b.file_type().is_file()
    }
}

/// Whether the locked partial file is empty or starts as our databases do: a build's own, made
/// now or left by a killed one.
fn leftover_of_ours(mut file: &File) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(_) => return false,
        }
    }
    read == 0 || (read == head.len() && &head == MAGIC)
}

/// Renames `from` to `to`, failing if `to` exists (never replacing what appeared there).
fn rename_new(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| {
            CString::new(p.as_os_str().as_bytes())
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in the path"))
        };
        let (from, to) = (c(from)?, c(to)?);
        // SAFETY: both are NUL-terminated paths that live across the call.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        if to.symlink_metadata().is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "it appeared meanwhile",
            ));
        }
        std::fs::rename(from, to)
    }
}

/// Where a database is written before it is renamed.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".partial");
    PathBuf::from(name)
}

fn write_whole(mut file: &File, bytes: &[u8]) -> io::Result<()> {
    file.set_len(0)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// A database, read whole and checked.
pub struct Explorer {
    games: u64,
    /// The entries as stored: sorted by (hash, move).
    body: Vec<u8>,
}

impl Explorer {
    /// Reads and checks the database at `path` (a regular file of at most [`MAX_BYTES`]).
    pub fn open(path: &Path) -> Result<Explorer, String> {
        let bytes = files::read_bounded(path, MAX_BYTES)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Explorer::from_bytes(bytes).map_err(|e| format!("'{}' {e}", path.display()))
    }

    /// A database from its bytes: refused, with the reason, unless whole and ours.
    pub fn from_bytes(mut bytes: Vec<u8>) -> Result<Explorer, String> {
        if bytes.len() >= 8 && &bytes[..8] == MAGIC_1 {
            return Err(
                "was built by an older version of yolah, whose checksum left the game count \
                 out: build it again"
                    .into(),
            );
        }
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("is not an explorer database (yolah explorer build writes them)".into());
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        if word(8) != key_check() {
            return Err(
                "was built by a version of yolah with other position keys: build it again".into(),
            );
        }
        let games = word(16);
        let entries = word(24);
        let crc = u32::from_le_bytes(bytes[32..36].try_into().expect("4 bytes"));
        let body_len = bytes.len() - HEADER;
        if entries.checked_mul(ENTRY as u64) != Some(body_len as u64) {
            return Err(format!(
                "is damaged: its header counts {entries} entries, its body holds {body_len} bytes"
            ));
        }
        if checksum(&bytes[16..32], &bytes[HEADER..]) != crc {
            return Err("is damaged: its counts and entries fail their checksum".into());
        }
        bytes.drain(..HEADER);
        let explorer = Explorer { games, body: bytes };
        let sorted = (1..explorer.len()).all(|i| explorer.key(i - 1) < explorer.key(i));
        if !sorted {
            return Err("is damaged: its entries are out of order".into());
        }
        Ok(explorer)
    }

    /// The games the database was built from.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Its (position, move) entries.
    pub fn len(&self) -> usize {
        self.body.len() / ENTRY
    }

    /// Whether it has no entry (built from no game).
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    fn key(&self, i: usize) -> (u64, u16) {
        let at = i * ENTRY;
        let hash = u64::from_le_bytes(self.body[at..at + 8].try_into().expect("8 bytes"));
        let mv = u16::from_le_bytes(self.body[at + 8..at + 10].try_into().expect("2 bytes"));
        (hash, mv)
    }

    fn tally(&self, i: usize) -> Outcomes {
        let count = |k: usize| {
            let at = i * ENTRY + 10 + 4 * k;
            u32::from_le_bytes(self.body[at..at + 4].try_into().expect("4 bytes"))
        };
        Outcomes {
            black: count(0),
            draws: count(1),
            white: count(2),
        }
    }

    /// The moves played from `position` (those legal there: a hash shared by another
    /// position cannot add another's moves), the most played first (then by name).
    pub fn moves(&self, position: &Position) -> Vec<Played> {
        legal_by_games(position, self.entries(position))
    }

    /// The entries of `position`'s hash, as stored.
    fn entries(&self, position: &Position) -> Vec<Played> {
        let hash = position.hash();
        let first = bisect(self.len(), |i| self.key(i).0 >= hash);
        (first..self.len())
            .take_while(|&i| self.key(i).0 == hash)
            .map(|i| Played {
                mv: Move::from_raw(self.key(i).1),
                tally: self.tally(i),
            })
            .collect()
    }
}

/// Of `played`, the moves legal in `position` that were played in some game, the most
/// played first, then by name.
fn legal_by_games(position: &Position, mut played: Vec<Played>) -> Vec<Played> {
    played.retain(|p| position.check_move(p.mv).is_ok() && p.tally.games() > 0);
    played.sort_by_cached_key(|p| (std::cmp::Reverse(p.tally.games()), p.mv.to_string()));
    played
}

/// What a database says of a position, as `yolah explorer DB --json` prints it and the
/// board's `/explorer.json` answers.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Answer {
    /// The position, in notation.
    pub position: String,
    /// The side to move.
    pub side: String,
    /// The games that reached it.
    pub games: u64,
    /// The opening book's move there, if the book has the position.
    pub book: Option<String>,
    /// The moves played from it, the most played first.
    pub moves: Vec<AnswerMove>,
}

/// A move in an [`Answer`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AnswerMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The games it was played in.
    pub games: u64,
    /// Of those, black's wins.
    pub black: u32,
    /// Draws.
    pub draws: u32,
    /// White's wins.
    pub white: u32,
    /// The side to move's share of the points (a draw is half), 0 to 1.
    pub score: f64,
    /// Whether it is the opening book's move.
    pub book: bool,
}

impl Explorer {
    /// What the database says of `position`.
    pub fn answer(&self, position: &Position) -> Answer {
        answer(position, self.entries(position))
    }
}

/// The moves played from `position` (each a move with its games, in any order; those not
/// legal there are left out), as an [`Answer`]: the most played first, then by name.
pub fn answer(position: &Position, played: Vec<Played>) -> Answer {
    let side = position.side_to_move();
    let book = crate::book::probe(position).map(|b| b.mv);
    let moves: Vec<AnswerMove> = legal_by_games(position, played)
        .into_iter()
        .map(|p| AnswerMove {
            mv: p.mv.to_string(),
            games: p.tally.games(),
            black: p.tally.black,
            draws: p.tally.draws,
            white: p.tally.white,
            score: p.tally.score(side),
            book: Some(p.mv) == book,
        })
        .collect();
    Answer {
        position: position.to_string(),
        side: side.to_string(),
        games: moves.iter().map(|m| m.games).sum(),
        book: book.map(|m| m.to_string()),
        moves,
    }
}

impl std::fmt::Debug for Explorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Explorer({} entries from {} games)",
            self.len(),
            self.games
        )
    }
}

fn bisect(len: usize, at_or_after: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let mid = low + (high - low) / 2;
        if at_or_after(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    #[test]
    fn games_are_counted_by_position_and_move_and_read_back() {
        let start = Position::start();
        let mut builder = Builder::new();
        builder
            .add(&start, &moves("a1:c3 h1:f3"), Outcome::Win(Color::Black))
            .unwrap();
        builder
            .add(&start, &moves("a1:c3 a8:b7"), Outcome::Draw)
            .unwrap();
        builder
            .add(&start, &moves("h8:h5"), Outcome::Win(Color::White))
            .unwrap();
        let bad = builder.add(&start, &moves("a1:a1"), Outcome::Draw);
        assert!(bad.unwrap_err().starts_with("move 1 (a1:a1)"));
        assert_eq!(builder.games(), 3);
        let explorer = Explorer::from_bytes(builder.to_bytes()).unwrap();
        assert_eq!(explorer.games(), 3);
        let at_start = explorer.moves(&start);
        assert_eq!(
            at_start,
            vec![
                Played {
                    mv: "a1:c3".parse().unwrap(),
                    tally: Outcomes {
                        black: 1,
                        draws: 1,
                        white: 0
                    }
                },
                Played {
                    mv: "h8:h5".parse().unwrap(),
                    tally: Outcomes {
                        black: 0,
                        draws: 0,
                        white: 1
                    }
                },
            ]
        );
        assert!((at_start[0].tally.score(Color::Black) - 0.75).abs() < 1e-12);
        let mut after = start;
        after.play("a1:c3".parse().unwrap());
        assert_eq!(explorer.moves(&after).len(), 2);
        after.play("a8:b7".parse().unwrap());
        assert!(explorer.moves(&after).is_empty());
    }

    #[test]
    fn damaged_and_foreign_bytes_are_refused() {
        let mut builder = Builder::new();
        builder
            .add(&Position::start(), &moves("a1:c3"), Outcome::Draw)
            .unwrap();
        let good = builder.to_bytes();
        let refused = |bytes: Vec<u8>| Explorer::from_bytes(bytes).err().unwrap();
        assert!(refused(b"name,score\n".to_vec()).contains("not an explorer database"));
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(refused(flipped).contains("checksum"));
        assert!(refused(good[..good.len() - 1].to_vec()).contains("damaged"));
        let mut other_keys = good.clone();
        other_keys[8] ^= 1;
        assert!(refused(other_keys).contains("other position keys"));
        let mut first_format = good.clone();
        first_format[..8].copy_from_slice(MAGIC_1);
        assert!(refused(first_format).contains("older version"));
    }

    /// Every byte of a small database flipped, one at a time (each of its bits): each flip is
    /// refused; none reads as another count of games or another tally.
    #[test]
    fn every_flipped_byte_is_refused() {
        let mut builder = Builder::new();
        for (line, outcome) in [
            ("a1:c3 h1:f3", Outcome::Win(Color::Black)),
            ("a1:c3 a8:b7", Outcome::Draw),
            ("e4:e3", Outcome::Win(Color::White)),
        ] {
            builder
                .add(&Position::start(), &moves(line), outcome)
                .unwrap();
        }
        let good = builder.to_bytes();
        assert!(Explorer::from_bytes(good.clone()).is_ok());
        for at in 0..good.len() {
            for bit in 0..8 {
                let mut flipped = good.clone();
                flipped[at] ^= 1 << bit;
                assert!(
                    Explorer::from_bytes(flipped).is_err(),
                    "byte {at}, bit {bit}: read as a database"
                );
            }
        }
    }
}

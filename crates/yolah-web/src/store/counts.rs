//! The explorer's counts of the kept games: a game that ends is counted move by move, one
//! changed since it was counted is taken out and counted again; each change in the same
//! transaction as the game's own write.

use crate::game::Saved;
use rusqlite::{OptionalExtension, params};
use yolah_ai::explorer::Outcomes;
use yolah_core::{Outcome, Position, play_moves};

/// A position's Zobrist hash as SQLite keeps an integer.
pub(super) fn key(hash: u64) -> i64 {
    i64::from_ne_bytes(hash.to_ne_bytes())
}

/// What a game counts as in the explorer: its start, moves and result (the marker kept in
/// `explored`), or none while it has no result (or cannot be read as a game).
fn countable(saved: &Saved) -> Option<String> {
    // A game going on (every move of it is saved) is not replayed.
    saved.result.as_ref()?;
    let record = crate::export::record(&crate::export::Export::of(saved)).ok()?;
    (record.result != "*")
        .then(|| serde_json::json!([record.start, record.moves, record.result]).to_string())
}

/// A game as its explorer marker keeps it: its start, its moves (each checked) and how it
/// ended; or why the marker cannot be read (a damaged or foreign file's: ours are written from
/// a checked game).
struct Counted {
    start: Position,
    moves: Vec<yolah_core::Move>,
    outcome: Outcome,
}

fn read_marker(marker: &str) -> Result<Counted, String> {
    let (start, moves, result) =
        serde_json::from_str::<(String, String, String)>(marker).map_err(|e| e.to_string())?;
    let outcome = match result.as_str() {
        "1-0" => Outcome::Win(yolah_core::Color::Black),
        "0-1" => Outcome::Win(yolah_core::Color::White),
        _ => Outcome::Draw,
    };
    let start = if start.is_empty() {
        Position::start()
    } else {
        start.parse().map_err(|e| format!("its start: {e}"))?
    };
    let mut position = start;
    let moves = play_moves(&mut position, moves.split_whitespace()).map_err(|e| e.to_string())?;
    Ok(Counted {
        start,
        moves,
        outcome,
    })
}

/// Adds (`sign` 1) or takes out (-1) `game` in the explorer's counts.
fn count(tx: &rusqlite::Transaction<'_>, game: &Counted, sign: i64) -> rusqlite::Result<()> {
    let (mut position, played, outcome) = (game.start, &game.moves, game.outcome);
    let mut tally = Outcomes::default();
    tally.add(outcome);
    let (black, draws, white) = (
        sign * i64::from(tally.black),
        sign * i64::from(tally.draws),
        sign * i64::from(tally.white),
    );
    let mut add = tx.prepare_cached(
        "INSERT INTO explorer (hash, move, black, draws, white) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (hash, move) DO UPDATE SET black = black + excluded.black,
             draws = draws + excluded.draws, white = white + excluded.white",
    )?;
    for &m in played {
        let (hash, code) = (key(position.hash()), i64::from(m.raw()));
        add.execute(params![hash, code, black, draws, white])?;
        // A game taken out may leave its entries without a game: they go, by key.
        if sign < 0 {
            tx.prepare_cached(
                "DELETE FROM explorer WHERE hash = ?1 AND move = ?2
                 AND black <= 0 AND draws <= 0 AND white <= 0",
            )?
            .execute(params![hash, code])?;
        }
        position.play(m);
    }
    Ok(())
}

/// Brings the explorer's counts of game `id` to `saved`: a game that ended is counted, one
/// changed since it was counted is taken out and counted again, one no longer over is taken
/// out.
pub(super) fn recount(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    saved: &Saved,
) -> rusqlite::Result<()> {
    let before: Option<String> = tx
        .query_row(
            "SELECT CAST(explored AS TEXT) FROM games WHERE id = ?1",
            params![id],
            |row| row.get(0),
        )
        .optional()?
        .flatten()
        .filter(|marker: &String| !marker.is_empty());
    let now = countable(saved);
    if before == now {
        return Ok(());
    }
    if let Some(before) = &before {
        // A marker that cannot be read cannot be taken out: its counts stay, it says so, and
        // the game is kept all the same (the counts are derived, the game is the user's).
        match read_marker(before) {
            Ok(game) => count(tx, &game, -1)?,
            Err(why) => eprintln!(
                "yolah serve: game {id}: its explorer entry cannot be read ({why}); \
                 its old counts stay"
            ),
        }
    }
    if let Some(now) = &now {
        // Written just above from the game, which `countable` played through: readable.
        let game = read_marker(now).map_err(|why| {
            rusqlite::Error::ToSqlConversionFailure(
                format!("the explorer's entry for this game cannot be made: {why}").into(),
            )
        })?;
        count(tx, &game, 1)?;
    }
    tx.execute(
        "UPDATE games SET explored = ?1 WHERE id = ?2",
        params![now, id],
    )?;
    Ok(())
}

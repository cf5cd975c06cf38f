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

/// Adds (`sign` 1) or takes out (-1) the game `marker` describes in the explorer's counts; a
/// marker that cannot be read (a damaged or foreign file's: ours are written from a checked
/// game) is an error that says why, and nothing is counted.
fn count(tx: &rusqlite::Transaction<'_>, marker: &str, sign: i64) -> rusqlite::Result<()> {
    let unreadable = |why: String| {
        rusqlite::Error::ToSqlConversionFailure(
            format!("the explorer's entry for this game cannot be read: {why}").into(),
        )
    };
    let (start, moves, result) = serde_json::from_str::<(String, String, String)>(marker)
        .map_err(|e| unreadable(e.to_string()))?;
    let outcome = match result.as_str() {
        "1-0" => Outcome::Win(yolah_core::Color::Black),
        "0-1" => Outcome::Win(yolah_core::Color::White),
        _ => Outcome::Draw,
    };
    let mut position = if start.is_empty() {
        Position::start()
    } else {
        start
            .parse()
            .map_err(|e| unreadable(format!("its start: {e}")))?
    };
    // Every move is checked before any is counted.
    let first = position;
    let played = play_moves(&mut position, moves.split_whitespace())
        .map_err(|e| unreadable(e.to_string()))?;
    let mut position = first;
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
    for m in played {
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
        count(tx, before, -1)?;
    }
    if let Some(now) = &now {
        count(tx, now, 1)?;
    }
    tx.execute(
        "UPDATE games SET explored = ?1 WHERE id = ?2",
        params![now, id],
    )?;
    Ok(())
}

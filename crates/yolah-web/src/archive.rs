//! The archive: `/games` (a page listing the kept games, newest first, or this browser's own),
//! `/games.json` (the same for programs) and `/games.pgn` (those games as PGN-style records,
//! `docs/pgn.md`, which `yolah replay FILE --game N` reads back).
//!
//! A selection is a page of games with at least one move (`?per_page=M`, the newest; then
//! `&older=CURSOR` or `&newer=CURSOR` from a page's `older` and `newer`: pages are found by
//! their place in the list, never counted, so a deep page costs what the first does) or a list
//! of ids (`?ids=A,B,…`, "my games": the page sends the ids it holds tokens for). Every number
//! and id is checked before the database is read; a bad one is a 400 with one line. A game
//! whose row is damaged is listed with what can be read, and left out of a PGN export with its
//! id and reason in the `X-Yolah-Skipped` header (and on the server's standard error): one bad
//! row never fails the archive.
//!
//! Games between two people that are still being played are listed like the others: anyone
//! may watch them, as on lichess; only the invitation link's secret gives a free side.

use crate::export::{Export, record};
use crate::store::{Cursor, MAX_PAGE, Page, Store};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Json, Response};
use serde::Deserialize;
use yolah_ai::arena::pgn::{Event, block, date};

/// The archive's page: its script asks `/games.json` for what to list.
const PAGE: &str = include_str!("archive.html");

/// The most ids one request may name.
pub const MAX_IDS: usize = 200;
/// Games a page lists when the request does not say.
pub const PER_PAGE: usize = 20;

/// Which games: a page (`per_page`, and `older` or `newer`), or `ids`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// The page of games older than this cursor.
    #[serde(default)]
    older: Option<String>,
    /// The page of games newer than this cursor.
    #[serde(default)]
    newer: Option<String>,
    /// Games a page, 1 to [`MAX_PAGE`].
    #[serde(default)]
    per_page: Option<String>,
    /// Ids separated by commas, at most [`MAX_IDS`].
    #[serde(default)]
    ids: Option<String>,
}

/// A checked selection.
enum Chosen {
    Page { cursor: Cursor, per_page: usize },
    Ids(Vec<String>),
}

/// A cursor as a page gives it: `CREATED-ID` (seconds, hex).
fn cursor(text: &str) -> Result<(i64, String), String> {
    text.split_once('-')
        .and_then(|(created, id)| {
            let created = created.parse::<i64>().ok().filter(|c| *c >= 0)?;
            let id =
                (!id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_hexdigit()))
                    .then(|| id.to_string())?;
            Some((created, id))
        })
        .ok_or_else(|| {
            format!(
                "{} is not a place in the archive (CREATED-ID, from a page's older or newer)",
                yolah_core::text::quote(text)
            )
        })
}

fn number(text: Option<&str>, name: &str, default: usize, max: usize) -> Result<usize, String> {
    let Some(text) = text else {
        return Ok(default);
    };
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            format!(
                "{name} must be a number from 1 to {max}, not {}",
                yolah_core::text::quote(text)
            )
        })
}

impl Selection {
    fn check(&self) -> Result<Chosen, String> {
        if let Some(ids) = &self.ids {
            if self.older.is_some() || self.newer.is_some() || self.per_page.is_some() {
                return Err("ask for ids or for a page, not both".to_string());
            }
            let ids: Vec<String> = ids
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(str::to_string)
                .collect();
            if ids.len() > MAX_IDS {
                return Err(format!("at most {MAX_IDS} ids, not {}", ids.len()));
            }
            if let Some(bad) = ids
                .iter()
                .find(|id| id.len() > 64 || !id.chars().all(|c| c.is_ascii_hexdigit()))
            {
                return Err(format!("{} is not a game id", yolah_core::text::quote(bad)));
            }
            return Ok(Chosen::Ids(ids));
        }
        let cursor = match (&self.older, &self.newer) {
            (Some(_), Some(_)) => return Err("ask for older or newer games, not both".to_string()),
            (Some(older), None) => {
                let (created, id) = cursor(older)?;
                Cursor::Older(created, id)
            }
            (None, Some(newer)) => {
                let (created, id) = cursor(newer)?;
                Cursor::Newer(created, id)
            }
            (None, None) => Cursor::Newest,
        };
        Ok(Chosen::Page {
            cursor,
            per_page: number(self.per_page.as_deref(), "per_page", PER_PAGE, MAX_PAGE)?,
        })
    }
}

/// The games of a selection (for a page, with the cursors of the pages beside it).
/// A bad selection is the client's fault (400); a store that cannot answer, the server's (500).
fn select(store: &Store, selection: &Selection) -> Result<Page, (StatusCode, String)> {
    let failed = |reason: String| (StatusCode::INTERNAL_SERVER_ERROR, reason);
    match selection
        .check()
        .map_err(|reason| (StatusCode::BAD_REQUEST, reason))?
    {
        Chosen::Page { cursor, per_page } => store.list(&cursor, per_page).map_err(failed),
        Chosen::Ids(ids) => {
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            Ok(Page {
                games: store.summaries(&ids).map_err(failed)?,
                newer: None,
                older: None,
            })
        }
    }
}

/// `GET /games`: the archive's page.
pub async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// `GET /games.json`: `{games: [...], newer, older}` (the cursors of the pages beside this
/// one, null at an end); a query it cannot read or a selection it refuses gets
/// `{"error": …}` with its status, as `/explorer.json` and `/puzzles.json` answer.
pub fn list(store: &Store, asked: Result<Selection, String>) -> Response {
    let refuse = |(status, reason): (StatusCode, String)| {
        (status, Json(serde_json::json!({ "error": reason }))).into_response()
    };
    let selection = match asked {
        Ok(selection) => selection,
        Err(reason) => return refuse((StatusCode::BAD_REQUEST, reason)),
    };
    match select(store, &selection) {
        Ok(page) => Json(serde_json::json!({
            "games": page.games,
            "newer": page.newer,
            "older": page.older,
        }))
        .into_response(),
        Err(refused) => refuse(refused),
    }
}

/// `GET /games.pgn`: the selected games, one PGN block each, numbered from 0 in the order
/// listed (`yolah replay FILE --game N`), the server's id of each in its `Run` tag.
pub fn pgn(store: &Store, selection: &Selection) -> Response {
    let games = match select(store, selection) {
        Ok(page) => page.games,
        Err(refused) => return refused.into_response(),
    };
    let mut text = String::new();
    let mut skipped = Vec::new();
    let mut n = 0;
    for summary in &games {
        let game = match store.load(&summary.id) {
            Ok(Some(kept)) => record(&Export::of(&kept.saved)),
            Ok(None) => continue, // Forgotten since it was listed.
            Err(reason) => Err(reason),
        };
        let mut game = match game {
            Ok(game) => game,
            Err(reason) => {
                // A header's value: printable ASCII, short.
                let reason: String = reason
                    .chars()
                    .map(|c| if c.is_ascii_graphic() { c } else { ' ' })
                    .take(80)
                    .collect();
                eprintln!(
                    "archive: game {} left out of an export: {reason}",
                    summary.id
                );
                skipped.push(format!("{} ({reason})", summary.id));
                continue;
            }
        };
        game.game = n;
        n += 1;
        game.config.clone_from(&summary.id);
        let event = Event {
            name: "yolah serve".to_string(),
            date: date(summary.created),
        };
        text.push_str(&block(&event, &game));
    }
    let skipped = skipped.join("; ");
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"yolah-games.pgn\"".to_string(),
            ),
            (header::HeaderName::from_static("x-yolah-skipped"), skipped),
        ],
        text,
    )
        .into_response()
}

//! The archive: `/games` (a page listing the kept games, newest first, or this browser's own),
//! `/games.json` (the same for programs) and `/games.pgn` (those games as PGN-style records,
//! `docs/pgn.md`, which `yolah replay FILE --game N` reads back).
//!
//! A selection is a page (`?page=N&per_page=M`, games with at least one move) or a list of ids
//! (`?ids=A,B,…`, "my games": the page sends the ids it holds tokens for). Every number and id
//! is checked before the database is read; a bad one is a 400 with one line.

use crate::export::{Export, record};
use crate::store::{MAX_PAGE, Store, Summary};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Json, Response};
use serde::Deserialize;
use yolah_ai::arena::pgn::{Event, block, date};

/// The archive's page: its script asks `/games.json` for what to list.
const PAGE: &str = include_str!("archive.html");

/// The most ids one request may name.
pub const MAX_IDS: usize = 200;
/// The highest page number taken.
pub const MAX_PAGE_NUMBER: usize = 1_000_000;
/// Games a page lists when the request does not say.
pub const PER_PAGE: usize = 20;

/// Which games: `page` and `per_page`, or `ids`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// The page, from 1.
    #[serde(default)]
    page: Option<String>,
    /// Games a page, 1 to [`MAX_PAGE`].
    #[serde(default)]
    per_page: Option<String>,
    /// Ids separated by commas, at most [`MAX_IDS`].
    #[serde(default)]
    ids: Option<String>,
}

/// A checked selection.
enum Chosen {
    Page { page: usize, per_page: usize },
    Ids(Vec<String>),
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
            if self.page.is_some() || self.per_page.is_some() {
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
        Ok(Chosen::Page {
            page: number(self.page.as_deref(), "page", 1, MAX_PAGE_NUMBER)?,
            per_page: number(self.per_page.as_deref(), "per_page", PER_PAGE, MAX_PAGE)?,
        })
    }
}

/// The games of a selection, and for a page the number of pages.
fn select(store: &Store, selection: &Selection) -> Result<(Vec<Summary>, usize, usize), String> {
    match selection.check()? {
        Chosen::Page { page, per_page } => {
            let (games, total) = store.list(page, per_page)?;
            Ok((games, page, total.div_ceil(per_page).max(1)))
        }
        Chosen::Ids(ids) => {
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            Ok((store.summaries(&ids)?, 1, 1))
        }
    }
}

fn bad(reason: String) -> Response {
    (StatusCode::BAD_REQUEST, reason).into_response()
}

/// `GET /games`: the archive's page.
pub async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// `GET /games.json`: `{games: [...], page, pages}`.
pub fn list(store: &Store, selection: &Selection) -> Response {
    match select(store, selection) {
        Ok((games, page, pages)) => Json(serde_json::json!({
            "games": games,
            "page": page,
            "pages": pages,
        }))
        .into_response(),
        Err(reason) => bad(reason),
    }
}

/// `GET /games.pgn`: the selected games, one PGN block each, numbered from 0 in the order
/// listed (`yolah replay FILE --game N`), the server's id of each in its `Run` tag.
pub fn pgn(store: &Store, selection: &Selection) -> Response {
    let (games, _, _) = match select(store, selection) {
        Ok(found) => found,
        Err(reason) => return bad(reason),
    };
    let mut text = String::new();
    for (n, summary) in (0u64..).zip(&games) {
        let kept = match store.load(&summary.id) {
            Ok(Some(kept)) => kept,
            Ok(None) => continue, // Forgotten since it was listed.
            Err(reason) => return (StatusCode::INTERNAL_SERVER_ERROR, reason).into_response(),
        };
        let mut game = match record(&Export::of(&kept.saved)) {
            Ok(game) => game,
            Err(reason) => {
                let reason = format!("game {}: {reason}", summary.id);
                return (StatusCode::INTERNAL_SERVER_ERROR, reason).into_response();
            }
        };
        game.game = n;
        game.config.clone_from(&summary.id);
        let event = Event {
            name: "yolah serve".to_string(),
            date: date(summary.created),
        };
        text.push_str(&block(&event, &game));
    }
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"yolah-games.pgn\"",
            ),
        ],
        text,
    )
        .into_response()
}

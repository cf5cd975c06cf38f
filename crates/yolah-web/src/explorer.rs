//! `GET /explorer.json?position=NOTATION[&source=database|games]`: the opening explorer of the
//! analysis board: the moves played from the position, each with its games and how they
//! ended, as `yolah explorer DB --json` prints them; from the database `yolah serve --explorer
//! DB` read at its start (`yolah explorer build` writes one), or from this server's own
//! finished games (`source=games`, counted in its SQLite file as each game ends). A lookup is
//! a binary search in memory or an indexed read: nothing is held for the client.

use crate::store::Store;
use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use yolah_ai::explorer::Explorer;
use yolah_core::Position;

/// The longest position notation taken (the longest real one is under 100 characters).
const MAX_NOTATION: usize = 200;

/// `/explorer.json`'s query.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asked {
    position: String,
    source: Option<String>,
}

fn refused(status: StatusCode, reason: &str) -> Response {
    (status, Json(serde_json::json!({ "error": reason }))).into_response()
}

/// The answer: `200` with the moves, `400` for a bad query or position, `404` when the
/// server has no database (asked of the database), `500` when the games cannot be read.
pub fn answer(
    explorer: Option<&Explorer>,
    store: &Store,
    asked: Result<Query<Asked>, QueryRejection>,
) -> Response {
    let Ok(Query(asked)) = asked else {
        return refused(
            StatusCode::BAD_REQUEST,
            "ask ?position=NOTATION (and &source=database or games), and nothing else",
        );
    };
    if asked.position.len() > MAX_NOTATION {
        return refused(
            StatusCode::BAD_REQUEST,
            "the position is too long to be one",
        );
    }
    let position = match asked.position.parse::<Position>() {
        Ok(position) => position,
        Err(error) => return refused(StatusCode::BAD_REQUEST, &format!("bad position: {error}")),
    };
    match asked.source.as_deref().unwrap_or("database") {
        "database" => match explorer {
            Some(explorer) => Json(explorer.answer(&position)).into_response(),
            None => refused(
                StatusCode::NOT_FOUND,
                "this server has no explorer database (yolah serve --explorer DB)",
            ),
        },
        "games" => match store.explored(&position) {
            Ok(played) => Json(yolah_ai::explorer::answer(&position, played)).into_response(),
            Err(reason) => refused(StatusCode::INTERNAL_SERVER_ERROR, &reason),
        },
        other => refused(
            StatusCode::BAD_REQUEST,
            &format!("source {other:?}: database or games"),
        ),
    }
}

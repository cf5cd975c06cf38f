//! `GET /explorer.json?position=NOTATION`: the opening explorer of the analysis board, from
//! the database `yolah serve --explorer DB` read at its start (`yolah explorer build` writes
//! one): the moves played from the position, each with its games and how they ended, as
//! `yolah explorer DB --json` prints them. A lookup is a binary search in memory: nothing is
//! held for the client.

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
}

fn refused(status: StatusCode, reason: &str) -> Response {
    (status, Json(serde_json::json!({ "error": reason }))).into_response()
}

/// The answer: `200` with the moves, `400` for a bad query or position, `404` when the
/// server has no database.
pub fn answer(
    explorer: Option<&Explorer>,
    asked: Result<Query<Asked>, QueryRejection>,
) -> Response {
    let Some(explorer) = explorer else {
        return refused(
            StatusCode::NOT_FOUND,
            "this server has no explorer database (yolah serve --explorer DB)",
        );
    };
    let Ok(Query(asked)) = asked else {
        return refused(
            StatusCode::BAD_REQUEST,
            "ask ?position=NOTATION, and nothing else",
        );
    };
    if asked.position.len() > MAX_NOTATION {
        return refused(
            StatusCode::BAD_REQUEST,
            "the position is too long to be one",
        );
    }
    match asked.position.parse::<Position>() {
        Ok(position) => Json(explorer.answer(&position)).into_response(),
        Err(error) => refused(StatusCode::BAD_REQUEST, &format!("bad position: {error}")),
    }
}

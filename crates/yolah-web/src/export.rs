//! `GET /export.pgn`: a game the page shows, as the PGN-style record the match runner writes
//! (`docs/pgn.md`; the same code, `yolah_ai::arena::pgn`), for other programs and for
//! `yolah replay FILE --game 0`. Stateless: the page sends the start, the moves, the players
//! and how the game ended; the moves are checked before anything is written.

use crate::game::{WINS_BY_RESIGNATION, WINS_ON_TIME};
use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use yolah_ai::arena::pgn::{Event, block, today};
use yolah_ai::arena::record::{GameRecord, result_text};
use yolah_core::{Color, Move, Outcome, Position, play_moves};

/// The longest player name or result text taken.
const MAX_TEXT: usize = 200;
/// The most moves a game can have (56 moves and at most as many passes), with room.
const MAX_MOVES: usize = 130;

/// What the page sends.
#[derive(Debug, Deserialize)]
pub struct Export {
    /// The start position's notation; the start if absent or empty.
    #[serde(default)]
    start: String,
    /// The moves, separated by commas or spaces.
    #[serde(default)]
    moves: String,
    /// Black's player (`human` or a spec).
    #[serde(default)]
    black: String,
    /// White's player.
    #[serde(default)]
    white: String,
    /// How the page states the result (`black wins 33-30`, `white wins on time`, `black wins
    /// by resignation`), empty for a game going on.
    #[serde(default)]
    result: String,
    /// The game clock, if it had one.
    #[serde(default)]
    tc: String,
}

impl Export {
    /// What the page would send for a kept game.
    pub fn of(saved: &crate::game::Saved) -> Export {
        Export {
            start: saved.start.clone(),
            moves: saved.moves.join(","),
            black: saved.black.clone(),
            white: saved.white.clone(),
            result: saved.result.clone().unwrap_or_default(),
            tc: saved.tc.clone().unwrap_or_default(),
        }
    }
}

/// The record of the game, or why not (one line).
pub fn record(export: &Export) -> Result<GameRecord, String> {
    for (what, text) in [
        ("black", &export.black),
        ("white", &export.white),
        ("result", &export.result),
    ] {
        if text.len() > MAX_TEXT || text.chars().any(char::is_control) {
            return Err(format!("{what}: at most {MAX_TEXT} characters, one line"));
        }
    }
    let start: Position = if export.start.trim().is_empty() {
        Position::start()
    } else {
        export
            .start
            .parse()
            .map_err(|e| format!("bad start: {e}"))?
    };
    let mut position = start;
    let texts: Vec<&str> = export
        .moves
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .take(MAX_MOVES + 1)
        .collect();
    if texts.len() > MAX_MOVES {
        return Err(format!("more than {MAX_MOVES} moves"));
    }
    let moves: Vec<String> = play_moves(&mut position, texts)
        .map_err(|e| e.to_string())?
        .iter()
        .map(Move::to_string)
        .collect();
    let tc = if export.tc.trim().is_empty() {
        String::new()
    } else {
        export
            .tc
            .trim()
            .parse::<yolah_ai::TimeControl>()
            .map_err(|e| format!("tc {e}"))?
            .to_string()
    };
    // A finished game's result is its position's; otherwise the page's result (the server's
    // words: `white wins on time`) says whether a side lost on time or resigned, else the
    // game goes on.
    let ended = |how: &str| {
        Color::ALL
            .into_iter()
            .find(|side| export.result == format!("{side} {how}"))
    };
    let (result, forfeit) = match (
        position.outcome(),
        ended(WINS_ON_TIME),
        ended(WINS_BY_RESIGNATION),
    ) {
        (Some(outcome), _, _) => (result_text(outcome).to_string(), String::new()),
        (None, Some(side), _) => (
            result_text(Outcome::Win(side)).to_string(),
            "lost on time".to_string(),
        ),
        (None, None, Some(side)) => (
            result_text(Outcome::Win(side)).to_string(),
            yolah_ai::arena::pgn::RESIGNED.to_string(),
        ),
        (None, None, None) => ("*".to_string(), String::new()),
    };
    let name = |n: &str| if n.is_empty() { "?" } else { n }.to_string();
    Ok(GameRecord {
        game: 0,
        config: String::new(),
        black: name(&export.black),
        white: name(&export.white),
        result,
        forfeit,
        black_score: position.score(Color::Black),
        white_score: position.score(Color::White),
        opening_plies: 0,
        start: if start == Position::start() {
            String::new()
        } else {
            start.to_string()
        },
        black_ms: 0.0,
        white_ms: 0.0,
        black_max_ms: 0.0,
        white_max_ms: 0.0,
        black_left_ms: None,
        white_left_ms: None,
        black_tc: tc.clone(),
        white_tc: tc,
        adjudicated: String::new(),
        moves: moves.join(" "),
    })
}

/// The handler: the PGN text as a download, or 400 with the reason.
pub async fn export(Query(export): Query<Export>) -> Response {
    match record(&export) {
        Ok(record) => {
            let event = Event {
                name: "yolah serve".to_string(),
                date: today(),
            };
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "application/x-chess-pgn; charset=utf-8",
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        "attachment; filename=\"yolah-game.pgn\"",
                    ),
                ],
                block(&event, &record),
            )
                .into_response()
        }
        Err(reason) => (StatusCode::BAD_REQUEST, reason).into_response(),
    }
}

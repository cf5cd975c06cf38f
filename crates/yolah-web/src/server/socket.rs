//! What a connection says on its socket: a search's report as a message, and sending and
//! closing within bounds.

use super::shared::ANALYSIS_LINES;
use crate::message::{LineMessage, ReportMessage, ServerMessage};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use std::time::Duration;
use tokio::sync::broadcast;
use yolah_ai::Report;
use yolah_ai::limits::StopFlag;
use yolah_core::Color;

/// Resolves once `stop` is raised (looked at every 50 ms).
pub(super) async fn raised(stop: StopFlag) {
    while !stop.is_raised() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The player of analysis boards: the strongest, searching until it is stopped (the opening
/// book off: an analysis shows a search, even of the first plies).
pub(super) fn analysis_spec() -> yolah_ai::Spec {
    format!(
        "{},book=off,lines={ANALYSIS_LINES}",
        yolah_ai::catalogue::DEFAULT_PLAYER
    )
    .parse()
    .expect("the default player's spec is valid")
}

/// What the page is told of `side`'s search on the position after `ply` moves: with its
/// `evaluation` (values, depth, line, counts), or only the move and the time (a game a person
/// plays, while it is played).
pub(super) fn report_message(
    side: Color,
    ply: usize,
    report: &Report,
    done: bool,
    evaluation: bool,
) -> ServerMessage {
    let mv = report.mv.to_string();
    let time_ms = (report.time.as_secs_f64() * 1e4).round() / 10.0;
    ServerMessage::Report(Box::new(if evaluation {
        ReportMessage {
            side: side.to_string(),
            ply,
            text: report.to_string(),
            mv,
            value: report.value,
            points: report.margin.map(|m| m.points),
            proved: report.margin.is_some_and(|m| m.proved),
            depth: report.depth,
            pv: report.pv.iter().map(ToString::to_string).collect(),
            lines: report
                .lines
                .iter()
                .map(|line| LineMessage {
                    pv: line.pv.iter().map(ToString::to_string).collect(),
                    points: line.margin.points,
                    proved: line.margin.proved,
                    value: line.value,
                })
                .collect(),
            done,
            time_ms,
            nodes: report.nodes,
            iterations: report.iterations,
        }
    } else {
        ReportMessage {
            side: side.to_string(),
            ply,
            text: mv.clone(),
            mv,
            value: None,
            points: None,
            proved: false,
            depth: None,
            pv: Vec::new(),
            lines: Vec::new(),
            done,
            time_ms,
            nodes: None,
            iterations: 0,
        }
    }))
}

/// The next message of a room's news (never, for a connection in no room).
pub(super) async fn next_update(
    updates: &mut Option<broadcast::Receiver<ServerMessage>>,
) -> Result<ServerMessage, broadcast::error::RecvError> {
    match updates {
        Some(receiver) => receiver.recv().await,
        None => std::future::pending().await,
    }
}

/// How long one message may take to leave: a page that sends but never reads fills its
/// socket's buffers, and then its connection is closed (so it cannot hold a game slot past
/// this, whatever its idle timeout).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `message`; false if the connection is gone or cannot take it within `within`.
pub(super) async fn send(
    socket: &mut WebSocket,
    message: &ServerMessage,
    within: Duration,
) -> bool {
    let text = serde_json::to_string(message).expect("messages serialise");
    matches!(
        tokio::time::timeout(within, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// Closes the connection with `code` and `reason` (a close frame's reason is at most 123
/// bytes).
pub(super) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let frame = CloseFrame {
        code,
        reason: reason[..end].to_string().into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

//! The server on loopback, driven by WebSocket clients as pages would: whole games, hostile
//! messages that change nothing, a disconnect that stops its search, 50 games at once.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod bounds;
mod play;
mod support;

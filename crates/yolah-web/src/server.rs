//! The HTTP side: the page, a health line, and one WebSocket per game. Each connection owns its
//! game; machine moves are searched on blocking threads.
//!
//! What a browser-facing server on a user's machine owes them:
//! - **Origins.** A WebSocket is opened only from the page's own origin (the `Host` it was
//!   served from) or an origin the user allowed; and the `Host` itself must be an address,
//!   `localhost`, or an allowed origin's host, so that a page on another site cannot reach the
//!   server by pointing its own name at 127.0.0.1 (DNS rebinding). Anything else gets 403
//!   before the upgrade. A client that sends no `Origin` is not a browser page, and is served.
//! - **Memory.** Each game reserves what its machine players may hold (tables, trees) from one
//!   budget for the whole server; a game that does not fit is refused with the reason, and a
//!   game's reservation is returned when it is replaced, ends or times out.
//! - **Idle games** (no message and no search for the idle timeout) are closed, with a reason.
//! - **Fairness.** Searches of games a person plays start at once (each on one thread, at most
//!   10 s); games only watched (machine against machine) share a few search slots among
//!   themselves, so watchers cannot make a person wait.
//! - **A full server** answers with a close frame (1013, try again later) and the reason.

mod connection;
mod http;
mod shared;
mod socket;

pub use http::{Peer, check_origin, router, serve};
pub use shared::*;
pub use socket::SEND_TIMEOUT;

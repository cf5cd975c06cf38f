//! A board in the browser (`yolah serve`): one page, embedded in the binary, that talks to the
//! server over a WebSocket. Each connection is one game against any player, or two players
//! watched; the searches run on the server.
//!
//! - [`message`]: the JSON messages, page to server and back;
//! - [`game`]: one game's rules and what a page may ask for (pure);
//! - [`room`]: games between two browsers, shared by their connections;
//! - [`server`]: the routes, the connections and their searches;
//! - [`store`]: the games kept in SQLite, for reloads, restarts and the archive;
//! - [`archive`]: `/games`, the kept games listed and exported;
//! - [`review`]: `/games/ID/review.json`, finished games judged move by move;
//! - [`puzzles`]: `/puzzles`, proven puzzles and each browser's rating;
//! - [`explorer`]: `/explorer.json`, the opening explorer of the analysis board;
//! - [`export`]: a game as a PGN-style record (`/export.pgn`).

pub mod archive;
pub mod assets;
pub mod explorer;
pub mod export;
pub mod game;
pub mod memory;
pub mod message;
pub mod puzzles;
pub mod review;
pub mod room;
pub mod server;
pub mod slots;
pub mod store;

pub use server::{Config, router, serve};
pub use store::Store;

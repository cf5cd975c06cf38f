//! The engine protocol, YEI (`docs/protocol.md`): GUIs, match runners and other programs talk
//! to a Yolah engine in lines over stdin and stdout, as chess programs do in UCI.
//!
//! - [`command`]: one line from the GUI to one command, a pure function;
//! - [`info`]: a player's report as an `info` line, and back;
//! - [`server`]: the engine's loop (`yolah engine`), its search on a thread of its own.
//!
//! The other side, a program driven as a player, is [`crate::players::engine`].

pub mod command;
pub mod info;
pub mod server;

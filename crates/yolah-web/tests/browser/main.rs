//! The page in a real headless Chromium, driven over `WebDriver` (`chromedriver`), at a
//! desktop's size and a phone's: a level game clicked to the end against `random` (the board,
//! scores and result checked against the moves replayed by the engine), the game-over banner
//! and a rematch, flip, the move list as navigation (clicks and keys), take back to here,
//! resign, undo in every mode, a shared link, analysis with live reports (each beside its own
//! position only), clocks; and no console errors. With `YOLAH_SCREENSHOTS=DIR` it also saves
//! the guide's screenshots.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them):
//! `cargo test -p yolah-web --test browser -- --ignored`.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod archive;
mod board;
mod review;
mod support;

// The opening book, 0 positions: written by `cargo xtask gen-book --plies 0 --full-plies 0 --nodes 0`. Do not edit.
// Key: the canonical hash of a position; move, value and depth from the search of the
// canonical image (crates/yolah-ai/src/book/mod.rs).
const SETTINGS: Settings = Settings { plies: 0, full_plies: 0, nodes: 0 };
#[allow(clippy::unreadable_literal)]
static BOOK: phf::Map<u64, Entry> = phf::phf_map! {
};

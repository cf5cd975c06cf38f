//! Minimax with alpha-beta and human heuristics (book chapter 6).
//!
//! Negamax alpha-beta with iterative deepening and principal variation search. A transposition
//! table (shared by all threads: lazy SMP), killer moves and a history table order the moves;
//! late moves are searched shallower first, and null moves and reverse futility cut. Leaves
//! are valued by a linear combination of features ([`crate::eval::Weights`]) or a network, in
//! hundredths of a point of final margin.
//!
//! A finished game is worth its exact final margin beyond every heuristic value: `±(WIN +
//! |margin|)`, 0 for a draw. A subtree that reached no heuristic leaf is *proven*: its value is
//! stored in the table at depth [`PROVEN`](crate::search::tt::PROVEN), valid at every depth,
//! and a search whose root is proven stops: it has solved the position. With no limit at all
//! the search runs until then, which is `yolah solve`.
//!
//! One file a concept, each importing only those above it:
//! - `instructions.rs`: which compiled copy of the search runs ([`Instructions`]);
//! - `values.rs`: what the values mean ([`WIN`], [`proven_margin`]) and [`MAX_PLY`];
//! - `ordering.rs`: move ordering: the table move, killers and history;
//! - `pruning.rs`: which moves are searched shallower or not at all ([`Pruning`]);
//! - `time.rs`: when the first thread stops ([`DEFAULT_SOFT_PERCENT`]);
//! - `outcome.rs`: what a search found ([`SearchResult`]) and the player's reports;
//! - `searcher.rs`: one thread's search, alpha-beta and iterative deepening;
//! - `player.rs`: the player ([`Minimax`]), which runs a search on its threads, and the
//!   endgame solver a player asks first near the end;
//! - `spec.rs`: the player in specs: its options and how a spec builds it.

mod instructions;
mod ordering;
mod outcome;
mod player;
mod pruning;
mod searcher;
mod spec;
mod time;
mod values;

pub use instructions::Instructions;
pub use outcome::{SearchResult, Variation};
pub(crate) use player::Endgame;
pub use player::Minimax;
pub use pruning::{Pruning, Tuning};
pub use spec::DEFAULT_TT_MB;
pub(crate) use spec::PLAYER;
pub use time::DEFAULT_SOFT_PERCENT;
pub use values::{MAX_PLY, WIN, margin, proven_margin, terminal_value};

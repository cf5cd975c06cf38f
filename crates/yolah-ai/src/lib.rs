//! Artificial players for Yolah (book chapters 3–8) and the means to compare them.
//!
//! Every player implements one trait, [`Player`]: given a position and [`Limits`], it returns a
//! [`Report`] holding its move. Players are built from compact spec strings
//! (`mcts:iterations=20000,c=1.4,threads=2`, see [`spec`]) into [`Agent`]s.
//!
//! The folders follow the families:
//! - [`players`]: random, Monte Carlo, MCTS, minimax, one module each;
//! - [`search`]: what the search players share (transposition table, threads);
//! - [`eval`]: the features of a position and the weights that combine them;
//! - [`data`]: the training data format (self-play writes it, the trainer and Python read
//!   it; the trainer itself is the `yolah-train` crate);
//! - [`book`]: the opening book compiled in from `tables/book.rs`;
//! - [`explorer`]: the opening explorer's database (the moves played from each position of a
//!   set of games, and how those games ended);
//! - [`arena`]: games, openings, records, matches and tournaments, Bradley–Terry ratings;
//! - [`protocol`]: the engine protocol (`docs/protocol.md`), served by `yolah engine` and
//!   spoken to other programs by the `engine` player.
//!
//! ```
//! use yolah_ai::Spec;
//! use yolah_core::Position;
//! let spec: Spec = "mcts:iterations=500,seed=1".parse().unwrap();
//! let mut agent = spec.agent(0);
//! let report = agent.choose(&Position::start());
//! assert!(Position::start().check_move(report.mv).is_ok());
//! ```

/// The crate's README, whose example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod agent;
pub mod arena;
pub mod book;
pub mod catalogue;
pub mod clock;
pub mod data;
pub mod eval;
pub mod explorer;
pub mod files;
pub mod limits;
pub mod options;
pub mod player;
pub mod players;
pub mod protocol;
pub mod puzzle;
pub mod review;
pub mod search;
pub mod spec;
pub mod suite;

pub use agent::Agent;
pub use arena::game::{Game, play_game};
pub use arena::record::GameRecord;
pub use catalogue::PLAYERS;
pub use clock::{Clock, TimeControl};
pub use limits::{Budget, Limits};
pub use player::{Forfeit, Line, Margin, Player, PlayerInfo, Report};
pub use spec::{Spec, SpecError};

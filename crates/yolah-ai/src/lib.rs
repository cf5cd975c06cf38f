//! Artificial players for Yolah (book chapters 3–5 and 8) and the means to compare them.
//!
//! Every player implements one trait, [`Player`]: given a position and [`Limits`], it returns a
//! [`Report`] holding its move. Players are built from compact spec strings
//! (`mcts:iterations=20000,c=1.4,threads=2`, see [`spec`]); games between them are played by
//! [`game`], scheduled in paired openings by [`tournament`], and rated by [`ratings`].
//!
//! ```
//! use yolah_ai::Spec;
//! use yolah_core::Position;
//! let spec: Spec = "mcts:iterations=500,seed=1".parse().unwrap();
//! let mut agent = spec.agent(0);
//! let report = agent.choose(&Position::start());
//! assert!(Position::start().check_move(report.mv).is_ok());
//! ```

pub mod game;
pub mod limits;
pub mod mcts;
pub mod montecarlo;
pub mod opening;
mod parallel;
pub mod player;
pub mod random;
pub mod ratings;
pub mod record;
pub mod spec;
pub mod tournament;

pub use game::{Game, play_game};
pub use limits::{Budget, Limits};
pub use player::{Agent, Player, Report};
pub use record::GameRecord;
pub use spec::{PLAYERS, Spec, SpecError};

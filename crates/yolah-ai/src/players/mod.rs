//! The players, one file (or folder) each.

pub mod mcts;
pub mod montecarlo;
pub mod random;

//! The players, one file (or folder) each.

pub mod alphazero;
pub mod engine;
pub mod mcts;
pub mod minimax;
pub mod montecarlo;
pub mod random;

//! Learning: the genetic algorithm that tunes the heuristic weights, the self-play data and
//! the training of the network.

pub mod data;
pub mod ga;
pub mod selfplay;
pub mod train;

//! Learning: the genetic algorithm that tunes the heuristic weights, and the training data of
//! the network to come.

pub mod data;
pub mod ga;
pub mod selfplay;

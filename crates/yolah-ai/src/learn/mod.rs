//! Learning: the genetic algorithm that tunes the heuristic weights.

pub mod ga;

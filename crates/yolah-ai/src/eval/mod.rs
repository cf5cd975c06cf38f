//! Evaluation: the features of a position and the weights that combine them, or the neural
//! network that replaces them.

pub mod features;
pub mod network;
pub mod weights;

pub use features::{Feature, Features};
pub use network::Network;
pub use weights::Weights;

use std::sync::Arc;

/// How a search values the positions where it stops.
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// Human heuristics: features and their weights (book chapter 6).
    Heuristic(Weights),
    /// The neural network (book chapter 7).
    Network(Arc<Network>),
}

impl From<Weights> for Evaluation {
    fn from(weights: Weights) -> Evaluation {
        Evaluation::Heuristic(weights)
    }
}

impl From<Arc<Network>> for Evaluation {
    fn from(network: Arc<Network>) -> Evaluation {
        Evaluation::Network(network)
    }
}

//! Evaluation: the features of a position and the weights that combine them.

pub mod features;
pub mod weights;

pub use features::{Feature, Features};
pub use weights::Weights;

//! Training Yolah's players, apart from the crate that plays (as bullet is apart from the
//! engines it trains): self-play games written as training data ([`selfplay`], in the format
//! of [`yolah_ai::data`]), the network's trainer ([`train`], its passes written by hand in
//! [`backprop`]), and the genetic algorithm that tunes the heuristic's weights ([`ga`]). The
//! engine and this crate share only the data and network file formats.

pub mod backprop;
pub mod ga;
pub mod learn;
pub mod selfplay;
pub mod spsa;
pub mod train;
pub mod zero;

//! What the search players share.

pub mod bench;
pub(crate) mod parallel;
pub mod regions;
pub mod tt;

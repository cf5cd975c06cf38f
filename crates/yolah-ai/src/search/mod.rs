//! What the search players share.

pub(crate) mod parallel;
pub mod tt;

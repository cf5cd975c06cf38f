//! A bad argument, and the check that reports one: the lowest floor of the command line,
//! shared by the commands and the Slurm runner.

use std::fmt;

/// A bad argument (as opposed to a bad file or position): the program exits with 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Fails with a [`UsageError`] unless `condition` holds.
macro_rules! usage {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err($crate::usage::UsageError(format!($($message)+)).into());
        }
    };
}
pub(crate) use usage;

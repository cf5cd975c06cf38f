//! A results directory belongs to one run at a time: the run holds an exclusive advisory lock
//! on the directory's `.lock` file for as long as it lives. The operating system releases the
//! lock when the process ends, however it ends, so a killed run leaves nothing to clean up.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// The name of the lock file inside a locked directory.
pub const LOCK_FILE: &str = ".lock";

/// The lock on a directory; dropping it releases it.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// Why a directory could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another run holds it.
    Busy(PathBuf),
    /// The lock file could not be opened or locked.
    Io(PathBuf, io::Error),
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Busy(dir) => write!(
                f,
                "'{}' is in use by another run; wait for it to end or choose another directory",
                dir.display()
            ),
            LockError::Io(dir, error) => {
                write!(f, "cannot lock '{}': {error}", dir.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

impl DirLock {
    /// Takes the lock on `dir` (which must exist) without waiting.
    pub fn take(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| LockError::Io(dir.to_path_buf(), e))?;
        match file.try_lock() {
            Ok(()) => Ok(DirLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(LockError::Busy(dir.to_path_buf())),
            Err(std::fs::TryLockError::Error(e)) => Err(LockError::Io(dir.to_path_buf(), e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = DirLock::take(dir.path()).unwrap();
        let error = DirLock::take(dir.path()).unwrap_err();
        assert!(matches!(error, LockError::Busy(_)), "{error}");
        assert!(error.to_string().contains("in use by another run"));
        drop(first);
        DirLock::take(dir.path()).unwrap();
    }
}

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
    file: File,
    /// What [`DirLock::take_new`] made, in the order to remove it: the lock file, then the
    /// folders from the directory up.
    made: Vec<PathBuf>,
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
            Ok(()) => Ok(DirLock {
                file,
                made: Vec::new(),
            }),
            Err(std::fs::TryLockError::WouldBlock) => Err(LockError::Busy(dir.to_path_buf())),
            Err(std::fs::TryLockError::Error(e)) => Err(LockError::Io(dir.to_path_buf(), e)),
        }
    }

    /// Takes the lock on `dir`, the directory of a new run, made if missing, once `check`
    /// accepts it (it holds nothing of another run, say). `check` is asked before anything
    /// is made, so a refusal leaves nothing behind, and again under the lock, where another
    /// run may have been quicker; a refusal there removes the lock file and the directory if
    /// this call made them.
    pub fn take_new(dir: &Path, check: impl Fn() -> Result<(), String>) -> Result<DirLock, String> {
        if dir.is_dir() {
            // A run that holds it is said first, as when the lock is taken.
            if let Ok(file) = OpenOptions::new().write(true).open(dir.join(LOCK_FILE))
                && let Err(std::fs::TryLockError::WouldBlock) = file.try_lock()
            {
                return Err(LockError::Busy(dir.to_path_buf()).to_string());
            }
            check()?;
        }
        // The folders missing, from `dir` up.
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|folder| !folder.as_os_str().is_empty() && !folder.exists())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("'{}': cannot create the directory: {e}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        let made_lock = std::fs::symlink_metadata(&path).is_err();
        let mut lock = DirLock::take(dir).map_err(|e| e.to_string())?;
        if made_lock {
            lock.made.push(path);
        }
        lock.made.extend(missing);
        if let Err(refused) = check() {
            lock.discard();
            return Err(refused);
        }
        Ok(lock)
    }

    /// Releases the lock of a run refused before it began, and removes what
    /// [`DirLock::take_new`] made for it: its lock file, then its directory if nothing else
    /// is in it (the run's own files are removed by the run first).
    pub fn discard(self) {
        let DirLock { file, made } = self;
        drop(file);
        for path in made {
            if path.file_name() == Some(LOCK_FILE.as_ref()) {
                let _ = std::fs::remove_file(path);
            } else {
                let _ = std::fs::remove_dir(path);
            }
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

    // A new run refused leaves nothing behind, and a busy directory is
    // said as busy.
    #[test]
    fn a_new_run_refused_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let full = dir.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("mine"), "mine").unwrap();
        let refuse = || crate::files::ensure_empty(&full);
        assert!(DirLock::take_new(&full, refuse).is_err());
        assert_eq!(std::fs::read_dir(&full).unwrap().count(), 1);
        // Refused under the lock (another run was quicker): the folders it made go.
        let deep = dir.path().join("a").join("b");
        let quicker = || {
            if deep.exists() {
                Err("another run was quicker".to_string())
            } else {
                Ok(())
            }
        };
        assert!(DirLock::take_new(&deep, quicker).is_err());
        assert!(!dir.path().join("a").exists());
        // Busy first, whatever else the directory holds.
        let held = DirLock::take(&full).unwrap();
        let error = DirLock::take_new(&full, refuse).unwrap_err();
        assert!(error.contains("in use by another run"), "{error}");
        drop(held);
        // Accepted: locked, with its lock file.
        let fresh = dir.path().join("fresh");
        let lock = DirLock::take_new(&fresh, || crate::files::ensure_empty(&fresh)).unwrap();
        assert!(fresh.join(LOCK_FILE).exists());
        assert!(DirLock::take(&fresh).is_err());
        lock.discard();
        assert!(!fresh.exists());
    }
}

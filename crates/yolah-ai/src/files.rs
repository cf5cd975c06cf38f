//! Reading the files a user names, which are untrusted: only regular files (a device such as
//! `/dev/zero`, a pipe or a directory is refused before it is opened, so nothing blocks or
//! reads forever), and never more bytes than the format allows. And writing the files a user
//! keeps, durably ([`write_durably`]).

use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` as the whole of `path`, durably, whole or not at all: into a temporary file
/// of a name no other writer uses, in the same folder, made afresh (never through a link);
/// synced; renamed over `path` (a link there is replaced, not followed); the folder synced, so
/// that the rename survives a power cut. On any failure (a full disk, a size limit) the
/// temporary file is removed and `path` is as it was. The one way this workspace writes a
/// file a user keeps whole (networks, checkpoints, run states).
pub fn write_durably(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // A name of this process's that a leftover of a killed process (its PID reused) still
    // holds is passed over for the next.
    let (temporary, mut file) = loop {
        let temporary = temporary_path(path);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
        {
            Ok(file) => break (temporary, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    };
    let mut write = || -> io::Result<()> {
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    };
    if let Err(error) = write() {
        let _ = std::fs::remove_file(&temporary);
        return Err(error);
    }
    // The new file is in place; not durable yet, so not acknowledged: the error says which
    // of the two the file holds.
    sync_folder(path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("the new file is in place, but its folder could not be synced ({e}): after a power cut it may hold the old one"),
        )
    })
}

/// A name beside `path` that no other writer of this process or another uses:
/// `.NAME.PID.N.tmp`.
fn temporary_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Makes a rename in `path`'s folder durable.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    File::open(folder)?.sync_all()
}

/// Opens `path` for reading if it is a regular file (after following links).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        let what = if metadata.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, a pipe or a socket)"
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {what}"),
        ));
    }
    File::open(path)
}

/// The whole of the regular file `path`, refused unread when it holds more than `limit`
/// bytes (and cut at `limit + 1` bytes should it grow while it is read).
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_large(len, limit));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// [`read_bounded`] for a text file (UTF-8).
pub fn read_text_bounded(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// Up to `limit` bytes of a stream (standard input), refused past that.
pub fn read_stream_bounded(input: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("more than {limit} bytes: larger than such a file can be"),
        ));
    }
    Ok(bytes)
}

fn too_large(len: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{len} bytes: larger than the {limit} bytes such a file can have"),
    )
}

/// Appends `bytes` to `file` (opened to append, whose length is `len`) with one write; a
/// write that fails is undone (the file is cut back to `len`), so a record file never keeps a
/// partial record of this run. It is cut back only if the file holds nothing but what this
/// write added after `len`: bytes another writer added (one that ignored the file's lock)
/// are never cut. `len` follows what was written.
pub fn append_whole(file: &mut File, len: &mut u64, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut written = 0;
    while written < bytes.len() {
        match file.write(&bytes[written..]) {
            Ok(0) => {
                return Err(cut_back(
                    file,
                    *len,
                    written,
                    io::ErrorKind::WriteZero.into(),
                ));
            }
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(cut_back(file, *len, written, e)),
        }
    }
    *len += bytes.len() as u64;
    Ok(())
}

/// Undoes a write that failed after `written` bytes, if the file is `len` + `written` bytes
/// long (nobody else wrote since); returns `error`. Best effort: if even this fails, the
/// readers still skip a damaged last record.
fn cut_back(file: &File, len: u64, written: usize, error: io::Error) -> io::Error {
    if file
        .metadata()
        .is_ok_and(|m| m.len() == len + written as u64)
    {
        let _ = file.set_len(len);
    }
    error
}

/// Refuses a directory that holds anything but its run's lock: a new run writes only into a
/// new or empty directory, never among another run's files.
pub fn ensure_empty(dir: &Path) -> Result<(), String> {
    ensure_empty_but(dir, None)
}

/// [`ensure_empty`], but the temporaries of [`write_durably`] writing `marker` (a file name)
/// are let be as well when the run's lock is there too: what a start killed while it wrote its
/// first file leaves (its lock and the file's temporary). A check only: the start removes them
/// under its lock ([`remove_temporaries_of`]), so a check made before the lock is taken never
/// removes the temporary of another start that took it meanwhile.
pub fn ensure_empty_but(dir: &Path, marker: Option<&str>) -> Result<(), String> {
    let marker = marker.filter(|_| dir.join(crate::arena::lock::LOCK_FILE).is_file());
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    for entry in entries {
        let name = entry
            .map_err(|e| format!("cannot read '{}': {e}", dir.display()))?
            .file_name();
        if name == crate::arena::lock::LOCK_FILE {
            continue;
        }
        let text = name.to_string_lossy();
        if marker.is_some_and(|m| is_temporary_of(&text, m)) {
            continue;
        }
        return Err(format!(
            "'{}' is not empty (it holds '{text}'): a new run needs a new or empty directory",
            dir.display()
        ));
    }
    Ok(())
}

/// Removes the temporaries of [`write_durably`] writing `marker` in `dir`: what a start killed
/// while it wrote its first file left. Call it holding the run's lock, after
/// [`ensure_empty_but`] accepted the folder.
pub fn remove_temporaries_of(dir: &Path, marker: &str) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
        if is_temporary_of(&entry.file_name().to_string_lossy(), marker) {
            std::fs::remove_file(entry.path())
                .map_err(|e| format!("cannot remove '{}': {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Whether `name` is a temporary of [`write_durably`] writing the file `target`.
pub fn is_temporary_of(name: &str, target: &str) -> bool {
    name.strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(target))
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|middle| {
            middle
                .split_once('.')
                .is_some_and(|(pid, n)| pid.parse::<u32>().is_ok() && n.parse::<u64>().is_ok())
        })
}

/// The most bytes of a settings file (JSON) of a run.
pub const MAX_SETTINGS: u64 = 1 << 20;

/// A reader whose lines may not be longer than a bound: past it, reading fails with an error
/// that says so (a CSV reader would otherwise keep a line of any length in memory).
pub struct BoundedLines<R> {
    inner: R,
    max_line: usize,
    line: usize,
}

impl<R: BufRead> BoundedLines<R> {
    /// `inner`, whose lines are at most `max_line` bytes.
    pub fn new(inner: R, max_line: usize) -> BoundedLines<R> {
        BoundedLines {
            inner,
            max_line,
            line: 0,
        }
    }
}

impl<R: BufRead> Read for BoundedLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.inner.fill_buf()?;
        let n = available.len().min(out.len());
        for &byte in &available[..n] {
            self.line = if byte == b'\n' { 0 } else { self.line + 1 };
            if self.line > self.max_line {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a line longer than {} bytes", self.max_line),
                ));
            }
        }
        out[..n].copy_from_slice(&available[..n]);
        self.inner.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_bounded(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
        let error = read_bounded(dir.path(), 100).unwrap_err();
        assert!(error.to_string().contains("a directory"), "{error}");
        let path = dir.path().join("big");
        std::fs::write(&path, [b'x'; 101]).unwrap();
        let error = read_bounded(&path, 100).unwrap_err();
        assert!(error.to_string().contains("101 bytes"), "{error}");
        assert_eq!(read_bounded(&path, 101).unwrap().len(), 101);
        let error = read_stream_bounded(std::io::repeat(0), 1000).unwrap_err();
        assert!(error.to_string().contains("more than 1000"), "{error}");
    }

    /// The check made before a start takes the lock removes nothing: another start that took
    /// the lock meanwhile may be writing that temporary. The start removes it under the lock.
    #[test]
    fn a_check_leaves_a_killed_starts_temporary_and_the_start_removes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        std::fs::write(path.join(crate::arena::lock::LOCK_FILE), "").unwrap();
        let temporary = path.join(".config.json.4242.0.tmp");
        std::fs::write(&temporary, "{").unwrap();
        assert_eq!(ensure_empty_but(path, Some("config.json")), Ok(()));
        assert!(temporary.exists(), "removed by a check");
        let other = path.join(".state.json.4242.0.tmp");
        std::fs::write(&other, "{").unwrap();
        assert!(ensure_empty_but(path, Some("config.json")).is_err());
        std::fs::remove_file(&other).unwrap();
        remove_temporaries_of(path, "config.json").unwrap();
        assert!(!temporary.exists());
        assert!(path.join(crate::arena::lock::LOCK_FILE).exists());
    }

    #[test]
    fn a_line_over_the_bound_is_an_error() {
        let text = format!("short\n{}\n", "y".repeat(50));
        let mut out = String::new();
        let error = BoundedLines::new(text.as_bytes(), 20)
            .read_to_string(&mut out)
            .unwrap_err();
        assert!(error.to_string().contains("longer than 20"), "{error}");
        let mut out = String::new();
        BoundedLines::new(text.as_bytes(), 50)
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, text);
    }
}

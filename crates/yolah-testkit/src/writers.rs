//! The four enemies of every writer of a user's data, met the same way in every crate's tests
//! (`docs/guide/reliability.md`, *Reliability*, lists which writer passes which):
//!
//! - **a kill** at any write: [`kill_at_random`] starts a process again and again and kills it
//!   (SIGKILL) after a random delay; the test checks after each kill that everything the
//!   process acknowledged is there, nothing doubled, and that it resumes;
//! - **a full disk**: [`SmallDisk`] is a tmpfs of a few KiB mounted on a temporary folder;
//! - **a second writer**: the test starts two and checks the second is refused with one line
//!   ([`assert_one_line`]);
//! - **a foreign or damaged file** where ours is expected: [`foreign_files`] are contents a
//!   writer must refuse, and [`Untouched`] checks that it left them byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

/// A file system of a fixed, small size: a tmpfs mounted on a temporary folder, unmounted
/// when dropped. Writing past its size fails with "No space left on device" (ENOSPC), as a
/// full disk does.
pub struct SmallDisk {
    dir: PathBuf,
}

impl SmallDisk {
    /// A tmpfs of `bytes` (rounded up to whole pages by the kernel) on a new temporary
    /// folder. Mounting needs root (as on the developers' machines and CI); elsewhere, it
    /// panics with the reason rather than let a test pass without its disk.
    pub fn new(bytes: u64) -> SmallDisk {
        let dir = std::env::temp_dir().join(format!(
            "yolah-small-disk-{}-{}",
            std::process::id(),
            next_id()
        ));
        std::fs::create_dir_all(&dir).expect("a folder for the small disk");
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o"])
            .arg(format!("size={bytes},mode=0755"))
            .arg("yolah-small-disk")
            .arg(&dir)
            .output()
            .expect("mount runs");
        assert!(
            output.status.success(),
            "cannot mount a tmpfs on {} (the full-disk tests need root): {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
        SmallDisk { dir }
    }

    /// Its folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Fills what is left of it with one file of zeros (`filler`), so the next write fails;
    /// [`SmallDisk::free`] gives the room back.
    pub fn fill(&self) {
        use std::io::Write as _;
        let mut file = std::fs::File::create(self.dir.join("filler")).expect("a filler file");
        let block = [0u8; 4096];
        while file.write_all(&block).is_ok() {}
        // The last partial block, byte by byte.
        while file.write_all(&[0]).is_ok() {}
        let _ = file.sync_all();
    }

    /// Fills it but for `bytes` of room (the kernel counts whole pages): a write larger than
    /// that fails. [`SmallDisk::free`] gives the room back.
    pub fn leave(&self, bytes: u64) {
        self.fill();
        let filler = std::fs::OpenOptions::new()
            .write(true)
            .open(self.dir.join("filler"))
            .expect("the filler file");
        let len = filler.metadata().expect("the filler's size").len();
        assert!(
            len >= bytes,
            "the disk has only {len} bytes of room, not {bytes}"
        );
        filler.set_len(len - bytes).expect("the filler is cut");
    }

    /// Removes the filler that [`SmallDisk::fill`] or [`SmallDisk::leave`] wrote.
    pub fn free(&self) {
        let _ = std::fs::remove_file(self.dir.join("filler"));
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn next_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A file's bytes as they were, to check that a writer that refused it left it so.
pub struct Untouched {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl Untouched {
    /// `path`'s bytes now (following a symbolic link, as a writer would).
    pub fn take(path: &Path) -> Untouched {
        Untouched {
            path: path.to_path_buf(),
            bytes: std::fs::read(path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
        }
    }

    /// Fails unless `path` holds exactly the bytes it held when taken.
    pub fn assert(&self) {
        let now = std::fs::read(&self.path)
            .unwrap_or_else(|e| panic!("{} is gone: {e}", self.path.display()));
        assert!(
            now == self.bytes,
            "{} changed: {} bytes before, {} after",
            self.path.display(),
            self.bytes.len(),
            now.len()
        );
    }
}

/// Contents a writer expecting its own file must refuse and leave as they are: each with a
/// name saying what it stands for.
pub fn foreign_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "a note without a final newline",
            b"my notes on the openings\nthe second line has no end".to_vec(),
        ),
        (
            "another program's CSV",
            b"name,score\nalice,3\nbob,4\n".to_vec(),
        ),
        (
            "binary junk",
            (0..4096u32)
                .map(|i| u8::try_from(i.wrapping_mul(2_654_435_761) >> 24).unwrap_or(0))
                .collect(),
        ),
        (
            "one line of JSON",
            br#"{"not": "ours", "version": 99}"#.to_vec(),
        ),
        (
            "a chess PGN",
            b"[Event \"club\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"
                .to_vec(),
        ),
        ("invalid UTF-8", vec![0xff, 0xfe, b'a', 0xc3, b'\n', 0x80]),
    ]
}

/// Fails unless `text` (what a refused command printed) is one non-empty line.
pub fn assert_one_line(text: &str) {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        lines.len() == 1,
        "expected one line, got {}: {text:?}",
        lines.len()
    );
}

/// Runs `battery(try)` until it kills at least `min` times, at most four tries; each try
/// is given its number so that it works in a fresh folder with its delays divided by
/// `2^try`. Kill delays are set from a straight run's time, and that time is bent by what
/// else the machine does while it is measured: on a machine that is then faster, a run
/// can end after a few kills, and the battery would have proved too little. Returns the
/// last try's (kills, result), and fails if even the fourth killed fewer than `min`.
pub fn with_enough_kills<T>(min: usize, mut battery: impl FnMut(u32) -> (usize, T)) -> (usize, T) {
    let mut last = battery(0);
    for attempt in 1..4 {
        if last.0 >= min {
            break;
        }
        eprintln!(
            "{} kills, fewer than {min}: again with delays divided by {}",
            last.0,
            1u32 << attempt
        );
        last = battery(attempt);
    }
    assert!(last.0 >= min, "only {} kills in four tries", last.0);
    last
}

/// Starts `start(k)` for `k` in `0..runs` and kills each (SIGKILL) after a delay drawn from
/// `delays` (a seeded generator: a failure names its seed and run), then calls
/// `check(k)` on what the killed process left. A process that ends by itself before its
/// delay is waited for, and checked the same way. Returns how many were killed (the rest
/// ended first).
pub fn kill_at_random(
    runs: usize,
    seed: u64,
    delays: std::ops::Range<Duration>,
    mut start: impl FnMut(usize) -> Child,
    mut check: impl FnMut(usize),
) -> usize {
    let mut state = seed | 1;
    let mut killed = 0;
    for k in 0..runs {
        // xorshift64*: enough to spread the kill points, and the same for a seed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let draw = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let span = delays.end.saturating_sub(delays.start).as_micros().max(1);
        let offset = u64::try_from(u128::from(draw) % span).unwrap_or(0);
        let delay = delays.start + Duration::from_micros(offset);
        let mut child = start(k);
        let deadline = std::time::Instant::now() + delay;
        let ended = loop {
            if child
                .try_wait()
                .expect("the child can be waited for")
                .is_some()
            {
                break true;
            }
            if std::time::Instant::now() >= deadline {
                break false;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        if !ended {
            child.kill().expect("the child is killed");
            killed += 1;
        }
        let _ = child.wait();
        check(k);
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_disk_fills_up_and_frees() {
        let disk = SmallDisk::new(64 * 1024);
        disk.fill();
        let error = std::fs::write(disk.path().join("more"), [1u8; 8192]).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(28), "{error}"); // ENOSPC
        disk.free();
        std::fs::write(disk.path().join("more"), [1u8; 8192]).unwrap();
        // Room for 16 KiB, not for 32.
        disk.leave(16 * 1024);
        std::fs::write(disk.path().join("fits"), [1u8; 12 * 1024]).unwrap();
        assert!(std::fs::write(disk.path().join("too much"), vec![1u8; 32 * 1024]).is_err());
    }

    #[test]
    fn an_untouched_file_is_told_from_a_changed_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"abc").unwrap();
        let before = Untouched::take(&path);
        before.assert();
        std::fs::write(&path, b"ab").unwrap();
        assert!(std::panic::catch_unwind(|| before.assert()).is_err());
    }

    #[test]
    fn a_battery_that_kills_too_few_is_tried_again_faster() {
        let mut tries = Vec::new();
        let (kills, last) = with_enough_kills(5, |attempt| {
            tries.push(attempt);
            (2 * attempt as usize + 1, attempt)
        });
        assert_eq!((kills, last, tries), (5, 2, vec![0, 1, 2]));
        assert!(std::panic::catch_unwind(|| with_enough_kills(9, |a| (a as usize, ()))).is_err());
    }

    #[test]
    fn processes_are_killed_at_drawn_moments_and_checked() {
        let mut checked = Vec::new();
        let killed = kill_at_random(
            4,
            7,
            Duration::from_millis(20)..Duration::from_millis(60),
            |_| Command::new("sleep").arg("5").spawn().unwrap(),
            |k| checked.push(k),
        );
        assert_eq!((killed, checked), (4, vec![0, 1, 2, 3]));
        assert!(
            std::panic::catch_unwind(|| assert_one_line("two\nlines")).is_err()
                && std::panic::catch_unwind(|| assert_one_line("one line\n")).is_ok()
        );
    }
}

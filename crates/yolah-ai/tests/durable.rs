//! The one durable writer (`yolah_ai::files::write_durably`) against its enemies: a full disk
//! (the file as it was, nothing left behind), a link where the file is (replaced, never written
//! through), writers at once (each file whole, one of theirs, no temporary left).

use std::path::Path;
use yolah_ai::files::write_durably;
use yolah_testkit::writers::SmallDisk;

/// The names in `dir` other than `keep`.
fn others(dir: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !keep.contains(&name.as_str()))
        .collect()
}

#[test]
fn a_full_disk_leaves_the_file_as_it_was_and_nothing_behind() {
    let disk = SmallDisk::new(64 << 10);
    let path = disk.path().join("net.yolahnet");
    write_durably(&path, &vec![7u8; 20 << 10]).unwrap();
    let error = write_durably(&path, &vec![9u8; 200 << 10]).unwrap_err();
    assert!(error.to_string().contains("space"), "{error}");
    assert_eq!(std::fs::read(&path).unwrap(), vec![7u8; 20 << 10]);
    assert!(others(disk.path(), &["net.yolahnet"]).is_empty());
}

#[test]
fn a_link_where_the_file_is_is_replaced_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("precious");
    std::fs::write(&target, b"keep me").unwrap();
    let path = dir.path().join("state.json");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    write_durably(&path, b"{}").unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert_eq!(std::fs::read(&path).unwrap(), b"{}");
    assert!(!std::fs::symlink_metadata(&path).unwrap().is_symlink());
}

#[test]
fn writers_at_once_each_write_whole_and_leave_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spsa.json");
    std::thread::scope(|scope| {
        for writer in 0..4u8 {
            let path = &path;
            scope.spawn(move || {
                for _ in 0..50 {
                    write_durably(path, &vec![writer; 4096]).unwrap();
                }
            });
        }
    });
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), 4096);
    assert!(bytes.iter().all(|&b| b == bytes[0]));
    assert!(others(dir.path(), &["spsa.json"]).is_empty());
}

/// A leftover temporary of a killed process whose process id this one has now (containers
/// reuse them) is passed over, not an error, and left for its run to clear.
#[test]
fn a_leftover_temporary_of_the_same_name_is_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    for n in 0..4 {
        let name = format!(".state.json.{}.{n}.tmp", std::process::id());
        std::fs::write(dir.path().join(name), b"half").unwrap();
    }
    write_durably(&path, b"{}").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"{}");
}

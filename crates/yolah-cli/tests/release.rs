//! What a release says about itself: `yolah --version` names the workspace's version, and the
//! changelog has a section for it.

use std::process::Command;

#[test]
fn the_version_is_named_and_in_the_changelog() {
    let version = env!("CARGO_PKG_VERSION");
    let out = Command::new(env!("CARGO_BIN_EXE_yolah"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("yolah {version}")
    );
    let changelog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../CHANGELOG.md"))
            .unwrap();
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "CHANGELOG.md has no section for {version}"
    );
}

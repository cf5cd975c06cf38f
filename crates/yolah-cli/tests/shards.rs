//! A tournament split into shards (`--shard K/N`) and merged (`yolah tournament merge`) is the
//! unsharded tournament: the same games and the same ratings.

mod common;

use common::{assert_clean_error, stderr, yolah};
use std::path::Path;

const PLAYERS: [&str; 3] = ["random:seed=1", "random:seed=2", "random:seed=3"];

fn tournament(dir: &Path, shard: Option<&str>) {
    let mut args = vec!["tournament"];
    args.extend(PLAYERS);
    args.extend([
        "--games-per-pair",
        "6",
        "--seed",
        "9",
        "--out",
        dir.to_str().unwrap(),
    ]);
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    let output = yolah(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
}

/// The games of a directory without their timings, in game order.
fn games(dir: &Path) -> Vec<(String, String, String, String, String)> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let mut games: Vec<_> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let field = |name: &str| {
                let headers = ["game", "config", "black", "white", "result"];
                let i = headers.iter().position(|h| *h == name);
                i.map_or_else(|| r[r.len() - 1].to_string(), |i| r[i].to_string())
            };
            (
                field("game"),
                field("black"),
                field("white"),
                field("result"),
                field("moves"),
            )
        })
        .collect();
    games.sort_by_key(|g| g.0.parse::<u64>().unwrap());
    games
}

#[test]
fn shards_merge_into_the_whole_tournament() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    tournament(&whole, None);
    let parts: Vec<_> = (1..=3)
        .map(|k| {
            let part = root.path().join(format!("part{k}"));
            tournament(&part, Some(&format!("{k}/3")));
            part.to_str().unwrap().to_string()
        })
        .collect();
    let merged = root.path().join("merged");
    let output = yolah(
        &[
            "tournament",
            "merge",
            merged.to_str().unwrap(),
            &parts[1],
            &parts[2],
            &parts[0],
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(games(&whole).len(), 18);
    assert_eq!(
        std::fs::read_to_string(merged.join("ratings.json")).unwrap(),
        std::fs::read_to_string(whole.join("ratings.json")).unwrap()
    );
    // The merged directory is a finished tournament like any other.
    let output = yolah(
        &["tournament", "--out", merged.to_str().unwrap(), "--resume"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));

    let again = root.path().join("again");
    let out = again.to_str().unwrap();
    let output = yolah(&["tournament", "merge", out, &parts[0], &parts[1]], "");
    assert_clean_error(&output, "shard 3/3 is missing");
    let output = yolah(
        &["tournament", "merge", out, &parts[0], &parts[0], &parts[1]],
        "",
    );
    assert_clean_error(&output, "shard 1/3 is given twice");
    let other = root.path().join("other");
    let mut args = vec!["tournament"];
    args.extend(PLAYERS);
    args.extend([
        "--games-per-pair",
        "6",
        "--seed",
        "8",
        "--shard",
        "3/3",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(yolah(&args, "").status.success());
    let output = yolah(
        &[
            "tournament",
            "merge",
            out,
            &parts[0],
            &parts[1],
            other.to_str().unwrap(),
        ],
        "",
    );
    assert_clean_error(&output, "is not a shard of the same tournament");
    let output = yolah(
        &[
            "tournament",
            "random",
            "mcts",
            "--shard",
            "0/3",
            "--out",
            out,
        ],
        "",
    );
    assert_clean_error(&output, "expected K/N");
}

/// Rewrites the shard of a run's settings file as a damaged or hostile file might hold it.
fn set_shard(path: &Path, shard: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("\"shard\"").expect("a shard entry");
    let end = start + text[start..].find('}').unwrap() + 1;
    let damaged = format!("{}\"shard\": {shard}{}", &text[..start], &text[end..]);
    std::fs::write(path, damaged).unwrap();
}

// A shard read from a file is checked as the command line checks it.
#[test]
fn a_damaged_shard_entry_is_refused_in_one_line() {
    let root = tempfile::tempdir().unwrap();
    let part = root.path().join("part");
    tournament(&part, Some("1/3"));
    let selfplay = root.path().join("selfplay");
    let output = yolah(
        &[
            "selfplay",
            "minimax:nodes=200",
            "--games",
            "4",
            "--shard",
            "1/2",
            "--out",
            selfplay.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let merged = root.path().join("merged");
    for shard in [
        r#"{"index": 0, "count": 0}"#,
        r#"{"index": 5, "count": 3}"#,
        r#"{"index": 1, "count": 18446744073709551615}"#,
    ] {
        set_shard(&part.join("tournament.json"), shard);
        set_shard(&selfplay.join("selfplay.json"), shard);
        for args in [
            vec!["tournament", "--resume", "--out", part.to_str().unwrap()],
            vec![
                "tournament",
                "merge",
                merged.to_str().unwrap(),
                part.to_str().unwrap(),
            ],
            vec!["selfplay", "--resume", "--out", selfplay.to_str().unwrap()],
            vec![
                "data",
                "merge",
                merged.to_str().unwrap(),
                selfplay.to_str().unwrap(),
            ],
        ] {
            let output = yolah(&args, "");
            assert_clean_error(&output, "1 ≤ K ≤ N ≤ 10000");
            assert_eq!(output.status.code(), Some(1), "{shard}: {args:?}");
        }
    }
    assert!(!merged.exists(), "nothing written");
}

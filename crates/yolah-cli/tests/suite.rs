//! `yolah suite`: a player's moves on positions whose every move the solver proved; the share
//! kept and the points given away as the file's values make them; bad suites refused in one
//! line before any search.

mod common;

use common::{assert_clean_error, stderr, stdout, yolah};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::path::Path;
use yolah_ai::players::minimax::Minimax;
use yolah_core::Position;

/// A suite of `count` positions of 10 free squares from random games, every move proved.
fn write_suite(path: &Path, count: usize) -> Vec<serde_json::Value> {
    let mut rng = SmallRng::seed_from_u64(71);
    let mut solver = Minimax::solver(16, 1);
    let mut lines = Vec::new();
    while lines.len() < count {
        let mut position = Position::start();
        while !position.game_over() && 64 - position.occupied().count() > 10 {
            position.play(position.random_move(&mut rng));
        }
        if position.game_over() || position.moves().len() < 2 {
            continue;
        }
        let mut values = serde_json::Map::new();
        for &m in &position.moves() {
            let mut child = position;
            child.play(m);
            let margin = -solver
                .prove(&child, 10_000_000)
                .expect("10 free squares prove");
            values.insert(m.to_string(), serde_json::json!(margin));
        }
        lines.push(serde_json::json!({"position": position.to_string(), "values": values}));
    }
    let text: String = lines.iter().fold(String::new(), |mut text, line| {
        text.push_str(&line.to_string());
        text.push('\n');
        text
    });
    std::fs::write(path, text).unwrap();
    lines
}

#[test]
fn a_player_is_judged_by_the_proved_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.jsonl");
    let lines = write_suite(&path, 12);
    let file = path.to_str().unwrap();
    // A weak player: each move's loss is the best value less its move's, as the file says.
    let output = yolah(&["suite", file, "minimax:depth=1", "--json"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["positions"], 12);
    let mut kept = 0;
    for (line, judged) in lines.iter().zip(json["moves"].as_array().unwrap()) {
        let values = line["values"].as_object().unwrap();
        let best = values.values().map(|v| v.as_i64().unwrap()).max().unwrap();
        let played = values[judged["played"].as_str().unwrap()].as_i64().unwrap();
        assert_eq!(judged["loss"].as_i64().unwrap(), best - played, "{judged}");
        kept += usize::from(best == played);
    }
    let share = json["kept"].as_f64().unwrap();
    assert!((share - kept as f64 / 12.0).abs() < 1e-12);
    let [low, high] = [0, 1].map(|i| json["kept_interval"][i].as_f64().unwrap());
    assert!(low <= share && share <= high, "{json}");
    // A player that searches to the end keeps every value.
    let output = yolah(&["suite", file, "minimax:depth=30"], "");
    let text = stdout(&output);
    assert!(
        text.contains("12 positions, kept the proved value in 100.0 %"),
        "{text}{}",
        stderr(&output)
    );
    assert!(text.contains("gave away 0.00 points"), "{text}");
}

#[test]
fn a_bad_suite_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.jsonl");
    let lines = write_suite(&good, 1);
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let mut missing = lines[0].clone();
    let first = missing["values"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    missing["values"].as_object_mut().unwrap().remove(&first);
    for (file, expected) in [
        (write("empty.jsonl", ""), "holds no position"),
        (
            write("junk.jsonl", "name,score\n"),
            "line 1: not a suite line",
        ),
        (
            write("missing.jsonl", &format!("{missing}\n")),
            "legal moves valued",
        ),
        (
            write("twice.jsonl", &format!("{}\n{}\n", lines[0], lines[0])),
            "line 2: the position of line 1 again",
        ),
        (
            dir.path().join("absent").to_str().unwrap().to_string(),
            "cannot read",
        ),
    ] {
        assert_clean_error(&yolah(&["suite", &file, "random"], ""), expected);
    }
    let good = good.to_str().unwrap();
    assert_clean_error(
        &yolah(&["suite", good, "--positions", "0"], ""),
        "--positions",
    );
    assert_clean_error(&yolah(&["suite", good, "nosuchplayer"], ""), "nosuchplayer");
}

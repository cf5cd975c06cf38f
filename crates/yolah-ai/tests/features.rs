//! Every feature on hand-made positions whose values were counted by hand
//! (`tests/data/features.txt`, each case explained there).

use yolah_ai::eval::{Feature, Features};
use yolah_core::Position;

struct Case {
    line: usize,
    position: Position,
    expected: Vec<(String, i32)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/features.txt");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, values) = line.split_once('|').expect("a case is `position | values`");
        let position: Position = position.trim().parse().expect("a valid position");
        let expected = values
            .split_whitespace()
            .map(|pair| {
                let (name, value) = pair.split_once('=').expect("name=value");
                (name.to_owned(), value.parse().expect("a number"))
            })
            .collect();
        cases.push(Case {
            line: i + 1,
            position,
            expected,
        });
    }
    cases
}

#[test]
fn every_feature_has_its_hand_counted_value() {
    let cases = cases();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let features = Features::of(&case.position);
        let mut named: Vec<&str> = Vec::new();
        for (name, value) in &case.expected {
            let actual = if name == "free" {
                i32::try_from(features.free).unwrap()
            } else {
                let feature = Feature::ALL
                    .into_iter()
                    .find(|f| f.name() == name)
                    .unwrap_or_else(|| panic!("line {}: unknown feature {name}", case.line));
                features.get(feature)
            };
            assert_eq!(actual, *value, "line {}: {name}", case.line);
            named.push(name);
        }
        for feature in Feature::ALL {
            assert!(
                named.contains(&feature.name()),
                "line {}: {} not given",
                case.line,
                feature.name()
            );
        }
    }
}

#[test]
fn features_change_sign_when_the_colours_are_swapped() {
    // The same position seen from the other side: mirror the board vertically and swap colours.
    for case in cases() {
        let text = case.position.to_string();
        let mut fields = text.split_whitespace();
        let board = fields.next().unwrap();
        let swapped_board: String = board
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| match c {
                        'b' => 'w',
                        'w' => 'b',
                        c => c,
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/");
        let original = Features::of(&case.position);
        // Side, scores and ply are kept as they are (so the position stays valid); the score
        // and the tempo are therefore not compared.
        let rest: Vec<&str> = fields.collect();
        let swapped: Position = format!("{swapped_board} {}", rest.join(" "))
            .parse()
            .expect("a valid mirrored position");
        let mirrored = Features::of(&swapped);
        for feature in Feature::ALL {
            if matches!(feature, Feature::Score | Feature::ToMove) {
                continue;
            }
            assert_eq!(
                mirrored.get(feature),
                -original.get(feature),
                "line {}: {}",
                case.line,
                feature.name()
            );
        }
    }
}

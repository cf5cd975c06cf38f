//! `info` lines: a [`Report`] written for the GUI, and read back by our `engine:` player.

use crate::player::{Margin, Report};
use std::fmt::Write as _;
use std::time::Duration;
use yolah_core::Move;

/// The `info` line of a report (without its newline): the fields that apply, `pv` last.
pub fn line(report: &Report) -> String {
    line_of(report, None)
}

/// [`line`], `multipv <k>` first when it is one of several lines.
fn line_of(report: &Report, multipv: Option<usize>) -> String {
    let mut line = String::from("info");
    if let Some(k) = multipv {
        let _ = write!(line, " multipv {k}");
    }
    if report.book {
        line.push_str(" book");
    }
    if let Some(depth) = report.depth {
        let _ = write!(line, " depth {depth}");
    } else if report.iterations > 0 {
        let _ = write!(line, " iterations {}", report.iterations);
    }
    if report.margin.is_some() || report.value.is_some() {
        line.push_str(" score");
        if let Some(margin) = report.margin {
            let _ = write!(line, " margin {:.2}", margin.points);
            if margin.proved {
                line.push_str(" proved");
            }
        }
        if let Some(value) = report.value {
            let _ = write!(line, " expect {value:.3}");
        }
    }
    if let Some(nodes) = report.nodes {
        let _ = write!(line, " nodes {nodes}");
    }
    let work = report.nodes.unwrap_or(report.iterations);
    if work > 0 {
        let rate = work as f64 / report.time.as_secs_f64().max(1e-6);
        let _ = write!(line, " nps {rate:.0}");
    }
    let _ = write!(line, " time {}", report.time.as_millis());
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for m in &report.pv {
            let _ = write!(line, " {m}");
        }
    }
    line
}

/// The `info` lines of a report: one, or with several lines (multi-PV, `lines=N`) one for each,
/// best first, each `info multipv <k> …` with its own score and `pv`.
pub fn lines(report: &Report) -> Vec<String> {
    if report.lines.len() <= 1 {
        return vec![line(report)];
    }
    report
        .lines
        .iter()
        .enumerate()
        .map(|(k, found)| {
            let one = Report {
                margin: Some(found.margin),
                value: Some(found.value),
                pv: found.pv.clone(),
                lines: Vec::new(),
                ..report.clone()
            };
            line_of(&one, Some(k + 1))
        })
        .collect()
}

/// What an `info` line (the words after `info`) says, put into `report`: the fields it knows,
/// skipping those it does not. `info string …` says nothing of the search and is left alone.
/// Malformed values are skipped too: the line is for people; only `bestmove` must be exact.
pub fn read(words: &[&str], report: &mut Report) {
    if words.first() == Some(&"string") {
        return;
    }
    let mut i = 0;
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    // Another line than the best (multi-PV) says nothing of the move to be played.
    if words.first() == Some(&"multipv") && number(0).is_some_and(|k| k != 1) {
        return;
    }
    while i < words.len() {
        match words[i] {
            "multipv" => i += 2,
            "book" => {
                report.book = true;
                i += 1;
            }
            "depth" => {
                report.depth = number(i).and_then(|d| u32::try_from(d).ok());
                i += 2;
            }
            "iterations" => {
                report.iterations = number(i).unwrap_or(report.iterations);
                i += 2;
            }
            "nodes" => {
                report.nodes = number(i);
                i += 2;
            }
            "time" => {
                if let Some(ms) = number(i) {
                    report.time = Duration::from_millis(ms);
                }
                i += 2;
            }
            "margin" => {
                let points = words.get(i + 1).and_then(|w| w.parse::<f64>().ok());
                let proved = words.get(i + 2) == Some(&"proved");
                report.margin = points
                    .filter(|p| p.is_finite())
                    .map(|points| Margin { points, proved });
                i += if proved { 3 } else { 2 };
            }
            "expect" => {
                report.value = words
                    .get(i + 1)
                    .and_then(|w| w.parse::<f64>().ok())
                    .filter(|v| (0.0..=1.0).contains(v));
                i += 2;
            }
            "pv" => {
                report.pv = words[i + 1..]
                    .iter()
                    .map_while(|w| w.parse::<Move>().ok())
                    .collect();
                break;
            }
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_survives_its_info_line() {
        let mut report = Report::new("a1:c3".parse().unwrap(), Duration::from_millis(87));
        report.depth = Some(6);
        report.margin = Some(Margin {
            points: -2.5,
            proved: true,
        });
        report.value = Some(0.25);
        report.nodes = Some(231_532);
        report.iterations = 231_532;
        report.pv = vec!["a1:c3".parse().unwrap(), "h8:f6".parse().unwrap()];
        let text = line(&report);
        assert_eq!(
            text,
            "info depth 6 score margin -2.50 proved expect 0.250 nodes 231532 nps 2661287 time 87 pv a1:c3 h8:f6"
        );
        let words: Vec<&str> = text.split_whitespace().skip(1).collect();
        let mut back = Report::new(report.mv, Duration::ZERO);
        read(&words, &mut back);
        back.iterations = report.iterations;
        back.detail.clone_from(&report.detail);
        assert_eq!(back, report);

        // A book move says so, and is read back as one.
        report.book = true;
        report.nodes = None;
        report.iterations = 0;
        let text = line(&report);
        assert!(text.starts_with("info book depth 6 score"), "{text}");
        let words: Vec<&str> = text.split_whitespace().skip(1).collect();
        let mut back = Report::new(report.mv, Duration::ZERO);
        read(&words, &mut back);
        back.detail.clone_from(&report.detail);
        assert_eq!(back, report);
    }

    #[test]
    fn mcts_reports_iterations_and_unknown_fields_are_skipped() {
        let mut report = Report::new(Move::PASS, Duration::from_millis(20));
        report.iterations = 1000;
        report.value = Some(0.5);
        assert_eq!(
            line(&report),
            "info iterations 1000 score expect 0.500 nps 50000 time 20"
        );
        let mut back = Report::new(Move::PASS, Duration::ZERO);
        read(
            &"hashfull 3 iterations 7 currmove e4 score expect 9 time x pv a1:c3 zz"
                .split_whitespace()
                .collect::<Vec<_>>(),
            &mut back,
        );
        assert_eq!(back.iterations, 7);
        assert_eq!(back.value, None, "an expected score above 1 is dropped");
        assert_eq!(back.pv, vec!["a1:c3".parse::<Move>().unwrap()]);
    }

    #[test]
    fn several_lines_give_one_info_line_each_and_only_the_first_is_read_back() {
        let mut report = Report::new("a1:c3".parse().unwrap(), Duration::from_millis(87));
        report.depth = Some(6);
        let found = |pv: &str, points: f64| crate::player::Line {
            pv: pv.split(' ').map(|m| m.parse().unwrap()).collect(),
            margin: Margin {
                points,
                proved: false,
            },
            value: 0.5,
        };
        report.lines = vec![found("a1:c3 h8:f6", 1.5), found("a1:b2 h8:g7", -0.25)];
        report.pv = report.lines[0].pv.clone();
        report.margin = Some(report.lines[0].margin);
        let written = lines(&report);
        assert_eq!(
            written,
            [
                "info multipv 1 depth 6 score margin 1.50 expect 0.500 time 87 pv a1:c3 h8:f6",
                "info multipv 2 depth 6 score margin -0.25 expect 0.500 time 87 pv a1:b2 h8:g7",
            ]
        );
        let mut read_back = Report::new("a1:c3".parse().unwrap(), Duration::ZERO);
        for text in &written {
            let words: Vec<&str> = text.split(' ').skip(1).collect();
            read(&words, &mut read_back);
        }
        assert_eq!(read_back.pv, report.pv);
        assert_eq!(read_back.margin, report.margin);
        report.lines.truncate(1);
        assert_eq!(lines(&report), [line(&report)]);
    }
}

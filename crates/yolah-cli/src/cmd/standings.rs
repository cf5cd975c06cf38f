//! Printing results: a tournament's crosstable and ratings.

use anyhow::{Result, bail};
use std::io::Write;
use yolah_ai::arena::ratings::Fit;
use yolah_ai::arena::tournament::{Crosstable, Ratings};

/// An Elo difference with its sign: `+89`, `-12`, `0`.
pub fn elo(value: f64) -> String {
    let rounded = value.round();
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded:+}")
    }
}

/// The crosstable (points of the row player against the column player), the ratings with
/// their intervals, and each gap between neighbours in the ranking with its interval.
pub fn print(
    out: &mut impl Write,
    specs: &[String],
    table: &Crosstable,
    fit: Option<&Fit>,
) -> Result<()> {
    let Some(fit) = fit else {
        bail!("the games played do not link every player to every other: no ratings yet");
    };
    let ratings = Ratings::new(specs, table, fit);
    // Rows in ranking order.
    let order: Vec<usize> = ratings
        .players
        .iter()
        .map(|r| {
            specs
                .iter()
                .position(|s| *s == r.spec)
                .expect("rated players")
        })
        .collect();
    let width = specs.iter().map(String::len).max().unwrap_or(0).max(6);
    write!(out, "\n{:>3} {:<width$}", "", "player")?;
    for rank in 1..=order.len() {
        write!(out, " {rank:>9}")?;
    }
    writeln!(out)?;
    for (rank, &i) in order.iter().enumerate() {
        write!(out, "{:>3} {:<width$}", rank + 1, specs[i])?;
        for &j in &order {
            // A pair that does not meet (a gauntlet's opponents) shows a dash.
            if i == j {
                write!(out, " {:>9}", "·")?;
            } else if table.wdl[i][j] == [0; 3] {
                write!(out, " {:>9}", "-")?;
            } else {
                let [w, d, l] = table.wdl[i][j];
                let points = f64::from(w) + f64::from(d) / 2.0;
                write!(out, " {:>9}", format!("{points}/{}", w + d + l))?;
            }
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "\n{:>3} {:<width$} {:>6}  {:>14}  {:>5}  {:>7}",
        "", "player", "Elo", "95 % interval", "games", "score"
    )?;
    for (rank, rating) in ratings.players.iter().enumerate() {
        writeln!(
            out,
            "{:>3} {:<width$} {:>6}  {:>14}  {:>5}  {:>6.1} %",
            rank + 1,
            rating.spec,
            elo(rating.elo),
            format!("[{}, {}]", elo(rating.elo_low), elo(rating.elo_high)),
            rating.games,
            100.0 * rating.score
        )?;
    }
    writeln!(out)?;
    for pair in order.windows(2) {
        let (d, low, high) = fit.difference(pair[0], pair[1]);
        writeln!(
            out,
            "gap {} − {}: {} [{}, {}]",
            specs[pair[0]],
            specs[pair[1]],
            elo(d),
            elo(low),
            elo(high)
        )?;
    }
    Ok(())
}

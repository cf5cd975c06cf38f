//! PNG line plots of logs, drawn by `plotters` with the embedded `DejaVu` Sans font (so no
//! system font is needed).

use anyhow::{Context, Result, anyhow};
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// One line of a plot.
pub struct Series<'a> {
    pub name: &'a str,
    pub points: Vec<(f64, f64)>,
    pub color: RGBColor,
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded font parses; if it did not, text would be left out, not the plot.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

/// Draws `series` against x into a 900×540 PNG at `path`.
pub fn lines(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<()> {
    register_font();
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x_max, mut y_min, mut y_max) = (1.0f64, f64::MAX, f64::MIN);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if y_min > y_max {
        (y_min, y_max) = (0.0, 1.0);
    }
    let pad = ((y_max - y_min) * 0.1).max(0.01);
    let root = BitMapBackend::new(path, (900, 540)).into_drawing_area();
    let error = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max, (y_min - pad)..(y_max + pad))
        .map_err(|e| error(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| error(&e))?;
    for s in series {
        let color = s.color;
        chart
            .draw_series(LineSeries::new(s.points.clone(), color.stroke_width(2)))
            .map_err(|e| error(&e))?
            .label(s.name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| error(&e))?;
    root.present()
        .with_context(|| format!("writing {}", path.display()))
}

/// Draws each player's rating as a point with its 95 % interval as a bar, best at the top,
/// into a PNG at `path`.
pub fn ratings(
    path: &Path,
    title: &str,
    ratings: &yolah_ai::arena::tournament::Ratings,
) -> Result<()> {
    register_font();
    let players = &ratings.players;
    let n = players.len().max(1);
    let low = players.iter().map(|r| r.elo_low).fold(f64::MAX, f64::min);
    let high = players.iter().map(|r| r.elo_high).fold(f64::MIN, f64::max);
    let (low, high) = if low <= high {
        (low, high)
    } else {
        (-100.0, 100.0)
    };
    let pad = ((high - low) * 0.05).max(10.0);
    let height = 120 + 50 * n as u32;
    let root = BitMapBackend::new(path, (900, height)).into_drawing_area();
    let error = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let label_width = players
        .iter()
        .map(|r| r.spec.chars().count())
        .max()
        .unwrap_or(10)
        .min(48) as u32
        * 8
        + 10;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(label_width)
        .build_cartesian_2d((low - pad)..(high + pad), -0.5..(n as f64 - 0.5))
        .map_err(|e| error(&e))?;
    let name = |y: &f64| {
        let i = y.round();
        if (y - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        // Best at the top: row 0 is drawn highest.
        players
            .get(n - 1 - i as usize)
            .map(|r| r.spec.chars().take(48).collect())
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .x_desc("Elo (95 % interval), centred on the players' mean")
        .y_labels(n)
        .y_label_formatter(&name)
        .disable_y_mesh()
        .draw()
        .map_err(|e| error(&e))?;
    let blue = RGBColor(40, 80, 200);
    for (i, r) in players.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(r.elo_low, y), (r.elo_high, y)],
                blue.stroke_width(3),
            )))
            .map_err(|e| error(&e))?;
        chart
            .draw_series(std::iter::once(Circle::new((r.elo, y), 6, blue.filled())))
            .map_err(|e| error(&e))?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("{:+.0}", r.elo),
                (r.elo, y + 0.3),
                ("sans-serif", 16),
            )))
            .map_err(|e| error(&e))?;
    }
    root.present()
        .with_context(|| format!("writing {}", path.display()))
}

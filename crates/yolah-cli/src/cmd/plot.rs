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

/// One panel of a plot: its y axis and its lines.
pub struct Panel<'a> {
    pub y_label: &'a str,
    pub series: Vec<Series<'a>>,
}

/// Draws each panel's series against a whole-number x (epochs, generations), the panels side
/// by side (each with its own y scale), into a PNG at `path`. The legend sits in the upper
/// left, where rising curves leave room (`legend_low` puts it lower left, for falling ones).
pub fn lines(
    path: &Path,
    title: &str,
    x_label: &str,
    panels: &[Panel],
    legend_low: bool,
) -> Result<()> {
    register_font();
    let width = 900 * panels.len().max(1) as u32;
    // Drawn into a file beside it, then renamed over it: never half a picture.
    let tmp = temporary(path);
    let drawn = || -> Result<()> {
        let root = BitMapBackend::new(&tmp, (width, 540)).into_drawing_area();
        let error = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let root = root
            .titled(title, ("sans-serif", 24))
            .map_err(|e| error(&e))?;
        for (area, panel) in root
            .split_evenly((1, panels.len().max(1)))
            .iter()
            .zip(panels)
        {
            let points = panel.series.iter().flat_map(|s| s.points.iter());
            let (mut x_min, mut x_max, mut y_min, mut y_max) =
                (f64::MAX, 1.0f64, f64::MAX, f64::MIN);
            for &(x, y) in points {
                x_min = x_min.min(x);
                x_max = x_max.max(x);
                y_min = y_min.min(y);
                y_max = y_max.max(y);
            }
            if y_min > y_max {
                (y_min, y_max) = (0.0, 1.0);
            }
            let x_min = if x_min < x_max { x_min } else { 0.0 };
            let pad = ((y_max - y_min) * 0.1).max(1e-4);
            let mut chart = ChartBuilder::on(area)
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(x_min..x_max, (y_min - pad)..(y_max + pad))
                .map_err(|e| error(&e))?;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(panel.y_label)
                .x_label_formatter(&|x| format!("{x:.0}"))
                .x_labels((x_max - x_min).min(10.0) as usize + 1)
                .draw()
                .map_err(|e| error(&e))?;
            for s in &panel.series {
                let color = s.color;
                chart
                    .draw_series(LineSeries::new(s.points.clone(), color.stroke_width(2)))
                    .map_err(|e| error(&e))?
                    .label(s.name)
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                // A mark at each point, so that a line of one point shows too.
                chart
                    .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| error(&e))?;
            }
            chart
                .configure_series_labels()
                .position(if legend_low {
                    SeriesLabelPosition::LowerLeft
                } else {
                    SeriesLabelPosition::UpperLeft
                })
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| error(&e))?;
        }
        root.present()
            .with_context(|| format!("writing {}", path.display()))?;
        drop(root);
        Ok(())
    };
    settle(drawn(), &tmp, path)
}

/// A spec as a plot names it: a file it reads is named by its file name alone
/// (`minimax:weights=…/weights-start.json`), so that the name fits.
pub fn short_spec(spec: &str) -> String {
    spec.split(',')
        .map(|item| match item.split_once('=') {
            Some((key, value)) if value.contains('/') => {
                let file = value.rsplit('/').next().unwrap_or(value);
                format!("{key}=…/{file}")
            }
            _ => item.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
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
    let error = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    let names: Vec<String> = players.iter().map(|r| short_spec(&r.spec)).collect();
    // About 8 pixels a character at the label size, and room for the ticks.
    let label_width = names
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(10) as u32
        * 8
        + 24;
    let width = 900 + label_width;
    let tmp = temporary(path);
    let drawn = || -> Result<()> {
        let root = BitMapBackend::new(&tmp, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
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
            names.get(n - 1 - i as usize).cloned().unwrap_or_default()
        };
        chart
            .configure_mesh()
            .x_desc("Elo (95 % interval), centred on the players' mean")
            .x_label_formatter(&|x| format!("{x:+.0}"))
            .y_label_style(("sans-serif", 14))
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
            .with_context(|| format!("writing {}", path.display()))?;
        drop(root);
        Ok(())
    };
    settle(drawn(), &tmp, path)
}

/// Where a picture for `path` is drawn first: `NAME.tmp.png` beside it (the extension tells
/// the encoder the format).
fn temporary(path: &Path) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}.tmp.png"))
}

/// Renames a picture drawn in `tmp` over `path`, or removes it if drawing failed (a full
/// disk, say).
fn settle(drawn: Result<()>, tmp: &Path, path: &Path) -> Result<()> {
    if let Err(error) = drawn {
        let _ = std::fs::remove_file(tmp);
        return Err(error);
    }
    std::fs::rename(tmp, path).with_context(|| format!("writing {}", path.display()))
}

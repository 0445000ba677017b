//! SVG charts (plotters' SVG backend): lines of per-step stage times for `run
//! --plot`, bars of relative times for `bench --svg`.

use std::error::Error;
use std::path::Path;

use plotters::prelude::*;

/// One named line of `(x, y)` points.
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
}

fn colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    PALETTE[i % PALETTE.len()]
}

/// A line chart of `series` to the SVG file `path`.
pub fn lines(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), Box<dyn Error>> {
    let points = || series.iter().flat_map(|s| s.points.iter());
    let x_max = points().map(|p| p.0).fold(1.0, f64::max);
    let y_max = points()
        .map(|p| p.1)
        .filter(|y| y.is_finite())
        .fold(0.0, f64::max);
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let c = colour(i);
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// One group of bars: a label and one value per contestant (`None`: the contestant
/// did not run it).
pub struct BarGroup {
    /// The group's label.
    pub label: String,
    /// A value per contestant, in the order of the chart's contestants.
    pub values: Vec<Option<f64>>,
}

/// Horizontal grouped bars of positive values (ratios) on a log axis to the SVG file
/// `path`: a row per group, a bar per contestant, a dashed line at `reference` (1:
/// as fast as the baseline).
pub fn bars(
    path: &Path,
    title: &str,
    x_label: &str,
    contestants: &[String],
    groups: &[BarGroup],
    reference: f64,
) -> Result<(), Box<dyn Error>> {
    let k = contestants.len().max(1);
    let rows = groups.len().max(1);
    // Ratios span orders of magnitude: a log axis keeps 0.5x and 80x readable.
    let values = || {
        groups
            .iter()
            .flat_map(|g| g.values.iter().flatten())
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let x_max = values().fold(reference, f64::max) * 1.5;
    let x_min = values().fold(reference, f64::min) / 1.5;
    let height = (80 + rows * (10 + 14 * k)).min(20_000) as u32;
    let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(300)
        .build_cartesian_2d((x_min..x_max).log_scale(), 0.0..rows as f64)?;
    let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(x_label)
        .y_labels(rows * 2 + 1)
        .y_label_formatter(&|y| {
            // Labels sit at the middle of each row.
            let row = (y - 0.5).round();
            if (y - 0.5 - row).abs() < 1e-6 && row >= 0.0 {
                labels
                    .get(rows - 1 - row as usize)
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .draw()?;
    let band = 0.8 / k as f64;
    for (c, name) in contestants.iter().enumerate() {
        let colour = colour(c);
        let rects = groups.iter().enumerate().filter_map(|(g, group)| {
            let v = (*group.values.get(c)?)?;
            let top = (rows - g) as f64 - 0.1 - band * c as f64;
            Some(Rectangle::new(
                [(x_min, top - band * 0.9), (v, top)],
                colour.filled(),
            ))
        });
        chart
            .draw_series(rects)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
    }
    chart.draw_series(DashedLineSeries::new(
        [(reference, 0.0), (reference, rows as f64)],
        6,
        4,
        BLACK.stroke_width(1),
    ))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()?;
    root.present()
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

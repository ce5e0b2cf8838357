//! A trade-off drawn as a PNG and an SVG: on the left the style spread of each feature
//! (`max:F` − `min:F`, in cell widths, with its 95 % interval) against the strength, grey
//! lines at one and three cells; on the right the lowest lower bound of the extremes' win
//! rates against the strength, the floor as a dashed red line. The strength chosen is a
//! green vertical line in both.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::tradeoff::Tradeoff;
use crate::error::Result;
use crate::files::write_atomic;
use crate::report::chart::{DrawResult, svg_string, write_png};
use crate::report::palette::{BLUE, FRAME, GREEN, RED};
use crate::report::printable::printable;

const SIZE: (u32, u32) = (1000, 440);

/// Colours of the features' lines, in axis order.
const SERIES: [RGBColor; 3] = [BLUE, RGBColor(255, 127, 14), RGBColor(148, 103, 189)];

const GRID: RGBColor = RGBColor(200, 200, 200);

/// Writes the chart of `t` to `png` and `svg`, each atomically.
///
/// # Errors
///
/// [`crate::Error::Io`] naming a file that cannot be drawn or written.
pub fn write_chart(t: &Tradeoff, png: &Path, svg: &Path) -> Result<()> {
    write_png(png, SIZE, |root| draw(root, t))?;
    let text = svg_string(svg, SIZE, |root| draw(root, t))?;
    write_atomic(svg, text.as_bytes())
}

/// The x range: the strengths, with a margin (±0.5 around a single strength).
fn x_range(t: &Tradeoff) -> (f64, f64) {
    let lo = t.rungs.first().map_or(0.0, |r| r.strength);
    let hi = t.rungs.last().map_or(1.0, |r| r.strength);
    let pad = if hi > lo { (hi - lo) * 0.05 } else { 0.5 };
    (lo - pad, hi + pad)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, t: &Tradeoff) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let title = format!(
        "Calibration of `{}`: style against strength (chosen {}{})",
        t.field,
        t.chosen_strength(),
        if t.passed { "" } else { ", no strength passed" }
    );
    let root = root.titled(&printable(&title), ("sans-serif", 18))?;
    let (left, right) = root.split_horizontally(SIZE.0 / 2);
    let (x0, x1) = x_range(t);
    let chosen = t.chosen_strength();

    // Left: spread per feature.
    let values = t
        .rungs
        .iter()
        .flat_map(|r| r.spread.iter())
        .flat_map(|s| [Some(s.mean), s.lo, s.hi])
        .flatten()
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((0.0_f64, 3.5_f64), |(a, b), v| (a.min(v), b.max(v)));
    let mut chart = ChartBuilder::on(&left)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .caption("style spread, max:F - min:F (cells)", ("sans-serif", 15))
        .build_cartesian_2d(x0..x1, (lo - 0.3)..(hi + 0.3))?;
    chart
        .configure_mesh()
        .x_desc(printable(&t.field))
        .light_line_style(WHITE)
        .draw()?;
    for level in [1.0, 3.0] {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x0, level), (x1, level)],
            GRID.stroke_width(1),
        )))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(chosen, lo - 0.3), (chosen, hi + 0.3)],
        GREEN.stroke_width(2),
    )))?;
    for (k, axis) in t.axes.iter().enumerate() {
        let colour = SERIES[k % SERIES.len()];
        let points: Vec<(f64, f64)> = t
            .rungs
            .iter()
            .filter(|r| r.spread[k].mean.is_finite())
            .map(|r| (r.strength, r.spread[k].mean))
            .collect();
        let style = colour.stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(points.clone(), style)))?
            .label(printable(&axis.name))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))?;
        for r in &t.rungs {
            if let (Some(a), Some(b)) = (r.spread[k].lo, r.spread[k].hi) {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(r.strength, a), (r.strength, b)],
                    colour.stroke_width(1),
                )))?;
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(FRAME)
        .draw()?;

    // Right: the lowest lower bound, in percent, and the floor.
    let mut chart = ChartBuilder::on(&right)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .caption(
            format!(
                "lowest win-rate lower bound of the extremes (z = {}), %",
                t.z
            ),
            ("sans-serif", 15),
        )
        .build_cartesian_2d(x0..x1, 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc(printable(&t.field))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE)
        .draw()?;
    let floor = 100.0 * t.floor;
    let mut x = x0;
    let dash = (x1 - x0) / 80.0;
    while x < x1 {
        let end = (x + dash).min(x1);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, floor), (end, floor)],
            RED.stroke_width(2),
        )))?;
        x += 2.0 * dash;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(chosen, 0.0), (chosen, 100.0)],
        GREEN.stroke_width(2),
    )))?;
    let points: Vec<(f64, f64, bool)> = t
        .rungs
        .iter()
        .filter_map(|r| r.lowest().map(|e| (r.strength, 100.0 * e.lo, r.passes)))
        .collect();
    chart.draw_series(std::iter::once(PathElement::new(
        points.iter().map(|&(x, y, _)| (x, y)).collect::<Vec<_>>(),
        FRAME.stroke_width(2),
    )))?;
    chart.draw_series(points.iter().map(|&(x, y, passes)| {
        let colour = if passes { GREEN } else { RED };
        Circle::new((x, y), 5, colour.filled())
    }))?;
    Ok(())
}

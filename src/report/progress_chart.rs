//! The progress of a MAP-Elites run drawn from `progress.csv` as `progress.png`: coverage,
//! best and mean elite win rate (all in percent) against the number of evaluations, one point
//! per batch (and the same chart as SVG for pages).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::chart::{DrawResult, svg_string, write_png};
use super::palette::{BLUE as COVERAGE, GREEN as MEAN, RED as BEST};
use crate::error::Result;
use crate::qd::BatchReport;

/// File name of the progress chart in a run directory.
pub const PROGRESS_PNG: &str = "progress.png";

const SIZE: (u32, u32) = (800, 480);

/// Writes the progress chart of `reports` (the rows of `progress.csv`) to `path` atomically.
/// Batches before the first elite have no win rate and are left out of the win-rate lines;
/// an empty table draws empty axes.
///
/// # Errors
///
/// [`crate::Error::Io`] naming `path` if drawing or writing fails.
pub fn write_progress_chart(reports: &[BatchReport], path: &Path) -> Result<()> {
    write_png(path, SIZE, |root| draw(root, reports))
}

/// The progress chart of `reports` as an SVG document (for pages).
///
/// # Errors
///
/// [`crate::Error::Io`] if drawing fails.
pub fn render_progress_svg(reports: &[BatchReport]) -> Result<String> {
    svg_string(Path::new("progress.svg"), SIZE, |root| draw(root, reports))
}

/// The lines of the chart: (label, colour, points).
type Line = (&'static str, RGBColor, Vec<(f64, f64)>);

fn lines(reports: &[BatchReport]) -> [Line; 3] {
    let x = |r: &BatchReport| r.evaluations as f64;
    let pct = |v: f64| 100.0 * v;
    [
        (
            "coverage",
            COVERAGE,
            reports.iter().map(|r| (x(r), pct(r.coverage))).collect(),
        ),
        (
            "best win rate",
            BEST,
            reports
                .iter()
                .filter_map(|r| r.max_fitness.map(|v| (x(r), pct(v))))
                .collect(),
        ),
        (
            "mean win rate",
            MEAN,
            reports
                .iter()
                .filter_map(|r| r.mean_fitness.map(|v| (x(r), pct(v))))
                .collect(),
        ),
    ]
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    reports: &[BatchReport],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let last = reports.iter().map(|r| r.evaluations).max().unwrap_or(0);
    let x_max = (last as f64).max(1.0);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("MAP-Elites progress ({last} evaluations)"),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc("evaluations")
        .y_desc("percent")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    for (label, colour, points) in lines(reports) {
        let style = colour.stroke_width(2);
        let marks = points.clone();
        chart
            .draw_series(std::iter::once(PathElement::new(points, style)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart.draw_series(
            marks
                .into_iter()
                .map(|p| Circle::new(p, 2, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(evaluations: u64, coverage: f64, best: Option<f64>) -> BatchReport {
        BatchReport {
            batch: evaluations / 10,
            evaluations,
            games: 4 * evaluations,
            elites: (coverage * 100.0) as usize,
            coverage,
            qd_score: 0.0,
            max_fitness: best,
            mean_fitness: best.map(|b| b / 2.0),
            seconds: 1.0,
        }
    }

    #[test]
    fn batches_without_elites_have_no_win_rate_points() {
        let rs = [report(10, 0.0, None), report(20, 0.1, Some(0.5))];
        let [coverage, best, mean] = lines(&rs);
        assert_eq!(coverage.2, vec![(10.0, 0.0), (20.0, 10.0)]);
        assert_eq!(best.2, vec![(20.0, 50.0)]);
        assert_eq!(mean.2, vec![(20.0, 25.0)]);
    }
}

//! A ladder's ratings drawn as `ladder.png` and `ladder.svg`: one row per agent, strongest at
//! the top, a point at its rating (Elo) with a bar over its 95 % interval (around the agents'
//! average); the anchor (rated 0 by definition) drawn as a diamond, a dark vertical line at 0;
//! the numbers at the right of each row.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{DrawResult, font, svg_string, write_png};
use super::palette::{BLUE, FRAME, SHADE};
use crate::error::Result;
use crate::files::write_atomic;
use crate::report::printable::printable;

/// File name of the PNG chart in a ladder's folder.
pub const LADDER_PNG: &str = "ladder.png";
/// File name of the SVG chart in a ladder's folder.
pub const LADDER_SVG: &str = "ladder.svg";

const MARGIN: i32 = 16;
const TITLE_H: i32 = 44;
const ROW_H: i32 = 24;
const PLOT_W: i32 = 520;
const AXIS_H: i32 = 52;
const VALUE_W: i32 = 170;
const LABEL_FONT: f64 = 13.0;
const TITLE_FONT: f64 = 18.0;
const GRID: RGBColor = RGBColor(225, 225, 225);
const DARK: RGBColor = RGBColor(60, 60, 60);

/// One agent of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartRow {
    /// Its name.
    pub name: String,
    /// Its rating.
    pub elo: f64,
    /// Lower end of its 95 % interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// True for the anchor.
    pub anchor: bool,
}

/// Writes `ladder.png` and `ladder.svg` of `rows` (strongest first) into `dir`, atomically.
///
/// # Errors
///
/// [`crate::Error::Io`] naming a file that cannot be drawn or written.
pub fn write_ladder_charts(rows: &[ChartRow], dir: &Path) -> Result<()> {
    let plan = Plan::new(rows);
    write_png(&dir.join(LADDER_PNG), plan.size(), |root| plan.draw(root))?;
    write_atomic(&dir.join(LADDER_SVG), render_ladder_svg(rows)?.as_bytes())
}

/// The chart of `rows` (strongest first) as an SVG document.
///
/// # Errors
///
/// [`crate::Error::Io`] if drawing fails.
pub fn render_ladder_svg(rows: &[ChartRow]) -> Result<String> {
    let plan = Plan::new(rows);
    svg_string(Path::new(LADDER_SVG), plan.size(), |root| plan.draw(root))
}

struct Plan<'a> {
    rows: &'a [ChartRow],
    label_w: i32,
    /// The Elo range of the x axis, on multiples of the tick step.
    range: (f64, f64),
    step: f64,
}

impl<'a> Plan<'a> {
    fn new(rows: &'a [ChartRow]) -> Self {
        let widest = rows
            .iter()
            .map(|r| (printable(&r.name).chars().count() as f64 * LABEL_FONT * 0.62) as i32)
            .max()
            .unwrap_or(0);
        let lo = rows.iter().map(|r| r.lo).fold(0.0, f64::min);
        let hi = rows.iter().map(|r| r.hi).fold(0.0, f64::max);
        let span = (hi - lo).max(1.0);
        let step = [10.0, 20.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0]
            .into_iter()
            .find(|s| span / s <= 10.0)
            .unwrap_or(5000.0);
        Plan {
            rows,
            label_w: widest.clamp(60, 320) + 12,
            range: ((lo / step).floor() * step, (hi / step).ceil() * step),
            step,
        }
    }

    fn area(&self) -> (i32, i32, i32, i32) {
        let x0 = MARGIN + self.label_w;
        (
            x0,
            x0 + PLOT_W,
            TITLE_H,
            TITLE_H + self.rows.len().max(1) as i32 * ROW_H,
        )
    }

    fn size(&self) -> (u32, u32) {
        let (_, x1, _, y1) = self.area();
        (
            (x1 + VALUE_W + MARGIN) as u32,
            (y1 + AXIS_H + MARGIN) as u32,
        )
    }

    fn x_of(&self, elo: f64) -> i32 {
        let (x0, ..) = self.area();
        let (lo, hi) = self.range;
        let t = ((elo - lo) / (hi - lo).max(1e-9)).clamp(0.0, 1.0);
        x0 + (t * f64::from(PLOT_W)).round() as i32
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (w, _) = self.size();
        let (x0, x1, y0, y1) = self.area();
        root.draw(&Text::new(
            format!(
                "Ratings (Elo) with 95% intervals, {} agents",
                self.rows.len()
            ),
            (MARGIN, TITLE_H / 2),
            font(TITLE_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        for i in (1..self.rows.len()).step_by(2) {
            let top = y0 + i as i32 * ROW_H;
            root.draw(&Rectangle::new(
                [(MARGIN, top), (w as i32 - MARGIN, top + ROW_H)],
                SHADE.filled(),
            ))?;
        }
        let (lo, hi) = self.range;
        let ticks = ((hi - lo) / self.step).round() as i64;
        for t in 0..=ticks {
            let elo = lo + t as f64 * self.step;
            let x = self.x_of(elo);
            let colour = if elo == 0.0 { DARK } else { GRID };
            root.draw(&PathElement::new(vec![(x, y0), (x, y1)], colour))?;
            root.draw(&Text::new(
                format!("{elo:+.0}"),
                (x, y1 + 6),
                font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        root.draw(&Rectangle::new([(x0, y0), (x1, y1)], FRAME.stroke_width(1)))?;
        for (i, r) in self.rows.iter().enumerate() {
            let y = y0 + i as i32 * ROW_H + ROW_H / 2;
            root.draw(&Text::new(
                printable(&r.name),
                (x0 - 8, y),
                font(LABEL_FONT).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            let (a, b) = (self.x_of(r.lo), self.x_of(r.hi));
            let bar = BLUE.stroke_width(2);
            root.draw(&PathElement::new(vec![(a, y), (b, y)], bar))?;
            for x in [a, b] {
                root.draw(&PathElement::new(vec![(x, y - 4), (x, y + 4)], bar))?;
            }
            let x = self.x_of(r.elo);
            if r.anchor {
                root.draw(&Polygon::new(
                    vec![(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)],
                    DARK.filled(),
                ))?;
            } else {
                root.draw(&Circle::new((x, y), 4, BLUE.filled()))?;
            }
            root.draw(&Text::new(
                format!("{:+.0}  [{:+.0}, {:+.0}]", r.elo, r.lo, r.hi),
                (x1 + 10, y),
                font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        root.draw(&Text::new(
            "rating (Elo; the anchor, a diamond, is 0; intervals around the average; 100 Elo = 64% expected score)",
            ((x0 + x1) / 2, y1 + AXIS_H - 14),
            font(LABEL_FONT).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        Ok(())
    }
}

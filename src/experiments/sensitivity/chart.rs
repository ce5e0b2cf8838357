//! A sensitivity measurement drawn as `sensitivity.png` and `sensitivity.svg`: one panel per
//! measure, side by side (the win rate's effect in points, then each feature's in cell widths);
//! in each a row per unit (then `all`, then `extremes:F` per feature: `max:F` − `min:F`), a
//! point at its high − low effect and a bar over its 95 % interval, a vertical line at 0 and, in
//! the feature panels, grey lines at ±1 cell and dashed ones at ±3 cells.
//! Green where the interval lies above 0, red below, blue across.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::tables::{Effect, Sensitivity};
use super::{CHART_PNG, CHART_SVG};
use crate::error::Result;
use crate::files::write_atomic;
use crate::report::chart::{DrawResult, font, svg_string, write_png};
use crate::report::palette::{BLUE as SPANS, FRAME, GREEN as ABOVE, RED as BELOW, SHADE};
use crate::report::printable::printable;

const MARGIN: i32 = 16;
const TITLE_H: i32 = 56;
const ROW_H: i32 = 24;
const PANEL_W: i32 = 260;
const PANEL_GAP: i32 = 20;
const AXIS_H: i32 = 40;
const LABEL_FONT: f64 = 14.0;
const TICK_FONT: f64 = 12.0;
const TITLE_FONT: f64 = 17.0;

const GRID: RGBColor = RGBColor(200, 200, 200);

/// Writes `sensitivity.png` and `sensitivity.svg` of `s` into `dir`, each atomically.
///
/// # Errors
///
/// [`crate::Error::Io`] naming a file that cannot be drawn or written.
pub fn write_charts(s: &Sensitivity, dir: &Path) -> Result<()> {
    let plan = Plan::new(s);
    write_png(&dir.join(CHART_PNG), plan.size(), |root| plan.draw(root))?;
    let svg = svg_string(Path::new(CHART_SVG), plan.size(), |root| plan.draw(root))?;
    write_atomic(&dir.join(CHART_SVG), svg.as_bytes())
}

/// One panel: a measure's effects, in its unit, and the x range drawn.
struct Panel<'a> {
    title: String,
    effects: Vec<&'a Effect>,
    /// Points for the win rate, 1 for features (cell widths).
    scale: f64,
    /// Half the x range: the range is `[-half, half]`.
    half: f64,
}

impl Panel<'_> {
    /// `x` of an effect in the panel's unit.
    fn value(&self, e: &Effect, x: f64) -> f64 {
        e.in_cells(x).unwrap_or(x) * self.scale
    }
}

struct Plan<'a> {
    panels: Vec<Panel<'a>>,
    units: Vec<String>,
    label_w: i32,
    title: String,
}

impl<'a> Plan<'a> {
    fn new(s: &'a Sensitivity) -> Self {
        let measures = s.axes.len() + 1;
        let units: Vec<String> = s
            .effects
            .chunks(measures)
            .map(|c| c[0].unit.clone())
            .collect();
        let panels = (0..measures)
            .map(|k| {
                let effects: Vec<&Effect> = s.effects.iter().skip(k).step_by(measures).collect();
                let (title, scale) = if k == 0 {
                    ("win rate (points)".to_string(), 100.0)
                } else {
                    (format!("{} (cells)", s.axes[k - 1].name), 1.0)
                };
                let mut panel = Panel {
                    title,
                    effects,
                    scale,
                    half: 0.0,
                };
                let widest = panel
                    .effects
                    .iter()
                    .flat_map(|e| [Some(e.effect.mean), e.effect.lo, e.effect.hi])
                    .flatten()
                    .map(|x| panel.value(panel.effects[0], x).abs())
                    .filter(|x| x.is_finite())
                    .fold(if k == 0 { 5.0 } else { 1.5 }, f64::max);
                panel.half = nice(widest * 1.05);
                panel
            })
            .collect();
        let label_w = units
            .iter()
            .map(|u| (printable(u).chars().count() as f64 * LABEL_FONT * 0.62) as i32)
            .max()
            .unwrap_or(40)
            .clamp(40, 300)
            + 12;
        let games = s.genomes.first().map_or(0, |g| g.games.len());
        Plan {
            panels,
            units,
            label_w,
            title: format!(
                "Effect of each weight, high - low, and of each feature's extremes, max - min, \
                 with 95% intervals ({games} paired games per genome)"
            ),
        }
    }

    fn plot_top(&self) -> i32 {
        TITLE_H
    }

    fn plot_bottom(&self) -> i32 {
        self.plot_top() + self.units.len().max(1) as i32 * ROW_H
    }

    fn panel_x(&self, k: usize) -> i32 {
        MARGIN + self.label_w + k as i32 * (PANEL_W + PANEL_GAP)
    }

    fn size(&self) -> (u32, u32) {
        let w = self.panel_x(self.panels.len()) - PANEL_GAP + MARGIN;
        let title_w = (self.title.chars().count() as f64 * TITLE_FONT * 0.6) as i32 + 2 * MARGIN;
        (
            w.max(title_w) as u32,
            (self.plot_bottom() + AXIS_H + MARGIN) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (w, _) = self.size();
        let (y0, y1) = (self.plot_top(), self.plot_bottom());
        root.draw(&Text::new(
            self.title.clone(),
            (MARGIN, 18),
            font(TITLE_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        for i in (1..self.units.len()).step_by(2) {
            let top = y0 + i as i32 * ROW_H;
            root.draw(&Rectangle::new(
                [(MARGIN, top), (w as i32 - MARGIN, top + ROW_H)],
                SHADE.filled(),
            ))?;
        }
        for (i, u) in self.units.iter().enumerate() {
            root.draw(&Text::new(
                printable(u),
                (MARGIN + self.label_w - 8, y0 + i as i32 * ROW_H + ROW_H / 2),
                font(LABEL_FONT).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        for (k, p) in self.panels.iter().enumerate() {
            let x0 = self.panel_x(k);
            let x1 = x0 + PANEL_W;
            let x_of = |v: f64| {
                let t = ((v + p.half) / (2.0 * p.half)).clamp(0.0, 1.0);
                x0 + (t * f64::from(PANEL_W)).round() as i32
            };
            root.draw(&Text::new(
                printable(&p.title),
                ((x0 + x1) / 2, y0 - 14),
                font(LABEL_FONT).pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
            if p.scale == 1.0 {
                for v in [-1.0_f64, 1.0] {
                    if v.abs() < p.half {
                        let x = x_of(v);
                        root.draw(&PathElement::new(
                            vec![(x, y0), (x, y1)],
                            GRID.stroke_width(1),
                        ))?;
                    }
                }
                for v in [-3.0_f64, 3.0] {
                    if v.abs() < p.half {
                        let x = x_of(v);
                        let mut y = y0;
                        while y < y1 {
                            let end = (y + 4).min(y1);
                            root.draw(&PathElement::new(
                                vec![(x, y), (x, end)],
                                GRID.stroke_width(1),
                            ))?;
                            y += 8;
                        }
                    }
                }
            }
            let x = x_of(0.0);
            root.draw(&PathElement::new(vec![(x, y0), (x, y1)], FRAME))?;
            root.draw(&Rectangle::new([(x0, y0), (x1, y1)], FRAME.stroke_width(1)))?;
            for (v, anchor) in [
                (-p.half, HPos::Left),
                (0.0, HPos::Center),
                (p.half, HPos::Right),
            ] {
                root.draw(&Text::new(
                    tick(v),
                    (x_of(v), y1 + 6),
                    font(TICK_FONT).pos(Pos::new(anchor, VPos::Top)),
                ))?;
            }
            for (i, e) in p.effects.iter().enumerate() {
                let y = y0 + i as i32 * ROW_H + ROW_H / 2;
                let colour = match (e.effect.lo, e.effect.hi) {
                    (Some(lo), _) if lo > 0.0 => ABOVE,
                    (_, Some(hi)) if hi < 0.0 => BELOW,
                    _ => SPANS,
                };
                if let (Some(lo), Some(hi)) = (e.effect.lo, e.effect.hi) {
                    let (a, b) = (x_of(p.value(e, lo)), x_of(p.value(e, hi)));
                    let bar = colour.stroke_width(2);
                    root.draw(&PathElement::new(vec![(a, y), (b, y)], bar))?;
                    for x in [a, b] {
                        root.draw(&PathElement::new(vec![(x, y - 4), (x, y + 4)], bar))?;
                    }
                }
                if e.effect.mean.is_finite() {
                    root.draw(&Circle::new(
                        (x_of(p.value(e, e.effect.mean)), y),
                        4,
                        colour.filled(),
                    ))?;
                }
            }
        }
        root.draw(&Text::new(
            "point: mean paired difference; bar: 95% interval (Student's t); \
             grey lines: one cell, dashed: three; clipped at the panel's edges"
                .to_string(),
            (MARGIN, y1 + AXIS_H - 4),
            font(TICK_FONT - 1.0)
                .color(&FRAME)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok(())
    }
}

/// `x` rounded up to 1, 2 or 5 times a power of ten.
fn nice(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&v| v >= x)
        .unwrap_or(10.0 * p)
}

/// A tick label: `+2`, `-0.5`, `0`.
fn tick(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:+}")
    }
}

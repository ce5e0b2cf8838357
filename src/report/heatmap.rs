//! The archive drawn as a heatmap, like Figure 1 of the Tribes MAP-Elites paper: one cell per
//! grid cell, coloured by the elite's win rate (viridis, 0–100 %) with the value written in it;
//! empty cells white with a light grid; axes named by feature and labelled with each cell's
//! range; a colour bar. A 1-D archive is a single row; a 3-D archive is one panel per cell of
//! its third feature. A run with adaptive sampling (rows with the `settled` statistic) marks
//! with a dot the cells whose elite's feature standard errors are above the run's target, and
//! says so in the title.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{Error, Result};
use crate::files::write_atomic;
use crate::qd::FeatureAxis;
use crate::qd::axis::AxisKind;
use crate::qd::axis::num;
use crate::report::archive::{ArchiveRow, SETTLED};
use crate::report::chart::{font, svg_string, write_png};
use crate::report::palette::FRAME;
use crate::report::printable::printable;

/// File name of the PNG heatmap in a run directory.
pub const HEATMAP_PNG: &str = "heatmap.png";
/// File name of the SVG heatmap in a run directory.
pub const HEATMAP_SVG: &str = "heatmap.svg";

const GRID: RGBColor = RGBColor(221, 221, 221);
const MARGIN: i32 = 16;
const TITLE_H: i32 = 40;
const PANEL_TITLE_H: i32 = 26;
const TICK_FONT: f64 = 13.0;
const NAME_FONT: f64 = 16.0;
const BAR_W: i32 = 18;
const BAR_SPACE: i32 = 110;
const PANEL_GAP: i32 = 24;

/// Writes `heatmap.png` and `heatmap.svg` into `dir` (atomically) from the rows of
/// `archive.csv` and the archive's axes.
///
/// # Errors
///
/// If there are not 1–3 axes, a row's coordinates do not fit the axes, or a file cannot be
/// written.
pub fn write_heatmaps(rows: &[ArchiveRow], axes: &[FeatureAxis], dir: &Path) -> Result<()> {
    let plan = Plan::new(rows, axes)?;
    let (w, h) = plan.size();

    write_png(&dir.join(HEATMAP_PNG), (w, h), |root| plan.draw(root))?;
    write_atomic(&dir.join(HEATMAP_SVG), render_svg(rows, axes)?.as_bytes())
}

/// The heatmap as an SVG document.
pub fn render_svg(rows: &[ArchiveRow], axes: &[FeatureAxis]) -> Result<String> {
    let plan = Plan::new(rows, axes)?;
    svg_string(Path::new(HEATMAP_SVG), plan.size(), |root| plan.draw(root))
}

/// Where [`render_svg`] draws each row's cell: the picture's size and, per row of `rows` (in
/// order), the top-left corner and side of its square, in the picture's pixels (for pages
/// that lay clickable cells over the heatmap).
///
/// # Errors
///
/// As [`render_svg`].
pub fn cell_boxes(rows: &[ArchiveRow], axes: &[FeatureAxis]) -> Result<CellBoxes> {
    let plan = Plan::new(rows, axes)?;
    let (pw, ph) = plan.panel_size();
    let boxes = rows
        .iter()
        .map(|r| {
            let (x, y, z) = (
                r.coords[0],
                r.coords.get(1).copied().unwrap_or(0),
                r.coords.get(2).copied().unwrap_or(0),
            );
            let (c, row) = ((z % plan.cols) as i32, (z / plan.cols) as i32);
            let gx = MARGIN + c * (pw + PANEL_GAP) + plan.left;
            let gy = TITLE_H + row * (ph + PANEL_GAP) + plan.panel_title_h();
            [
                gx + x as i32 * plan.cell,
                gy + (plan.ny - 1 - y) as i32 * plan.cell,
                plan.cell,
            ]
        })
        .collect();
    Ok(CellBoxes {
        size: plan.size(),
        boxes,
    })
}

/// See [`cell_boxes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellBoxes {
    /// Width and height of the picture.
    pub size: (u32, u32),
    /// Per row: left, top, side.
    pub boxes: Vec<[i32; 3]>,
}

/// What to draw, and where.
struct Plan<'a> {
    axes: &'a [FeatureAxis],
    /// Win rate per (x, y, panel), `None` where empty.
    values: Vec<Option<f64>>,
    /// Per (x, y, panel): the elite's features are not settled (adaptive sampling).
    unsettled: Vec<bool>,
    /// The rows say whether they are settled (a run with adaptive sampling).
    adaptive: bool,
    nx: usize,
    ny: usize,
    panels: usize,
    cols: usize,
    cell: i32,
    left: i32,
    bottom: i32,
    rotate_x: bool,
}

impl<'a> Plan<'a> {
    fn new(rows: &[ArchiveRow], axes: &'a [FeatureAxis]) -> Result<Self> {
        if axes.is_empty() || axes.len() > 3 {
            return Err(Error::config(
                "heatmap",
                format!("can draw 1 to 3 features, got {}", axes.len()),
            ));
        }
        // A valid axis has at most `MAX_AXIS_CELLS` cells, the most a heatmap draws.
        for a in axes {
            a.validate()?;
        }
        let dims: Vec<usize> = axes.iter().map(FeatureAxis::cells).collect();
        let nx = dims[0];
        let ny = dims.get(1).copied().unwrap_or(1);
        let panels = dims.get(2).copied().unwrap_or(1);
        let mut values = vec![None; nx * ny * panels];
        let mut unsettled = vec![false; values.len()];
        for r in rows {
            if r.coords.len() != axes.len() || r.coords.iter().zip(&dims).any(|(c, d)| c >= d) {
                return Err(Error::config(
                    "heatmap",
                    format!(
                        "row of cell {} has coordinates {:?} outside the grid {dims:?}",
                        r.cell, r.coords
                    ),
                ));
            }
            let (x, y, z) = (
                r.coords[0],
                r.coords.get(1).copied().unwrap_or(0),
                r.coords.get(2).copied().unwrap_or(0),
            );
            values[(z * ny + y) * nx + x] = Some(r.win_rate);
            unsettled[(z * ny + y) * nx + x] = r.extra.get(SETTLED) == Some(&0.0);
        }
        let adaptive = rows.iter().any(|r| r.extra.contains_key(SETTLED));
        let cols = panels.min(4);
        let span = nx.max(ny) as i32;
        let cell = if panels > 1 {
            (360 / span).clamp(14, 40)
        } else {
            (600 / span).clamp(14, 56)
        };
        let widest = |a: &FeatureAxis| {
            tick_labels(a)
                .iter()
                .map(|(_, l)| approx_width(l))
                .max()
                .unwrap_or(0)
        };
        let rotate_x = widest(&axes[0]) + 4 > cell;
        let x_ticks_h = if rotate_x { widest(&axes[0]) } else { 16 };
        let left = if ny > 1 { widest(&axes[1]) + 36 } else { 12 };
        Ok(Plan {
            axes,
            values,
            unsettled,
            adaptive,
            nx,
            ny,
            panels,
            cols,
            cell,
            left,
            bottom: x_ticks_h + 40,
            rotate_x,
        })
    }

    fn panel_title_h(&self) -> i32 {
        if self.panels > 1 { PANEL_TITLE_H } else { 0 }
    }

    fn panel_size(&self) -> (i32, i32) {
        (
            self.left + self.nx as i32 * self.cell,
            self.panel_title_h() + self.ny as i32 * self.cell + self.bottom,
        )
    }

    fn size(&self) -> (u32, u32) {
        let (pw, ph) = self.panel_size();
        let rows = self.panels.div_ceil(self.cols) as i32;
        let cols = self.cols as i32;
        let w = MARGIN + cols * pw + (cols - 1) * PANEL_GAP + BAR_SPACE + MARGIN;
        let h = TITLE_H + rows * ph + (rows - 1) * PANEL_GAP + MARGIN;
        (w.max(360) as u32, h.max(200) as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let filled = self.values.iter().flatten().count();
        let mut title = format!(
            "Win rate of each cell's elite ({filled} elites, {:.0}% of {} cells)",
            100.0 * filled as f64 / self.values.len() as f64,
            self.values.len()
        );
        if self.adaptive {
            let loose = self.unsettled.iter().filter(|&&u| u).count();
            title += &format!("; \u{25cf} {loose} with feature SE above target");
        }
        root.draw(&Text::new(
            title,
            (MARGIN, TITLE_H / 2),
            font(NAME_FONT + 2.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        let (pw, ph) = self.panel_size();
        for p in 0..self.panels {
            let (c, r) = ((p % self.cols) as i32, (p / self.cols) as i32);
            let origin = (
                MARGIN + c * (pw + PANEL_GAP),
                TITLE_H + r * (ph + PANEL_GAP),
            );
            self.draw_panel(root, p, origin)?;
        }
        let cols = self.cols as i32;
        let bar_x = MARGIN + cols * pw + (cols - 1) * PANEL_GAP + 24;
        let grid_top = TITLE_H + self.panel_title_h();
        let bar_h = (self.ny as i32 * self.cell).clamp(120, 320);
        draw_colour_bar(root, (bar_x, grid_top), bar_h)
    }

    fn draw_panel<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        panel: usize,
        (ox, oy): (i32, i32),
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let cell = self.cell;
        let gx = ox + self.left;
        let gy = oy + self.panel_title_h();
        let (gw, gh) = (self.nx as i32 * cell, self.ny as i32 * cell);
        if self.panels > 1 {
            let z = &self.axes[2];
            root.draw(&Text::new(
                format!("{} = {}", printable(&z.name), z.cell_label(panel)),
                (gx + gw / 2, oy + PANEL_TITLE_H / 2),
                font(NAME_FONT).pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        let value_font = (f64::from(cell) * 0.36).min(16.0);
        for y in 0..self.ny {
            for x in 0..self.nx {
                // Row 0 of the feature is at the bottom.
                let x0 = gx + x as i32 * cell;
                let y0 = gy + (self.ny - 1 - y) as i32 * cell;
                let rect = [(x0, y0), (x0 + cell, y0 + cell)];
                match self.values[(panel * self.ny + y) * self.nx + x] {
                    None => {
                        root.draw(&Rectangle::new(rect, WHITE.filled()))?;
                        root.draw(&Rectangle::new(rect, GRID.stroke_width(1)))?;
                    }
                    Some(v) => {
                        let colour = colour_of(v);
                        root.draw(&Rectangle::new(rect, colour.filled()))?;
                        root.draw(&Rectangle::new(rect, WHITE.mix(0.5).stroke_width(1)))?;
                        if self.unsettled[(panel * self.ny + y) * self.nx + x] {
                            let r = (cell / 8).max(2);
                            let centre = (x0 + cell - r - 2, y0 + r + 2);
                            root.draw(&Circle::new(centre, r, text_colour(colour).filled()))?;
                        }
                        if value_font >= 7.0 {
                            root.draw(&Text::new(
                                format!("{:.0}", 100.0 * v),
                                (x0 + cell / 2, y0 + cell / 2),
                                font(value_font)
                                    .color(&text_colour(colour))
                                    .pos(Pos::new(HPos::Center, VPos::Center)),
                            ))?;
                        }
                    }
                }
            }
        }
        root.draw(&Rectangle::new(
            [(gx, gy), (gx + gw, gy + gh)],
            FRAME.stroke_width(1),
        ))?;
        // x axis: tick labels and name.
        let x_axis = &self.axes[0];
        for (pos, label) in tick_labels(x_axis) {
            let tx = gx + (pos * f64::from(cell)) as i32;
            root.draw(&PathElement::new(
                vec![(tx, gy + gh), (tx, gy + gh + 4)],
                FRAME,
            ))?;
            let style = if self.rotate_x {
                font(TICK_FONT)
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Right, VPos::Center))
            } else {
                font(TICK_FONT).pos(Pos::new(HPos::Center, VPos::Top))
            };
            root.draw(&Text::new(label, (tx, gy + gh + 7), style))?;
        }
        let name_y = gy + gh + self.bottom - 16;
        root.draw(&Text::new(
            printable(&x_axis.name).into_owned(),
            (gx + gw / 2, name_y),
            font(NAME_FONT).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        // y axis (2-D and 3-D).
        if let Some(y_axis) = self.axes.get(1) {
            for (pos, label) in tick_labels(y_axis) {
                let ty = gy + gh - (pos * f64::from(cell)) as i32;
                root.draw(&PathElement::new(vec![(gx - 4, ty), (gx, ty)], FRAME))?;
                root.draw(&Text::new(
                    label,
                    (gx - 7, ty),
                    font(TICK_FONT).pos(Pos::new(HPos::Right, VPos::Center)),
                ))?;
            }
            root.draw(&Text::new(
                printable(&y_axis.name).into_owned(),
                (ox + 10, gy + gh / 2),
                font(NAME_FONT)
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        Ok(())
    }
}

/// Tick positions (in cells from the axis start) and labels: cell ranges at cell centres for
/// bucket axes, bin edges at cell boundaries for bin axes.
fn tick_labels(axis: &FeatureAxis) -> Vec<(f64, String)> {
    match axis.kind {
        AxisKind::Bucket { .. } => (0..axis.cells())
            .map(|i| (i as f64 + 0.5, axis.cell_label(i)))
            .collect(),
        AxisKind::Bins { lo, hi, bins } => (0..=bins)
            .map(|i| (i as f64, num(lo + (hi - lo) * i as f64 / bins as f64)))
            .collect(),
    }
}

/// Approximate pixel width of a tick label (DejaVu Sans digits are ~0.64 em wide).
fn approx_width(label: &str) -> i32 {
    (label.chars().count() as f64 * TICK_FONT * 0.64).ceil() as i32
}

/// Viridis (matplotlib's default colour map), sampled at 8 evenly spaced stops.
const VIRIDIS: [(f64, f64, f64); 8] = [
    (68.0, 1.0, 84.0),
    (70.0, 50.0, 127.0),
    (54.0, 92.0, 141.0),
    (39.0, 127.0, 143.0),
    (31.0, 162.0, 136.0),
    (74.0, 194.0, 110.0),
    (160.0, 219.0, 57.0),
    (254.0, 232.0, 37.0),
];

/// The viridis colour of a win rate in [0, 1] (clamped), interpolated linearly between stops.
fn colour_of(win_rate: f64) -> RGBColor {
    let t = win_rate.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (t.floor() as usize).min(VIRIDIS.len() - 2);
    let f = t - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black on light colours, white on dark ones.
fn text_colour(c: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2);
    if luma > 140.0 { BLACK } else { WHITE }
}

fn draw_colour_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    h: i32,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for i in 0..h {
        let v = 1.0 - f64::from(i) / f64::from(h - 1);
        root.draw(&Rectangle::new(
            [(x, y + i), (x + BAR_W, y + i + 1)],
            colour_of(v).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x, y), (x + BAR_W, y + h)],
        FRAME.stroke_width(1),
    ))?;
    for pct in [0, 25, 50, 75, 100] {
        let ty = y + h - (f64::from(pct) / 100.0 * f64::from(h)) as i32;
        root.draw(&PathElement::new(
            vec![(x + BAR_W, ty), (x + BAR_W + 4, ty)],
            FRAME,
        ))?;
        root.draw(&Text::new(
            pct.to_string(),
            (x + BAR_W + 7, ty),
            font(TICK_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    root.draw(&Text::new(
        "win rate (%)",
        (x + BAR_W + 52, y + h / 2),
        font(NAME_FONT)
            .transform(FontTransform::Rotate90)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(())
}

//! A roster drawn as `roster.png` and `roster.svg`: on the left its 1-game confusion matrix as
//! a heatmap (a row per member, numbered, the share of its held-out games named as each
//! member, darker for more, the count written in each cell), on the right each member's
//! accuracy from one game (a bar) and from three (a dot), with chance as a dashed line.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{DrawResult, font, svg_string, write_png};
use super::palette::{BLUE, FRAME, GREEN, SHADE};
use crate::error::Result;
use crate::files::write_atomic;
use crate::report::printable::printable;

const MARGIN: i32 = 16;
const TITLE_H: i32 = 48;
const HEAD_H: i32 = 22;
const BAR_W: i32 = 260;
const GAP: i32 = 36;
const AXIS_H: i32 = 56;
const LABEL_FONT: f64 = 13.0;
const TITLE_FONT: f64 = 18.0;
const DARK: RGBColor = RGBColor(60, 60, 60);

/// What the chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterChart {
    /// The members' names, in pick order.
    pub names: Vec<String>,
    /// `confusion[i][j]`: held-out games of member `i` named as member `j`.
    pub confusion: Vec<Vec<u32>>,
    /// Each member's 1-game accuracy.
    pub member_1: Vec<f64>,
    /// Each member's 3-game accuracy.
    pub member_3: Vec<f64>,
    /// The roster's 1-game accuracy.
    pub accuracy_1: f64,
    /// Its 3-game accuracy.
    pub accuracy_3: f64,
}

/// Writes the chart of `c` as `png` and `svg`, atomically.
///
/// # Errors
///
/// [`crate::Error::Io`] naming a file that cannot be drawn or written.
pub fn write_roster_charts(c: &RosterChart, png: &Path, svg: &Path) -> Result<()> {
    let plan = Plan::new(c);
    write_png(png, plan.size(), |root| plan.draw(root))?;
    write_atomic(svg, render_roster_svg(c)?.as_bytes())
}

/// The chart of `c` as an SVG document.
///
/// # Errors
///
/// [`crate::Error::Io`] if drawing fails.
pub fn render_roster_svg(c: &RosterChart) -> Result<String> {
    let plan = Plan::new(c);
    svg_string(Path::new("roster.svg"), plan.size(), |root| plan.draw(root))
}

struct Plan<'a> {
    c: &'a RosterChart,
    label_w: i32,
    cell: i32,
}

impl<'a> Plan<'a> {
    fn new(c: &'a RosterChart) -> Self {
        let widest = c
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let text = format!("{} {}", i + 1, printable(n));
                (text.chars().count() as f64 * LABEL_FONT * 0.62) as i32
            })
            .max()
            .unwrap_or(0);
        let k = c.names.len().max(1) as i32;
        Plan {
            c,
            label_w: widest.clamp(60, 320) + 12,
            cell: (480 / k).clamp(18, 44),
        }
    }

    fn k(&self) -> i32 {
        self.c.names.len() as i32
    }

    /// Left, right, top and bottom of the matrix.
    fn matrix(&self) -> (i32, i32, i32, i32) {
        let x0 = MARGIN + self.label_w;
        let y0 = TITLE_H + HEAD_H;
        (x0, x0 + self.k() * self.cell, y0, y0 + self.k() * self.cell)
    }

    /// Left and right of the bars.
    fn bars(&self) -> (i32, i32) {
        let (_, x1, ..) = self.matrix();
        (x1 + GAP, x1 + GAP + BAR_W)
    }

    fn size(&self) -> (u32, u32) {
        let (_, b1) = self.bars();
        let (.., y1) = self.matrix();
        ((b1 + 66 + MARGIN) as u32, (y1 + AXIS_H + MARGIN) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let c = self.c;
        let k = self.k();
        let (x0, x1, y0, y1) = self.matrix();
        let (b0, b1) = self.bars();
        root.draw(&Text::new(
            format!(
                "{} personalities named from one held-out game: {:.0} % (three games: {:.0} %; chance {:.0} %)",
                k,
                100.0 * c.accuracy_1,
                100.0 * c.accuracy_3,
                100.0 / f64::from(k.max(1))
            ),
            (MARGIN, TITLE_H / 2),
            font(TITLE_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        root.draw(&Text::new(
            "named as →",
            (x0, TITLE_H + HEAD_H / 2 - 2),
            font(LABEL_FONT - 2.0).pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
        for (i, row) in c.confusion.iter().enumerate() {
            let total = row.iter().sum::<u32>().max(1) as f64;
            let y = y0 + i as i32 * self.cell;
            root.draw(&Text::new(
                format!("{} {}", i + 1, printable(&c.names[i])),
                (x0 - 8, y + self.cell / 2),
                font(LABEL_FONT).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            for (j, &n) in row.iter().enumerate() {
                let x = x0 + j as i32 * self.cell;
                let share = f64::from(n) / total;
                let shade = |full: u8| (255.0 - share * (255.0 - f64::from(full))).round() as u8;
                let colour = RGBColor(shade(BLUE.0), shade(BLUE.1), shade(BLUE.2));
                root.draw(&Rectangle::new(
                    [(x, y), (x + self.cell, y + self.cell)],
                    colour.filled(),
                ))?;
                if self.cell >= 22 && n > 0 {
                    let ink = if share > 0.5 { WHITE } else { BLACK };
                    root.draw(&Text::new(
                        n.to_string(),
                        (x + self.cell / 2, y + self.cell / 2),
                        font(LABEL_FONT - 2.0)
                            .color(&ink)
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    ))?;
                }
            }
        }
        for j in 0..k {
            root.draw(&Text::new(
                (j + 1).to_string(),
                (x0 + j * self.cell + self.cell / 2, y0 - 4),
                font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))?;
        }
        root.draw(&Rectangle::new([(x0, y0), (x1, y1)], FRAME.stroke_width(1)))?;
        // The accuracies.
        let x_of = |a: f64| b0 + (a.clamp(0.0, 1.0) * f64::from(BAR_W)).round() as i32;
        for i in (1..k).step_by(2) {
            let top = y0 + i * self.cell;
            root.draw(&Rectangle::new(
                [(b0, top), (b1, top + self.cell)],
                SHADE.filled(),
            ))?;
        }
        for (i, (a1, a3)) in c.member_1.iter().zip(&c.member_3).enumerate() {
            let y = y0 + i as i32 * self.cell;
            let h = (self.cell / 3).max(4);
            let mid = y + self.cell / 2;
            root.draw(&Rectangle::new(
                [(b0, mid - h / 2), (x_of(*a1), mid + h / 2)],
                BLUE.filled(),
            ))?;
            root.draw(&Circle::new((x_of(*a3), mid), 4, GREEN.filled()))?;
            root.draw(&Text::new(
                format!("{:.0} %", 100.0 * a1),
                (b1 + 12, mid),
                font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        let chance = x_of(1.0 / f64::from(k.max(1)));
        root.draw(&PathElement::new(
            vec![(chance, y0), (chance, y1)],
            DARK.stroke_width(1),
        ))?;
        for t in 0..=4 {
            let a = f64::from(t) / 4.0;
            root.draw(&Text::new(
                format!("{:.0} %", 100.0 * a),
                (x_of(a), y1 + 6),
                font(LABEL_FONT - 2.0).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        root.draw(&Rectangle::new([(b0, y0), (b1, y1)], FRAME.stroke_width(1)))?;
        root.draw(&Text::new(
            "accuracy: bar one game, dot three games, line chance",
            ((b0 + b1) / 2, y1 + AXIS_H - 18),
            font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        root.draw(&Text::new(
            "row: a member's held-out games; column: named as",
            ((x0 + x1) / 2, y1 + 16),
            font(LABEL_FONT - 1.0).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_names_every_member_and_the_accuracy() {
        let c = RosterChart {
            names: vec!["high-a".into(), "low-<b>".into()],
            confusion: vec![vec![9, 1], vec![2, 8]],
            member_1: vec![0.9, 0.8],
            member_3: vec![1.0, 1.0],
            accuracy_1: 0.85,
            accuracy_3: 1.0,
        };
        let svg = render_roster_svg(&c).unwrap();
        assert!(
            svg.contains("1 high-a") && svg.contains("low-&lt;b&gt;"),
            "{svg}"
        );
        assert!(svg.contains("one held-out game: 85 %"));
    }
}

//! A tournament's `summary.csv` drawn as `summary.png` and `summary.svg`: one row per pairing,
//! top to bottom in the file's order, labelled with the pairing's name; a point at its side's
//! win rate (the first agent and its copies: `side_win_rate`, or the first agent's `win_rate`
//! in a file without side columns) with a horizontal bar over the 95 % Wilson interval, green
//! where the whole interval lies above chance (side size / participants, 50 % for two
//! players), red where it lies below, blue where it holds chance; the x axis from 0 to 100 %
//! with a vertical line at chance (a mark on each row where chances differ); the numbers and
//! the games written at the right of each row. Rows are shaded alternately and the
//! picture grows with the pairings, so a sweep of 15 or more settings stays readable; names
//! too long for the label column are shortened with an ellipsis.
//!
//! Text is drawn with the embedded DejaVu Sans, as the heatmaps are ([`super::heatmap`]).

use std::collections::HashMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{DrawResult, font, svg_string, write_png};
use super::csv::{check_unique_columns, record_error};
use super::palette::{BLUE as SPANS, FRAME, GREEN as ABOVE, RED as BELOW, SHADE};
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};
use crate::report::printable::printable;

/// File name of the PNG chart in a tournament's output folder.
pub const SUMMARY_PNG: &str = "summary.png";
/// File name of the SVG chart in a tournament's output folder.
pub const SUMMARY_SVG: &str = "summary.svg";
/// The columns of `summary.csv` the chart needs (any others but [`SIDE_COLUMNS`] are ignored).
pub const CHART_COLUMNS: [&str; 5] = ["pairing", "games", "win_rate", "win_rate_lo", "win_rate_hi"];
/// The columns of `summary.csv` that hold names; every other one holds numbers.
const TEXT_COLUMNS: [&str; 3] = ["pairing", "agent", "opponents"];
/// The side columns the chart reads instead of the first agent's, where the file has them all.
pub const SIDE_COLUMNS: [&str; 5] = [
    "side_win_rate",
    "side_win_rate_lo",
    "side_win_rate_hi",
    "side_size",
    "participants",
];

const MARGIN: i32 = 16;
const TITLE_H: i32 = 44;
const ROW_H: i32 = 28;
const PLOT_W: i32 = 480;
const AXIS_H: i32 = 58;
const NOTE_H: i32 = 22;
const VALUE_W: i32 = 210;
const MIN_LABEL_W: i32 = 60;
const MAX_LABEL_W: i32 = 360;
const LABEL_FONT: f64 = 14.0;
const TICK_FONT: f64 = 13.0;
const TITLE_FONT: f64 = 18.0;

const GRID: RGBColor = RGBColor(225, 225, 225);
const EVEN: RGBColor = RGBColor(60, 60, 60);

/// One pairing of `summary.csv`, as the chart needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct WinRateRow {
    /// The pairing's name (the row's label).
    pub pairing: String,
    /// Games played.
    pub games: u64,
    /// The side's win rate (the first agent's where it plays alone), in [0, 1].
    pub win_rate: f64,
    /// Lower end of its 95 % interval.
    pub lo: f64,
    /// Upper end of its 95 % interval.
    pub hi: f64,
    /// Copies of the first agent on the side (1: it plays alone).
    pub side_size: u64,
    /// Participants in each game.
    pub participants: u64,
}

impl WinRateRow {
    /// The win rate of chance: side size / participants.
    pub fn chance(&self) -> f64 {
        self.side_size as f64 / self.participants as f64
    }
}

/// Reads the [`CHART_COLUMNS`] of a tournament's `summary.csv` (at most [`DATA_LIMIT`]
/// bytes), and the [`SIDE_COLUMNS`] where it has them all (a file from before them is read as
/// two-player sides of one), one [`WinRateRow`] per pairing in the file's order.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read; [`Error::Data`] naming it, and the line
/// for a bad row, if it lacks one of the columns or names one twice, holds no pairing, has a
/// row with too few or too many fields (a truncated file), an empty pairing name, a number
/// that does not parse or is not finite (in any column but the names), rates outside [0, 1]
/// (the first agent's and the side's), an interval that does not hold its win rate, more
/// wins and draws than games, or a side larger than its table.
pub fn read_summary_csv(path: &Path) -> Result<Vec<WinRateRow>> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let mut r = ::csv::Reader::from_reader(&bytes[..]);
    let header = r.headers().map_err(|e| record_error(path, 1, &e))?.clone();
    check_unique_columns(path, header.iter())?;
    let at: HashMap<&str, usize> = header.iter().enumerate().map(|(i, c)| (c, i)).collect();
    let cols = CHART_COLUMNS
        .iter()
        .map(|c| {
            at.get(c).copied().ok_or_else(|| {
                Error::data(
                    path,
                    1,
                    format!("no `{c}` column (not a tournament's summary.csv?)"),
                )
            })
        })
        .collect::<Result<Vec<usize>>>()?;
    let side: Option<Vec<usize>> = SIDE_COLUMNS.iter().map(|c| at.get(c).copied()).collect();
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        let line = rec.position().map_or(line, |p| p.line() as usize);
        let bad = |reason: String| Error::data(path, line, reason);
        let cell = |(name, i): (&'static str, usize)| (name, rec.get(i).unwrap_or("").trim());
        let column = |k: usize| cell((CHART_COLUMNS[k], cols[k]));
        let rate = |(name, text): (&str, &str)| -> Result<f64> {
            match text.parse::<f64>() {
                Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
                _ => Err(bad(format!(
                    "`{name}` is `{text}`, not a rate between 0 and 1"
                ))),
            }
        };
        let count = |(name, text): (&str, &str)| -> Result<u64> {
            text.parse::<u64>()
                .map_err(|_| bad(format!("`{name}` is `{text}`, not a whole number")))
        };
        let pairing = column(0).1.to_string();
        if pairing.is_empty() {
            return Err(bad("the `pairing` name is empty".into()));
        }
        // Every number the writer wrote, read or not by the chart, is a finite one.
        for (name, text) in header.iter().zip(rec.iter()) {
            let text = text.trim();
            if !TEXT_COLUMNS.contains(&name)
                && !text.is_empty()
                && !text.parse::<f64>().is_ok_and(f64::is_finite)
            {
                return Err(bad(format!("`{name}` is `{text}`, not a finite number")));
            }
        }
        let games = count(column(1))?;
        let named = |name: &'static str| at.get(name).map(|&i| cell((name, i)));
        let (wins, draws) = (named("wins"), named("draws"));
        if let (Some(wins), Some(draws)) = (wins, draws)
            && count(wins)? + count(draws)? > games
        {
            return Err(bad(format!(
                "{} wins and {} draws of {games} games",
                wins.1, draws.1
            )));
        }
        // The Wilson interval holds its proportion; allow for rounding in the file.
        let interval = |(win_rate, lo, hi): (f64, f64, f64)| {
            if lo > win_rate + 1e-9 || win_rate > hi + 1e-9 {
                return Err(bad(format!(
                    "the interval [{lo}, {hi}] does not hold the win rate {win_rate}"
                )));
            }
            Ok((win_rate, lo, hi))
        };
        let agent = interval((rate(column(2))?, rate(column(3))?, rate(column(4))?))?;
        let ((win_rate, lo, hi), side_size, participants) = match &side {
            Some(side) => {
                let column = |k: usize| cell((SIDE_COLUMNS[k], side[k]));
                let (size, participants) = (count(column(3))?, count(column(4))?);
                if size == 0 || size > participants {
                    return Err(bad(format!(
                        "a side of {size} of {participants} participants"
                    )));
                }
                let rates = (rate(column(0))?, rate(column(1))?, rate(column(2))?);
                (interval(rates)?, size, participants)
            }
            None => (agent, 1, 2),
        };
        rows.push(WinRateRow {
            pairing,
            games,
            win_rate,
            lo,
            hi,
            side_size,
            participants,
        });
    }
    if rows.is_empty() {
        return Err(Error::data(
            path,
            0,
            "holds no pairing (has no game finished yet?)",
        ));
    }
    Ok(rows)
}

/// Writes `summary.png` and `summary.svg` of `rows` into `dir`, each atomically.
///
/// # Errors
///
/// [`crate::Error::Io`] naming a file that cannot be drawn or written.
pub fn write_win_rate_charts(rows: &[WinRateRow], dir: &Path) -> Result<()> {
    let plan = Plan::new(rows);
    write_png(&dir.join(SUMMARY_PNG), plan.size(), |root| plan.draw(root))?;
    write_atomic(&dir.join(SUMMARY_SVG), render_svg(rows)?.as_bytes())
}

/// The chart of `rows` as an SVG document.
///
/// # Errors
///
/// [`crate::Error::Io`] if drawing fails.
pub fn render_svg(rows: &[WinRateRow]) -> Result<String> {
    let plan = Plan::new(rows);
    svg_string(Path::new(SUMMARY_SVG), plan.size(), |root| plan.draw(root))
}

/// Approximate pixel width of `text` at `size` (DejaVu Sans averages ~0.6 em a character).
fn approx_width(text: &str, size: f64) -> i32 {
    (text.chars().count() as f64 * size * 0.62).ceil() as i32
}

/// `label` cut to fit `width` pixels, ending in `…` if cut.
fn fit(label: &str, width: i32) -> String {
    if approx_width(label, LABEL_FONT) <= width {
        return label.to_string();
    }
    let keep = (f64::from(width) / (LABEL_FONT * 0.62)).floor() as usize;
    let mut s: String = label.chars().take(keep.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// The colour of a row: whether its interval lies above, below or across chance.
fn colour_of(r: &WinRateRow) -> RGBColor {
    if r.lo > r.chance() {
        ABOVE
    } else if r.hi < r.chance() {
        BELOW
    } else {
        SPANS
    }
}

/// What to draw, and where.
struct Plan<'a> {
    rows: &'a [WinRateRow],
    /// Width of the label column.
    label_w: i32,
}

impl<'a> Plan<'a> {
    fn new(rows: &'a [WinRateRow]) -> Self {
        let widest = rows
            .iter()
            .map(|r| approx_width(&printable(&r.pairing), LABEL_FONT))
            .max()
            .unwrap_or(0);
        Plan {
            rows,
            label_w: widest.clamp(MIN_LABEL_W, MAX_LABEL_W) + 12,
        }
    }

    /// Left and right x of the plotting area, and its top and bottom y.
    fn area(&self) -> (i32, i32, i32, i32) {
        let x0 = MARGIN + self.label_w;
        let y0 = TITLE_H;
        (
            x0,
            x0 + PLOT_W,
            y0,
            y0 + self.rows.len().max(1) as i32 * ROW_H,
        )
    }

    fn size(&self) -> (u32, u32) {
        let (_, x1, _, y1) = self.area();
        (
            (x1 + VALUE_W + MARGIN) as u32,
            (y1 + AXIS_H + NOTE_H + MARGIN) as u32,
        )
    }

    /// The chance every row shares, if they all do.
    fn common_chance(&self) -> Option<f64> {
        let c = self.rows.first()?.chance();
        self.rows.iter().all(|r| r.chance() == c).then_some(c)
    }

    /// True if some pairing's side has more than one agent.
    fn sides(&self) -> bool {
        self.rows.iter().any(|r| r.side_size > 1)
    }

    /// The x pixel of a win rate in [0, 1].
    fn x_of(&self, rate: f64) -> i32 {
        let (x0, ..) = self.area();
        x0 + (rate.clamp(0.0, 1.0) * f64::from(PLOT_W)).round() as i32
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (w, _) = self.size();
        let (x0, x1, y0, y1) = self.area();
        let who = if self.sides() {
            "side (first agent and its copies)"
        } else {
            "first agent"
        };
        root.draw(&Text::new(
            format!(
                "Win rate of each pairing's {who}, with 95% intervals ({} pairing{})",
                self.rows.len(),
                if self.rows.len() == 1 { "" } else { "s" }
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
        let common = self.common_chance();
        for pct in (0..=100).step_by(10) {
            let x = self.x_of(f64::from(pct) / 100.0);
            if pct % 100 != 0 && Some(f64::from(pct) / 100.0) != common {
                root.draw(&PathElement::new(vec![(x, y0), (x, y1)], GRID))?;
            }
            root.draw(&PathElement::new(vec![(x, y1), (x, y1 + 4)], FRAME))?;
            root.draw(&Text::new(
                pct.to_string(),
                (x, y1 + 7),
                font(TICK_FONT).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        root.draw(&Rectangle::new([(x0, y0), (x1, y1)], FRAME.stroke_width(1)))?;
        if let Some(c) = common {
            let x = self.x_of(c);
            root.draw(&PathElement::new(
                vec![(x, y0), (x, y1)],
                EVEN.stroke_width(2),
            ))?;
        }
        for (i, r) in self.rows.iter().enumerate() {
            let y = y0 + i as i32 * ROW_H + ROW_H / 2;
            if common.is_none() {
                let x = self.x_of(r.chance());
                let h = ROW_H / 2 - 3;
                root.draw(&PathElement::new(
                    vec![(x, y - h), (x, y + h)],
                    EVEN.stroke_width(2),
                ))?;
            }
            root.draw(&Text::new(
                fit(&printable(&r.pairing), self.label_w - 12),
                (x0 - 8, y),
                font(LABEL_FONT).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            let colour = colour_of(r);
            let (lo, hi) = (self.x_of(r.lo), self.x_of(r.hi));
            let bar = colour.stroke_width(2);
            root.draw(&PathElement::new(vec![(lo, y), (hi, y)], bar))?;
            for x in [lo, hi] {
                root.draw(&PathElement::new(vec![(x, y - 5), (x, y + 5)], bar))?;
            }
            root.draw(&Circle::new((self.x_of(r.win_rate), y), 5, colour.filled()))?;
            root.draw(&Text::new(
                format!(
                    "{:.1}%  [{:.1}, {:.1}]  n={}",
                    100.0 * r.win_rate,
                    100.0 * r.lo,
                    100.0 * r.hi,
                    r.games
                ),
                (x1 + 10, y),
                font(TICK_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        root.draw(&Text::new(
            format!(
                "win rate of the {} (%)",
                if self.sides() { "side" } else { "first agent" }
            ),
            ((x0 + x1) / 2, y1 + AXIS_H - 16),
            font(LABEL_FONT).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        let chance = common.map_or("chance (the mark on each row)".to_string(), |c| {
            format!("chance ({:.0}%, the dark line)", 100.0 * c)
        });
        root.draw(&Text::new(
            format!(
                "point: win rate; bar: 95% Wilson interval (draws count as non-wins); green: \
                 above {chance}, red: below, blue: holds it"
            ),
            (MARGIN, y1 + AXIS_H + NOTE_H / 2),
            font(TICK_FONT - 1.0)
                .color(&FRAME)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_are_cut_with_an_ellipsis() {
        assert_eq!(fit("b=1.6", 100), "b=1.6");
        let cut = fit(&"x".repeat(80), 100);
        assert!(
            cut.ends_with('…') && approx_width(&cut, LABEL_FONT) <= 100,
            "{cut}"
        );
    }

    #[test]
    fn rows_are_coloured_by_where_their_interval_lies() {
        let row = |lo, hi, participants| WinRateRow {
            pairing: "p".into(),
            games: 10,
            win_rate: (lo + hi) / 2.0,
            lo,
            hi,
            side_size: 1,
            participants,
        };
        assert_eq!(colour_of(&row(0.55, 0.9, 2)), ABOVE);
        assert_eq!(colour_of(&row(0.1, 0.45, 2)), BELOW);
        assert_eq!(colour_of(&row(0.3, 0.7, 2)), SPANS);
        // Against a chance of 1/4 (one of four players), 30-45 % is above it.
        assert_eq!(colour_of(&row(0.3, 0.45, 4)), ABOVE);
        assert_eq!(colour_of(&row(0.3, 0.45, 2)), BELOW);
    }

    /// Writes `text` as a summary.csv in a fresh folder and reads it.
    fn read(name: &str, text: &str) -> Result<Vec<WinRateRow>> {
        let dir =
            std::env::temp_dir().join(format!("playstyles-chart-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("summary.csv");
        std::fs::write(&path, text).unwrap();
        let rows = read_summary_csv(&path);
        std::fs::remove_dir_all(&dir).unwrap();
        rows
    }

    #[test]
    fn sides_are_drawn_where_the_file_has_them() {
        let head = "pairing,games,win_rate,win_rate_lo,win_rate_hi";
        let side =
            ",side_size,participants,side_wins,side_win_rate,side_win_rate_lo,side_win_rate_hi";
        let rows = read(
            "side",
            &format!("{head}{side}\nt-vs-s,100,0.48,0.38,0.58,2,4,77,0.77,0.68,0.84\n"),
        )
        .unwrap();
        assert_eq!(
            (rows[0].win_rate, rows[0].lo, rows[0].hi),
            (0.77, 0.68, 0.84)
        );
        assert_eq!((rows[0].chance(), rows[0].side_size), (0.5, 2));
        // A file from before the side columns: the first agent, chance one half.
        let rows = read("old", &format!("{head}\na-vs-b,20,0.6,0.39,0.78\n")).unwrap();
        assert_eq!(
            (rows[0].win_rate, rows[0].chance(), rows[0].side_size),
            (0.6, 0.5, 1)
        );
        let err = read(
            "bad",
            &format!("{head}{side}\nt-vs-s,100,0.48,0.38,0.58,5,4,77,0.77,0.68,0.84\n"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("line 2") && err.contains("a side of 5 of 4"),
            "{err}"
        );
    }
}

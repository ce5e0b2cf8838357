//! Feature axes: how a descriptor value picks a cell along one dimension of the archive.
//!
//! Two rules ([`AxisKind`]):
//!
//! - [`AxisKind::Bucket`], the reference MAP-Elites rule (tribes-rules §16). The value is
//!   rounded half up (`floor(v + 0.5)`, Java's `Math.round`); a rounded value `≤ min` goes to
//!   cell 0, one `≥ max` to the last cell, and any other to `floor((v − (min+1)) / step) + 1`.
//!   The axis has `floor(((max−1) − (min+1)) / step) + 1 + 2` cells. Out-of-range values
//!   therefore clamp to the edge cells. Example: ATTACKS with min 0, max 20, step 2 has 12
//!   cells; 0 → 0, 1 → 1, 2 → 1, 3 → 2, 19 → 10, 20 and above → 11.
//! - [`AxisKind::Bins`], pyribs' `GridArchive` rule: `bins` equal-width bins over `[lo, hi]`,
//!   cell `floor((v − lo) / (hi − lo) · bins + ε)` with `ε = 1e-9` against float error
//!   (so a value a hair under an edge lands above it), clamped to `0..bins`.
//!
//! Non-finite values are rejected before they reach an axis (see
//! [`Evaluation::validate`](super::evaluation::Evaluation::validate)).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Epsilon added by [`AxisKind::Bins`] before flooring, against float error (pyribs does the same).
pub const BIN_EPSILON: f64 = 1e-9;

/// Most cells one axis may have (the most a heatmap draws; see [`crate::limits`]).
pub use crate::limits::MAX_AXIS_CELLS;

/// One dimension of the archive: a named feature and its cell rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureAxis {
    /// The feature's name (a CSV column stem: `cell_<name>`, `<name>_mean`, `<name>_sd`).
    pub name: String,
    /// How values map to cells.
    pub kind: AxisKind,
}

/// How a feature value maps to a cell index.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum AxisKind {
    /// The reference rule: round half up, edge cells for `≤ min` and `≥ max`, `step`-wide
    /// buckets between (see the module docs). `min` and `max` are integers, `max ≥ min + 2`
    /// (so there is at least one inner bucket).
    Bucket {
        /// Values rounding to at most this go to cell 0.
        min: f64,
        /// Values rounding to at least this go to the last cell.
        max: f64,
        /// Width of the inner buckets (> 0).
        step: f64,
    },
    /// pyribs-style equal-width bins over `[lo, hi]`, out-of-range values clamped to the edges.
    Bins {
        /// Lower edge of the first bin.
        lo: f64,
        /// Upper edge of the last bin (> `lo`).
        hi: f64,
        /// Number of bins (≥ 1).
        bins: usize,
    },
}

impl FeatureAxis {
    /// A validated reference-rule axis.
    pub fn bucket(name: impl Into<String>, min: f64, max: f64, step: f64) -> Result<Self> {
        let axis = FeatureAxis {
            name: name.into(),
            kind: AxisKind::Bucket { min, max, step },
        };
        axis.validate()?;
        Ok(axis)
    }

    /// A validated equal-width-bins axis.
    pub fn bins(name: impl Into<String>, lo: f64, hi: f64, bins: usize) -> Result<Self> {
        let axis = FeatureAxis {
            name: name.into(),
            kind: AxisKind::Bins { lo, hi, bins },
        };
        axis.validate()?;
        Ok(axis)
    }

    /// Checks the invariants documented on [`AxisKind`]; the error names the feature.
    pub fn validate(&self) -> Result<()> {
        let field = format!("features.{}", self.name);
        if self.name.trim().is_empty() {
            return Err(Error::config("features", "a feature has an empty name"));
        }
        match self.kind {
            AxisKind::Bucket { min, max, step } => {
                if !(min.is_finite() && max.is_finite() && step.is_finite() && step > 0.0) {
                    return Err(Error::config(
                        field,
                        "min, max and step must be finite, step > 0",
                    ));
                }
                if min.fract() != 0.0 || max.fract() != 0.0 || max < min + 2.0 {
                    return Err(Error::config(
                        field,
                        format!(
                            "min and max must be integers with max ≥ min + 2, got {min}, {max}"
                        ),
                    ));
                }
            }
            AxisKind::Bins { lo, hi, bins } => {
                if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                    return Err(Error::config(
                        field,
                        format!("needs finite lo < hi, got [{lo}, {hi}]"),
                    ));
                }
                if bins == 0 {
                    return Err(Error::config(field, "needs at least one bin"));
                }
            }
        }
        let cells = self.cells_unchecked();
        if !(1.0..=MAX_AXIS_CELLS as f64).contains(&cells) {
            return Err(Error::config(
                field,
                format!(
                    "has {cells} cells, at most {MAX_AXIS_CELLS} allowed (the most a heatmap draws)"
                ),
            ));
        }
        Ok(())
    }

    fn cells_unchecked(&self) -> f64 {
        match self.kind {
            AxisKind::Bucket { min, max, step } => {
                (((max - 1.0) - (min + 1.0)) / step).floor() + 3.0
            }
            AxisKind::Bins { bins, .. } => bins as f64,
        }
    }

    /// Number of cells along this axis.
    pub fn cells(&self) -> usize {
        self.cells_unchecked() as usize
    }

    /// The width of an inner cell: `step` for [`AxisKind::Bucket`], `(hi − lo) / bins` for
    /// [`AxisKind::Bins`] (what adaptive sampling measures a standard error against).
    pub fn cell_width(&self) -> f64 {
        match self.kind {
            AxisKind::Bucket { step, .. } => step,
            AxisKind::Bins { lo, hi, bins } => (hi - lo) / bins as f64,
        }
    }

    /// The cell of a (finite) value; out-of-range values clamp to the edge cells.
    pub fn index_of(&self, value: f64) -> usize {
        let last = self.cells() - 1;
        match self.kind {
            AxisKind::Bucket { min, max, step } => {
                let v = (value + 0.5).floor();
                if v <= min {
                    0
                } else if v >= max {
                    last
                } else {
                    // min+1 ≤ v ≤ max−1, so this is in 1..=last−1.
                    (((v - (min + 1.0)) / step).floor() as usize + 1).min(last)
                }
            }
            AxisKind::Bins { lo, hi, bins } => {
                let x = ((value - lo) / (hi - lo) * bins as f64 + BIN_EPSILON).floor();
                // `as` saturates: negatives (and NaN) give 0.
                (x as usize).min(last)
            }
        }
    }

    /// The values of cell `i` as a half-open interval `[lower, upper)` of the *rounded* value
    /// for [`AxisKind::Bucket`] (edge cells are unbounded: `-inf`, `+inf`), or of the value for
    /// [`AxisKind::Bins`] (the bin edges; the edge bins also take clamped values). Private:
    /// a caller comparing feature values wants [`FeatureAxis::value_bounds`] (the style check
    /// once compared intervals with these and was half a unit off).
    fn rounded_bounds(&self, i: usize) -> (f64, f64) {
        let last = self.cells() - 1;
        match self.kind {
            AxisKind::Bucket { min, max, step } => {
                if i == 0 {
                    (f64::NEG_INFINITY, min + 1.0)
                } else if i >= last {
                    (max, f64::INFINITY)
                } else {
                    let lo = min + 1.0 + (i - 1) as f64 * step;
                    (lo, (lo + step).min(max))
                }
            }
            AxisKind::Bins { lo, hi, bins } => {
                let w = (hi - lo) / bins as f64;
                (lo + i as f64 * w, lo + (i + 1) as f64 * w)
            }
        }
    }

    /// The feature values that [`FeatureAxis::index_of`] puts in cell `i`, as a half-open
    /// interval `[lower, upper)` of the value itself (edge cells unbounded outwards): for
    /// [`AxisKind::Bucket`] the rounded-value bounds of `rounded_bounds` moved
    /// half a unit down (a value rounds to `v` from `v − 0.5` on).
    pub fn value_bounds(&self, i: usize) -> (f64, f64) {
        let last = self.cells() - 1;
        let (lo, hi) = self.rounded_bounds(i);
        match self.kind {
            AxisKind::Bucket { .. } => (lo.ceil() - 0.5, hi.ceil() - 0.5),
            AxisKind::Bins { .. } => (
                if i == 0 { f64::NEG_INFINITY } else { lo },
                if i >= last { f64::INFINITY } else { hi },
            ),
        }
    }

    /// A short label for cell `i`, for plots: `≤0`, `1–2`, `≥20` for buckets (the integers
    /// that round into the cell), `0.2–0.4` for bins.
    pub fn cell_label(&self, i: usize) -> String {
        let (lo, hi) = self.rounded_bounds(i);
        match self.kind {
            AxisKind::Bucket { min, .. } if lo == f64::NEG_INFINITY => format!("≤{}", num(min)),
            AxisKind::Bucket { .. } if hi == f64::INFINITY => format!("≥{}", num(lo)),
            AxisKind::Bucket { .. } => {
                // Integers v with lo ≤ v < hi.
                let first = lo.ceil();
                let end = hi.ceil() - 1.0;
                if end <= first {
                    num(first)
                } else {
                    format!("{}–{}", num(first), num(end))
                }
            }
            AxisKind::Bins { .. } => format!("{}–{}", num(lo), num(hi)),
        }
    }
}

/// A compact number for labels: integers without a decimal point, others with up to 3
/// significant decimals.
pub fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_feature_tables_have_the_right_cell_counts() {
        // (min, max, step, cells) from tribes-rules §16.
        for (min, max, step, cells) in [
            (0.0, 100.0, 10.0, 12),
            (4000.0, 10000.0, 1000.0, 8),
            (0.0, 20.0, 2.0, 12),
            (0.0, 10.0, 1.0, 11),
            (0.0, 30.0, 3.0, 12),
            (0.0, 50.0, 5.0, 12),
        ] {
            assert_eq!(
                FeatureAxis::bucket("f", min, max, step).unwrap().cells(),
                cells
            );
        }
    }

    #[test]
    fn bucket_rule_rounds_half_up() {
        let a = FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap();
        assert_eq!(a.index_of(0.49), 0);
        assert_eq!(a.index_of(0.5), 1);
        assert_eq!(a.index_of(2.49), 1);
        assert_eq!(a.index_of(2.5), 2);
        assert_eq!(a.index_of(18.5), 10);
        assert_eq!(a.index_of(19.49), 10);
        assert_eq!(a.index_of(19.5), 11);
    }

    #[test]
    fn bucket_bounds_and_labels_agree_with_index_of() {
        let a = FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap();
        for v in -3..25 {
            let i = a.index_of(v as f64);
            let (lo, hi) = a.rounded_bounds(i);
            assert!(
                lo <= v as f64 && (v as f64) < hi,
                "{v} in cell {i} [{lo}, {hi})"
            );
        }
        assert_eq!(a.cell_label(0), "≤0");
        assert_eq!(a.cell_label(1), "1–2");
        assert_eq!(a.cell_label(10), "19");
        assert_eq!(a.cell_label(11), "≥20");
    }

    #[test]
    fn bins_clamp_and_resist_float_error() {
        let a = FeatureAxis::bins("x", 0.0, 1.0, 10).unwrap();
        assert_eq!(a.index_of(-5.0), 0);
        assert_eq!(a.index_of(0.0), 0);
        assert_eq!(a.index_of(0.3), 3);
        assert_eq!(a.index_of(0.999), 9);
        assert_eq!(a.index_of(1.0), 9);
        assert_eq!(a.index_of(7.0), 9);
        assert_eq!(a.cell_label(3), "0.3–0.4");
        // (-0.9 + 1) / 2 * 20 = 0.9999999999999998 without ε.
        let b = FeatureAxis::bins("y", -1.0, 1.0, 20).unwrap();
        assert_eq!(b.index_of(-0.9), 1);
        assert_eq!(b.index_of(-0.8), 2);
    }

    #[test]
    fn value_bounds_hold_exactly_the_values_index_of_puts_in_the_cell() {
        for a in [
            FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap(),
            FeatureAxis::bucket("econ", 20.0, 50.0, 3.0).unwrap(),
            FeatureAxis::bins("x", 0.0, 1.0, 10).unwrap(),
        ] {
            for k in -400..=6000 {
                let x = f64::from(k) * 0.0125 - 1.0;
                let i = a.index_of(x);
                let (lo, hi) = a.value_bounds(i);
                assert!(lo <= x && x < hi, "{x} in cell {i} [{lo}, {hi})");
            }
        }
        let a = FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap();
        assert_eq!(a.value_bounds(0), (f64::NEG_INFINITY, 0.5));
        assert_eq!(a.value_bounds(1), (0.5, 2.5));
        assert_eq!(a.value_bounds(11), (19.5, f64::INFINITY));
    }

    #[test]
    fn bad_axes_are_errors_naming_the_feature() {
        let e = FeatureAxis::bucket("attacks", 0.0, 20.0, 0.0).unwrap_err();
        assert!(e.to_string().contains("features.attacks"), "{e}");
        assert!(FeatureAxis::bucket("a", 0.5, 20.0, 1.0).is_err());
        assert!(FeatureAxis::bucket("a", 5.0, 6.0, 1.0).is_err());
        assert!(FeatureAxis::bins("a", 1.0, 0.0, 3).is_err());
        assert!(FeatureAxis::bins("a", 0.0, 1.0, 0).is_err());
        assert!(FeatureAxis::bins("a", 0.0, 1.0, MAX_AXIS_CELLS + 1).is_err());
        assert!(FeatureAxis::bins("", 0.0, 1.0, 2).is_err());
    }
}

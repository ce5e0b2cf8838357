//! How much re-played elites truly differ in one feature, beside the noise of their games:
//! what `reevaluate` (on fresh games of the training levels) and `validate` (on other levels)
//! both report per feature.

use crate::qd::{Evaluation, FeatureAxis};
use crate::stats::{Spread, true_spread};

/// How much the elites truly differ in one feature: the [`Spread`] of their means and standard
/// errors, and the run's cell width on its axis.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureSpread {
    /// The feature.
    pub name: String,
    /// The width of an inner cell of its axis.
    pub cell_width: f64,
    /// The spread of the elites' means (`None` for fewer than two finite ones).
    pub spread: Option<Spread>,
}

impl FeatureSpread {
    /// The spread of feature `k` (on `axis`) over the elites' `evaluations`, each mean with its
    /// [`Evaluation::standard_error`].
    pub fn of<'a>(
        axis: &FeatureAxis,
        k: usize,
        evaluations: impl IntoIterator<Item = &'a Evaluation>,
    ) -> FeatureSpread {
        FeatureSpread {
            name: axis.name.clone(),
            cell_width: axis.cell_width(),
            spread: true_spread(evaluations.into_iter().filter_map(|ev| {
                let mean = *ev.descriptor_means.get(k)?;
                Some((mean, ev.standard_error(k)))
            })),
        }
    }

    /// The true spread in cell widths.
    pub fn true_sd_cells(&self) -> Option<f64> {
        self.spread.map(|s| s.true_sd / self.cell_width)
    }

    /// The true spread, the same in cell widths, and the reliability, as table cells (empty
    /// where unknown).
    pub fn columns(&self) -> [String; 3] {
        let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        [
            opt(self.spread.map(|s| s.true_sd)),
            opt(self.true_sd_cells()),
            opt(self.spread.and_then(|s| s.reliability)),
        ]
    }
}

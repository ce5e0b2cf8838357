//! The grid archive: one elite per cell of a 1–3-dimensional feature grid (pyribs'
//! `GridArchive`, with the reference MAP-Elites' cell rule available per axis).
//!
//! Cells are numbered row-major over the axes (the last axis varies fastest), as numpy's
//! `ravel_multi_index`: with cell counts `(n0, n1, n2)`, grid coordinates `(c0, c1, c2)` are
//! cell `(c0·n1 + c1)·n2 + c2`. [`GridArchive::grid_to_index`] and
//! [`GridArchive::index_to_grid`] convert both ways.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::axis::{FeatureAxis, MAX_AXIS_CELLS};
use super::evaluation::Evaluation;
use super::genome::Genome;
use super::replacement::Replacement;
use crate::error::{Error, Result};

/// Most features an archive may have.
pub const MAX_FEATURES: usize = 3;

/// Most cells an archive may have.
pub const MAX_CELLS: usize = 10_000_000;

// Every grid of valid axes fits: an axis has at most `MAX_AXIS_CELLS` cells.
const _: () = assert!(MAX_AXIS_CELLS.pow(MAX_FEATURES as u32) <= MAX_CELLS);

/// The best genome found for one cell, with the evaluation that placed it there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elite {
    /// Index of the evaluation that created it: its position among all candidates ever offered
    /// to the archive (with [`MapElites`](super::engine::MapElites), the global evaluation index).
    pub index: u64,
    /// The genome.
    pub genome: Genome,
    /// Its evaluation: fitness (win rate), tie-break (mean score), games, wins, draws,
    /// descriptor means and spreads, extra statistics. With adaptive sampling, its record as
    /// re-played: every game it has played.
    pub evaluation: Evaluation,
    /// Repetitions (per level) it has played, with adaptive sampling
    /// ([`crate::qd::Adaptive`]); 0 otherwise, and then left out of the JSON.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repetitions: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What happened to one candidate offered to the archive. Ordered
/// `NotAdded < ImproveExisting < New`, as pyribs' `AddStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddStatus {
    /// It did not beat the cell's elite (or lost to a better candidate of its batch).
    NotAdded,
    /// It beat the elite of an occupied cell.
    ImproveExisting,
    /// Its cell was empty.
    New,
}

/// Summary numbers of an archive (pyribs' `ArchiveStats`, with fitness for objective).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchiveStats {
    /// Occupied cells.
    pub num_elites: usize,
    /// Occupied cells / all cells.
    pub coverage: f64,
    /// Σ fitness over the elites (win rates are ≥ 0, so no offset is needed).
    pub qd_score: f64,
    /// `qd_score` / all cells.
    pub norm_qd_score: f64,
    /// Highest elite fitness; `None` for an empty archive.
    pub max_fitness: Option<f64>,
    /// Mean elite fitness; `None` for an empty archive.
    pub mean_fitness: Option<f64>,
}

impl ArchiveStats {
    /// The numbers of an archive of `cells` cells whose elites have fitnesses `fits`: the QD
    /// score is their sum.
    pub fn of(fits: &[f64], cells: usize) -> Self {
        let qd_score: f64 = fits.iter().sum();
        let (n, cells) = (fits.len(), cells as f64);
        ArchiveStats {
            num_elites: n,
            coverage: n as f64 / cells,
            qd_score,
            norm_qd_score: qd_score / cells,
            max_fitness: fits.iter().copied().reduce(f64::max),
            mean_fitness: (n > 0).then(|| qd_score / n as f64),
        }
    }
}

/// A grid of cells over 1–3 feature axes, each holding at most one [`Elite`].
///
/// Serialised (for checkpoints) as its axes, replacement rule, `offered` counter and elite
/// list; deserialising re-derives every elite's cell and checks the lot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ArchiveData", into = "ArchiveData")]
pub struct GridArchive {
    axes: Vec<FeatureAxis>,
    replacement: Replacement,
    dims: Vec<usize>,
    cells: Vec<Option<Elite>>,
    offered: u64,
}

impl GridArchive {
    /// An empty archive over `axes` (1–3, validated) with a replacement rule.
    pub fn new(axes: Vec<FeatureAxis>, replacement: Replacement) -> Result<Self> {
        if axes.is_empty() || axes.len() > MAX_FEATURES {
            return Err(Error::config(
                "features",
                format!("needs 1 to {MAX_FEATURES} features, got {}", axes.len()),
            ));
        }
        for (i, a) in axes.iter().enumerate() {
            a.validate()?;
            if axes[..i].iter().any(|b| b.name == a.name) {
                return Err(Error::config(
                    "features",
                    format!("`{}` appears twice", a.name),
                ));
            }
        }
        replacement.validate()?;
        let dims: Vec<usize> = axes.iter().map(FeatureAxis::cells).collect();
        let total = dims
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .filter(|&t| t <= MAX_CELLS)
            .ok_or_else(|| {
                Error::config(
                    "features",
                    format!("the grid {dims:?} has more than {MAX_CELLS} cells"),
                )
            })?;
        Ok(GridArchive {
            axes,
            replacement,
            dims,
            cells: vec![None; total],
            offered: 0,
        })
    }

    /// The feature axes, in order.
    pub fn axes(&self) -> &[FeatureAxis] {
        &self.axes
    }

    /// The replacement rule.
    pub fn replacement(&self) -> Replacement {
        self.replacement
    }

    /// Cells along each axis.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// Number of cells (occupied or not).
    pub fn num_cells(&self) -> usize {
        self.cells.len()
    }

    /// Number of elites (occupied cells).
    pub fn len(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// True if no cell is occupied.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(Option::is_none)
    }

    /// Candidates offered so far; the next candidate gets this evaluation index.
    pub fn offered(&self) -> u64 {
        self.offered
    }

    /// The cell of a descriptor (one finite value per axis; out-of-range values clamp to the
    /// edge cells).
    pub fn index_of(&self, descriptors: &[f64]) -> Result<usize> {
        if descriptors.len() != self.axes.len() {
            return Err(Error::config(
                "descriptors",
                format!(
                    "has {} values, expected {}",
                    descriptors.len(),
                    self.axes.len()
                ),
            ));
        }
        if let Some(x) = descriptors.iter().find(|x| !x.is_finite()) {
            return Err(Error::config(
                "descriptors",
                format!("{x} is not a finite number"),
            ));
        }
        Ok(self.index_of_unchecked(descriptors))
    }

    fn index_of_unchecked(&self, descriptors: &[f64]) -> usize {
        let coords: Vec<usize> = self
            .axes
            .iter()
            .zip(descriptors)
            .map(|(a, &v)| a.index_of(v))
            .collect();
        self.flat(&coords)
    }

    fn flat(&self, coords: &[usize]) -> usize {
        coords
            .iter()
            .zip(&self.dims)
            .fold(0, |acc, (&c, &d)| acc * d + c)
    }

    /// The flat cell index of grid coordinates; `None` if any is out of range or their number
    /// differs from the number of axes.
    pub fn grid_to_index(&self, coords: &[usize]) -> Option<usize> {
        (coords.len() == self.dims.len() && coords.iter().zip(&self.dims).all(|(c, d)| c < d))
            .then(|| self.flat(coords))
    }

    /// The grid coordinates of a flat cell index; `None` if it is out of range.
    pub fn index_to_grid(&self, index: usize) -> Option<Vec<usize>> {
        if index >= self.cells.len() {
            return None;
        }
        let mut rest = index;
        let mut coords = vec![0; self.dims.len()];
        for (c, &d) in coords.iter_mut().zip(&self.dims).rev() {
            *c = rest % d;
            rest /= d;
        }
        Some(coords)
    }

    /// The elite of cell `index`, if any.
    pub fn elite(&self, index: usize) -> Option<&Elite> {
        self.cells.get(index).and_then(Option::as_ref)
    }

    /// The elites with their cells, in cell-index order.
    pub fn elites(&self) -> impl Iterator<Item = (usize, &Elite)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().map(|e| (i, e)))
    }

    /// Offers one candidate; see [`GridArchive::add_batch`].
    pub fn add(&mut self, genome: Genome, evaluation: Evaluation) -> Result<AddStatus> {
        Ok(self.add_batch(vec![(genome, evaluation)])?[0])
    }

    /// Offers a batch of candidates, with pyribs' batch semantics.
    ///
    /// Candidates get consecutive evaluation indices from [`GridArchive::offered`]. Each
    /// status is computed against the archive as it was *before* the batch: `New` if the
    /// cell was empty, `ImproveExisting` if the candidate beats the cell's elite under the
    /// [`Replacement`] rule, `NotAdded` otherwise (so two candidates finding the same empty
    /// cell are both `New`). Within the batch only the best candidate of each cell competes
    /// (under the same rule; among equals the earliest), and it replaces the cell's elite if
    /// it beats it.
    ///
    /// # Errors
    ///
    /// If an evaluation does not fit the archive ([`Evaluation::validate`]); the error names
    /// its evaluation index and nothing is added.
    pub fn add_batch(&mut self, items: Vec<(Genome, Evaluation)>) -> Result<Vec<AddStatus>> {
        let mut cells = Vec::with_capacity(items.len());
        for (i, (_, ev)) in items.iter().enumerate() {
            ev.validate(self.axes.len()).map_err(|reason| {
                Error::config(format!("evaluation {}", self.offered + i as u64), reason)
            })?;
            cells.push(self.index_of_unchecked(&ev.descriptor_means));
        }
        let rule = self.replacement;
        let statuses: Vec<AddStatus> = items
            .iter()
            .zip(&cells)
            .map(|((_, ev), &c)| match &self.cells[c] {
                None => AddStatus::New,
                Some(e) if rule.beats(ev, &e.evaluation) => AddStatus::ImproveExisting,
                Some(_) => AddStatus::NotAdded,
            })
            .collect();
        // The batch's best candidate per cell (earliest among equals): cell → item.
        let mut best: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, &c) in cells.iter().enumerate() {
            if statuses[i] == AddStatus::NotAdded {
                continue;
            }
            let b = best.entry(c).or_insert(i);
            if rule.beats(&items[i].1, &items[*b].1) {
                *b = i;
            }
        }
        let first = self.offered;
        self.offered += items.len() as u64;
        let mut items: Vec<Option<(Genome, Evaluation)>> = items.into_iter().map(Some).collect();
        for (c, i) in best {
            if let Some((genome, evaluation)) = items[i].take() {
                self.cells[c] = Some(Elite {
                    index: first + i as u64,
                    genome,
                    evaluation,
                    repetitions: 0,
                });
            }
        }
        Ok(statuses)
    }

    /// The cell an evaluation's descriptor means place it in (the evaluation must fit the
    /// archive, [`Evaluation::validate`]).
    pub fn cell_of(&self, evaluation: &Evaluation) -> usize {
        self.index_of_unchecked(&evaluation.descriptor_means)
    }

    /// The cell of the elite with evaluation index `index`, if it is in the archive.
    pub fn cell_of_elite(&self, index: u64) -> Option<usize> {
        self.elites()
            .find(|(_, e)| e.index == index)
            .map(|(c, _)| c)
    }

    /// Takes the elite out of cell `cell` (adaptive sampling moves and drops elites).
    pub fn take(&mut self, cell: usize) -> Option<Elite> {
        self.cells.get_mut(cell).and_then(Option::take)
    }

    /// Puts `elite` into the cell its evaluation places it in, replacing any elite there.
    ///
    /// # Errors
    ///
    /// If its evaluation does not fit the archive ([`Evaluation::validate`]), naming its index.
    pub fn put(&mut self, elite: Elite) -> Result<()> {
        elite
            .evaluation
            .validate(self.axes.len())
            .map_err(|reason| Error::config(format!("evaluation {}", elite.index), reason))?;
        let c = self.cell_of(&elite.evaluation);
        self.cells[c] = Some(elite);
        Ok(())
    }

    /// Counts `n` more candidates as offered (adaptive sampling offers candidates through
    /// [`GridArchive::put`], possibly batches after their first games).
    pub fn count_offered(&mut self, n: u64) {
        self.offered += n;
    }

    /// Summary numbers: elites, coverage, QD score, best and mean fitness.
    pub fn stats(&self) -> ArchiveStats {
        let fits: Vec<f64> = self.elites().map(|(_, e)| e.evaluation.fitness).collect();
        ArchiveStats::of(&fits, self.cells.len())
    }
}

/// The serialised form of a [`GridArchive`].
#[derive(Serialize, Deserialize)]
struct ArchiveData {
    axes: Vec<FeatureAxis>,
    replacement: Replacement,
    offered: u64,
    elites: Vec<Elite>,
}

impl From<GridArchive> for ArchiveData {
    fn from(a: GridArchive) -> Self {
        ArchiveData {
            axes: a.axes,
            replacement: a.replacement,
            offered: a.offered,
            elites: a.cells.into_iter().flatten().collect(),
        }
    }
}

impl TryFrom<ArchiveData> for GridArchive {
    type Error = Error;

    fn try_from(d: ArchiveData) -> Result<Self> {
        let mut a = GridArchive::new(d.axes, d.replacement)?;
        a.offered = d.offered;
        for e in d.elites {
            let field = format!("archive elite {}", e.index);
            e.evaluation
                .validate(a.axes.len())
                .map_err(|r| Error::config(&field, r))?;
            if e.index >= a.offered {
                return Err(Error::config(
                    field,
                    format!("index beyond the {} evaluations offered", a.offered),
                ));
            }
            let c = a.index_of_unchecked(&e.evaluation.descriptor_means);
            if a.cells[c].is_some() {
                return Err(Error::config(field, format!("cell {c} holds two elites")));
            }
            a.cells[c] = Some(e);
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive() -> GridArchive {
        GridArchive::new(
            vec![
                FeatureAxis::bucket("a", 0.0, 20.0, 2.0).unwrap(),
                FeatureAxis::bins("b", 0.0, 1.0, 5).unwrap(),
                FeatureAxis::bins("c", 0.0, 1.0, 3).unwrap(),
            ],
            Replacement::Paper,
        )
        .unwrap()
    }

    #[test]
    fn grid_and_flat_indices_convert_both_ways() {
        let a = archive();
        assert_eq!(a.dims(), &[12, 5, 3]);
        assert_eq!(a.num_cells(), 180);
        for i in 0..a.num_cells() {
            let g = a.index_to_grid(i).unwrap();
            assert_eq!(a.grid_to_index(&g), Some(i));
        }
        assert_eq!(a.grid_to_index(&[1, 2, 0]), Some(21));
        assert_eq!(a.grid_to_index(&[12, 0, 0]), None);
        assert_eq!(a.grid_to_index(&[1, 2]), None);
        assert_eq!(a.index_to_grid(180), None);
    }

    #[test]
    fn index_of_rejects_bad_descriptors() {
        let a = archive();
        assert!(a.index_of(&[1.0, 0.5]).is_err());
        assert!(a.index_of(&[1.0, f64::NAN, 0.0]).is_err());
        assert_eq!(
            a.index_of(&[-4.0, 9.0, 0.5]).unwrap(),
            a.grid_to_index(&[0, 4, 1]).unwrap()
        );
    }

    #[test]
    fn bad_grids_are_errors() {
        let ax = || FeatureAxis::bins("x", 0.0, 1.0, 2).unwrap();
        assert!(GridArchive::new(vec![], Replacement::Paper).is_err());
        assert!(GridArchive::new(vec![ax(); 4], Replacement::Paper).is_err());
        assert!(GridArchive::new(vec![ax(), ax()], Replacement::Paper).is_err()); // same name
        assert!(FeatureAxis::bins("x", 0.0, 1.0, MAX_AXIS_CELLS + 1).is_err()); // too long
    }
}

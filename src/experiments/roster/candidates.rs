//! The roster's candidates: the run's elites with their re-played figures, kept if their win
//! rate's lower bound clears the floor (see the [module docs](super)).

use crate::error::Result;
use crate::experiments::reevaluate::tables::reevaluation_of;
use crate::experiments::run_dir::RunDir;
use crate::report::archive::ArchiveRow;
use crate::stats::{Z_95, wilson_interval};

/// One elite that may join the roster.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Its archive row.
    pub row: ArchiveRow,
    /// Its agent spec ([`RunDir::agent_spec`]).
    pub spec: String,
    /// Its win rate (re-played, or archived).
    pub win_rate: f64,
    /// The lower end of its 95 % Wilson interval.
    pub win_rate_lo: f64,
    /// Its feature means (re-played, or archived), in axis order.
    pub means: Vec<f64>,
}

/// The candidates of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidates {
    /// Those kept, in cell order.
    pub kept: Vec<Candidate>,
    /// The elites considered (those with finite figures).
    pub elites: usize,
    /// Where the figures come from: `reevaluated` (`reevaluated.csv`) or `archived`.
    pub source: &'static str,
}

/// The elites of `run` whose win rate's lower bound is at least `floor`, with their figures
/// from `reevaluated.csv` if the run has one, else from `archive.csv`.
///
/// # Errors
///
/// As [`reevaluation_of`] for a malformed or stale `reevaluated.csv`; as
/// [`RunDir::agent_spec`].
pub fn candidates(run: &RunDir, floor: f64) -> Result<Candidates> {
    let mut all = Vec::new();
    let source = match reevaluation_of(run)? {
        Some(rows) => {
            for r in rows {
                if r.new_cell.is_none() {
                    continue;
                }
                let Some(row) = run.row(r.cell) else { continue };
                all.push(Candidate {
                    row: row.clone(),
                    spec: run.agent_spec(row)?,
                    win_rate: r.new_win_rate,
                    win_rate_lo: r.new_win_rate_interval.0,
                    means: r.new_features.iter().map(|(m, _)| *m).collect(),
                });
            }
            "reevaluated"
        }
        None => {
            for row in &run.archive.rows {
                let (lo, _) = wilson_interval(u64::from(row.wins), u64::from(row.games), Z_95);
                all.push(Candidate {
                    row: row.clone(),
                    spec: run.agent_spec(row)?,
                    win_rate: row.win_rate,
                    win_rate_lo: lo,
                    means: row.means.clone(),
                });
            }
            "archived"
        }
    };
    all.sort_by_key(|c| c.row.cell);
    let elites = all.len();
    let kept = all.into_iter().filter(|c| c.win_rate_lo >= floor).collect();
    Ok(Candidates {
        kept,
        elites,
        source,
    })
}

//! `playstyles plot DIR`: redraws every picture of a result folder from its CSV files (CSV is
//! the source of truth).
//!
//! A MAP-Elites run directory (it holds `archive.csv`) gets
//!
//! - `heatmap.png` and `heatmap.svg` from `config.toml` (the axes) and `archive.csv` (the
//!   elites), as `evolve` draws them ([`crate::report::heatmap`]);
//! - `progress.png` from `progress.csv`: coverage, best and mean elite win rate against
//!   evaluations ([`crate::report::progress_chart`]).
//!
//! A tournament's output folder (it holds `summary.csv` but no `archive.csv`) gets
//! `summary.png` and `summary.svg`: the win rate of each pairing's side (the first agent and
//! its copies) with its 95 % interval and the rate of chance ([`crate::report::win_rate_chart`]).
//!
//! Every file is written atomically. A missing or malformed input is an error naming the file
//! (and the line, for a bad row).

use std::io::Write;
use std::path::PathBuf;

use super::run_dir::{CHECKPOINT_JSON, RunDir, check_dir, read_config};
use super::tournament_rows::SUMMARY_CSV;
use super::{GameKind, output_error};
use crate::error::{Error, Result};
use crate::files::present;
use crate::report::archive::{ARCHIVE_CSV, PROGRESS_CSV, read_run_progress};
use crate::report::heatmap::{HEATMAP_PNG, HEATMAP_SVG, write_heatmaps};
use crate::report::progress_chart::{PROGRESS_PNG, write_progress_chart};
use crate::report::win_rate_chart::{
    SUMMARY_PNG, SUMMARY_SVG, read_summary_csv, write_win_rate_charts,
};

/// What kind of result folder `plot` redraws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotSource {
    /// A MAP-Elites run directory (`archive.csv`).
    Run,
    /// A tournament's output folder (`summary.csv`, no `archive.csv`).
    Tournament,
}

/// Validated settings of `playstyles plot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotConfig {
    /// The folder.
    pub dir: PathBuf,
    /// What it holds.
    pub source: PlotSource,
    /// The run's game (from its `config.toml`); for a tournament, whose chart is the same for
    /// every game, the default game (it only routes the command).
    pub game: GameKind,
}

impl PlotConfig {
    /// Settings for the folder `dir`: a run directory if it holds `archive.csv` (its
    /// `config.toml` is read for the game), else a tournament's folder if it holds
    /// `summary.csv` (anything at either path counts, to be read and refused by name if it
    /// is not a regular file).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `dir` if it is missing, [`Error::Data`] if it holds neither file; as
    /// [`read_config`] for a run directory whose `config.toml` is missing or invalid.
    pub fn new(dir: PathBuf) -> Result<Self> {
        check_dir(&dir)?;
        let (source, game) = if present(&dir.join(ARCHIVE_CSV))? {
            (PlotSource::Run, read_config(&dir)?.game)
        } else if present(&dir.join(SUMMARY_CSV))? {
            (PlotSource::Tournament, GameKind::default())
        } else {
            return Err(Error::data(
                &dir,
                0,
                format!(
                    "holds neither {ARCHIVE_CSV} (a MAP-Elites run) nor {SUMMARY_CSV} (a tournament): nothing to plot"
                ),
            ));
        };
        Ok(PlotConfig { dir, source, game })
    }
}

/// Redraws the pictures of `cfg.dir` and lists the files written on `out`.
///
/// # Errors
///
/// For a run: as [`RunDir::load`]; [`Error::Io`] naming `progress.csv` if it is missing,
/// [`Error::Data`] if it is malformed or does not fit the run's checkpoint
/// ([`read_run_progress`]). For a tournament: as [`read_summary_csv`]. Either: a picture that cannot be
/// written.
pub fn plot(cfg: &PlotConfig, out: &mut impl Write) -> Result<()> {
    let written = match cfg.source {
        PlotSource::Run => {
            let run = RunDir::load(&cfg.dir)?;
            let reports =
                read_run_progress(&run.dir.join(PROGRESS_CSV), &run.dir.join(CHECKPOINT_JSON))?;
            let axes = run.config.features.clone();
            write_heatmaps(&run.archive.rows, &axes, &run.dir)?;
            write_progress_chart(&reports, &run.dir.join(PROGRESS_PNG))?;
            vec![HEATMAP_PNG, HEATMAP_SVG, PROGRESS_PNG]
        }
        PlotSource::Tournament => {
            let rows = read_summary_csv(&cfg.dir.join(SUMMARY_CSV))?;
            write_win_rate_charts(&rows, &cfg.dir)?;
            vec![SUMMARY_PNG, SUMMARY_SVG]
        }
    };
    for name in written {
        writeln!(out, "wrote {}", cfg.dir.join(name).display()).map_err(output_error)?;
    }
    Ok(())
}

//! `playstyles plot RUN_DIR`: redraws every picture of a run directory from its CSV files
//! (CSV is the source of truth):
//!
//! - `heatmap.png` and `heatmap.svg` from `config.toml` (the axes) and `archive.csv` (the
//!   elites), as `evolve` draws them ([`crate::report::heatmap`]);
//! - `progress.png` from `progress.csv`: coverage, best and mean elite win rate against
//!   evaluations ([`crate::report::progress_chart`]).
//!
//! Every file is written atomically. A missing or malformed input is an error naming the file
//! (and the line, for a bad row).

use std::io::Write;
use std::path::PathBuf;

use super::run_dir::{RunDir, read_config};
use super::{GameKind, output_error};
use crate::error::Result;
use crate::report::archive::{PROGRESS_CSV, read_progress_csv};
use crate::report::heatmap::{HEATMAP_PNG, HEATMAP_SVG, write_heatmaps};
use crate::report::progress_chart::{PROGRESS_PNG, write_progress_chart};

/// Validated settings of `playstyles plot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
}

impl PlotConfig {
    /// Settings for the run directory `run_dir`; reads its `config.toml` for the game.
    ///
    /// # Errors
    ///
    /// As [`read_config`]: the directory or `config.toml` is missing or invalid.
    pub fn new(run_dir: PathBuf) -> Result<Self> {
        let game = read_config(&run_dir)?.game;
        Ok(PlotConfig { run_dir, game })
    }
}

/// Redraws the pictures of `cfg.run_dir` and lists the files written on `out`.
///
/// # Errors
///
/// As [`RunDir::load`]; [`crate::Error::Io`] naming `progress.csv` if it is missing or
/// malformed, or a picture that cannot be written.
pub fn plot(cfg: &PlotConfig, out: &mut impl Write) -> Result<()> {
    let run = RunDir::load(&cfg.run_dir)?;
    let reports = read_progress_csv(&run.dir.join(PROGRESS_CSV))?;
    let axes = run.config.features.clone();
    write_heatmaps(&run.archive.rows, &axes, &run.dir)?;
    write_progress_chart(&reports, &run.dir.join(PROGRESS_PNG))?;
    for name in [HEATMAP_PNG, HEATMAP_SVG, PROGRESS_PNG] {
        writeln!(out, "wrote {}", run.dir.join(name).display()).map_err(output_error)?;
    }
    Ok(())
}

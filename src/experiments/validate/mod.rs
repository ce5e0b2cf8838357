//! `playstyles validate RUN_DIR`: re-plays elites of a MAP-Elites run on other levels and
//! compares their play-style features and win rates with the archive's (the paper's held-out
//! validation, its Table II).
//!
//! **Levels** (`--levels`): `held-out` (default), the game's built-in experiment levels minus
//! the run's training levels (`evaluation.levels` of `config.toml`); `paper`, all built-in
//! levels; a comma-separated list of levels (seeds, level files, the game's level names such as
//! Puerto Rico's `2p`); or `generated:N`, `N` levels from the game's level generator whose
//! seeds are `derive_seed(run seed, [GENERATED_LEVELS_TAG, i])` for `i` in `0..N` (Tribes:
//! Xin-Xi and Imperius).
//!
//! **Cells** (`--cells`): `corners` (default, as the paper), `all`, or a comma-separated list of
//! cell indices, each of which must hold an elite. The corners of a grid are the cells whose
//! every coordinate is 0 or the axis's last cell (two ends in 1-D, four corners in 2-D, eight in
//! 3-D); for each corner, the chosen elite is the occupied cell nearest to it by Euclidean
//! distance in grid coordinates, ties going to the lower cell index; the chosen cells are then
//! de-duplicated ([`corner_cells`]).
//!
//! **Games.** Each chosen elite is re-played exactly as `evolve` evaluated it:
//! [`evaluate_player`](super::evaluate::evaluate_player) with the run's player spec carrying
//! the elite's weights ([`super::run_dir::RunDir::agent_spec`]), the baseline and features,
//! `--repetitions` games per level (default 20) with seats alternating, and seed
//! `derive_seed(run seed, [VALIDATION_TAG, cell])`. Elites and games run in parallel on a local
//! pool of `--threads` threads; the results are identical for any thread count.
//!
//! **Outputs**, written atomically into the run directory and printed as aligned tables:
//!
//! - `validation.csv`: one row per validated elite and feature, in cell order then axis order:
//!   `cell`; `feature`; `map_mean`, `map_sd` (the feature's mean and standard deviation over
//!   the elite's games in the archive); `val_mean`, `val_sd` (the same over the validation
//!   games); `map_win_rate`, `val_win_rate`; `map_games`, `val_games`; `stays_in_cell`
//!   (`true` if `val_mean` falls in the elite's bucket on that feature's axis, i.e. the axis
//!   maps it to the elite's `cell_<feature>` coordinate).
//! - `validation_summary.csv`: columns `feature`, `elites`, `map_mean`, `val_mean` (means over
//!   the validated elites), `spearman`, `stays_in_cell`, `val_true_sd`, `val_true_sd_cells`,
//!   `val_reliability`, `replayed_spearman`. One row per feature, where `spearman` is
//!   Spearman's rank correlation between the elites' map and validation means (ranks of ties
//!   averaged; empty with fewer than 3 elites or when either side has no spread,
//!   [`spearman`](crate::stats::spearman)), `stays_in_cell` the share of elites whose
//!   validation value stays in its bucket on that axis, the next three how much the elites
//!   truly differ on the validation levels ([`true_spread`](crate::stats::true_spread) of their
//!   validation means and standard errors: the spread, in cell widths, and the share of the
//!   means' variance that is not the noise of their games — a low reliability bounds the
//!   Spearman any re-play can reach), and `replayed_spearman` the rank correlation of the
//!   validation means with the elites' means as `reevaluate` re-played them on the training
//!   levels (`reevaluated.csv`, read before any game is played; the map's means rest on the
//!   few games that placed each elite, the re-played ones on as many as `reevaluate` was
//!   given — so this says whether the styles carry over, free of the map's noise). It is empty
//!   when the run has no `reevaluated.csv` or that re-played another archive
//!   ([`replayed_of`]). Then a `win_rate` row (the win rates' means and rank correlations,
//!   `replayed_spearman` with the re-played win rates; the spread columns empty); then an
//!   `all_axes` row whose `stays_in_cell` is the share of elites whose validation descriptors
//!   fall in the elite's own cell on every axis at once.
//!
//! **Interruptions.** Each elite's games are saved to `validation.journal.json` as soon as they
//! are played ([`crate::experiments::journal`]); `--resume` continues a killed validation from
//! it (refusing other levels, repetitions, baseline or run seed, another `config.toml` or other
//! elites — cells or specs —, naming the setting; an entry without the games an elite plays is
//! a damaged journal). Once the tables are written, the completion record
//! `validation.done.json` (the journal's settings) is written and the journal deleted (so a
//! command killed before writes the tables again when resumed). The tables are the same as an
//! uninterrupted run's. `--resume` of a finished validation is nothing to do (exit 0, nothing
//! written) if the record holds the settings asked for, an error naming the setting otherwise;
//! tables without a record (an older version's) are finished, their settings unchecked.
//!
//! The code is split by job: `levels.rs` resolves `--levels`, `cells.rs` picks the elites,
//! `run.rs` plays them, and `tables.rs` builds, prints and reads back the CSVs; everything
//! public is re-exported here.

use std::path::PathBuf;

use super::GameKind;
use super::run_dir::read_config;
use crate::error::{Error, Result};
use crate::limits;

mod cells;
mod levels;
mod run;
pub mod tables;

pub use cells::{CellChoice, choose_cells, corner_cells};
pub use levels::{GENERATED_LEVELS_TAG, LevelChoice, LevelRef, level_refs};
pub use run::{VALIDATION_DONE, VALIDATION_JOURNAL, VALIDATION_TAG, validate};
pub use tables::{
    ALL_AXES_ROW, Replayed, SUMMARY_COLUMNS, VALIDATION_COLUMNS, VALIDATION_CSV,
    VALIDATION_SUMMARY_CSV, Validated, ValidationRow, WIN_RATE_ROW, read_validation_csv,
    replayed_of, summary_table, validation_of, validation_table,
};

/// Default games per level and elite (as the paper).
pub const DEFAULT_REPETITIONS: u32 = 20;

/// Validated settings of `playstyles validate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidateConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
    /// The levels to play.
    pub levels: LevelChoice,
    /// Games per level and elite (at least 1).
    pub repetitions: u32,
    /// The elites to play.
    pub cells: CellChoice,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace the tables of an earlier validation (without it, they are never overwritten),
    /// or start an interrupted one over.
    pub force: bool,
    /// Continue an interrupted validation from its journal (`validation.journal.json`).
    pub resume: bool,
    /// Play at most this many elites, then stop as if killed (for tests of `resume`).
    pub stop_after_elites: Option<u64>,
}

impl ValidateConfig {
    /// Settings with the defaults (held-out levels, 20 repetitions, corners, one thread per
    /// core, a progress bar); reads the run's `config.toml` for the game.
    ///
    /// # Errors
    ///
    /// As [`read_config`]: the directory or `config.toml` is missing or invalid.
    pub fn new(run_dir: PathBuf) -> Result<Self> {
        let game = read_config(&run_dir)?.game;
        Ok(ValidateConfig {
            run_dir,
            game,
            levels: LevelChoice::HeldOut,
            repetitions: DEFAULT_REPETITIONS,
            cells: CellChoice::Corners,
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_elites: None,
        })
    }

    /// Sets the games per level and elite.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--repetitions` if it is 0 or above
    /// [`limits::MAX_REPETITIONS`].
    pub fn with_repetitions(mut self, repetitions: u32) -> Result<Self> {
        if repetitions == 0 {
            return Err(Error::config("--repetitions", "must be at least 1"));
        }
        limits::at_most(
            u64::from(repetitions),
            limits::MAX_REPETITIONS,
            "--repetitions",
        )?;
        self.repetitions = repetitions;
        Ok(self)
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--threads` if it is 0 or above [`limits::max_threads`].
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        self.threads = limits::threads(threads, "--threads")?;
        Ok(self)
    }
}

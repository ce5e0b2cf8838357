//! `playstyles reevaluate RUN_DIR`: re-plays every elite of a MAP-Elites run on fresh games of
//! its training levels and rebuilds the archive from the new results, to expose "lucky
//! elites": an archived win rate rests on few games (20 games: about ±11 points), so some
//! elites hold cells their play does not earn.
//!
//! **Games.** Each elite is re-played as `evolve` evaluated it:
//! [`evaluate_player`](super::evaluate::evaluate_player) with the run's player spec carrying
//! the elite's weights, against the run's baseline in every other seat, on the run's training
//! levels (`evaluation.levels` of `config.toml`) with seats rotating every game, and with the
//! run's features. `--games N` (default [`DEFAULT_GAMES`]) are spread evenly over the levels:
//! `ceil(N / levels)` games per level, so `N` is rounded up to a multiple of the number of
//! levels. Elite `cell`'s games use the series seed `derive_seed(S, [REEVALUATION_TAG, cell])`,
//! `S` being `--seed` or, by default, the run seed: a stream of its own, apart from the
//! evaluations' `derive_seed(run seed, [evaluation])` and validation's. Elites and games run in
//! parallel on a local pool of `--threads` threads; the results are identical for any thread
//! count.
//!
//! **The corrected archive.** Every elite is placed by its new feature means in the grid of the
//! run (out-of-range means clamp to the edge cells, as in the run; an elite whose new features
//! are not finite lands nowhere) and the cells are filled as the run fills them: one elite per
//! cell, the best under the run's replacement rule. All elites now have the same number of
//! games, so under either rule that is the highest new win rate, ties to the higher mean score,
//! then to the lower archived cell. Its QD score is the run's ([`GridArchive::stats`](crate::qd::GridArchive::stats)): the sum
//! of its elites' win rates.
//!
//! **Outputs**, written atomically into the run directory (never over an earlier
//! re-evaluation without `--force`):
//!
//! - `reevaluated.csv`: one row per elite, in archived cell order: `cell`, `cell_<f>` (the
//!   archived cell and its coordinates); `map_<f>_mean`, `map_<f>_sd` (the archived features),
//!   `map_win_rate`, `map_games`; `new_win_rate` with its 95 % Wilson interval `new_win_rate_lo`,
//!   `new_win_rate_hi` (draws are non-wins), `new_games`, `new_wins`, `new_draws`;
//!   `new_<f>_mean`, `new_<f>_sd`; `new_cell`, `new_cell_<f>` (the cell of the new means, empty
//!   if none); `kept_cell` (`true` if `new_cell` is `cell`); `corrected_elite` (`true` if the
//!   elite holds its new cell in the corrected archive).
//! - `reevaluated_summary.csv`: one row, columns [`summary_columns`]: the number of elites, how
//!   many kept their cell and the share, the share a second re-play would keep were the new
//!   means exact ([`keep_chance`], the ceiling of the share kept), the corrected archive's elites, the grid's cells,
//!   coverage and QD score archived and corrected, the mean win rate of the elites archived and
//!   re-evaluated, the games per elite and the seed `S`; then per feature how much the elites
//!   truly differ in it ([`FeatureSpread`](crate::experiments::feature_spread::FeatureSpread)): `<f>_true_sd` (the variance of their new means less
//!   the mean squared standard error, as a standard deviation), `<f>_true_sd_cells` (the same in
//!   cell widths) and `<f>_reliability` (the share of the means' variance that is not the noise
//!   of the games). A file of its own, because the run's
//!   totals do not fit the per-elite rows of `reevaluated.csv` (a table stays one row per
//!   elite, as pandas expects), and alongside `validation_summary.csv` it reads the same way.
//!
//! Both are printed too, shortened: the totals side by side, each feature's spread, and the
//! elites whose win rate fell most.
//!
//! **Interruptions.** Each elite's games are saved to `reevaluated.journal.json` as soon as they
//! are played ([`crate::experiments::journal`]); `--resume` continues a killed re-evaluation from
//! it (refusing other `--games`, `--seed`, levels or baseline, another `config.toml` or other
//! elites, naming the setting; an entry without the games an elite plays is a damaged
//! journal). Once the tables are written, the completion record `reevaluated.done.json` (the
//! journal's settings) is written and the journal deleted (so a command killed before writes
//! the tables again when resumed). The tables are the same as an uninterrupted run's.
//! `--resume` of a finished re-evaluation is nothing to do (exit 0, nothing written) if the
//! record holds the settings asked for, an error naming the setting otherwise; tables without
//! a record (an older version's) are finished, their settings unchecked.
//!
//! `run.rs` plays the elites and writes the files; `tables.rs` builds the corrected archive
//! and the tables.

use std::path::PathBuf;

use super::GameKind;
use super::run_dir::read_config;
use crate::error::{Error, Result};
use crate::limits;

mod run;
pub mod tables;

pub use run::{REEVALUATION_DONE, REEVALUATION_JOURNAL, REEVALUATION_TAG, elite_seed, reevaluate};
pub use tables::{
    REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV, Reevaluated, Reevaluation, SUMMARY_COLUMNS,
    keep_chance, reevaluated_columns, summary_columns,
};

/// Default games per elite.
pub const DEFAULT_GAMES: u32 = 40;

/// Validated settings of `playstyles reevaluate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReevaluateConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
    /// Games per elite asked for (at least 1; rounded up to a multiple of the levels).
    pub games: u32,
    /// The seed the elites' games derive from (`None`: the run seed).
    pub seed: Option<u64>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace the tables of an earlier re-evaluation, or start an interrupted one over.
    pub force: bool,
    /// Continue an interrupted re-evaluation from its journal (`reevaluated.journal.json`).
    pub resume: bool,
    /// Play at most this many elites, then stop as if killed (for tests of `resume`).
    pub stop_after_elites: Option<u64>,
}

impl ReevaluateConfig {
    /// Settings for `games` games per elite on `threads` threads (`None`: one per core), with
    /// the run seed, a progress bar and nothing overwritten; checks the flags first (so a bad
    /// one is named even for a bad run directory), then reads the run's `config.toml` for the
    /// game.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--games` if it is 0 or above [`limits::MAX_GAMES`], or
    /// `--threads` if it is 0 or above [`limits::max_threads`]; as [`read_config`] if the
    /// directory or `config.toml` is missing or invalid.
    pub fn new(run_dir: PathBuf, games: u32, threads: Option<usize>) -> Result<Self> {
        if games == 0 {
            return Err(Error::config("--games", "must be at least 1"));
        }
        limits::at_most(u64::from(games), limits::MAX_GAMES, "--games")?;
        let threads = limits::threads(threads, "--threads")?;
        let game = read_config(&run_dir)?.game;
        Ok(ReevaluateConfig {
            run_dir,
            game,
            games,
            seed: None,
            threads,
            quiet: false,
            force: false,
            resume: false,
            stop_after_elites: None,
        })
    }
}

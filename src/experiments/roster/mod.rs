//! `playstyles roster RUN_DIR --count N|auto`: what a designer ships from a MAP-Elites run —
//! N personalities far apart in play, each strong, and proof that they can be told apart: a
//! classifier trained on games of the run's training levels names the personality of games on
//! held-out levels, from one game and from three.
//!
//! **Candidates** (`candidates.rs`). The run's elites with their re-played figures: the win
//! rate, its 95 % Wilson interval and the feature means of `reevaluated.csv` where the run has
//! one (read as `reevaluate` wrote it and bound to the archive; an elite whose re-played means
//! are not finite is left out), else those of `archive.csv`. Kept are the elites whose win
//! rate's lower bound is at least the floor (`--floor`, default `1 / players` of the run's
//! first training level: half of a two-player game, a fair share of an N-player one). The
//! output says how many were kept.
//!
//! **Pick** (`pick.rs`). Greedy farthest-point: the features are standardised over the
//! candidates (mean 0, standard deviation 1; a feature constant over them is left out); the
//! first member is the strongest candidate (highest lower bound, then highest win rate, then
//! lowest cell); each next one the candidate whose smallest Euclidean distance to the members
//! so far is largest (ties to the lower cell). The order nests: the roster of N is the first N
//! of the roster of N + 1, so one set of games serves every size.
//!
//! **Games** (`play.rs`). Each member — its elite spec, as `validate` plays it — against the
//! run's baseline in every other seat, seats rotated, as the run scores genomes
//! ([`player_games`](super::evaluate::player_games)): `--train-games` (default
//! [`DEFAULT_TRAIN_GAMES`]) on the run's training levels and `--test-games` (default
//! [`DEFAULT_TEST_GAMES`]) on the `--levels` (default `held-out`, as `validate` picks them),
//! each spread evenly over its levels (rounded up to a multiple of their number; N games use
//! at most the first N levels, so 30 games on Prismata's 96 held-out levels are one on each of
//! the first 30). A member's
//! series seeds are `derive_seed(run seed, [ROSTER_TAG, cell, 0])` (training) and `[…, 1]`
//! (test): its games depend neither on the roster's size nor on the thread count. `--count
//! auto` plays the first `min(max, candidates)` members of the order (`auto` is `auto:16`,
//! at most [`crate::limits::MAX_ROSTER`]).
//!
//! **Statistics** (`statistics.rs`). Every per-game statistic the game declares: the map's
//! features, the game's own features (those defined in every game), each action kind's and
//! label's count per turn, each statistic's final value and its slope per turn
//! ([`statistic_names`]); the outcome (`win`, `rank`) is not a style and is left out.
//!
//! **Classifier** (`assess.rs`): linear discriminant analysis with a Ledoit–Wolf-shrunk pooled
//! covariance ([`crate::classify`]), trained on the training-level games of the roster's
//! members only (a statistic undefined in a game — a map feature of won games only in a lost
//! one — takes its training mean; statistics constant in training are dropped; the rest
//! standardised by their training means and deviations), tested on the held-out games:
//! `accuracy_1`, the share of held-out games each named alone whose member is named right;
//! `accuracy_3`, the same for groups of three held-out games of one member (its games 1–3,
//! 4–6, … in play order, left-over games unused), named by their summed log-posteriors; per
//! member and overall (the mean over the members: each plays as many games), and the 1-game
//! confusion matrix. Every size from 2 to the members played is assessed; `--count auto`
//! keeps the largest whose `accuracy_1` reaches `--target` (default [`DEFAULT_TARGET`]), or,
//! if none does, the most accurate (ties to the larger), and says so.
//!
//! **Names and styles** (`style.rs`). Each member's style in a designer's words: the three to
//! five statistics where its mean over its training games differs most from the roster's (the
//! mean of the members' means), in units of the members' pooled standard deviation (up to five
//! at least one deviation apart, at least three): "high shipping_pct: 1.6× the roster's mean
//! (62.1 vs 38.9)". Its name is its most distinctive statistic, `high-…` or `low-…`
//! (`high-shipping_pct`); a name another member took goes to the next statistic, then gets a
//! number.
//!
//! **Outputs**, in the run directory, each written atomically (`files.rs`):
//! - `roster.toml`: the roster's `count`, `accuracy_1`, `accuracy_3`, `chance` (1 / count), its
//!   `[settings]` (with the fingerprint of the run's `config.toml`), and a `[[member]]` per
//!   personality in pick order: `name`, `cell`, `spec` (the elite's agent spec; its relative
//!   file paths are relative to the run directory), `win_rate` and `win_rate_lo` (the
//!   candidates' figures), `held_out_win_rate`, `accuracy_1`, `accuracy_3`, `named_as` (its
//!   row of the confusion matrix), `style`. A member
//!   plays wherever an agent spec is taken as `roster(file=RUN_DIR/roster.toml,name=NAME)`
//!   ([`crate::agents::roster`]); `report` shows the roster ([`read_roster`], bound to the
//!   run's config and archive);
//! - `roster_confusion.csv`: the 1-game confusion matrix of the roster: a row per member
//!   (`member`, then the games named as each member, then `games`);
//! - `roster_sizes.csv`: per size assessed, `size`, `accuracy_1`, `accuracy_3`, `statistics`
//!   (those the classifier kept), `shrinkage`, `chosen`;
//! - `roster_games.csv`: every game of every member played: `order` (in the pick), `cell`,
//!   `split` (`train` or `test`), `level`, `game`, `won`, `draw`, `score`, then each
//!   statistic (empty where undefined), so the assessment can be recomputed;
//! - `roster.png` and `roster.svg`: the confusion matrix as a heatmap and each member's
//!   accuracy from one and from three games.
//!
//! **Interruptions**, as `validate`: each member's games go to `roster.journal.json` as soon as
//! they are played; `--resume` continues from it (refusing other settings, naming the
//! setting); the completion record `roster.done.json` is written after the outputs and the
//! journal deleted; `--resume` of a finished roster with the same settings is nothing to do;
//! `--force` replaces the roster's own files only.

use std::path::PathBuf;
use std::str::FromStr;

use super::GameKind;
use super::run_dir::read_config;
use super::validate::LevelChoice;
use crate::error::{Error, Result};
use crate::limits;

mod assess;
mod candidates;
mod files;
mod pick;
mod play;
mod run;
mod statistics;
mod style;

pub use assess::{SizeResult, assess};
pub use candidates::{Candidate, Candidates, candidates};
pub use files::{
    MemberFile, ROSTER_CONFUSION_CSV, ROSTER_DONE, ROSTER_GAMES_CSV, ROSTER_JOURNAL, ROSTER_PNG,
    ROSTER_SIZES_CSV, ROSTER_SVG, ROSTER_TOML, RosterFile, RosterSettings, read_roster,
};
pub use pick::farthest_first;
pub use play::{GameRow, MemberGames, ROSTER_TAG, member_seed};
pub use run::roster;
pub use statistics::statistic_names;
pub use style::{Trait, member_names, traits};

/// Default games per member on the training levels: the classifier fits a mean per member and
/// a covariance of every per-game statistic (about 150 on Puerto Rico), so it gains from games
/// well past the test's 30. On the defaults-only Puerto Rico map (`results/defaults/`) a roster
/// of 8 is named from one held-out game 62.5 % of the time after 20 training games each,
/// 68.8 % after 100 and 69.2 % after 200; its first five members 84.0, 90.0 and 90.7 %.
pub const DEFAULT_TRAIN_GAMES: u32 = 100;
/// Default games per member on the test levels.
pub const DEFAULT_TEST_GAMES: u32 = 30;
/// Default 1-game accuracy `--count auto` asks of a roster.
pub const DEFAULT_TARGET: f64 = 0.9;
/// The members `--count auto` plays at most, unless given (`auto:N`).
pub const DEFAULT_AUTO_MAX: usize = 16;

/// How many members (`--count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// `N`: exactly N (2 to [`limits::MAX_ROSTER`]).
    Fixed(usize),
    /// `auto` or `auto:N`: the largest roster of at most N (default [`DEFAULT_AUTO_MAX`]) that
    /// meets the target accuracy.
    Auto(usize),
}

impl Count {
    /// The members to play: N, or at most `max` for `auto:max`.
    pub fn most(self) -> usize {
        match self {
            Count::Fixed(n) | Count::Auto(n) => n,
        }
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Count::Fixed(n) => write!(f, "{n}"),
            Count::Auto(n) => write!(f, "auto:{n}"),
        }
    }
}

impl FromStr for Count {
    type Err = Error;

    /// Parses `N`, `auto` or `auto:N`, N from 2 to [`limits::MAX_ROSTER`]; errors name
    /// `--count`.
    fn from_str(s: &str) -> Result<Count> {
        let s = s.trim();
        let number = |t: &str| -> Result<usize> {
            let n: u64 = t.trim().parse().map_err(|_| {
                Error::config(
                    "--count",
                    format!("`{s}`: give a number of members (2 or more), auto or auto:N"),
                )
            })?;
            if n < 2 {
                return Err(Error::config(
                    "--count",
                    format!("`{s}`: a roster has at least 2 members"),
                ));
            }
            limits::at_most(n, limits::MAX_ROSTER, "--count")?;
            Ok(n as usize)
        };
        if s == "auto" {
            Ok(Count::Auto(DEFAULT_AUTO_MAX))
        } else if let Some(n) = s.strip_prefix("auto:") {
            Ok(Count::Auto(number(n)?))
        } else {
            Ok(Count::Fixed(number(s)?))
        }
    }
}

/// Validated settings of `playstyles roster`.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
    /// How many members.
    pub count: Count,
    /// The 1-game accuracy `auto` asks for, in (0, 1].
    pub target: f64,
    /// The least lower bound of a candidate's win rate (`None`: 1 / players).
    pub floor: Option<f64>,
    /// Games per member on the training levels (at least 1).
    pub train_games: u32,
    /// Games per member on the test levels (at least 3).
    pub test_games: u32,
    /// The test levels.
    pub levels: LevelChoice,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace an earlier roster's files, or start an interrupted one over.
    pub force: bool,
    /// Continue an interrupted roster from its journal.
    pub resume: bool,
    /// Play at most this many members, then stop as if killed (for tests of `--resume`).
    pub stop_after_members: Option<u64>,
}

impl RosterConfig {
    /// Settings for `count` members with the defaults, the flags checked first (so a bad one is
    /// named even for a bad run directory), then the run's `config.toml` read for the game.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--threads` if it is 0 or above [`limits::max_threads`]; as
    /// [`read_config`].
    pub fn new(run_dir: PathBuf, count: Count, threads: Option<usize>) -> Result<Self> {
        let threads = limits::threads(threads, "--threads")?;
        let game = read_config(&run_dir)?.game;
        Ok(RosterConfig {
            run_dir,
            game,
            count,
            target: DEFAULT_TARGET,
            floor: None,
            train_games: DEFAULT_TRAIN_GAMES,
            test_games: DEFAULT_TEST_GAMES,
            levels: LevelChoice::HeldOut,
            threads,
            quiet: false,
            force: false,
            resume: false,
            stop_after_members: None,
        })
    }
}

/// Checks `--target`: a share in (0, 1].
///
/// # Errors
///
/// [`Error::Config`] naming `--target` otherwise.
pub fn check_target(target: f64) -> Result<f64> {
    if target.is_finite() && target > 0.0 && target <= 1.0 {
        Ok(target)
    } else {
        Err(Error::config(
            "--target",
            format!("{target} is not an accuracy in (0, 1] (e.g. 0.9)"),
        ))
    }
}

/// Checks `--floor`: a win rate in [0, 1].
///
/// # Errors
///
/// [`Error::Config`] naming `--floor` otherwise.
pub fn check_floor(floor: f64) -> Result<f64> {
    if floor.is_finite() && (0.0..=1.0).contains(&floor) {
        Ok(floor)
    } else {
        Err(Error::config(
            "--floor",
            format!("{floor} is not a win rate in [0, 1] (e.g. 0.5)"),
        ))
    }
}

/// Checks a games flag (`--train-games`, at least 1; `--test-games`, at least 3: one group of
/// three), at most [`limits::MAX_ROSTER_GAMES`].
///
/// # Errors
///
/// [`Error::Config`] naming `flag` otherwise.
pub fn check_games(games: u32, least: u32, flag: &str) -> Result<u32> {
    if games < least {
        return Err(Error::config(flag, format!("must be at least {least}")));
    }
    limits::at_most(u64::from(games), limits::MAX_ROSTER_GAMES, flag)?;
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_and_bad_ones_name_the_flag() {
        assert_eq!("8".parse::<Count>().unwrap(), Count::Fixed(8));
        assert_eq!("auto".parse::<Count>().unwrap(), Count::Auto(16));
        assert_eq!("auto:5".parse::<Count>().unwrap(), Count::Auto(5));
        assert_eq!(Count::Auto(5).to_string(), "auto:5");
        for bad in ["", "1", "0", "x", "auto:1", "auto:", "65", "auto:999", "-3"] {
            match bad.parse::<Count>() {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--count", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        assert!(check_target(0.0).is_err() && check_target(1.5).is_err());
        assert!(check_target(f64::NAN).is_err() && check_target(1.0).is_ok());
        assert!(check_floor(-0.1).is_err() && check_floor(0.0).is_ok());
        assert!(check_games(2, 3, "--test-games").is_err());
        assert!(check_games(300_000, 1, "--train-games").is_err());
    }
}

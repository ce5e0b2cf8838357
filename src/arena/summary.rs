//! Aggregates of a series from one participant's point of view: games, first places, draws,
//! win rate with a 95 % Wilson interval, mean score and mean rank, then the means of the final
//! statistics a game declares ([`SummaryColumn`]; Tribes: the columns of the paper's Table I).
//!
//! A summary reads its games through [`FinishedGame`], so that games just played
//! ([`SeriesGame`]) and games read back from a file (a tournament's `games.csv` rows) are
//! summarised by the same code. Statistics are looked up by name in the names the caller gives
//! for the game's statistic indices (for a [`SeriesGame`], [`crate::game::GameInfo::stats`]);
//! a game that does not report one gets `None` in that column.

use super::series::SeriesGame;
use crate::stats::{Z_95, mean, wilson_interval};

/// A column of a tournament's `summary.csv` that a game declares
/// ([`crate::kit::GameKit::summary_columns`]): the mean of a final statistic over a
/// participant's games, optionally as a percentage of a total.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SummaryColumn {
    /// The column's name (`techs_pct`).
    pub column: &'static str,
    /// The statistic it averages ([`crate::game::GameInfo::stats`]).
    pub stat: &'static str,
    /// If set, the column is `100 × mean / percent_of` (Tribes: the 24 technologies).
    pub percent_of: Option<f64>,
    /// Decimals in the printed table.
    pub decimals: usize,
    /// Header in the printed table.
    pub short: &'static str,
}

/// What a summary needs to know of one finished game, participants numbered as in the series.
pub trait FinishedGame {
    /// The winning participant (alone in first place); `None` for a draw, a tie for first or
    /// a capped match.
    fn winner(&self) -> Option<usize>;

    /// True if nobody won alone (a draw, a tie for first, or a match stopped by the action cap).
    fn is_draw(&self) -> bool {
        self.winner().is_none()
    }

    /// The rank of participant `j` (1 = first, ties shared).
    ///
    /// # Panics
    ///
    /// May panic if `j` is not a participant of the game.
    fn rank(&self, j: usize) -> u8;

    /// The final score of participant `j`.
    ///
    /// # Panics
    ///
    /// May panic if `j` is not a participant of the game.
    fn score(&self, j: usize) -> f64;

    /// The final value of statistic `i` of participant `j` (`None` if the game did not report
    /// it); what `i` indexes is up to the implementation.
    ///
    /// # Panics
    ///
    /// May panic if `j` is not a participant of the game.
    fn final_stat(&self, j: usize, i: usize) -> Option<f64>;
}

impl<T: FinishedGame + ?Sized> FinishedGame for &T {
    fn winner(&self) -> Option<usize> {
        (**self).winner()
    }

    fn is_draw(&self) -> bool {
        (**self).is_draw()
    }

    fn rank(&self, j: usize) -> u8 {
        (**self).rank(j)
    }

    fn score(&self, j: usize) -> f64 {
        (**self).score(j)
    }

    fn final_stat(&self, j: usize, i: usize) -> Option<f64> {
        (**self).final_stat(j, i)
    }
}

/// Statistic `i` indexes [`crate::game::GameInfo::stats`].
impl<A> FinishedGame for SeriesGame<A> {
    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn rank(&self, j: usize) -> u8 {
        SeriesGame::rank(self, j)
    }

    fn score(&self, j: usize) -> f64 {
        SeriesGame::score(self, j)
    }

    fn final_stat(&self, j: usize, i: usize) -> Option<f64> {
        self.player(j).final_stat(i)
    }
}

/// One participant's results over a series.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingSummary {
    /// Games played.
    pub games: u64,
    /// Games won: first places held alone.
    pub wins: u64,
    /// Games nobody won alone (draws, ties for first, matches stopped by the action cap).
    pub draws: u64,
    /// `wins / games`; draws count as non-wins (0 with no games).
    pub win_rate: f64,
    /// Lower end of the 95 % Wilson interval of the win rate ([`wilson_interval`]).
    pub win_rate_lo: f64,
    /// Upper end of the 95 % Wilson interval of the win rate.
    pub win_rate_hi: f64,
    /// Mean final score ([`crate::game::Game::score`]); `None` with no games.
    pub mean_score: Option<f64>,
    /// Mean rank (1 = first, ties shared); `None` with no games.
    pub mean_rank: Option<f64>,
    /// One value per [`SummaryColumn`] given to [`summarize`]: the mean final statistic (as a
    /// percentage where the column says so); `None` if the game does not report it or with no
    /// games.
    pub stats: Vec<Option<f64>>,
}

/// Summarises `games` for participant `participant`.
///
/// `stat_names[i]` names statistic `i` of [`FinishedGame::final_stat`] (for a [`SeriesGame`],
/// the game's [`crate::game::GameInfo::stats`]); `columns` are the statistic columns to fill.
///
/// # Panics
///
/// If `participant` is not a participant of every game.
pub fn summarize<T: FinishedGame>(
    games: &[T],
    participant: usize,
    stat_names: &[&str],
    columns: &[SummaryColumn],
) -> PairingSummary {
    let n = games.len() as u64;
    let wins = games
        .iter()
        .filter(|g| g.winner() == Some(participant))
        .count() as u64;
    let draws = games.iter().filter(|g| g.is_draw()).count() as u64;
    let (lo, hi) = wilson_interval(wins, n, Z_95);
    let final_mean = |name: &str| -> Option<f64> {
        let i = stat_names.iter().position(|&s| s == name)?;
        let values: Option<Vec<f64>> = games.iter().map(|g| g.final_stat(participant, i)).collect();
        mean(values?)
    };
    let stats = columns
        .iter()
        .map(|c| match c.percent_of {
            Some(total) if total > 0.0 => final_mean(c.stat).map(|t| 100.0 * t / total),
            Some(_) => None,
            None => final_mean(c.stat),
        })
        .collect();
    PairingSummary {
        games: n,
        wins,
        draws,
        win_rate: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
        win_rate_lo: lo,
        win_rate_hi: hi,
        mean_score: mean(games.iter().map(|g| g.score(participant))),
        mean_rank: mean(games.iter().map(|g| f64::from(g.rank(participant)))),
        stats,
    }
}

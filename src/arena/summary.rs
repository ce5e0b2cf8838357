//! Aggregates of a series from one participant's point of view: games, first places, draws,
//! win rate with a 95 % Wilson interval, mean score and mean rank, then the means of the final
//! statistics a game declares ([`SummaryColumn`]; Tribes: the columns of the paper's Table I).
//!
//! A summary reads its games through [`FinishedGame`], so that games just played
//! ([`SeriesGame`]) and games read back from a file (a tournament's `games.csv` rows) are
//! summarised by the same code. Statistics are looked up by name in the names the caller gives
//! for the game's statistic indices (for a [`SeriesGame`], [`crate::game::GameInfo::stats`]);
//! a game that does not report one gets `None` in that column.
//!
//! A *side* ([`side_of`], [`summarize_side`]) is a set of participants counted together: a
//! tournament's side is every participant playing the same agent as the first, so that with
//! two Thinking AIs against two Scripted ones the side's win rate is "a Thinking AI won"
//! (chance level: side size / participants). A side of one participant has exactly that
//! participant's wins.

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

/// `wins / games` (0 with no games) and its 95 % Wilson interval.
fn rate(wins: u64, games: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson_interval(wins, games, Z_95);
    let r = if games == 0 {
        0.0
    } else {
        wins as f64 / games as f64
    };
    (r, lo, hi)
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
    let (win_rate, lo, hi) = rate(wins, n);
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
        win_rate,
        win_rate_lo: lo,
        win_rate_hi: hi,
        mean_score: mean(games.iter().map(|g| g.score(participant))),
        mean_rank: mean(games.iter().map(|g| f64::from(g.rank(participant)))),
        stats,
    }
}

/// The participants in the side of the first: those whose agent equals `agents[0]`, in order
/// (empty if there are no agents).
pub fn side_of<T: PartialEq>(agents: &[T]) -> Vec<usize> {
    agents.first().map_or_else(Vec::new, |first| {
        (0..agents.len()).filter(|&j| agents[j] == *first).collect()
    })
}

/// The results of a side (a set of participants) over a series.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSummary {
    /// The side's participants.
    pub members: Vec<usize>,
    /// Participants per game; `members.len() / participants` is the chance level of the win
    /// rate when all participants are equally strong.
    pub participants: usize,
    /// Games played.
    pub games: u64,
    /// Games the side won ([`side_won`]).
    pub wins: u64,
    /// `wins / games` (0 with no games).
    pub win_rate: f64,
    /// Lower end of the 95 % Wilson interval of the win rate ([`wilson_interval`]).
    pub win_rate_lo: f64,
    /// Upper end of the 95 % Wilson interval of the win rate.
    pub win_rate_hi: f64,
}

/// True if the side `members` won `game` of `participants` participants: a member won alone,
/// or first place is shared by members only and not by every participant (a draw or a capped
/// match is no win). For a side of one participant this is [`FinishedGame::winner`].
///
/// # Panics
///
/// May panic if a participant below `participants` is not a participant of the game.
pub fn side_won<T: FinishedGame>(game: &T, members: &[usize], participants: usize) -> bool {
    if let Some(w) = game.winner() {
        return members.contains(&w);
    }
    let firsts: Vec<usize> = (0..participants).filter(|&j| game.rank(j) == 1).collect();
    !firsts.is_empty() && firsts.len() < participants && firsts.iter().all(|j| members.contains(j))
}

/// Summarises `games` of `participants` participants for the side `members`.
///
/// # Panics
///
/// May panic if a participant below `participants` is not a participant of every game.
pub fn summarize_side<T: FinishedGame>(
    games: &[T],
    members: &[usize],
    participants: usize,
) -> SideSummary {
    let n = games.len() as u64;
    let wins = games
        .iter()
        .filter(|g| side_won(*g, members, participants))
        .count() as u64;
    let (win_rate, lo, hi) = rate(wins, n);
    SideSummary {
        members: members.to_vec(),
        participants,
        games: n,
        wins,
        win_rate,
        win_rate_lo: lo,
        win_rate_hi: hi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made finished game: ranks by participant.
    struct Ranked(Vec<u8>);

    impl FinishedGame for Ranked {
        fn winner(&self) -> Option<usize> {
            let firsts: Vec<usize> = (0..self.0.len()).filter(|&j| self.0[j] == 1).collect();
            (firsts.len() == 1).then(|| firsts[0])
        }

        fn rank(&self, j: usize) -> u8 {
            self.0[j]
        }

        fn score(&self, j: usize) -> f64 {
            f64::from(5 - self.0[j])
        }

        fn final_stat(&self, _: usize, _: usize) -> Option<f64> {
            None
        }
    }

    #[test]
    fn the_side_is_every_participant_with_the_first_agent() {
        assert_eq!(side_of(&["t", "t", "s", "s"]), [0, 1]);
        assert_eq!(side_of(&["s", "t", "s", "t"]), [0, 2]);
        assert_eq!(side_of(&["a", "b"]), [0]);
        assert_eq!(side_of(&["a", "a"]), [0, 1]);
        assert_eq!(side_of::<&str>(&[]), Vec::<usize>::new());
    }

    #[test]
    fn a_side_wins_alone_or_with_first_place_shared_by_members_only() {
        let games = [
            Ranked(vec![1, 2, 3, 4]), // participant 0 alone: a side win
            Ranked(vec![2, 1, 4, 3]), // participant 1 alone: a side win
            Ranked(vec![3, 2, 1, 4]), // participant 2: no
            Ranked(vec![4, 3, 2, 1]), // participant 3: no
            Ranked(vec![1, 1, 3, 4]), // 0 and 1 share first: a side win, nobody's alone
            Ranked(vec![1, 3, 1, 4]), // 0 shares first with 2: no
            Ranked(vec![1, 1, 1, 1]), // everybody first (a draw, a capped match): no
        ];
        let side = summarize_side(&games, &[0, 1], 4);
        assert_eq!((side.games, side.wins, side.participants), (7, 3, 4));
        assert_eq!(side.win_rate, 3.0 / 7.0);
        assert_eq!(
            (side.win_rate_lo, side.win_rate_hi),
            wilson_interval(3, 7, Z_95)
        );
        // The first participant alone won one game; the other side, two.
        assert_eq!(summarize(&games, 0, &[], &[]).wins, 1);
        assert_eq!(summarize_side(&games, &[2, 3], 4).wins, 2);
        // A side of everybody wins whenever somebody is first and somebody is not.
        assert_eq!(summarize_side(&games, &[0, 1, 2, 3], 4).wins, 6);
        let none: [Ranked; 0] = [];
        let empty = summarize_side(&none, &[0, 1], 4);
        assert_eq!((empty.wins, empty.win_rate), (0, 0.0));
    }

    #[test]
    fn a_side_of_one_has_the_participant_s_wins_and_interval() {
        let games = [
            Ranked(vec![1, 2]),
            Ranked(vec![2, 1]),
            Ranked(vec![1, 1]),
            Ranked(vec![1, 2]),
            Ranked(vec![1, 2, 3]),
            Ranked(vec![2, 1, 1]),
            Ranked(vec![1, 1, 2]),
        ];
        for (games, n) in [(&games[..4], 2), (&games[4..], 3)] {
            for j in 0..n {
                let one = summarize(games, j, &[], &[]);
                let side = summarize_side(games, &[j], n);
                assert_eq!(
                    (side.games, side.wins, side.win_rate),
                    (one.games, one.wins, one.win_rate)
                );
                assert_eq!(
                    (side.win_rate_lo, side.win_rate_hi),
                    (one.win_rate_lo, one.win_rate_hi)
                );
            }
        }
    }
}

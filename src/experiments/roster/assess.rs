//! The assessment of a roster: the classifier trained on its members' training-level games
//! and tested on their held-out games (see the [module docs](super)).

use super::play::{GameRow, MemberGames};
use crate::classify::{Lda, Standardiser};
use crate::error::Result;

/// How well the personalities of a roster's first `size` members are told apart.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeResult {
    /// The number of members.
    pub size: usize,
    /// The mean over the members of [`SizeResult::member_1`].
    pub accuracy_1: f64,
    /// The mean over the members of [`SizeResult::member_3`].
    pub accuracy_3: f64,
    /// Per member, the share of its test games, each named alone, named as it.
    pub member_1: Vec<f64>,
    /// Per member, the share of its groups of three test games named as it.
    pub member_3: Vec<f64>,
    /// `confusion[i][j]`: test games of member `i` named as member `j`.
    pub confusion: Vec<Vec<u32>>,
    /// The statistics the classifier kept (those not constant in training).
    pub statistics: usize,
    /// The covariance's shrinkage intensity.
    pub shrinkage: f64,
}

/// Each statistic's mean over the games where it is defined (0 where it is in none).
fn defined_means(games: &[&GameRow], columns: usize) -> Vec<f64> {
    (0..columns)
        .map(|j| {
            let (sum, n) = games
                .iter()
                .filter_map(|g| g.stats[j])
                .fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
            if n == 0 { 0.0 } else { sum / n as f64 }
        })
        .collect()
}

/// A game's statistics with each undefined one replaced by `fill`'s.
fn filled(g: &GameRow, fill: &[f64]) -> Vec<f64> {
    g.stats
        .iter()
        .zip(fill)
        .map(|(v, f)| v.unwrap_or(*f))
        .collect()
}

/// Assesses the roster of the first `size` of `members` (at least 2, each with test games):
/// trains on their training games, tests on their test games.
///
/// # Errors
///
/// As [`Lda::fit`]: [`crate::Error::Config`] naming `classifier` if no statistic varies over
/// the training games.
pub fn assess(members: &[MemberGames], size: usize) -> Result<SizeResult> {
    let members = &members[..size.min(members.len())];
    let columns = members
        .iter()
        .flat_map(|m| m.train.iter().chain(&m.test))
        .map(|g| g.stats.len())
        .next()
        .unwrap_or(0);
    let train: Vec<&GameRow> = members.iter().flat_map(|m| &m.train).collect();
    let labels: Vec<usize> = members
        .iter()
        .enumerate()
        .flat_map(|(k, m)| std::iter::repeat_n(k, m.train.len()))
        .collect();
    let fill = defined_means(&train, columns);
    let raw: Vec<Vec<f64>> = train.iter().map(|g| filled(g, &fill)).collect();
    let scale = Standardiser::fit(&raw);
    let x: Vec<Vec<f64>> = raw.iter().map(|r| scale.apply(r)).collect();
    let lda = Lda::fit(&x, &labels, members.len())?;
    let k = members.len();
    let mut confusion = vec![vec![0u32; k]; k];
    let mut member_1 = Vec::with_capacity(k);
    let mut member_3 = Vec::with_capacity(k);
    for (i, m) in members.iter().enumerate() {
        let z: Vec<Vec<f64>> = m
            .test
            .iter()
            .map(|g| scale.apply(&filled(g, &fill)))
            .collect();
        for g in &z {
            confusion[i][lda.name(&[g])] += 1;
        }
        member_1.push(f64::from(confusion[i][i]) / z.len().max(1) as f64);
        let groups: Vec<usize> = z
            .chunks_exact(3)
            .map(|group| {
                let refs: Vec<&[f64]> = group.iter().map(Vec::as_slice).collect();
                lda.name(&refs)
            })
            .collect();
        let right = groups.iter().filter(|&&j| j == i).count();
        member_3.push(right as f64 / groups.len().max(1) as f64);
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    Ok(SizeResult {
        size: k,
        accuracy_1: mean(&member_1),
        accuracy_3: mean(&member_3),
        member_1,
        member_3,
        confusion,
        statistics: scale.kept.len(),
        shrinkage: lda.shrinkage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member whose statistic 0 is `centre` plus a small wobble, statistic 1 constant and
    /// statistic 2 undefined in every other game.
    fn member(cell: usize, centre: f64) -> MemberGames {
        let game = |i: usize| GameRow {
            level: "1".into(),
            won: false,
            draw: false,
            score: 0.0,
            stats: vec![
                Some(centre + (i % 5) as f64 * 0.1),
                Some(7.0),
                i.is_multiple_of(2).then_some(i as f64),
            ],
        };
        MemberGames {
            cell,
            spec: "x".into(),
            train: (0..10).map(game).collect(),
            test: (0..7).map(game).collect(),
        }
    }

    #[test]
    fn distinct_members_are_named_from_one_game_and_constant_statistics_dropped() {
        let ms = [member(1, 0.0), member(2, 10.0), member(3, 20.0)];
        let r = assess(&ms, 3).unwrap();
        assert_eq!((r.accuracy_1, r.accuracy_3), (1.0, 1.0));
        assert_eq!(r.confusion, [[7, 0, 0], [0, 7, 0], [0, 0, 7]]);
        assert_eq!(r.statistics, 2, "the constant statistic is dropped");
        // The first two members alone.
        let two = assess(&ms, 2).unwrap();
        assert_eq!(two.confusion, [[7, 0], [0, 7]]);
    }

    #[test]
    fn identical_members_are_named_no_better_than_chance_in_the_mean() {
        let ms = [member(1, 0.0), member(2, 0.0)];
        let r = assess(&ms, 2).unwrap();
        // Same games: every game is named as the first member (ties go to it).
        assert_eq!(r.confusion, [[7, 0], [7, 0]]);
        assert_eq!(r.accuracy_1, 0.5);
        assert_eq!(r.member_3, [1.0, 0.0]);
    }
}

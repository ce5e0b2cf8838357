//! Scoring a player against a baseline: the games of one genome (or one validated elite),
//! each kept as a [`GameResult`] and aggregated into an [`Evaluation`] ([`aggregate`]): win
//! rate, mean score and the features' means and spreads.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use crate::agent::{Agent, SearchSupport};
use crate::agents::build_agent_at;
use crate::arena::initial_state;
use crate::arena::series::{Series, SeriesGame};
use crate::error::{Error, Result};
use crate::features::{Feature, GameView, mean_sd};
use crate::game::Game;
use crate::qd::Evaluation;
use crate::rng::derive_seed;

/// Plays `player` (participant 0) against N − 1 copies of `baseline` (N: the players of the
/// level) on every level × `repetitions`, seats rotated every game, games in parallel;
/// game `i`'s seed is `derive_seed(seed, &[i])`. Fitness is the share of games the player
/// finished alone in first place (draws and shared first places are not wins), the tie-break
/// its mean final score; descriptors are the `features` of its games; `extra` holds the mean
/// and standard deviation of the score and the share of games nobody won alone.
///
/// Levels with different player counts (Puerto Rico's `2p` … `5p`) are played as one series
/// per run of consecutive levels with the same count, each seeded by
/// `derive_seed(seed, &[index of its first level])`; levels of one count are one series
/// seeded by `seed`, as above. Relative file paths in the specs are relative to `base`
/// (a run directory; `""`: the working folder), [`build_agent_at`].
///
/// # Errors
///
/// A spec the game cannot build; [`Error::Config`] naming `levels` if there are none.
#[allow(clippy::too_many_arguments)] // what is played, by whom, where their files are, measured how
pub fn evaluate_player<G: SearchSupport>(
    game: &G,
    levels: &[(String, G::Level)],
    repetitions: u32,
    seed: u64,
    player: &str,
    baseline: &str,
    features: &[Feature],
    base: &Path,
) -> Result<Evaluation> {
    let results: Vec<GameResult> = player_games(
        game,
        levels,
        repetitions,
        seed,
        player,
        baseline,
        features,
        base,
    )?
    .into_iter()
    .map(|(_, r)| r)
    .collect();
    Ok(aggregate(&results, features.len()))
}

/// The games [`evaluate_player`] plays, each with its level's name and the player's result,
/// in game order (level-major, each series of [`count_runs`] in turn).
///
/// # Errors
///
/// As [`evaluate_player`].
#[allow(clippy::too_many_arguments)] // as evaluate_player
pub fn player_games<G: SearchSupport>(
    game: &G,
    levels: &[(String, G::Level)],
    repetitions: u32,
    seed: u64,
    player: &str,
    baseline: &str,
    features: &[Feature],
    base: &Path,
) -> Result<Vec<(String, GameResult)>> {
    if levels.is_empty() {
        return Err(Error::config("levels", "no level to play"));
    }
    let build = |s: &str| -> Result<Box<dyn Agent<G>>> { build_agent_at(game, s, base) };
    let mut results = Vec::new();
    for (range, seed) in count_runs(&player_counts(game, levels), seed) {
        let group = &levels[range];
        let series = Series::new(group.to_vec(), repetitions, seed);
        let specs = line_up(game, group, player, baseline)?;
        let games = series.run(game, &specs, build, |_, _| {})?;
        results.extend(
            games
                .iter()
                .map(|g| (g.level.clone(), GameResult::of(game, g, features))),
        );
    }
    Ok(results)
}

/// The number of players of each of `levels`.
pub fn player_counts<G: Game>(game: &G, levels: &[(String, G::Level)]) -> Vec<usize> {
    levels
        .iter()
        .map(|(_, l)| game.num_players(&initial_state(game, l, 0)))
        .collect()
}

/// The series of an evaluation whose levels have the player `counts`: the index ranges of the
/// runs of consecutive levels with the same count, each with its series seed — `seed` if there
/// is one run, else `derive_seed(seed, &[index of the run's first level])`.
pub fn count_runs(counts: &[usize], seed: u64) -> Vec<(Range<usize>, u64)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=counts.len() {
        if i == counts.len() || counts[i] != counts[start] {
            runs.push(start..i);
            start = i;
        }
    }
    let one = runs.len() == 1;
    runs.into_iter()
        .map(|r| {
            let s = if one {
                seed
            } else {
                derive_seed(seed, &[r.start as u64])
            };
            (r, s)
        })
        .collect()
}

/// What the evaluation keeps of one game of the player (participant 0): enough for
/// [`aggregate`] to build the [`Evaluation`] of several.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The player finished alone in first place.
    pub won: bool,
    /// Nobody finished alone in first place (a draw, a shared first place, a capped match).
    pub draw: bool,
    /// The player's final score.
    pub score: f64,
    /// Each feature's value in this game ([`Feature::per_game`]; `None` where it is not
    /// defined, e.g. a won-games-only feature in a lost game).
    pub features: Vec<Option<f64>>,
}

impl GameResult {
    /// The result of participant 0 in `g`, with the values of `features`.
    pub fn of<G: Game>(game: &G, g: &SeriesGame<G::Action>, features: &[Feature]) -> Self {
        let info = game.info();
        let view = GameView {
            won: g.winner == Some(0),
            rank: g.rank(0),
            record: g.player(0),
            stat_names: info.stats,
            action_kinds: info.action_kinds,
        };
        GameResult {
            won: view.won,
            draw: g.is_draw(),
            score: g.score(0),
            features: features.iter().map(|f| f.per_game(&view)).collect(),
        }
    }
}

/// The evaluation of a player's games (each with `features` feature values), in game order:
/// fitness is the share won, the tie-break the mean score; each descriptor the mean and
/// population standard deviation of a feature over the games where it is defined (0, 0 where
/// none is), and the number of those games ([`Evaluation::descriptor_counts`], which the
/// engine keeps only with adaptive sampling); `extra` holds the score's standard deviation and
/// the share of games nobody won alone.
pub fn aggregate(results: &[GameResult], features: usize) -> Evaluation {
    let n = results.len() as u32;
    let wins = results.iter().filter(|r| r.won).count() as u32;
    let draws = results.iter().filter(|r| r.draw).count() as u32;
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let (score_mean, score_sd) = mean_sd(&scores);
    let mut descriptor_counts = Vec::with_capacity(features);
    let (descriptor_means, descriptor_spreads) = (0..features)
        .map(|k| {
            let xs: Vec<f64> = results
                .iter()
                .filter_map(|r| r.features.get(k).copied().flatten())
                .collect();
            descriptor_counts.push(xs.len() as u32);
            mean_sd(&xs)
        })
        .unzip();
    let mut extra = BTreeMap::new();
    extra.insert("score_sd".to_string(), score_sd);
    extra.insert("draw_rate".to_string(), draws as f64 / n.max(1) as f64);
    Evaluation {
        fitness: wins as f64 / n.max(1) as f64,
        tie_break: score_mean,
        games: n,
        wins,
        draws,
        descriptor_means,
        descriptor_spreads,
        descriptor_counts,
        extra,
    }
}

/// The participants of an evaluation: `player`, then `baseline` in every other seat of the
/// first level (N − 1 copies for N players).
///
/// # Errors
///
/// [`Error::Config`] naming `levels` if there is no level.
pub fn line_up<G: Game>(
    game: &G,
    levels: &[(String, G::Level)],
    player: &str,
    baseline: &str,
) -> Result<Vec<String>> {
    let (_, level) = levels
        .first()
        .ok_or_else(|| Error::config("levels", "no level to play"))?;
    let players = game.num_players(&initial_state(game, level, 0));
    let mut specs = vec![player.to_string()];
    specs.resize(players.max(1), baseline.to_string());
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregation_counts_wins_and_draws_and_skips_undefined_features() {
        let r = |won, draw, score, f: Option<f64>| GameResult {
            won,
            draw,
            score,
            features: vec![Some(score), f],
        };
        let e = aggregate(
            &[r(true, false, 10.0, Some(4.0)), r(false, true, 20.0, None)],
            2,
        );
        assert_eq!((e.games, e.wins, e.draws), (2, 1, 1));
        assert_eq!((e.fitness, e.tie_break), (0.5, 15.0));
        assert_eq!(e.descriptor_means, [15.0, 4.0]);
        assert_eq!(e.descriptor_spreads, [5.0, 0.0]);
        assert_eq!(e.descriptor_counts, [2, 1]);
        assert_eq!(e.extra["score_sd"], 5.0);
        assert_eq!(e.extra["draw_rate"], 0.5);
        let none = aggregate(&[], 2);
        assert_eq!((none.games, none.fitness), (0, 0.0));
        assert_eq!(none.descriptor_means, [0.0, 0.0]);
    }

    #[test]
    fn levels_of_one_count_are_one_series_with_the_evaluation_seed() {
        assert_eq!(count_runs(&[4, 4], 9), [(0..2, 9)]);
        assert_eq!(
            count_runs(&[3, 4, 4, 3], 9),
            [
                (0..1, derive_seed(9, &[0])),
                (1..3, derive_seed(9, &[1])),
                (3..4, derive_seed(9, &[3])),
            ]
        );
        assert!(count_runs(&[], 9).is_empty());
    }
}

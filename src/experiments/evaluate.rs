//! Scoring a player against a baseline: the games of one genome (or one validated elite),
//! aggregated into an [`Evaluation`]: win rate, mean score and the features' means and spreads.

use std::collections::BTreeMap;

use crate::agent::{Agent, SearchSupport};
use crate::agents::AgentSpec;
use crate::agents::build_agent;
use crate::arena::initial_state;
use crate::arena::series::Series;
use crate::error::{Error, Result};
use crate::features::{Feature, GameView, mean_sd};
use crate::game::Game;
use crate::qd::Evaluation;

/// Plays `player` (participant 0) against N − 1 copies of `baseline` (N: the players of the
/// first level) on every level × `repetitions`, seats rotated every game, games in parallel;
/// game `i`'s seed is `derive_seed(seed, &[i])`. Fitness is the share of games the player
/// finished alone in first place (draws and shared first places are not wins), the tie-break
/// its mean final score; descriptors are the `features` of its games; `extra` holds the mean
/// and standard deviation of the score and the share of games nobody won alone.
///
/// # Errors
///
/// A spec the game cannot build, no levels, or levels with different player counts.
pub fn evaluate_player<G: SearchSupport>(
    game: &G,
    levels: &[(String, G::Level)],
    repetitions: u32,
    seed: u64,
    player: &str,
    baseline: &str,
    features: &[Feature],
) -> Result<Evaluation> {
    let series = Series::new(levels.to_vec(), repetitions, seed);
    let specs = line_up(game, levels, player, baseline)?;
    let build = |s: &str| -> Result<Box<dyn Agent<G>>> { build_agent(game, s) };
    let games = series.run(game, &specs, build, |_, _| {})?;
    let info = game.info();
    let views: Vec<GameView<'_>> = games
        .iter()
        .map(|g| GameView {
            won: g.winner == Some(0),
            rank: g.rank(0),
            record: g.player(0),
            stat_names: info.stats,
            action_kinds: info.action_kinds,
        })
        .collect();
    let n = games.len() as u32;
    let wins = games.iter().filter(|g| g.winner == Some(0)).count() as u32;
    let draws = games.iter().filter(|g| g.is_draw()).count() as u32;
    let scores: Vec<f64> = games.iter().map(|g| g.score(0)).collect();
    let (score_mean, score_sd) = mean_sd(&scores);
    let (descriptor_means, descriptor_spreads) =
        features.iter().map(|f| f.aggregate(&views)).unzip();
    let mut extra = BTreeMap::new();
    extra.insert("score_sd".to_string(), score_sd);
    extra.insert("draw_rate".to_string(), draws as f64 / n.max(1) as f64);
    Ok(Evaluation {
        fitness: wins as f64 / n.max(1) as f64,
        tie_break: score_mean,
        games: n,
        wins,
        draws,
        descriptor_means,
        descriptor_spreads,
        extra,
    })
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

/// `player` with `weights=[name=value,...]` added (the evolved weights of a genome).
///
/// # Errors
///
/// [`crate::Error::Config`] if the result does not parse (a malformed player spec).
pub fn with_weights(player: &AgentSpec, names: &[String], values: &[f64]) -> Result<String> {
    let weights: Vec<String> = names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n}={v:?}"))
        .collect();
    let base = player.to_string();
    let text = match base.strip_suffix(')') {
        Some(open) => format!("{open},weights=[{}])", weights.join(",")),
        None => format!("{base}(weights=[{}])", weights.join(",")),
    };
    AgentSpec::parse(&text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_added_to_any_player_spec() {
        let names = ["spawn.defensive".to_string(), "research.naval".to_string()];
        let p = AgentSpec::parse("pmcts(bias=true,budget=50)").unwrap();
        assert_eq!(
            with_weights(&p, &names, &[1.0, 0.25]).unwrap(),
            "pmcts(bias=true,budget=50,weights=[spawn.defensive=1.0,research.naval=0.25])"
        );
        let bare = AgentSpec::parse("pmcts").unwrap();
        assert_eq!(
            with_weights(&bare, &names[..1], &[0.5]).unwrap(),
            "pmcts(weights=[spawn.defensive=0.5])"
        );
    }
}

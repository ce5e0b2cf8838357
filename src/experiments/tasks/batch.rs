//! A batch as game tasks and back: [`TaskPlan::tasks`] turns the genomes MAP-Elites asks for
//! into one [`Task`] per game (`ask`), [`gather`] turns the games' results into the
//! genomes' evaluations, in index order (`tell`). `evolve` does both in one process.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use super::task::{Task, TaskResult};
use crate::agent::AgentSpec;
use crate::arena::series::seat_of;
use crate::error::{Error, Result};
use crate::experiments::evaluate::{GameResult, aggregate, count_runs};
use crate::qd::{Batch, Evaluation};
use crate::rng::derive_seed;

/// What every task of a run shares.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskPlan {
    /// The registered game.
    pub game_name: String,
    /// The run's rules, every default explicit.
    pub rules: toml::Table,
    /// The training levels' names, in play order.
    pub levels: Vec<String>,
    /// Games per level and genome (with adaptive sampling, the most a genome plays:
    /// `max_repetitions`).
    pub repetitions: u32,
    /// Players per game on each level, parallel to `levels`.
    pub players: Vec<usize>,
    /// The run seed.
    pub seed: u64,
    /// The player spec, without weights.
    pub player: AgentSpec,
    /// The baseline spec.
    pub baseline: AgentSpec,
    /// The evolved scripts, in genome order.
    pub scripts: Vec<String>,
    /// The features, in axis order.
    pub features: Vec<String>,
    /// The run's config hash ([`super::task::config_hash`]).
    pub config_hash: String,
}

impl TaskPlan {
    /// Games per genome: levels × repetitions.
    pub fn games_per_evaluation(&self) -> usize {
        self.levels.len() * self.repetitions as usize
    }

    /// The tasks of `batch`, genome by genome in index order ([`Batch::plays`]), each
    /// genome's games in order.
    ///
    /// Genome `i` (its evaluation index) plays its game `j` on level `j / repetitions`, seed
    /// `derive_seed(derive_seed(run seed, &[i]), &[j])`, participant `p` in seat
    /// `(j + p) mod players`: the games `evaluate_player` seeded by `derive_seed(run seed,
    /// &[i])` plays, one by one. Levels of different player counts are its series
    /// ([`count_runs`]): then `j` counts from the first game of the level's series and the
    /// series seed replaces `derive_seed(run seed, &[i])`. With adaptive sampling a play is a
    /// round of repetitions `a..b`: the games `j` of each level whose repetition
    /// `j mod repetitions` is in `a..b`, `repetitions` being the most a genome plays; a
    /// genome's rounds together are the first games of that full evaluation, level by level.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] naming `weights` if the player spec cannot take a genome's
    /// weights ([`AgentSpec::with_script_weights`]).
    pub fn tasks(&self, batch: &Batch) -> Result<Vec<Task>> {
        let reps = self.repetitions.max(1) as usize;
        let plays = batch.plays();
        let mut tasks = Vec::with_capacity(plays.len() * self.games_per_evaluation());
        for play in plays {
            let evaluation = play.index;
            let player = self
                .player
                .clone()
                .with_script_weights(&self.scripts, &play.genome.values)?;
            let round = play
                .repetitions
                .map_or(0..reps, |r| r.start as usize..(r.end as usize).min(reps));
            let seed = derive_seed(self.seed, &[evaluation]);
            tasks.extend(self.series_tasks(batch.number(), evaluation, &player, seed, round));
        }
        Ok(tasks)
    }

    /// The tasks of one genome, evaluation `evaluation` of batch `batch`, played by `player`
    /// (its spec with the genome's weights) as `evaluate_player` seeded by `seed` plays it, the
    /// repetitions `round` of each level (see [`TaskPlan::tasks`]).
    pub fn series_tasks(
        &self,
        batch: u64,
        evaluation: u64,
        player: &AgentSpec,
        seed: u64,
        round: Range<usize>,
    ) -> Vec<Task> {
        let reps = self.repetitions.max(1) as usize;
        let mut tasks = Vec::new();
        for (levels, series_seed) in count_runs(&self.players, seed) {
            let n = self.players[levels.start].max(1);
            let games = (0..levels.len())
                .flat_map(|level| round.clone().map(move |rep| level * reps + rep));
            for i in games {
                let j = levels.start * reps + i;
                tasks.push(Task {
                    batch,
                    evaluation,
                    game: j as u32,
                    game_name: self.game_name.clone(),
                    rules: self.rules.clone(),
                    level: self.levels[j / reps].clone(),
                    seed: derive_seed(series_seed, &[i as u64]),
                    seats: (0..n).map(|p| seat_of(i, p, n)).collect(),
                    player: player.clone(),
                    baseline: self.baseline.clone(),
                    features: self.features.clone(),
                    config_hash: self.config_hash.clone(),
                });
            }
        }
        tasks
    }
}

/// A result and where it was read (`file:line`), for messages.
pub type Found = (TaskResult, String);

/// The evaluations of the genomes of `tasks` (in evaluation-index order), each aggregated
/// from its games' results in game order.
///
/// Every task must have exactly one result carrying its batch and config hash, and every
/// result must belong to a task and be a game of the run ([`TaskResult::check`]: one value per
/// feature, finite numbers, not both won and drawn).
///
/// # Errors
///
/// An error naming `results_dir` and listing the malformed results and those that belong to
/// no task of the batch or to another configuration (with their `file:line`), the tasks
/// without a result and the tasks with more than one result.
pub fn gather(
    tasks: &[Task],
    found: Vec<Found>,
    features: usize,
    results_dir: &Path,
) -> Result<Vec<Evaluation>> {
    let mut evaluations = Vec::new();
    let mut games: Vec<GameResult> = Vec::new();
    let mut current = None;
    for result in results_by_task(tasks, found, features, results_dir)? {
        if current.is_some_and(|e| e != result.evaluation) {
            evaluations.push(aggregate(&games, features));
            games.clear();
        }
        current = Some(result.evaluation);
        games.push(result.game_result());
    }
    if current.is_some() {
        evaluations.push(aggregate(&games, features));
    }
    Ok(evaluations)
}

/// The result of every task of `tasks`, in (evaluation, game) order, checked as [`gather`]
/// checks them.
///
/// # Errors
///
/// As [`gather`].
pub fn results_by_task(
    tasks: &[Task],
    found: Vec<Found>,
    features: usize,
    results_dir: &Path,
) -> Result<Vec<TaskResult>> {
    let expected: BTreeMap<(u64, u32), &Task> = tasks.iter().map(|t| (t.key(), t)).collect();
    let mut by_key: BTreeMap<(u64, u32), Vec<Found>> = BTreeMap::new();
    let mut foreign = Vec::new();
    let mut malformed = Vec::new();
    for (result, origin) in found {
        if let Err(why) = result.check(features) {
            malformed.push(format!("{origin} ({why})"));
            continue;
        }
        match expected.get(&result.key()) {
            Some(t) if t.batch == result.batch && t.config_hash == result.config_hash => {
                by_key
                    .entry(result.key())
                    .or_default()
                    .push((result, origin));
            }
            Some(t) if t.config_hash != result.config_hash => foreign.push(format!(
                "{origin} (config hash {}, the run's is {})",
                result.config_hash, t.config_hash
            )),
            _ => foreign.push(format!(
                "{origin} (batch {}, evaluation {}, game {}: not a task of this batch)",
                result.batch, result.evaluation, result.game
            )),
        }
    }
    let missing: Vec<(u64, u32)> = expected
        .keys()
        .filter(|k| !by_key.contains_key(k))
        .copied()
        .collect();
    let doubles: Vec<String> = by_key
        .iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|((e, g), v)| {
            let origins: Vec<&str> = v.iter().map(|(_, o)| o.as_str()).collect();
            format!("evaluation {e} game {g} ({})", origins.join(", "))
        })
        .collect();
    let mut problems = Vec::new();
    if !malformed.is_empty() {
        problems.push(format!(
            "{} malformed result(s): {}",
            malformed.len(),
            shortened(&malformed)
        ));
    }
    if !missing.is_empty() {
        problems.push(format!(
            "{} of {} tasks have no result: {}",
            missing.len(),
            tasks.len(),
            describe_keys(&missing)
        ));
    }
    if !foreign.is_empty() {
        problems.push(format!(
            "{} foreign result(s): {}",
            foreign.len(),
            shortened(&foreign)
        ));
    }
    if !doubles.is_empty() {
        problems.push(format!(
            "{} task(s) with more than one result: {}",
            doubles.len(),
            shortened(&doubles)
        ));
    }
    if !problems.is_empty() {
        return Err(Error::data(results_dir, 0, problems.join("; ")));
    }
    Ok(by_key.into_values().map(|mut v| v.remove(0).0).collect())
}

/// `evaluation 131 (games 0, 5-7), evaluation 132 (games 0-19)`, at most ten evaluations.
fn describe_keys(keys: &[(u64, u32)]) -> String {
    let mut groups: Vec<(u64, Vec<u32>)> = Vec::new();
    for &(e, g) in keys {
        match groups.last_mut() {
            Some((last, games)) if *last == e => games.push(g),
            _ => groups.push((e, vec![g])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(e, games)| format!("evaluation {e} (games {})", ranges(games)))
        .collect();
    shortened(&parts)
}

/// Sorted numbers as ranges: `0, 5-7`.
fn ranges(xs: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The first ten items joined, with how many more there are.
fn shortened(items: &[String]) -> String {
    let mut s = items
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > 10 {
        s += &format!(" and {} more", items.len() - 10);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::tasks::task::config_hash;

    fn task(evaluation: u64, game: u32) -> Task {
        Task {
            batch: 2,
            evaluation,
            game,
            game_name: "g".into(),
            rules: toml::Table::new(),
            level: "l".into(),
            seed: 0,
            seats: vec![0, 1],
            player: AgentSpec::parse("p").unwrap(),
            baseline: AgentSpec::parse("b").unwrap(),
            features: vec!["f".into()],
            config_hash: config_hash("c"),
        }
    }

    fn result(t: &Task, won: bool) -> Found {
        let r = TaskResult::new(
            t,
            GameResult {
                won,
                draw: false,
                score: f64::from(t.game),
                features: vec![Some(1.0)],
            },
        );
        (r, format!("r:{}", t.game))
    }

    #[test]
    fn results_in_any_order_make_the_evaluations_in_index_order() {
        let tasks: Vec<Task> = (0..2)
            .flat_map(|e| (0..3).map(move |g| task(10 + e, g)))
            .collect();
        let mut found: Vec<Found> = tasks
            .iter()
            .map(|t| result(t, t.evaluation == 11))
            .collect();
        found.reverse();
        let ev = gather(&tasks, found, 1, Path::new("d")).unwrap();
        assert_eq!(ev.len(), 2);
        assert_eq!((ev[0].wins, ev[1].wins, ev[1].games), (0, 3, 3));
        assert_eq!(ev[0].tie_break, 1.0);
    }

    #[test]
    fn missing_foreign_and_double_results_are_named() {
        let tasks: Vec<Task> = (0..8).map(|g| task(10, g)).collect();
        let mut found: Vec<Found> = tasks[..4].iter().map(|t| result(t, true)).collect();
        found.push(result(&tasks[0], true));
        let mut other = task(10, 5);
        other.config_hash = config_hash("other");
        found.push(result(&other, true));
        found.push(result(&task(99, 0), true));
        let msg = gather(&tasks, found, 1, Path::new("results"))
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("results: "), "{msg}");
        assert!(
            msg.contains("4 of 8 tasks have no result: evaluation 10 (games 4-7)"),
            "{msg}"
        );
        assert!(
            msg.contains("2 foreign result(s): r:5 (config hash"),
            "{msg}"
        );
        assert!(
            msg.contains("evaluation 99, game 0: not a task of this batch"),
            "{msg}"
        );
        assert!(
            msg.contains("1 task(s) with more than one result: evaluation 10 game 0 (r:0, r:0)"),
            "{msg}"
        );
    }

    #[test]
    fn results_that_cannot_be_games_of_the_run_are_named_by_line() {
        let tasks: Vec<Task> = (0..3).map(|g| task(10, g)).collect();
        let mut found: Vec<Found> = tasks.iter().map(|t| result(t, false)).collect();
        found[0].0.features = vec![];
        found[1].0.won = true;
        found[1].0.draw = true;
        found[2].0.score = f64::NAN;
        let msg = gather(&tasks, found, 1, Path::new("results"))
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("results: 3 malformed result(s): "), "{msg}");
        assert!(
            msg.contains("r:0 (0 feature value(s), the run has 1 feature(s))"),
            "{msg}"
        );
        assert!(msg.contains("r:1 (both won and draw are true)"), "{msg}");
        assert!(msg.contains("r:2 (the score is NaN"), "{msg}");
        // Their tasks have no (valid) result.
        assert!(msg.contains("3 of 3 tasks have no result"), "{msg}");
    }

    #[test]
    fn ranges_fold_runs() {
        assert_eq!(ranges(&[0, 5, 6, 7, 9]), "0, 5-7, 9");
        assert_eq!(ranges(&[]), "");
    }
}

//! The two line formats of a distributed batch: a [`Task`] (one game to play, everything a
//! stateless worker needs), written as a [`TaskLine`], and its [`TaskResult`] (what the
//! archive needs of the game), one JSON object per line.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::agent::{AgentSpec, Value};
use crate::error::{Error, Result};
use crate::experiments::evaluate::GameResult;
use crate::rng::hash_bytes;

/// One game of a batch: genome `evaluation`'s game `game`, with the seats, the seed and the
/// agents it is played with. The specs are parsed: the genome's weights stay numbers from
/// the batch to the agent; a task file holds them as text ([`TaskLine`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The batch (0-based).
    pub batch: u64,
    /// The genome's global evaluation index.
    pub evaluation: u64,
    /// The game's index among the genome's games (level-major: `level × repetitions + rep`).
    pub game: u32,
    /// The registered game (`tribes`, `prismata`, …).
    pub game_name: String,
    /// The run's `[rules]` table.
    pub rules: toml::Table,
    /// The level, as the run config names it (a built-in name, a seed or a file path).
    pub level: String,
    /// The game's seed.
    pub seed: u64,
    /// `seats[j]`: the seat of participant `j` (0: the player, then the baselines).
    pub seats: Vec<usize>,
    /// The player: the run's player spec with the genome's weights as its `weights` field
    /// ([`AgentSpec::with_script_weights`]).
    pub player: AgentSpec,
    /// The baseline spec, in every other seat.
    pub baseline: AgentSpec,
    /// The features to measure, in axis order.
    pub features: Vec<String>,
    /// [`config_hash`] of the run's resolved `config.toml`.
    pub config_hash: String,
}

impl Task {
    /// The participants' specs: the player, then the baseline in every other seat.
    pub fn specs(&self) -> Vec<&AgentSpec> {
        let mut specs = vec![&self.player];
        specs.resize(self.seats.len().max(1), &self.baseline);
        specs
    }

    /// What identifies the task in its batch: (evaluation, game).
    pub fn key(&self) -> (u64, u32) {
        (self.evaluation, self.game)
    }
}

/// A [`Task`] as a line of a task file: the specs as text (the player's weights written with
/// a point, `{:#}`), and the player's weights once more as a list, for readers of the file
/// (playing reads them from `player`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskLine {
    /// [`Task::batch`].
    pub batch: u64,
    /// [`Task::evaluation`].
    pub evaluation: u64,
    /// [`Task::game`].
    pub game: u32,
    /// [`Task::game_name`].
    pub game_name: String,
    /// [`Task::rules`].
    pub rules: toml::Table,
    /// [`Task::level`].
    pub level: String,
    /// [`Task::seed`].
    pub seed: u64,
    /// [`Task::seats`].
    pub seats: Vec<usize>,
    /// [`Task::player`] as text.
    pub player: String,
    /// [`Task::baseline`] as text.
    pub baseline: String,
    /// The values of the player's `weights`, in its order.
    pub weights: Vec<f64>,
    /// [`Task::features`].
    pub features: Vec<String>,
    /// [`Task::config_hash`].
    pub config_hash: String,
}

impl From<&Task> for TaskLine {
    fn from(t: &Task) -> Self {
        let weights = t
            .player
            .fields()
            .iter()
            .find_map(|(k, v)| match v {
                Value::Weights(ws) if k == "weights" => Some(ws.iter().map(|&(_, w)| w).collect()),
                _ => None,
            })
            .unwrap_or_default();
        TaskLine {
            batch: t.batch,
            evaluation: t.evaluation,
            game: t.game,
            game_name: t.game_name.clone(),
            rules: t.rules.clone(),
            level: t.level.clone(),
            seed: t.seed,
            seats: t.seats.clone(),
            player: format!("{:#}", t.player),
            baseline: t.baseline.to_string(),
            weights,
            features: t.features.clone(),
            config_hash: t.config_hash.clone(),
        }
    }
}

impl TaskLine {
    /// The task this line holds, its specs parsed (`weights` is not read).
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] if the player or the baseline spec does not parse.
    pub fn task(&self) -> Result<Task> {
        Ok(Task {
            batch: self.batch,
            evaluation: self.evaluation,
            game: self.game,
            game_name: self.game_name.clone(),
            rules: self.rules.clone(),
            level: self.level.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            player: AgentSpec::parse(&self.player)?,
            baseline: AgentSpec::parse(&self.baseline)?,
            features: self.features.clone(),
            config_hash: self.config_hash.clone(),
        })
    }

    /// What identifies the task in its batch: (evaluation, game).
    pub fn key(&self) -> (u64, u32) {
        (self.evaluation, self.game)
    }
}

/// The result of one [`Task`]: its identity and the player's game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskResult {
    /// The task's batch.
    pub batch: u64,
    /// The task's evaluation index.
    pub evaluation: u64,
    /// The task's game index.
    pub game: u32,
    /// The player finished alone in first place.
    pub won: bool,
    /// Nobody finished alone in first place.
    pub draw: bool,
    /// The player's final score.
    pub score: f64,
    /// Each feature's value in this game (`null` where it is not defined).
    pub features: Vec<Option<f64>>,
    /// The task's config hash.
    pub config_hash: String,
}

impl TaskResult {
    /// The result of `task` with the player's game `game`.
    pub fn new(task: &Task, game: GameResult) -> Self {
        TaskResult {
            batch: task.batch,
            evaluation: task.evaluation,
            game: task.game,
            won: game.won,
            draw: game.draw,
            score: game.score,
            features: game.features,
            config_hash: task.config_hash.clone(),
        }
    }

    /// The player's game, for [`crate::experiments::evaluate::aggregate`].
    pub fn game_result(&self) -> GameResult {
        GameResult {
            won: self.won,
            draw: self.draw,
            score: self.score,
            features: self.features.clone(),
        }
    }

    /// What identifies the result's task in its batch: (evaluation, game).
    pub fn key(&self) -> (u64, u32) {
        (self.evaluation, self.game)
    }

    /// Checks that the result can be a game of a run with `features` features: one value
    /// (or `null`) per feature, each finite; a finite score; not both won and drawn.
    ///
    /// # Errors
    ///
    /// What is wrong, in words (the caller names the file and line).
    pub fn check(&self, features: usize) -> std::result::Result<(), String> {
        if self.features.len() != features {
            return Err(format!(
                "{} feature value(s), the run has {features} feature(s)",
                self.features.len()
            ));
        }
        if let Some(x) = self.features.iter().flatten().find(|x| !x.is_finite()) {
            return Err(format!("a feature value is {x}, not a finite number"));
        }
        if !self.score.is_finite() {
            return Err(format!("the score is {}, not a finite number", self.score));
        }
        if self.won && self.draw {
            return Err("both won and draw are true".to_string());
        }
        Ok(())
    }
}

/// The fingerprint tasks and results carry: 16 hex digits of a stable hash of the resolved
/// `config.toml`, so that `tell` refuses results played for another configuration.
pub fn config_hash(config_toml: &str) -> String {
    format!("{:016x}", hash_bytes(config_toml.as_bytes()))
}

/// `items` as JSON lines, one object per line.
pub fn to_lines<T: Serialize>(items: &[T]) -> String {
    let mut text = String::new();
    for item in items {
        // Serialising these plain structs cannot fail.
        text += &serde_json::to_string(item).unwrap_or_default();
        text.push('\n');
    }
    text
}

/// Parses JSON lines (blank lines skipped) read from `path`, each with its 1-based line
/// number.
///
/// # Errors
///
/// [`Error::Data`] naming `path` and the line of the first line that is not a valid object.
pub fn parse_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
    text: &str,
) -> Result<Vec<(T, usize)>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .map(|item| (item, i + 1))
                .map_err(|e| Error::data(path, i + 1, e.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> Task {
        let names = ["a".to_string(), "b".to_string()];
        Task {
            batch: 3,
            evaluation: 41,
            game: 7,
            game_name: "tribes".into(),
            rules: toml::Table::new(),
            level: "1590191438878".into(),
            seed: u64::MAX - 5,
            seats: vec![1, 0],
            player: AgentSpec::parse("pmcts(budget=5)")
                .unwrap()
                .with_script_weights(&names, &[1.0, 0.25])
                .unwrap(),
            baseline: AgentSpec::parse("mcts").unwrap(),
            features: vec!["attacks".into()],
            config_hash: config_hash("x"),
        }
    }

    #[test]
    fn tasks_and_results_survive_their_lines_exactly() {
        let t = task();
        let text = to_lines(&[TaskLine::from(&t)]);
        let specs = r#""player":"pmcts(budget=5,weights=[a=1.0,b=0.25])","baseline":"mcts","#;
        assert!(text.contains(specs), "{text}");
        assert!(text.contains(r#","weights":[1.0,0.25],"#), "{text}");
        let back: Vec<(TaskLine, usize)> = parse_lines(Path::new("t"), &text).unwrap();
        assert_eq!(back[0].1, 1);
        assert_eq!(back[0].0, TaskLine::from(&t));
        assert_eq!(back[0].0.task().unwrap(), t);
        assert_eq!(
            t.specs().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            ["pmcts(budget=5,weights=[a=1,b=0.25])", "mcts"]
        );
        let r = TaskResult::new(
            &t,
            GameResult {
                won: true,
                draw: false,
                score: 0.1 + 0.2,
                features: vec![None, Some(1.0 / 3.0)],
            },
        );
        let back: Vec<(TaskResult, usize)> = parse_lines(
            Path::new("r"),
            &format!("\n{}", to_lines(std::slice::from_ref(&r))),
        )
        .unwrap();
        assert_eq!(back, vec![(r.clone(), 2)]);
        assert_eq!(r.key(), t.key());
    }

    #[test]
    fn a_bad_line_is_named() {
        let text = format!("{}{{\"batch\": 1}}\n", to_lines(&[TaskLine::from(&task())]));
        let e = parse_lines::<TaskLine>(Path::new("tasks.jsonl"), &text).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("tasks.jsonl") && msg.contains("line 2"),
            "{msg}"
        );
    }

    #[test]
    fn the_config_hash_is_stable() {
        assert_eq!(config_hash("name = \"a\"\n"), config_hash("name = \"a\"\n"));
        assert_ne!(config_hash("a"), config_hash("b"));
        assert_eq!(config_hash("").len(), 16);
    }
}

//! What the workflows need of Puerto Rico: [`GameKit`] for [`PuertoRicoGame`]. A level is a
//! player count (`2p` … `5p`); the seed of each game deals the plantations.

use super::PuertoRicoGame;
use super::features::FEATURES;
use super::rules::STATS;
use super::setup::{Level, Options};
use super::state::MAX_PLAYERS;
use crate::agent::SearchSupport;
use crate::bench::AgentBenchSet;
use crate::error::{Error, Result};
use crate::features::Composite;
use crate::kit::GameKit;

impl GameKit for PuertoRicoGame {
    type Rules = Options;

    fn with_rules(options: Options) -> Self {
        PuertoRicoGame { options }
    }

    /// `2p` … `5p` (or the bare count, `2` … `5`).
    fn load_level(name: &str) -> Result<Level> {
        let count = name.strip_suffix('p').unwrap_or(name);
        let players: usize = count.parse().map_err(|_| {
            Error::config(
                "levels",
                format!("`{name}` is not a Puerto Rico level: give the player count, 2p to 5p"),
            )
        })?;
        Level::new(players).map_err(|_| {
            Error::config(
                "levels",
                format!("level `{name}`: Puerto Rico takes 2 to 5 players, not {players}"),
            )
        })
    }

    /// One level per player count, `2p` to `5p`.
    fn builtin_levels() -> Vec<String> {
        (2..=MAX_PLAYERS).map(|n| format!("{n}p")).collect()
    }

    /// Puerto Rico has no generated levels: fresh seeds deal fresh games.
    fn generate_level(_seed: u64) -> Result<Level> {
        Err(Error::config(
            "--levels",
            "Puerto Rico has no level generator: its levels are the player counts 2p to 5p, \
             and every game's seed deals its own plantations",
        ))
    }

    fn level_facts(level: &Level) -> Vec<(&'static str, String)> {
        vec![("players", level.players().to_string())]
    }

    fn describe_level(level: &Level) -> String {
        format!(
            "Puerto Rico for {} players (the seed of each game shuffles the plantations)\n",
            level.players()
        )
    }

    /// The Scripted AI's play-style factors (`sa0(weights=[…])`).
    fn default_genome() -> Vec<&'static str> {
        crate::agents::puerto_rico::PREFERENCES.to_vec()
    }

    /// The portfolio's scripts (P-MCTS) and the Scripted AI's play-style factors.
    fn genome_names(&self) -> Vec<&'static str> {
        let mut names = self.portfolio().script_names().to_vec();
        names.extend(crate::agents::puerto_rico::PREFERENCES);
        names
    }

    fn features() -> &'static [Composite] {
        &FEATURES
    }

    fn game_columns() -> &'static [&'static str] {
        &STATS
    }

    /// The paper's AIs and our searches, one decision each at the start of a 4-player game
    /// and through SA-0 self-play; whole SA-0 games.
    fn bench_agents() -> AgentBenchSet {
        AgentBenchSet {
            warmup: "sa0",
            turn_starts: false,
            decisions: &[
                ("sa0_ms", "sa0"),
                ("thinking100_ms", "thinking(budget=250)"),
                ("mcts_ms", "mcts(budget=2000)"),
                ("pmcts_ms", "pmcts(budget=2000,bias=true)"),
            ],
            game: [("sa0", "sa0"), ("sa0", "sa0")],
        }
    }
}

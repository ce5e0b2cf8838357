//! What the workflows need of Puerto Rico: [`GameKit`] for [`PuertoRicoGame`]. A level is a
//! player count (`2p` … `5p`); the seed of each game deals the plantations.

use super::PuertoRicoGame;
use super::features::FEATURES;
use super::rules::STATS;
use super::setup::{Level, Options};
use super::state::{MAX_PLAYERS, State};
use crate::agent::SearchSupport;
use crate::bench::{AgentBenchSet, BenchTarget};
use crate::error::{Error, Result};
use crate::features::Composite;
use crate::game::Player;
use crate::kit::GameKit;
use crate::rng::Rng;

/// The factor floor of the steering player ([`GameKit::steering_player`]): with floor 0 a
/// factor 0 rules a role or building group out and the map's extreme styles lose
/// (`results/puerto-rico-personas/`); at 0.25 a factor 0 weighs a choice down instead, and
/// every re-played elite but one wins at least 25 % (`results/puerto-rico-personas-floor/`).
pub const STEERING_FLOOR: f64 = 0.25;

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
                "level",
                format!("`{name}` is not a Puerto Rico level: give the player count, 2p to 5p"),
            )
        })?;
        Level::new(players).map_err(|_| {
            Error::config(
                "level",
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
        crate::games::puerto_rico::ai::PREFERENCES.to_vec()
    }

    /// Puerto Rico's own `persona` (the Thinking AI whose factors shape its rollouts and its
    /// role and building choices; its `budget` the config's, else its own) with its style
    /// strength calibrated and a factor floor of [`STEERING_FLOOR`] (a factor 0 weighs a
    /// choice down instead of ruling it out), over the play-style factors. The generic
    /// Portfolio MCTS bred a defaults-only shipper × builder map whose roster of 8 is named
    /// from one held-out game 44.6 % of the time; this player's, 68.8 %, every member winning
    /// at least half its re-played games (`results/defaults/README.md`).
    fn steering_player(budget: Option<u64>) -> Option<(String, Vec<&'static str>)> {
        let budget = budget.map(|b| format!("budget={b},")).unwrap_or_default();
        Some((
            format!("persona({budget}style=auto,floor={STEERING_FLOOR})"),
            crate::games::puerto_rico::ai::PREFERENCES.to_vec(),
        ))
    }

    /// The portfolio's scripts (P-MCTS) and the Scripted AI's play-style factors.
    fn genome_names(&self) -> Vec<&'static str> {
        let mut names = self.portfolio().script_names().to_vec();
        names.extend(crate::games::puerto_rico::ai::PREFERENCES);
        names
    }

    fn features() -> &'static [Composite] {
        &FEATURES
    }

    fn game_columns() -> &'static [&'static str] {
        &STATS
    }

    /// `bench fm`: random games of 3 and 5 players (the speed targets' sizes); `bench agents`
    /// and `bench learned`: 4 players, the paper's table size.
    fn bench_levels(target: BenchTarget) -> Vec<String> {
        match target {
            BenchTarget::Fm => vec!["3p".into(), "5p".into()],
            BenchTarget::Agents | BenchTarget::Learned => vec!["4p".into()],
        }
    }

    /// The paper's AIs and our searches, one role decision each on the first state of a game
    /// and through SA-0 self-play (10 games, every other role decision of rounds 5–30); whole
    /// SA-0 games, and the paper's two Thinking AIs (budget 250, its "100 ms") against two
    /// SA-0s.
    fn bench_agents() -> AgentBenchSet {
        AgentBenchSet {
            warmup: "sa0",
            warmup_games: 10,
            turn_starts: false,
            phase: Some(0),
            every: 2,
            decisions: &[
                ("sa0_us", "sa0"),
                ("thinking100_ms", "thinking(budget=250)"),
                ("mcts_ms", "mcts(budget=2000)"),
                ("pmcts_ms", "pmcts(budget=2000,bias=true)"),
            ],
            first_decisions: true,
            games: &[
                &[
                    ("sa0", "sa0"),
                    ("sa0", "sa0"),
                    ("sa0", "sa0"),
                    ("sa0", "sa0"),
                ],
                &[
                    ("thinking", "thinking(budget=250)"),
                    ("sa0", "sa0"),
                    ("thinking", "thinking(budget=250)"),
                    ("sa0", "sa0"),
                ],
            ],
            game_unit: "ms",
        }
    }

    /// `vp_lead`: whether the player leads in [`super::ai::PuertoRicoKnowledge`]'s worth (VP
    /// plus possessions) over the best opponent (1 ahead, 0 behind, ½ level): the search
    /// knowledge's own verdict.
    fn predictors(&self) -> &'static [&'static str] {
        &["vp_lead"]
    }

    fn predict(&self, state: &State, player: Player, _rng: &mut Rng, out: &mut Vec<f32>) {
        out.clear();
        let lead = self.knowledge().evaluate(self, state, state, player);
        out.push(crate::learn::encoding::sign_prediction(lead));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentSpec;
    use crate::games::puerto_rico::ai::PREFERENCES;

    #[test]
    fn the_steering_player_is_persona_with_its_style_to_calibrate_over_the_factors() {
        let (spec, genome) = PuertoRicoGame::steering_player(Some(200)).unwrap();
        assert_eq!(spec, "persona(budget=200,style=auto,floor=0.25)");
        assert_eq!(genome, PREFERENCES);
        let (spec, _) = PuertoRicoGame::steering_player(None).unwrap();
        assert_eq!(spec, "persona(style=auto,floor=0.25)");
        let parsed = AgentSpec::parse(&spec).unwrap();
        let style = PuertoRicoGame::default().game_style_field(&parsed).unwrap();
        assert_eq!(style.field, "style");
        assert!(style.ladder.contains(&0.5));
    }
}

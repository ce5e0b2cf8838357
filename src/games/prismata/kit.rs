//! What the workflows need of Prismata: [`GameKit`] for [`PrismataGame`].

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::features::{FEATURES, STATS};
use super::game::DEFAULT_PLY_CAP;
use super::level::DEFAULT_RANDOM_UNITS;
use super::state::State;
use super::{Level, Library, PrismataGame};
use crate::bench::AgentBenchSet;
use crate::board::{Drawing, LegendEntry};
use crate::error::Result;
use crate::features::Composite;
use crate::game::Player;
use crate::kit::GameKit;
use crate::rng::Rng;

/// Prismata's rules options: the `[rules]` table of a config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrismataRules {
    /// Plies after which a game is a draw (the C++ driver's 200).
    pub ply_cap: u32,
    /// End games as the open-source engine does (no "all doomed" win; player 1 wins when
    /// both sides are eliminated) instead of the retail game (spec §9), to compare with the
    /// C++ bots.
    pub open_engine: bool,
}

impl Default for PrismataRules {
    fn default() -> Self {
        PrismataRules {
            ply_cap: DEFAULT_PLY_CAP,
            open_engine: false,
        }
    }
}

/// Seeds of the built-in levels: "Base + 8" sets drawn from 1 to this.
pub const BUILTIN_LEVELS: u64 = 100;

impl GameKit for PrismataGame {
    type Rules = PrismataRules;

    fn with_rules(rules: PrismataRules) -> Self {
        let mut game = PrismataGame::default();
        game.ply_cap = rules.ply_cap;
        game.open_engine = rules.open_engine;
        game
    }

    /// `SEED`, `N:SEED` or `units:NAME,...` ([`Level::load`]).
    fn load_level(name: &str) -> Result<Level> {
        Level::load(Library::builtin(), name)
    }

    /// The "Base + 8" sets of seeds 1 to [`BUILTIN_LEVELS`].
    fn builtin_levels() -> Vec<String> {
        (1..=BUILTIN_LEVELS).map(|s| s.to_string()).collect()
    }

    /// The "Base + 8" set of `seed`.
    fn generate_level(seed: u64) -> Result<Level> {
        Level::random(Library::builtin(), DEFAULT_RANDOM_UNITS, seed)
    }

    fn level_facts(level: &Level) -> Vec<(&'static str, String)> {
        let lib = Library::builtin();
        let names: Vec<&str> = level
            .drawn
            .iter()
            .map(|&k| lib.get(k).name.as_str())
            .collect();
        vec![
            ("random units", level.drawn.len().to_string()),
            ("set", names.join(", ")),
        ]
    }

    fn describe_level(level: &Level) -> String {
        let lib = Library::builtin();
        let mut out = format!("Prismata level {}: the base set and\n", level.name);
        for &k in &level.drawn {
            let t = lib.get(k);
            out.push_str(&format!(
                "  {:<18} cost {:<8} hp {}\n",
                t.name,
                t.cost.to_string(),
                t.hp
            ));
        }
        out
    }

    fn features() -> &'static [Composite] {
        &FEATURES
    }

    fn game_columns() -> &'static [&'static str] {
        &STATS
    }

    /// The buy partial players of the shipped search bots' root portfolio.
    fn default_genome() -> Vec<&'static str> {
        crate::games::prismata::ai::support::DEFAULT_GENOME.to_vec()
    }

    /// The whole-turn Portfolio MCTS `PMCTS100` (its `traversals` the config's `budget`, else
    /// its own 40) with its style strength calibrated, over every phase's partial players.
    /// The generic Portfolio MCTS plans one action at a time and won 13 of 72 games against
    /// MediumAI at 2,000 FM calls (`sensitivity` of a defaults-only economy × aggression
    /// config at `persona=1`, 9 genomes × 8 games), while `PMCTS100(style=3)` over these
    /// players bred the hand-tuned map (`experiments/prismata-phases-style3.toml`).
    fn steering_player(budget: Option<u64>) -> Option<(String, Vec<&'static str>)> {
        let traversals = budget
            .map(|b| format!(",traversals={b}"))
            .unwrap_or_default();
        Some((
            format!("PMCTS100(style=auto{traversals})"),
            crate::games::prismata::ai::support::SCRIPTS.to_vec(),
        ))
    }

    /// The searching bots at their budgets, one decision each at the start of a turn (where
    /// they plan the whole turn) of MediumAI self-play: ExpertAI (Alpha-Beta, 400 playouts,
    /// "1 s" in the C++), UCT at the same budget, the "100 ms" searches and our Portfolio
    /// MCTS; whole Playout-vs-Playout games (the C++ engine's benchmark).
    fn bench_agents() -> AgentBenchSet {
        AgentBenchSet {
            warmup: "MediumAI",
            warmup_games: 1,
            turn_starts: true,
            phase: None,
            every: 10,
            decisions: &[
                ("expert_ms", "ExpertAI"),
                ("uct400_ms", "UCT100(traversals=400)"),
                ("ab100_ms", "AB100"),
                ("uct100_ms", "UCT100"),
                ("pmcts100_ms", "PMCTS100"),
            ],
            first_decisions: false,
            games: &[&[("playout", "Playout"), ("playout", "Playout")]],
            game_unit: "s",
        }
    }

    /// Each player's unit cards and the buy pool (`draw.rs`).
    fn draw(&self, state: &State) -> Drawing {
        super::draw::draw(self.library(), state)
    }

    fn legend() -> Vec<LegendEntry> {
        super::draw::legend()
    }

    /// `will_score`: the sign of the will score (spec §11.6; 1 ahead, 0 behind, ½ level);
    /// `playout`: the result of one playout by the `Playout` bot for both sides (spec
    /// §11.5), the papers' two hand-written evaluations.
    fn predictors(&self) -> &'static [&'static str] {
        &["will_score", "playout"]
    }

    fn predict(&self, state: &State, player: Player, rng: &mut Rng, out: &mut Vec<f32>) {
        use super::ai::{config::BotConfig, eval, heuristics::will_score};
        out.clear();
        let lib = self.library();
        let will = will_score(lib, state, player);
        out.push(crate::learn::encoding::sign_prediction(will));
        let Some(super::ai::bot::Planner::Sequence(playout)) =
            BotConfig::builtin().player("Playout")
        else {
            unreachable!("the built-in bots define the Playout player (tested)");
        };
        let result = eval::playout(lib, state, playout, rng);
        out.push(eval::win_credit(result.winner, player as u8) as f32);
    }

    fn describe_action(&self, state: &State, action: Action) -> String {
        super::draw::describe(self.library(), state, action)
    }
}

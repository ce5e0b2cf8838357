//! What the workflows need of Tribes: [`GameKit`] for [`TribesGame`].

use super::features::FEATURES;
use super::{Action, Level, State, Tech, TribeKind, TribesGame, TribesRules, builtin, levelgen};
use crate::arena::summary::SummaryColumn;
use crate::board::{Drawing, LegendEntry};
use crate::error::Result;
use crate::features::Composite;
use crate::game::Player;
use crate::games::tribes::ai::EVOLVED_WEIGHTS;
use crate::kit::GameKit;
use crate::rng::Rng;

/// The built-in quick start (`experiments/quickstart.toml`): use case I's map in small, about
/// 3 minutes on 2 cores; `playstyles evolve` runs it when given no config.
pub const QUICKSTART: &str = include_str!("../../../experiments/quickstart.toml");

/// The summary columns of the paper's Table I: share of the tech tree, cities, production.
static SUMMARY_COLUMNS: [SummaryColumn; 3] = [
    SummaryColumn {
        column: "techs_pct",
        stat: "techs",
        percent_of: Some(Tech::ALL.len() as f64),
        decimals: 1,
        short: "techs %",
    },
    SummaryColumn {
        column: "cities",
        stat: "cities",
        percent_of: None,
        decimals: 2,
        short: "cities",
    },
    SummaryColumn {
        column: "production",
        stat: "production",
        percent_of: None,
        decimals: 2,
        short: "prod",
    },
];

impl GameKit for TribesGame {
    type Rules = TribesRules;

    fn with_rules(rules: TribesRules) -> Self {
        TribesGame::new(rules)
    }

    /// A seed (a built-in level, or one made by the level generator) or a level file.
    fn load_level(name: &str) -> Result<Level> {
        Level::load(name)
    }

    /// The 25 levels of the paper ([`builtin::SEEDS`]).
    fn builtin_levels() -> Vec<String> {
        builtin::SEEDS.iter().map(u64::to_string).collect()
    }

    /// A generated two-tribe level, Xin-Xi against Imperius (the paper's tribes).
    fn generate_level(seed: u64) -> Result<Level> {
        Ok(levelgen::generate(
            seed,
            &[TribeKind::XinXi, TribeKind::Imperius],
        ))
    }

    fn level_facts(level: &Level) -> Vec<(&'static str, String)> {
        vec![
            ("size", level.size.to_string()),
            ("tribes", level.capitals.len().to_string()),
        ]
    }

    fn describe_level(level: &Level) -> String {
        level.render()
    }

    /// The 11 scripts of [`EVOLVED_WEIGHTS`] (spec §15.5).
    fn default_genome() -> Vec<&'static str> {
        EVOLVED_WEIGHTS.to_vec()
    }

    /// [`QUICKSTART`].
    fn quickstart() -> Option<&'static str> {
        Some(QUICKSTART)
    }

    fn features() -> &'static [Composite] {
        &FEATURES
    }

    fn game_columns() -> &'static [&'static str] {
        &["techs", "cities", "production", "kills"]
    }

    fn summary_columns() -> &'static [SummaryColumn] {
        &SUMMARY_COLUMNS
    }

    /// One part per tile (references to [`GameKit::board_defs`]), then the tribes' status
    /// lines (`draw.rs`).
    fn draw(&self, state: &State) -> Drawing {
        super::draw::draw(state)
    }

    fn board_defs() -> String {
        super::draw::defs()
    }

    fn legend() -> Vec<LegendEntry> {
        super::draw::legend()
    }

    fn describe_action(&self, state: &State, action: Action) -> String {
        super::draw::describe(state, action)
    }

    /// `score_lead`: whether the tribe's score, the game's verdict at the turn limit, leads
    /// the best opponent's (1 ahead, 0 behind, ½ level).
    fn predictors(&self) -> &'static [&'static str] {
        &["score_lead"]
    }

    fn predict(&self, state: &State, player: Player, _rng: &mut Rng, out: &mut Vec<f32>) {
        out.clear();
        let me = state.tribes[player].score;
        let best = (0..usize::from(state.num_tribes))
            .filter(|&t| t != player)
            .map(|t| state.tribes[t].score)
            .max()
            .unwrap_or(me);
        out.push(crate::learn::encoding::sign_prediction(f64::from(
            me - best,
        )));
    }
}

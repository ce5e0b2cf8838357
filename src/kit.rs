//! What the workflows need of a game beyond its rules and its search knowledge: [`GameKit`].
//!
//! A game implements [`crate::game::Game`] (the rules), [`SearchSupport`] (what the search
//! agents use: knowledge, portfolio, rule-based agent) and [`GameKit`] (rules options, levels,
//! the default genome, play-style features and the columns of tournament tables). Registered in
//! [`crate::games::visit_all`], it gets every subcommand of `playstyles`; a library user's game
//! that implements them gets every subcommand under its own name from its own binary
//! ([`crate::cli::main_for`]).

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::agent::SearchSupport;
use crate::arena::summary::SummaryColumn;
use crate::bench::{AgentBenchSet, BenchTarget};
use crate::board::{Drawing, LegendEntry, text_drawing};
use crate::error::Result;
use crate::features::Composite;
use crate::game::Player;
use crate::rng::Rng;

/// Everything the workflows (play, tournament, evolve, validate, tiers, plot, bench, levels)
/// need of a game besides its rules and search knowledge.
pub trait GameKit: SearchSupport {
    /// The rules options: the `[rules]` table of a config (every field optional: missing
    /// fields take their defaults).
    type Rules: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync;

    /// The game with these rules.
    fn with_rules(rules: Self::Rules) -> Self;

    /// Loads a level by name: whatever the game accepts on `--level` and in a config's
    /// `levels` (Tribes: a seed or a level file).
    ///
    /// # Errors
    ///
    /// [`crate::Error`] naming the level for one that cannot be read or made.
    fn load_level(name: &str) -> Result<Self::Level>;

    /// The names of the built-in levels (a config's `levels = "paper"`; the held-out levels
    /// of a validation are those a run did not train on), in order.
    fn builtin_levels() -> Vec<String>;

    /// A level from the game's generator (for `validate --levels generated:N`).
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] naming `--levels` if the game has no level generator.
    fn generate_level(seed: u64) -> Result<Self::Level>;

    /// Short facts about a level for `playstyles levels list`, as (column, value) pairs with
    /// the same columns for every level (Tribes: size, tribes).
    fn level_facts(level: &Self::Level) -> Vec<(&'static str, String)>;

    /// A human-readable picture of a level (`playstyles levels show`).
    fn describe_level(level: &Self::Level) -> String;

    /// The scripts whose weights MAP-Elites evolves when a config names none.
    fn default_genome() -> Vec<&'static str>;

    /// The player a run config without `player` breeds, and the scripts its genome weighs when
    /// the config names none, for the config's `[evaluation] budget` (`None`: not given); its
    /// declared style strength ([`SearchSupport::game_style_field`]) says `auto`, so that the
    /// run calibrates it. `None` (the default): the steering Portfolio MCTS over every script
    /// of the game's portfolio, which needs nothing of the game. A game whose own agent plays
    /// its personalities better than the generic search names it here.
    fn steering_player(budget: Option<u64>) -> Option<(String, Vec<&'static str>)> {
        let _ = budget;
        None
    }

    /// A run config (TOML text) that `evolve` and `ask` run when given none and this game
    /// comes first in the registry: a small map that finishes in minutes (none by default:
    /// then a bare `evolve` asks for a config).
    fn quickstart() -> Option<&'static str> {
        None
    }

    /// Every name a genome may weight (a config's `genome.scripts`): by default the
    /// portfolio's scripts; a game whose own agents take other weights adds their names.
    fn genome_names(&self) -> Vec<&'static str> {
        self.portfolio().script_names().to_vec()
    }

    /// The play-style features the game defines beyond the generic ones
    /// ([`crate::features`]), under their config names.
    fn features() -> &'static [Composite] {
        &[]
    }

    /// The statistics ([`crate::game::GameInfo::stats`]) `games.csv` keeps per participant
    /// (final values), in column order.
    fn game_columns() -> &'static [&'static str] {
        &[]
    }

    /// The columns of `summary.csv` after the generic ones: means of final statistics.
    fn summary_columns() -> &'static [SummaryColumn] {
        &[]
    }

    /// The levels `playstyles bench` measures when `--level` names none (default: the
    /// built-in levels).
    fn bench_levels(target: BenchTarget) -> Vec<String> {
        let _ = target;
        Self::builtin_levels()
    }

    /// The agents `playstyles bench agents` times (default: the generic search agents,
    /// [`AgentBenchSet::SEARCH`]).
    fn bench_agents() -> AgentBenchSet {
        AgentBenchSet::SEARCH
    }

    /// `state` drawn for pages (replays); by default the text of
    /// [`crate::game::Game::render`].
    fn draw(&self, state: &Self::State) -> Drawing {
        text_drawing(&self.render(state))
    }

    /// SVG definitions (elements with ids) that [`GameKit::draw`]'s parts and the legend refer
    /// to (`<use href="#id"/>`), which a page holds once in its `<defs>` (none by default).
    fn board_defs() -> String {
        String::new()
    }

    /// The symbols of [`GameKit::draw`]'s pictures and their meanings (none by default).
    fn legend() -> Vec<LegendEntry> {
        Vec::new()
    }

    /// The hand-written predictors of the result whose values a dataset keeps beside each
    /// position, for `train` to compare the network with (Prismata: the will score and one
    /// playout); none by default.
    fn predictors(&self) -> &'static [&'static str] {
        &[]
    }

    /// Replaces `out` with the values of [`GameKit::predictors`] for `player` in `state`, one
    /// each, in [0, 1] (above ½: `player` is predicted to win).
    fn predict(&self, state: &Self::State, player: Player, rng: &mut Rng, out: &mut Vec<f32>) {
        let _ = (state, player, rng);
        out.clear();
    }

    /// `action`, taken in `state`, in words for a replay's list of actions; by default its
    /// `Debug` form.
    fn describe_action(&self, state: &Self::State, action: Self::Action) -> String {
        let _ = state;
        format!("{action:?}")
    }
}

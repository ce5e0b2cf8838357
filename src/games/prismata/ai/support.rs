//! What the generic search agents and the agent factory get from Prismata: [`SearchSupport`]
//! for [`PrismataGame`] — the will-score evaluation, the partial players as a portfolio of
//! scripts, and the difficulty bots of a bot configuration by name.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::alpha_beta::LeafEval;
use super::bot::{Bot, Planner};
use super::config::BotConfig;
use super::eval::{MAX_LOOK_AHEAD, load_model};
use super::heuristics::will_score;
use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use super::sequence::{acts_now, play_phase};
use crate::agent::{
    Agent, AgentSpec, Assignment, Knowledge, Portfolio, SearchSupport, StyleField, Value,
};
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, read_text};
use crate::game::{Game, Player};
use crate::games::prismata::{Action, Library, PrismataGame, State, TurnPhase};
use crate::learn::encoding::{Count, Encoding};
use crate::limits::{MAX_BUDGET, MAX_PGS_ROUNDS};
use crate::rng::Rng;

/// The scripts of Prismata's portfolio for the generic Portfolio MCTS: partial players of the
/// built-in bot configuration, each proposing the next action of its phase.
pub const SCRIPTS: [&str; 12] = [
    "DefenseSolver",
    "DefenseSaveAttackers",
    "ACAvoidBreach_ChillSolver",
    "ACEasy",
    "AbilityDontAttackCombo",
    "BuyEconTech",
    "BuyTechEcon",
    "BCGAttack_Root",
    "BCGWill_Root",
    "BCGDef_Root",
    "BreachGreedyKnapsack",
    "BreachAttackValue",
];

/// The scripts MAP-Elites evolves by default: the buy partial players of the shipped search
/// bots' root portfolio (`HardIterator_Root`).
pub const DEFAULT_GENOME: [&str; 5] = [
    "BuyEconTech",
    "BuyTechEcon",
    "BCGAttack_Root",
    "BCGWill_Root",
    "BCGDef_Root",
];

/// The value of a finished game for its winner (and its negative for the loser), beyond any
/// will score.
const WIN_VALUE: f64 = 1000.0;

/// Prismata knowledge: the will score (spec §11.5); a finished game is worth ±1000.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrismataKnowledge;

impl Knowledge<PrismataGame> for PrismataKnowledge {
    fn evaluate(&self, game: &PrismataGame, _root: &State, s: &State, player: Player) -> f64 {
        if s.over {
            return match s.winner {
                Some(w) if w as usize == player => WIN_VALUE,
                Some(_) => -WIN_VALUE,
                None => 0.0,
            };
        }
        will_score(game.library(), s, player)
    }
}

/// The partial players of [`SCRIPTS`] as a portfolio: each script whose phase is being played
/// proposes the first action it would take (the buy scripts, the end of the action phase once
/// they would buy nothing more).
#[derive(Debug)]
pub struct PrismataScripts {
    players: Vec<(PpPhase, Arc<dyn PartialPlayer>)>,
}

impl PrismataScripts {
    /// The scripts of the built-in bot configuration.
    pub fn new() -> PrismataScripts {
        let config = BotConfig::builtin();
        PrismataScripts {
            players: SCRIPTS
                .iter()
                .map(|name| {
                    let p = config
                        .partial_player(name)
                        .unwrap_or_else(|| panic!("bots.toml defines {name} (tested)"))
                        .clone();
                    (p.phase(), p)
                })
                .collect(),
        }
    }
}

impl Default for PrismataScripts {
    fn default() -> Self {
        PrismataScripts::new()
    }
}

impl Portfolio<PrismataGame> for PrismataScripts {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPTS
    }

    fn assignments(
        &self,
        game: &PrismataGame,
        state: &State,
        rng: &mut Rng,
        out: &mut Vec<Assignment<Action>>,
    ) {
        out.clear();
        if game.turn(state) == crate::game::Turn::Terminal {
            return;
        }
        let start = TurnPlan::new(game.library(), state.clone());
        for (script, (phase, player)) in self.players.iter().enumerate() {
            // A click waiting for its target belongs to the ability players.
            if state.armed.is_some() && *phase != PpPhase::Ability {
                continue;
            }
            if !acts_now(&start, *phase) {
                continue;
            }
            let mut turn = start.clone();
            play_phase(player.as_ref(), *phase, &mut turn, rng);
            let Some(&action) = turn.actions.first() else {
                continue;
            };
            if !out.iter().any(|a| a.action == action) {
                out.push(Assignment {
                    action,
                    script: script as u16,
                    value: 1.0,
                });
            }
        }
        if out.is_empty() {
            // Only ability scripts act and none would click: the action phase ends.
            let end = Action::EndPhase;
            if state.phase == TurnPhase::Action && game.is_legal(state, end) {
                let script = self
                    .players
                    .iter()
                    .position(|(phase, _)| *phase == PpPhase::Buy)
                    .unwrap_or(0);
                out.push(Assignment {
                    action: end,
                    script: script as u16,
                    value: 1.0,
                });
            }
        }
    }
}

impl SearchSupport for PrismataGame {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(PrismataKnowledge)
    }

    /// Per side, each unit type's count (built and under construction apart) and each
    /// resource, plus the side to move ([`crate::games::prismata::encoding`]).
    fn encoding(&self) -> Option<Encoding> {
        Some(crate::games::prismata::encoding::encoding(self.library()))
    }

    fn encode(&self, state: &State, player: Player, out: &mut Vec<Count>) {
        crate::games::prismata::encoding::encode(self.library(), state, player, out);
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        static SCRIPTS_PORTFOLIO: OnceLock<Arc<PrismataScripts>> = OnceLock::new();
        SCRIPTS_PORTFOLIO
            .get_or_init(|| Arc::new(PrismataScripts::new()))
            .clone()
    }

    /// The players of the built-in bot configuration (or of the file in the spec's `config`
    /// field, a regular file of at most [`TEXT_LIMIT`] bytes), by name; `evaluations`
    /// (Alpha-Beta) and `traversals` (UCT, Portfolio MCTS) override their budgets (at most
    /// [`MAX_BUDGET`]), and a Portfolio MCTS player takes `weights=[name=w,...]` (by partial
    /// player), `c`, `bias`, `pruning`, `k_init_mult`, `t_mult`, `a_mult`, `b`, `style`,
    /// `persona_playouts` (both off unless set, [`super::pmcts::TurnPmcts`]) and the strength
    /// dial `blunder` (0 to 1); Portfolio
    /// Greedy Search takes `iterations` and `responses` (at most [`MAX_PGS_ROUNDS`]).
    fn game_agent(&self, spec: &mut AgentSpec) -> Option<Result<Box<dyn Agent<Self>>>> {
        let name = spec.name().to_string();
        let config_path = match spec.take_word("config", "") {
            Ok(path) => path,
            Err(e) => return Some(Err(e)),
        };
        if config_path.is_empty() {
            let planner = BotConfig::builtin().player(&name)?;
            return Some(bot(&name, planner.clone(), spec));
        }
        Some((|| {
            let text = read_text(Path::new(&config_path), TEXT_LIMIT)?;
            let config = BotConfig::parse(self.library(), &text, &config_path)?;
            let planner = config.player(&name).ok_or_else(|| {
                Error::config(
                    "agents",
                    format!(
                        "no player `{name}` in {config_path} (players: {})",
                        config.player_names().join(", ")
                    ),
                )
            })?;
            bot(&name, planner.clone(), spec)
        })())
    }

    /// The models a bot file's learned players name (`model = "FILE"`,
    /// [`super::config::rename_models`]).
    fn agent_file_paths(
        &self,
        origin: &str,
        text: &str,
        rename: &mut dyn FnMut(&str) -> Result<String>,
    ) -> Result<Option<String>> {
        super::config::rename_models(text, origin, rename)
    }

    fn game_agent_names(&self) -> Vec<String> {
        BotConfig::builtin()
            .player_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// The Portfolio MCTS players (built in, or of the spec's `config` file): `style`, the
    /// weight of the prior in the move played (the visited root move of highest
    /// `Q + style·prior`, [`super::pmcts::TurnPmcts`]), over [`STYLE_LADDER`]. A bot file that
    /// cannot be read declares none here; building the agent names what is wrong with it.
    fn game_style_field(&self, spec: &AgentSpec) -> Option<StyleField> {
        let name = spec.name();
        let is_pmcts = |c: &BotConfig| matches!(c.player(name), Some(Planner::Pmcts(_)));
        let file = spec.fields().iter().find_map(|(k, v)| match v {
            Value::Word(path) if k == "config" => Some(path.clone()),
            _ => None,
        });
        let pmcts = match file {
            None => is_pmcts(BotConfig::builtin()),
            Some(path) => read_text(Path::new(&path), TEXT_LIMIT)
                .and_then(|text| BotConfig::parse(self.library(), &text, &path))
                .is_ok_and(|c| is_pmcts(&c)),
        };
        pmcts.then_some(StyleField {
            field: "style",
            ladder: &STYLE_LADDER,
        })
    }
}

/// The values of `style` calibration tries for the Portfolio MCTS players. Measured on the
/// phases map (`results/sensitivity/prismata-phases-r12/`, `-style3-r12/`, 48 games a genome):
/// at 2 the extremes move economy 2.9 and aggression 3.3 cells, at 3 3.5 and 6.1, the passive
/// ends then winning 35 % and 19 % against MediumAI.
pub const STYLE_LADDER: [f64; 6] = [0.0, 1.0, 2.0, 3.0, 4.0, 6.0];

/// The spec's `model=FILE` and `playout_turns=K` for a planner that scores leaves with a
/// learned model; an error naming the field for a learned planner without a model, a file
/// that is not a Prismata model of this library, turns above [`MAX_LOOK_AHEAD`] or without a
/// playout player, or a model given to a planner that is not learned (`playout_turns` is then
/// left to the spec's unknown-field check).
fn set_model(name: &str, planner: &mut Planner, spec: &mut AgentSpec) -> Result<()> {
    let path = spec.take_word("model", "")?;
    let (slot, has_playout) = match planner {
        Planner::AlphaBeta(ab) => match &mut ab.eval {
            LeafEval::Learned(leaf, playout) => (Some(leaf), playout.is_some()),
            _ => (None, false),
        },
        Planner::Uct(uct) => (uct.leaf.learned_mut(), true),
        Planner::Pmcts(search) => (search.leaf.learned_mut(), true),
        _ => (None, false),
    };
    let Some(leaf) = slot else {
        if path.is_empty() {
            return Ok(());
        }
        return Err(Error::config(
            "model",
            format!("{name} does not evaluate with a learned model (eval = \"Learned\")"),
        ));
    };
    let turns = u64::from(leaf.turns);
    leaf.turns = spec.take_at_most("playout_turns", turns, u64::from(MAX_LOOK_AHEAD))? as u32;
    if leaf.turns > 0 && !has_playout {
        return Err(Error::config(
            "playout_turns",
            format!("{name} has no playout_player to look ahead with"),
        ));
    }
    match (&leaf.model, path.is_empty()) {
        (_, false) => {
            let model = load_model(Library::builtin(), &path)
                .map_err(|e| Error::config("model", e.to_string()))?;
            leaf.model = Some(model);
            Ok(())
        }
        (None, true) => Err(Error::config(
            "model",
            format!("{name} scores leaves with a learned model: give model=FILE"),
        )),
        (Some(_), true) => Ok(()),
    }
}

/// The spec's search budget `key` (`evaluations`, `traversals`): 1 to [`MAX_BUDGET`], or
/// `default` if the spec does not give it.
///
/// # Errors
///
/// [`Error::Config`] naming `key` for 0 or a number above [`MAX_BUDGET`].
fn budget(spec: &mut AgentSpec, key: &str, default: u64) -> Result<u64> {
    match spec.take_at_most(key, default, MAX_BUDGET)? {
        0 => Err(Error::config(key, "0: a search budget is at least 1")),
        n => Ok(n),
    }
}

/// A bot from its planner, with the spec's overrides.
fn bot(
    name: &str,
    mut planner: Planner,
    spec: &mut AgentSpec,
) -> Result<Box<dyn Agent<PrismataGame>>> {
    set_model(name, &mut planner, spec)?;
    match &mut planner {
        Planner::AlphaBeta(ab) => ab.evaluations = budget(spec, "evaluations", ab.evaluations)?,
        Planner::Uct(uct) => uct.traversals = budget(spec, "traversals", uct.traversals)?,
        Planner::Pmcts(search) => {
            search.traversals = budget(spec, "traversals", search.traversals)?;
            let p = &mut search.params;
            p.c = spec.take_positive("c", p.c)?;
            p.bias = spec.take_bool("bias", p.bias)?;
            p.pruning = spec.take_bool("pruning", p.pruning)?;
            p.k_init_mult = spec.take_positive("k_init_mult", p.k_init_mult)?;
            p.t_mult = spec.take_positive("t_mult", p.t_mult)?;
            p.a_mult = spec.take_positive("a_mult", p.a_mult)?;
            p.b = spec.take_positive("b", p.b)?;
            search.style = spec.take_in("style", search.style, f64::INFINITY)?;
            search.persona_playouts =
                spec.take_bool("persona_playouts", search.persona_playouts)?;
            p.blunder = spec.take_in("blunder", p.blunder, 1.0)?;
            let weights = spec.take_weights("weights")?;
            search
                .set_weights(weights)
                .map_err(|e| Error::config("weights", e))?;
        }
        Planner::Pgs(pgs) => {
            let rounds = |spec: &mut AgentSpec, key, default: u32| {
                spec.take_at_most(key, u64::from(default), MAX_PGS_ROUNDS)
                    .map(|n| n as u32)
            };
            pgs.iterations = rounds(spec, "iterations", pgs.iterations)?;
            pgs.responses = rounds(spec, "responses", pgs.responses)?;
        }
        Planner::Sequence(_) | Planner::RandomFromPortfolio(_) => {}
    }
    Ok(Box::new(Bot::new(name, planner)))
}

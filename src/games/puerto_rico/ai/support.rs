//! What the generic search agents and the agent factory get from Puerto Rico:
//! [`SearchSupport`] for [`PuertoRicoGame`] — a VP-and-possessions evaluation, the five
//! scripted personalities as a portfolio, and the paper's AIs by name (`sa0`, `thinking`).

use std::sync::{Arc, OnceLock};

use super::portfolio::PuertoRicoScripts;
use super::scripted::{ScriptedAi, ScriptedWeights};
use super::thinking::{ThinkingAi, ThinkingParams, possessions};
use crate::agent::{Agent, AgentSpec, Knowledge, Portfolio, SearchSupport, StyleField};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::games::puerto_rico::{PuertoRicoGame, State};
use crate::games::puerto_rico::{encoding, scoring};
use crate::learn::encoding::{Count, Encoding};
use crate::limits;

/// Possessions (eq. 2, in hundredths of a doubloon) per VP in [`PuertoRicoKnowledge`]: a
/// doubloon is worth 0.1 VP.
const POSSESSIONS_PER_VP: f64 = 1000.0;

/// What a finished game adds for its winner, in VP.
const WIN_BONUS: f64 = 50.0;

/// Puerto Rico knowledge for MCTS and P-MCTS: the player's VP lead over the best opponent
/// plus its lead in possessions (the Thinking AI's eq. 2, [`possessions`]) at 1,000 per VP;
/// a finished game adds 50 VP (`WIN_BONUS`) for the winner.
#[derive(Clone, Debug, Default)]
pub struct PuertoRicoKnowledge {
    params: ThinkingParams,
}

impl PuertoRicoKnowledge {
    fn worth(&self, s: &State, p: Player) -> f64 {
        f64::from(scoring::score(&s.players[p]))
            + possessions(s, p, &self.params) / POSSESSIONS_PER_VP
    }
}

impl Knowledge<PuertoRicoGame> for PuertoRicoKnowledge {
    fn evaluate(&self, game: &PuertoRicoGame, _root: &State, s: &State, player: Player) -> f64 {
        let mine = self.worth(s, player);
        let best = (0..s.n())
            .filter(|&q| q != player)
            .map(|q| self.worth(s, q))
            .fold(f64::NEG_INFINITY, f64::max);
        let won = game.outcome(s).is_some_and(|o| o.winner() == Some(player));
        mine - best + if won { WIN_BONUS } else { 0.0 }
    }
}

impl SearchSupport for PuertoRicoGame {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(PuertoRicoKnowledge::default())
    }

    /// Each seat's holdings and the shared supplies, from the view's seat
    /// ([`crate::games::puerto_rico::encoding`]).
    fn encoding(&self) -> Option<Encoding> {
        Some(encoding::encoding())
    }

    fn encode(&self, state: &State, player: Player, out: &mut Vec<Count>) {
        encoding::encode(self, state, player, out);
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        static SCRIPTS: OnceLock<Arc<PuertoRicoScripts>> = OnceLock::new();
        SCRIPTS
            .get_or_init(|| Arc::new(PuertoRicoScripts::new()))
            .clone()
    }

    /// The paper's AIs: `sa0` (alias `scripted`) takes `tau`, `greedy` (τ = ∞) and
    /// `weights=[role.captain=1.5,…]` (play-style factors, [`super::PREFERENCES`]);
    /// `thinking` takes `budget` (simulations at full time, 250 = "100 ms", at most
    /// [`limits::MAX_BUDGET`]), `clamp`,
    /// `progress_at_root`, `exact_end`, the rollouts' `weights`, `own_rollouts` and `style`
    /// (both off unless set); `persona` is `thinking` with `own_rollouts=true` and
    /// `style=`[`PERSONA_STYLE`] unless set: a personality whose `weights` shape its own
    /// rollouts and its role and building choices.
    fn game_agent(&self, spec: &mut AgentSpec) -> Option<Result<Box<dyn Agent<Self>>>> {
        match spec.name() {
            "sa0" | "scripted" => Some(scripted(spec).map(|w| {
                let agent: Box<dyn Agent<Self>> = Box::new(ScriptedAi::new(w));
                agent
            })),
            "thinking" => Some(thinking(spec, false).map(|p| {
                let agent: Box<dyn Agent<Self>> = Box::new(ThinkingAi::new(p));
                agent
            })),
            "persona" => Some(thinking(spec, true).map(|p| {
                let agent: Box<dyn Agent<Self>> = Box::new(ThinkingAi::new(p));
                agent
            })),
            _ => None,
        }
    }

    fn game_agent_names(&self) -> Vec<String> {
        ["sa0", "scripted", "thinking", "persona"]
            .map(String::from)
            .to_vec()
    }

    /// `persona` and `thinking`: `style`, λ of the persona term (`(mean − best)/sd + λ·ln f`),
    /// over [`STYLE_LADDER`]; SA-0 has none.
    fn game_style_field(&self, spec: &AgentSpec) -> Option<StyleField> {
        matches!(spec.name(), "persona" | "thinking").then_some(StyleField {
            field: "style",
            ladder: &STYLE_LADDER,
        })
    }
}

/// The values of `style` calibration tries for `persona` and `thinking`. Measured at budget 50
/// against three SA-0 (`results/sensitivity/puerto-rico-persona*/`): λ = 0.5 moves the
/// shipper × builder map's features 6–14 cells while its genomes win 42 % on average; a factor
/// of 2 is worth 0.69 λ standard deviations of a choice's simulations, so λ = 2 all but
/// dictates the favoured choices.
pub const STYLE_LADDER: [f64; 6] = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0];

/// The style strength of `persona` unless its spec sets `style`.
pub const PERSONA_STYLE: f64 = 1.0;

/// The Thinking AI's constants from the spec's fields; `persona` changes two defaults
/// (`own_rollouts` on, `style` [`PERSONA_STYLE`]).
fn thinking(spec: &mut AgentSpec, persona: bool) -> Result<ThinkingParams> {
    let mut params = ThinkingParams::default();
    params.budget =
        spec.take_at_most("budget", u64::from(params.budget), limits::MAX_BUDGET)? as u32;
    if params.budget == 0 {
        return Err(Error::config("budget", "must be at least 1"));
    }
    params.clamp_pos_weight = spec.take_bool("clamp", params.clamp_pos_weight)?;
    params.progress_at_root = spec.take_bool("progress_at_root", params.progress_at_root)?;
    params.exact_end = spec.take_bool("exact_end", params.exact_end)?;
    params.rollout_weights = scripted(spec)?;
    if spec.take_bool("own_rollouts", persona)? {
        params.opponent_weights = Some(ScriptedWeights::default());
    }
    let default_style = if persona { PERSONA_STYLE } else { 0.0 };
    params.style = spec.take_in("style", default_style, f64::INFINITY)?;
    params.floor = spec.take_in("floor", 0.0, 1.0)?;
    Ok(params)
}

/// SA-0's weights with the spec's `tau`, `greedy` and `weights` (play-style factors).
fn scripted(spec: &mut AgentSpec) -> Result<ScriptedWeights> {
    let mut w = ScriptedWeights::default();
    w.tau = spec.take_positive("tau", w.tau)?;
    if spec.take_bool("greedy", false)? {
        w.tau = f64::INFINITY;
    }
    let factors = spec.take_weights("weights")?;
    w.set_preferences(&factors)
        .map_err(|e| Error::config("weights", e))?;
    Ok(w)
}

//! Building the search agents of a game from spec strings (or TOML tables).

use crate::agent::{Agent, SearchSupport};
use crate::agents::compat::SearchCompat;
use crate::agents::mcts::{Mcts, MctsParams};
use crate::agents::osla::Osla;
use crate::agents::portfolio_mcts::{PmctsParams, PortfolioMcts, RolloutPolicy};
use crate::agents::rhea::{Rhea, RheaParams};
use crate::agents::{AgentSpec, EndTurnAgent, RandomAgent};
use crate::error::{Error, Result};

/// Every agent name a search-capable game knows.
pub const SEARCH_AGENT_NAMES: &[&str] = &[
    "random", "end_turn", "rule", "osla", "mcts", "rhea", "pmcts",
];

/// Builds an agent for `game` from a parsed spec: `random`, `end_turn`, `rule`,
/// `osla(budget)`, `mcts(budget,k,depth,rollouts,prioritize_root)`,
/// `rhea(budget,length,mutation)`,
/// `pmcts(budget,bias,pruning,weights=[script=w,...],c,depth,rollouts,rollout=sampled|exact,
/// k_init_mult,t_mult,a_mult,b)`.
/// Budgets default to 2000 FM calls; the game's `java_compat` switches the agents' Java quirks.
///
/// # Errors
///
/// [`Error::Config`] naming the field for an unknown agent (`agents`), a bad value, an unknown
/// field, or an unknown script in `weights`.
pub fn build_search_agent<G: SearchSupport>(
    game: &G,
    mut spec: AgentSpec,
) -> Result<Box<dyn Agent<G>>> {
    let compat = SearchCompat::of(game);
    let agent: Box<dyn Agent<G>> = match spec.name() {
        "random" => Box::new(RandomAgent::new()),
        "end_turn" => Box::new(EndTurnAgent::new()),
        "rule" => game
            .rule_agent()
            .ok_or_else(|| Error::config("agents", "this game has no rule-based agent"))?,
        "osla" => {
            let budget = budget(&mut spec)?;
            Box::new(Osla::new(budget, game.knowledge(), compat))
        }
        "mcts" => {
            let d = MctsParams::default();
            let params = MctsParams {
                budget: budget(&mut spec)?,
                k: positive(&mut spec, "k", d.k)?,
                depth: spec.take_u64("depth", d.depth as u64)? as u32,
                rollouts: spec.take_bool("rollouts", d.rollouts)?,
                prioritize_root: spec.take_bool("prioritize_root", d.prioritize_root)?,
            };
            Box::new(Mcts::new(params, game.knowledge(), compat))
        }
        "rhea" => {
            let d = RheaParams::default();
            let mutation = spec.take_f64("mutation", d.mutation)?;
            if !(0.0..=1.0).contains(&mutation) {
                return Err(Error::config("mutation", "must be within [0, 1]"));
            }
            let length = spec.take_u64("length", d.length as u64)? as usize;
            if length == 0 {
                return Err(Error::config("length", "must be at least 1"));
            }
            let params = RheaParams {
                budget: budget(&mut spec)?,
                length,
                mutation,
            };
            Box::new(Rhea::new(params, game.knowledge(), compat))
        }
        "pmcts" => {
            let d = PmctsParams::default();
            let params = PmctsParams {
                budget: budget(&mut spec)?,
                c: positive(&mut spec, "c", d.c)?,
                depth: spec.take_u64("depth", d.depth as u64)? as u32,
                rollouts: spec.take_bool("rollouts", d.rollouts)?,
                rollout: if compat.exact_rollouts() {
                    RolloutPolicy::Exact
                } else {
                    let w = spec.take_word("rollout", "sampled")?;
                    RolloutPolicy::from_name(&w).ok_or_else(|| {
                        Error::config("rollout", format!("`{w}` is not `exact` or `sampled`"))
                    })?
                },
                bias: spec.take_bool("bias", d.bias)?,
                pruning: spec.take_bool("pruning", d.pruning)?,
                k_init_mult: positive(&mut spec, "k_init_mult", d.k_init_mult)?,
                t_mult: positive(&mut spec, "t_mult", d.t_mult)?,
                a_mult: positive(&mut spec, "a_mult", d.a_mult)?,
                b: positive(&mut spec, "b", d.b)?,
            };
            let portfolio = game.portfolio();
            let names = portfolio.script_names();
            let mut weights = vec![0.5; names.len()];
            for (name, w) in spec.take_weights("weights")? {
                let i = names.iter().position(|n| *n == name).ok_or_else(|| {
                    Error::config(
                        "weights",
                        format!("unknown script `{name}` (known: {})", names.join(", ")),
                    )
                })?;
                if !w.is_finite() || w < 0.0 {
                    return Err(Error::config(
                        "weights",
                        format!("weight of `{name}` must be a finite number ≥ 0, got {w}"),
                    ));
                }
                weights[i] = w;
            }
            Box::new(PortfolioMcts::new(
                params,
                game.knowledge(),
                portfolio,
                weights,
                compat,
            ))
        }
        other => {
            return Err(Error::config(
                "agents",
                format!(
                    "unknown agent `{other}` (known agents: {})",
                    SEARCH_AGENT_NAMES.join(", ")
                ),
            ));
        }
    };
    spec.finish()?;
    Ok(agent)
}

fn budget(spec: &mut AgentSpec) -> Result<u64> {
    let b = spec.take_u64("budget", 2000)?;
    if b == 0 {
        return Err(Error::config("budget", "must be at least 1 FM call"));
    }
    Ok(b)
}

fn positive(spec: &mut AgentSpec, key: &str, default: f64) -> Result<f64> {
    let x = spec.take_f64(key, default)?;
    if !(x.is_finite() && x > 0.0) {
        return Err(Error::config(
            key,
            format!("must be a positive number, got {x}"),
        ));
    }
    Ok(x)
}

//! Agent implementations and the factory that builds them from spec strings.
//!
//! - [`random`]: uniform over legal actions;
//! - [`end_turn`]: always ends its turn (a passive baseline);
//! - [`spec`]: the `name(key=value,...)` spec strings agents are built from.

pub mod build;
pub mod compat;
pub mod end_turn;
pub mod mcts;
pub mod osla;
pub mod portfolio_mcts;
pub mod random;
pub mod rhea;
pub mod search_loop;
pub mod spec;
pub mod tree;
pub mod tribes;

pub use end_turn::EndTurnAgent;
pub use random::RandomAgent;
pub use spec::{AgentSpec, Value, parse_agent_list, split_agent_list};

use crate::agent::Agent;
use crate::error::{Error, Result};
use crate::game::Game;

/// The names [`build_agent`] knows.
pub const AGENT_NAMES: &[&str] = &["random", "end_turn"];

/// Builds an agent from a spec string such as `random`.
///
/// # Errors
///
/// [`Error::Config`] if the spec is malformed, names an unknown agent (field `agents`), or has
/// a bad or unknown field (named after the field).
pub fn build_agent<G: Game>(spec: &str) -> Result<Box<dyn Agent<G>>>
where
    G::Action: 'static,
{
    build_agent_from(AgentSpec::parse(spec)?)
}

/// Builds an agent from a parsed spec.
///
/// # Errors
///
/// As [`build_agent`], except for syntax errors.
pub fn build_agent_from<G: Game>(spec: AgentSpec) -> Result<Box<dyn Agent<G>>>
where
    G::Action: 'static,
{
    let agent: Box<dyn Agent<G>> = match spec.name() {
        "random" => Box::new(RandomAgent::new()),
        "end_turn" => Box::new(EndTurnAgent::new()),
        other => {
            return Err(Error::config(
                "agents",
                format!(
                    "unknown agent `{other}` (known agents: {})",
                    AGENT_NAMES.join(", ")
                ),
            ));
        }
    };
    // Agents with fields read them here with `spec.take_*` (the binding then becomes `mut`).
    spec.finish()?;
    Ok(agent)
}

//! The generic agents, which play any game that implements [`SearchSupport`], and the one
//! factory that builds them (and the game's own agents) from spec strings ([`AgentSpec`]).
//!
//! - [`random`]: uniform over legal actions; [`end_turn`]: always ends its turn (a passive
//!   baseline); `rule`: the game's rule-based agent ([`SearchSupport::rule_agent`]);
//! - [`osla`], [`mcts`], [`rhea`], [`portfolio_mcts`]: the search agents, over
//!   [`search_loop`], [`tree`] and [`arg_max`], with the Java reference's defects switched by
//!   [`compat`];
//! - [`roster`](mod@roster): `roster(file=…,name=…)`, a member of a roster file by name;
//! - [`script_table`]: a generic portfolio for Portfolio MCTS, from a game's table of scripts;
//! - [`build_agent`] (in `build.rs`): looks the spec's name up in one table of builders; each
//!   agent type reads its own fields ([`FromSpec`], in `from_spec.rs`), and a field nobody read
//!   is an error.

pub mod arg_max;
mod build;
pub mod compat;
pub mod end_turn;
mod from_spec;
pub mod mcts;
pub mod osla;
pub mod portfolio_mcts;
pub mod random;
pub mod rhea;
pub mod roster;
pub mod script_table;
pub mod search_loop;
pub mod tree;

pub use build::{build_agent, build_agent_at, build_agent_from, style_field};
pub use end_turn::EndTurnAgent;
pub use from_spec::FromSpec;
pub use random::RandomAgent;

#[cfg(doc)]
use crate::agent::{AgentSpec, SearchSupport};

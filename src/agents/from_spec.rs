//! What an agent type implements to be built from a spec: [`FromSpec`], which the builder
//! table ([`build_agent`](super::build_agent)) calls for each generic agent.

use super::compat::SearchCompat;
use crate::agent::{Agent, AgentSpec, SearchSupport};
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

/// An agent type that can be built from a spec.
pub trait FromSpec<G: SearchSupport>: Agent<G> + Sized + 'static {
    /// Builds the agent for `game`, taking its fields out of `spec` (absent ones get their
    /// defaults; the factory rejects any field left untaken), with the game's `compat`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field for a bad value.
    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self>;
}

//! What an agent type implements to be built from a spec: [`FromSpec`], which the builder
//! table ([`build_agent`](super::build_agent)) calls for each generic agent, and the knowledge a
//! search spec names ([`take_knowledge`]).

use std::sync::Arc;

use super::compat::SearchCompat;
use crate::agent::{Agent, AgentSpec, Knowledge, SearchSupport, StyleField};
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::learn::knowledge::LearnedKnowledge;

/// An agent type that can be built from a spec.
pub trait FromSpec<G: SearchSupport>: Agent<G> + Sized + 'static {
    /// The agent's style strength, if it has one ([`StyleField`]); none by default.
    const STYLE: Option<StyleField> = None;

    /// Builds the agent for `game`, taking its fields out of `spec` (absent ones get their
    /// defaults; the factory rejects any field left untaken), with the game's `compat`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field for a bad value.
    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self>;
}

/// The knowledge a search spec asks for: the game's own ([`SearchSupport::knowledge`]), or,
/// with `model=FILE`, the model's evaluation over the game's action hints
/// ([`LearnedKnowledge`]).
///
/// # Errors
///
/// [`Error::Config`] naming `model` for a value that is not a file name or a game without an
/// encoding; the model file's errors name the file.
pub fn take_knowledge<G: SearchSupport>(
    game: &G,
    spec: &mut AgentSpec,
) -> Result<Arc<dyn Knowledge<G>>> {
    let path = spec.take_word("model", "")?;
    if path.is_empty() {
        return Ok(game.knowledge());
    }
    Ok(Arc::new(LearnedKnowledge::load(game, &path)?))
}

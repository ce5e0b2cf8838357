//! The uniform random agent.

use rand::RngExt;

use super::compat::SearchCompat;
use super::from_spec::FromSpec;
use crate::agent::{Agent, AgentSpec, SearchSupport};
use crate::error::Result;
use crate::game::Game;
use crate::rng::Rng;

/// Plays an action drawn uniformly from all legal actions (ending the turn included).
///
/// The legal-action buffer is kept between calls, so acting does not allocate once the buffer
/// has grown to the largest action count seen.
#[derive(Clone, Debug)]
pub struct RandomAgent<A> {
    buf: Vec<A>,
}

impl<A> RandomAgent<A> {
    /// A random agent with an empty buffer.
    pub fn new() -> Self {
        RandomAgent { buf: Vec::new() }
    }
}

impl<A> Default for RandomAgent<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Agent<G> for RandomAgent<G::Action> {
    fn name(&self) -> String {
        "random".to_string()
    }

    /// # Panics
    ///
    /// If `state` has no legal action (it is terminal).
    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action> {
        game.legal_actions(state, &mut self.buf);
        assert!(
            !self.buf.is_empty(),
            "random agent asked to act in a state without legal actions"
        );
        Ok(self.buf[rng.random_range(0..self.buf.len())])
    }
}

/// Takes no fields.
impl<G: SearchSupport> FromSpec<G> for RandomAgent<G::Action> {
    fn from_spec(_: &G, _: &mut AgentSpec, _: SearchCompat) -> Result<Self> {
        Ok(Self::new())
    }
}

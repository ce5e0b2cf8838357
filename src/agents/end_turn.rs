//! The agent that does nothing but end its turn.

use super::compat::SearchCompat;
use super::from_spec::FromSpec;
use crate::agent::{Agent, AgentSpec, SearchSupport};
use crate::error::Result;
use crate::game::Game;
use crate::rng::Rng;

/// Always plays the first legal action that ends the turn ([`Game::ends_turn`]); if none is
/// legal, the first legal action. A passive baseline, and a way to make any game stall.
#[derive(Clone, Debug)]
pub struct EndTurnAgent<A> {
    buf: Vec<A>,
}

impl<A> EndTurnAgent<A> {
    /// An end-turn agent with an empty buffer.
    pub fn new() -> Self {
        EndTurnAgent { buf: Vec::new() }
    }
}

impl<A> Default for EndTurnAgent<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Agent<G> for EndTurnAgent<G::Action> {
    fn name(&self) -> String {
        "end_turn".to_string()
    }

    /// # Panics
    ///
    /// If `state` has no legal action (it is terminal).
    fn act(&mut self, game: &G, state: &G::State, _rng: &mut Rng) -> Result<G::Action> {
        game.legal_actions(state, &mut self.buf);
        Ok(match self.buf.iter().find(|&&a| game.ends_turn(a)) {
            Some(&a) => a,
            None => *self
                .buf
                .first()
                .expect("end-turn agent asked to act in a state without legal actions"),
        })
    }
}

/// Takes no fields.
impl<G: SearchSupport> FromSpec<G> for EndTurnAgent<G::Action> {
    fn from_spec(_: &G, _: &mut AgentSpec, _: SearchCompat) -> Result<Self> {
        Ok(Self::new())
    }
}

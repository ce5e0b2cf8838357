//! The agent API: what picks an action for a state.
//!
//! An [`Agent`] is called once per action (a turn may hold many actions) and sees only the game
//! API. Its randomness comes from the RNG it is handed, never from a thread RNG, so a match
//! replays exactly from its seed. Search agents count their budget in forward-model calls
//! ([`crate::game::ForwardModel`]); wall-clock limits are optional and never used in tests.

use crate::game::Game;
use crate::rng::Rng;

/// Picks actions for one seat of a game.
///
/// Agents are built from spec strings such as `random` or `mcts(budget=2000)` by
/// [`crate::agents::build_agent`].
pub trait Agent<G: Game>: Send {
    /// A short human-readable name (for tables and logs), e.g. `random`.
    fn name(&self) -> String;

    /// Chooses one legal action in `state`.
    ///
    /// `state` is what the acting player observes ([`Game::observe`]) and is never terminal;
    /// the returned action must be one of [`Game::legal_actions`] of `state`. All randomness
    /// must come from `rng`.
    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> G::Action;

    /// Called once before each match, so that an agent can drop what it remembered of the
    /// previous one. Does nothing by default.
    fn new_game(&mut self) {}
}

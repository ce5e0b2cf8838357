//! Puerto Rico agents (spec `puerto-rico.md` §5).
//!
//! - [`scripted`]: the Scripted AI "SA-0" of §5.2 ([`ScriptedAi`], its weight table
//!   [`ScriptedWeights`]) and the game-progress measure Pr of §5.3 ([`progress`]).
//! - [`thinking`]: the Thinking AI of §5.3/§5.5 ([`ThinkingAi`], its constants
//!   [`ThinkingParams`]), flat Monte Carlo with SA-0 rollouts, and its evaluations
//!   ([`possessions`] = Pos, [`difference`] = eq. 1, [`sell_value`]).
//! - [`portfolio`]: five scripted personalities, the portfolio of the generic Portfolio MCTS.
//! - [`support`]: [`crate::agent::SearchSupport`] for the game — the search agents' knowledge,
//!   the portfolio, and `sa0` / `thinking` by name for agent specs.

pub mod portfolio;
pub mod scripted;
pub mod support;
pub mod thinking;

pub use portfolio::PuertoRicoScripts;
pub use scripted::{PREFERENCES, ScriptedAi, ScriptedWeights, progress};
pub use support::PuertoRicoKnowledge;
pub use thinking::{ThinkingAi, ThinkingParams, difference, possessions, sell_value};

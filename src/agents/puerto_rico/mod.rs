//! Puerto Rico agents (spec `puerto-rico.md` §5).
//!
//! - [`scripted`]: the Scripted AI "SA-0" of §5.2 ([`ScriptedAi`], its weight table
//!   [`ScriptedWeights`]) and the game-progress measure Pr of §5.3 ([`progress`]).
//! - [`thinking`]: the Thinking AI of §5.3/§5.5 ([`ThinkingAi`], its constants
//!   [`ThinkingParams`]), flat Monte Carlo with SA-0 rollouts, and its evaluations
//!   ([`possessions`] = Pos, [`difference`] = eq. 1, [`sell_value`]).
//!
//! Not yet reachable from agent spec strings ([`crate::agents::build_agent`]): Puerto Rico is not
//! in the game registry, so it has no [`crate::agent::SearchSupport`] to name its agents; build
//! them directly.

pub mod scripted;
pub mod thinking;

pub use scripted::{ScriptedAi, ScriptedWeights, progress};
pub use thinking::{ThinkingAi, ThinkingParams, difference, possessions, sell_value};

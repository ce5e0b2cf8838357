//! Puerto Rico (spec `puerto-rico.md`), base game for 2–5 players: the building table, goods,
//! roles and the action encoding ([`types`]), components and set-up by player count
//! ([`setup`]), the plain-data state ([`state`]), legal actions with their ends-turn bits
//! ([`legal`]), applying them and the steps the engine resolves itself ([`apply`]), scores and
//! the outcome ([`scoring`]), action labels ([`labels`]), all played through
//! [`crate::game::Game`] by [`PuertoRicoGame`] ([`rules`]).
//!
//! The game is not yet in the registry ([`crate::games::visit_all`]): that needs its
//! [`crate::kit::GameKit`], search support and scripts, which come later (issue 15).

pub mod apply;
pub mod labels;
pub mod legal;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod state;
#[cfg(test)]
mod tests;
pub mod types;

pub use rules::PuertoRicoGame;
pub use setup::{Level, Options};
pub use state::{Phase, PlayerState, State};
pub use types::{Action, Kind};

//! Puerto Rico (spec `puerto-rico.md`), base game for 2–5 players: the building table, goods,
//! roles and the action encoding ([`types`]), components and set-up by player count
//! ([`setup`]), the plain-data state ([`state`]), legal actions with their ends-turn bits
//! ([`legal`]), applying them and the steps the engine resolves itself ([`apply`]), scores and
//! the outcome ([`scoring`]), action labels ([`labels`]), all played through
//! [`crate::game::Game`] by [`PuertoRicoGame`] ([`rules`]).
//!
//! Choices the spec leaves to the engine (spec §4 "no fake decisions"):
//!
//! - the two prospector cards are one choice while they hold the same doubloons;
//! - a mayor turn lifts all the player's colonists and places them one at a time; the engine
//!   places the rest once it is forced (enough colonists for every circle, or one target left);
//! - storage asks for warehouse kinds first, then the single free barrel, and is resolved by
//!   the engine when everything fits or only one kind is left;
//! - craftsman production, dealing, refills and the skipping of players with nothing but Pass
//!   are engine steps, done inside [`Game::apply`](crate::game::Game::apply).
//!
//! Registered as `puerto-rico`: its [`crate::kit::GameKit`] ([`kit`]: levels `2p` … `5p`,
//! rules options, bench set), play-style features ([`features`]), and its AI ([`ai`]: the search
//! support and the game's own agents). Its golden tests (the scenarios of spec §7.3) are in
//! `golden.rs`.

pub mod ai;
pub mod apply;
pub mod encoding;
pub mod features;
#[cfg(test)]
mod golden;
pub mod kit;
pub mod labels;
pub mod legal;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod state;
#[cfg(test)]
pub(crate) mod test_support;
pub mod types;

pub use rules::PuertoRicoGame;
pub use setup::{Level, Options};
pub use state::{Phase, PlayerState, State};
pub use types::{Action, Kind};

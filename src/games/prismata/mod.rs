//! Prismata (spec `prismata.md`): its unit library — the base set and the random pool as typed
//! unit data ([`library`]) —, its levels, the buy pools of games ([`level`]), the game state
//! with its starting position and automatic turn start ([`state`]), and the actions of every
//! phase ([`rules`]: the action phase in [`action`]; defense, wipeout, breach, the steps between
//! turns and game end in [`combat`]), played through [`crate::game::Game`] by [`PrismataGame`]
//! ([`game`]) with a text picture of a state ([`render`]); its play-style statistics and
//! features ([`features`]), its positions as counts for learned evaluation ([`encoding`]) and
//! what the workflows need of it ([`kit`]). Its bots (the partial
//! players and Hierarchical Portfolio Search) are in [`ai`]; its golden tests (the scenarios
//! of spec §15.5) in `golden.rs`.

pub mod action;
pub mod ai;
pub mod combat;
mod draw;
pub mod encoding;
pub mod features;
pub mod game;
#[cfg(test)]
mod golden;
pub mod kit;
pub mod level;
pub mod library;
pub mod render;
pub mod resources;
pub mod rules;
pub mod state;
#[cfg(test)]
mod test_support;

pub use action::Action;
pub use game::PrismataGame;
pub use level::Level;
pub use library::{Library, UnitSet, UnitType};
pub use resources::{Resource, Resources};
pub use state::{State, Status, TurnPhase, Unit};

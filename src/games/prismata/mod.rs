//! Prismata (spec `prismata.md`): so far its unit library — the base set and the random pool as
//! typed unit data ([`library`]) —, its levels, the buy pools of games ([`level`]), and the game
//! state with its starting position and automatic turn start ([`state`]), and the actions of the
//! action phase ([`action`]). The end of a phase, defense, breach and game end, the registry
//! line and the HPS agents are still to come (issue 12).

pub mod action;
pub mod level;
pub mod library;
pub mod resources;
pub mod state;

pub use action::Action;
pub use level::Level;
pub use library::{Library, Rarity, UnitSet, UnitType};
pub use resources::{Resource, Resources};
pub use state::{Phase, State, Status, Unit};

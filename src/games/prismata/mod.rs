//! Prismata (spec `prismata.md`): so far its unit library — the base set and the random pool as
//! typed unit data ([`library`]) —, its levels, the buy pools of games ([`level`]), and the game
//! state with its starting position and automatic turn start ([`state`]). The action, defense
//! and breach phases, the registry line and the HPS agents are still to come (issue 12).

pub mod level;
pub mod library;
pub mod resources;
pub mod state;

pub use level::Level;
pub use library::{Library, Rarity, UnitSet, UnitType};
pub use resources::{Resource, Resources};
pub use state::{Phase, State, Status, Unit};

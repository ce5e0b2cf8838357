//! Prismata (spec `prismata.md`): so far its unit library — the base set and the random pool as
//! typed unit data ([`library`]) — and its levels, the buy pools of games ([`level`]). The rules
//! engine, its registry line and the HPS agents are still to come (issue 12).

pub mod level;
pub mod library;
pub mod resources;

pub use level::Level;
pub use library::{Library, Rarity, UnitSet, UnitType};
pub use resources::{Resource, Resources};

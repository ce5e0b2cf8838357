//! Prismata (spec `prismata.md`): so far its unit library — the base set and the random pool as
//! typed unit data ([`library`]). The rules engine, its registry line and the HPS agents are
//! still to come (issue 12).

pub mod library;
pub mod resources;

pub use library::{Library, Rarity, UnitSet, UnitType};
pub use resources::{Resource, Resources};

//! A Tribes level: the starting map (terrain, resources, capitals).

use super::types::{Resource, Terrain, TribeKind};

/// The starting situation of a Tribes game: a square map with one capital per tribe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Where it came from (a seed, a path), for messages.
    pub name: String,
    /// Side length of the square board.
    pub size: usize,
    /// Terrain per tile, row-major (`x * size + y`, x = row).
    pub terrain: Vec<Terrain>,
    /// Resource per tile, row-major.
    pub resource: Vec<Option<Resource>>,
    /// Capitals in row-major order of their tiles: (tile index, tribe).
    pub capitals: Vec<(usize, TribeKind)>,
}

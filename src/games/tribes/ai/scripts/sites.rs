//! How good a tile is as a site for a building (Java `BuildingFunc`), shared by the build,
//! clear-forest, forest and gathering scripts.
//!
//! A *support* building (customs house, sawmill, windmill, forge) is worth the fraction of its
//! neighbours that suit it; a *base* building (port, lumber hut, farm, mine) is worth the best
//! support site next to it where its support building could still be built.

use crate::games::tribes::state::State;
use crate::games::tribes::{Building, Resource, Terrain};

/// The support buildings in the order the Java helpers list them.
pub const SUPPORTS: [Building; 4] = [
    Building::Sawmill,
    Building::CustomsHouse,
    Building::Windmill,
    Building::Forge,
];

/// The base buildings in the order the Java helpers list them.
pub const BASES: [Building; 4] = [
    Building::LumberHut,
    Building::Port,
    Building::Farm,
    Building::Mine,
];

/// True if tile `t` counts for a neighbouring support building `support`.
fn good_neighbour(s: &State, t: usize, support: Building) -> bool {
    let tile = &s.tiles[t];
    match support {
        Building::CustomsHouse => {
            tile.terrain.is_water() && matches!(tile.building, None | Some(Building::Port))
        }
        Building::Windmill => {
            tile.resource == Some(Resource::Crops) || tile.building == Some(Building::Farm)
        }
        Building::Forge => {
            (tile.terrain == Terrain::Mountain && tile.resource == Some(Resource::Ore))
                || tile.building == Some(Building::Mine)
        }
        Building::Sawmill => {
            tile.terrain == Terrain::Forest || tile.building == Some(Building::LumberHut)
        }
        _ => false,
    }
}

/// The fraction of the on-board neighbours of `t` that suit `support` (Java
/// `evalNeighSupportBuilding`).
pub fn support_site(s: &State, t: usize, support: Building) -> f64 {
    let (mut good, mut all) = (0u32, 0u32);
    s.neighbourhood(t, 1, |v| {
        all += 1;
        good += good_neighbour(s, v, support) as u32;
    });
    if all == 0 {
        0.0
    } else {
        good as f64 / all as f64
    }
}

/// Buildings standing on city `c`'s tiles (radius 1, 2 from level 4, centre included) as a
/// bit mask over [`Building`] (Java `getCityTiles` for the one-per-city check).
pub fn city_buildings(s: &State, c: usize) -> u32 {
    let Some(city) = s.cities.get(c) else {
        return 0;
    };
    let r = if city.level >= 4 { 2 } else { 1 };
    let centre = city.tile as usize;
    let mut mask = 0u32;
    let mut note = |t: usize| {
        if s.tiles[t].owner as usize == c
            && let Some(b) = s.tiles[t].building
        {
            mask |= 1 << b as u32;
        }
    };
    note(centre);
    s.neighbourhood(centre, r, note);
    mask
}

/// Java `validConstruction`: `b` may stand on `terrain` and, when `unique` holds the city's
/// buildings, the city has no `b` yet. (The tile need not belong to the city.)
#[inline]
fn valid(terrain: Terrain, b: Building, unique: Option<u32>) -> bool {
    b.allows_terrain(terrain) && unique.is_none_or(|m| m & (1 << b as u32) == 0)
}

/// Best value of `t` (with terrain `terrain`) as a site for one of the support buildings the
/// city (buildings `city`) does not have yet (Java `valueForSupportingBuilding`); at least 0.
pub fn support_value(s: &State, t: usize, terrain: Terrain, city: u32) -> f64 {
    let mut best = 0.0f64;
    for b in SUPPORTS {
        if valid(terrain, b, Some(city)) {
            best = best.max(support_site(s, t, b));
        }
    }
    best
}

/// Best support site next to `t` for a base building of `targets` that may stand on `terrain`
/// (Java `valueForBaseBuilding`); at least 0.
pub fn base_value(s: &State, t: usize, terrain: Terrain, targets: &[Building], city: u32) -> f64 {
    let mut best = 0.0f64;
    for &b in targets {
        if valid(terrain, b, None) {
            best = best.max(base_site(s, t, b, city));
        }
    }
    best
}

/// Best support site next to `t` for base building `b` (Java `buildBaseBuilding`'s inner
/// loop; `t`'s own terrain is not checked).
pub fn base_site(s: &State, t: usize, b: Building, city: u32) -> f64 {
    let Some(support) = b.partner() else {
        return 0.0;
    };
    let mut best = 0.0f64;
    s.neighbourhood(t, 1, |v| {
        if valid(s.tiles[v].terrain, support, Some(city)) {
            best = best.max(support_site(s, v, support));
        }
    });
    best
}

/// Java `buildInIdle`'s score of `t`: its value as a support site minus its value as a base
/// site.
pub fn idle_score(s: &State, t: usize, city: u32) -> f64 {
    let terrain = s.tiles[t].terrain;
    support_value(s, t, terrain, city) - base_value(s, t, terrain, &BASES, city)
}

//! Consistency checks of a state, for tests and debugging.

use super::buildings::{MONUMENT_POINTS, TEMPLE_POINTS, temple_level_points};
use super::economy::{CITY_CENTRE_POINTS, POPULATION_POINTS, TILE_POINTS};
use super::state::{NONE, State};
use super::types::{Tech, Terrain};

/// Checks that units, cities, tiles and tribes agree; returns the first violation.
pub fn check_invariants(s: &State) -> Result<(), String> {
    let n = s.tiles.len();
    if n != s.n() * s.n() {
        return Err(format!("{} tiles on a {}×{} board", n, s.size, s.size));
    }
    for (slot, u) in s.units.iter().enumerate() {
        if !u.alive {
            continue;
        }
        let p = u.pos as usize;
        if p >= n || s.tiles[p].unit as usize != slot {
            return Err(format!("unit {slot} at {p} is not on the board there"));
        }
        if u.hp == 0 || u.hp > u.max_hp {
            return Err(format!("unit {slot} has hp {}/{}", u.hp, u.max_hp));
        }
        if u.tribe >= s.num_tribes {
            return Err(format!("unit {slot} of unknown tribe {}", u.tribe));
        }
        if u.home != NONE && s.cities[u.home as usize].tribe != u.tribe {
            return Err(format!("unit {slot} homed in a city of another tribe"));
        }
        let water = s.tiles[p].terrain.is_water();
        if water != u.kind.is_naval() {
            return Err(format!(
                "unit {slot} ({:?}) on {:?}",
                u.kind, s.tiles[p].terrain
            ));
        }
    }
    for (t, tile) in s.tiles.iter().enumerate() {
        if tile.unit != NONE {
            let u = &s.units[tile.unit as usize];
            if !u.alive || u.pos as usize != t {
                return Err(format!("tile {t} points to unit {} elsewhere", tile.unit));
            }
        }
        if tile.owner != NONE && tile.owner as usize >= s.cities.len() {
            return Err(format!("tile {t} owned by unknown city {}", tile.owner));
        }
        let tribe = match tile.owner {
            NONE => NONE,
            c => s.cities[c as usize].tribe,
        };
        if tile.tribe != tribe {
            return Err(format!(
                "tile {t} caches tribe {} but its city is {tribe}",
                tile.tribe
            ));
        }
        if tile.terrain == Terrain::City
            && (tile.owner == NONE || s.cities[tile.owner as usize].tile as usize != t)
        {
            return Err(format!("city tile {t} is not its city's centre"));
        }
        if tile.temple_level > 0 && !tile.building.is_some_and(|b| b.is_temple()) {
            return Err(format!("temple level on tile {t} without a temple"));
        }
    }
    for (c, city) in s.cities.iter().enumerate() {
        if s.tiles[city.tile as usize].owner as usize != c {
            return Err(format!("city {c} does not own its centre"));
        }
        if s.home_units(c as u8) > city.unit_capacity() + 1 {
            return Err(format!("city {c} supports too many units"));
        }
        if (city.population as i32) < -(city.level as i32) {
            return Err(format!("city {c} population below −level"));
        }
        for (t, tile) in s.tiles.iter().enumerate() {
            if tile.owner as usize == c && s.dist(t, city.tile as usize) > city.radius as i32 {
                return Err(format!("tile {t} of city {c} outside its radius"));
            }
        }
    }
    for p in 0..s.num_tribes as usize {
        let ts = &s.tribes[p];
        if ts.stars < 0 {
            return Err(format!("tribe {p} has {} stars", ts.stars));
        }
        for &tech in Tech::ALL {
            if ts.techs.has(tech) && tech.parent().is_some_and(|q| !ts.techs.has(q)) {
                return Err(format!("tribe {p} knows {tech} without its parent"));
            }
        }
    }
    Ok(())
}

/// A tribe's score recomputed from the state under the intended rules: researched techs
/// (100 × tier), owned cities' components (centre, territory, population, level-ups are
/// carried in `points`, so this recomputes the parts that can be seen on the board) and live
/// units' points. Returns `(recomputed, tracked)`.
pub fn recompute_score(s: &State, tribe: u8) -> i32 {
    let ts = &s.tribes[tribe as usize];
    let mut score: i32 = Tech::ALL
        .iter()
        .filter(|&&t| ts.techs.has(t))
        .map(|t| 100 * t.tier() as i32)
        .sum();
    for c in s.tribe_cities(tribe) {
        score += s.cities[c].points;
    }
    score += s
        .units
        .iter()
        .filter(|u| u.alive && u.tribe == tribe)
        .map(|u| u.points as i32)
        .sum::<i32>();
    score
}

/// The part of a city's points worth that can be recomputed from the board: centre, owned
/// tiles, temples and monuments. The rest (population, level-ups, parks) is history.
pub fn visible_city_points(s: &State, c: usize) -> i32 {
    let mut points = CITY_CENTRE_POINTS; // plus TILE_POINTS for each owned tile, centre included
    for tile in s.tiles.iter().filter(|t| t.owner as usize == c) {
        points += TILE_POINTS;
        if let Some(b) = tile.building {
            if b.is_temple() {
                points += TEMPLE_POINTS + temple_level_points(tile.temple_level);
            } else if b.is_monument() {
                points += MONUMENT_POINTS;
            }
        }
    }
    let _ = POPULATION_POINTS;
    points
}

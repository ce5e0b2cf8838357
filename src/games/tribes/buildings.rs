//! Building and destroying buildings, with their population, production and score effects
//! (spec §8).

use super::economy::{add_population, city_points};
use super::network::update_network;
use super::rules::TribesRules;
use super::state::{NONE, State};
use super::types::{Building, MonumentStatus, Terrain};

/// Score of a built temple.
pub const TEMPLE_POINTS: i32 = 100;
/// Score of a built monument.
pub const MONUMENT_POINTS: i32 = 400;
/// Production a customs house gives per adjacent port.
pub const CUSTOMS_PRODUCTION: i32 = 2;

/// Score a temple of `level` has earned by levelling (50 per level up to 4, 150 for level 5).
pub fn temple_level_points(level: u8) -> i32 {
    let l = level as i32;
    50 * (l.min(4) - 1).max(0) + if l >= 5 { 150 } else { 0 }
}

/// True if a building of kind `b` stands on a tile adjacent to `t` owned by `tribe`.
pub fn adjacent_own(s: &State, t: usize, b: Building, tribe: u8) -> bool {
    s.any_neighbour(t, 1, |v| {
        s.tiles[v].building == Some(b) && s.tile_tribe(v) == tribe
    })
}

/// Applies (`sign` = +1) or reverts (−1) the adjacency effects between the building `b` on
/// tile `t` and its partners. The intended rule credits the support building's city, skipping
/// enemy tiles (the Java crediting defect, quirk 15, is not replicated).
fn adjacency(s: &mut State, t: usize, b: Building, sign: i32) {
    let Some(partner) = b.partner() else { return };
    let tribe = s.tile_tribe(t);
    let mut hits: [(usize, usize); 8] = [(0, 0); 8];
    let mut k = 0;
    s.neighbourhood(t, 1, |v| {
        if s.tiles[v].building == Some(partner) && s.tile_tribe(v) == tribe {
            hits[k] = (v, s.tiles[v].owner as usize);
            k += 1;
        }
    });
    let own_city = s.tiles[t].owner as usize;
    for &(_, other_city) in &hits[..k] {
        // The support building's city receives the bonus.
        let (support, city) = if b.is_support() {
            (b, own_city)
        } else {
            (partner, other_city)
        };
        if support == Building::CustomsHouse {
            let c = &mut s.cities[city];
            c.bonus_production =
                (c.bonus_production as i32 + sign * CUSTOMS_PRODUCTION).max(0) as i8;
        } else {
            add_population(s, city, sign * support.support_population());
        }
    }
}

/// City `c` builds `b` on tile `t` (legality already checked).
pub fn build(_rules: &TribesRules, s: &mut State, c: usize, t: usize, b: Building) {
    let tribe = s.cities[c].tribe;
    s.tribes[tribe as usize].stars -= b.cost();
    let tile = &mut s.tiles[t];
    tile.building = Some(b);
    tile.resource = None;
    if b == Building::LumberHut {
        tile.terrain = Terrain::Plain;
    }
    add_population(s, c, b.own_population());
    adjacency(s, t, b, 1);
    if b.is_temple() {
        s.tiles[t].temple_level = 1;
        s.tiles[t].temple_timer = 3;
        city_points(s, c, TEMPLE_POINTS);
    } else if b.is_monument() {
        city_points(s, c, MONUMENT_POINTS);
        s.tribes[tribe as usize].monuments[b.monument_index()] = MonumentStatus::Built;
    } else if b == Building::Port {
        update_network(s);
    }
}

/// City `c` destroys the building on tile `t`, reverting its effects.
pub fn destroy(rules: &TribesRules, s: &mut State, c: usize, t: usize) {
    let Some(b) = s.tiles[t].building else { return };
    add_population(s, c, -b.own_population());
    adjacency(s, t, b, -1);
    if b.is_temple() {
        let earned = TEMPLE_POINTS + temple_level_points(s.tiles[t].temple_level);
        // Java adds the temple's points again instead of removing them (quirk 8).
        city_points(s, c, if rules.java() { earned } else { -earned });
        s.tiles[t].temple_level = 0;
        s.tiles[t].temple_timer = 0;
    } else if b.is_monument() {
        city_points(s, c, -MONUMENT_POINTS);
    }
    s.tiles[t].building = None;
    if b == Building::Port {
        update_network(s);
    }
}

/// Advances the temples of `tribe` by one owner turn (spec §8.3).
pub fn advance_temples(s: &mut State, tribe: u8) {
    for t in 0..s.tiles.len() {
        let tile = s.tiles[t];
        if tile.temple_level == 0 || tile.temple_level >= 5 || tile.owner == NONE {
            continue;
        }
        let c = tile.owner as usize;
        if s.cities[c].tribe != tribe {
            continue;
        }
        if tile.temple_timer > 1 {
            s.tiles[t].temple_timer -= 1;
            continue;
        }
        let level = tile.temple_level + 1;
        s.tiles[t].temple_level = level;
        s.tiles[t].temple_timer = 3;
        city_points(s, c, if level == 5 { 150 } else { 50 });
    }
}

//! Cities, population, territory, stars, techs and monuments (spec §5, §6, §8.4, §12).

use super::rules::TribesRules;
use super::state::{City, NONE, State};
use super::types::{Building, MonumentStatus, Tech, Terrain};

/// Score of a city centre (capital at start, captured village).
pub const CITY_CENTRE_POINTS: i32 = 100;
/// Score per claimed territory tile.
pub const TILE_POINTS: i32 = 20;
/// Score per population.
pub const POPULATION_POINTS: i32 = 5;

/// Adds `v` to a city's points worth and to its owner's score.
pub fn city_points(s: &mut State, c: usize, v: i32) {
    s.cities[c].points += v;
    let t = s.cities[c].tribe as usize;
    s.tribes[t].score += v;
}

/// Changes a city's population by `v`, never below −level; score follows (5 per population).
pub fn add_population(s: &mut State, c: usize, v: i32) {
    let city = &mut s.cities[c];
    let v = v.max(-(city.level as i32) - city.population as i32);
    city.population = (city.population as i32 + v).clamp(-128, 127) as i8;
    city_points(s, c, POPULATION_POINTS * v);
}

/// A city's production (spec §5.2): level + bonus + capital bonus, or the (negative) population.
pub fn production(rules: &TribesRules, s: &State, c: usize) -> i32 {
    let city = &s.cities[c];
    if city.population < 0 {
        return city.population as i32;
    }
    // Java keeps the capital bonus with a captured capital; the intended rule gives it only to
    // the tribe whose capital it is.
    let capital = city.capital_of != NONE && (rules.java() || city.capital_of == city.tribe);
    city.level as i32 + city.bonus_production as i32 + capital as i32
}

/// A tribe's total production. With `occupation`, cities whose centre holds an enemy unit
/// produce nothing (the income rule of spec §4.2).
pub fn tribe_production(rules: &TribesRules, s: &State, tribe: u8, occupation: bool) -> i32 {
    let mut total = 0;
    for (c, city) in s.cities.iter().enumerate() {
        if city.tribe != tribe {
            continue;
        }
        if occupation
            && s.unit_at(city.tile as usize)
                .is_some_and(|u| u.tribe != tribe)
        {
            continue;
        }
        total += production(rules, s, c);
    }
    total
}

/// Claims every unowned tile within the city's radius (+20 score each).
pub fn claim_territory(s: &mut State, c: usize) {
    let centre = s.cities[c].tile as usize;
    let r = s.cities[c].radius as i32;
    let mut claimed = 0;
    let (x, y) = s.xy(centre);
    for i in x - r..=x + r {
        for j in y - r..=y + r {
            if let Some(t) = s.idx(i, j)
                && s.tiles[t].owner == NONE
            {
                s.tiles[t].owner = c as u8;
                s.tiles[t].tribe = s.cities[c].tribe;
                claimed += 1;
            }
        }
    }
    city_points(s, c, TILE_POINTS * claimed);
}

/// Founds a level-1 city of `tribe` on tile `t` (+100 score) and claims its territory.
pub fn found_city(rules: &TribesRules, s: &mut State, t: usize, tribe: u8, capital: bool) -> usize {
    let c = s.cities.len();
    s.cities.push(City {
        tribe,
        capital_of: if capital { tribe } else { NONE },
        tile: t as u16,
        level: 1,
        population: 0,
        walls: false,
        bonus_production: 0,
        radius: 1,
        points: 0,
        connected: false,
    });
    s.tiles[t].terrain = Terrain::City;
    s.tiles[t].resource = None;
    if s.tiles[t].owner != NONE {
        // A village inside another city's territory: the new city takes its centre tile
        // (unscored); otherwise the centre is claimed and scored with the territory.
        s.tiles[t].owner = c as u8;
        s.tiles[t].tribe = tribe;
    }
    if rules.java() {
        // Java scores the centre but does not count it in the city's points worth.
        s.tribes[tribe as usize].score += CITY_CENTRE_POINTS;
    } else {
        city_points(s, c, CITY_CENTRE_POINTS);
    }
    // The centre is one of the claimed tiles (+20 when unowned: 9 × 20 for a capital, §3).
    claim_territory(s, c);
    s.tiles[t].owner = c as u8;
    s.tiles[t].tribe = tribe;
    c
}

/// Research cost of `tech` for `tribe` now: `4 + tier × cities`, with PHILOSOPHY's discount.
pub fn tech_cost(rules: &TribesRules, s: &State, tribe: u8, tech: Tech) -> i32 {
    let cost = 4 + tech.tier() as i32 * s.num_cities(tribe) as i32;
    if !s.tribes[tribe as usize].techs.has(Tech::Philosophy) {
        cost
    } else if rules.java() {
        cost * 2 / 10 // Java: pays 20 % instead of getting a 20 % discount (quirk 1)
    } else {
        cost * 8 / 10 // the intended 20 % discount, rounded down like Java's: floor(cost × 0.8)
    }
}

/// Marks a monument available for `tribe` unless it already is or was built.
pub fn monument_available(s: &mut State, tribe: u8, b: Building) {
    let m = &mut s.tribes[tribe as usize].monuments[b.monument_index()];
    if *m == MonumentStatus::Unavailable {
        *m = MonumentStatus::Available;
    }
}

/// Adds stars; reaching 100 makes the Emperor's Tomb available.
pub fn gain_stars(s: &mut State, tribe: u8, v: i32) {
    s.tribes[tribe as usize].stars += v;
    if s.tribes[tribe as usize].stars >= 100 {
        monument_available(s, tribe, Building::EmperorsTomb);
    }
}

/// Tiles a city works (spec §5.5 `cityTiles`): its own tiles within radius 1, or 2 from level 4.
pub fn city_tiles(s: &State, c: usize, mut f: impl FnMut(usize)) {
    let city = &s.cities[c];
    s.neighbourhood(city.tile as usize, worked_radius(city), |t| {
        if s.tiles[t].owner as usize == c {
            f(t)
        }
    });
}

/// Radius of the tiles a city works ([`city_tiles`]): 1, or 2 from level 4.
pub fn worked_radius(city: &City) -> i32 {
    if city.level >= 4 { 2 } else { 1 }
}

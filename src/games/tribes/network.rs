//! Roads, ports and the trade network (spec §10).

use super::economy::{add_population, monument_available};
use super::movement::MAX_TILES;
use super::state::{NONE, State, TileSet};
use super::types::{Building, Terrain};

/// Recomputes every tribe's connected cities; a new connection gives the city and the capital
/// +1 population, a lost one takes it back (spec §10). Five connections: Grand Bazaar.
pub fn update_network(s: &mut State) {
    for tribe in 0..s.num_tribes {
        let cap = s.tribes[tribe as usize].capital as usize;
        let owns_capital = cap < s.cities.len() && s.cities[cap].tribe == tribe;
        // With no city besides the capital there is nothing to connect: skip the flood.
        let mut others = TileSet::default();
        for (c, city) in s.cities.iter().enumerate() {
            if city.tribe == tribe && c != cap {
                others.insert(city.tile as usize);
            }
        }
        if others.is_empty() {
            continue;
        }
        let mut reached = TileSet::default();
        if owns_capital {
            flood(s, tribe, s.cities[cap].tile as usize, &others, &mut reached);
        }
        let mut connections = 0;
        for c in 0..s.cities.len() {
            if s.cities[c].tribe != tribe || c == cap {
                continue;
            }
            let now = owns_capital && reached.has(s.cities[c].tile as usize);
            let before = s.cities[c].connected;
            if now != before {
                let v = if now { 1 } else { -1 };
                add_population(s, c, v);
                if owns_capital {
                    add_population(s, cap, v);
                }
                s.cities[c].connected = now;
            }
            connections += now as usize;
        }
        if connections >= 5 {
            monument_available(s, tribe, Building::GrandBazar);
        }
    }
}

/// True if tile `t` is a network node for `tribe`: its city centres and ports, and roads in its
/// own or neutral territory.
fn is_node(s: &State, tribe: u8, t: usize) -> bool {
    let tile = &s.tiles[t];
    let owner = s.tile_tribe(t);
    match tile.terrain {
        Terrain::City => owner == tribe,
        Terrain::Shallow | Terrain::Deep => tile.building == Some(Building::Port) && owner == tribe,
        _ => tile.road && (owner == NONE || owner == tribe),
    }
}

/// Marks the nodes reachable from `start` (8-connected; own ports also link over at most 4
/// steps of neutral or own water), stopping once every tile of `targets` (not `start`) is
/// marked: only the targets' marks are read, and they are the same either way.
fn flood(s: &State, tribe: u8, start: usize, targets: &TileSet, reached: &mut TileSet) {
    let mut stack = [0u16; MAX_TILES];
    let mut top = 1;
    let mut missing = targets.len();
    stack[0] = start as u16;
    reached.insert(start);
    while top > 0 && missing > 0 {
        top -= 1;
        let t = stack[top] as usize;
        let mut push = |v: usize, reached: &mut TileSet| {
            reached.insert(v);
            missing -= usize::from(targets.has(v));
            stack[top] = v as u16;
            top += 1;
        };
        s.neighbourhood(t, 1, |v| {
            if !reached.has(v) && is_node(s, tribe, v) {
                push(v, reached);
            }
        });
        if s.tiles[t].building == Some(Building::Port) {
            ports_by_sea(s, tribe, t, |p| {
                if !reached.has(p) {
                    push(p, reached);
                }
            });
        }
    }
}

/// Calls `f` for each own port within 4 water steps (over neutral or own water) of port
/// `from`, nearest layers first. The layers follow one another in one queue, so no layer is
/// copied.
fn ports_by_sea(s: &State, tribe: u8, from: usize, mut f: impl FnMut(usize)) {
    let mut seen = TileSet::default();
    let mut queue = [0u16; MAX_TILES];
    let (mut start, mut end) = (0, 1);
    queue[0] = from as u16;
    seen.insert(from);
    for _ in 0..4 {
        let mut k = end;
        for i in start..end {
            s.neighbourhood(queue[i] as usize, 1, |v| {
                let tile = &s.tiles[v];
                let owner = s.tile_tribe(v);
                if !seen.has(v) && tile.terrain.is_water() && (owner == NONE || owner == tribe) {
                    seen.insert(v);
                    if tile.building == Some(Building::Port) {
                        f(v);
                    }
                    queue[k] = v as u16;
                    k += 1;
                }
            });
        }
        (start, end) = (end, k);
    }
}

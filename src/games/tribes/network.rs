//! Roads, ports and the trade network (spec §10).

use super::economy::{add_population, monument_available};
use super::state::{NONE, State};
use super::types::{Building, Terrain};

/// Recomputes every tribe's connected cities; a new connection gives the city and the capital
/// +1 population, a lost one takes it back (spec §10). Five connections: Grand Bazaar.
pub fn update_network(s: &mut State) {
    let n = s.tiles.len();
    let mut reached = vec![false; n];
    for tribe in 0..s.num_tribes {
        let cap = s.tribes[tribe as usize].capital as usize;
        let owns_capital = cap < s.cities.len() && s.cities[cap].tribe == tribe;
        reached.iter_mut().for_each(|r| *r = false);
        if owns_capital {
            flood(s, tribe, s.cities[cap].tile as usize, &mut reached);
        }
        let mut connections = 0;
        for c in 0..s.cities.len() {
            if s.cities[c].tribe != tribe || c == cap {
                continue;
            }
            let now = owns_capital && reached[s.cities[c].tile as usize];
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

/// Marks every node reachable from `start` (8-connected; own ports also link over at most 4
/// steps of neutral or own water).
fn flood(s: &State, tribe: u8, start: usize, reached: &mut [bool]) {
    let mut stack = vec![start];
    reached[start] = true;
    while let Some(t) = stack.pop() {
        s.neighbourhood(t, 1, |v| {
            if !reached[v] && is_node(s, tribe, v) {
                reached[v] = true;
                stack.push(v);
            }
        });
        if s.tiles[t].building == Some(Building::Port) {
            for p in ports_by_sea(s, tribe, t) {
                if !reached[p] {
                    reached[p] = true;
                    stack.push(p);
                }
            }
        }
    }
}

/// Own ports within 4 water steps (over neutral or own water) of port `from`.
fn ports_by_sea(s: &State, tribe: u8, from: usize) -> Vec<usize> {
    let mut dist = vec![u8::MAX; s.tiles.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[from] = 0;
    let mut found = Vec::new();
    while let Some(t) = queue.pop_front() {
        if dist[t] >= 4 {
            continue;
        }
        s.neighbourhood(t, 1, |v| {
            let tile = &s.tiles[v];
            let owner = s.tile_tribe(v);
            if dist[v] == u8::MAX
                && tile.terrain.is_water()
                && (owner == NONE || owner == tribe)
            {
                dist[v] = dist[t] + 1;
                if tile.building == Some(Building::Port) {
                    found.push(v);
                }
                queue.push_back(v);
            }
        });
    }
    found
}

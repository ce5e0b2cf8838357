//! The BUILD_ROAD script (spec §15.5; Java `BuildRoadScr`).

use super::ScriptCtx;
use super::common::Pick;
use super::simple::DEFAULT_VALUE;
use crate::games::tribes::movement::MAX_TILES;
use crate::games::tribes::state::{State, TileSet};
use crate::games::tribes::{Action, Building, Terrain};
use crate::rng::Rng;

/// A trade-network tile as the Java board marks them: a road, a city centre or a port (any
/// owner).
#[inline]
fn network(s: &State, t: usize) -> bool {
    let tile = &s.tiles[t];
    tile.road || tile.terrain == Terrain::City || tile.building == Some(Building::Port)
}

/// The network tiles 8-connected to tile `start`, `start` included.
fn cluster(s: &State, start: usize) -> TileSet {
    let mut reached = TileSet::default();
    let mut stack = [0u16; MAX_TILES];
    let mut top = 1;
    stack[0] = start as u16;
    reached.insert(start);
    while top > 0 {
        top -= 1;
        let t = stack[top] as usize;
        s.neighbourhood(t, 1, |v| {
            if !reached.has(v) && network(s, v) {
                reached.insert(v);
                stack[top] = v as u16;
                top += 1;
            }
        });
    }
    reached
}

/// `build_road.random`: a uniform choice among the roads next to the network cluster that
/// holds the tribe's capital (roads that extend the capital's reach), valued 0.5; nothing
/// once every city is connected.
///
/// **Java quirk** (spec §15.5): the Java early exit compares the number of cities (capital
/// included) with the number of connected cities (capital excluded), so it never fires while
/// the tribe holds its capital. With `compat = "java"` that comparison is replicated; by
/// default the script stops when every city other than the capital is connected.
pub fn build_road(
    ctx: &mut ScriptCtx<'_>,
    actions: &[Action],
    rng: &mut Rng,
) -> Option<(Action, f64)> {
    let s = ctx.state;
    let ts = &s.tribes[ctx.tribe as usize];
    let capital = ts.capital as usize;
    let (mut cities, mut connected, mut others) = (0, 0, 0);
    for (c, city) in s.cities.iter().enumerate() {
        if city.tribe == ctx.tribe {
            cities += 1;
            connected += city.connected as usize;
            others += (c != capital) as usize;
        }
    }
    let done = if ctx.java {
        cities == connected
    } else {
        others == connected
    };
    if done || capital >= s.cities.len() {
        return None;
    }
    let reached = cluster(s, s.cities[capital].tile as usize);
    let mut pick = Pick::default();
    for &a in actions {
        let t = a.target as usize;
        if !reached.has(t) && s.any_neighbour(t, 1, |v| reached.has(v)) {
            pick.add(a, rng);
        }
    }
    pick.get().map(|a| (a, DEFAULT_VALUE))
}

#[cfg(test)]
mod tests {
    use super::super::tests::run;
    use crate::games::tribes::ai::testing::setup;
    use crate::games::tribes::{Action, ActionKind};

    #[test]
    fn roads_extend_the_capital_network_and_stop_when_all_is_connected() {
        let road = |t| Action::new(ActionKind::BuildRoad, 0, 0, t);
        for java in [false, true] {
            let (game, s) = setup(java);
            // One city (the capital): nothing to connect, except for Java's early exit.
            let next = run(&game, &s, "build_road.random", &[road(35), road(17)]);
            let far = run(&game, &s, "build_road.random", &[road(35)]);
            if java {
                assert_eq!(next, Some((road(17), 0.5)));
            } else {
                assert_eq!(next, None);
            }
            assert_eq!(far, None);
        }
    }
}

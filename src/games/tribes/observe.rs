//! What an agent is shown under `compat = "java"` (spec §13, quirk 4).

use super::state::{NONE, State};
use super::types::{MONUMENTS, MonumentStatus, Resource, Tech, TechSet};

/// The Java agents' view for `player`: every other tribe has 0 stars, 0 kills, an empty tech
/// tree and no monuments; its cities have population 0, no bonus production and no
/// connections; its units are homeless with 0 kills; crops, ore and whales are hidden unless
/// `player` knows ORGANIZATION, CLIMBING or FISHING.
pub fn java_observation(state: &State, player: u8) -> State {
    let mut s = state.clone();
    for p in 0..s.num_tribes {
        if p == player {
            continue;
        }
        let ts = &mut s.tribes[p as usize];
        ts.stars = 0;
        ts.kills = 0;
        ts.techs = TechSet::default();
        ts.monuments = [MonumentStatus::Unavailable; MONUMENTS];
    }
    for c in s.cities.iter_mut().filter(|c| c.tribe != player) {
        c.population = 0;
        c.bonus_production = 0;
        c.connected = false;
    }
    for u in s.units.iter_mut().filter(|u| u.alive && u.tribe != player) {
        u.home = NONE;
        u.kills = 0;
    }
    let techs = s.tribes[player as usize].techs;
    for tile in s.tiles.iter_mut() {
        let hidden = match tile.resource {
            Some(Resource::Crops) => !techs.has(Tech::Organization),
            Some(Resource::Ore) => !techs.has(Tech::Climbing),
            Some(Resource::Whales) => !techs.has(Tech::Fishing),
            _ => false,
        };
        if hidden {
            tile.resource = None;
        }
    }
    s
}

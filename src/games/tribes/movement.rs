//! The unit turn-status machine and reachable tiles (spec §7.2, §7.3).

use super::rules::TribesRules;
use super::state::{NONE, State, TileSet, Unit};
use super::types::{Building, Tech, Terrain, UnitKind, UnitStatus};

use UnitStatus::*;

/// How a unit type moves and attacks within a turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Move *or* attack (mind bender, catapult, defender, super unit).
    Single,
    /// Move, then attack (warrior, swordsman, archer, naval units).
    Dash,
    /// Move, attack, move again (rider).
    Escape,
    /// Move, attack, and attack again after a kill (knight).
    Persist,
}

fn style(kind: UnitKind) -> Style {
    use UnitKind::*;
    match kind {
        MindBender | Catapult | Defender | SuperUnit => Style::Single,
        Rider => Style::Escape,
        Knight => Style::Persist,
        _ => Style::Dash,
    }
}

/// True if the unit may move now.
#[inline]
pub fn can_move(u: &Unit) -> bool {
    match style(u.kind) {
        Style::Single | Style::Dash | Style::Persist => u.status == Fresh,
        Style::Escape => matches!(u.status, Fresh | Attacked | MovedAndAttacked),
    }
}

/// True if the unit may attack (or heal / convert) now.
#[inline]
pub fn can_attack(u: &Unit) -> bool {
    match style(u.kind) {
        Style::Single => u.status == Fresh,
        Style::Dash | Style::Escape => matches!(u.status, Fresh | Moved),
        Style::Persist => matches!(u.status, Fresh | Moved | Attacked),
    }
}

/// Status after a move.
pub fn after_move(u: &Unit) -> UnitStatus {
    match (style(u.kind), u.status) {
        (Style::Single, _) => Finished,
        (Style::Escape, Attacked) => MovedAndAttacked,
        (Style::Escape, MovedAndAttacked) => Finished,
        _ => Moved,
    }
}

/// Status after an attack (or heal / convert); `killed` tells whether the target died.
pub fn after_attack(u: &Unit, killed: bool) -> UnitStatus {
    match (style(u.kind), u.status) {
        (Style::Escape, Fresh) => Attacked,
        (Style::Escape, Moved) => MovedAndAttacked,
        (Style::Persist, _) if killed => Attacked,
        _ => Finished,
    }
}

/// True if `tribe` may enter terrain `t` at all (mountain, shallow and deep need a tech).
#[inline]
pub fn traversable(s: &State, tribe: u8, t: Terrain) -> bool {
    let techs = s.tribes[tribe as usize].techs;
    match t {
        Terrain::Mountain => techs.has(Tech::Climbing),
        Terrain::Shallow => techs.has(Tech::Sailing),
        Terrain::Deep => techs.has(Tech::Navigation),
        _ => true,
    }
}

const W: i32 = 7; // window side: movement never exceeds 3 tiles
const INF: u8 = u8::MAX;

/// Calls `f` for every tile the unit in `slot` can move to (an empty, reachable tile).
///
/// Costs are counted in half steps. A step onto forest, mountain, a port (embarking) or land
/// (disembarking), or next to an enemy unit, costs all remaining movement; a road step (from a
/// neutral or own road or city onto a road or city) costs half. The intended rule accepts a step
/// if the total stays within the unit's movement and searches true shortest paths; with
/// `compat = "java"` a step is accepted while `floor(total) ≤ movement` (quirk 10).
pub fn reachable(rules: &TribesRules, s: &State, slot: usize, f: impl FnMut(usize)) {
    let (enemy, zoc) = s.enemy_maps(s.units[slot].tribe);
    reachable_with(rules, s, slot, &enemy, &zoc, f)
}

/// [`reachable`] with precomputed enemy and zone-of-control maps (see [`State::enemy_maps`]).
pub fn reachable_with(
    rules: &TribesRules,
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    mut f: impl FnMut(usize),
) {
    let u = &s.units[slot];
    let budget = 2 * u.kind.stats().mov;
    let slack = if rules.java() { 1 } else { 0 };
    let naval = u.kind.is_naval();
    let n = s.size as i32;
    let (ux, uy) = s.xy(u.pos as usize);
    let mut best = [INF; (W * W) as usize];
    // Bucket queue over costs 0..=budget+1 (tiny), holding window indices.
    let mut buckets: [[u8; 49]; 8] = [[0; 49]; 8];
    let mut lens = [0usize; 8];
    let w0 = (3 * W + 3) as usize;
    best[w0] = 0;
    buckets[0][0] = w0 as u8;
    lens[0] = 1;
    for c in 0..=(budget + slack) as usize {
        let mut k = 0;
        while k < lens[c] {
            let w = buckets[c][k] as usize;
            k += 1;
            if best[w] as usize != c || c as i32 >= budget {
                continue;
            }
            let (wx, wy) = (w as i32 / W, w as i32 % W);
            let from = ((ux + wx - 3) * n + (uy + wy - 3)) as usize;
            let from_road = !naval && is_road_node(s, from, u.tribe, true);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let (tx, ty) = (ux + wx - 3 + dx, uy + wy - 3 + dy);
                    if tx < 0 || ty < 0 || tx >= n || ty >= n {
                        continue;
                    }
                    let (nwx, nwy) = (wx + dx, wy + dy);
                    if !(0..W).contains(&nwx) || !(0..W).contains(&nwy) {
                        continue;
                    }
                    let to = (tx * n + ty) as usize;
                    if enemy.has(to) {
                        continue;
                    }
                    let Some(cost) =
                        step_cost(s, u, to, c as i32, budget, naval, from_road, zoc.has(to))
                    else {
                        continue;
                    };
                    let total = c as i32 + cost;
                    let limit = if cost == budget - c as i32 {
                        budget
                    } else {
                        budget + slack
                    };
                    if total > limit {
                        continue;
                    }
                    let nw = (nwx * W + nwy) as usize;
                    if (total as u8) < best[nw] {
                        best[nw] = total as u8;
                        let b = total as usize;
                        buckets[b][lens[b]] = nw as u8;
                        lens[b] += 1;
                    }
                }
            }
        }
    }
    for (w, &b) in best.iter().enumerate() {
        if b == INF || w == w0 {
            continue;
        }
        let (wx, wy) = (w as i32 / W, w as i32 % W);
        let t = ((ux + wx - 3) * n + (uy + wy - 3)) as usize;
        if s.tiles[t].unit == NONE {
            f(t);
        }
    }
}

/// A road or city tile; with `territory_check`, only if neutral or `tribe`'s own.
#[inline]
fn is_road_node(s: &State, t: usize, tribe: u8, territory_check: bool) -> bool {
    let tile = &s.tiles[t];
    if !(tile.road || tile.terrain == Terrain::City) {
        return false;
    }
    if !territory_check {
        return true;
    }
    let owner = s.tile_tribe(t);
    owner == NONE || owner == tribe
}

/// Cost in half steps of stepping onto `to` with `c` spent, or `None` if it cannot be entered.
#[inline]
#[allow(clippy::too_many_arguments)] // the hot inner step: plain values, no struct
fn step_cost(
    s: &State,
    u: &Unit,
    to: usize,
    c: i32,
    budget: i32,
    naval: bool,
    from_road: bool,
    in_zoc: bool,
) -> Option<i32> {
    let tile = &s.tiles[to];
    if !traversable(s, u.tribe, tile.terrain) {
        return None;
    }
    if u.kind == UnitKind::MindBender
        && tile.terrain == Terrain::City
        && s.tile_tribe(to) != u.tribe
    {
        return None;
    }
    let rest = budget - c;
    let mut cost = if naval {
        if tile.terrain.is_water() { 2 } else { rest }
    } else {
        match tile.terrain {
            Terrain::Plain | Terrain::City | Terrain::Village => 2,
            Terrain::Forest | Terrain::Mountain => rest,
            Terrain::Shallow | Terrain::Deep => {
                if tile.building != Some(Building::Port) {
                    return None;
                }
                rest
            }
        }
    };
    if from_road && is_road_node(s, to, u.tribe, false) {
        cost = (cost / 2).max(1);
    }
    if in_zoc {
        cost = rest;
    }
    Some(cost)
}

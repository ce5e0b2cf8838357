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

/// Most tiles on a board (32 × 32).
pub const MAX_TILES: usize = 1024;
const INF: u8 = u8::MAX;

/// The terrains `tribe` may enter, as a bit mask over `Terrain as u8`.
#[inline]
fn passable_mask(s: &State, tribe: u8) -> u8 {
    Terrain::ALL
        .iter()
        .filter(|&&t| traversable(s, tribe, t))
        .fold(0, |m, &t| m | (1 << t as u8))
}

/// Reusable buffers for [`reachable_with`]: a per-tile best cost (all `INF` between calls) and
/// the search queue (each tile enters at most once per cost improvement, so at most 8 times).
pub struct MoveScratch {
    best: [u8; MAX_TILES],
    queue: [u16; 2048],
    /// Rows and columns (`[x0, x1, y0, y1]`, empty when `x0 > x1`) of the tiles the last
    /// search expanded: it read nothing but them and their neighbours (besides the unit, its
    /// tribe's techs and the enemy maps).
    expanded: [i32; 4],
    /// The same for the tiles it reached: the only ones whose occupant it read.
    reached: [i32; 4],
}

impl Default for MoveScratch {
    fn default() -> Self {
        MoveScratch {
            best: [INF; MAX_TILES],
            queue: [0; 2048],
            expanded: EMPTY_BOX,
            reached: EMPTY_BOX,
        }
    }
}

impl MoveScratch {
    /// The box of the tiles the last search expanded (see the field).
    pub fn expanded(&self) -> [i32; 4] {
        self.expanded
    }

    /// The box of the tiles the last search reached (see the field).
    pub fn reached(&self) -> [i32; 4] {
        self.reached
    }
}

/// A box with no tile.
const EMPTY_BOX: [i32; 4] = [i32::MAX, i32::MIN, i32::MAX, i32::MIN];

/// Grows box `b` over (`x`, `y`).
#[inline(always)]
fn grow(b: &mut [i32; 4], x: i32, y: i32) {
    b[0] = b[0].min(x);
    b[1] = b[1].max(x);
    b[2] = b[2].min(y);
    b[3] = b[3].max(y);
}

/// Calls `f` for every tile the unit in `slot` can move to (an empty, reachable tile).
///
/// Costs are counted in half steps. A step onto forest, mountain, a port (embarking) or land
/// (disembarking), or next to an enemy unit, costs all remaining movement; a road step (from a
/// neutral or own road or city onto a road or city) costs half. The intended rule accepts a step
/// if the total stays within the unit's movement and finds true shortest paths; with
/// `compat = "java"` a step is accepted while `floor(total) ≤ movement` (quirk 10; Java's
/// visit-once search order is not replicated).
pub fn reachable(rules: &TribesRules, s: &State, slot: usize, f: impl FnMut(usize)) {
    let (enemy, zoc) = s.enemy_maps(s.units[slot].tribe);
    let mut scratch = Box::<MoveScratch>::default();
    reachable_with(rules, s, slot, &enemy, &zoc, &mut scratch, f)
}

/// [`reachable`] with precomputed enemy and zone-of-control maps (see [`State::enemy_maps`])
/// and reusable buffers.
pub fn reachable_with(
    rules: &TribesRules,
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    scratch: &mut MoveScratch,
    f: impl FnMut(usize),
) {
    search::<false>(rules, s, slot, enemy, zoc, scratch, f);
}

/// The first tile [`reachable_with`] would report, found without searching further.
pub fn first_reachable(
    rules: &TribesRules,
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    scratch: &mut MoveScratch,
) -> Option<usize> {
    search::<true>(rules, s, slot, enemy, zoc, scratch, |_| {})
}

/// The search of [`reachable_with`]. With `FIRST`, stops at the first empty tile reached (the
/// first one `f` would get: tiles are reported in discovery order) and returns it without
/// calling `f`; otherwise calls `f` for every empty tile reached and returns the first.
/// Leaves `scratch` ready for the next call either way.
#[inline]
fn search<const FIRST: bool>(
    rules: &TribesRules,
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    scratch: &mut MoveScratch,
    mut f: impl FnMut(usize),
) -> Option<usize> {
    let u = &s.units[slot];
    let budget = 2 * u.kind.stats().mov;
    let slack = if rules.java() { 1 } else { 0 };
    let naval = u.kind.is_naval();
    let n = s.size as i32;
    let start = u.pos as usize;
    let passable = passable_mask(s, u.tribe);
    let MoveScratch {
        best,
        queue,
        expanded,
        reached,
    } = scratch;
    // Label-correcting search with a FIFO queue: costs are tiny, re-expansions rare.
    let (mut head, mut tail) = (0usize, 1usize);
    queue[0] = start as u16;
    best[start] = 0;
    let mut found = None;
    *expanded = EMPTY_BOX;
    *reached = EMPTY_BOX;
    grow(reached, start as i32 / n, start as i32 % n);
    'search: while head < tail {
        let from = queue[head] as usize;
        head += 1;
        let c = best[from] as i32;
        if c >= budget {
            continue;
        }
        let from_road = !naval && is_road_node(s, from, u.tribe, true);
        let (x, y) = ((from as i32) / n, (from as i32) % n);
        grow(expanded, x, y);
        for dx in -1..=1 {
            let tx = x + dx;
            if tx < 0 || tx >= n {
                continue;
            }
            for dy in -1..=1 {
                let ty = y + dy;
                if (dx == 0 && dy == 0) || ty < 0 || ty >= n {
                    continue;
                }
                let to = (tx * n + ty) as usize;
                if enemy.has(to) {
                    continue;
                }
                if passable & (1 << s.tiles[to].terrain as u8) == 0 {
                    continue;
                }
                let Some(cost) = step_cost(s, u, to, c, budget, naval, from_road, zoc.has(to))
                else {
                    continue;
                };
                let total = c + cost;
                if total > budget + slack || total >= best[to] as i32 {
                    continue;
                }
                if best[to] == INF {
                    grow(reached, tx, ty);
                    // First visit: remember it for the result and the reset (FIFO order keeps
                    // the first `tail` entries distinct).
                    if tail < queue.len() {
                        queue[tail] = to as u16;
                        tail += 1;
                    }
                    if FIRST && s.tiles[to].unit == NONE {
                        best[to] = total as u8;
                        found = Some(to);
                        break 'search;
                    }
                } else if tail < queue.len() {
                    queue[tail] = to as u16;
                    tail += 1;
                }
                best[to] = total as u8;
            }
        }
    }
    for &t in queue[..tail].iter() {
        let t = t as usize;
        if best[t] != INF {
            best[t] = INF;
            if !FIRST && t != start && s.tiles[t].unit == NONE {
                found = found.or(Some(t));
                f(t);
            }
        }
    }
    found
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

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

/// Status after a move. Java finishes a rider that attacked, then moved: its status update
/// takes ATTACKED to MOVED_AND_ATTACKED and, in the next statement, on to FINISHED.
pub fn after_move(rules: &TribesRules, u: &Unit) -> UnitStatus {
    match (style(u.kind), u.status) {
        (Style::Single, _) => Finished,
        (Style::Escape, Attacked) if rules.java() => Finished,
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

/// Queue entries: a tile enters once per improvement of its cost, which takes at most 32
/// values (Java's eighths up to 31), and the search reaches at most 15 × 15 tiles (Java: at most
/// six expanding steps of at least half a move, then one more step).
const QUEUE: usize = 8192;

/// Reusable buffers for [`reachable_with`]: a per-tile best cost (all `INF` between calls) and
/// the search queue (sized by `QUEUE` for the finest costs).
pub struct MoveScratch {
    best: [u8; MAX_TILES],
    queue: [u16; QUEUE],
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
            queue: [0; QUEUE],
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

/// Cost units per point of movement: half steps under the intended rules; eighths under
/// Java's, whose halved "all remaining" road costs come in quarters and eighths.
const fn per_move(java: bool) -> i32 {
    if java { 8 } else { 2 }
}

/// Calls `f` for every tile the unit in `slot` can move to (an empty, reachable tile).
///
/// A step onto plain, city or village costs 1; onto forest, mountain, a port (embarking) or
/// land (disembarking), or next to an enemy unit, all remaining movement; a road step (from a
/// neutral or own road or city onto a road or city) costs half. The intended rule counts in
/// half steps (a halved odd cost rounds down), accepts a step if the total stays within the
/// unit's movement and finds true shortest paths. With `compat = "java"` costs are exact (in
/// eighths), a step is accepted while `floor(total) ≤ movement` (quirk 10), and a tile is
/// expanded unless its cost is exactly the movement: one reached above it through the floor
/// rule goes on along roads (Java's `StepMove`). Tiles are expanded at their least cost, as
/// Java's Dijkstra search does; its visit-once order is not replicated.
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
    if rules.java() {
        search::<false, true, true>(s, slot, enemy, zoc, scratch, f);
    } else {
        search::<false, false, true>(s, slot, enemy, zoc, scratch, f);
    }
}

/// [`reachable_with`] without keeping the boxes of what the search read: it leaves
/// [`MoveScratch::expanded`] and [`MoveScratch::reached`] as they were, for callers that want
/// the tiles alone.
pub fn reachable_tiles(
    rules: &TribesRules,
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    scratch: &mut MoveScratch,
    f: impl FnMut(usize),
) {
    if rules.java() {
        search::<false, true, false>(s, slot, enemy, zoc, scratch, f);
    } else {
        search::<false, false, false>(s, slot, enemy, zoc, scratch, f);
    }
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
    if rules.java() {
        search::<true, true, true>(s, slot, enemy, zoc, scratch, |_| {})
    } else {
        search::<true, false, true>(s, slot, enemy, zoc, scratch, |_| {})
    }
}

/// The search of [`reachable_with`] under Java's rules (`JAVA`) or the intended ones. With
/// `FIRST`, stops at the first empty tile reached (the first one `f` would get: tiles are
/// reported in discovery order) and returns it without calling `f`; otherwise calls `f` for
/// every empty tile reached and returns the first. Leaves `scratch` ready for the next call
/// either way. With `BOXES`, records in `scratch` the boxes of the tiles it expanded and
/// reached.
#[inline]
fn search<const FIRST: bool, const JAVA: bool, const BOXES: bool>(
    s: &State,
    slot: usize,
    enemy: &TileSet,
    zoc: &TileSet,
    scratch: &mut MoveScratch,
    mut f: impl FnMut(usize),
) -> Option<usize> {
    let u = &s.units[slot];
    let q = per_move(JAVA);
    let budget = q * u.kind.stats().mov;
    // The largest accepted total: Java's floor rule lets a step end up to one eighth short
    // of a whole move beyond the movement.
    let limit = if JAVA { budget + q - 1 } else { budget };
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
    // Label-correcting search with a FIFO queue: costs are tiny, re-expansions rare. Java
    // expands the tiles reached above the movement too, but only in a second pass over the
    // queue, once the costs up to the movement are final: a tile that costs exactly the
    // movement by its cheapest path must not be expanded at a dearer one.
    let (mut head, mut tail) = (0usize, 1usize);
    queue[0] = start as u16;
    best[start] = 0;
    let mut found = None;
    let mut above = false;
    let mut late = false;
    if BOXES {
        *expanded = EMPTY_BOX;
        *reached = EMPTY_BOX;
        grow(reached, start as i32 / n, start as i32 % n);
    }
    'search: loop {
        while head < tail {
            let from = queue[head] as usize;
            head += 1;
            let c = best[from] as i32;
            let skip = if JAVA {
                c == budget || (c > budget) != late
            } else {
                c >= budget
            };
            if skip {
                continue;
            }
            let from_road = !naval && is_road_node(s, from, u.tribe, true);
            let (x, y) = ((from as i32) / n, (from as i32) % n);
            if BOXES {
                grow(expanded, x, y);
            }
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
                    let in_zoc = zoc.has(to);
                    let Some(cost) =
                        step_cost::<JAVA>(s, u, to, c, budget, naval, from_road, in_zoc)
                    else {
                        continue;
                    };
                    let total = c + cost;
                    // A zone-of-control step must fit the movement itself, floor or not.
                    if total > limit || (in_zoc && total > budget) || total >= best[to] as i32 {
                        continue;
                    }
                    above |= JAVA && total > budget;
                    if best[to] == INF {
                        if BOXES {
                            grow(reached, tx, ty);
                        }
                        // First visit: remember it for the result and the reset (FIFO order
                        // keeps the first `tail` entries distinct).
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
        if !JAVA || late || !above {
            break;
        }
        late = true;
        head = 0;
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

/// Cost in cost units ([`per_move`]) of stepping onto `to` with `c` spent, or `None` if it
/// cannot be entered.
#[inline]
#[allow(clippy::too_many_arguments)] // the hot inner step: plain values, no struct
fn step_cost<const JAVA: bool>(
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
    let q = per_move(JAVA);
    // "All remaining": Java charges the whole movement from a tile reached above it.
    let rest = if JAVA && c >= budget {
        budget
    } else {
        budget - c
    };
    let mut cost = if naval {
        if tile.terrain.is_water() { q } else { rest }
    } else {
        match tile.terrain {
            Terrain::Plain | Terrain::City | Terrain::Village => q,
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
        // Exact in eighths for Java: an odd cost there is below one move and halves to less
        // than the half-move minimum.
        cost = (cost / 2).max(q / 2);
    }
    if in_zoc {
        cost = rest;
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::tribes::builtin;
    use crate::games::tribes::rules::{Compat, TribesGame};
    use crate::rng::rng_from_seed;
    use rand::RngExt;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Java's `StepMove.getNeighbours` transcribed in floating point: the tiles unit `u` may
    /// step onto from `from` with `c` spent, and what each step costs.
    fn java_steps(s: &State, u: &Unit, from: usize, c: f64) -> Vec<(usize, f64)> {
        let mov = u.kind.stats().mov as f64;
        let mut out = Vec::new();
        if c == mov {
            return out;
        }
        let road = |t: usize| s.tiles[t].road || s.tiles[t].terrain == Terrain::City;
        let on_road = road(from) && (s.tiles[from].tribe == NONE || s.tiles[from].tribe == u.tribe);
        let foe = |t: usize| s.unit_at(t).is_some_and(|w| w.tribe != u.tribe);
        s.neighbourhood(from, 1, |to| {
            let tile = &s.tiles[to];
            if foe(to) || !traversable(s, u.tribe, tile.terrain) {
                return;
            }
            let zone_of_control = s.any_neighbour(to, 1, foe);
            if u.kind == UnitKind::MindBender
                && tile.terrain == Terrain::City
                && tile.tribe != u.tribe
            {
                return;
            }
            let rest = if c < mov { mov - c } else { mov };
            let mut cost = if u.kind.is_naval() {
                if tile.terrain.is_water() { 1.0 } else { rest }
            } else {
                let cost = match tile.terrain {
                    Terrain::Shallow | Terrain::Deep if tile.building == Some(Building::Port) => {
                        rest
                    }
                    Terrain::Shallow | Terrain::Deep => return,
                    Terrain::Plain | Terrain::City | Terrain::Village => 1.0,
                    Terrain::Forest | Terrain::Mountain => rest,
                };
                if on_road && road(to) {
                    f64::max(0.5, cost / 2.0)
                } else {
                    cost
                }
            };
            if zone_of_control {
                cost = rest;
                if c + cost <= mov {
                    out.push((to, cost));
                }
            } else if (c + cost).floor() <= mov {
                out.push((to, cost));
            }
        });
        out
    }

    /// Java's Dijkstra search (`Pathfinder.findPaths`) over [`java_steps`], each tile expanded
    /// at its least cost: the empty tiles reached, sorted, and their costs.
    fn java_reference(s: &State, slot: usize) -> (Vec<usize>, Vec<f64>) {
        let u = s.units[slot];
        let mut best = vec![f64::INFINITY; s.tiles.len()];
        let start = u.pos as usize;
        best[start] = 0.0;
        // Costs are exact in eighths: keys in eighths order the heap.
        let key = |c: f64| {
            assert_eq!(
                (c * 8.0).fract(),
                0.0,
                "a cost of {c} is finer than an eighth"
            );
            (c * 8.0) as i64
        };
        let mut heap = BinaryHeap::from([Reverse((0i64, start))]);
        while let Some(Reverse((k, t))) = heap.pop() {
            let c = best[t];
            if k != key(c) {
                continue;
            }
            for (v, cost) in java_steps(s, &u, t, c) {
                if c + cost < best[v] {
                    best[v] = c + cost;
                    heap.push(Reverse((key(c + cost), v)));
                }
            }
        }
        let tiles: Vec<usize> = (0..s.tiles.len())
            .filter(|&t| best[t].is_finite() && t != start && s.tiles[t].unit == NONE)
            .collect();
        let costs = tiles.iter().map(|&t| best[t]).collect();
        (tiles, costs)
    }

    /// Random Java-rule games with roads strewn over the land: for every unit, and for it
    /// turned into a rider and a knight, the Java search reaches exactly the tiles of the
    /// floating-point transcription of Java's.
    #[test]
    fn java_moves_match_a_floating_point_transcription_of_javas_search() {
        let rules = TribesRules {
            compat: Compat::Java,
            ..TribesRules::default()
        };
        let game = TribesGame::new(rules);
        let (mut searches, mut quarters) = (0, 0);
        for (i, (_, level)) in builtin::all().into_iter().take(5).enumerate() {
            let mut rng = rng_from_seed(i as u64);
            let mut s = game.new_initial_state(&level, i as u64);
            let mut legal = Vec::new();
            while !s.over && s.tick < 30 {
                let mut roads = s.clone();
                for tile in roads.tiles.iter_mut() {
                    let land = matches!(
                        tile.terrain,
                        Terrain::Plain | Terrain::Forest | Terrain::Village
                    );
                    tile.road |= land && rng.random_bool(0.5);
                }
                for slot in 0..roads.units.len() {
                    if !roads.units[slot].alive {
                        continue;
                    }
                    let kind = roads.units[slot].kind;
                    let kinds: &[UnitKind] = if kind.is_naval() {
                        &[kind]
                    } else {
                        &[kind, UnitKind::Rider, UnitKind::Knight]
                    };
                    for &k in kinds {
                        roads.units[slot].kind = k;
                        let mut ours = Vec::new();
                        reachable(&rules, &roads, slot, |t| ours.push(t));
                        ours.sort_unstable();
                        let (reference, costs) = java_reference(&roads, slot);
                        assert_eq!(ours, reference, "{k:?} in slot {slot}, tick {}", s.tick);
                        searches += 1;
                        quarters += costs.iter().filter(|c| (*c * 2.0).fract() != 0.0).count();
                    }
                    roads.units[slot].kind = kind;
                }
                game.legal_actions(&s, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                game.apply(&mut s, a);
            }
        }
        assert!(searches > 15_000, "only {searches} searches");
        assert!(
            quarters > 5_000,
            "only {quarters} tiles at a quarter or eighth"
        );
    }
}

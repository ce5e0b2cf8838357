//! Legal actions of the tribe to move (spec §11), in the reference generation order: per city
//! (level-up only if one is pending), per unit, then tribe actions with END_TURN last.

use super::action::Action;
use super::buildings::adjacent_own;
use super::economy::{tech_cost, worked_radius};
use super::listing::Bounds;
use super::movement::{
    MoveScratch, can_attack, can_move, first_reachable, reachable_tiles, reachable_with,
};
use super::rules::TribesRules;
use super::state::{NONE, State, TileSet};
use super::types::{
    ActionKind as K, Building, LevelUpBonus, MonumentStatus, Resource, Scope, Tech, TechSet,
    Terrain, UnitKind, UnitStatus,
};
use super::units::has_free_slot;
use std::sync::LazyLock;

thread_local! {
    /// Move-search buffers, reused by every call on this thread.
    static SCRATCH: std::cell::RefCell<MoveScratch> = std::cell::RefCell::new(MoveScratch::default());
}

/// Static facts of the buildings as bit masks over `Building`, so that the buildings a tribe
/// could build cost a few mask operations per listing instead of a walk over every building.
struct BuildingMasks {
    /// The buildings each terrain allows, indexed by `Terrain`.
    terrain: [u32; Terrain::COUNT],
    /// The buildings that cost at most `i` stars, for `i` up to the dearest building's cost.
    affordable: Vec<u32>,
    /// The buildings each technology makes known, indexed by the technology's bit.
    by_tech: [u32; 32],
    /// The technologies (bits) that make some building known.
    techs: u32,
    /// The buildings no technology is needed for.
    no_tech: u32,
}

static BUILDING_MASKS: LazyLock<BuildingMasks> = LazyLock::new(|| {
    let mut m = BuildingMasks {
        terrain: [0; Terrain::COUNT],
        affordable: Vec::new(),
        by_tech: [0; 32],
        techs: 0,
        no_tech: 0,
    };
    let dearest = Building::ALL.iter().map(|b| b.cost()).max().unwrap_or(0);
    m.affordable = (0..=dearest)
        .map(|stars| {
            Building::ALL
                .iter()
                .filter(|b| b.cost() <= stars)
                .fold(0, |acc, &b| acc | 1 << b as u32)
        })
        .collect();
    for &b in Building::ALL {
        for &t in Terrain::ALL {
            if b.allows_terrain(t) {
                m.terrain[t as usize] |= 1 << b as u32;
            }
        }
        match b.tech() {
            Some(t) => {
                m.by_tech[t.bit().trailing_zeros() as usize] |= 1 << b as u32;
                m.techs |= t.bit();
            }
            None => m.no_tech |= 1 << b as u32,
        }
    }
    m
});

/// Per-call facts about the tribe to move, computed once.
pub(super) struct Ctx {
    tribe: u8,
    techs: TechSet,
    stars: i32,
    /// Buildings the tribe could afford and knows, as a bit mask over `Building`; made when a
    /// city first asks ([`Ctx::buildable`]).
    buildable: std::cell::OnceCell<u32>,
    pub(super) enemy: TileSet,
    pub(super) zoc: TileSet,
}

impl Ctx {
    pub(super) fn new(s: &State, tribe: u8) -> Ctx {
        let (enemy, zoc) = s.enemy_maps(tribe);
        Ctx::with_maps(s, tribe, enemy, zoc)
    }

    /// [`Ctx::new`] with the enemy and zone-of-control maps already made.
    pub(super) fn with_maps(s: &State, tribe: u8, enemy: TileSet, zoc: TileSet) -> Ctx {
        let ts = &s.tribes[tribe as usize];
        Ctx {
            tribe,
            techs: ts.techs,
            stars: ts.stars,
            buildable: std::cell::OnceCell::new(),
            enemy,
            zoc,
        }
    }

    /// The buildings the tribe could afford and knows (see the field): those it has the
    /// stars and the technology for, and of the monuments only the available ones.
    fn buildable(&self, s: &State) -> u32 {
        *self.buildable.get_or_init(|| {
            let ts = &s.tribes[self.tribe as usize];
            let m = &*BUILDING_MASKS;
            let affordable = match usize::try_from(ts.stars) {
                Ok(stars) => m.affordable[stars.min(m.affordable.len() - 1)],
                Err(_) => 0,
            };
            let mut known = m.no_tech;
            let mut techs = ts.techs.0 & m.techs;
            while techs != 0 {
                known |= m.by_tech[techs.trailing_zeros() as usize];
                techs &= techs - 1;
            }
            for (i, &status) in ts.monuments.iter().enumerate() {
                if status != MonumentStatus::Available {
                    known &= !(1 << (Building::AltarOfPeace as u32 + i as u32));
                }
            }
            affordable & known
        })
    }
}

/// Fills `out` (cleared first) with every legal action of the active tribe.
pub fn legal_actions(rules: &TribesRules, s: &State, out: &mut Vec<Action>) {
    generate(rules, s, &mut Out::<ALL>::new(out, K::EndTurn));
}

/// The first action of every (actor, kind) group of [`legal_actions`], in the same order:
/// enough to know which groups exist, at a fraction of the cost (listing every move of every
/// unit is most of it). The returned [`GroupLister`] lists any one group in full.
pub fn legal_action_groups(rules: &TribesRules, s: &State, out: &mut Vec<Action>) -> GroupLister {
    let mut o = Out::<FIRSTS>::new(out, K::EndTurn);
    GroupLister {
        maps: generate(rules, s, &mut o).map(|cx| (cx.enemy, cx.zoc)),
    }
}

/// Lists one (actor, kind) group of the state [`legal_action_groups`] was called on.
#[derive(Clone, Debug)]
pub struct GroupLister {
    /// Enemy and zone-of-control maps of the tribe to move; `None` when the state is over or
    /// a level-up is pending.
    maps: Option<(TileSet, TileSet)>,
}

impl GroupLister {
    /// A lister with these enemy and zone-of-control maps of the tribe to move (`None` when
    /// the state is over or a level-up is pending).
    pub fn new(maps: Option<(TileSet, TileSet)>) -> Self {
        GroupLister { maps }
    }

    /// Fills `out` (cleared first) with the actions of the group whose first action is
    /// `first`, in [`legal_actions`] order. `s` must be the state the lister was made for and
    /// `first` one of the actions [`legal_action_groups`] listed.
    pub fn group(&self, rules: &TribesRules, s: &State, first: Action, out: &mut Vec<Action>) {
        let Some((enemy, zoc)) = self.maps else {
            // A pending level-up: its options are the only group.
            generate(rules, s, &mut Out::<ONLY>::new(out, first.kind));
            return;
        };
        let cx = Ctx::with_maps(s, s.active, enemy, zoc);
        let mut o = Out::<ONLY>::new(out, first.kind);
        let actor = first.actor as usize;
        match first.kind.scope() {
            Scope::City => city_actions(rules, s, &cx, actor, &mut o),
            Scope::Unit => unit_actions(rules, s, &cx, actor, &mut o),
            Scope::Tribe => tribe_actions(rules, s, &mut o),
        }
    }
}

/// What a generation lists: [`ALL`] legal actions, the [`FIRSTS`] of each (actor, kind) group,
/// or [`ONLY`] the actions of one kind. A const parameter, so that each mode compiles to its
/// own code and the full listing pays nothing for the others.
pub(super) const ALL: u8 = 0;
/// See [`ALL`].
pub(super) const FIRSTS: u8 = 1;
/// See [`ALL`].
pub(super) const ONLY: u8 = 2;

/// The output of a generation in mode `M` (see [`ALL`]).
pub(super) struct Out<'a, const M: u8> {
    v: &'a mut Vec<Action>,
    /// The kind listed in mode [`ONLY`].
    only: K,
    /// The tiles whose terrain, resource, building, road or owner the generation read (a
    /// box around them), for [`super::listing`].
    pub(super) reads: Bounds,
    /// The tiles whose occupant (a unit, its tribe, health or status) it read.
    pub(super) occupants: Bounds,
}

impl<'a, const M: u8> Out<'a, M> {
    /// An output into `v`, cleared first.
    pub(super) fn new(v: &'a mut Vec<Action>, only: K) -> Self {
        v.clear();
        Out::appending(v, only)
    }

    /// An output appending to `v`.
    pub(super) fn appending(v: &'a mut Vec<Action>, only: K) -> Self {
        Out {
            v,
            only,
            reads: Bounds::EMPTY,
            occupants: Bounds::EMPTY,
        }
    }

    /// True if actions of `kind` are listed.
    #[inline(always)]
    fn wants(&self, kind: K) -> bool {
        M != ONLY || self.only == kind
    }

    /// Adds `a`; false when its group needs no more actions.
    #[inline(always)]
    fn push(&mut self, a: Action) -> bool {
        self.v.push(a);
        M != FIRSTS
    }
}

/// The actions of the active tribe in mode `M` into `out` (cleared first).
pub(super) fn generate_into<const M: u8>(rules: &TribesRules, s: &State, out: &mut Vec<Action>) {
    generate(rules, s, &mut Out::<M>::new(out, K::EndTurn));
}

/// The actions of the active tribe into `o`; returns the per-call facts unless the state is
/// over or a level-up is pending.
fn generate<const M: u8>(rules: &TribesRules, s: &State, o: &mut Out<'_, M>) -> Option<Ctx> {
    if s.over {
        return None;
    }
    let tribe = s.active;
    if let Some(c) = pending_level_up(s, tribe) {
        for b in LevelUpBonus::options(s.cities[c].level) {
            if !o.wants(K::LevelUp) || !o.push(Action::new(K::LevelUp, c, b as u8, 0)) {
                break;
            }
        }
        return None;
    }
    let cx = Ctx::new(s, tribe);
    for c in 0..s.cities.len() {
        if s.cities[c].tribe == tribe {
            city_actions(rules, s, &cx, c, o);
        }
    }
    for u in 0..s.units.len() {
        if s.units[u].alive && s.units[u].tribe == tribe {
            unit_actions(rules, s, &cx, u, o);
        }
    }
    tribe_actions(rules, s, o);
    Some(cx)
}

/// True if `a` is among the legal actions; lists only the actions of `a`'s kind (of `a`'s
/// actor, unless a level-up is pending).
pub fn is_legal(rules: &TribesRules, s: &State, a: Action) -> bool {
    let mut buf = Vec::new();
    if s.over {
        return false;
    }
    let tribe = s.active;
    if pending_level_up(s, tribe).is_some() {
        generate(rules, s, &mut Out::<ONLY>::new(&mut buf, a.kind));
        return buf.contains(&a);
    }
    let actor = a.actor as usize;
    let scope = a.kind.scope();
    let active = match scope {
        Scope::City => s.cities.get(actor).is_some_and(|c| c.tribe == tribe),
        Scope::Unit => s
            .units
            .get(actor)
            .is_some_and(|u| u.alive && u.tribe == tribe),
        Scope::Tribe => actor == tribe as usize,
    };
    if !active {
        return false;
    }
    let cx = Ctx::new(s, tribe);
    let mut o = Out::<ONLY>::new(&mut buf, a.kind);
    match scope {
        Scope::City => city_actions(rules, s, &cx, actor, &mut o),
        Scope::Unit => unit_actions(rules, s, &cx, actor, &mut o),
        Scope::Tribe => tribe_actions(rules, s, &mut o),
    }
    buf.contains(&a)
}

/// The first city of `tribe` whose population demands a level-up.
pub fn pending_level_up(s: &State, tribe: u8) -> Option<usize> {
    s.cities
        .iter()
        .position(|c| c.tribe == tribe && c.population as i32 >= c.population_need())
}

/// The actions of city `c` (of the tribe to move) into `o`.
pub(super) fn city_actions<const M: u8>(
    rules: &TribesRules,
    s: &State,
    cx: &Ctx,
    c: usize,
    o: &mut Out<'_, M>,
) {
    let (techs, stars) = (cx.techs, cx.stars);
    // Everything below reads tiles within 3 of the centre (worked tiles and their neighbours),
    // and the centre's occupant.
    let centre = s.cities[c].tile as usize;
    o.reads.add_square(s, centre, 3);
    o.occupants.add_square(s, centre, 0);
    // Which kinds of tile action the tribe's technologies and stars allow at all.
    let build = o.wants(K::Build) && cx.buildable(s) != 0;
    let burn = techs.has(Tech::Chivalry) && stars >= 5;
    let clear = techs.has(Tech::Forestry);
    let destroy = techs.has(Tech::Construction);
    let grow = techs.has(Tech::Spiritualism) && stars >= 5;
    let gathers =
        |r: Resource| gathering(r).is_some_and(|(tech, cost)| techs.has(tech) && stars >= cost);
    // The city's worked tiles, and the buildings already standing on its territory: found
    // only if some kind listed here may act on a tile (not to list spawns alone, nor when
    // the tribe can afford nothing else).
    let on_tiles = build
        || (burn && o.wants(K::BurnForest))
        || (clear && o.wants(K::ClearForest))
        || (destroy && o.wants(K::Destroy))
        || (grow && o.wants(K::GrowForest))
        || (o.wants(K::ResourceGathering) && Resource::ALL.iter().any(|&r| gathers(r)));
    let territory = if on_tiles {
        Territory::of(s, c)
    } else {
        Territory::default()
    };
    let tiles = &territory.tiles[..territory.len];
    if build {
        let (buildable, terrain) = (cx.buildable(s), &BUILDING_MASKS.terrain);
        'build: for &t in tiles {
            let t = t as usize;
            let tile = &s.tiles[t];
            if tile.building.is_some() {
                continue;
            }
            // The resource rules and one support building per city as masks; only the
            // adjacency of support buildings is checked building by building.
            let mut mask = terrain[tile.terrain as usize]
                & buildable
                & resource_allows(tile.resource)
                & !(territory.buildings & SUPPORT);
            while mask != 0 {
                let b = Building::ALL[mask.trailing_zeros() as usize];
                mask &= mask - 1;
                if (!b.is_support() || b.partner().is_some_and(|p| adjacent_own(s, t, p, cx.tribe)))
                    && !o.push(Action::new(K::Build, c, b as u8, t))
                {
                    break 'build;
                }
            }
        }
    }
    // Java clears and burns a forest that carries a building as well.
    let forest_ok = |t: usize| {
        s.tiles[t].terrain == Terrain::Forest && (rules.java() || s.tiles[t].building.is_none())
    };
    if burn {
        tile_actions(o, K::BurnForest, c, tiles, forest_ok);
    }
    if clear {
        tile_actions(o, K::ClearForest, c, tiles, forest_ok);
    }
    if destroy {
        tile_actions(o, K::Destroy, c, tiles, |t| s.tiles[t].building.is_some());
    }
    if grow {
        tile_actions(o, K::GrowForest, c, tiles, |t| {
            let tile = &s.tiles[t];
            tile.terrain == Terrain::Plain && (rules.java() || tile.building.is_none())
        });
    }
    tile_actions(o, K::ResourceGathering, c, tiles, |t| {
        s.tiles[t].resource.is_some_and(gathers)
    });
    let centre = s.cities[c].tile as usize;
    if o.wants(K::Spawn)
        && s.tiles[centre].unit == NONE
        && s.home_units(c as u8) < s.cities[c].unit_capacity()
        && has_free_slot(s)
    {
        for &k in UnitKind::ALL {
            if !k.is_spawnable() {
                break;
            }
            let st = k.stats();
            if st.tech.is_none_or(|t| techs.has(t))
                && stars >= st.cost
                && !o.push(Action::new(K::Spawn, c, k as u8, 0))
            {
                break;
            }
        }
    }
}

/// A city's worked tiles ([`city_tiles`](super::economy::city_tiles), in its order) and the
/// buildings standing on its territory within 2 of its centre, found in one pass over the rows.
#[derive(Default)]
struct Territory {
    tiles: [u16; 24],
    len: usize,
    /// The buildings, as a mask over `Building`.
    buildings: u32,
}

impl Territory {
    fn of(s: &State, c: usize) -> Self {
        let city = &s.cities[c];
        let r = worked_radius(city);
        let (x, y) = s.xy(city.tile as usize);
        let n = s.size as i32;
        let (j0, j1) = ((y - 2).max(0), (y + 2).min(n - 1));
        let mut t = Territory::default();
        for i in (x - 2).max(0)..=(x + 2).min(n - 1) {
            let row = i * n;
            let near_row = (i - x).abs() <= r;
            let tiles = &s.tiles[(row + j0) as usize..=(row + j1) as usize];
            for (j, tile) in (j0..).zip(tiles) {
                if tile.owner as usize != c || (i == x && j == y) {
                    continue;
                }
                if let Some(b) = tile.building {
                    t.buildings |= 1 << b as u32;
                }
                if near_row && (j - y).abs() <= r {
                    t.tiles[t.len] = (row + j) as u16;
                    t.len += 1;
                }
            }
        }
        debug_assert!({
            let mut worked = Vec::new();
            super::economy::city_tiles(s, c, |v| worked.push(v as u16));
            worked == t.tiles[..t.len]
        });
        t
    }
}

/// The actions of `kind` of city `c` on the `tiles` that satisfy `ok`, in order, into `o`.
#[inline(always)]
fn tile_actions<const M: u8>(
    o: &mut Out<'_, M>,
    kind: K,
    c: usize,
    tiles: &[u16],
    ok: impl Fn(usize) -> bool,
) {
    if !o.wants(kind) {
        return;
    }
    for &t in tiles {
        if ok(t as usize) && !o.push(Action::new(kind, c, 0, t as usize)) {
            return;
        }
    }
}

/// Tech and star cost of gathering a resource, if it can be gathered.
pub fn gathering(r: Resource) -> Option<(Tech, i32)> {
    Some(match r {
        Resource::Fish => (Tech::Fishing, 2),
        Resource::Fruit => (Tech::Organization, 2),
        Resource::Animal => (Tech::Hunting, 2),
        Resource::Whales => (Tech::Whaling, 0),
        _ => return None,
    })
}

/// The support buildings (forge, windmill, sawmill, customs house) as a mask over `Building`.
const SUPPORT: u32 = 1 << Building::Forge as u32
    | 1 << Building::Windmill as u32
    | 1 << Building::Sawmill as u32
    | 1 << Building::CustomsHouse as u32;

/// The buildings a tile with resource `r` allows as far as resources go (a mine needs ore, a
/// farm crops), as a mask over `Building`.
fn resource_allows(r: Option<Resource>) -> u32 {
    let (mine, farm) = (1 << Building::Mine as u32, 1 << Building::Farm as u32);
    !(mine | farm)
        | match r {
            Some(Resource::Ore) => mine,
            Some(Resource::Crops) => farm,
            _ => 0,
        }
}

/// The actions of the unit in `slot` (of the tribe to move) into `o`.
pub(super) fn unit_actions<const M: u8>(
    rules: &TribesRules,
    s: &State,
    cx: &Ctx,
    slot: usize,
    o: &mut Out<'_, M>,
) {
    let u = &s.units[slot];
    let tribe = u.tribe;
    let ts = &s.tribes[tribe as usize];
    let pos = u.pos as usize;
    // Capture and examination read the unit's tile; attacks and conversion read only the
    // enemy map, healing the neighbours' occupants, the move search the tiles around what it
    // expands and the occupants of what it reaches.
    o.reads.add_square(s, pos, 0);
    o.occupants.add_square(s, pos, 0);
    match u.kind {
        UnitKind::Boat
            if o.wants(K::UpgradeBoat)
                && ts.techs.has(Tech::Sailing)
                && ts.stars >= UnitKind::Ship.stats().cost =>
        {
            o.push(Action::new(K::UpgradeBoat, slot, 0, 0));
        }
        UnitKind::Ship
            if o.wants(K::UpgradeShip)
                && ts.techs.has(Tech::Navigation)
                && ts.stars >= UnitKind::Battleship.stats().cost =>
        {
            o.push(Action::new(K::UpgradeShip, slot, 0, 0));
        }
        _ => {}
    }
    if matches!(u.status, UnitStatus::Finished | UnitStatus::Pushed) {
        return;
    }
    let fresh = u.status == UnitStatus::Fresh;
    let enemy_at = |t: usize| cx.enemy.has(t);
    let attack_ok = can_attack(u);
    if attack_ok && u.kind != UnitKind::MindBender && o.wants(K::Attack) {
        s.any_neighbour(pos, u.kind.stats().range, |t| {
            enemy_at(t) && !o.push(Action::new(K::Attack, slot, 0, t))
        });
    }
    let tile = &s.tiles[pos];
    if fresh
        && o.wants(K::Capture)
        && (tile.terrain == Terrain::Village
            || (tile.terrain == Terrain::City && s.tile_tribe(pos) != tribe))
    {
        o.push(Action::new(K::Capture, slot, 0, pos));
    }
    let bender = u.kind == UnitKind::MindBender && attack_ok;
    if bender && o.wants(K::Convert) {
        s.any_neighbour(pos, 1, |t| {
            enemy_at(t) && !o.push(Action::new(K::Convert, slot, 0, t))
        });
    }
    if fresh && ts.techs.has(Tech::FreeSpirit) && o.wants(K::Disband) {
        o.push(Action::new(K::Disband, slot, 0, 0));
    }
    if fresh
        && o.wants(K::Examine)
        && tile.resource == Some(Resource::Ruins)
        && s.num_cities(tribe) > 0
    {
        o.push(Action::new(K::Examine, slot, 0, pos));
    }
    if bender && o.wants(K::HealOthers) {
        o.occupants.add_square(s, pos, 1);
    }
    if bender
        && o.wants(K::HealOthers)
        && s.any_neighbour(pos, 1, |t| {
            let v = s.tiles[t].unit;
            v != NONE && {
                let w = &s.units[v as usize];
                w.tribe == tribe && w.hp < w.max_hp
            }
        })
    {
        o.push(Action::new(K::HealOthers, slot, 0, 0));
    }
    if !u.veteran && u.kind != UnitKind::SuperUnit && u.kills >= 3 && o.wants(K::MakeVeteran) {
        o.push(Action::new(K::MakeVeteran, slot, 0, 0));
    }
    if can_move(u) && o.wants(K::Move) {
        SCRATCH.with_borrow_mut(|scratch| {
            if M == FIRSTS {
                if let Some(t) = first_reachable(rules, s, slot, &cx.enemy, &cx.zoc, scratch) {
                    o.push(Action::new(K::Move, slot, 0, t));
                }
            } else if M == ONLY {
                // One group listed in full: no listing records what it read.
                reachable_tiles(rules, s, slot, &cx.enemy, &cx.zoc, scratch, |t| {
                    o.push(Action::new(K::Move, slot, 0, t));
                })
            } else {
                reachable_with(rules, s, slot, &cx.enemy, &cx.zoc, scratch, |t| {
                    o.push(Action::new(K::Move, slot, 0, t));
                })
            }
            if M != ONLY {
                o.reads.add_box(s, scratch.expanded(), 1);
                o.occupants.add_box(s, scratch.reached(), 0);
            }
        });
    }
    if fresh && u.hp > 0 && u.hp < u.max_hp && o.wants(K::Recover) {
        o.push(Action::new(K::Recover, slot, 0, 0));
    }
}

/// The actions of the tribe to move itself into `o`, END_TURN last.
pub(super) fn tribe_actions<const M: u8>(rules: &TribesRules, s: &State, o: &mut Out<'_, M>) {
    let tribe = s.active;
    let ts = &s.tribes[tribe as usize];
    if ts.techs.has(Tech::Roads) && ts.stars >= ROAD_COST && o.wants(K::BuildRoad) {
        let mut last = s.tiles.len() - 1;
        for (t, tile) in s.tiles.iter().enumerate() {
            if road_ok(s, tribe, tile) && !o.push(Action::new(K::BuildRoad, tribe as usize, 0, t)) {
                last = t;
                break;
            }
        }
        o.reads.add_rows_up_to(s, last);
        o.occupants.add_rows_up_to(s, last);
    }
    if o.wants(K::ResearchTech) {
        for &tech in Tech::ALL {
            if ts.techs.can_research(tech)
                && ts.stars >= tech_cost(rules, s, tribe, tech)
                && !o.push(Action::new(K::ResearchTech, tribe as usize, tech as u8, 0))
            {
                break;
            }
        }
    }
    if o.wants(K::EndTurn) {
        o.push(Action::end_turn(tribe as usize));
    }
}

/// Stars a road costs.
pub const ROAD_COST: i32 = 2;

/// True if `tribe` may build a road on `tile` (ignoring tech and stars).
#[inline]
fn road_ok(s: &State, tribe: u8, tile: &super::state::Tile) -> bool {
    matches!(
        tile.terrain,
        Terrain::Plain | Terrain::Forest | Terrain::Village
    ) && !tile.road
        && (tile.tribe == NONE || tile.tribe == tribe)
        && (tile.unit == NONE || s.units[tile.unit as usize].tribe == tribe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_support_mask_holds_exactly_the_support_buildings() {
        for &b in Building::ALL {
            assert_eq!(SUPPORT & 1 << b as u32 != 0, b.is_support(), "{b:?}");
        }
    }

    #[test]
    fn resource_masks_allow_mines_on_ore_farms_on_crops_and_the_rest_anywhere() {
        let resources = std::iter::once(None).chain(Resource::ALL.iter().copied().map(Some));
        for r in resources {
            for &b in Building::ALL {
                let allowed = resource_allows(r) & 1 << b as u32 != 0;
                let expected = match b {
                    Building::Mine => r == Some(Resource::Ore),
                    Building::Farm => r == Some(Resource::Crops),
                    _ => true,
                };
                assert_eq!(allowed, expected, "{b:?} on {r:?}");
            }
        }
    }

    /// The masks give, for every star count, technology and monument status tried, the
    /// buildings a building-by-building check of cost, technology and availability gives.
    #[test]
    fn buildable_masks_match_the_rules_of_each_building() {
        use crate::game::Game;
        let game = super::super::TribesGame::default();
        let (_, level) = super::super::builtin::all().remove(0);
        let mut s = game.new_initial_state(&level, 1);
        let statuses = [
            MonumentStatus::Unavailable,
            MonumentStatus::Available,
            MonumentStatus::Built,
        ];
        for (k, &tech) in Tech::ALL.iter().enumerate() {
            for stars in -1..25 {
                let ts = &mut s.tribes[0];
                ts.stars = stars;
                // A growing set of technologies, and monuments in turning statuses.
                ts.techs.insert(tech);
                for (i, m) in ts.monuments.iter_mut().enumerate() {
                    *m = statuses[(i as i32 + k as i32 + stars).rem_euclid(3) as usize];
                }
                let ts = &s.tribes[0];
                let expected = Building::ALL
                    .iter()
                    .filter(|b| {
                        ts.stars >= b.cost()
                            && b.tech().is_none_or(|t| ts.techs.has(t))
                            && (!b.is_monument()
                                || ts.monuments[b.monument_index()] == MonumentStatus::Available)
                    })
                    .fold(0, |acc, &b| acc | 1 << b as u32);
                let cx = Ctx::new(&s, 0);
                assert_eq!(cx.buildable(&s), expected, "{stars} stars, {:?}", ts.techs);
            }
        }
    }
}

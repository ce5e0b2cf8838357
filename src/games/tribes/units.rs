//! Creating, removing, pushing and re-typing units (spec §7.1, §7.9).

use super::rules::TribesRules;
use super::state::{MAX_UNITS, NONE, State, Unit};
use super::types::{Tech, Terrain, UnitKind, UnitStatus};

/// Creates a unit on tile `t` (which must be empty) and returns its slot, or `None` when every
/// slot is in use. `points` is what the tribe's score gains now and loses when the unit dies.
pub fn create_unit(
    s: &mut State,
    kind: UnitKind,
    tribe: u8,
    home: u8,
    t: usize,
    status: UnitStatus,
    points: u8,
) -> Option<usize> {
    let slot = match s.units.iter().position(|u| !u.alive) {
        Some(i) => i,
        None if s.units.len() < MAX_UNITS => {
            s.units.push(Unit {
                id: 0,
                kind,
                base: kind,
                tribe,
                home,
                status,
                hp: 0,
                max_hp: 0,
                kills: 0,
                veteran: false,
                pos: 0,
                alive: false,
                points: 0,
            });
            s.units.len() - 1
        }
        None => return None,
    };
    let max_hp = kind.stats().max_hp as u8;
    s.units[slot] = Unit {
        id: s.new_unit_id(),
        kind,
        base: kind,
        tribe,
        home,
        status,
        hp: max_hp,
        max_hp,
        kills: 0,
        veteran: false,
        pos: t as u16,
        alive: true,
        points,
    };
    s.tiles[t].unit = slot as u8;
    s.tribes[tribe as usize].score += points as i32;
    Some(slot)
}

/// Removes a unit from the board; its tribe loses the unit's points.
pub fn remove_unit(s: &mut State, slot: usize) {
    let u = s.units[slot];
    s.tiles[u.pos as usize].unit = NONE;
    s.units[slot].alive = false;
    s.tribes[u.tribe as usize].score -= u.points as i32;
}

/// True if a free unit slot exists.
pub fn has_free_slot(s: &State) -> bool {
    s.units.len() < MAX_UNITS || s.units.iter().any(|u| !u.alive)
}

/// After a unit arrives on a tile: a land unit on a port embarks, a naval unit on land
/// disembarks (spec §7.3). Java replaces the unit by a new one: a new id, the FINISHED status
/// every new unit starts with (so a pushed unit is no longer PUSHED), and the points of its
/// new type as what its tribe loses when it dies (nothing for a boat).
pub fn embark_or_disembark(rules: &TribesRules, s: &mut State, slot: usize) {
    let u = &mut s.units[slot];
    let tile = &s.tiles[u.pos as usize];
    if u.kind.is_naval() {
        if tile.terrain.is_water() {
            return;
        }
        u.kind = u.base;
    } else if tile.terrain.is_water() {
        u.base = u.kind;
        u.kind = UnitKind::Boat;
    } else {
        return;
    }
    if rules.java() {
        u.status = UnitStatus::Finished;
        u.points = u.kind.stats().points as u8;
        s.units[slot].id = s.new_unit_id();
    }
}

/// Moves a unit to an empty tile (no status change, no embarking).
pub fn relocate(s: &mut State, slot: usize, to: usize) {
    let from = s.units[slot].pos as usize;
    s.tiles[from].unit = NONE;
    s.tiles[to].unit = slot as u8;
    s.units[slot].pos = to as u16;
}

/// True if a unit of `tribe` may be pushed (or move in after a kill) onto tile `t` (spec §7.9).
pub fn push_target_ok(s: &State, tribe: u8, t: usize) -> bool {
    let tile = &s.tiles[t];
    if tile.unit != NONE {
        return false;
    }
    match tile.terrain {
        Terrain::Mountain => s.tribes[tribe as usize].techs.has(Tech::Climbing),
        Terrain::Shallow | Terrain::Deep => {
            tile.building == Some(super::types::Building::Port) && s.tile_tribe(t) == tribe
        }
        _ => true,
    }
}

/// Pushes a unit off its tile (spec §7.9); it dies if no neighbour works.
pub fn push_unit(rules: &TribesRules, s: &mut State, slot: usize) {
    const OFFSETS: [(i32, i32); 8] = [
        (0, 1),
        (-1, 0),
        (0, -1),
        (1, 0),
        (-1, 1),
        (-1, -1),
        (1, -1),
        (1, 1),
    ];
    let u = s.units[slot];
    let (x, y) = s.xy(u.pos as usize);
    for (dx, dy) in OFFSETS {
        if let Some(t) = s.idx(x + dx, y + dy)
            && push_target_ok(s, u.tribe, t)
        {
            relocate(s, slot, t);
            s.units[slot].status = UnitStatus::Pushed;
            embark_or_disembark(rules, s, slot);
            return;
        }
    }
    remove_unit(s, slot);
}

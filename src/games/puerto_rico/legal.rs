//! Legal actions (spec §4), in a fixed order: kind, then payload ascending (a pass last).
//! Each action carries its ends-turn bit. The predicates here also drive the engine's
//! skipping of players with no real choice ([`super::apply`]).

use super::state::{NO_GOOD, Phase, PlayerState, State, ones};
use super::types::{
    Action, BUILDING_TABLE, BUILDINGS, COLONIST_BUILDING, COLONIST_ISLAND, DRAW, GOODS, Kind, PASS,
    PRICES, QUARRY, ROLES, SKIP, SPACES, WAREHOUSE, WHARF, WINDROSE, bld, role,
};

/// Fills `out` (cleared first) with the legal actions of `s`; empty iff the game is over.
pub fn legal_actions(s: &State, out: &mut Vec<Action>) {
    out.clear();
    let p = usize::from(s.actor);
    let me = &s.players[p];
    match s.phase {
        Phase::Over => {}
        Phase::RoleSelection => {
            for r in 0..ROLES as u8 {
                if role_available(s, r) {
                    out.push(Action::new(Kind::Role, r));
                }
            }
        }
        Phase::Settler => {
            if s.sub == 0 {
                // Hacienda step: the draw can only fill the island, not change the other options.
                let after_draw = me.island() + 1 < SPACES && other_settle_options(s, p);
                let after_skip = other_settle_options(s, p);
                out.push(Action::new(Kind::Hacienda, DRAW).with_end(!after_draw));
                out.push(Action::new(Kind::Hacienda, SKIP).with_end(!after_skip));
            } else {
                settle_choices(s, p, |c| out.push(Action::new(Kind::Plantation, c)));
                out.push(Action::new(Kind::Plantation, PASS));
            }
        }
        Phase::Mayor => colonist_actions(me, |a| out.push(a)),
        Phase::Builder => {
            for b in 0..BUILDINGS as u8 {
                if can_build(s, p, b) {
                    out.push(Action::new(Kind::Build, b));
                }
            }
            out.push(Action::new(Kind::Build, PASS));
        }
        Phase::Craftsman => {
            extra_goods(s, |g| out.push(Action::new(Kind::ExtraGood, g)));
            out.push(Action::new(Kind::ExtraGood, PASS));
        }
        Phase::Trader => {
            for g in 0..GOODS as u8 {
                if can_sell(s, p, g) {
                    out.push(Action::new(Kind::Sell, g));
                }
            }
            out.push(Action::new(Kind::Sell, PASS));
        }
        Phase::Captain => {
            let mut cargo = false;
            loads(s, p, |payload| {
                cargo |= payload % 4 != WHARF;
                out.push(Action::new(Kind::Load, payload));
            });
            if !cargo {
                out.push(Action::new(Kind::Load, PASS));
            }
        }
        Phase::Storage => {
            let w = me.warehouse_kinds() - s.sub.count_ones() as u8;
            for g in 0..GOODS as u8 {
                if me.goods[usize::from(g)] == 0 || s.sub & (1 << g) != 0 {
                    continue;
                }
                if w > 0 {
                    let ends = !store_needs_choice(me, s.sub | (1 << g));
                    out.push(Action::new(Kind::Store, g * 2 + WAREHOUSE).with_end(ends));
                } else {
                    out.push(Action::new(Kind::Store, g * 2 + WINDROSE));
                }
            }
        }
    }
}

/// True if role card `r` may be picked now (the second prospector only when it differs from
/// the first, so that identical choices are listed once).
pub fn role_available(s: &State, r: u8) -> bool {
    let free = s.roles_in_play & !s.roles_taken;
    if free & (1 << r) == 0 {
        return false;
    }
    !(r == role::PROSPECTOR_2
        && free & (1 << role::PROSPECTOR) != 0
        && s.role_coins[usize::from(role::PROSPECTOR)] == s.role_coins[usize::from(r)])
}

/// True if player `p` may use his hacienda now (occupied, island not full, a tile to draw).
pub fn hacienda_available(s: &State, p: usize) -> bool {
    let me = &s.players[p];
    me.active(bld::HACIENDA)
        && !me.island_full()
        && (s.stack_len > 0 || s.discard.iter().any(|&d| d > 0))
}

/// True if player `p` may take a quarry in this settler phase.
fn quarry_right(s: &State, p: usize) -> bool {
    s.quarries > 0 && (p == usize::from(s.chooser) || s.players[p].active(bld::CONSTRUCTION_HUT))
}

/// True if `p`'s plantation step would offer something besides Pass, island space permitting.
fn other_settle_options(s: &State, p: usize) -> bool {
    s.row.iter().any(|&c| c > 0) || quarry_right(s, p)
}

/// Calls `f` with every non-pass plantation payload of `p` (crops, then [`QUARRY`]).
pub fn settle_choices(s: &State, p: usize, mut f: impl FnMut(u8)) {
    if s.players[p].island_full() {
        return;
    }
    for c in 0..GOODS as u8 {
        if s.row[usize::from(c)] > 0 {
            f(c);
        }
    }
    if quarry_right(s, p) {
        f(QUARRY);
    }
}

/// Calls `f` with every colonist target with a free circle (island tiles, then buildings) and
/// its number of free circles.
pub fn colonist_targets(me: &PlayerState, mut f: impl FnMut(u8, u8)) {
    for t in 0..6 {
        if me.tiles[t] > me.occupied[t] {
            f(COLONIST_ISLAND + t as u8, me.tiles[t] - me.occupied[t]);
        }
    }
    for b in ones(me.owned) {
        let slots = BUILDING_TABLE[b].slots;
        if me.workers[b] < slots {
            f(COLONIST_BUILDING + b as u8, slots - me.workers[b]);
        }
    }
}

/// Calls `f` with every colonist placement of `me`'s mayor turn, its ends-turn bit set: the
/// [`legal_actions`] of a mayor turn, in order.
pub fn colonist_actions(me: &PlayerState, mut f: impl FnMut(Action)) {
    // After one placement: one colonist and one circle fewer, a target fewer if it had one
    // free circle; the turn ends when the rest is forced (`mayor_forced`), whatever the
    // target (`always`) or by filling the last circle of one of two targets.
    let (kinds, empty) = free_circles(me);
    let pool = u32::from(me.san_juan);
    let always = pool == 1 || pool >= empty || kinds <= 1;
    colonist_targets(me, |t, free| {
        let ends = always || (kinds == 2 && free == 1);
        f(Action::new(Kind::Colonist, t).with_end(ends));
    });
}

/// Colonist targets with a free circle, and free circles in all.
fn free_circles(me: &PlayerState) -> (u32, u32) {
    // What `colonist_targets` walks, without a branch per target.
    let (mut kinds, mut empty) = (0, 0);
    for t in 0..6 {
        let free = me.tiles[t] - me.occupied[t];
        kinds += u32::from(free > 0);
        empty += u32::from(free);
    }
    for b in ones(me.owned) {
        let free = BUILDING_TABLE[b].slots - me.workers[b];
        kinds += u32::from(free > 0);
        empty += u32::from(free);
    }
    (kinds, empty)
}

/// Puts one colonist from the pool (San Juan) on `target`.
pub fn place(me: &mut PlayerState, target: u8) {
    me.san_juan -= 1;
    if target < COLONIST_BUILDING {
        me.occupied[usize::from(target - COLONIST_ISLAND)] += 1;
    } else {
        me.workers[usize::from(target - COLONIST_BUILDING)] += 1;
    }
}

/// True if the rest of `me`'s mayor turn has no real choice: no colonist left, enough to fill
/// every circle, or free circles of one target only.
pub fn mayor_forced(me: &PlayerState) -> bool {
    if me.san_juan == 0 {
        return true;
    }
    let (kinds, empty) = free_circles(me);
    u32::from(me.san_juan) >= empty || kinds <= 1
}

/// Places `me`'s colonists when [`mayor_forced`]: fills every circle it can.
pub fn mayor_fill(me: &mut PlayerState) {
    for t in 0..6 {
        while me.san_juan > 0 && me.tiles[t] > me.occupied[t] {
            place(me, COLONIST_ISLAND + t as u8);
        }
    }
    for b in ones(me.owned) {
        while me.san_juan > 0 && me.workers[b] < BUILDING_TABLE[b].slots {
            place(me, COLONIST_BUILDING + b as u8);
        }
    }
}

/// What `p` pays for building `b` (spec §2.5).
pub fn price(s: &State, p: usize, b: u8) -> u16 {
    let t = &BUILDING_TABLE[usize::from(b)];
    let me = &s.players[p];
    let discount = u8::from(p == usize::from(s.chooser)) + me.active_quarries().min(t.vp);
    u16::from(t.cost.saturating_sub(discount))
}

/// True if `p` may build `b` now.
pub fn can_build(s: &State, p: usize, b: u8) -> bool {
    let me = &s.players[p];
    let t = &BUILDING_TABLE[usize::from(b)];
    !me.owns(b)
        && s.copies[usize::from(b)] > 0
        && me.city + t.size() <= SPACES
        && price(s, p, b) <= me.doubloons
}

/// Calls `f` with every good the craftsman may take as his extra barrel.
pub fn extra_goods(s: &State, mut f: impl FnMut(u8)) {
    for g in 0..GOODS as u8 {
        if s.received & (1 << g) != 0 && s.goods_supply[usize::from(g)] > 0 {
            f(g);
        }
    }
}

/// True if `p` may sell a barrel of `g` now (spec §2.7).
pub fn can_sell(s: &State, p: usize, g: u8) -> bool {
    let me = &s.players[p];
    me.goods[usize::from(g)] > 0
        && s.house_fill() < 4
        && (s.house[usize::from(g)] == 0 || me.active(bld::OFFICE))
}

/// What `p` earns selling one barrel of `g`.
pub fn sale_price(s: &State, p: usize, g: u8) -> u16 {
    let me = &s.players[p];
    PRICES[usize::from(g)]
        + u16::from(p == usize::from(s.chooser))
        + u16::from(me.active(bld::SMALL_MARKET))
        + 2 * u16::from(me.active(bld::LARGE_MARKET))
}

/// Calls `f` with every load payload of `p` (good × 4 + ship or [`WHARF`]), ascending.
pub fn loads(s: &State, p: usize, mut f: impl FnMut(u8)) {
    let me = &s.players[p];
    let wharf = me.active(bld::WHARF) && s.wharf_used & (1 << p) == 0;
    let ships = usize::from(s.num_ships);
    for g in 0..GOODS as u8 {
        let held = me.goods[usize::from(g)];
        if held == 0 {
            continue;
        }
        match (0..ships).find(|&i| s.ship_good[i] == g) {
            Some(i) => {
                if s.ship_load[i] < s.ship_cap[i] {
                    f(g * 4 + i as u8);
                }
            }
            None => {
                let takes = |i: usize| held.min(s.ship_cap[i]);
                let best = (0..ships)
                    .filter(|&i| s.ship_good[i] == NO_GOOD)
                    .map(takes)
                    .max();
                if let Some(best) = best {
                    for i in 0..ships {
                        if s.ship_good[i] == NO_GOOD && takes(i) == best {
                            f(g * 4 + i as u8);
                        }
                    }
                }
            }
        }
        if wharf {
            f(g * 4 + WHARF);
        }
    }
}

/// True if storage of `me`, with the kinds in `kept` already in warehouses, still needs a
/// choice (spec §2.8: one free barrel plus the warehouses' whole kinds).
pub fn store_needs_choice(me: &PlayerState, kept: u8) -> bool {
    let w = me.warehouse_kinds().saturating_sub(kept.count_ones() as u8);
    let mut rem = 0;
    let mut single = false;
    for g in 0..GOODS {
        if me.goods[g] > 0 && kept & (1 << g) == 0 {
            rem += 1;
            single |= me.goods[g] == 1;
        }
    }
    !(rem <= w || (rem == w + 1 && single) || (w == 0 && rem == 1))
}

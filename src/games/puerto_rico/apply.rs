//! Applying an action and the steps the engine resolves itself (spec §4 item 2): role effects,
//! mayor dealing, forced colonist fill and ship refill, craftsman production, storage where
//! everything fits, skipping players whose only option is Pass, round and game end.

use super::legal::{
    can_build, can_sell, extra_goods, hacienda_available, loads, mayor_fill, mayor_forced, place,
    price, sale_price, settle_choices, store_needs_choice,
};
use super::setup::refill_row;
use super::state::{NO_GOOD, Phase, State};
use super::types::{
    Action, BUILDING_TABLE, BUILDINGS, DRAW, GOODS, Kind, QUARRY, SPACES, WHARF, WINDROSE, bld,
    role,
};

/// Factory income by kinds of goods received (spec §2.6).
const FACTORY_INCOME: [u16; 6] = [0, 0, 1, 2, 3, 5];

/// Applies a legal action, then resolves the engine's own steps up to the next decision.
pub fn apply(s: &mut State, a: Action) {
    let p = usize::from(s.actor);
    match a.kind {
        Kind::Role => pick_role(s, a.payload),
        Kind::Hacienda => {
            if a.payload == DRAW
                && let Some(c) = s.draw_tile()
            {
                s.players[p].tiles[usize::from(c)] += 1;
            }
            s.sub = 1;
        }
        Kind::Plantation => {
            if !a.is_pass() {
                let t = usize::from(a.payload);
                if a.payload == QUARRY {
                    s.quarries -= 1;
                } else {
                    s.row[t] -= 1;
                }
                s.players[p].tiles[t] += 1;
                if s.players[p].active(bld::HOSPICE) && s.take_bonus_colonist() {
                    s.players[p].occupied[t] += 1;
                }
            }
            next_player(s);
        }
        Kind::Colonist => {
            place(&mut s.players[p], a.payload);
            // A placement that does not end the turn leaves the actor a real choice (the
            // listing set the bit from `mayor_forced`): nothing for the engine to resolve.
            if !a.ends_turn {
                debug_assert!(!mayor_forced(&s.players[p]));
                return;
            }
        }
        Kind::Build => {
            if !a.is_pass() {
                build(s, p, a.payload);
            }
            next_player(s);
        }
        Kind::ExtraGood => {
            if !a.is_pass() {
                let g = usize::from(a.payload);
                s.goods_supply[g] -= 1;
                s.players[p].goods[g] += 1;
                s.players[p].produced += 1;
            }
            s.step = 1;
        }
        Kind::Sell => {
            if !a.is_pass() {
                let g = usize::from(a.payload);
                let earned = sale_price(s, p, a.payload);
                let me = &mut s.players[p];
                me.goods[g] -= 1;
                me.doubloons += earned;
                me.sold += 1;
                s.house[g] += 1;
            }
            next_player(s);
        }
        Kind::Load => {
            if a.is_pass() {
                s.out |= 1 << p;
            } else {
                load(s, p, a.payload / 4, a.payload % 4);
            }
            s.actor = s.seat(s.actor, 1);
        }
        Kind::Store => {
            let g = a.payload / 2;
            if a.payload % 2 == WINDROSE {
                let kept = s.sub;
                for k in 0..GOODS {
                    if kept & (1 << k) == 0 {
                        let keep = u8::from(k == usize::from(g));
                        spoil(s, p, k, keep);
                    }
                }
                next_player(s);
            } else {
                s.sub |= 1 << g;
            }
        }
    }
    advance(s);
}

/// The next player of a phase in seat order from the chooser.
fn next_player(s: &mut State) {
    s.step += 1;
    s.sub = 0;
}

/// Returns all but `keep` barrels of good `g` of player `p` to the supply.
fn spoil(s: &mut State, p: usize, g: usize, keep: u8) {
    let me = &mut s.players[p];
    let lost = me.goods[g].saturating_sub(keep);
    me.goods[g] -= lost;
    me.spoiled += u16::from(lost);
    s.goods_supply[g] += lost;
}

fn pick_role(s: &mut State, r: u8) {
    let p = usize::from(s.actor);
    s.picks += 1;
    s.roles_taken |= 1 << r;
    s.chooser = s.actor;
    s.players[p].doubloons += u16::from(s.role_coins[usize::from(r)]);
    s.role_coins[usize::from(r)] = 0;
    s.step = 0;
    s.sub = 0;
    s.phase = match r {
        role::SETTLER => Phase::Settler,
        role::MAYOR => {
            begin_mayor(s);
            Phase::Mayor
        }
        role::BUILDER => Phase::Builder,
        role::CRAFTSMAN => {
            produce(s);
            Phase::Craftsman
        }
        role::TRADER => Phase::Trader,
        role::CAPTAIN => {
            s.out = 0;
            s.wharf_used = 0;
            s.bonus_used = false;
            Phase::Captain
        }
        _ => {
            s.players[p].doubloons += 1;
            Phase::RoleSelection
        }
    };
}

/// Mayor privilege and dealing of the ship's colonists (spec §2.4 steps 1–2).
fn begin_mayor(s: &mut State) {
    let m = usize::from(s.chooser);
    if s.colonist_supply > 0 {
        s.colonist_supply -= 1;
        s.players[m].san_juan += 1;
    }
    let k = s.colonist_ship;
    for j in 0..s.n {
        let p = usize::from(s.seat(s.chooser, j));
        s.players[p].san_juan += k / s.n + u8::from(j < k % s.n);
    }
    s.colonist_ship = 0;
}

/// Ship refill at the end of the mayor phase (spec §2.4 step 4).
fn refill_ship(s: &mut State) {
    let empty: u32 = s.players[..s.n()]
        .iter()
        .map(|p| p.empty_building_circles())
        .sum();
    let r = empty.max(u32::from(s.n));
    if u32::from(s.colonist_supply) >= r {
        s.colonist_supply -= r as u8;
        s.colonist_ship += r as u8;
    } else {
        s.colonist_ship += s.colonist_supply;
        s.colonist_supply = 0;
        s.end_triggered = true;
    }
}

/// Lifts every colonist of `p` into San Juan for his mayor turn.
fn lift(s: &mut State, p: usize) {
    let me = &mut s.players[p];
    let total = me.colonists() as u8;
    me.occupied = [0; 6];
    me.workers = [0; BUILDINGS];
    me.san_juan = total;
}

fn build(s: &mut State, p: usize, b: u8) {
    let cost = price(s, p, b);
    let bu = usize::from(b);
    s.copies[bu] -= 1;
    let university = s.players[p].active(bld::UNIVERSITY);
    let me = &mut s.players[p];
    me.doubloons -= cost;
    me.owned |= 1 << b;
    me.city += BUILDING_TABLE[bu].size();
    if me.city >= SPACES {
        s.end_triggered = true;
    }
    if university && s.take_bonus_colonist() {
        s.players[p].workers[bu] = 1;
    }
}

/// Craftsman production, clockwise from the chooser (spec §2.6).
fn produce(s: &mut State) {
    s.received = 0;
    for j in 0..s.n {
        let p = usize::from(s.seat(s.chooser, j));
        let mut kinds = 0;
        for g in 0..GOODS {
            let take = s.players[p].capacity(g as u8).min(s.goods_supply[g]);
            if take > 0 {
                kinds += 1;
                s.goods_supply[g] -= take;
                s.players[p].goods[g] += take;
                s.players[p].produced += u16::from(take);
                if j == 0 {
                    s.received |= 1 << g;
                }
            }
        }
        if s.players[p].active(bld::FACTORY) {
            s.players[p].doubloons += FACTORY_INCOME[kinds];
        }
    }
}

fn load(s: &mut State, p: usize, g: u8, target: u8) {
    let gu = usize::from(g);
    let held = s.players[p].goods[gu];
    let n = if target == WHARF {
        s.wharf_used |= 1 << p;
        s.goods_supply[gu] += held;
        held
    } else {
        let i = usize::from(target);
        let n = held.min(s.ship_cap[i] - s.ship_load[i]);
        s.ship_good[i] = g;
        s.ship_load[i] += n;
        n
    };
    let mut vp = u16::from(n) + u16::from(s.players[p].active(bld::HARBOR));
    if p == usize::from(s.chooser) && !s.bonus_used {
        s.bonus_used = true;
        vp += 1;
    }
    let me = &mut s.players[p];
    me.goods[gu] -= n;
    me.shipped += u16::from(n);
    me.chips += vp;
    s.vp_supply -= vp as i16;
    if s.vp_supply <= 0 {
        s.end_triggered = true;
    }
}

/// Storage of `p` when it needs no choice: keeps all that fits, else one barrel of the only
/// kind left.
fn store_auto(s: &mut State, p: usize) {
    let me = &s.players[p];
    let w = me
        .warehouse_kinds()
        .saturating_sub(s.sub.count_ones() as u8);
    let mut kinds = 0;
    for g in 0..GOODS {
        if me.goods[g] > 0 && s.sub & (1 << g) == 0 {
            kinds += 1;
        }
    }
    if kinds <= w {
        return;
    }
    // One kind more than the warehouses hold: it goes to the windrose, one barrel kept. If
    // several kinds could (a single barrel each, warehouses free), all fit anyway.
    if w > 0 {
        return;
    }
    for g in 0..GOODS {
        if s.sub & (1 << g) == 0 && s.players[p].goods[g] > 0 {
            spoil(s, p, g, 1);
        }
    }
}

/// Resolves engine steps until a player has a real decision or the game is over.
pub fn advance(s: &mut State) {
    loop {
        match s.phase {
            Phase::Over => return,
            Phase::RoleSelection => {
                if s.picks == s.picks_per_round() {
                    end_round(s);
                    if s.phase == Phase::Over {
                        return;
                    }
                }
                s.actor = s.picker();
                return;
            }
            Phase::Settler => {
                if s.step == s.n {
                    for c in 0..GOODS {
                        s.discard[c] += s.row[c];
                        s.row[c] = 0;
                    }
                    refill_row(s);
                    s.phase = Phase::RoleSelection;
                    continue;
                }
                let p = s.seat(s.chooser, s.step);
                s.actor = p;
                if s.sub == 0 {
                    if hacienda_available(s, usize::from(p)) {
                        return;
                    }
                    s.sub = 1;
                }
                let mut any = false;
                settle_choices(s, usize::from(p), |_| any = true);
                if any {
                    return;
                }
                next_player(s);
            }
            Phase::Mayor => {
                if s.step == s.n {
                    refill_ship(s);
                    s.phase = Phase::RoleSelection;
                    continue;
                }
                let p = s.seat(s.chooser, s.step);
                s.actor = p;
                if s.sub == 0 {
                    lift(s, usize::from(p));
                    s.sub = 1;
                }
                let me = &mut s.players[usize::from(p)];
                if !mayor_forced(me) {
                    return;
                }
                mayor_fill(me);
                next_player(s);
            }
            Phase::Builder => {
                if s.step == s.n {
                    s.phase = Phase::RoleSelection;
                    continue;
                }
                let p = s.seat(s.chooser, s.step);
                s.actor = p;
                if (0..BUILDINGS as u8).any(|b| can_build(s, usize::from(p), b)) {
                    return;
                }
                next_player(s);
            }
            Phase::Craftsman => {
                s.actor = s.chooser;
                let mut any = false;
                extra_goods(s, |_| any = true);
                if s.step == 0 && any {
                    return;
                }
                s.phase = Phase::RoleSelection;
            }
            Phase::Trader => {
                if s.step == s.n {
                    if s.house_fill() == 4 {
                        for g in 0..GOODS {
                            s.goods_supply[g] += s.house[g];
                            s.house[g] = 0;
                        }
                    }
                    s.phase = Phase::RoleSelection;
                    continue;
                }
                let p = s.seat(s.chooser, s.step);
                s.actor = p;
                if (0..GOODS as u8).any(|g| can_sell(s, usize::from(p), g)) {
                    return;
                }
                next_player(s);
            }
            Phase::Captain => {
                let all = (1u8 << s.n) - 1;
                if s.out == all {
                    s.phase = Phase::Storage;
                    s.step = 0;
                    s.sub = 0;
                    continue;
                }
                let p = usize::from(s.actor);
                if s.out & (1 << p) == 0 {
                    let mut any = false;
                    loads(s, p, |_| any = true);
                    if any {
                        return;
                    }
                    s.out |= 1 << p;
                }
                s.actor = s.seat(s.actor, 1);
            }
            Phase::Storage => {
                if s.step == s.n {
                    for i in 0..usize::from(s.num_ships) {
                        if s.ship_load[i] == s.ship_cap[i] {
                            let g = usize::from(s.ship_good[i]);
                            s.goods_supply[g] += s.ship_load[i];
                            s.ship_load[i] = 0;
                            s.ship_good[i] = NO_GOOD;
                        }
                    }
                    s.phase = Phase::RoleSelection;
                    continue;
                }
                let p = s.seat(s.chooser, s.step);
                s.actor = p;
                if store_needs_choice(&s.players[usize::from(p)], s.sub) {
                    return;
                }
                store_auto(s, usize::from(p));
                next_player(s);
            }
        }
    }
}

/// End of a round (spec §2.1 items 4–5).
fn end_round(s: &mut State) {
    for r in 0..8 {
        if s.roles_in_play & !s.roles_taken & (1 << r) != 0 {
            s.role_coins[r] += 1;
        }
    }
    s.roles_taken = 0;
    s.picks = 0;
    s.governor = s.seat(s.governor, 1);
    s.round += 1;
    if s.end_triggered {
        s.phase = Phase::Over;
    }
}

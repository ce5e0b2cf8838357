//! Executing actions (spec §5–§12), turn start and end (§4.2, §4.3) and game end (§4.4).

use super::action::Action;
use super::buildings::{advance_temples, build, destroy};
use super::combat::attack;
use super::economy::{
    add_population, city_points, found_city, gain_stars, monument_available, tech_cost,
    tribe_production,
};
use super::movement::{after_attack, after_move};
use super::network::update_network;
use super::rules::TribesRules;
use super::state::{NONE, State, TribeResult};
use super::types::{
    ActionKind as K, Building, LevelUpBonus, MonumentStatus, Resource, Tech, TechSet, Terrain,
    UnitKind, UnitStatus,
};
use super::units::{create_unit, embark_or_disembark, push_unit, relocate, remove_unit};

/// Score of the PARK level-up bonus.
pub const PARK_POINTS: i32 = 250;

/// Applies a legal action to the state of the active tribe.
pub fn apply(rules: &TribesRules, s: &mut State, a: Action) {
    let tribe = s.active;
    let actor = a.actor as usize;
    let t = a.target as usize;
    match a.kind {
        K::Build => build(rules, s, actor, t, a.building()),
        K::BurnForest => {
            s.tribes[tribe as usize].stars -= 5;
            s.tiles[t].terrain = Terrain::Plain;
            s.tiles[t].resource = Some(Resource::Crops);
        }
        K::ClearForest => {
            s.tiles[t].terrain = Terrain::Plain;
            if !rules.java() {
                // Java leaves the resource: animals stay gatherable, ruins examinable.
                s.tiles[t].resource = None;
            }
            gain_stars(s, tribe, 2);
        }
        K::Destroy => destroy(rules, s, actor, t),
        K::GrowForest => {
            s.tribes[tribe as usize].stars -= 5;
            s.tiles[t].terrain = Terrain::Forest;
            s.tiles[t].resource = None;
        }
        K::LevelUp => level_up(rules, s, actor, a.bonus()),
        K::ResourceGathering => gather(s, actor, t),
        K::Spawn => {
            let k = a.unit_kind();
            s.tribes[tribe as usize].stars -= k.stats().cost;
            let centre = s.cities[actor].tile as usize;
            let points = k.stats().points as u8;
            create_unit(
                s,
                k,
                tribe,
                actor as u8,
                centre,
                UnitStatus::Finished,
                points,
            );
        }
        K::BuildRoad => {
            s.tribes[tribe as usize].stars -= super::legal::ROAD_COST;
            s.tiles[t].road = true;
            // A road next to no network tile (road, city or port) joins nothing.
            if s.any_neighbour(t, 1, |v| {
                let tile = &s.tiles[v];
                tile.road || tile.terrain == Terrain::City || tile.building == Some(Building::Port)
            }) {
                update_network(s);
            }
        }
        K::ResearchTech => {
            let tech = a.tech();
            s.tribes[tribe as usize].stars -= tech_cost(rules, s, tribe, tech);
            learn(s, tribe, tech, true);
        }
        K::EndTurn => end_turn(rules, s),
        K::Attack => attack(rules, s, actor, t),
        K::Capture => capture(rules, s, actor),
        K::Convert => convert(rules, s, actor, t),
        K::Disband => {
            let u = s.units[actor];
            gain_stars(s, tribe, u.kind.stats().cost / 2);
            remove_unit(s, actor);
        }
        K::Examine => examine(rules, s, actor),
        K::HealOthers => {
            let pos = s.units[actor].pos as usize;
            let mut healed = [NONE; 8];
            let mut k = 0;
            s.neighbourhood(pos, 1, |v| {
                let w = s.tiles[v].unit;
                if w != NONE {
                    let wu = &s.units[w as usize];
                    if wu.tribe == tribe && wu.hp < wu.max_hp {
                        healed[k] = w;
                        k += 1;
                    }
                }
            });
            for &w in &healed[..k] {
                let wu = &mut s.units[w as usize];
                wu.hp = (wu.hp + 4).min(wu.max_hp);
            }
            s.units[actor].status = after_attack(&s.units[actor], false);
        }
        K::MakeVeteran => {
            let u = &mut s.units[actor];
            u.veteran = true;
            u.max_hp += 5;
            u.hp = u.max_hp;
        }
        K::Move => {
            relocate(s, actor, t);
            s.units[actor].status = after_move(rules, &s.units[actor]);
            embark_or_disembark(rules, s, actor);
        }
        K::Recover => recover(s, actor),
        K::UpgradeBoat => upgrade(rules, s, actor, UnitKind::Ship),
        K::UpgradeShip => upgrade(rules, s, actor, UnitKind::Battleship),
    }
    if !s.over {
        check_game_over(rules, s);
    }
}

/// Adds a technology; `scored` adds its 100 × tier points (spec §6, §12).
fn learn(s: &mut State, tribe: u8, tech: Tech, scored: bool) {
    let ts = &mut s.tribes[tribe as usize];
    ts.techs.insert(tech);
    if scored {
        ts.score += 100 * tech.tier() as i32;
    }
    if ts.techs == TechSet::FULL {
        monument_available(s, tribe, Building::TowerOfWisdom);
    }
}

/// Upgrades a boat or ship; Java's upgraded unit is a new one, with a new id.
fn upgrade(rules: &TribesRules, s: &mut State, slot: usize, to: UnitKind) {
    let tribe = s.units[slot].tribe as usize;
    s.tribes[tribe].stars -= to.stats().cost;
    s.units[slot].kind = to;
    if rules.java() {
        s.units[slot].id = s.new_unit_id();
    }
}

/// RECOVER: +2 HP, +2 more inside own territory; the unit is finished.
fn recover(s: &mut State, slot: usize) {
    let u = s.units[slot];
    let own = s.tile_tribe(u.pos as usize) == u.tribe;
    let hp = u.hp as i32 + if own { 4 } else { 2 };
    s.units[slot].hp = hp.min(u.max_hp as i32) as u8;
    s.units[slot].status = UnitStatus::Finished;
}

fn gather(s: &mut State, c: usize, t: usize) {
    let tribe = s.cities[c].tribe;
    let r = s.tiles[t].resource.take();
    match r {
        Some(Resource::Whales) => gain_stars(s, tribe, 10),
        Some(r) => {
            let cost = super::legal::gathering(r).map_or(0, |(_, c)| c);
            s.tribes[tribe as usize].stars -= cost;
            add_population(s, c, 1);
        }
        None => {}
    }
}

/// LEVEL_UP: the city gains a level and the chosen bonus (spec §5.4).
fn level_up(rules: &TribesRules, s: &mut State, c: usize, bonus: LevelUpBonus) {
    let need = s.cities[c].population_need();
    let city = &mut s.cities[c];
    city.population = (city.population as i32 - need) as i8;
    city.level += 1;
    let tribe = city.tribe;
    city_points(s, c, bonus.score());
    match bonus {
        LevelUpBonus::Workshop => s.cities[c].bonus_production += 1,
        LevelUpBonus::Explorer => {} // reveals tiles only: no effect with full observability
        LevelUpBonus::CityWall => s.cities[c].walls = true,
        LevelUpBonus::Resources => gain_stars(s, tribe, 5),
        LevelUpBonus::PopGrowth => add_population(s, c, 3),
        LevelUpBonus::BorderGrowth => {
            s.cities[c].radius += 1;
            super::economy::claim_territory(s, c);
        }
        LevelUpBonus::Park => {
            city_points(s, c, PARK_POINTS);
            monument_available(s, tribe, Building::ParkOfFortune);
        }
        LevelUpBonus::SuperUnit => {
            monument_available(s, tribe, Building::ParkOfFortune);
            let centre = s.cities[c].tile as usize;
            if s.tiles[centre].unit != NONE {
                push_unit(rules, s, s.tiles[centre].unit as usize);
            }
            let home = if s.home_units(c as u8) < s.cities[c].unit_capacity() {
                c as u8
            } else {
                NONE
            };
            gift_unit(rules, s, UnitKind::SuperUnit, tribe, home, centre);
        }
    }
}

/// Creates a unit gained without paying (super units): Java adds no score for it but takes
/// its points when it dies (quirk 9); the intended rule scores it on arrival.
fn gift_unit(rules: &TribesRules, s: &mut State, kind: UnitKind, tribe: u8, home: u8, t: usize) {
    let points = kind.stats().points as u8;
    if create_unit(s, kind, tribe, home, t, UnitStatus::Finished, points).is_some() && rules.java()
    {
        s.tribes[tribe as usize].score -= points as i32;
    }
}

/// CAPTURE of a village or an enemy city by the unit in `slot` (spec §5.6).
fn capture(rules: &TribesRules, s: &mut State, slot: usize) {
    let u = s.units[slot];
    let pos = u.pos as usize;
    let tribe = u.tribe;
    let c = if s.tiles[pos].terrain == Terrain::Village {
        found_city(rules, s, pos, tribe, false)
    } else {
        let c = s.tiles[pos].owner as usize;
        take_city(rules, s, c, tribe);
        c
    };
    rehome_one(s, tribe, c);
    s.units[slot].status = UnitStatus::Finished;
    update_network(s);
}

/// Transfers city `c` (with its points worth) to `tribe`; the loser's units homed there move
/// to its other cities or become extra units; a loser with no city left is eliminated.
fn take_city(rules: &TribesRules, s: &mut State, c: usize, tribe: u8) {
    let loser = s.cities[c].tribe;
    if s.cities[c].connected {
        add_population(s, c, -1);
        let cap = s.tribes[loser as usize].capital as usize;
        if s.cities[cap].tribe == loser {
            add_population(s, cap, -1);
        }
        s.cities[c].connected = false;
    }
    let worth = s.cities[c].points;
    s.tribes[loser as usize].score -= worth;
    s.tribes[tribe as usize].score += worth;
    s.cities[c].tribe = tribe;
    for tile in s.tiles.iter_mut().filter(|tile| tile.owner as usize == c) {
        tile.tribe = tribe;
    }

    // Re-home the loser's units of this city: capital first, then other cities at random.
    let mut targets: Vec<usize> = Vec::new();
    let cap = s.tribes[loser as usize].capital as usize;
    if s.cities[cap].tribe == loser {
        targets.push(cap);
    }
    let mut others: Vec<usize> = s.tribe_cities(loser).filter(|&o| o != cap).collect();
    while !others.is_empty() {
        let i = s.random_below(others.len());
        targets.push(others.swap_remove(i));
    }
    for slot in 0..s.units.len() {
        if !(s.units[slot].alive
            && s.units[slot].home as usize == c
            && s.units[slot].tribe == loser)
        {
            continue;
        }
        let home = targets
            .iter()
            .copied()
            .find(|&o| s.home_units(o as u8) < s.cities[o].unit_capacity());
        s.units[slot].home = home.map_or(NONE, |o| o as u8);
    }
    if s.num_cities(loser) == 0 {
        eliminate(rules, s, loser);
    }
}

/// A tribe with no city left loses and its units are removed, with their points; Java takes
/// them off the board and leaves the score as it was.
fn eliminate(rules: &TribesRules, s: &mut State, tribe: u8) {
    s.tribes[tribe as usize].result = TribeResult::Loss;
    for slot in 0..s.units.len() {
        if s.units[slot].alive && s.units[slot].tribe == tribe {
            if rules.java() {
                s.units[slot].points = 0;
            }
            remove_unit(s, slot);
        }
    }
}

/// After a capture, one unit of the captor is re-homed to the new city: the newest unit of
/// its capital if it owns its capital and that has units, else the newest unit of a random
/// other city with units (spec §5.6).
fn rehome_one(s: &mut State, tribe: u8, city: usize) {
    let newest = |s: &State, c: usize| {
        s.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.alive && u.home as usize == c && u.tribe == tribe)
            .max_by_key(|(_, u)| u.id)
            .map(|(i, _)| i)
    };
    let cap = s.tribes[tribe as usize].capital as usize;
    let mut pick = None;
    if s.cities[cap].tribe == tribe {
        pick = newest(s, cap);
    }
    if pick.is_none() {
        let with_units: Vec<usize> = s
            .tribe_cities(tribe)
            .filter(|&o| o != city && o != cap && s.home_units(o as u8) > 0)
            .collect();
        if !with_units.is_empty() {
            let o = with_units[s.random_below(with_units.len())];
            pick = newest(s, o);
        }
    }
    if let Some(slot) = pick {
        s.units[slot].home = city as u8;
    }
}

/// CONVERT: the target joins the converter's tribe as an extra unit.
fn convert(rules: &TribesRules, s: &mut State, slot: usize, t: usize) {
    let tribe = s.units[slot].tribe;
    let v = s.tiles[t].unit as usize;
    let old = s.units[v].tribe;
    let points = s.units[v].points as i32;
    if !rules.java() {
        // Java moves no score on conversion (quirk 9); the intended rule moves the unit's points.
        s.tribes[old as usize].score -= points;
        s.tribes[tribe as usize].score += points;
    }
    let w = &mut s.units[v];
    w.tribe = tribe;
    w.home = NONE;
    w.status = UnitStatus::Finished;
    s.units[slot].status = after_attack(&s.units[slot], false);
}

/// EXAMINE ruins: one of five random bonuses (spec §7.10).
fn examine(rules: &TribesRules, s: &mut State, slot: usize) {
    let u = s.units[slot];
    let tribe = u.tribe;
    let pos = u.pos as usize;
    s.tiles[pos].resource = None;
    s.units[slot].status = UnitStatus::Finished;
    let all_known = s.tribes[tribe as usize].techs == TechSet::FULL;
    let bonus = loop {
        let b = s.random_below(5);
        if !(b == 1 && all_known) {
            break b;
        }
    };
    match bonus {
        0 => {
            push_unit(rules, s, slot);
            if s.tiles[pos].terrain.is_water() {
                // A battleship carrying a warrior. Java leaves its HP unset (−1); we give it the
                // warrior's.
                let points = 0;
                if let Some(b) = create_unit(
                    s,
                    UnitKind::Battleship,
                    tribe,
                    NONE,
                    pos,
                    UnitStatus::Finished,
                    points,
                ) {
                    let w = UnitKind::Warrior.stats().max_hp as u8;
                    let bu = &mut s.units[b];
                    bu.base = UnitKind::Warrior;
                    bu.hp = w;
                    bu.max_hp = w;
                }
            } else {
                gift_unit(rules, s, UnitKind::SuperUnit, tribe, NONE, pos);
            }
        }
        1 => {
            let techs = s.tribes[tribe as usize].techs;
            let options: Vec<Tech> = Tech::ALL
                .iter()
                .copied()
                .filter(|&t| techs.can_research(t))
                .collect();
            let tech = options[s.random_below(options.len())];
            // Java gives no score for a tech from ruins (quirk 9).
            learn(s, tribe, tech, !rules.java());
        }
        2 => {
            let cap = s.tribes[tribe as usize].capital as usize;
            let target = if s.cities[cap].tribe == tribe {
                Some(cap)
            } else {
                s.tribe_cities(tribe).next()
            };
            if let Some(c) = target {
                add_population(s, c, 3);
            }
        }
        3 => {} // explorer: reveals tiles only, no effect with full observability
        _ => gain_stars(s, tribe, 10),
    }
}

/// END_TURN: damaged fresh units recover, then the next tribe still playing starts its turn;
/// after the last tribe the round counter advances and the turn limit is checked.
fn end_turn(rules: &TribesRules, s: &mut State) {
    let tribe = s.active;
    for slot in 0..s.units.len() {
        let u = s.units[slot];
        if u.alive && u.tribe == tribe && u.status == UnitStatus::Fresh && u.hp < u.max_hp {
            recover(s, slot);
        }
    }
    let n = s.num_tribes;
    let mut next = tribe;
    let mut wrapped = false;
    for k in 1..=n {
        wrapped |= tribe + k >= n;
        let cand = (tribe + k) % n;
        if s.tribes[cand as usize].result != TribeResult::Loss {
            next = cand;
            break;
        }
    }
    if wrapped {
        s.tick += 1;
        if s.tick > rules.mode.max_tick() {
            finish_by_ranking(rules, s);
            return;
        }
    }
    s.active = next;
    start_turn(rules, s);
}

/// Start of the active tribe's turn (spec §4.2).
pub fn start_turn(rules: &TribesRules, s: &mut State) {
    let tribe = s.active;
    let production = tribe_production(rules, s, tribe, true);
    advance_temples(s, tribe);
    if s.tick == 0 {
        s.tribes[tribe as usize].stars = 5;
    } else {
        gain_stars(s, tribe, production.max(0));
    }
    for u in s.units.iter_mut() {
        if u.alive && u.tribe == tribe {
            u.status = if u.status == UnitStatus::Pushed {
                UnitStatus::Moved
            } else {
                UnitStatus::Fresh
            };
        }
    }
    let ts = &mut s.tribes[tribe as usize];
    if ts.techs.has(Tech::Meditation) {
        ts.pacifist = ts.pacifist.saturating_add(1);
        if ts.pacifist == 5 {
            if rules.java() {
                // Java makes the altar available whenever the counter reaches 5, even once
                // built: after an attack resets the counter, it can be built again.
                ts.monuments[Building::AltarOfPeace.monument_index()] = MonumentStatus::Available;
            } else {
                monument_available(s, tribe, Building::AltarOfPeace);
            }
        }
    }
}

/// Ends the game if a tribe owns every original capital (CAPITALS) or at most one tribe is
/// still playing.
fn check_game_over(rules: &TribesRules, s: &mut State) {
    let n = s.num_tribes as usize;
    if rules.mode == super::rules::GameMode::Capitals {
        for p in 0..n {
            let owns_all = s
                .cities
                .iter()
                .filter(|c| c.capital_of != NONE)
                .all(|c| c.tribe as usize == p);
            if owns_all && n > 1 {
                declare_winner(s, p);
                return;
            }
        }
    }
    // At most one tribe still playing ends the game (no allocation: this runs every action).
    let mut playing = (0..n).filter(|&p| s.tribes[p].result != TribeResult::Loss);
    let (first, second) = (playing.next(), playing.next());
    if n > 1 && second.is_none() {
        match first {
            Some(p) => declare_winner(s, p),
            None => s.over = true,
        }
    }
}

fn declare_winner(s: &mut State, winner: usize) {
    for p in 0..s.num_tribes as usize {
        s.tribes[p].result = if p == winner {
            TribeResult::Win
        } else {
            TribeResult::Loss
        };
    }
    s.over = true;
}

/// Ends the game by ranking (spec §4.4): players still in the game first, then higher score,
/// more techs, more cities, higher production, then a coin flip.
fn finish_by_ranking(rules: &TribesRules, s: &mut State) {
    let n = s.num_tribes as usize;
    let mut keys: Vec<(usize, [i64; 6])> = (0..n)
        .map(|p| {
            let ts = &s.tribes[p];
            (
                p,
                [
                    (ts.result != TribeResult::Loss) as i64,
                    ts.score as i64,
                    ts.techs.len() as i64,
                    s.num_cities(p as u8) as i64,
                    tribe_production(rules, s, p as u8, false) as i64,
                    0,
                ],
            )
        })
        .collect();
    for k in keys.iter_mut() {
        k.1[5] = (s.next_random() >> 1) as i64;
    }
    keys.sort_by_key(|k| std::cmp::Reverse(k.1));
    declare_winner(s, keys[0].0);
}

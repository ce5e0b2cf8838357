//! City scripts: LEVEL_UP, RESOURCE_GATHERING, BURN_FOREST and GROW_FOREST (spec §15.5).

use super::ScriptCtx;
use super::common::{Best, Pick, normalise};
use super::simple::DEFAULT_VALUE;
use super::sites::{base_value, city_buildings, support_value};
use crate::games::tribes::{Action, Building, LevelUpBonus, Resource, Terrain};
use crate::rng::Rng;

type Proposal = Option<(Action, f64)>;

/// `level_up.growth`: the first WORKSHOP, RESOURCES or POP_GROWTH bonus; else a uniform choice
/// between PARK and SUPER_UNIT; valued 0.5.
pub fn level_up_growth(_: &mut ScriptCtx<'_>, actions: &[Action], rng: &mut Rng) -> Proposal {
    use LevelUpBonus::*;
    let mut pick = Pick::default();
    for &a in actions {
        match a.bonus() {
            Workshop | Resources | PopGrowth => return Some((a, DEFAULT_VALUE)),
            Park | SuperUnit => pick.add(a, rng),
            _ => {}
        }
    }
    pick.get().map(|a| (a, DEFAULT_VALUE))
}

/// `level_up.military`: the first CITY_WALL, BORDER_GROWTH, SUPER_UNIT or WORKSHOP bonus,
/// valued 0.5.
pub fn level_up_military(_: &mut ScriptCtx<'_>, actions: &[Action], _: &mut Rng) -> Proposal {
    use LevelUpBonus::*;
    actions
        .iter()
        .find(|a| matches!(a.bonus(), CityWall | BorderGrowth | SuperUnit | Workshop))
        .map(|&a| (a, DEFAULT_VALUE))
}

/// `resource_gathering.best`: whales first (value 1); else the resource on the best site for a
/// support building the city lacks (value `0.5 + 0.5 × site value`); else a uniform choice
/// (value 0.5).
pub fn resource_gathering(ctx: &mut ScriptCtx<'_>, actions: &[Action], rng: &mut Rng) -> Proposal {
    let s = ctx.state;
    if let Some(&a) = actions
        .iter()
        .find(|a| s.tiles[a.target as usize].resource == Some(Resource::Whales))
    {
        return Some((a, 1.0));
    }
    let mut pick = Pick::default();
    let (mut support, mut best, mut value) = (false, 0.0, DEFAULT_VALUE);
    let mut city = None;
    for &a in actions {
        let t = a.target as usize;
        let mask = *city.get_or_insert_with(|| city_buildings(s, a.actor as usize));
        let v = support_value(s, t, s.tiles[t].terrain, mask);
        if v > 0.0 {
            if !support || v > best {
                pick.reset();
                best = v;
                value = DEFAULT_VALUE + (1.0 - DEFAULT_VALUE) * v;
            }
            if v == best {
                pick.add(a, rng);
            }
            support = true;
        } else if !support {
            pick.add(a, rng);
        }
    }
    pick.get().map(|a| (a, value))
}

/// `burn_forest.best`: the forest whose tile is the better farm site than lumber-hut site by
/// the widest margin, valued `normalise(margin, −1, 1)`.
///
/// **Java defect** (not in the spec's quirk list): the Java script values the farm on the
/// forest tile as it is, and a farm cannot stand on forest, so the farm term is always 0 and
/// the script just avoids good lumber-hut sites. By default the farm is valued on the plain the
/// burn leaves behind; with `compat = "java"` on the forest.
pub fn burn_forest(ctx: &mut ScriptCtx<'_>, actions: &[Action], rng: &mut Rng) -> Proposal {
    let s = ctx.state;
    let mut best = Best::from(i32::MIN as f64);
    let mut city = None;
    for &a in actions {
        let t = a.target as usize;
        let terrain = s.tiles[t].terrain;
        let mask = *city.get_or_insert_with(|| city_buildings(s, a.actor as usize));
        let after = if ctx.java { terrain } else { Terrain::Plain };
        let farm = base_value(s, t, after, &[Building::Farm], mask);
        let hut = base_value(s, t, terrain, &[Building::LumberHut], mask);
        best.offer(a, farm - hut, rng);
    }
    best.result().map(|(a, v)| (a, normalise(v, -1.0, 1.0)))
}

/// `grow_forest.best`: the plain that would be the best lumber-hut site (next to the best
/// sawmill site), uniform among ties (ties at 0 included), valued by that site value.
///
/// **Java defect** (not in the spec's quirk list): the Java script values the lumber hut on the
/// plain as it is, where a lumber hut cannot stand, so every site is worth 0 and it picks at
/// random. By default the lumber hut is valued on the forest the action grows; with
/// `compat = "java"` on the plain.
pub fn grow_forest(ctx: &mut ScriptCtx<'_>, actions: &[Action], rng: &mut Rng) -> Proposal {
    let s = ctx.state;
    let mut best = Best::from(0.0);
    let mut city = None;
    for &a in actions {
        let t = a.target as usize;
        let mask = *city.get_or_insert_with(|| city_buildings(s, a.actor as usize));
        let after = if ctx.java {
            s.tiles[t].terrain
        } else {
            Terrain::Forest
        };
        best.offer(
            a,
            base_value(s, t, after, &[Building::LumberHut], mask),
            rng,
        );
    }
    best.result()
}

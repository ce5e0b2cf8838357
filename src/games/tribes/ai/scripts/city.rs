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

#[cfg(test)]
mod tests {
    use super::super::tests::run;
    use crate::games::tribes::ai::testing::setup;
    use crate::games::tribes::{Action, ActionKind, LevelUpBonus, Resource, Terrain};

    #[test]
    fn grow_forest_values_the_future_lumber_hut_except_under_java_compat() {
        let grow = |t| Action::new(ActionKind::GrowForest, 0, 0, t);
        for java in [false, true] {
            let (game, mut s) = setup(java);
            s.tiles[4].terrain = Terrain::Forest;
            s.tiles[11].terrain = Terrain::Forest;
            let (a, v) = run(&game, &s, "grow_forest.best", &[grow(22), grow(10)]).unwrap();
            if java {
                assert_eq!(v, 0.0);
            } else {
                assert_eq!(a, grow(10));
                assert!(v > 0.0);
            }
        }
    }

    #[test]
    fn gathering_takes_whales_first_then_support_sites() {
        let (game, mut s) = setup(false);
        let gather = |t| Action::new(ActionKind::ResourceGathering, 0, 0, t);
        s.tiles[8].resource = Some(Resource::Crops);
        s.tiles[10].resource = Some(Resource::Crops);
        s.tiles[9].resource = Some(Resource::Fruit);
        s.tiles[23].resource = Some(Resource::Fruit);
        assert_eq!(
            run(
                &game,
                &s,
                "resource_gathering.best",
                &[gather(23), gather(9)]
            ),
            Some((gather(9), 0.5 + 0.5 * 0.25))
        );
        s.tiles[15].terrain = Terrain::Deep;
        s.tiles[15].resource = Some(Resource::Whales);
        assert_eq!(
            run(
                &game,
                &s,
                "resource_gathering.best",
                &[gather(9), gather(15)]
            ),
            Some((gather(15), 1.0))
        );
    }

    #[test]
    fn level_up_scripts_follow_their_strategy() {
        let (game, s) = setup(false);
        let up = |b: LevelUpBonus| Action::new(ActionKind::LevelUp, 0, b as u8, 0);
        let l2 = [up(LevelUpBonus::CityWall), up(LevelUpBonus::Resources)];
        assert_eq!(run(&game, &s, "level_up.growth", &l2), Some((l2[1], 0.5)));
        assert_eq!(run(&game, &s, "level_up.military", &l2), Some((l2[0], 0.5)));
        let l1 = [up(LevelUpBonus::Workshop), up(LevelUpBonus::Explorer)];
        assert_eq!(run(&game, &s, "level_up.military", &l1), Some((l1[0], 0.5)));
    }
}

//! BUILD and CLEAR_FOREST scripts (spec §15.5; Java `Build*Scr`, `ClearForestFor*Scr`).

use super::ScriptCtx;
use super::common::{Best, normalise};
use super::sites::{base_site, city_buildings, idle_score, support_site};
use crate::games::tribes::{Action, ActionKind, Building};
use crate::rng::Rng;

type Proposal = Option<(Action, f64)>;

/// The best site among the actions that build `target` (or clear a forest) by the fraction of
/// suitable neighbours, uniform among ties; ties at 0 count, so some action is always
/// proposed (Java `buildSupportBuilding`).
fn support(ctx: &ScriptCtx<'_>, actions: &[Action], target: Building, rng: &mut Rng) -> Proposal {
    let mut best = Best::from(0.0);
    for &a in actions {
        let ok = match a.kind {
            ActionKind::Build => a.building() == target,
            ActionKind::ClearForest => true,
            _ => false,
        };
        if ok {
            best.offer(a, support_site(ctx.state, a.target as usize, target), rng);
        }
    }
    best.result()
}

/// The site for base building `b` next to the best site for its support building, uniform
/// among ties (Java `buildBaseBuilding`).
///
/// **Java quirk** (spec §15.5, §18 quirk 6): on finding a better site the Java code adds the
/// action and then replaces the candidate list by an empty one, so the best site itself is
/// dropped and only later ties with it can be returned (nothing, when the best is unique).
/// Replicated with `compat = "java"`.
fn base(ctx: &ScriptCtx<'_>, actions: &[Action], b: Building, rng: &mut Rng) -> Proposal {
    let s = ctx.state;
    let mut best = Best::from(-1.0);
    let mut city = None;
    for &a in actions {
        if a.kind != ActionKind::Build || a.building() != b {
            continue;
        }
        let mask = *city.get_or_insert_with(|| city_buildings(s, a.actor as usize));
        let v = base_site(s, a.target as usize, b, mask);
        if ctx.java && v > best.value {
            best.value = v;
            best.pick.reset();
        } else {
            best.offer(a, v, rng);
        }
    }
    best.result()
}

/// The idle-space site for `b` (Java `buildInIdle`): the build action of `b` whose tile is the
/// better support site than base site by the widest margin (margins below 0 are ignored),
/// uniform among ties, valued `normalise(margin, −1, 1)`.
fn idle(ctx: &ScriptCtx<'_>, actions: &[Action], b: Building, rng: &mut Rng) -> Proposal {
    let s = ctx.state;
    let mut best = Best::from(0.0);
    let mut city = None;
    for &a in actions {
        if a.kind != ActionKind::Build || a.building() != b {
            continue;
        }
        let mask = *city.get_or_insert_with(|| city_buildings(s, a.actor as usize));
        best.offer(a, idle_score(s, a.target as usize, mask), rng);
    }
    best.result().map(|(a, v)| (a, normalise(v, -1.0, 1.0)))
}

/// Best idle-space proposal over `targets`, starting from `start` (uniform among ties).
fn idle_over(
    ctx: &ScriptCtx<'_>,
    actions: &[Action],
    targets: &[Building],
    start: f64,
    rng: &mut Rng,
) -> Proposal {
    let mut best = Best::from(start);
    for &b in targets {
        if let Some((a, v)) = idle(ctx, actions, b, rng) {
            best.offer(a, v, rng);
        }
    }
    best.result()
}

/// `build.customs_house`: the customs-house site with the most water (or port) neighbours.
pub fn customs_house(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::CustomsHouse, rng)
}

/// `build.sawmill`: the sawmill site with the most forest (or lumber-hut) neighbours.
pub fn sawmill(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Sawmill, rng)
}

/// `build.windmill`: the windmill site with the most crop (or farm) neighbours.
pub fn windmill(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Windmill, rng)
}

/// `build.forge`: the forge site with the most ore-mountain (or mine) neighbours.
pub fn forge(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Forge, rng)
}

/// `build.farm`: the farm next to the best windmill site (Java quirk: see [`base`]).
pub fn farm(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    base(ctx, a, Building::Farm, rng)
}

/// `build.mine`: the mine next to the best forge site (Java quirk: see [`base`]).
pub fn mine(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    base(ctx, a, Building::Mine, rng)
}

/// `build.lumber_hut`: the lumber hut next to the best sawmill site (Java quirk: see [`base`]).
pub fn lumber_hut(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    base(ctx, a, Building::LumberHut, rng)
}

/// `build.port`: the port next to the best customs-house site (Java quirk: see [`base`]).
pub fn port(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    base(ctx, a, Building::Port, rng)
}

/// The monuments in the Java script's order.
const MONUMENTS: [Building; 7] = [
    Building::AltarOfPeace,
    Building::EmperorsTomb,
    Building::EyeOfGod,
    Building::GateOfPower,
    Building::ParkOfFortune,
    Building::TowerOfWisdom,
    Building::GrandBazar,
];

/// `build.monument`: the best idle-space site over every monument (see [`idle`]).
///
/// **Java quirk** (spec §15.5, §18 quirk 6): the Java helper computes its choice and drops it,
/// so the script never proposes anything and Portfolio MCTS never builds monuments. With
/// `compat = "java"` it proposes nothing.
pub fn monument(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    if ctx.java {
        return None;
    }
    idle_over(ctx, a, &MONUMENTS, f64::NEG_INFINITY, rng)
}

/// `build.temple`: the best idle-space site over the four temples (see [`idle`]).
///
/// **Java quirk**: as [`monument`], the Java script never proposes anything; with
/// `compat = "java"` neither does this one.
pub fn temple(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    if ctx.java {
        return None;
    }
    let temples = [
        Building::Temple,
        Building::ForestTemple,
        Building::WaterTemple,
        Building::MountainTemple,
    ];
    idle_over(ctx, a, &temples, 0.0, rng)
}

/// `clear_forest.customs_house`: clear the forest that is the best customs-house site.
pub fn clear_for_customs_house(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::CustomsHouse, rng)
}

/// `clear_forest.forge`: clear the forest that is the best forge site.
pub fn clear_for_forge(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Forge, rng)
}

/// `clear_forest.sawmill`: clear the forest that is the best sawmill site.
pub fn clear_for_sawmill(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Sawmill, rng)
}

/// `clear_forest.windmill`: clear the forest that is the best windmill site.
pub fn clear_for_windmill(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    support(ctx, a, Building::Windmill, rng)
}

#[cfg(test)]
mod tests {
    use super::super::tests::run;
    use crate::games::tribes::ai::testing::setup;
    use crate::games::tribes::{Action, ActionKind, Building, Resource};

    fn farm(t: usize) -> Action {
        Action::new(ActionKind::Build, 0, Building::Farm as u8, t)
    }

    #[test]
    fn base_scripts_drop_the_best_site_only_under_java_compat() {
        for java in [false, true] {
            let (game, mut s) = setup(java);
            // Crops at (1, 1) and (1, 3): the edge tile (0, 2) is a windmill site worth 2/5 next
            // to both.
            s.tiles[8].resource = Some(Resource::Crops);
            s.tiles[10].resource = Some(Resource::Crops);
            let unique = run(&game, &s, "build.farm", &[farm(28), farm(8)]);
            let tied = run(&game, &s, "build.farm", &[farm(8), farm(10)]);
            if java {
                assert_eq!(unique, None);
                assert_eq!(tied, Some((farm(10), 0.4)));
            } else {
                assert_eq!(unique, Some((farm(8), 0.4)));
                assert!(matches!(tied, Some((a, 0.4)) if a == farm(8) || a == farm(10)));
            }
        }
    }

    #[test]
    fn temples_and_monuments_are_proposed_only_without_java_compat() {
        for java in [false, true] {
            let (game, s) = setup(java);
            let temple = Action::new(ActionKind::Build, 0, Building::Temple as u8, 9);
            let tomb = Action::new(ActionKind::Build, 0, Building::EmperorsTomb as u8, 9);
            let t = run(&game, &s, "build.temple", &[temple]);
            let m = run(&game, &s, "build.monument", &[temple, tomb]);
            if java {
                assert_eq!((t, m), (None, None));
            } else {
                assert!(matches!(t, Some((a, v)) if a == temple && (0.5..=1.0).contains(&v)));
                assert!(matches!(m, Some((a, _)) if a == tomb));
            }
        }
    }

    #[test]
    fn support_scripts_prefer_more_partners_and_accept_zero() {
        let (game, mut s) = setup(false);
        s.tiles[8].resource = Some(Resource::Crops);
        s.tiles[10].resource = Some(Resource::Crops);
        let mill = |t| Action::new(ActionKind::Build, 0, Building::Windmill as u8, t);
        assert_eq!(
            run(&game, &s, "build.windmill", &[mill(23), mill(9)]),
            Some((mill(9), 0.25))
        );
        assert_eq!(
            run(&game, &s, "build.windmill", &[mill(23)]),
            Some((mill(23), 0.0))
        );
        assert_eq!(run(&game, &s, "build.forge", &[mill(9)]), None);
    }
}

//! The scripted ability partial players, each following its
//! `source/ai/PartialPlayer_ActionAbility_*.cpp`.
//!
//! Differences from the C++:
//! - In the C++ engine a click on a targeted ability (a snipe or a chill) leaves nothing but
//!   its target legal, so `Default`, `ActivateAll` and `DontAttack`, which click without
//!   targeting, would leave such a click hanging; ours then choose the first legal target
//!   ([`super::target_first`]).
//! - `SnipeGreedyKnapsack` finds each sniper type's targets by clicking on a copy of the
//!   state rather than clicking and undoing; since a click is legal only when some target is,
//!   the C++ "undo the click if no target is left" never arises.
//! - `Random` picks among the legal clicks, targets and frontline attacks, and stops where
//!   the C++ would have picked the end of the phase; it buys nothing (buying is the buy
//!   players' part) and leaves the phase open like every ability player.
//! - Sorts are stable (ties keep unit order; `std::sort` leaves them unspecified).

use std::sync::Arc;

use rand::RngExt;

use super::{AbilityPlayer, target_first};
use crate::games::prismata::ai::heuristics::{
    UnitHeuristic, activate_order, current_value, is_econ, type_attack,
};
use crate::games::prismata::ai::partial::{PartialPlayer, PpPhase, TurnPlan, UnitFilter};
use crate::games::prismata::library::Target;
use crate::games::prismata::{Action, Resource, TurnPhase, rules};
use crate::rng::Rng;

/// True if `filter` excludes the type of the turn player's unit `i`.
fn filtered(filter: &Option<Arc<dyn UnitFilter>>, turn: &TurnPlan, i: usize) -> bool {
    filter.as_ref().is_some_and(|f| {
        let p = turn.player as usize;
        f.excludes(
            turn.library,
            &turn.state,
            p,
            turn.state.sides[p].units[i].kind,
        )
    })
}

/// The turn player's live units for which `keep` holds, in the C++ click order
/// ([`activate_order`]).
fn in_click_order(turn: &TurnPlan, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let p = turn.player as usize;
    let mut units: Vec<usize> = (0..turn.state.sides[p].units.len())
        .filter(|&i| turn.state.sides[p].units[i].alive && keep(i))
        .collect();
    units.sort_by(|&a, &b| activate_order(turn.library, &turn.state, p, a, b));
    units
}

/// One pass over `units` while the player may click: clicks each unit that `skip` does not
/// exclude, then targets the click if it waits for its target ([`target_first`]). Returns
/// whether to pass again: it clicked a unit, and the player could click before every unit.
fn click_pass(
    turn: &mut TurnPlan,
    units: impl IntoIterator<Item = usize>,
    skip: &impl Fn(&TurnPlan, usize) -> bool,
) -> bool {
    let mut clicked = false;
    for i in units {
        if !turn.acting() {
            return false;
        }
        if !skip(turn, i) && turn.try_apply(Action::Click(i as u16)) {
            clicked = true;
            target_first(turn);
        }
    }
    clicked
}

/// Clicks the units of `units` that `skip` does not exclude, pass after pass, until a pass
/// clicks nothing.
fn click_repeatedly(turn: &mut TurnPlan, units: &[usize], skip: impl Fn(&TurnPlan, usize) -> bool) {
    while click_pass(turn, units.iter().copied(), &skip) {}
}

/// `ActionAbility_EconomyDefault`: clicks every economy unit ([`is_econ`]: Drones) that can.
#[derive(Clone, Copy, Debug, Default)]
pub struct EconomyDefault;

impl AbilityPlayer for EconomyDefault {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let p = turn.player as usize;
        for i in 0..turn.state.sides[p].units.len() {
            let u = &turn.state.sides[p].units[i];
            if u.alive && is_econ(turn.library.get(u.kind)) {
                turn.try_apply(Action::Click(i as u16));
            }
        }
    }
}

/// `ActionAbility_AttackDefault` [Attack All]: clicks every unit whose click makes attack,
/// in the C++ click order, except units of filtered types and units the click's HP cost
/// would kill.
#[derive(Clone, Debug, Default)]
pub struct AttackDefault {
    /// Types not to click (C++ `filter`).
    pub filter: Option<Arc<dyn UnitFilter>>,
}

impl AbilityPlayer for AttackDefault {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let p = turn.player as usize;
        let lib = turn.library;
        let attackers = in_click_order(turn, |i| {
            let t = lib.get(turn.state.sides[p].units[i].kind);
            t.click
                .as_ref()
                .is_some_and(|c| c.receive.get(Resource::Attack) > 0)
        });
        click_repeatedly(turn, &attackers, |turn, i| {
            let u = &turn.state.sides[p].units[i];
            let hp_cost = lib.get(u.kind).click.as_ref().map_or(0, |c| c.hp_cost);
            filtered(&self.filter, turn, i) || (hp_cost > 0 && u.hp == hp_cost)
        });
    }
}

/// HP an HP-paying unit keeps when the enemy owns an Apollo (which snipes units with at most
/// 3 HP).
const APOLLO_SAFE_HP: u16 = 3;

/// `ActionAbility_ActivateUtility`: clicks every unit whose click is neither attack nor gold
/// nor targeted, in the C++ click order, except units of filtered types and HP-paying units
/// the click would bring to 0 HP, or to 3 HP or less while the enemy owns an Apollo.
#[derive(Clone, Debug, Default)]
pub struct ActivateUtility {
    /// Types not to click (C++ `filter`).
    pub filter: Option<Arc<dyn UnitFilter>>,
}

impl AbilityPlayer for ActivateUtility {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let p = turn.player as usize;
        let lib = turn.library;
        let utility = in_click_order(turn, |i| {
            let t = lib.get(turn.state.sides[p].units[i].kind);
            t.click.as_ref().is_some_and(|c| {
                c.target.is_none()
                    && c.receive.get(Resource::Attack) == 0
                    && c.receive.get(Resource::Gold) == 0
            })
        });
        let apollo = lib.id("Apollo");
        let enemy_has_apollo = turn.state.sides[1 - p]
            .units
            .iter()
            .any(|u| u.alive && Some(u.kind) == apollo);
        let bound = if enemy_has_apollo { APOLLO_SAFE_HP } else { 0 };
        click_repeatedly(turn, &utility, |turn, i| {
            let u = &turn.state.sides[p].units[i];
            let hp_cost = lib.get(u.kind).click.as_ref().map_or(0, |c| c.hp_cost);
            filtered(&self.filter, turn, i)
                || (hp_cost > 0 && u.hp > bound && u.hp.saturating_sub(hp_cost) <= bound)
        });
    }
}

/// `ActionAbility_FrontlineGreedyKnapsack`: the enemy's frontline units sorted by a score,
/// highest first; attacks the first it legally can, repeatedly, each at most once.
#[derive(Clone, Copy, Debug)]
pub struct FrontlineGreedyKnapsack {
    /// The score of an enemy unit (default [`current_value`]).
    pub heuristic: UnitHeuristic,
}

impl Default for FrontlineGreedyKnapsack {
    fn default() -> Self {
        FrontlineGreedyKnapsack {
            heuristic: current_value,
        }
    }
}

impl AbilityPlayer for FrontlineGreedyKnapsack {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let o = 1 - turn.player as usize;
        let lib = turn.library;
        let mut targets: Vec<(f64, u16)> = (0..turn.state.sides[o].units.len())
            .filter(|&j| {
                let u = &turn.state.sides[o].units[j];
                u.alive && lib.get(u.kind).frontline
            })
            .map(|j| ((self.heuristic)(lib, &turn.state, o, j), j as u16))
            .collect();
        targets.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut left: Vec<u16> = targets.into_iter().map(|(_, j)| j).collect();
        while turn.acting() {
            let Some(k) = left
                .iter()
                .position(|&j| turn.is_legal(Action::Frontline(j)))
            else {
                break;
            };
            turn.apply(Action::Frontline(left.remove(k)));
        }
    }
}

/// `ActionAbility_SnipeGreedyKnapsack`: for each sniper type (in library order), the enemy
/// units its snipers may target sorted by a score, highest first; each of its snipers that
/// can click snipes the first of them still legal.
#[derive(Clone, Copy, Debug)]
pub struct SnipeGreedyKnapsack {
    /// The score of an enemy unit (default [`current_value`];
    /// [`crate::games::prismata::ai::heuristics::snipe_highest_defense`] predicts the enemy).
    pub heuristic: UnitHeuristic,
}

impl Default for SnipeGreedyKnapsack {
    fn default() -> Self {
        SnipeGreedyKnapsack {
            heuristic: current_value,
        }
    }
}

impl AbilityPlayer for SnipeGreedyKnapsack {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let lib = turn.library;
        let p = turn.player as usize;
        let o = 1 - p;
        let is_sniper = |kind: u16| {
            matches!(
                lib.get(kind).click.as_ref().and_then(|c| c.target),
                Some(Target::SnipeHealthAtMost(_) | Target::SnipeTech)
            )
        };
        let mut kinds: Vec<u16> = turn.state.sides[p]
            .units
            .iter()
            .filter(|u| u.alive && is_sniper(u.kind))
            .map(|u| u.kind)
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds {
            let snipers: Vec<u16> = (0..turn.state.sides[p].units.len() as u16)
                .filter(|&i| {
                    let u = &turn.state.sides[p].units[i as usize];
                    u.alive && u.kind == kind
                })
                .collect();
            // The targets of this type: those legal after a click on a copy of the state.
            let Some(&first) = snipers.iter().find(|&&i| turn.is_legal(Action::Click(i))) else {
                continue;
            };
            let mut probe = turn.state.clone();
            rules::apply(lib, &mut probe, Action::Click(first));
            let mut targets: Vec<(f64, u16)> = (0..probe.sides[o].units.len() as u16)
                .filter(|&j| rules::is_legal(lib, &probe, Action::Target(j)))
                .map(|j| ((self.heuristic)(lib, &turn.state, o, j as usize), j))
                .collect();
            targets.sort_by(|a, b| b.0.total_cmp(&a.0));
            for &i in &snipers {
                if !turn.acting() || !turn.try_apply(Action::Click(i)) {
                    continue;
                }
                match targets
                    .iter()
                    .find(|&&(_, j)| turn.is_legal(Action::Target(j)))
                {
                    Some(&(_, j)) => turn.apply(Action::Target(j)),
                    None => target_first(turn),
                }
            }
        }
    }
}

/// `ActionAbility_DontAttack` [Do Not Attack]: one pass over its units, clicking those whose
/// type makes no attack.
#[derive(Clone, Copy, Debug, Default)]
pub struct DontAttack;

impl AbilityPlayer for DontAttack {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let p = turn.player as usize;
        let lib = turn.library;
        let units = 0..turn.state.sides[p].units.len();
        click_pass(turn, units, &|turn: &TurnPlan, i| {
            type_attack(lib.get(turn.state.sides[p].units[i].kind)) != 0
        });
    }
}

/// Clicks the first legal unit, from the start each time, until none is legal.
fn click_first_repeatedly(turn: &mut TurnPlan) {
    let p = turn.player as usize;
    while turn.acting() {
        let Some(a) = (0..turn.state.sides[p].units.len() as u16)
            .map(Action::Click)
            .find(|&a| turn.is_legal(a))
        else {
            return;
        };
        turn.apply(a);
        target_first(turn);
    }
}

/// `ActionAbility_Default`: clicks the first legal unit, repeatedly, until none is.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbilityDefault;

impl AbilityPlayer for AbilityDefault {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        click_first_repeatedly(turn);
    }
}

/// `ActionAbility_ActivateAll`: clicks the first legal unit with an ability, repeatedly,
/// until none is (the same clicks as [`AbilityDefault`]: only units with an ability click).
#[derive(Clone, Copy, Debug, Default)]
pub struct ActivateAll;

impl AbilityPlayer for ActivateAll {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        click_first_repeatedly(turn);
    }
}

/// `ActionAbility_Random`: a uniformly random choice among the legal clicks, targets,
/// frontline attacks and "stop" (the C++ end of the phase), repeatedly until it stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbilityRandom;

impl PartialPlayer for AbilityRandom {
    fn phase(&self) -> PpPhase {
        PpPhase::Ability
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        let mut legal = Vec::new();
        while turn.in_turn() && turn.state.phase == TurnPhase::Action {
            turn.legal_actions(&mut legal);
            legal.retain(|a| !matches!(a, Action::Buy(_)));
            if legal.is_empty() {
                return;
            }
            let a = legal[rng.random_range(0..legal.len())];
            if a == Action::EndPhase {
                return;
            }
            turn.apply(a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::heuristics::snipe_highest_defense;
    use crate::games::prismata::ai::testing::{add, clear, id, lib, random_games, start};
    use crate::games::prismata::{Library, State};
    use crate::rng::rng_from_seed;

    /// Excludes one type.
    #[derive(Debug)]
    struct Exclude(u16);

    impl UnitFilter for Exclude {
        fn excludes(&self, _: &Library, _: &State, _: usize, kind: u16) -> bool {
            kind == self.0
        }
    }

    fn play(player: &dyn PartialPlayer, s: &State) -> TurnPlan<'static> {
        let mut turn = TurnPlan::new(lib(), s.clone());
        player.play(&mut turn, &mut rng_from_seed(0));
        assert!(turn.acting(), "the action phase stays open");
        turn
    }

    fn clicks(turn: &TurnPlan) -> Vec<Action> {
        turn.actions.clone()
    }

    #[test]
    fn economy_clicks_the_drones_only() {
        let mut s = start("Amporilla");
        let rhino = add(&mut s, 0, "Rhino");
        let turn = play(&EconomyDefault, &s);
        assert_eq!(clicks(&turn), (0..6).map(Action::Click).collect::<Vec<_>>());
        assert_eq!(turn.state.sides[0].resources.get(Resource::Gold), 6);
        assert!(turn.is_legal(Action::Click(rhino as u16)));
    }

    #[test]
    fn attack_default_clicks_attackers_unless_filtered() {
        let mut s = start("Amporilla");
        let rhino = add(&mut s, 0, "Rhino") as u16;
        let turn = play(&AttackDefault::default(), &s);
        assert_eq!(clicks(&turn), vec![Action::Click(rhino)]);
        assert_eq!(turn.state.sides[0].resources.get(Resource::Attack), 1);
        let filtered = AttackDefault {
            filter: Some(Arc::new(Exclude(id("Rhino")))),
        };
        assert!(clicks(&play(&filtered, &s)).is_empty());
    }

    #[test]
    fn utility_keeps_hp_payers_out_of_apollo_range() {
        let mut s = start("Tantalum Ray,Apollo");
        let ray = add(&mut s, 0, "Tantalum Ray");
        s.sides[0].units[ray].hp = 5;
        let weak = add(&mut s, 0, "Tantalum Ray");
        s.sides[0].units[weak].hp = 2;
        // No Apollo: the 5-HP ray clicks (to 3 HP), the 2-HP one would die.
        assert_eq!(
            clicks(&play(&ActivateUtility::default(), &s)),
            vec![Action::Click(ray as u16)]
        );
        // The enemy's Apollo snipes units with 3 HP or less: the 5-HP ray keeps out of its
        // range; the 2-HP one is in it anyway and clicks (as in the C++, even to its death).
        add(&mut s, 1, "Apollo");
        assert_eq!(
            clicks(&play(&ActivateUtility::default(), &s)),
            vec![Action::Click(weak as u16)]
        );
        // Drones (gold) are not utility.
        assert!(!clicks(&play(&ActivateUtility::default(), &s)).contains(&Action::Click(0)));
    }

    #[test]
    fn frontline_knapsack_kills_the_most_valuable_it_can() {
        let mut s = start("Galvani Drone,Wild Drone,Shredder");
        clear(&mut s, 1);
        let galvani = add(&mut s, 1, "Galvani Drone") as u16;
        let wild = add(&mut s, 1, "Wild Drone") as u16;
        let shredder = add(&mut s, 1, "Shredder") as u16;
        // Shredder 6.5 (4 HP), Wild Drone 6 (3 HP), Galvani Drone 1.5 (1 HP).
        s.sides[0].resources.set(Resource::Attack, 5);
        assert_eq!(
            clicks(&play(&FrontlineGreedyKnapsack::default(), &s)),
            vec![Action::Frontline(shredder), Action::Frontline(galvani)]
        );
        s.sides[0].resources.set(Resource::Attack, 3);
        assert_eq!(
            clicks(&play(&FrontlineGreedyKnapsack::default(), &s)),
            vec![Action::Frontline(wild)]
        );
    }

    #[test]
    fn snipers_take_the_best_target_by_their_heuristic() {
        let mut s = start("Apollo");
        let apollo = add(&mut s, 0, "Apollo") as u16;
        clear(&mut s, 1);
        let wall = add(&mut s, 1, "Wall") as u16;
        let tarsier = add(&mut s, 1, "Tarsier") as u16;
        // By value the Tarsier (4.9 × 1.28) beats the Wall (6.5 / 1.13).
        assert_eq!(
            clicks(&play(&SnipeGreedyKnapsack::default(), &s)),
            vec![Action::Click(apollo), Action::Target(tarsier)]
        );
        // Predicting the enemy: it snipes the biggest blocker.
        let defense = SnipeGreedyKnapsack {
            heuristic: snipe_highest_defense,
        };
        assert_eq!(
            clicks(&play(&defense, &s)),
            vec![Action::Click(apollo), Action::Target(wall)]
        );
    }

    #[test]
    fn dont_attack_and_default_differ_on_attackers() {
        let mut s = start("Apollo");
        let rhino = add(&mut s, 0, "Rhino") as u16;
        let apollo = add(&mut s, 0, "Apollo") as u16;
        let quiet = clicks(&play(&DontAttack, &s));
        assert!(!quiet.contains(&Action::Click(rhino)));
        assert!(quiet.contains(&Action::Click(0)));
        // The Apollo has no attack: it clicks and targets the first unit it may.
        let snipe = quiet
            .iter()
            .position(|&a| a == Action::Click(apollo))
            .unwrap();
        assert!(matches!(quiet[snipe + 1], Action::Target(_)));
        for all in [
            clicks(&play(&AbilityDefault, &s)),
            clicks(&play(&ActivateAll, &s)),
        ] {
            assert!(all.contains(&Action::Click(rhino)));
            assert!(all.contains(&Action::Click(apollo)));
            assert!((0..6).all(|i| all.contains(&Action::Click(i))));
        }
    }

    #[test]
    fn ability_players_play_legally_in_random_games() {
        let players: [&dyn PartialPlayer; 10] = [
            &EconomyDefault,
            &AttackDefault::default(),
            &ActivateUtility::default(),
            &FrontlineGreedyKnapsack::default(),
            &SnipeGreedyKnapsack::default(),
            &SnipeGreedyKnapsack {
                heuristic: snipe_highest_defense,
            },
            &DontAttack,
            &AbilityDefault,
            &ActivateAll,
            &AbilityRandom,
        ];
        for p in players {
            assert!(random_games(p, 6, 80) > 20, "{p:?} played too rarely");
        }
    }
}

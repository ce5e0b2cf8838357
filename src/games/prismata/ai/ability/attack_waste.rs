//! `ActionAbility_AvoidAttackWaste` (C++ `PartialPlayer_ActionAbility_AvoidAttackWaste.cpp`):
//! once the attackers are clicked, take back the clicks whose attack would change nothing,
//! down to the least attack that inflicts the same loss
//! ([`AttackDamageScenario::loss_decrease_threshold`]); first keep lifespan-1 attackers home
//! as blockers when the predicted enemy attack calls for it; then spend attack beyond the
//! threshold on "pay attack, get resources" clicks.
//!
//! Attackers are taken back in the C++ order: self-sacrificing ones first (most valuable
//! first), then those with fewest charges, then the most exhausting, then the best blockers
//! per attack. The C++ undoes and redoes; we take clicks back with [`TurnPlan::without`] and keep
//! the result only if the attack stays at or above the threshold.

use crate::games::prismata::action::can_block;
use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::ability::avoid_breach::clicked_this_phase;
use crate::games::prismata::ai::attack_scenario::AttackDamageScenario;
use crate::games::prismata::ai::heuristics::current_value;
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::ai::predict::predict_enemy_next_turn;
use crate::games::prismata::{Action, Resource};
use crate::rng::Rng;

/// Takes back attack clicks that would be wasted.
#[derive(Clone, Debug, Default)]
pub struct AvoidAttackWaste;

fn attack(turn: &TurnPlan) -> u16 {
    turn.state.sides[turn.player as usize]
        .resources
        .get(Resource::Attack)
}

/// The attack a type's click makes.
fn click_attack(turn: &TurnPlan, kind: u16) -> u16 {
    turn.library
        .get(kind)
        .click
        .as_ref()
        .map_or(0, |c| c.receive.get(Resource::Attack))
}

impl AvoidAttackWaste {
    /// Clicked attackers (live or sacrificed), in the order to take them back.
    fn clicked_attackers(turn: &TurnPlan) -> Vec<u16> {
        let lib = turn.library;
        let p = turn.player as usize;
        let s = &turn.state;
        let units = &s.sides[p].units;
        let mut keyed: Vec<([f64; 4], u32, u16)> = (0..units.len() as u16)
            .filter(|&i| {
                click_attack(turn, units[i as usize].kind) > 0 && clicked_this_phase(turn, i)
            })
            .map(|i| {
                let u = &units[i as usize];
                let t = lib.get(u.kind);
                let click = t.click.as_ref().expect("an attacker clicks");
                let key = [
                    if click.selfsac {
                        current_value(lib, s, p, i as usize)
                    } else {
                        0.0
                    },
                    if t.charges > 0 {
                        -f64::from(u.charges)
                    } else {
                        -10000.0
                    },
                    f64::from(click.exhaust),
                    f64::from(u.hp) / f64::from(click.receive.get(Resource::Attack)),
                ];
                (key, u.id, i)
            })
            .collect();
        // Larger keys first, then creation order.
        keyed.sort_by(|a, b| {
            b.0.iter()
                .zip(&a.0)
                .map(|(x, y)| x.total_cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.1.cmp(&b.1))
        });
        keyed.into_iter().map(|(_, _, i)| i).collect()
    }

    /// Ready units whose click costs attack and gives something else.
    fn attack_spenders(turn: &TurnPlan) -> Vec<u16> {
        let lib = turn.library;
        let units = &turn.state.sides[turn.player as usize].units;
        (0..units.len() as u16)
            .filter(|&i| {
                let t = lib.get(units[i as usize].kind);
                t.click.as_ref().is_some_and(|c| {
                    !c.selfsac
                        && t.charges == 0
                        && c.target.is_none()
                        && c.cost.get(Resource::Attack) > 0
                }) && turn.is_legal(Action::Click(i))
            })
            .collect()
    }

    /// Keeps lifespan-1 attackers home when the predicted enemy attack would otherwise
    /// reach past our largest absorber.
    fn keep_short_lived_blockers(turn: &mut TurnPlan, attackers: &[u16]) {
        let p = turn.player as usize;
        let lifespan_one =
            |turn: &TurnPlan, i: u16| turn.state.sides[p].units[i as usize].lifespan == 1;
        if !attackers.iter().any(|&i| lifespan_one(turn, i)) {
            return;
        }
        let lib = turn.library;
        let mut predicted = turn.state.clone();
        predict_enemy_next_turn(lib, &mut predicted, true);
        let enemy_attack = predicted.sides[1 - p].resources.get(Resource::Attack);
        let largest_absorber = turn.state.sides[p]
            .units
            .iter()
            .filter(|u| {
                let t = lib.get(u.kind);
                can_block(u, t) && !t.fragile
            })
            .map(|u| u.hp)
            .max()
            .unwrap_or(0);
        for &i in attackers {
            let u = turn.state.sides[p].units[i as usize];
            if u.lifespan != 1 || click_attack(turn, u.kind) > u.hp {
                continue;
            }
            if u32::from(enemy_attack) + 1 >= u32::from(u.hp) + u32::from(largest_absorber)
                && let Some(back) = turn.without(|a| a == Action::Click(i))
            {
                *turn = back;
            }
        }
    }
}

impl AbilityPlayer for AvoidAttackWaste {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let current = attack(turn);
        if current == 0 {
            return;
        }
        let o = 1 - turn.player as usize;
        let enemy_hp: u32 = turn.state.sides[o]
            .units
            .iter()
            .filter(|u| u.alive)
            .map(|u| u32::from(u.hp))
            .sum();
        if u32::from(current) >= enemy_hp {
            return; // this attack wins
        }
        let attackers = Self::clicked_attackers(turn);
        let spenders = Self::attack_spenders(turn);
        if attackers.is_empty() && spenders.is_empty() {
            return;
        }
        Self::keep_short_lived_blockers(turn, &attackers);
        let mut scenario = AttackDamageScenario::new(turn.library, turn.state.clone());
        let threshold = scenario.loss_decrease_threshold(attack(turn));
        for &i in &attackers {
            if !clicked_this_phase(turn, i) {
                continue;
            }
            if let Some(back) = turn.without(|a| a == Action::Click(i))
                && attack(&back) >= threshold
            {
                *turn = back;
            }
            if attack(turn) == threshold {
                break;
            }
        }
        for &i in &spenders {
            if !turn.is_legal(Action::Click(i)) {
                continue;
            }
            let mut clicked = turn.clone();
            clicked.apply(Action::Click(i));
            if attack(&clicked) >= threshold {
                *turn = clicked;
            }
            if attack(turn) == threshold {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Library;
    use crate::games::prismata::ai::ability::basic::{AttackDefault, EconomyDefault};
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::ai::testing::facing;
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    /// Player 0 with `own` ready units, facing player 1 holding only `enemy`.
    fn position(own: &[&str], enemy: &[&str]) -> TurnPlan<'static> {
        TurnPlan::new(lib(), facing("Shiver Yeti", own, enemy))
    }

    #[test]
    fn attack_beyond_what_changes_the_loss_stays_home() {
        // Five Rhinos (1 attack each) against two Walls and a Steelsplitter (3 HP each): 3
        // attack kills one of them and 5 kills no more.
        let mut turn = position(&["Rhino"; 5], &["Wall", "Wall", "Steelsplitter"]);
        AttackDefault::default().play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(attack(&turn), 5);
        let mut scenario = AttackDamageScenario::new(lib(), turn.state.clone());
        let threshold = scenario.loss_decrease_threshold(5);
        assert!(threshold < 5, "threshold {threshold}");
        AvoidAttackWaste.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(attack(&turn), threshold);
        let clicked = turn
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Click(_)))
            .count();
        assert_eq!(
            clicked, threshold as usize,
            "the other Rhinos stay home to block"
        );
    }

    #[test]
    fn a_winning_attack_is_kept_whole() {
        let mut turn = position(&["Rhino"; 5], &["Wall"]);
        AttackDefault::default().play(&mut turn, &mut rng_from_seed(1));
        let before = turn.actions.clone();
        AvoidAttackWaste.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(turn.actions, before);
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(14, 10, 40);
        let before: [Arc<dyn PartialPlayer>; 2] =
            [Arc::new(EconomyDefault), Arc::new(AttackDefault::default())];
        let acted = sample::plays_legally_after(&before, Arc::new(AvoidAttackWaste), &positions);
        assert!(acted > 0, "it changed the turn somewhere");
    }
}

//! `ActionAbility_UntapAvoidBreach` [Leave Block] (C++
//! `PartialPlayer_ActionAbility_UntapAvoidBreach.cpp`): unless our attack breaches, while the
//! predicted enemy attack would reach past our predicted defense, take a Drone click back (the
//! Drone blocks again), predicting anew after each.
//!
//! The C++ undoes the clicks; we take them back with [`TurnPlan::without`], skipping one whose
//! take-back would strand a later action.

use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::ability::avoid_breach::clicked_this_phase;
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::ai::predict::predict_enemy_next_turn;
use crate::games::prismata::combat::total_defense;
use crate::games::prismata::{Action, Resource};
use crate::rng::Rng;

/// Takes Drone clicks back until the predicted enemy attack no longer breaches.
#[derive(Clone, Debug, Default)]
pub struct UntapAvoidBreach;

impl AbilityPlayer for UntapAvoidBreach {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let lib = turn.library;
        let p = turn.player as usize;
        let attack = turn.state.sides[p].resources.get(Resource::Attack);
        if u32::from(attack) >= total_defense(lib, &turn.state, 1 - p) {
            return; // we breach them: never mind
        }
        let Some(drone) = lib.id("Drone") else { return };
        let units = &turn.state.sides[p].units;
        let mut drones: Vec<u16> = (0..units.len() as u16)
            .filter(|&i| units[i as usize].alive && units[i as usize].kind == drone)
            .filter(|&i| clicked_this_phase(turn, i))
            .collect();
        drones.reverse(); // taken from the back: the C++ picks the first of equal ratios
        loop {
            let mut predicted = turn.state.clone();
            predict_enemy_next_turn(lib, &mut predicted, true);
            let enemy_attack = predicted.sides[1 - p].resources.get(Resource::Attack);
            if enemy_attack == 0 || u32::from(enemy_attack) < total_defense(lib, &predicted, p) {
                return;
            }
            let mut untapped = false;
            while let Some(i) = drones.pop() {
                if let Some(back) = turn.without(|a| a == Action::Click(i)) {
                    *turn = back;
                    untapped = true;
                    break;
                }
            }
            if !untapped {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::ability::basic::EconomyDefault;
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::{Level, Library, State, Status};
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    #[test]
    fn drones_stay_home_until_the_predicted_attack_is_absorbed() {
        // Player 1 has four ready Tarsiers (4 attack at its turn start); we have 2 Engineers
        // to block with once our Drones are clicked.
        let mut s = State::new(lib(), &Level::load(lib(), "units:Shiver Yeti").unwrap());
        for _ in 0..4 {
            let i = s.add_unit(lib(), 1, lib().id("Tarsier").unwrap(), 0, 0);
            s.sides[1].units[i].status = Status::Default;
        }
        let mut turn = TurnPlan::new(lib(), s);
        EconomyDefault.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(turn.actions.len(), 6);
        UntapAvoidBreach.play(&mut turn, &mut rng_from_seed(1));
        // 4 attack < defense needs 2 Engineers + 3 Drones.
        assert_eq!(turn.actions.len(), 3, "{:?}", turn.actions);
        let mut predicted = turn.state.clone();
        predict_enemy_next_turn(lib(), &mut predicted, true);
        assert!(
            u32::from(predicted.sides[1].resources.get(Resource::Attack))
                < total_defense(lib(), &predicted, 0)
        );
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(15, 10, 40);
        let before: [Arc<dyn PartialPlayer>; 1] = [Arc::new(EconomyDefault)];
        let acted = sample::plays_legally_after(&before, Arc::new(UntapAvoidBreach), &positions);
        assert!(acted > 0, "it changed the turn somewhere");
    }
}

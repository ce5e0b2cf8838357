//! `ActionAbility_ChillGreedyKnapsack` (C++
//! `PartialPlayer_ActionAbility_ChillGreedyKnapsack.cpp`): if our attack could breach once
//! our chill froze the enemy's largest blockers, freeze them greedily, largest first, each
//! with the chillers closest to what it still needs; otherwise chill nothing.

use crate::games::prismata::action::can_block;
use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::chill::chill_amount;
use crate::games::prismata::ai::heuristics::{UnitHeuristic, current_value};
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::{Action, Resource, Status};
use crate::rng::Rng;

/// Freezes the enemy's largest blockers when that lets our attack through.
#[derive(Clone, Debug)]
pub struct ChillGreedyKnapsack {
    /// Orders blockers of equal HP: the lower value is frozen first (C++ default
    /// `CurrentCardValue`).
    pub heuristic: UnitHeuristic,
}

impl Default for ChillGreedyKnapsack {
    fn default() -> Self {
        ChillGreedyKnapsack {
            heuristic: current_value,
        }
    }
}

impl ChillGreedyKnapsack {
    /// Clicks chillers at enemy unit `target` until it is frozen; returns the chill used.
    fn freeze(turn: &mut TurnPlan, chillers: &[u16], target: u16) -> u16 {
        let lib = turn.library;
        let (p, o) = (turn.player as usize, 1 - turn.player as usize);
        let mut used = 0;
        loop {
            let t = turn.state.sides[o].units[target as usize];
            if !t.alive || t.chill >= t.hp {
                return used;
            }
            let remaining = i32::from(t.hp - t.chill);
            // The chiller closest to what is left: exact, else the smallest overshoot, else
            // the largest undershoot.
            let mut best: Option<(u16, i32)> = None;
            for &i in chillers {
                if !turn.is_legal(Action::Click(i)) {
                    continue;
                }
                let amount = chill_amount(lib.get(turn.state.sides[p].units[i as usize].kind))
                    .expect("a chiller");
                let diff = i32::from(amount) - remaining;
                // As the C++: the first legal one, then an exact one (which ends the look),
                // else a closer one.
                match best {
                    None => best = Some((i, diff)),
                    Some(_) if diff == 0 => {
                        best = Some((i, diff));
                        break;
                    }
                    Some((_, b)) if (b < 0 && diff > b) || (diff > 0 && diff < b) => {
                        best = Some((i, diff));
                    }
                    Some(_) => {}
                }
            }
            let Some((i, _)) = best else { return used };
            used += chill_amount(lib.get(turn.state.sides[p].units[i as usize].kind)).unwrap();
            turn.apply(Action::Click(i));
            if !turn.try_apply(Action::Target(target)) {
                unreachable!("a blocker that is not frozen can be chilled");
            }
        }
    }
}

impl AbilityPlayer for ChillGreedyKnapsack {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let lib = turn.library;
        let (p, o) = (turn.player as usize, 1 - turn.player as usize);
        let attack = turn.state.sides[p].resources.get(Resource::Attack);
        if attack == 0 {
            return;
        }
        let units = &turn.state.sides[p].units;
        let chillers: Vec<u16> = (0..units.len() as u16)
            .filter(|&i| {
                let u = &units[i as usize];
                let t = lib.get(u.kind);
                chill_amount(t).is_some()
                    && u.alive
                    && u.status == Status::Default
                    && u.construction == 0
                    && (t.charges == 0 || u.charges > 0)
            })
            .collect();
        if chillers.is_empty() {
            return;
        }
        let total_chill: u16 = chillers
            .iter()
            .map(|&i| chill_amount(lib.get(units[i as usize].kind)).unwrap())
            .sum();
        let s = &turn.state;
        let mut blockers: Vec<(u16, f64, u16)> = (0..s.sides[o].units.len() as u16)
            .filter(|&j| {
                let u = &s.sides[o].units[j as usize];
                can_block(u, lib.get(u.kind))
            })
            .map(|j| {
                let hp = s.sides[o].units[j as usize].hp;
                (hp, (self.heuristic)(lib, s, o, j as usize), j)
            })
            .collect();
        if blockers.is_empty() {
            return;
        }
        blockers.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)));
        // The largest blocker left if the chill were spent perfectly, largest first.
        let mut left = total_chill;
        let mut largest_left = 0;
        for &(hp, _, _) in &blockers {
            if hp <= left {
                left -= hp;
            } else {
                largest_left = hp;
                break;
            }
        }
        if attack < largest_left {
            return;
        }
        let mut chill_left = total_chill;
        for &(_, _, j) in &blockers {
            let u = turn.state.sides[o].units[j as usize];
            if u.chill >= u.hp || u.hp > chill_left {
                continue;
            }
            let used = Self::freeze(turn, &chillers, j);
            if used > 0 && used < u.hp {
                return; // a chiller could not be clicked
            }
            chill_left = chill_left.saturating_sub(used);
            if chill_left == 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::ai::testing::facing;
    use crate::games::prismata::{Library, State};
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    /// Player 0 with `chillers` ready and `attack`; player 1 with `blockers` instead of its
    /// starting units.
    fn position(chillers: &[&str], blockers: &[&str], attack: u16) -> State {
        let mut s = facing("Shiver Yeti,Frost Brooder", chillers, blockers);
        s.sides[0].resources.set(Resource::Attack, attack);
        s
    }

    fn chilled(turn: &TurnPlan) -> Vec<u16> {
        turn.state.sides[1].units.iter().map(|u| u.chill).collect()
    }

    #[test]
    fn it_freezes_the_largest_blockers_when_the_attack_then_breaches() {
        // Two Yetis (2 chill each) freeze the Wall (3 HP) with one point to spare, leaving
        // two 1-HP Drones that 2 attack kills.
        let s = position(
            &["Shiver Yeti", "Shiver Yeti"],
            &["Drone", "Wall", "Drone"],
            2,
        );
        let mut turn = TurnPlan::new(lib(), s);
        ChillGreedyKnapsack::default().play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(chilled(&turn), [0, 4, 0]);
        assert!(turn.in_turn() && turn.state.armed.is_none());
    }

    #[test]
    fn it_chills_nothing_when_the_attack_would_not_get_through() {
        // After freezing the Wall, a 3-HP Wall is left and 2 attack cannot kill it.
        let s = position(&["Shiver Yeti", "Shiver Yeti"], &["Wall", "Wall"], 2);
        let mut turn = TurnPlan::new(lib(), s.clone());
        ChillGreedyKnapsack::default().play(&mut turn, &mut rng_from_seed(1));
        assert!(turn.actions.is_empty());
        let mut turn = TurnPlan::new(lib(), s);
        turn.state.sides[0].resources.set(Resource::Attack, 3);
        ChillGreedyKnapsack::default().play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(chilled(&turn), [4, 0]);
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(12, 12, 40);
        let acted = sample::plays_legally(Arc::new(ChillGreedyKnapsack::default()), &positions);
        assert!(acted > 0, "it froze something somewhere");
    }
}

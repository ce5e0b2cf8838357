//! The simple breach-avoiding buyer (C++ `PartialPlayer_ActionBuy_AvoidBreach.cpp`): buy
//! prompt blockers until the enemy's predicted attack next turn can no longer breach.
//!
//! It predicts the enemy's next turn ([`predict_enemy_next_turn`] on a copy of the state),
//! adds the chill the enemy can apply to its attack, and compares that with the player's
//! defense in the predicted position. Unless its biggest blocker alone outlasts the attack: if
//! one affordable prompt blocker (not fragile, not about to expire) would absorb the whole
//! attack, it buys the cheapest such (even where the defense would hold without it, as the C++
//! does); otherwise, if the attack would breach, it buys prompt blockers, the sturdiest first,
//! until the defense exceeds the attack.

use std::cmp::{Ordering, Reverse};
use std::sync::Arc;

use super::{buy_action, enemy_chill_potential, try_buy, within_limit};
use crate::games::prismata::action::can_block;
use crate::games::prismata::ai::heuristics::{buy_total_cost, type_attack};
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::ai::predict::predict_enemy_next_turn;
use crate::games::prismata::{Library, Resource};
use crate::rng::Rng;

/// Buys prompt blockers against a predicted breach (C++ `ActionBuy_AvoidBreach`); see the
/// [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct BuyAvoidBreach {
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

/// The order blockers are bought in (C++ `CompareMostDefense`): not fragile first, then the
/// lower lifespan (the C++ ranks by minus the lifespan: unlimited, 0, first, then 1, 2, …),
/// then more HP, then library order.
fn most_defense_first(lib: &Library, a: u16, b: u16) -> Ordering {
    let key = |k: u16| {
        let t = lib.get(k);
        (!t.fragile, Reverse(t.lifespan), t.hp, Reverse(k))
    };
    key(b).cmp(&key(a))
}

impl PartialPlayer for BuyAvoidBreach {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting() {
            return;
        }
        let lib = turn.library;
        let p = turn.player as usize;
        let o = 1 - p;
        // A quick bound first: the attack of the enemy units ready by next turn.
        let bound: u32 = turn.state.sides[o]
            .units
            .iter()
            .filter(|u| u.alive && u.construction < 2)
            .map(|u| u32::from(type_attack(lib.get(u.kind))))
            .sum();
        if bound == 0 {
            return;
        }
        let mut predicted = turn.state.clone();
        predict_enemy_next_turn(lib, &mut predicted, true);
        let mut attack = u32::from(predicted.sides[o].resources.get(Resource::Attack));
        if attack == 0 {
            return;
        }
        attack += enemy_chill_potential(lib, &predicted, o);

        let mut defense = 0u32;
        let mut biggest = 0u32;
        for u in &predicted.sides[p].units {
            let t = lib.get(u.kind);
            if can_block(u, t) {
                defense += u32::from(u.hp);
                if !t.fragile {
                    biggest = biggest.max(u32::from(u.hp));
                }
            }
        }
        if attack < biggest {
            return;
        }

        let mut blockers: Vec<u16> = turn
            .state
            .buyable
            .iter()
            .copied()
            .filter(|&k| {
                let t = lib.get(k);
                t.blocks && t.build == 0
            })
            .collect();
        if blockers.is_empty() {
            return;
        }
        blockers.sort_by(|&a, &b| most_defense_first(lib, a, b));

        // One blocker that soaks everything: the cheapest.
        let s = &turn.state;
        let mut absorber: Option<u16> = None;
        for &k in &blockers {
            let t = lib.get(k);
            let buyable = buy_action(s, k)
                .is_some_and(|a| turn.is_legal(a) && within_limit(&self.buy_limits, s, p, k));
            if u32::from(t.hp) > attack
                && !t.fragile
                && t.lifespan != 1
                && buyable
                && absorber.is_none_or(|best| buy_total_cost(lib, k) < buy_total_cost(lib, best))
            {
                absorber = Some(k);
            }
        }
        if let Some(k) = absorber {
            try_buy(turn, &self.buy_limits, k);
            return;
        }
        if attack < defense {
            return;
        }
        let mut bought = 0u32;
        for &k in &blockers {
            while try_buy(turn, &self.buy_limits, k) {
                bought += u32::from(lib.get(k).hp);
                if defense + bought > attack {
                    return;
                }
            }
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyAvoidBreach {
            buy_limits: self.buy_limits.merged(limits),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::buy::test_support::{
        bought, buys_in_random_games, id, lib, set_gold, start,
    };
    use crate::games::prismata::{Action, State};
    use crate::rng::rng_from_seed;

    /// Player 0 facing five enemy Tarsiers (5 attack next turn), its Drones clicked (so they
    /// cannot block): 2 HP of Engineers left to block with.
    fn threatened(pool: &str) -> State {
        let mut s = start(pool);
        for _ in 0..5 {
            s.add_unit(lib(), 1, id("Tarsier"), 0, 0);
        }
        let mut turn = TurnPlan::new(lib(), s);
        for i in 0..6 {
            turn.apply(Action::Click(i));
        }
        turn.state
    }

    fn run(s: State) -> Vec<String> {
        let mut turn = TurnPlan::new(lib(), s);
        BuyAvoidBreach::default().play(&mut turn, &mut rng_from_seed(1));
        bought(&turn)
    }

    #[test]
    fn one_big_enough_blocker_is_bought_alone() {
        // Polywall (6 HP, not fragile) soaks the 5 attack by itself.
        let mut s = threatened("Polywall");
        set_gold(&mut s, 10);
        s.sides[0].resources.set(Resource::Blue, 2);
        assert_eq!(run(s), ["Polywall"]);
    }

    #[test]
    fn otherwise_the_sturdiest_blockers_until_the_defense_holds() {
        // 2 HP of Engineers; Walls (3 HP) first: 2 + 3 = 5 is not enough, 2 + 6 is.
        let mut s = threatened("Vivid Drone");
        set_gold(&mut s, 20);
        s.sides[0].resources.set(Resource::Blue, 3);
        assert_eq!(run(s), ["Wall", "Wall"]);
    }

    #[test]
    fn nothing_is_bought_without_a_threat() {
        let mut s = start("Polywall");
        set_gold(&mut s, 20);
        s.sides[0].resources.set(Resource::Blue, 2);
        assert!(run(s.clone()).is_empty(), "the enemy has no attacker");
        // Five Tarsiers against 8 HP of blockers: a single absorber is still bought (as in
        // the C++), but without one nothing is.
        for _ in 0..5 {
            s.add_unit(lib(), 1, id("Tarsier"), 0, 0);
        }
        assert_eq!(run(s.clone()), ["Polywall"]);
        s.buyable.retain(|&k| k != id("Polywall"));
        assert!(run(s).is_empty());
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let (runs, _) = buys_in_random_games(&BuyAvoidBreach::default(), 6, 60);
        assert!(runs > 0);
    }
}

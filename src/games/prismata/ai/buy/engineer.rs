//! The third-Engineer rule of the opening (C++
//! `PartialPlayer_ActionBuy_EngineerHeuristic.cpp`, after a post by the Prismata player
//! Elyot).
//!
//! The C++ also names "Chronofilter" among the enemy units that call the rule off, a name its
//! library lacks (the unit is Chrono Filter), so that check never applied; we keep the
//! behaviour and check only the tech buildings.

use std::sync::Arc;

use super::{try_buy, within_limit};
use crate::games::prismata::ai::heuristics::type_attack;
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Resource, UnitType};
use crate::rng::Rng;

/// Buys one Engineer when the player owns only Drones and exactly two Engineers, the enemy
/// owns no tech building (Animus, Blastforge, Conduit), and the buy pool has a sturdy blocker
/// (blocks, not fragile, at least 4 HP, attack at most half its HP) or more than two units
/// costing two or more blue (C++ `ActionBuy_EngineerHeuristic`).
#[derive(Clone, Debug, Default)]
pub struct BuyEngineerHeuristic {
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

/// A blocker the third Engineer helps to afford early.
fn sturdy_blocker(t: &UnitType) -> bool {
    t.blocks && !t.fragile && t.hp >= 4 && type_attack(t) <= t.hp / 2
}

impl PartialPlayer for BuyEngineerHeuristic {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting() {
            return;
        }
        let lib = turn.library;
        let (Some(engineer), Some(drone)) = (lib.id("Engineer"), lib.id("Drone")) else {
            return;
        };
        let s = &turn.state;
        let p = turn.player as usize;
        let Some(buy) = super::buy_action(s, engineer) else {
            return;
        };
        if !turn.is_legal(buy) || !within_limit(&self.buy_limits, s, p, engineer) {
            return;
        }
        let mine = s.sides[p].units.iter().filter(|u| u.alive);
        if mine.clone().any(|u| u.kind != drone && u.kind != engineer)
            || mine.filter(|u| u.kind == engineer).count() != 2
        {
            return;
        }
        if s.sides[1 - p]
            .units
            .iter()
            .any(|u| u.alive && lib.get(u.kind).tech)
        {
            return;
        }
        let sturdy = s.buyable.iter().any(|&k| sturdy_blocker(lib.get(k)));
        let big_blue = s
            .buyable
            .iter()
            .filter(|&&k| lib.get(k).cost.get(Resource::Blue) >= 2)
            .count();
        if sturdy || big_blue > 2 {
            try_buy(turn, &self.buy_limits, engineer);
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyEngineerHeuristic {
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
    use crate::rng::rng_from_seed;

    fn run(s: crate::games::prismata::State) -> Vec<String> {
        let mut turn = TurnPlan::new(lib(), s);
        BuyEngineerHeuristic::default().play(&mut turn, &mut rng_from_seed(1));
        bought(&turn)
    }

    #[test]
    fn a_sturdy_blocker_in_the_pool_calls_for_a_third_engineer() {
        // Any sturdy blocker of the random pool will do.
        let sturdy = (0..lib().units().len() as u16)
            .filter(|&k| lib().get(k).set == crate::games::prismata::UnitSet::Pool)
            .find(|&k| sturdy_blocker(lib().get(k)))
            .expect("the pool has a sturdy blocker");
        let mut s = start(&lib().get(sturdy).name);
        set_gold(&mut s, 6);
        assert_eq!(run(s.clone()), ["Engineer"]);

        // Not once the enemy owns a tech building, nor when we own anything else.
        let mut t = s.clone();
        t.add_unit(lib(), 1, id("Conduit"), 1, 0);
        assert!(run(t).is_empty());
        let mut t = s.clone();
        t.add_unit(lib(), 0, id("Wall"), 0, 0);
        assert!(run(t).is_empty());
        let mut t = s;
        t.add_unit(lib(), 0, id("Engineer"), 1, 0);
        assert!(run(t).is_empty(), "three Engineers already");
    }

    #[test]
    fn without_a_reason_no_engineer_is_bought() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 6);
        assert!(
            !s.buyable.iter().any(|&k| sturdy_blocker(lib().get(k))),
            "the base set has no sturdy blocker"
        );
        assert!(run(s).is_empty());
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        assert!(buys_in_random_games(&BuyEngineerHeuristic::default(), 6, 40).0 > 0);
    }
}

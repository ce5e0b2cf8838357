//! The simplest buying players: buy every base-set unit it can (C++
//! `PartialPlayer_ActionBuy_Default.cpp`), buy nothing (`PartialPlayer_ActionBuy_Nothing.cpp`)
//! and buy at random (`PartialPlayer_ActionBuy_Random.cpp`). Default and Random honour buy
//! limits, which the C++ ignores (see [`super`]).

use std::sync::Arc;

use rand::RngExt;

use super::{try_buy, within_limit};
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Action, UnitSet};
use crate::rng::Rng;

/// Buys as many as it can of each base-set unit, in buy-pool order (C++
/// `ActionBuy_Default`).
#[derive(Clone, Debug, Default)]
pub struct BuyDefault {
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

impl PartialPlayer for BuyDefault {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting() {
            return;
        }
        for k in 0..turn.state.buyable.len() {
            let kind = turn.state.buyable[k];
            if turn.library.get(kind).set == UnitSet::Base {
                while try_buy(turn, &self.buy_limits, kind) {}
            }
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyDefault {
            buy_limits: self.buy_limits.merged(limits),
        })
    }
}

/// Buys nothing (C++ `ActionBuy_Nothing`).
#[derive(Clone, Copy, Debug, Default)]
pub struct BuyNothing;

impl PartialPlayer for BuyNothing {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, _turn: &mut TurnPlan, _rng: &mut Rng) {}

    fn with_buy_limits(&self, _limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyNothing)
    }
}

/// The most actions the C++ puts in one move (`MAX_MOVE_ACTIONS`); the random buyer stops
/// there.
const MAX_MOVE_ACTIONS: usize = 512;

/// Buys a uniformly random legal unit, again and again, until none is legal (C++
/// `ActionBuy_Random`).
#[derive(Clone, Debug, Default)]
pub struct BuyRandom {
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

impl PartialPlayer for BuyRandom {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        let mut buys = Vec::new();
        while turn.acting() && turn.actions.len() < MAX_MOVE_ACTIONS {
            let p = turn.player as usize;
            buys.clear();
            buys.extend(
                (0..turn.state.buyable.len() as u16)
                    .map(Action::Buy)
                    .filter(|&a| {
                        let Action::Buy(k) = a else { return false };
                        let kind = turn.state.buyable[k as usize];
                        within_limit(&self.buy_limits, &turn.state, p, kind) && turn.is_legal(a)
                    }),
            );
            if buys.is_empty() {
                return;
            }
            turn.apply(buys[rng.random_range(0..buys.len())]);
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyRandom {
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

    #[test]
    fn default_buys_base_units_in_pool_order_until_the_gold_runs_out() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 9);
        let mut turn = TurnPlan::new(lib(), s);
        BuyDefault::default().play(&mut turn, &mut rng_from_seed(1));
        // Drones cost 3 gold and 1 energy (two Engineers make 2 energy), Engineers 2 gold:
        // 1 gold is left, too little for anything else.
        assert_eq!(bought(&turn), ["Drone", "Drone", "Engineer"]);
        assert!(turn.acting(), "the action phase stays open");
    }

    #[test]
    fn default_stops_at_a_buy_limit() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 9);
        // Player 0 owns 6 Drones: a limit of 7 lets it buy one, then Engineers (2 gold each).
        let buyer = BuyDefault::default().with_buy_limits(&BuyLimits::new([(id("Drone"), 7)]));
        let mut turn = TurnPlan::new(lib(), s);
        buyer.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Engineer", "Engineer", "Engineer"]);
    }

    #[test]
    fn nothing_buys_nothing() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 20);
        let mut turn = TurnPlan::new(lib(), s);
        BuyNothing.play(&mut turn, &mut rng_from_seed(1));
        assert!(turn.actions.is_empty());
    }

    #[test]
    fn random_spends_until_nothing_is_affordable() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 1);
        s.sides[0].units.clear();
        let mut turn = TurnPlan::new(lib(), s.clone());
        BuyRandom::default().play(&mut turn, &mut rng_from_seed(1));
        assert!(turn.actions.is_empty(), "nothing costs 1 gold");
        set_gold(&mut s, 12);
        let mut turn = TurnPlan::new(lib(), s);
        BuyRandom::default().play(&mut turn, &mut rng_from_seed(3));
        assert!(!turn.actions.is_empty());
        let mut legal = Vec::new();
        turn.legal_actions(&mut legal);
        assert!(
            !legal.iter().any(|a| matches!(a, Action::Buy(_))),
            "it stops only when no buy is legal"
        );
    }

    #[test]
    fn they_play_legally_in_random_games() {
        let limits = BuyLimits::new([(id("Drone"), 9)]);
        let (runs, buys) = buys_in_random_games(&BuyDefault::default(), 4, 60);
        assert!(runs > 0 && buys > 0);
        let limited = BuyDefault::default().with_buy_limits(&limits);
        let (runs, buys) = buys_in_random_games(limited.as_ref(), 4, 60);
        assert!(runs > 0 && buys > 0);
        assert_eq!(buys_in_random_games(&BuyNothing, 2, 40).1, 0);
        let (runs, buys) = buys_in_random_games(&BuyRandom::default(), 4, 60);
        assert!(runs > 0 && buys > 0);
    }
}

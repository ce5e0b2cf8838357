//! Buying a fixed list of types in order (C++ `PartialPlayer_ActionBuy_Sequence.cpp`).

use std::sync::Arc;

use super::try_buy;
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::rng::Rng;

/// For each (type, most) of its sequence in turn, buys that type while it can, at most `most`
/// copies (0: no cap), and not beyond the buy limits (C++ `ActionBuy_Sequence`). The
/// shipped econ player is the sequence Vivid Drone, Drone, Engineer with an Engineer limit.
#[derive(Clone, Debug, Default)]
pub struct BuySequence {
    /// (library id, most to buy this turn; 0 = as many as possible), in order.
    pub sequence: Vec<(u16, u16)>,
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

impl PartialPlayer for BuySequence {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting() {
            return;
        }
        for &(kind, most) in &self.sequence {
            let mut bought = 0;
            while (most == 0 || bought < most) && try_buy(turn, &self.buy_limits, kind) {
                bought += 1;
            }
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuySequence {
            sequence: self.sequence.clone(),
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

    /// Vivid Drones, then Drones, then Engineers, as many as it can.
    fn econ() -> BuySequence {
        BuySequence {
            sequence: vec![
                (id("Vivid Drone"), 0),
                (id("Drone"), 0),
                (id("Engineer"), 0),
            ],
            buy_limits: BuyLimits::default(),
        }
    }

    #[test]
    fn buys_in_order_within_the_caps_and_limits() {
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 13);
        // Vivid Drone: 4 gold, 3 energy — only 2 energy, so none; two Drones (6 gold, 2
        // energy); Engineers up to the limit of 3 owned (one more).
        let buyer = econ().with_buy_limits(&BuyLimits::new([(id("Engineer"), 3)]));
        let mut turn = TurnPlan::new(lib(), s.clone());
        buyer.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Drone", "Engineer"]);

        let one = BuySequence {
            sequence: vec![(id("Drone"), 1), (id("Engineer"), 2)],
            buy_limits: BuyLimits::default(),
        };
        let mut turn = TurnPlan::new(lib(), s);
        one.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Engineer", "Engineer"]);
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let econ = econ().with_buy_limits(&BuyLimits::new([(id("Engineer"), 2)]));
        let (runs, buys) = buys_in_random_games(econ.as_ref(), 6, 60);
        assert!(runs > 0 && buys > 0);
    }
}

//! Buying tech buildings (C++ `PartialPlayer_ActionBuy_TechHeuristic.cpp`): whether to buy
//! one Conduit, Blastforge or Animus this turn, from the colour demand of the random set
//! ("Elyot's formula", spec §11.6).
//!
//! As in the C++, `Diversify` buys nothing (its body is empty there), and the buy limits of
//! the three buildings cap the income of their colour (an Animus makes 2 red, so its limit
//! counts twice).

use std::sync::Arc;

use crate::games::prismata::ai::heuristics::type_attack;
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Action, Resource, Resources, UnitSet};
use crate::rng::Rng;

/// Which rule decides (config `heuristic`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TechHeuristic {
    /// `ElyotFormula`: the formula.
    #[default]
    ElyotFormula,
    /// `ElyotFormulaBalanced`: the formula, but no more of a colour while another is missing.
    ElyotFormulaBalanced,
    /// `ElyotFormulaPlayout`: the formula, stopping once blue + green + red/2 income reaches
    /// 3 (for fast playouts).
    ElyotFormulaPlayout,
    /// `Diversify`: buys nothing (unfinished in the C++).
    Diversify,
}

/// Buys at most one tech building per call, as its [`TechHeuristic`] decides (C++
/// `ActionBuy_TechHeuristic`). Does nothing below 4 gold.
#[derive(Clone, Debug, Default)]
pub struct BuyTechHeuristic {
    /// The rule.
    pub heuristic: TechHeuristic,
    /// Caps on the tech buildings (see the [module docs](self)).
    pub buy_limits: BuyLimits,
}

/// One colour's candidate: whether its building may be bought, its desirability and minus its
/// income, compared in that order.
type Rank = [f64; 3];

/// `a` ranks at least as high as `b` (lexicographic; the C++ `greaterThan` is true on ties).
fn at_least(a: &Rank, b: &Rank) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x > y {
            return true;
        }
        if x < y {
            return false;
        }
    }
    true
}

impl BuyTechHeuristic {
    fn elyot(&self, turn: &mut TurnPlan, balanced: bool, playout: bool) {
        let lib = turn.library;
        let s = &turn.state;
        let p = turn.player as usize;
        let gold = s.sides[p].resources.get(Resource::Gold);
        let conduit = lib.id("Conduit");
        let blastforge = lib.id("Blastforge");
        let animus = lib.id("Animus");
        let action = |kind: Option<u16>| kind.and_then(|k| super::buy_action(s, k));
        let (buy_c, buy_b, buy_a) = (action(conduit), action(blastforge), action(animus));
        let legal = |a: Option<Action>| a.is_some_and(|a| turn.is_legal(a));
        let (has_c, has_b, has_a) = (buy_c.is_some(), buy_b.is_some(), buy_a.is_some());
        let (mut ok_c, mut ok_b, mut ok_a) = (legal(buy_c), legal(buy_b), legal(buy_a));

        // No Blastforge on turn 2 and the like: the gold of the whole turn (spent and left)
        // must reach 11 for a Blastforge, 10 for a Conduit and 9 for an Animus, the first and
        // last unless the enemy already has an attacker.
        if lib.id("Drone").is_some_and(|d| s.buyable.contains(&d)) {
            let spent: u32 = turn
                .actions
                .iter()
                .filter_map(|a| match a {
                    Action::Buy(k) => Some(u32::from(
                        lib.get(s.buyable[*k as usize]).cost.get(Resource::Gold),
                    )),
                    _ => None,
                })
                .sum();
            let enemy_attacker = s.sides[1 - p]
                .units
                .iter()
                .any(|u| u.alive && type_attack(lib.get(u.kind)) > 0);
            let total = spent + u32::from(gold);
            ok_b &= enemy_attacker || total >= 11;
            ok_c &= total >= 10;
            ok_a &= enemy_attacker || total >= 9;
        }
        if !(ok_c || ok_b || ok_a) {
            return;
        }

        let mut income = Resources::NONE;
        for u in s.sides[p].units.iter().filter(|u| u.alive) {
            if let Some(ts) = &lib.get(u.kind).turn_start {
                income.gain(&ts.receive);
            }
        }
        let inc = |r: Resource| i32::from(income.get(r));

        // The colour demand of the random-set units the player may still buy.
        let mut dominion = 0i32;
        let mut count = [0i32; 3]; // green, blue, red symbols
        let mut most = [0i32; 3];
        let (mut blue_enough, mut blue_one, mut blue_two) = (0i32, 0i32, 0i32);
        let (mut red_enough, mut red_one, mut red_two) = (0i32, 0i32, 0i32);
        for (k, &kind) in s.buyable.iter().enumerate() {
            let t = lib.get(kind);
            if t.set == UnitSet::Base || s.sides[p].bought[k] >= t.rarity.supply() {
                continue;
            }
            dominion += 1;
            for (i, r) in [Resource::Green, Resource::Blue, Resource::Red]
                .into_iter()
                .enumerate()
            {
                let c = i32::from(t.cost.get(r));
                count[i] += c;
                most[i] = most[i].max(c);
            }
            let blue = i32::from(t.cost.get(Resource::Blue));
            let need_blue = blue - inc(Resource::Blue);
            if need_blue > 0 {
                blue_one += 1;
                if need_blue > 1 {
                    blue_two += 1;
                }
            } else if blue > 0 {
                blue_enough += 1;
            }
            let red = i32::from(t.cost.get(Resource::Red));
            let need_red = red - inc(Resource::Red);
            if need_red > 0 {
                red_one += 1;
                if need_red > 2 {
                    red_two += 1;
                }
            } else if red > 0 {
                red_enough += 1;
            }
        }

        // How much income of each colour to aim for.
        let mut max_c = most[0].clamp(2, 3);
        let mut max_b = most[1].max(2);
        let mut max_a = most[2].max(2);
        if !(has_b || has_a) {
            max_c = 4;
        }
        if !(has_c || has_a) {
            max_b = 4;
        }
        if !(has_b || has_c) {
            max_a = 4;
        }
        let limit = |kind: Option<u16>| kind.and_then(|k| self.buy_limits.limit(k));
        if let Some(l) = limit(conduit) {
            max_c = max_c.min(i32::from(l));
        }
        if let Some(l) = limit(blastforge) {
            max_b = max_b.min(i32::from(l));
        }
        if let Some(l) = limit(animus) {
            max_a = max_a.min(2 * i32::from(l));
        }

        let (g, b, r) = (
            inc(Resource::Green),
            inc(Resource::Blue),
            inc(Resource::Red),
        );
        if playout && b + g + r / 2 >= 3 {
            return;
        }
        ok_c &= g < max_c;
        ok_b &= b < max_b;
        ok_a &= r < max_a;
        if balanced {
            ok_c &= !(g > 0 && (r == 0 || b == 0));
            ok_b &= !(b > 0 && (g == 0 || r == 0));
            ok_a &= !(r > 0 && (b == 0 || g == 0));
        }

        let all_symbols = f64::from(count[0] + count[1] + count[2]);
        let stored_green = (i32::from(s.sides[p].resources.get(Resource::Green)) - g).max(0);
        let green = if ok_c {
            3.0 * f64::from(1 + count[0] - stored_green - g) / (3.0 + all_symbols)
        } else {
            0.0
        };
        let demand = |producing: bool, one: i32, two: i32, enough: i32| {
            let base = if producing { 1.0 } else { 2.0 };
            2.0 * (base + 2.5 * f64::from(one) - f64::from(two) + f64::from(enough))
                / f64::from(3 + dominion)
        };
        let blue = if ok_b {
            demand(b > 0, blue_one, blue_two, blue_enough)
        } else {
            0.0
        };
        let red = if ok_a {
            demand(r > 0, red_one, red_two, red_enough)
        } else {
            0.0
        };
        let flag = |ok: bool| if ok { 1.0 } else { 0.0 };
        let rank_b: Rank = [flag(ok_b), blue, -f64::from(b)];
        let rank_c: Rank = [flag(ok_c), green, -f64::from(g)];
        let rank_a: Rank = [flag(ok_a), red, -f64::from(r)];

        let choice = if ok_b && at_least(&rank_b, &rank_c) && at_least(&rank_b, &rank_a) {
            buy_b
        } else if ok_c && at_least(&rank_c, &rank_b) && at_least(&rank_c, &rank_a) {
            buy_c
        } else if ok_a && at_least(&rank_a, &rank_c) && at_least(&rank_a, &rank_b) {
            buy_a
        } else {
            None
        };
        if let Some(a) = choice {
            turn.apply(a);
        }
    }
}

impl PartialPlayer for BuyTechHeuristic {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting()
            || turn.state.sides[turn.player as usize]
                .resources
                .get(Resource::Gold)
                < 4
        {
            return;
        }
        match self.heuristic {
            TechHeuristic::ElyotFormula => self.elyot(turn, false, false),
            TechHeuristic::ElyotFormulaBalanced => self.elyot(turn, true, false),
            TechHeuristic::ElyotFormulaPlayout => self.elyot(turn, false, true),
            TechHeuristic::Diversify => {}
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyTechHeuristic {
            heuristic: self.heuristic,
            buy_limits: self.buy_limits.merged(limits),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::State;
    use crate::games::prismata::ai::buy::test_support::{
        bought, buys_in_random_games, id, lib, set_gold, start,
    };
    use crate::rng::rng_from_seed;

    fn run(player: &BuyTechHeuristic, s: State) -> Vec<String> {
        let mut turn = TurnPlan::new(lib(), s);
        player.play(&mut turn, &mut rng_from_seed(1));
        bought(&turn)
    }

    /// A set whose random units cost blue only, two each.
    const BLUE_SET: &str = "Grenade Mech,Drake,Energy Matrix";

    #[test]
    fn blue_demand_buys_a_blastforge_once_the_gold_allows() {
        let elyot = BuyTechHeuristic::default();
        let mut s = start(BLUE_SET);
        set_gold(&mut s, 10);
        // Below 11 gold no Blastforge; red then ranks above green (2·2/6 against 3·1/9).
        assert_eq!(run(&elyot, s.clone()), ["Animus"]);
        set_gold(&mut s, 11);
        assert_eq!(run(&elyot, s.clone()), ["Blastforge"]);
        set_gold(&mut s, 3);
        assert!(run(&elyot, s).is_empty(), "below 4 gold it does nothing");
    }

    #[test]
    fn limits_and_income_caps_stop_it() {
        let mut s = start(BLUE_SET);
        set_gold(&mut s, 20);
        let no_blue = BuyTechHeuristic {
            heuristic: TechHeuristic::ElyotFormula,
            buy_limits: BuyLimits::new([(id("Blastforge"), 0)]),
        };
        let got = run(&no_blue, s.clone());
        assert!(!got.contains(&"Blastforge".to_string()), "{got:?}");
        // Enough blue income already (the set needs at most 2): no more Blastforges.
        let mut t = s.clone();
        for _ in 0..2 {
            t.add_unit(lib(), 0, id("Blastforge"), 0, 0);
        }
        let got = run(&BuyTechHeuristic::default(), t);
        assert!(!got.contains(&"Blastforge".to_string()), "{got:?}");
        let playout = BuyTechHeuristic {
            heuristic: TechHeuristic::ElyotFormulaPlayout,
            buy_limits: BuyLimits::default(),
        };
        for _ in 0..3 {
            s.add_unit(lib(), 0, id("Conduit"), 0, 0);
        }
        assert!(
            run(&playout, s).is_empty(),
            "3 income: the playout rule stops"
        );
    }

    #[test]
    fn diversify_buys_nothing() {
        let mut s = start(BLUE_SET);
        set_gold(&mut s, 20);
        let d = BuyTechHeuristic {
            heuristic: TechHeuristic::Diversify,
            buy_limits: BuyLimits::default(),
        };
        assert!(run(&d, s).is_empty());
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        for heuristic in [
            TechHeuristic::ElyotFormula,
            TechHeuristic::ElyotFormulaBalanced,
            TechHeuristic::ElyotFormulaPlayout,
        ] {
            let player = BuyTechHeuristic {
                heuristic,
                buy_limits: BuyLimits::default(),
            };
            let (runs, buys) = buys_in_random_games(&player, 10, 80);
            assert!(runs > 0 && buys > 0, "{heuristic:?}");
        }
    }
}

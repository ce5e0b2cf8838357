//! The scores the greedy-knapsack buyer ranks unit types by (the `Buy*` functions of C++
//! `Heuristics.cpp`).

use crate::games::prismata::ai::heuristics::{
    attack_produced_by_type, buy_total_cost, inflated_total_value, num_resonatees_ready,
    num_resonators_ready,
};
use crate::games::prismata::{Library, State, UnitSet};

/// Extra score of an attacker that stays (not single-use, or resonating).
const PERMANENT_BONUS: f64 = 10_000.0;
/// Extra score of an attacker from the random set, or one that resonates.
const DOMINION_BONUS: f64 = 1_000.0;
/// Extra score of any attacker, so that attackers come before everything else.
const ATTACKER_BONUS: f64 = 100.0;

/// The value of a unit type for player `p` to buy in `s` (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuyValue {
    /// [`buy_attack_value`] (config `BuyAttackValue`).
    AttackValue,
    /// [`buy_block_value`] (config `BuyBlockValue`).
    BlockValue,
    /// [`buy_highest_cost`] (config `BuyWillScore`: the C++ maps that name to
    /// `BuyHighestCost`).
    WillScore,
}

impl BuyValue {
    /// The score of buying a unit of `kind` for player `p` in `s`.
    pub fn score(self, lib: &Library, s: &State, p: usize, kind: u16) -> f64 {
        match self {
            BuyValue::AttackValue => buy_attack_value(lib, s, p, kind),
            BuyValue::BlockValue => buy_block_value(lib, s, p, kind),
            BuyValue::WillScore => buy_highest_cost(lib, s, p, kind),
        }
    }
}

/// The inflated total value of the type (C++ `BuyHighestCost`): the most expensive first.
pub fn buy_highest_cost(lib: &Library, _s: &State, _p: usize, kind: u16) -> f64 {
    inflated_total_value(lib, kind)
}

/// Attack per unit of cost, with bonuses that put attackers first, lasting attackers before
/// single-use ones, and random-set or resonating attackers before base-set ones; a type that
/// makes no attack scores its [`buy_highest_cost`] (C++ `BuyAttackValue`).
pub fn buy_attack_value(lib: &Library, s: &State, p: usize, kind: u16) -> f64 {
    let t = lib.get(kind);
    let attack = f64::from(attack_produced_by_type(lib, s, p, kind));
    // As in the C++, a free unit divides by zero: infinite if it attacks, NaN (not an
    // attacker) if not.
    let mut value = attack / buy_total_cost(lib, kind);
    if value.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return buy_highest_cost(lib, s, p, kind);
    }
    let selfsac = |sc: &Option<crate::games::prismata::library::Script>| {
        sc.as_ref().is_some_and(|sc| sc.selfsac)
    };
    let single_use = selfsac(&t.click) || selfsac(&t.turn_start);
    let resonates = num_resonators_ready(lib, s, p, kind, 1) > 0
        || num_resonatees_ready(lib, s, p, kind, 1) > 0;
    value += ATTACKER_BONUS;
    if !single_use || resonates {
        value += PERMANENT_BONUS;
    }
    if t.set != UnitSet::Base || resonates {
        value += DOMINION_BONUS;
    }
    value
}

/// HP² per unit of cost for a type that blocks, 0 for one that does not (C++
/// `BuyBlockValue`).
pub fn buy_block_value(lib: &Library, _s: &State, _p: usize, kind: u16) -> f64 {
    let t = lib.get(kind);
    let block = if t.blocks { f64::from(t.hp) } else { 0.0 };
    block * block / buy_total_cost(lib, kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::buy::test_support::{id, lib, start};

    #[test]
    fn attackers_come_first_lasting_and_random_set_ones_before_the_others() {
        let s = start("Protoplasm,Frostbite");
        let v = |name: &str| buy_attack_value(lib(), &s, 0, id(name));
        // Tarsier (base set, lasting attacker) beats every non-attacker, even a costly one.
        assert!(v("Tarsier") > PERMANENT_BONUS && v("Tarsier") < PERMANENT_BONUS + DOMINION_BONUS);
        assert!(v("Tarsier") > v("Gauss Cannon").min(v("Wall")));
        assert_eq!(v("Wall"), buy_highest_cost(lib(), &s, 0, id("Wall")));
        // Protoplasm sacrifices itself when it attacks: a single-use random-set attacker.
        let proto = v("Protoplasm");
        assert!(proto > DOMINION_BONUS && proto < PERMANENT_BONUS, "{proto}");
    }

    #[test]
    fn block_value_is_hp_squared_per_cost_for_blockers_only() {
        let s = start("Grenade Mech");
        let wall = buy_block_value(lib(), &s, 0, id("Wall"));
        assert!((wall - 9.0 / buy_total_cost(lib(), id("Wall"))).abs() < 1e-12);
        assert_eq!(buy_block_value(lib(), &s, 0, id("Tarsier")), 0.0);
        assert_eq!(
            BuyValue::WillScore.score(lib(), &s, 0, id("Wall")),
            inflated_total_value(lib(), id("Wall"))
        );
    }
}

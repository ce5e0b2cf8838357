//! The greedy-knapsack buyer (C++ `PartialPlayer_ActionBuy_GreedyKnapsack.cpp`): rank the
//! buyable types once by a [`BuyValue`], then buy the best one still worth buying, again and
//! again, until nothing more is.
//!
//! A type is skipped (C++ `shouldNotBuy` and the loop's own check) if
//! - the filter excludes it, unless it would resonate with a unit the player owns and the
//!   filter allows resonating types;
//! - it costs attack and an enemy unit is chilled (the chill was planned with that attack);
//! - it is out of sync: its ability exhausts it for two turns or more and an owned unit of the
//!   type is not on the cycle a new one would start on;
//! - the player owns its buy limit (a resonating type is let through);
//! - its click costs energy, blue or red and next turn's income (with what was bought this
//!   turn) would not pay for every such click;
//! - it gives the enemy units whose attack, with the enemy's predicted attack and chill,
//!   would reach the player's defense.
//!
//! A Frontline type the enemy's predicted attack can kill scores a hundred-thousandth of its
//! value. The prediction is [`predict_enemy_next_turn`] on a copy of the state.
//!
//! Where we differ: a score that is not a number (0/0 for a free unit, which the built-in
//! library does not have) ranks last instead of wherever the C++ sort leaves it.

use std::cmp::Ordering;
use std::sync::Arc;

use super::{BuyValue, buy_action, enemy_chill_potential};
use crate::games::prismata::ai::filter::{CardFilter, count_owned};
use crate::games::prismata::ai::heuristics::{num_resonators_ready, type_attack};
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::ai::predict::predict_enemy_next_turn;
use crate::games::prismata::combat::total_defense;
use crate::games::prismata::{Action, Library, Resource, Resources, State, UnitType};
use crate::rng::Rng;

/// A Frontline type the enemy can kill next turn has its score divided by this.
const FRONTLINE_PENALTY: f64 = 100_000.0;

/// Buys the best-scoring types greedily (C++ `ActionBuy_GreedyKnapsack`); see the
/// [module docs](self).
#[derive(Clone, Debug)]
pub struct BuyGreedyKnapsack {
    /// The score it ranks types by (config `heuristic`; C++ default `BuyHighestCost`, our
    /// [`BuyValue::WillScore`]).
    pub value: BuyValue,
    /// The types it does not buy.
    pub filter: Arc<CardFilter>,
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

impl Default for BuyGreedyKnapsack {
    fn default() -> BuyGreedyKnapsack {
        BuyGreedyKnapsack {
            value: BuyValue::WillScore,
            filter: Arc::new(CardFilter::default()),
            buy_limits: BuyLimits::default(),
        }
    }
}

/// What the buyer tracks while it buys (C++ `calculateStateData`, `updateStateData`).
struct Outlook {
    /// An enemy unit carries chill.
    enemy_chilled: bool,
    /// What the player's clicks that cost energy, blue or red cost together.
    click_costs: Resources,
    /// The player's turn-start income, with what was bought this turn.
    income: Resources,
    /// The player's available defense, with the prompt blockers bought this turn.
    defense: u32,
    /// The enemy's predicted attack next turn, with attack given to it this turn.
    enemy_attack: u32,
    /// The chill the enemy can apply next turn.
    enemy_chill: u32,
}

/// True if `t`'s click costs a resource that is not banked (energy, blue or red): such clicks
/// must be paid from each turn's income.
fn pays_each_turn(t: &UnitType) -> bool {
    t.click.as_ref().is_some_and(|c| {
        c.cost.get(Resource::Energy) > 0
            || c.cost.get(Resource::Blue) > 0
            || c.cost.get(Resource::Red) > 0
    })
}

/// The turn-start income of a unit of `t`, with that of the units its purchase creates for
/// its owner (C++ `getBeginOwnTurnScript().getReceive()` + `getCreatedUnitsManaProduced`).
fn income_of(lib: &Library, t: &UnitType) -> Resources {
    let mut income = t
        .turn_start
        .as_ref()
        .map_or(Resources::NONE, |ts| ts.receive);
    for c in t.buy.iter().flat_map(|b| &b.create) {
        if !c.opponent
            && let Some(ts) = &lib.get(c.unit).turn_start
        {
            for _ in 0..c.count {
                income.gain(&ts.receive);
            }
        }
    }
    income
}

/// The attack of the units buying `t` gives the enemy (C++ `getAttackGivenToEnemy`).
pub fn attack_given_to_enemy(lib: &Library, t: &UnitType) -> u32 {
    t.buy
        .iter()
        .flat_map(|b| &b.create)
        .filter(|c| c.opponent)
        .map(|c| u32::from(type_attack(lib.get(c.unit))) * u32::from(c.count))
        .sum()
}

/// True if buying `kind` now would put player `p`'s units of that type out of step (C++
/// `AITools::PurchaseIsOutOfSync`): its click or turn start exhausts it for two turns or
/// more, and an owned unit of the type is not as far from ready as a new one would be.
pub fn purchase_out_of_sync(lib: &Library, s: &State, p: usize, kind: u16) -> bool {
    let t = lib.get(kind);
    let exhaust = |sc: &Option<crate::games::prismata::library::Script>| {
        sc.as_ref().map_or(0, |sc| sc.exhaust)
    };
    if exhaust(&t.click).max(exhaust(&t.turn_start)) < 2 {
        return false;
    }
    s.sides[p]
        .units
        .iter()
        .any(|u| u.alive && u.kind == kind && u.construction.max(u.delay) != t.build)
}

impl Outlook {
    fn new(lib: &Library, s: &State, p: usize) -> Outlook {
        let o = 1 - p;
        let mut click_costs = Resources::NONE;
        let mut income = Resources::NONE;
        for u in s.sides[p].units.iter().filter(|u| u.alive) {
            let t = lib.get(u.kind);
            if let Some(ts) = &t.turn_start {
                income.gain(&ts.receive);
            }
            if pays_each_turn(t)
                && let Some(c) = &t.click
            {
                click_costs.gain(&c.cost);
            }
        }
        let mut predicted = s.clone();
        predict_enemy_next_turn(lib, &mut predicted, true);
        Outlook {
            enemy_chilled: s.sides[o].units.iter().any(|u| u.alive && u.chill > 0),
            click_costs,
            income,
            defense: total_defense(lib, s, p),
            enemy_attack: u32::from(predicted.sides[o].resources.get(Resource::Attack)),
            enemy_chill: enemy_chill_potential(lib, &predicted, o),
        }
    }

    /// Accounts for a unit of `t` bought.
    fn bought(&mut self, lib: &Library, t: &UnitType) {
        self.enemy_attack += attack_given_to_enemy(lib, t);
        if t.blocks && t.build == 0 {
            self.defense += u32::from(t.hp);
        }
        if pays_each_turn(t)
            && let Some(c) = &t.click
        {
            self.click_costs.gain(&c.cost);
        }
        self.income.gain(&income_of(lib, t));
    }

    /// True if next turn's income pays for every click that must be paid each turn, with a
    /// unit of `t` more (C++ `canAffordToActivate`).
    fn can_run(&self, lib: &Library, t: &UnitType) -> bool {
        let Some(click) = &t.click else { return true };
        if click.cost.is_empty() || !pays_each_turn(t) {
            return true;
        }
        let mut income = self.income;
        income.gain(&income_of(lib, t));
        let mut costs = self.click_costs;
        costs.gain(&click.cost);
        income.covers(&costs)
    }
}

impl BuyGreedyKnapsack {
    /// True if `kind` is not to be bought now (C++ `shouldNotBuy`).
    fn skip(&self, lib: &Library, s: &State, p: usize, kind: u16, outlook: &Outlook) -> bool {
        let t = lib.get(kind);
        let resonates = num_resonators_ready(lib, s, p, kind, 1) > 0;
        (self.filter.evaluate(lib, s, p, kind) && !(resonates && self.filter.allow_resonate))
            || (outlook.enemy_chilled && t.cost.get(Resource::Attack) > 0)
            || purchase_out_of_sync(lib, s, p, kind)
            || (!resonates
                && self
                    .buy_limits
                    .limit(kind)
                    .is_some_and(|max| count_owned(s, p, kind) >= max))
            || !outlook.can_run(lib, t)
    }
}

impl PartialPlayer for BuyGreedyKnapsack {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting()
            || !(0..turn.state.buyable.len() as u16).any(|k| turn.is_legal(Action::Buy(k)))
        {
            return;
        }
        let lib = turn.library;
        let p = turn.player as usize;
        let mut outlook = Outlook::new(lib, &turn.state, p);

        let s = &turn.state;
        let mut ranked: Vec<(u16, f64)> = s
            .buyable
            .iter()
            .filter(|&&kind| !self.skip(lib, s, p, kind, &outlook))
            .map(|&kind| {
                let t = lib.get(kind);
                let mut score = self.value.score(lib, s, p, kind);
                if t.frontline && outlook.enemy_attack >= u32::from(t.hp) {
                    score /= FRONTLINE_PENALTY;
                }
                if score.is_nan() {
                    score = f64::NEG_INFINITY;
                }
                (kind, score)
            })
            .collect();
        // Stable: equal scores keep buy-pool order.
        ranked.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(Ordering::Equal));

        while turn.acting() {
            let s = &turn.state;
            let pick = ranked.iter().find_map(|&(kind, _)| {
                if self.skip(lib, s, p, kind, &outlook) {
                    return None;
                }
                let t = lib.get(kind);
                let given = attack_given_to_enemy(lib, t);
                if given > 0
                    && outlook.enemy_attack + outlook.enemy_chill + given >= outlook.defense
                {
                    return None;
                }
                buy_action(s, kind)
                    .filter(|&a| turn.is_legal(a))
                    .map(|a| (a, kind))
            });
            let Some((a, kind)) = pick else { break };
            turn.apply(a);
            outlook.bought(lib, lib.get(kind));
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyGreedyKnapsack {
            value: self.value,
            filter: Arc::clone(&self.filter),
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
    use crate::games::prismata::ai::filter::FilterSpec;
    use crate::rng::rng_from_seed;

    /// The shipped `BuyGK_Filter` (less Overwork, which our library lacks).
    fn shipped_filter() -> Arc<CardFilter> {
        let spec: FilterSpec = serde_json::from_str(
            r#"{"default": false,
            "cards": ["Drone", "Engineer", "Conduit", "Animus", "Blastforge", "Auric Impulse",
                      "Auride Core", "Thermite Core", "Blood Pact", "Ossified Drone", "Steelforge"],
            "allowResonate": true,
            "conditions": [[["lifespan", "=", 1]],
                           [["isBlocker", "=", true], ["constructionTime", "=", 0],
                            ["hasAbility", "=", false], ["attackProduced", "=", 0]]],
            "stateConditions": [[["cardName", "=", "Amporilla"], ["Tarsier", "<", 3]]]}"#,
        )
        .unwrap();
        Arc::new(CardFilter::new(lib(), &spec, "BuyGK_Filter").unwrap())
    }

    fn attack_buyer() -> BuyGreedyKnapsack {
        BuyGreedyKnapsack {
            value: BuyValue::AttackValue,
            ..BuyGreedyKnapsack::default()
        }
    }

    /// Gives the player to act `gold` gold and one each of `extra` (e.g. `[Red, Green]`).
    fn funds(s: &mut State, gold: u16, extra: &[Resource]) {
        set_gold(s, gold);
        for &r in extra {
            s.sides[s.active as usize].resources.set(r, 1);
        }
    }

    fn run(player: &BuyGreedyKnapsack, s: State) -> Vec<String> {
        let mut turn = TurnPlan::new(lib(), s);
        player.play(&mut turn, &mut rng_from_seed(1));
        bought(&turn)
    }

    #[test]
    fn attackers_are_bought_best_first_and_the_filter_holds() {
        // Immolite (random set, 3$ 1R, 1 attack) ranks above Tarsier and Rhino (base set),
        // which then lack red; Gauss Cannon takes the green. The shipped filter leaves out
        // tech and pure walls, so nothing else.
        let mut s = start("Immolite");
        funds(&mut s, 20, &[Resource::Red, Resource::Green]);
        let filtered = BuyGreedyKnapsack {
            filter: shipped_filter(),
            ..attack_buyer()
        };
        assert_eq!(run(&filtered, s.clone()), ["Immolite", "Gauss Cannon"]);
        // Without the filter it goes on with the costliest non-attacker, Animus (6$).
        let all = run(&attack_buyer(), s);
        assert_eq!(all[..3], ["Immolite", "Gauss Cannon", "Animus"]);
    }

    #[test]
    fn an_out_of_sync_purchase_is_skipped() {
        // Immolite exhausts itself for two turns: with one ready now, a new one (ready in a
        // turn) would be out of step, so Tarsier gets the red.
        let mut s = start("Immolite");
        funds(&mut s, 20, &[Resource::Red]);
        s.add_unit(lib(), 0, id("Immolite"), 0, 0);
        assert_eq!(run(&attack_buyer(), s)[0], "Tarsier");
    }

    #[test]
    fn buy_limits_hold_except_for_resonating_types() {
        let mut s = start("Amporilla");
        funds(&mut s, 20, &[Resource::Red, Resource::Green]);
        let limited = attack_buyer().with_buy_limits(&BuyLimits::new([(id("Tarsier"), 0)]));
        let mut turn = TurnPlan::new(lib(), s.clone());
        limited.play(&mut turn, &mut rng_from_seed(1));
        assert!(!bought(&turn).contains(&"Tarsier".to_string()));
        // An Amporilla resonates with Tarsiers: the limit gives way.
        s.add_unit(lib(), 0, id("Amporilla"), 1, 0);
        let mut turn = TurnPlan::new(lib(), s);
        limited.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn)[0], "Tarsier");
    }

    #[test]
    fn a_frontline_unit_the_enemy_can_kill_ranks_last() {
        let mut s = start("Shredder");
        funds(&mut s, 11, &[Resource::Blue, Resource::Green]);
        assert_eq!(run(&attack_buyer(), s.clone())[0], "Shredder");
        // Four enemy Tarsiers make 4 attack next turn: Shredder (4 HP) would die.
        for _ in 0..4 {
            s.add_unit(lib(), 1, id("Tarsier"), 0, 0);
        }
        let got = run(&attack_buyer(), s);
        assert_eq!(got[0], "Gauss Cannon");
        assert!(!got.contains(&"Shredder".to_string()), "{got:?}");
    }

    #[test]
    fn no_attack_is_spent_on_units_after_chilling() {
        let mut s = start("Lancetooth");
        funds(&mut s, 8, &[Resource::Blue, Resource::Attack]);
        assert_eq!(run(&attack_buyer(), s.clone())[0], "Lancetooth");
        s.sides[1].units[0].chill = 1;
        assert!(!run(&attack_buyer(), s).contains(&"Lancetooth".to_string()));
    }

    #[test]
    fn units_whose_clicks_the_income_cannot_pay_are_skipped() {
        // Electrovore's click costs 1 energy; two Engineers make 2 energy a turn.
        let mut s = start("Electrovore");
        funds(&mut s, 4, &[Resource::Red]);
        assert_eq!(run(&attack_buyer(), s.clone()), ["Electrovore"]);
        for _ in 0..2 {
            s.add_unit(lib(), 0, id("Electrovore"), 0, 0);
        }
        assert!(!run(&attack_buyer(), s).contains(&"Electrovore".to_string()));
    }

    #[test]
    fn no_purchase_gives_the_enemy_a_breach() {
        // Blood Pact gives the enemy a Tarsier (1 attack): fine while we can block it, not
        // once nothing of ours can block.
        let mut s = start("Blood Pact");
        funds(&mut s, 3, &[Resource::Red]);
        // No energy: no Drone, which would rank above it.
        s.sides[0].resources.set(Resource::Energy, 0);
        let will = BuyGreedyKnapsack::default();
        assert_eq!(run(&will, s.clone()), ["Blood Pact"]);
        for u in &mut s.sides[0].units {
            u.status = crate::games::prismata::Status::Assigned;
        }
        let got = run(&will, s);
        assert!(!got.contains(&"Blood Pact".to_string()), "{got:?}");
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        for value in [
            BuyValue::AttackValue,
            BuyValue::BlockValue,
            BuyValue::WillScore,
        ] {
            let player = BuyGreedyKnapsack {
                value,
                filter: shipped_filter(),
                buy_limits: BuyLimits::default(),
            };
            let (runs, buys) = buys_in_random_games(&player, 6, 60);
            assert!(runs > 0 && buys > 0, "{value:?}");
        }
    }
}

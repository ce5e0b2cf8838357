//! `ActionAbility_AvoidBreachSolver` and its search (C++
//! `PartialPlayer_ActionAbility_AvoidBreachSolver.cpp`, `AvoidBreachBuyIterator.cpp`): predict
//! the enemy's next attack and chill, then choose which prompt blockers to buy and how many
//! clicked Drones to take back (they block again) so that the expected loss, then the
//! resources spent, is least.
//!
//! The search: if nothing threatens us, do nothing; if one Wall absorbs the whole attack and
//! cannot be frozen, buy it; else if one prompt blocker does, buy the cheapest; else try every
//! multiset of prompt blockers (types by HP, largest first), and for each, 0 to
//! `max_untap_drones` Drones taken back, scoring each by (resources spent + loss of the breach
//! that gets through, less the value of our largest absorber when nothing gets through, less
//! twice the enemy's usable chill).
//!
//! Where we differ from the C++: it sells and undoes; we search on copies of the state and
//! take the chosen Drone clicks back with [`TurnPlan::without`] (one at a time; one whose take-back
//! would strand a later action is skipped, where the C++ undo would be illegal too). A Drone
//! counts as clicked when its click is among the turn's action-phase actions. Units a buy
//! gives the enemy add no attack to the prediction, as in the C++ (whose per-type "attack
//! given to enemy" is never set).

use crate::games::prismata::action::can_block;
use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::attack_scenario::AttackDamageScenario;
use crate::games::prismata::ai::chill::{ChillScenario, chill_amount, is_prompt_blocker};
use crate::games::prismata::ai::heuristics::{
    buy_mana_cost, buy_sac_cost, buy_total_cost, inflated_mana_value_given_to_enemy,
};
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::ai::predict::predict_enemy_next_turn;
use crate::games::prismata::{Action, Library, Resource, State, Status};
use crate::rng::Rng;

/// How the enemy's usable chill is estimated (C++ `ChillCalculationMethod`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChillCalculation {
    /// All of its chill counts (config `None`).
    #[default]
    None,
    /// [`ChillScenario::heuristic_used_chill`] (config `Heuristic`).
    Heuristic,
    /// [`ChillScenario::used_chill`] with `max_chill_solver_iterations` (config `Solver`).
    Solver,
}

/// A buy sequence's cost (C++ `BuyCost`): compared by loss, then resources.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct BuyCost {
    resource: f64,
    loss: f64,
}

impl BuyCost {
    fn plus(self, o: BuyCost) -> BuyCost {
        BuyCost {
            resource: self.resource + o.resource,
            loss: self.loss + o.loss,
        }
    }

    fn less_than(self, o: BuyCost) -> bool {
        if self.loss == o.loss {
            self.resource < o.resource
        } else {
            self.loss < o.loss
        }
    }
}

/// Buys prompt blockers and takes back Drone clicks so the predicted enemy attack does the
/// least damage (C++ `ActionAbility_AvoidBreachSolver`; its options are the C++
/// `BreachIteratorParameters`, whose defaults are zero and `None`).
#[derive(Clone, Debug, Default)]
pub struct AvoidBreachSolver {
    /// The most Drone clicks taken back (`maxUntapDrones`).
    pub max_untap_drones: u16,
    /// How the enemy's usable chill is estimated (`chillCalculationMethod`).
    pub chill_calculation: ChillCalculation,
    /// Node limit of the chill solver (`maxChillSolverIterations`; 0 = none).
    pub max_chill_solver_iterations: usize,
}

/// The Drone-like types (Drone, Doomed Drone) of the library.
fn drone_types(lib: &Library) -> [Option<u16>; 2] {
    [lib.id("Drone"), lib.id("Doomed Drone")]
}

/// True if the player's unit `i` was clicked in this turn's action phase, so that the click
/// may be taken back (the C++ `UNDO_USE_ABILITY` candidates; [`TurnPlan::without`] decides).
pub fn clicked_this_phase(turn: &TurnPlan, i: u16) -> bool {
    turn.state.sides[turn.player as usize]
        .units
        .get(i as usize)
        .is_some_and(|u| u.status == Status::Assigned)
        && turn.action_phase_actions().contains(&Action::Click(i))
}

/// The player's live Drones (and Doomed Drones) clicked in this turn's action phase.
fn tapped_drones(turn: &TurnPlan, drones: [Option<u16>; 2]) -> Vec<u16> {
    let units = &turn.state.sides[turn.player as usize].units;
    (0..units.len() as u16)
        .filter(|&i| {
            let u = &units[i as usize];
            u.alive && drones.contains(&Some(u.kind)) && clicked_this_phase(turn, i)
        })
        .collect()
}

/// The search state (C++ `AvoidBreachBuyIterator`).
struct Search<'a> {
    lib: &'a Library,
    params: &'a AvoidBreachSolver,
    player: usize,
    /// Buyable indices of prompt blockers (or of types whose buy creates them), by HP.
    prompt: Vec<u16>,
    predicted_attack: u16,
    enemy_chill: u16,
    our_defense: u16,
    chill: ChillScenario,
    damage: AttackDamageScenario<'a>,
    tapped: u16,
    /// The library's Drone-like types ([`drone_types`], looked up once); the first is the
    /// Drone, whose clicks may be taken back.
    drones: [Option<u16>; 2],
    drone_hp: u16,
    drone_loss: f64,
    stack: Vec<u16>,
    best: Vec<u16>,
    best_untap: u16,
    min_true_cost: f64,
    min_spent: f64,
}

impl<'a> Search<'a> {
    /// Buys `k` (a buyable index) on a copy of `s`, if legal.
    fn bought(&self, s: &State, k: u16) -> Option<State> {
        let a = Action::Buy(k);
        crate::games::prismata::rules::is_legal(self.lib, s, a).then(|| {
            let mut s = s.clone();
            crate::games::prismata::rules::apply(self.lib, &mut s, a);
            s
        })
    }

    fn enemy_chill_used(&self) -> u32 {
        match self.params.chill_calculation {
            ChillCalculation::None => u32::from(self.enemy_chill),
            ChillCalculation::Heuristic => self.chill.heuristic_used_chill(),
            ChillCalculation::Solver => self
                .chill
                .used_chill(self.params.max_chill_solver_iterations),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn recurse(
        &mut self,
        s: &State,
        index: usize,
        num_bought: u16,
        absorber_hp: u16,
        absorber_cost: BuyCost,
        cost: BuyCost,
        defense_bought: u32,
        frontline_assigned: u16,
    ) {
        if index == 0 || num_bought > 0 {
            let gold = s.sides[self.player].resources.get(Resource::Gold);
            let max_untap = if self.drones[0].is_some() {
                self.params
                    .max_untap_drones
                    .min(self.tapped)
                    .min(gold)
                    .min(self.predicted_attack)
            } else {
                0
            };
            for untap in 0..=max_untap {
                if untap > 0 {
                    self.chill.add_defender(self.drone_hp, 1);
                }
                let chill = self.enemy_chill_used();
                let total = u32::from(self.our_defense) + defense_bought + u32::from(untap);
                let after_chill = total.saturating_sub(chill);
                let breach = u32::from(self.predicted_attack).saturating_sub(after_chill);
                let with_untap = cost.plus(BuyCost {
                    resource: 0.0,
                    loss: f64::from(untap) * (self.drone_loss + 1.0),
                });
                let breach = breach.min(u32::from(u16::MAX)) as u16;
                let spent = with_untap.resource + with_untap.loss + self.damage.breach_loss(breach);
                let mut true_cost = spent;
                if u32::from(self.predicted_attack) < after_chill && absorber_hp > 1 {
                    true_cost -= absorber_cost.resource;
                }
                true_cost = (true_cost - 2.0 * f64::from(chill)).max(0.0);
                if true_cost < self.min_true_cost
                    || (true_cost == self.min_true_cost && spent < self.min_spent)
                {
                    self.min_true_cost = true_cost;
                    self.min_spent = spent;
                    self.best.clone_from(&self.stack);
                    self.best_untap = untap;
                }
            }
            self.chill
                .remove_defender(self.drone_hp, u32::from(max_untap));
        }
        let Some(&k) = self.prompt.get(index) else {
            return;
        };
        if let Some(next) = self.bought(s, k) {
            let kind = s.buyable[k as usize];
            let t = self.lib.get(kind);
            self.stack.push(k);
            self.chill.buy_defender(self.lib, kind);
            let card_cost = BuyCost {
                resource: buy_mana_cost(self.lib, kind)
                    + inflated_mana_value_given_to_enemy(self.lib, kind),
                loss: buy_sac_cost(self.lib, kind),
            };
            let (mut new_hp, mut new_cost) = (absorber_hp, absorber_cost);
            let mut absorber = !t.fragile;
            let mut frontline_used = 0;
            let remaining = self.predicted_attack.saturating_sub(frontline_assigned);
            if t.frontline && remaining >= t.hp {
                absorber = false;
                frontline_used = t.hp;
            }
            if absorber
                && (t.hp > absorber_hp
                    || (t.hp == absorber_hp && absorber_cost.less_than(card_cost)))
            {
                new_hp = t.hp;
                new_cost = card_cost;
            }
            let sacrificed: u16 = t
                .buy
                .iter()
                .flat_map(|b| &b.sacrifice)
                .filter(|(unit, _)| self.drones.contains(&Some(*unit)))
                .map(|&(_, n)| n)
                .sum();
            let tapped = self.tapped;
            self.tapped = tapped.saturating_sub(sacrificed);
            self.recurse(
                &next,
                index,
                num_bought + 1,
                new_hp,
                new_cost,
                cost.plus(card_cost),
                self.chill.total_defense_bought(),
                frontline_assigned + frontline_used,
            );
            self.tapped = tapped;
            self.stack.pop();
            self.chill.sell_defender(self.lib, kind);
        }
        self.recurse(
            s,
            index + 1,
            0,
            absorber_hp,
            absorber_cost,
            cost,
            defense_bought,
            frontline_assigned,
        );
    }
}

impl AvoidBreachSolver {
    /// The buys (buyable indices, in order) and the number of Drone clicks to take back.
    pub fn solve(&self, turn: &TurnPlan) -> (Vec<u16>, u16) {
        let lib = turn.library;
        let s = &turn.state;
        let p = turn.player as usize;
        let o = 1 - p;
        let mut prompt: Vec<u16> = (0..s.buyable.len() as u16)
            .filter(|&k| {
                let t = lib.get(s.buyable[k as usize]);
                is_prompt_blocker(t)
                    || t.buy
                        .iter()
                        .flat_map(|b| &b.create)
                        .any(|c| !c.opponent && is_prompt_blocker(lib.get(c.unit)))
            })
            .collect();
        prompt.sort_by_key(|&k| std::cmp::Reverse(lib.get(s.buyable[k as usize]).hp));

        let mut predicted = s.clone();
        predict_enemy_next_turn(lib, &mut predicted, true);
        if predicted.over || predicted.active as usize != o {
            return (Vec::new(), 0); // the game ends first
        }
        let predicted_attack = predicted.sides[o].resources.get(Resource::Attack);
        let enemy_chill: u16 = predicted.sides[o]
            .units
            .iter()
            .filter(|u| u.alive && u.is_active())
            .filter_map(|u| chill_amount(lib.get(u.kind)))
            .sum();
        let chill = ChillScenario::from_state(lib, &predicted, o);

        let mut our_defense = 0u16;
        let mut frontline_used = 0u16;
        let mut largest = 0u16;
        let mut largest_cost = BuyCost::default();
        for u in predicted.sides[p].units.iter().filter(|u| u.alive) {
            let t = lib.get(u.kind);
            let blocks = can_block(u, t);
            if blocks {
                our_defense += u.hp;
            }
            let mut absorber = !t.fragile;
            if t.frontline && predicted_attack.saturating_sub(frontline_used) >= u.hp {
                absorber = false;
                frontline_used += u.hp;
            }
            if blocks && absorber && u.hp > largest {
                largest = u.hp;
                largest_cost = BuyCost {
                    resource: buy_mana_cost(lib, u.kind),
                    loss: buy_sac_cost(lib, u.kind),
                };
            }
        }

        if predicted_attack == 0 || (largest > enemy_chill && largest > predicted_attack) {
            return (Vec::new(), 0);
        }
        let buyable = |kind: u16| s.buyable.iter().position(|&b| b == kind).map(|k| k as u16);
        if let Some(wall) = lib.id("Wall")
            && let Some(k) = buyable(wall)
        {
            let hp = lib.get(wall).hp;
            if predicted_attack < hp
                && enemy_chill < hp
                && largest < hp
                && turn.is_legal(Action::Buy(k))
            {
                return (vec![k], 0);
            }
        }
        let mut cheapest: Option<(f64, u16)> = None;
        for &k in &prompt {
            let kind = s.buyable[k as usize];
            let t = lib.get(kind);
            if t.fragile || t.lifespan == 1 || t.hp == 1 {
                continue;
            }
            if t.hp > predicted_attack && t.hp > enemy_chill && turn.is_legal(Action::Buy(k)) {
                let c = buy_total_cost(lib, kind);
                if cheapest.is_none_or(|(b, _)| c < b) {
                    cheapest = Some((c, k));
                }
            }
        }
        if let Some((_, k)) = cheapest {
            return (vec![k], 0);
        }

        let drones = drone_types(lib);
        let mut search = Search {
            lib,
            params: self,
            player: p,
            prompt,
            predicted_attack,
            enemy_chill,
            our_defense,
            chill,
            damage: AttackDamageScenario::new(lib, predicted),
            tapped: tapped_drones(turn, drones).len() as u16,
            drones,
            drone_hp: drones[0].map_or(1, |d| lib.get(d).hp),
            drone_loss: drones[0].map_or(0.0, |d| buy_total_cost(lib, d)),
            stack: Vec::new(),
            best: Vec::new(),
            best_untap: 0,
            min_true_cost: f64::MAX,
            min_spent: f64::MAX,
        };
        let absorber_cost = if largest > 1 {
            largest_cost
        } else {
            BuyCost::default()
        };
        search.recurse(
            s,
            0,
            0,
            largest,
            absorber_cost,
            BuyCost::default(),
            0,
            frontline_used,
        );
        (search.best, search.best_untap)
    }
}

impl AbilityPlayer for AvoidBreachSolver {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let (buys, untap) = self.solve(turn);
        for k in buys {
            turn.apply(Action::Buy(k));
        }
        if untap == 0 {
            return;
        }
        // Doomed Drones (shortest lifespan first) before Drones.
        let mut drones = tapped_drones(turn, drone_types(turn.library));
        let units = &turn.state.sides[turn.player as usize].units;
        drones.sort_by_key(|&i| match units[i as usize].lifespan {
            0 => 100,
            l => l,
        });
        // All at once (one replay of the phase), else one at a time.
        let chosen: Vec<Action> = drones
            .iter()
            .take(untap as usize)
            .map(|&i| Action::Click(i))
            .collect();
        if chosen.len() == untap as usize
            && let Some(back) = turn.without(|a| chosen.contains(&a))
        {
            *turn = back;
            return;
        }
        let mut left = untap;
        for i in drones {
            if left == 0 {
                break;
            }
            if let Some(back) = turn.without(|a| a == Action::Click(i)) {
                *turn = back;
                left -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::ability::basic::{AttackDefault, EconomyDefault};
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::{Level, Resources};
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    fn solver() -> AvoidBreachSolver {
        AvoidBreachSolver {
            max_untap_drones: 5,
            chill_calculation: ChillCalculation::Solver,
            max_chill_solver_iterations: 500,
        }
    }

    /// Player 0 to act with its six Drones clicked (6 gold) and `own` more units, facing
    /// player 1 with `enemy` ready units (besides its Drones and Engineers).
    fn threatened(enemy: &[&str], own: &[&str]) -> TurnPlan<'static> {
        let mut s = State::new(lib(), &Level::load(lib(), "units:Shiver Yeti").unwrap());
        for n in own {
            s.add_unit(lib(), 0, lib().id(n).unwrap(), 0, 0);
        }
        for n in enemy {
            let i = s.add_unit(lib(), 1, lib().id(n).unwrap(), 0, 0);
            s.sides[1].units[i].status = Status::Default;
        }
        let mut turn = TurnPlan::new(lib(), s);
        for i in 0..6 {
            turn.apply(Action::Click(i));
        }
        turn
    }

    fn name_of_buy(turn: &TurnPlan, a: &Action) -> Option<String> {
        match *a {
            Action::Buy(k) => Some(lib().get(turn.state.buyable[k as usize]).name.clone()),
            _ => None,
        }
    }

    #[test]
    fn nothing_is_done_when_no_attack_is_coming() {
        let mut turn = threatened(&[], &[]);
        solver().play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(turn.actions.len(), 6);
    }

    #[test]
    fn one_wall_is_bought_when_it_absorbs_the_attack() {
        // Two Tarsiers: 2 attack against our 2 Engineers (1 HP each, not clicked).
        let mut turn = threatened(&["Tarsier", "Tarsier"], &[]);
        turn.state.sides[0].resources = Resources::parse("6$ 1B", "test").unwrap();
        let mut turn = TurnPlan::new(lib(), turn.state.clone());
        solver().play(&mut turn, &mut rng_from_seed(1));
        let bought: Vec<String> = turn
            .actions
            .iter()
            .filter_map(|a| name_of_buy(&turn, a))
            .collect();
        assert_eq!(bought, ["Wall"]);
    }

    #[test]
    fn drones_are_left_unclicked_so_that_the_attack_no_longer_breaches() {
        // Four Tarsiers: 4 attack against our 2 Engineers; no blue for a Wall. The 2 attack
        // that gets through would breach our own two Tarsiers (worth more than two Drones);
        // taking two Drone clicks back makes 4 defense and nothing gets through.
        let mut turn = threatened(&["Tarsier"; 4], &["Tarsier", "Tarsier"]);
        solver().play(&mut turn, &mut rng_from_seed(1));
        let clicks = turn
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Click(_)))
            .count();
        assert!(
            clicks <= 4,
            "at least two Drones unclicked: {:?}",
            turn.actions
        );
        let mut predicted = turn.state.clone();
        predict_enemy_next_turn(lib(), &mut predicted, true);
        let attack = predicted.sides[1].resources.get(Resource::Attack);
        let defense = crate::games::prismata::combat::total_defense(lib(), &predicted, 0);
        assert!(
            u32::from(attack) <= defense,
            "{attack} attack, {defense} defense"
        );
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(13, 10, 40);
        // As in the shipped playouts: economy and attack clicks first, then breach avoidance.
        let clicks: [Arc<dyn PartialPlayer>; 2] =
            [Arc::new(EconomyDefault), Arc::new(AttackDefault::default())];
        let acted = sample::plays_legally_after(&clicks, Arc::new(solver()), &positions);
        assert!(acted > 0, "it bought or left Drones home somewhere");
        sample::plays_legally(Arc::new(AvoidBreachSolver::default()), &positions);
    }
}

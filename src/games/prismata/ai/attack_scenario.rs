//! The loss an attack inflicts (C++ `AttackDamageScenario.cpp`): for a state in the attacker's
//! action phase, the defender's loss as a function of the attack sent, memoized per attack
//! amount so that searches asking for many amounts pay for each once.
//!
//! - below the defender's total defense: the least loss of blocking it ([`solve_blocks`] with
//!   [`damage_loss_will_cost`]), from the defender's defense phase;
//! - equal to it: the defender's [`wipeout_loss`];
//! - above it: the wipeout loss plus what [`BreachGreedyKnapsack`] destroys with the rest.
//!
//! Where we differ from the C++: a game that ends before the defender can block counts no
//! loss (the C++ would run the block solver on a finished game).

use crate::games::prismata::ai::breach::BreachGreedyKnapsack;
use crate::games::prismata::ai::defense::solve_blocks;
use crate::games::prismata::ai::heuristics::damage_loss_will_cost;
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::ai::predict::wipeout_loss;
use crate::games::prismata::combat::total_defense;
use crate::games::prismata::{Action, Library, Resource, State, TurnPhase, rules};

/// The defender's loss for each attack amount the player to act could send.
#[derive(Clone, Debug)]
pub struct AttackDamageScenario<'a> {
    lib: &'a Library,
    initial: State,
    attacker: usize,
    defender: usize,
    total_defense: u16,
    total_hp: u16,
    memo: Vec<Option<f64>>,
    wipeout: Option<f64>,
    /// The loss of losing every unit, once a breach has shown it.
    total_loss: Option<f64>,
    breach_start: Option<State>,
    defense_start: Option<State>,
}

impl<'a> AttackDamageScenario<'a> {
    /// The scenario of `state`, in the action phase of the attacker (the player to act).
    pub fn new(lib: &'a Library, state: State) -> AttackDamageScenario<'a> {
        let attacker = state.active as usize;
        let defender = 1 - attacker;
        let total_defense = total_defense(lib, &state, defender).min(u16::MAX as u32) as u16;
        let total_hp = state.sides[defender]
            .units
            .iter()
            .filter(|u| u.alive)
            .map(|u| u.hp)
            .fold(0u16, u16::saturating_add);
        let mut memo = vec![None; total_hp as usize + 1];
        memo[0] = Some(0.0);
        AttackDamageScenario {
            lib,
            initial: state,
            attacker,
            defender,
            total_defense,
            total_hp,
            memo,
            wipeout: None,
            total_loss: None,
            breach_start: None,
            defense_start: None,
        }
    }

    /// The defender's total available defense.
    #[cfg(test)]
    fn total_defense(&self) -> u16 {
        self.total_defense
    }

    /// The defender's loss if every unit of it that can block dies.
    pub fn wipeout_loss(&mut self) -> f64 {
        *self
            .wipeout
            .get_or_insert_with(|| wipeout_loss(self.lib, &self.initial, self.defender))
    }

    /// The defender's loss when `attack` is sent (C++ `getDefenseLoss`).
    pub fn defense_loss(&mut self, attack: u16) -> f64 {
        let attack = attack.min(self.total_hp);
        if let Some(loss) = self.memo[attack as usize] {
            return loss;
        }
        let loss = if attack == self.total_defense {
            let loss = self.wipeout_loss();
            if self.total_defense == self.total_hp {
                self.total_loss = Some(loss);
            }
            loss
        } else if attack > self.total_defense {
            match self.total_loss {
                Some(loss) if attack >= self.total_hp => loss,
                _ => self.breach(attack),
            }
        } else {
            self.block(attack)
        };
        self.memo[attack as usize] = Some(loss);
        loss
    }

    /// The defender's loss when the attack exceeds its total defense by `breach` (C++
    /// `getBreachLoss`).
    pub fn breach_loss(&mut self, breach: u16) -> f64 {
        self.defense_loss(self.total_defense.saturating_add(breach))
    }

    /// The least attack that inflicts the same loss as `attack` (C++
    /// `calculateLossDecreaseThreshold`): two Walls hit by 5 lose what 3 inflicts.
    pub fn loss_decrease_threshold(&mut self, attack: u16) -> u16 {
        let original = self.defense_loss(attack);
        for a in (0..=attack).rev() {
            if self.defense_loss(a) < original {
                return a + 1;
            }
        }
        0
    }

    /// The state with the attacker sending `attack` and its action phase ended.
    fn sent(&self, attack: u16) -> State {
        let mut s = self.initial.clone();
        s.armed = None;
        s.sides[self.attacker]
            .resources
            .set(Resource::Attack, attack);
        if s.phase == TurnPhase::Action && rules::is_legal(self.lib, &s, Action::EndPhase) {
            rules::apply(self.lib, &mut s, Action::EndPhase);
        }
        s
    }

    fn breach(&mut self, attack: u16) -> f64 {
        let wipeout = self.wipeout_loss();
        if self.breach_start.is_none() {
            self.breach_start = Some(self.sent(self.total_defense + 1));
        }
        let start = self.breach_start.as_ref().expect("just made");
        if start.over || start.phase != TurnPhase::Breach {
            return wipeout;
        }
        let mut s = start.clone();
        s.sides[self.attacker]
            .resources
            .set(Resource::Attack, attack - self.total_defense);
        let mut turn = TurnPlan::new(self.lib, s);
        let breached = BreachGreedyKnapsack::default().breach(&mut turn);
        let loss = wipeout + breached;
        if turn.state.sides[self.defender]
            .units
            .iter()
            .all(|u| !u.alive)
        {
            self.total_loss = Some(loss);
        }
        loss
    }

    fn block(&mut self, attack: u16) -> f64 {
        if self.defense_start.is_none() {
            self.defense_start = Some(self.sent(self.total_defense.saturating_sub(1)));
        }
        let start = self.defense_start.as_ref().expect("just made");
        if start.over
            || start.phase != TurnPhase::Defense
            || start.active as usize != self.defender
            || start.sides[self.attacker].units.iter().all(|u| !u.alive)
        {
            return 0.0;
        }
        let mut s = start.clone();
        s.sides[self.attacker]
            .resources
            .set(Resource::Attack, attack);
        solve_blocks(self.lib, &s, damage_loss_will_cost)
            .map_or_else(|| wipeout_loss(self.lib, &s, self.defender), |b| b.loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Level;
    use crate::games::prismata::ai::heuristics::current_value;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    /// Player 0 to act with 0 attack; player 1 holding only `units`.
    fn against(units: &[&str]) -> State {
        let mut s = State::new(lib(), &Level::load(lib(), "units:Shiver Yeti").unwrap());
        s.sides[1].units.clear();
        for n in units {
            s.add_unit(lib(), 1, lib().id(n).unwrap(), 0, 0);
        }
        s
    }

    #[test]
    fn two_walls_lose_the_same_to_three_attack_as_to_five() {
        let mut sc = AttackDamageScenario::new(lib(), against(&["Wall", "Wall"]));
        assert_eq!(sc.total_defense(), 6);
        let wall = current_value(lib(), &against(&["Wall"]), 1, 0);
        assert_eq!(sc.defense_loss(2), 0.0, "one Wall absorbs 2");
        assert_eq!(sc.defense_loss(3), wall);
        assert_eq!(sc.defense_loss(5), wall);
        assert_eq!(sc.defense_loss(6), 2.0 * wall);
        assert_eq!(sc.loss_decrease_threshold(5), 3);
        assert_eq!(sc.loss_decrease_threshold(2), 0);
    }

    #[test]
    fn a_breach_adds_what_the_breach_destroys() {
        // A Tarsier (1 HP, not a blocker) behind a Wall.
        let s = against(&["Wall", "Tarsier"]);
        let mut sc = AttackDamageScenario::new(lib(), s.clone());
        let (wall, tarsier) = (
            current_value(lib(), &s, 1, 0),
            current_value(lib(), &s, 1, 1),
        );
        assert!(wall > 0.0 && tarsier > 0.0);
        assert_eq!(sc.total_defense(), 3);
        assert_eq!(sc.breach_loss(0), wall);
        assert_eq!(sc.breach_loss(1), wall + tarsier);
        assert_eq!(sc.defense_loss(100), wall + tarsier, "nothing more to lose");
    }

    #[test]
    fn losses_never_fall_as_the_attack_grows() {
        let mut sc = AttackDamageScenario::new(
            lib(),
            against(&["Wall", "Tarsier", "Drone", "Drone", "Rhino"]),
        );
        let mut last = 0.0;
        for a in 0..20 {
            let loss = sc.defense_loss(a);
            assert!(loss >= last, "attack {a}: {loss} < {last}");
            last = loss;
        }
        assert!(last > 0.0);
    }
}

//! Breach partial players (spec §11.2): spending the attack left after a wipeout on the
//! opponent's units.
//!
//! Follows `source/ai/PartialPlayer_Breach_GreedyKnapsack.cpp`, `PartialPlayer_Breach_Default.cpp`
//! and `PartialPlayer_Breach_Random.cpp`.
//!
//! Difference from the C++: when the best target is a frozen unit that may not be breached
//! yet, the C++ undoes the chill on it (back to the action phase) and ends the action phase
//! again, so that the unit blocks in a new wipeout. Our engine has no undo, and a take-back
//! through [`TurnPlan::without`] would have to replay the wipeout and the breach so far, so the
//! greedy knapsack breaches the best *legal* target instead. In our engine a frozen unit may
//! be breached as soon as a blocker absorbed in the wipeout or a non-frontline unit was
//! breached, so this only matters when the opponent had no unit left to block.

use super::heuristics::{DamageLoss, damage_loss_will_cost};
use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Action, Resource, TurnPhase};
use crate::rng::Rng;

/// Scores of tech buildings are divided by this with `low_tech_priority`.
const LOW_TECH_DIVISOR: f64 = 100_000.0;

/// True if `turn` is in the breach phase of its player.
fn breaching(turn: &TurnPlan) -> bool {
    turn.in_turn() && turn.state.phase == TurnPhase::Breach
}

/// `Breach_GreedyKnapsack` [Breach Cost; Breach Attack with the attack-value loss]:
/// repeatedly breach the legal target whose loss per HP is highest, then end the breach.
#[derive(Clone, Copy, Debug)]
pub struct BreachGreedyKnapsack {
    /// Breach tech buildings (Animus, Blastforge, Conduit) last (C++ `lowTechPriority`;
    /// default true).
    pub low_tech_priority: bool,
    /// The loss a target takes (default [`damage_loss_will_cost`]).
    pub loss: DamageLoss,
}

impl Default for BreachGreedyKnapsack {
    fn default() -> Self {
        BreachGreedyKnapsack {
            low_tech_priority: true,
            loss: damage_loss_will_cost,
        }
    }
}

impl BreachGreedyKnapsack {
    /// Plays the breach as [`PartialPlayer::play`] does and returns the summed loss of the
    /// breached units (C++ `getTotalBreachDamageLoss`; 0 if not in a breach).
    pub fn breach(&self, turn: &mut TurnPlan) -> f64 {
        if !breaching(turn) {
            return 0.0;
        }
        let lib = turn.library;
        let p = turn.player as usize;
        let o = 1 - p;
        let mut total = 0.0;
        while breaching(turn) && !turn.is_legal(Action::EndPhase) {
            let s = &turn.state;
            let attack = s.sides[p].resources.get(Resource::Attack);
            let mut best: Option<(f64, f64, u16)> = None;
            for (j, u) in s.sides[o].units.iter().enumerate() {
                if !u.alive || !turn.is_legal(Action::Breach(j as u16)) {
                    continue;
                }
                let loss = (self.loss)(lib, s, o, j, u.hp.min(attack));
                let mut score = loss / f64::from(u.hp);
                if self.low_tech_priority && lib.get(u.kind).tech {
                    score /= LOW_TECH_DIVISOR;
                }
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, loss, j as u16));
                }
            }
            let Some((_, loss, j)) = best else { break };
            turn.apply(Action::Breach(j));
            total += loss;
        }
        if breaching(turn) {
            turn.end_phase();
        }
        total
    }
}

impl PartialPlayer for BreachGreedyKnapsack {
    fn phase(&self) -> PpPhase {
        PpPhase::Breach
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        self.breach(turn);
    }
}

/// `Breach_Default`: the first legal target, repeatedly, then the end of the breach.
#[derive(Clone, Copy, Debug, Default)]
pub struct BreachDefault;

impl PartialPlayer for BreachDefault {
    fn phase(&self) -> PpPhase {
        PpPhase::Breach
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let o = 1 - turn.player as usize;
        while breaching(turn) && !turn.is_legal(Action::EndPhase) {
            let next = (0..turn.state.sides[o].units.len() as u16)
                .map(Action::Breach)
                .find(|&a| turn.is_legal(a));
            match next {
                Some(a) => turn.apply(a),
                None => break,
            }
        }
        if breaching(turn) {
            turn.end_phase();
        }
    }
}

/// `Breach_Random`: a uniformly random legal action (a target, or the end when it is legal),
/// repeatedly until the breach is over.
#[derive(Clone, Copy, Debug, Default)]
pub struct BreachRandom;

impl PartialPlayer for BreachRandom {
    fn phase(&self) -> PpPhase {
        PpPhase::Breach
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        turn.play_randomly(rng, breaching);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::State;
    use crate::games::prismata::ai::heuristics::{current_value, damage_loss_attack_value};
    use crate::games::prismata::ai::testing::{add, clear, lib, random_games, start};
    use crate::rng::rng_from_seed;

    /// Player 0 ends its action phase with `attack` against player 1's named units (none of
    /// which blocks), which opens the breach.
    fn breach(attack: u16, units: &[&str]) -> State {
        let mut s = start("Amporilla");
        clear(&mut s, 1);
        for name in units {
            add(&mut s, 1, name);
        }
        s.sides[0].resources.set(Resource::Attack, attack);
        crate::games::prismata::rules::apply(lib(), &mut s, Action::EndPhase);
        assert_eq!(s.phase, TurnPhase::Breach);
        s
    }

    fn play(player: &dyn PartialPlayer, s: &State) -> Vec<Action> {
        let mut turn = TurnPlan::new(lib(), s.clone());
        player.play(&mut turn, &mut rng_from_seed(0));
        assert!(turn.state.over || turn.state.phase != TurnPhase::Breach);
        turn.actions
    }

    #[test]
    fn greedy_breach_kills_the_most_value_per_attack() {
        // 3 attack: a Gauss Cannon (5 HP, fragile) would take 3 of 5 HP, a Tarsier (1 HP)
        // dies, an Animus (tech) dies last.
        let s = breach(3, &["Animus", "Gauss Cannon", "Tarsier"]);
        let knapsack = BreachGreedyKnapsack::default();
        let mut turn = TurnPlan::new(lib(), s.clone());
        let loss = knapsack.breach(&mut turn);
        // Tarsier: 6.27 per HP, first; then 2 attack on the Gauss Cannon (its 2 of 5 HP is a
        // negligible loss, but the Animus has low priority).
        assert_eq!(
            turn.actions,
            vec![Action::Breach(2), Action::Breach(1), Action::EndPhase]
        );
        let tarsier = current_value(lib(), &s, 1, 2);
        assert!(loss > tarsier && loss < tarsier + 0.01);
        // Without the low tech priority the Animus (5 gold, 3 HP) goes before the cannon.
        let plain = BreachGreedyKnapsack {
            low_tech_priority: false,
            ..knapsack
        };
        assert_eq!(
            play(&plain, &s),
            vec![Action::Breach(2), Action::Breach(0), Action::EndPhase]
        );
    }

    #[test]
    fn breach_attack_kills_attackers() {
        // 5 attack: by attack value the Gauss Cannon (1 attack, 5 HP) is the only target
        // worth anything.
        let s = breach(5, &["Animus", "Gauss Cannon"]);
        let attack = BreachGreedyKnapsack {
            loss: damage_loss_attack_value,
            low_tech_priority: false,
        };
        assert_eq!(play(&attack, &s), vec![Action::Breach(1), Action::EndPhase]);
    }

    #[test]
    fn default_breaches_in_unit_order() {
        let s = breach(4, &["Animus", "Gauss Cannon", "Tarsier"]);
        assert_eq!(
            play(&BreachDefault, &s),
            vec![Action::Breach(0), Action::Breach(1), Action::EndPhase]
        );
        assert_eq!(play(&BreachRandom, &s).last(), Some(&Action::EndPhase));
    }

    #[test]
    fn breach_players_play_legally_in_random_games() {
        let players: [&dyn PartialPlayer; 4] = [
            &BreachGreedyKnapsack::default(),
            &BreachGreedyKnapsack {
                low_tech_priority: false,
                loss: damage_loss_attack_value,
            },
            &BreachDefault,
            &BreachRandom,
        ];
        for p in players {
            assert!(random_games(p, 12, 120) > 3, "{p:?} breached too rarely");
        }
    }
}

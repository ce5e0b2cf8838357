//! Predicting the opponent's next turn (`source/ai/AITools.cpp`: `PredictEnemyNextTurn`,
//! `CalculateEnemyNextTurnDefenseLoss`, `CalculateWipeoutLoss`, `GetPredictionPlayer`), used by
//! the partial players that avoid breaches and wasted attack.
//!
//! Differences from the C++: our engine passes the confirm step by itself, so where the C++
//! ends the confirm phase nothing is done; a click waiting for its target when the action
//! phase is to end gets the first legal target; [`enemy_next_turn_defense_loss`] called in
//! the defense phase (which the C++ does not allow) returns 0.

use std::sync::{Arc, OnceLock};

use super::ability::basic::{AttackDefault, EconomyDefault, SnipeGreedyKnapsack};
use super::ability::target_first;
use super::breach::BreachGreedyKnapsack;
use super::defense::{DefenseGreedyKnapsack, DefenseSolver, solve_blocks};
use super::heuristics::{
    current_value, damage_loss_attack_value, damage_loss_will_cost,
    defense_heuristic_save_attackers, snipe_highest_defense,
};
use super::partial::{Combination, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::action::can_block;
use crate::games::prismata::{Action, Library, State, TurnPhase, rules};
use crate::rng::{Rng, rng_from_seed};

/// The enemy's assumed action phase (C++ `GetPredictionPlayer`): click every economy unit,
/// click every attacker, snipe the enemy's biggest blocker.
pub fn prediction_player() -> &'static Combination {
    static PLAYER: OnceLock<Combination> = OnceLock::new();
    PLAYER.get_or_init(|| Combination {
        phase: PpPhase::Ability,
        players: vec![
            Arc::new(EconomyDefault),
            Arc::new(AttackDefault::default()),
            Arc::new(SnipeGreedyKnapsack {
                heuristic: snipe_highest_defense,
            }),
        ],
    })
}

/// The partial players used here draw no random number; they get a fixed generator.
fn unused_rng() -> Rng {
    rng_from_seed(0)
}

/// Ends the action phase of the player to act in `s` (targeting the first legal target of
/// an armed click first).
fn end_action_phase(lib: &Library, s: &mut State) {
    if s.armed.is_some() {
        let mut turn = TurnPlan::new(lib, s.clone());
        target_first(&mut turn);
        *s = turn.state;
    }
    if rules::is_legal(lib, s, Action::EndPhase) {
        rules::apply(lib, s, Action::EndPhase);
    }
}

/// Runs `player` on `s` for the player to act.
fn run(lib: &Library, s: &mut State, player: &dyn PartialPlayer, rng: &mut Rng) {
    let mut turn = TurnPlan::new(lib, s.clone());
    player.play(&mut turn, rng);
    *s = turn.state;
}

/// Advances `s` through the rest of the turn of the player to act, sending the attack it has
/// now, and through the opponent's defense and action phase as the opponent would likely play
/// them (C++ `PredictEnemyNextTurn`): our defense (if in it) by the attack-saving solver; our
/// breach (if any) by the greedy knapsack; the opponent's defense by the attack-saving solver
/// (`solve_defense`) or the attack-saving greedy knapsack; its action phase by
/// [`prediction_player`], leaving it open. Stops if the game ends.
pub fn predict_enemy_next_turn(lib: &Library, s: &mut State, solve_defense: bool) {
    let player = s.active;
    let mut rng = unused_rng();
    let save_attackers = DefenseSolver {
        loss: damage_loss_attack_value,
    };
    if s.phase == TurnPhase::Defense && !s.over {
        run(lib, s, &save_attackers, &mut rng);
    }
    if s.phase == TurnPhase::Action && !s.over && s.active == player {
        end_action_phase(lib, s);
    }
    if s.phase == TurnPhase::Breach && !s.over && s.active == player {
        run(lib, s, &BreachGreedyKnapsack::default(), &mut rng);
    }
    if s.over || s.active == player {
        return;
    }
    if s.phase == TurnPhase::Defense {
        if solve_defense {
            run(lib, s, &save_attackers, &mut rng);
        } else {
            let knapsack = DefenseGreedyKnapsack {
                heuristic: defense_heuristic_save_attackers,
            };
            run(lib, s, &knapsack, &mut rng);
        }
    }
    if !s.over && s.phase == TurnPhase::Action {
        run(lib, s, prediction_player(), &mut rng);
    }
}

/// The loss player `p` takes if every unit of it that can block now dies (C++
/// `CalculateWipeoutLoss`).
pub fn wipeout_loss(lib: &Library, s: &State, p: usize) -> f64 {
    s.sides[p]
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| can_block(u, lib.get(u.kind)))
        .map(|(i, _)| current_value(lib, s, p, i))
        .sum()
}

/// The loss the opponent takes from the attack the player to act has now, if it ends its
/// action phase (C++ `CalculateEnemyNextTurnDefenseLoss`), advancing `s` as far as that
/// takes: with a wipeout, the opponent's [`wipeout_loss`] (as it was before) plus what the
/// greedy breach destroys; otherwise the least loss of its blocking ([`solve_blocks`] with
/// [`damage_loss_will_cost`]); 0 if nothing is sent.
pub fn enemy_next_turn_defense_loss(lib: &Library, s: &mut State) -> f64 {
    let player = s.active;
    let enemy = 1 - player as usize;
    if s.over || s.phase == TurnPhase::Defense {
        return 0.0;
    }
    let wipeout = wipeout_loss(lib, s, enemy);
    if s.phase == TurnPhase::Action {
        end_action_phase(lib, s);
    }
    if s.phase == TurnPhase::Breach && !s.over && s.active == player {
        let mut turn = TurnPlan::new(lib, s.clone());
        let breached = BreachGreedyKnapsack::default().breach(&mut turn);
        *s = turn.state;
        return wipeout + breached;
    }
    if !s.over && s.active as usize == enemy && s.phase == TurnPhase::Defense {
        // The attacker could not wipe the defense out, so a blocking always exists.
        return solve_blocks(lib, s, damage_loss_will_cost).map_or(f64::MAX, |b| b.loss);
    }
    if s.sides[enemy].units.iter().all(|u| !u.alive) {
        return wipeout;
    }
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::testing::{add, clear, lib, start};
    use crate::games::prismata::{Level, Resource};
    use rand::RngExt;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn wipeout_loss_sums_the_blockers() {
        let mut s = start("Apollo");
        // Player 1: 7 Drones (3.5) and 2 Engineers (2).
        assert!(close(wipeout_loss(lib(), &s, 1), 7.0 * 3.5 + 4.0));
        // A clicked Drone does not block.
        s.sides[0].units[0].status = crate::games::prismata::Status::Assigned;
        assert!(close(wipeout_loss(lib(), &s, 0), 5.0 * 3.5 + 4.0));
    }

    /// Player 0 in its action phase with `attack` against player 1's named units.
    fn attack_on(attack: u16, units: &[&str]) -> State {
        let mut s = start("Apollo");
        clear(&mut s, 1);
        for name in units {
            add(&mut s, 1, name);
        }
        s.sides[0].resources.set(Resource::Attack, attack);
        s
    }

    #[test]
    fn defense_loss_is_the_best_blocking() {
        let mut s = attack_on(4, &["Drone", "Engineer", "Wall"]);
        // The Drone and Engineer die in front of the Wall: 5.5.
        assert!(close(enemy_next_turn_defense_loss(lib(), &mut s), 5.5));
        assert_eq!((s.active, s.phase), (1, TurnPhase::Defense));
        let mut quiet = attack_on(0, &["Drone", "Wall"]);
        assert_eq!(enemy_next_turn_defense_loss(lib(), &mut quiet), 0.0);
    }

    #[test]
    fn defense_loss_after_a_wipeout_adds_the_breach() {
        // 3 attack: the Drone (3.5) is wiped out, the breach kills the Tarsier (4.9 × 1.28).
        let mut s = attack_on(3, &["Drone", "Tarsier"]);
        let loss = enemy_next_turn_defense_loss(lib(), &mut s);
        assert!(close(loss, 3.5 + 4.9 * 1.28));
        assert!(s.over, "player 1 has no unit left");
    }

    #[test]
    fn the_enemy_is_predicted_to_take_its_gold_attack_and_snipe() {
        // Player 0 sends 2 attack; player 1 has a Rhino, an Apollo and 3 Drones.
        let mut s = attack_on(2, &["Drone", "Drone", "Drone", "Rhino", "Apollo"]);
        let wall = add(&mut s, 0, "Wall");
        predict_enemy_next_turn(lib(), &mut s, true);
        assert_eq!((s.active, s.phase), (1, TurnPhase::Action));
        let side = &s.sides[1];
        // Saving attackers, two Drones blocked; the last Drone clicked for gold.
        assert_eq!(side.units.len(), 3);
        assert_eq!(side.resources.get(Resource::Gold), 1);
        // The Rhino attacks.
        assert_eq!(side.resources.get(Resource::Attack), 1);
        // The Apollo sniped player 0's biggest blocker, the Wall.
        assert!(!s.sides[0].units[wall].alive);
    }

    #[test]
    fn predictions_stay_legal_in_random_games() {
        let lib = lib();
        let mut buf = Vec::new();
        let mut checked = 0;
        for g in 0..8u64 {
            let mut s = State::new(lib, &Level::random(lib, 8, 500 + g).unwrap());
            let mut rng = rng_from_seed(g);
            while !s.over && s.ply < 80 {
                if s.phase == TurnPhase::Action && s.armed.is_none() {
                    for solve in [false, true] {
                        let mut p = s.clone();
                        predict_enemy_next_turn(lib, &mut p, solve);
                        assert!(p.over || (p.active != s.active && p.phase == TurnPhase::Action));
                    }
                    let mut d = s.clone();
                    let loss = enemy_next_turn_defense_loss(lib, &mut d);
                    assert!(loss.is_finite() && loss >= -0.01, "loss {loss}");
                    checked += 1;
                }
                rules::legal_actions(lib, &s, &mut buf);
                let a = buf[rng.random_range(0..buf.len())];
                rules::apply(lib, &mut s, a);
            }
        }
        assert!(checked > 50);
    }
}

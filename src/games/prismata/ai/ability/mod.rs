//! Ability partial players (spec §11.2): the first part of the action phase, clicking
//! abilities, choosing their targets and attacking frontline units. None ends the action
//! phase.
//!
//! - [`basic`]: the scripted ones (`ActionAbility_EconomyDefault`, `AttackDefault`,
//!   `ActivateUtility`, `FrontlineGreedyKnapsack`, `SnipeGreedyKnapsack`, `DontAttack`,
//!   `Default`, `ActivateAll`, `Random`).
//! - `ActionAbility_AvoidAttackWaste`: [`attack_waste`].
//! - `ActionAbility_AvoidBreachSolver`: [`avoid_breach`].
//! - `ActionAbility_ChillGreedyKnapsack`: [`chill_knapsack`].
//! - `ActionAbility_ChillSolver`: [`chill_solver`].
//! - `ActionAbility_AvoidEconomyWaste`: [`economy_waste`].
//! - `ActionAbility_UntapAvoidBreach`: [`untap_avoid_breach`].

pub mod attack_waste;
pub mod avoid_breach;
pub mod basic;
pub mod chill_knapsack;
pub mod chill_solver;
pub mod economy_waste;
#[cfg(test)]
pub(crate) mod sample;
pub mod untap_avoid_breach;

use super::partial::TurnPlan;
use crate::games::prismata::Action;

/// If a click waits for its target, targets the first enemy unit it may (players that do
/// not choose targets themselves end up here after clicking a targeted ability).
pub fn target_first(turn: &mut TurnPlan) {
    if turn.state.armed.is_none() || !turn.in_turn() {
        return;
    }
    let o = 1 - turn.player as usize;
    if let Some(a) = (0..turn.state.sides[o].units.len() as u16)
        .map(Action::Target)
        .find(|&a| turn.is_legal(a))
    {
        turn.apply(a);
    }
}

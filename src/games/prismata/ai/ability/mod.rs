//! Ability partial players (spec §11.2): the first part of the action phase, clicking
//! abilities, choosing their targets and attacking frontline units. None ends the action
//! phase. Every one but `Random` is an [`AbilityPlayer`]: it acts only while its player may
//! click, a rule written once here; those that click without choosing targets leave the
//! target to [`target_first`].
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

use std::fmt::Debug;

use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::Action;
use crate::rng::Rng;

/// An ability partial player that acts only while its player may click
/// ([`TurnPlan::acting`]: its action phase, no click waiting for its target). Its
/// [`PartialPlayer`] side is the impl below.
pub trait AbilityPlayer: Clone + Debug + Send + Sync + 'static {
    /// Plays its part of the ability phase; called only while `turn.acting()`. Leaves the
    /// action phase open.
    fn act(&self, turn: &mut TurnPlan, rng: &mut Rng);
}

impl<T: AbilityPlayer> PartialPlayer for T {
    fn phase(&self) -> PpPhase {
        PpPhase::Ability
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        if turn.acting() {
            self.act(turn, rng);
        }
    }
}

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

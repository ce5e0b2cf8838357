//! Ability partial players (spec §11.2, "Action — abilities"): the clicks, targets and
//! frontline attacks of the first part of the action phase.
//!
//! - `ActionAbility_ChillGreedyKnapsack`: [`chill_knapsack`].
//! - `ActionAbility_AvoidEconomyWaste`: [`economy_waste`].
pub mod chill_knapsack;
pub mod economy_waste;
#[cfg(test)]
pub(crate) mod sample;

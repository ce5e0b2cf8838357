//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! - [`ability`]: the ability partial players.
//! - [`attack_scenario`]: the loss an attack inflicts, per attack amount.
//! - [`breach`]: the breach partial players.
//! - [`chill`]: how much chill can freeze blockers (chill scenarios and their solver).
//! - [`defense`]: the defense partial players and the block solver.
//! - [`heuristics`]: unit values, damage losses, attack produced, resonance and the will
//!   score.
//! - [`predict`]: the opponent's predicted next turn and the losses it means.
//! - [`partial`]: partial players, the per-phase policies a whole-turn move is built from,
//!   and [`partial::Turn`], the turn under construction they act on.
pub mod ability;
pub mod attack_scenario;
pub mod breach;
pub mod chill;
pub mod defense;
pub mod heuristics;
pub mod partial;
pub mod predict;
#[cfg(test)]
mod testing;

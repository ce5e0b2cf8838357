//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! - [`ability`]: the ability partial players.
//! - [`attack_scenario`]: the loss an attack inflicts, per attack amount.
//! - [`breach`]: the breach partial players.
//! - [`buy`]: the buying partial players.
//! - [`chill`]: how much chill can freeze blockers (chill scenarios and their solver).
//! - [`defense`]: the defense partial players and the block solver.
//! - [`filter`]: unit filters ([`filter::CardFilter`]), the types a partial player leaves alone.
//! - [`heuristics`]: unit values, damage losses, attack produced, resonance and the will
//!   score.
//! - [`predict`]: the opponent's predicted next turn and the losses it means.
//! - [`partial`]: partial players, the per-phase policies a whole-turn move is built from,
//!   and [`partial::Turn`], the turn under construction they act on.
pub mod ability;
pub mod alpha_beta;
pub mod attack_scenario;
pub mod bot;
pub mod breach;
pub mod buy;
pub mod chill;
pub mod config;
pub mod defense;
pub mod eval;
pub mod filter;
pub mod heuristics;
pub mod partial;
pub mod portfolio;
pub mod predict;
pub mod sequence;
pub mod support;
#[cfg(test)]
mod testing;
pub mod uct;

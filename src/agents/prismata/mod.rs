//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! - [`heuristics`]: unit values, damage losses, attack produced, resonance and the will
//!   score.
//! - [`partial`]: partial players, the per-phase policies a whole-turn move is built from,
//!   and [`partial::Turn`], the turn under construction they act on.
//! - [`ability`]: ability partial players.
//! - [`chill`]: how much chill can freeze blockers (chill scenarios and their solver).
pub mod ability;
pub mod chill;
pub mod heuristics;
pub mod partial;

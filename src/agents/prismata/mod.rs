//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! - [`heuristics`]: unit values, damage losses, attack produced, resonance and the will
//!   score.
//! - [`partial`]: partial players, the per-phase policies a whole-turn move is built from,
//!   and [`partial::Turn`], the turn under construction they act on.
//! - [`buy`]: the buying partial players.
//! - [`filter`]: unit filters ([`filter::CardFilter`]), the types a partial player leaves alone.
pub mod buy;
pub mod filter;
pub mod heuristics;
pub mod partial;

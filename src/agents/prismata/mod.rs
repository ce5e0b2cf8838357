//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! - [`partial`]: partial players, the per-phase policies a whole-turn move is built from,
//!   and [`partial::Turn`], the turn under construction they act on.
pub mod alpha_beta;
pub mod eval;
pub mod partial;
pub mod portfolio;
pub mod sequence;
pub mod uct;

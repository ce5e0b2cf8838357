//! Tribes-specific agents and knowledge (spec §15.2, §15.5).
//!
//! - [`scripts`]: the portfolio's scripts, each proposing one action of one kind for one actor;
//! - [`portfolio`]: [`TribesPortfolio`], the script set Portfolio MCTS searches over.

pub mod portfolio;
pub mod scripts;

pub use portfolio::{EVOLVED_WEIGHTS, TribesPortfolio};

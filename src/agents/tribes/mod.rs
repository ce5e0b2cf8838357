//! Tribes-specific agents and knowledge (spec §15.2, §15.5).
//!
//! - [`scripts`]: the portfolio's scripts, each proposing one action of one kind for one actor;
//! - [`portfolio`]: [`TribesPortfolio`], the script set Portfolio MCTS searches over;
//! - [`rule_based`]: [`RuleBasedAgent`], the hand-written "SimpleAgent" baseline.

pub mod portfolio;
pub mod rule_based;
mod rule_scores;
pub mod scripts;

pub use portfolio::{EVOLVED_WEIGHTS, TribesPortfolio};
pub use rule_based::RuleBasedAgent;

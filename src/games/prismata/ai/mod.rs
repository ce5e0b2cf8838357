//! Prismata's AI: Hierarchical Portfolio Search (spec §11) and the difficulty bots (§12).
//!
//! Partial players, each playing one phase of a turn:
//! - [`partial`]: the contract ([`partial::PartialPlayer`]), the turn under construction they
//!   act on ([`partial::TurnPlan`], with take-backs by replay), buy limits, filters, combinations;
//! - [`defense`], [`ability`], [`buy`], [`breach`]: the partial players of each phase;
//! - what they reason with: [`heuristics`] (unit values, damage losses, the will score),
//!   [`filter`] (unit filters), [`predict`] (the opponent's predicted next turn),
//!   [`attack_scenario`] (loss per attack amount), [`chill`] (how chill freezes blockers).
//!
//! Whole turns and the searches over them:
//! - [`sequence`]: one partial player per phase, a scripted whole turn;
//! - [`portfolio`]: the cross product of per-phase lists, the moves a search considers;
//! - [`eval`], [`alpha_beta`], [`uct`], [`pgs`]: playout evaluation and the C++ bots'
//!   searches (Alpha-Beta, UCT, Portfolio Greedy Search);
//! - [`pmcts`]: Portfolio MCTS over whole-turn moves, partial players weighted as scripts
//!   (the evolved Prismata personalities);
//! - `turn_tree`: the node and traversal that [`uct`] and [`pmcts`] share (why they stay
//!   apart from the generic [`crate::agents::tree`] is said there);
//! - [`bot`]: a whole-turn planner as an [`crate::agent::Agent`];
//! - [`config`]: bots defined in TOML (the built-in `bots.toml`, or a user's file);
//! - [`support`]: [`crate::agent::SearchSupport`] for Prismata (bots by name, the partial
//!   players as P-MCTS scripts, the will score as evaluation).
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
pub mod pgs;
pub mod pmcts;
pub mod portfolio;
pub mod predict;
pub mod sequence;
pub mod support;
#[cfg(test)]
mod testing;
mod turn_tree;
pub mod uct;

//! Tribes knowledge for the search agents: the DIFF heuristic, scripts and the rule-based agent.

pub mod knowledge;

pub use knowledge::TribesKnowledge;

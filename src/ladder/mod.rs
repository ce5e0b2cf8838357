//! Rated ladders of agents: Bradley–Terry ratings on the Elo scale with their intervals
//! ([`bradley_terry`]), from which difficulty tiers are picked.
pub mod bradley_terry;

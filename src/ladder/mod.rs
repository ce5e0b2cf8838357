//! Rated ladders of agents: Bradley–Terry ratings on the Elo scale with their intervals
//! ([`bradley_terry`]) and the adaptive schedule of the games that measure them
//! ([`schedule`]), from which difficulty tiers are picked.
pub mod bradley_terry;
pub mod schedule;

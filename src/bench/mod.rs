//! Speed measurements of a game (never used by tests or runs), behind `playstyles bench`:
//!
//! - [`fm`](mod@fm): the forward model, [`bench_fm`] (whole random games, then clones and
//!   applies timed on states sampled from them);
//! - [`agents`](mod@agents): a game's agents, [`bench_agents`] (one decision each on mid-game
//!   states, and whole games) with the set of agents a game's kit names ([`AgentBenchSet`]);
//! - [`learned`](mod@learned): a learned evaluation, [`bench_learned`] (encode and forward
//!   per position);
//! - [`measure`]: the timing helpers they use ([`Timer`], [`time_batches`], [`median`]).
//!
//! A game's kit chooses what they run on ([`crate::kit::GameKit::bench_levels`] per
//! [`BenchTarget`], [`crate::kit::GameKit::bench_agents`]); the `bench` command prints their
//! results ([`crate::experiments::bench`]).

pub mod agents;
pub mod fm;
pub mod learned;
pub mod measure;

pub use agents::{AgentBenchSet, AgentsBench, bench_agents};
pub use fm::{CALLS_PER_SAMPLE, FmBench, MAX_SAMPLES, PLAYOUTS_PER_GAME, SAMPLE_EVERY, bench_fm};
pub use learned::{LearnedBench, bench_learned};
pub use measure::{Timer, median, time_batches};

/// What `playstyles bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BenchTarget {
    /// The forward model: whole random games, clone, apply ([`bench_fm`]).
    Fm,
    /// The game's agents: one decision each, whole games ([`bench_agents`] with
    /// [`crate::kit::GameKit::bench_agents`]).
    Agents,
    /// A learned evaluation: encode and forward per position ([`bench_learned`]).
    Learned,
}

//! playstyles: breeds diverse *and* strong bot personalities for turn-based strategy games.
//!
//! Brief overview:
//! - [`game`]: the game API ([`game::Game`]) every engine implements and every agent sees;
//! - [`games::tribes`]: the Tribes engine (rules, levels, level generator);
//! - [`agent`]: the agent API ([`agent::Agent`]: picks one action at a time), the game
//!   knowledge searches use ([`agent::Knowledge`]) and portfolios of scripts
//!   ([`agent::Portfolio`]);
//! - [`agents`]: random, end-turn, rule-based, OSLA, MCTS, RHEA and Portfolio MCTS, built from
//!   `name(key=value,...)` spec strings ([`agents::build_agent`]), and the Tribes
//!   knowledge: DIFF heuristic, 55 portfolio scripts ([`agents::tribes`]);
//! - [`arena`]: plays matches between agents ([`arena::play_match`]) and replays them, plays
//!   series with seats rotated ([`arena::series::Series`]) and summarises them;
//! - [`bench`](mod@bench): measurement helpers and the forward-model and search-agent
//!   benchmarks ([`bench::bench_fm`], [`bench::bench_agents`]);
//! - [`features`]: play-style features (behaviour descriptors) from game records;
//! - [`qd`]: the MAP-Elites engine (grid archive, genomes, emitter, ask/tell, checkpoints),
//!   knowing nothing of games;
//! - [`experiments`]: the workflows behind the subcommands, generic over the game;
//! - [`cli`]: the command line (the only clap user), turned into typed settings;
//! - [`report`]: result files (CSV, written atomically), heatmaps and terminal output;
//! - [`stats`]: small statistics helpers ([`stats::wilson_interval`]);
//! - [`files`]: reading user-supplied files with a size limit;
//! - [`rng`]: the only place RNGs are made; every run is reproducible from its seed;
//! - [`error`]: the crate's error type; every message names the field, line or flag at fault.

#![deny(missing_docs)]

pub mod agent;
pub mod agents;
pub mod arena;
pub mod bench;
pub mod cli;
pub mod error;
pub mod experiments;
pub mod features;
pub mod files;
pub mod game;
pub mod games;
pub mod kit;
pub mod qd;
pub mod report;
pub mod rng;
pub mod stats;

pub use agent::Agent;
pub use arena::series::{Series, SeriesGame};
pub use arena::{MatchRecord, PlayerRecord, play_match};
pub use error::{Error, Result};
pub use game::{Game, Outcome, Player, Turn};

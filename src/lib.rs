//! playstyles: breeds diverse *and* strong bot personalities for turn-based strategy games.
//!
//! Brief overview:
//! - [`game`]: the game API ([`game::Game`]) every engine implements and every agent sees;
//! - [`games::tribes`]: the Tribes engine (rules, levels, level generator);
//! - [`agent`]: the agent API ([`agent::Agent`]): picks one action at a time;
//! - [`agents`]: the agents (random, end-turn, …) and the `name(key=value,...)` spec strings
//!   they are built from ([`agents::build_agent`]);
//! - [`arena`]: plays matches between agents ([`arena::play_match`]) and replays them, plays
//!   series with seats rotated ([`arena::series::Series`]) and summarises them;
//! - [`bench`]: measurement helpers and the forward-model benchmark ([`bench::bench_fm`]);
//! - [`experiments`]: the workflows behind the subcommands, generic over the game;
//! - [`cli`]: the command line (the only clap user), turned into typed settings;
//! - [`report`]: result files (CSV, written atomically) and terminal output (tables, progress);
//! - [`stats`]: small statistics helpers ([`stats::wilson_interval`]);
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
pub mod game;
pub mod games;
pub mod qd;
pub mod report;
pub mod rng;
pub mod stats;

pub use agent::Agent;
pub use arena::series::{Series, SeriesGame};
pub use arena::{MatchRecord, PlayerRecord, play_match};
pub use error::{Error, Result};
pub use game::{Game, Outcome, Player, Turn};

//! playstyles: breeds diverse *and* strong bot personalities for turn-based strategy games.
//!
//! Brief overview:
//! - [`game`]: the game API ([`game::Game`]) every engine implements and every agent sees;
//! - [`games::tribes`]: the Tribes engine (rules, levels, level generator);
//! - [`rng`]: the only place RNGs are made; every run is reproducible from its seed;
//! - [`error`]: the crate's error type; every message names the field, line or flag at fault.

#![deny(missing_docs)]

pub mod error;
pub mod game;
pub mod games;
pub mod rng;

pub use error::{Error, Result};
pub use game::{Game, Outcome, Player, Turn};

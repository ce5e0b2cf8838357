//! The game engines.

pub mod tribes;

//! Tribes: a re-implementation of the Tribes strategy game (GAIGResearch/Tribes, a Polytopia-like
//! game) after `shared/spec/tribes-rules.md`.

pub mod builtin;
pub mod level;
pub mod levelgen;
pub mod types;

pub use level::Level;
pub use types::*;

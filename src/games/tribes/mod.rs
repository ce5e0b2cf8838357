//! Tribes: a re-implementation of the Tribes strategy game (GAIGResearch/Tribes, a Polytopia-like
//! game) after `shared/spec/tribes-rules.md`, built for speed: a flat tile array, unit slots
//! and small `Copy` actions, no allocation per action. Its AI — the search knowledge, the
//! scripts and portfolio, the rule-based agent and the evolved weights — is [`ai`]; its golden
//! tests (rule scenarios worked out from the spec) are in `golden.rs`.

pub mod action;
pub mod ai;
mod apply;
mod buildings;
pub mod builtin;
pub mod check;
pub mod combat;
mod draw;
pub mod economy;
pub mod encoding;
pub mod features;
#[cfg(test)]
mod golden;
mod init;
mod kit;
pub mod legal;
pub mod level;
pub mod levelgen;
pub mod listing;
pub mod movement;
mod network;
mod observe;
mod render;
pub mod rules;
pub mod state;
pub mod types;
mod units;

pub use action::Action;
pub use kit::QUICKSTART;
pub use level::Level;
pub use rules::{Compat, GameMode, TribesGame, TribesRules};
pub use state::State;
pub use types::*;

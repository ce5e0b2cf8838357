//! Settings of `playstyles levels`. Levels are game-specific, so the work itself is done by each
//! game's glue ([`super::tribes_glue`]).

use super::GameKind;

/// What `playstyles levels` should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelsAction {
    /// List the built-in levels.
    List,
    /// Print the level made from this seed.
    Show(u64),
}

/// Validated settings of `playstyles levels`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelsConfig {
    /// The game whose levels to list or show.
    pub game: GameKind,
    /// What to do.
    pub action: LevelsAction,
}

//! Settings of `playstyles levels`; the work is done for the game by [`super::run_game()`].

use super::GameKind;

/// What `playstyles levels` should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelsAction {
    /// List the built-in levels.
    List,
    /// Print the level this name loads (Tribes: a seed or a level file).
    Show(String),
}

/// Validated settings of `playstyles levels`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelsConfig {
    /// The game whose levels to list or show.
    pub game: GameKind,
    /// What to do.
    pub action: LevelsAction,
}

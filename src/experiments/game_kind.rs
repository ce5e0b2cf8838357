//! A game of the process's registry, by name: [`GameKind`].

use std::fmt;
use std::str::FromStr;

use super::registry;
use crate::error::{Error, Result};

/// A game of the process's registry, by name: a `--game` value or a config's `game` (see
/// [`registry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameKind {
    name: &'static str,
}

impl GameKind {
    /// The name used on the command line and in configs.
    pub fn name(self) -> &'static str {
        self.name
    }
}

/// The registry's first game.
impl Default for GameKind {
    fn default() -> Self {
        GameKind {
            name: registry::registry().default_game().name(),
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for GameKind {
    type Err = Error;

    /// Looks a game up in the registry; the error (field `game`) lists the registered names.
    fn from_str(s: &str) -> Result<Self> {
        registry::registry()
            .get(s)
            .map(|g| GameKind { name: g.name() })
    }
}

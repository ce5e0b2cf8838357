//! A game of the process's registry, by name ([`GameKind`]), and the registry's program name
//! ([`program`]): all that the workflows know of the registry. The registry itself
//! ([`super::registry`]) runs the workflows, so it sits above them; installing it
//! ([`super::registry::install`]) hands these facts down here. Until then they are the
//! built-in games'.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::games::{GameVisitor, visit_all};
use crate::kit::GameKit;

/// The program name of the built-in registry.
pub const BUILTIN_PROGRAM: &str = "playstyles";

/// A game of the process's registry, by name: a `--game` value or a config's `game` (see
/// [`super::registry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameKind {
    name: &'static str,
}

impl GameKind {
    /// The name used on the command line and in configs.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The run config a bare `evolve` runs when this game comes first
    /// ([`GameKit::quickstart`]).
    pub fn quickstart(self) -> Option<&'static str> {
        listing()
            .games
            .iter()
            .find(|g| g.name == self.name)
            .and_then(|g| g.quickstart)
    }
}

/// The registry's first game.
impl Default for GameKind {
    fn default() -> Self {
        let first = listing()
            .games
            .first()
            .expect("a registry has at least one game");
        GameKind { name: first.name }
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
        let games = &listing().games;
        games
            .iter()
            .find(|g| g.name == s)
            .map(|g| GameKind { name: g.name })
            .ok_or_else(|| unknown_game(s, games.iter().map(|g| g.name)))
    }
}

/// The program name the process's registry gives messages and replay commands
/// ([`BUILTIN_PROGRAM`] for the built-in registry).
pub fn program() -> &'static str {
    listing().program
}

/// A game as the workflows know it: its name and its quick start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Listed {
    /// [`crate::game::GameInfo::name`] of the game with its default rules.
    pub(super) name: &'static str,
    /// [`GameKit::quickstart`].
    pub(super) quickstart: Option<&'static str>,
}

impl Listed {
    /// Game `G` as the workflows know it.
    pub(super) fn of<G: GameKit>() -> Self {
        Listed {
            name: G::with_rules(G::Rules::default()).info().name,
            quickstart: G::quickstart(),
        }
    }
}

/// The process's program name and games, in order.
#[derive(Debug)]
struct Listing {
    program: &'static str,
    games: Vec<Listed>,
}

/// The process's listing, set once: handed down by [`super::registry::install`], or else the
/// built-in games' the first time it is read.
static LISTING: OnceLock<Listing> = OnceLock::new();

/// The process's listing (see [`LISTING`]).
fn listing() -> &'static Listing {
    LISTING.get_or_init(|| {
        struct Games(Vec<Listed>);
        impl GameVisitor for Games {
            fn visit<G: GameKit>(&mut self) -> ControlFlow<()> {
                self.0.push(Listed::of::<G>());
                ControlFlow::Continue(())
            }
        }
        let mut games = Games(Vec::new());
        visit_all(&mut games);
        Listing {
            program: BUILTIN_PROGRAM,
            games: games.0,
        }
    })
}

/// Makes `program` and `games` the process's (the part of [`super::registry::install`] that
/// the workflows see).
///
/// # Errors
///
/// [`already_installed`] if the listing was handed down or read before.
pub(super) fn hand_down(program: &'static str, games: Vec<Listed>) -> Result<()> {
    LISTING
        .set(Listing { program, games })
        .map_err(|_| already_installed())
}

/// The error for a registry installed after another one, or after the registry was read.
pub(super) fn already_installed() -> Error {
    Error::config(
        "game",
        "the registry was already set: install it once, before anything reads it",
    )
}

/// The error for a game named `name` that is not one of `known`: naming `game`, listing them.
pub(super) fn unknown_game<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Error {
    let known: Vec<&str> = known.collect();
    Error::config(
        "game",
        format!("unknown game `{name}` (known games: {})", known.join(", ")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_an_installed_registry_the_games_are_the_builtin_ones() {
        let names = crate::games::names();
        assert_eq!(GameKind::default().name(), names[0]);
        assert!(GameKind::default().quickstart().is_some());
        assert_eq!(program(), BUILTIN_PROGRAM);
        for name in &names {
            assert_eq!(name.parse::<GameKind>().unwrap().name(), *name);
        }
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "game"),
            "{e}"
        );
        for name in names {
            assert!(e.to_string().contains(name), "{e}");
        }
    }
}

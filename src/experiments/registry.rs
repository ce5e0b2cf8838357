//! The games a binary runs: a [`Registry`] of [`GameEntry`]s, each a game's workflows
//! ([`super::run_game()`]) compiled for it, under the game's name.
//!
//! The `playstyles` binary runs [`Registry::builtin`], the games of
//! [`crate::games::visit_all`]. A library user's binary runs its own game with every
//! subcommand through one call, [`crate::cli::main_for`], which installs a registry of that
//! game alone; [`crate::cli::main_with`] takes any registry (say, the built-in games and one's
//! own).
//!
//! A process has one registry, installed before the command line is read ([`install`]) and
//! read everywhere a game is named: `--game`, a config's `game`, the game of `work`'s tasks,
//! `playstyles games`, and the program name in messages and on replay commands. The workflows
//! it runs read those names below it, in [`super::game_kind`], to which [`install`] hands
//! them down. Without an installed one, [`registry`] is the built-in registry (as in the
//! library's own tests).

use std::fmt;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::OnceLock;

use super::command::Output;
use super::game_kind::{BUILTIN_PROGRAM, Listed, already_installed, hand_down, unknown_game};
use super::run_lock::DirLock;
use super::{Command, Exit};
use crate::error::{Error, Result};
use crate::games::{GameVisitor, visit_all};
use crate::kit::GameKit;

/// One game of a registry: its name, its built-in quick start and its workflows.
#[derive(Clone, Copy)]
pub struct GameEntry {
    listed: Listed,
    run: fn(Command, &mut dyn Write) -> Result<Exit>,
    describe: fn(&mut dyn Write) -> Result<()>,
}

impl GameEntry {
    /// The entry of game `G`: named by its [`crate::game::GameInfo::name`], running every
    /// subcommand with [`super::run_game()`].
    pub fn of<G: GameKit>() -> Self {
        fn run<G: GameKit>(cmd: Command, out: &mut dyn Write) -> Result<Exit> {
            let mut out = out;
            super::run_game::run_game::<G, _>(cmd, &mut out)
        }
        fn describe<G: GameKit>(out: &mut dyn Write) -> Result<()> {
            let mut out = out;
            super::run_game::describe_game::<G, _>(&mut out)
        }
        GameEntry {
            listed: Listed::of::<G>(),
            run: run::<G>,
            describe: describe::<G>,
        }
    }

    /// The name `--game` and a config's `game` take.
    pub fn name(&self) -> &'static str {
        self.listed.name
    }
}

impl fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameEntry")
            .field("name", &self.listed.name)
            .finish()
    }
}

/// The games of a binary, in order (the first is the default of `--game` and of a config's
/// `game`), and the program name its messages and replay commands use.
#[derive(Clone, Debug)]
pub struct Registry {
    program: &'static str,
    games: Vec<GameEntry>,
}

impl Registry {
    /// A registry without games, for the program `program` (the command its messages name).
    pub fn new(program: &'static str) -> Self {
        Registry {
            program,
            games: Vec::new(),
        }
    }

    /// The `playstyles` binary's games: those of [`crate::games::visit_all`], in its order.
    pub fn builtin() -> Self {
        struct Entries(Vec<GameEntry>);
        impl GameVisitor for Entries {
            fn visit<G: GameKit>(&mut self) -> ControlFlow<()> {
                self.0.push(GameEntry::of::<G>());
                ControlFlow::Continue(())
            }
        }
        let mut entries = Entries(Vec::new());
        visit_all(&mut entries);
        Registry {
            program: BUILTIN_PROGRAM,
            games: entries.0,
        }
    }

    /// This registry with game `G` added after its games.
    ///
    /// # Panics
    ///
    /// If the registry already has a game of `G`'s name (a bug of the binary, found on its
    /// first run).
    #[must_use]
    pub fn with<G: GameKit>(mut self) -> Self {
        let entry = GameEntry::of::<G>();
        assert!(
            self.find(entry.name()).is_none(),
            "two games named `{}` in one registry",
            entry.name()
        );
        self.games.push(entry);
        self
    }

    /// The program name (`playstyles` for the built-in registry).
    pub fn program(&self) -> &'static str {
        self.program
    }

    /// The game named `name`.
    pub fn find(&self, name: &str) -> Option<&GameEntry> {
        self.games.iter().find(|g| g.name() == name)
    }

    /// The game named `name`, or an error naming `game` that lists the known ones.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `game` for a name the registry does not have.
    pub fn get(&self, name: &str) -> Result<&GameEntry> {
        self.find(name)
            .ok_or_else(|| unknown_game(name, self.games.iter().map(GameEntry::name)))
    }

    /// Runs `cmd` with the game it names (`games`: lists every game), holding the lock on
    /// what it writes ([`Command::output`], [`DirLock`]) from before it looks
    /// at that folder until it is done.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `game` for a game the registry does not have; [`Error::Io`]
    /// naming the output folder if another process holds its lock; whatever the command
    /// reports.
    pub fn run(&self, cmd: Command, out: &mut dyn Write) -> Result<Exit> {
        if cmd == Command::Games {
            for g in &self.games {
                (g.describe)(out)?;
            }
            return Ok(Exit::Success);
        }
        let entry = self.get(cmd.game().name())?;
        let holder = format!("{} {}", self.program, cmd.name());
        let _lock = match cmd.output() {
            Some(Output::Dir { dir, create }) => DirLock::acquire(dir, &holder, create)?,
            Some(Output::File(path)) => DirLock::acquire_file(path, &holder)?,
            None => None,
        };
        (entry.run)(cmd, out)
    }
}

/// The process's registry.
static INSTALLED: OnceLock<Registry> = OnceLock::new();

/// Makes `registry` the process's registry; call it once, before the command line is read
/// ([`crate::cli::main_with`] does).
///
/// # Errors
///
/// [`Error::Config`] naming `game` if the registry has no game, or if another registry was
/// installed (or the built-in one already read) before.
pub fn install(registry: Registry) -> Result<()> {
    if registry.games.is_empty() {
        return Err(Error::config("game", "a registry needs at least one game"));
    }
    hand_down(
        registry.program,
        registry.games.iter().map(|g| g.listed).collect(),
    )?;
    INSTALLED.set(registry).map_err(|_| already_installed())
}

/// The process's registry: the installed one, else (installing it) the built-in one.
pub fn registry() -> &'static Registry {
    INSTALLED.get_or_init(|| {
        // Reading the registry fixes what the workflows see of it too ([`super::game_kind`]),
        // so that a later `install` is refused there first and changes nothing.
        super::game_kind::program();
        Registry::builtin()
    })
}

/// Runs a command with the game it names in the process's registry, writing its report to
/// `out`.
///
/// # Errors
///
/// Whatever the command reports (bad levels, bad agent specs, I/O errors on `out`).
pub fn run<W: Write>(cmd: Command, out: &mut W) -> Result<Exit> {
    registry().run(cmd, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_registry_lists_the_visited_games_in_order() {
        let r = Registry::builtin();
        let names: Vec<&str> = r.games.iter().map(GameEntry::name).collect();
        assert_eq!(names, crate::games::names());
        assert_eq!(r.program(), "playstyles");
        assert!(r.games[0].listed.quickstart.is_some());
    }

    #[test]
    fn an_unknown_game_is_named_with_the_known_ones() {
        let r = Registry::builtin();
        let e = r.get("chess").unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "game"),
            "{e}"
        );
        for g in &r.games {
            assert!(text.contains(g.name()), "{text}");
        }
    }

    #[test]
    #[should_panic(expected = "two games named")]
    fn a_game_registered_twice_is_refused() {
        /// Adds the first visited game to the built-in registry, which already has it.
        struct AddFirstAgain;
        impl GameVisitor for AddFirstAgain {
            fn visit<G: GameKit>(&mut self) -> ControlFlow<()> {
                let _ = Registry::builtin().with::<G>();
                ControlFlow::Break(())
            }
        }
        visit_all(&mut AddFirstAgain);
    }

    #[test]
    fn an_empty_registry_cannot_be_installed() {
        let e = install(Registry::new("nothing")).unwrap_err();
        assert!(e.to_string().contains("at least one game"), "{e}");
    }
}

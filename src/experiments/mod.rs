//! Workflows behind the subcommands, written once for any [`crate::game::Game`].
//!
//! [`crate::cli`] turns flags into a typed, validated [`Command`]; [`run`] dispatches it to the
//! game it names. Nothing here sees clap.
//!
//! - [`play`]: one match, printed as text or JSON;
//! - [`bench`](mod@bench): forward-model and search-agent speed;
//! - [`tournament`]: pairings of agents over levels × repetitions, seats rotated, to CSV
//!   ([`tournament_spec`], [`games_csv`], [`tournament_rows`]), resumable;
//! - [`evolve`]: a MAP-Elites run from a [`run_config`] to a run directory;
//! - [`levels`]: listing and showing levels (game-specific; see [`tribes_glue`]);
//! - [`plot`], [`validate`], [`tiers`]: read a run directory ([`run_dir`]) to redraw its
//!   pictures, re-play its elites on held-out levels, and pick difficulty tiers;
//! - [`config_file`]: what every TOML config shares (errors naming the field, `levels`,
//!   `[rules]`);
//! - [`tribes_glue`]: the one place that calls the workflows with the Tribes engine.

pub mod bench;
pub mod config_file;
pub mod evaluate;
pub mod evolve;
pub mod games_csv;
pub mod levels;
pub mod play;
pub mod plot;
pub mod run_config;
pub mod run_dir;
pub mod tiers;
pub mod tournament;
pub mod tournament_rows;
pub mod tournament_spec;
pub mod tribes_glue;
pub mod validate;

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use crate::error::{Error, Result};

pub use bench::{BenchConfig, BenchTarget};
pub use evolve::EvolveConfig;
pub use levels::{LevelsAction, LevelsConfig};
pub use play::PlayConfig;
pub use plot::PlotConfig;
pub use tiers::TiersConfig;
pub use tournament_spec::{TournamentConfig, TournamentSpec};
pub use validate::{CellChoice, LevelChoice, ValidateConfig};

/// The games the tool can run: the registry of `--game` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Tribes (`tribes`).
    Tribes,
}

impl GameKind {
    /// Every game, in the order help texts list them.
    pub const ALL: &'static [GameKind] = &[GameKind::Tribes];

    /// The name used on the command line and in configs.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Tribes => "tribes",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = Error;

    /// Looks a game up by name; the error (field `game`) lists the known names.
    fn from_str(s: &str) -> Result<Self> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                let known: Vec<_> = GameKind::ALL.iter().map(|g| g.name()).collect();
                Error::config(
                    "game",
                    format!("unknown game `{s}` (known games: {})", known.join(", ")),
                )
            })
    }
}

/// One validated subcommand.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `playstyles levels`.
    Levels(LevelsConfig),
    /// `playstyles play`.
    Play(PlayConfig),
    /// `playstyles bench`.
    Bench(BenchConfig),
    /// `playstyles tournament`.
    Tournament(TournamentConfig),
    /// `playstyles plot`.
    Plot(PlotConfig),
    /// `playstyles validate`.
    Validate(ValidateConfig),
    /// `playstyles tiers`.
    Tiers(TiersConfig),
    /// `playstyles evolve`.
    Evolve(Box<EvolveConfig>),
}

impl Command {
    /// The game the command is about.
    pub fn game(&self) -> GameKind {
        match self {
            Command::Levels(c) => c.game,
            Command::Play(c) => c.game,
            Command::Bench(c) => c.game,
            Command::Tournament(c) => c.spec.game,
            Command::Plot(c) => c.game,
            Command::Validate(c) => c.game,
            Command::Tiers(c) => c.game,
            Command::Evolve(c) => c.run.game,
        }
    }
}

/// Runs a command, writing its report to `out`.
///
/// # Errors
///
/// Whatever the command reports (bad levels, bad agent specs, I/O errors on `out`).
pub fn run<W: Write>(cmd: Command, out: &mut W) -> Result<()> {
    match cmd.game() {
        GameKind::Tribes => tribes_glue::run_tribes(cmd, out),
    }
}

/// Wraps an error writing a command's report.
pub(crate) fn output_error(e: std::io::Error) -> Error {
    Error::io("<output>", e)
}

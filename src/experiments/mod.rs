//! Workflows behind the subcommands, written once for any [`crate::game::Game`].
//!
//! [`crate::cli`] turns flags into a typed, validated [`Command`]; [`run`] dispatches it to the
//! game it names. Nothing here sees clap.
//!
//! - [`play`]: one match, printed as text or JSON; [`replay`](mod@replay): one match as an HTML
//!   page of pictures;
//! - [`bench`](mod@bench): forward-model and search-agent speed;
//! - [`tournament`]: pairings of agents over levels × repetitions, seats rotated, to CSV
//!   ([`tournament_spec`], [`games_csv`], [`tournament_rows`]), resumable;
//! - [`evolve`]: a MAP-Elites run from a [`run_config`] to a run directory; [`tasks`]: the same
//!   run batch by batch through `ask`, `work` and `tell`, for clusters;
//! - [`levels`]: listing and showing a game's levels;
//! - [`plot`], [`validate`], [`reevaluate`], [`tiers`]: read a run directory ([`run_dir`]) to
//!   redraw its pictures, re-play its elites on held-out levels or on fresh games of its
//!   training levels, and pick difficulty tiers; [`report`](mod@report) draws it all as the
//!   run explorer page;
//! - [`config_file`]: what every TOML config shares (errors naming the field, `levels`,
//!   `[rules]`);
//! - [`run_game()`]: every subcommand for one game `G: GameKit`; [`registry`]: the games a
//!   binary runs, by name ([`run`] finds the command's game there).

pub mod agent_files;
pub mod bench;
pub mod config_file;
pub mod evaluate;
pub mod evolve;
pub mod games_csv;
pub mod journal;
pub mod levels;
pub mod play;
pub mod plot;
pub mod reevaluate;
pub mod registry;
pub mod replay;
pub mod report;
pub mod run_config;
pub mod run_dir;
pub mod run_game;
pub mod run_lock;
pub mod tasks;
pub mod tiers;
pub mod tournament;
pub mod tournament_rows;
pub mod tournament_spec;
pub mod validate;

use std::fmt;
use std::io::Write;
use std::path::Path;
use std::str::FromStr;

use crate::error::{Error, Result};

pub use crate::bench::BenchTarget;
pub use bench::BenchConfig;
pub use evolve::EvolveConfig;
pub use levels::{LevelsAction, LevelsConfig};
pub use play::PlayConfig;
pub use plot::PlotConfig;
pub use reevaluate::ReevaluateConfig;
pub use registry::{GameEntry, Registry};
pub use replay::ReplayConfig;
pub use report::ReportConfig;
pub use run_game::run_game;
pub use tasks::{AskConfig, TellConfig, WorkConfig};
pub use tiers::TiersConfig;
pub use tournament_spec::{TournamentConfig, TournamentSpec};
pub use validate::{CellChoice, LevelChoice, ValidateConfig};

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

/// One validated subcommand.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `playstyles levels`.
    Levels(LevelsConfig),
    /// `playstyles play`.
    Play(PlayConfig),
    /// `playstyles replay`.
    Replay(ReplayConfig),
    /// `playstyles bench`.
    Bench(BenchConfig),
    /// `playstyles tournament`.
    Tournament(TournamentConfig),
    /// `playstyles plot`.
    Plot(PlotConfig),
    /// `playstyles validate`.
    Validate(ValidateConfig),
    /// `playstyles reevaluate`.
    Reevaluate(ReevaluateConfig),
    /// `playstyles tiers`.
    Tiers(TiersConfig),
    /// `playstyles report`.
    Report(ReportConfig),
    /// `playstyles evolve`.
    Evolve(Box<EvolveConfig>),
    /// `playstyles ask`.
    Ask(Box<AskConfig>),
    /// `playstyles work`.
    Work(Box<WorkConfig>),
    /// `playstyles tell`.
    Tell(Box<TellConfig>),
    /// `playstyles games`.
    Games,
}

impl Command {
    /// The game the command is about (`games`: the default game; it lists them all).
    pub fn game(&self) -> GameKind {
        match self {
            Command::Games => GameKind::default(),
            Command::Levels(c) => c.game,
            Command::Play(c) => c.game,
            Command::Replay(c) => c.game,
            Command::Bench(c) => c.game,
            Command::Tournament(c) => c.spec.game,
            Command::Plot(c) => c.game,
            Command::Validate(c) => c.game,
            Command::Reevaluate(c) => c.game,
            Command::Tiers(c) => c.game,
            Command::Report(c) => c.game,
            Command::Evolve(c) => c.run.game,
            Command::Ask(c) => c.evolve.run.game,
            Command::Work(c) => c.game,
            Command::Tell(c) => c.evolve.run.game,
        }
    }

    /// The subcommand's name, as typed (`evolve`).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Games => "games",
            Command::Levels(_) => "levels",
            Command::Play(_) => "play",
            Command::Replay(_) => "replay",
            Command::Bench(_) => "bench",
            Command::Tournament(_) => "tournament",
            Command::Plot(_) => "plot",
            Command::Validate(_) => "validate",
            Command::Reevaluate(_) => "reevaluate",
            Command::Tiers(_) => "tiers",
            Command::Report(_) => "report",
            Command::Evolve(_) => "evolve",
            Command::Ask(_) => "ask",
            Command::Work(_) => "work",
            Command::Tell(_) => "tell",
        }
    }

    /// The folder the command writes its results into, which it locks while it runs
    /// ([`run_lock`]), and whether it may create that folder: a run directory (`evolve`,
    /// `ask`, `tell`, `validate`, `reevaluate`, `report`, `tiers`, `plot`) or a tournament's
    /// output folder. `None` for commands that write into no such folder, and for `work`,
    /// whose workers, many at once, each add their own result file to a batch of a run that
    /// `tell` may hold meanwhile.
    pub fn output_dir(&self) -> Option<(&Path, bool)> {
        match self {
            Command::Evolve(c) => Some((&c.out, !c.resume)),
            Command::Ask(c) => Some((&c.evolve.out, true)),
            Command::Tell(c) => Some((&c.evolve.out, false)),
            Command::Tournament(c) => Some((&c.out, !c.resume)),
            Command::Plot(c) => Some((&c.dir, false)),
            Command::Validate(c) => Some((&c.run_dir, false)),
            Command::Reevaluate(c) => Some((&c.run_dir, false)),
            Command::Report(c) => Some((&c.run_dir, false)),
            Command::Tiers(c) => Some((&c.run_dir, false)),
            Command::Games
            | Command::Levels(_)
            | Command::Play(_)
            | Command::Replay(_)
            | Command::Bench(_)
            | Command::Work(_) => None,
        }
    }
}

/// How a command that ran ends, beyond success or error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The command did its work.
    Success,
    /// `ask`: the schedule is finished, nothing was asked (exit code
    /// [`tasks::EXIT_FINISHED`]).
    Finished,
}

/// Runs a command with the game it names in the process's registry, writing its report to
/// `out`.
///
/// # Errors
///
/// Whatever the command reports (bad levels, bad agent specs, I/O errors on `out`).
pub fn run<W: Write>(cmd: Command, out: &mut W) -> Result<Exit> {
    registry::registry().run(cmd, out)
}

/// A worker pool of `threads` threads (`None`: one per core).
///
/// # Errors
///
/// [`Error::Config`] naming `field` (the command's threads flag) if the pool cannot be built.
pub(crate) fn thread_pool(threads: Option<usize>, field: &str) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::config(field, e.to_string()))
}

/// Wraps an error writing a command's report.
pub(crate) fn output_error(e: std::io::Error) -> Error {
    Error::io("<output>", e)
}

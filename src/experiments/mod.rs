//! Workflows behind the subcommands, written once for any [`crate::game::Game`].
//!
//! [`crate::cli`] turns flags into a typed, validated [`Command`]; [`run`] dispatches it to the
//! game it names. Nothing here sees clap.
//!
//! The commands:
//! - [`play`]: one match, printed as text or JSON; [`replay`](mod@replay): one match as an HTML
//!   page of pictures;
//! - [`bench`](mod@bench): forward-model and search-agent speed ([`crate::bench`]);
//! - [`tournament`]: pairings of agents over levels × repetitions, seats rotated, to CSV
//!   ([`tournament_spec`], [`games_csv`], [`tournament_rows`]), resumable;
//! - [`evolve`]: a MAP-Elites run from a [`run_config`] to a run directory, its games scored
//!   by [`evaluate`], its player's style strength first [`calibration`]-ed where it says
//!   `auto`; [`tasks`]: the same run batch by batch through `ask`, `work` and `tell`,
//!   for clusters;
//! - [`levels`]: listing and showing a game's levels;
//! - [`dataset`](mod@dataset), [`train`](mod@train): positions from self-play, and a value
//!   network fitted to them ([`crate::learn`]);
//! - [`sensitivity`]: how far each evolved weight of a run config moves the map's features
//!   and the win rate, played on common games;
//! - [`plot`], [`validate`], [`reevaluate`], [`tiers`]: read a run directory ([`run_dir`]) to
//!   redraw its pictures, re-play its elites on held-out levels or on fresh games of its
//!   training levels ([`elite_games`], resumable from a [`journal`]), and pick difficulty
//!   tiers; [`roster`](mod@roster): a roster of personalities far apart and proven distinct by
//!   a classifier; [`report`](mod@report) draws it all as the run explorer page.
//!
//! What they share:
//! - [`feature_spread`]: how much re-played elites truly differ per feature (`validate`,
//!   `reevaluate`);
//! - [`config_file`]: what every TOML config shares (errors naming the field, `levels`,
//!   `[rules]`); [`agent_files`]: the files a run's or tournament's agents read, kept in its
//!   folder; [`run_lock`]: one command at a time per output folder;
//! - [`game_kind`]: a game named on the command line or in a config ([`GameKind`]), and the
//!   program name, as the process's registry gives them;
//! - [`command`]: one validated subcommand ([`Command`]) and how it ends ([`Exit`]).
//!
//! Above them all: [`run_game()`], every subcommand for one game `G: GameKit`; [`registry`],
//! the games a binary runs, by name ([`run`] finds the command's game there).

pub mod agent_files;
pub mod bench;
pub mod calibration;
pub mod command;
pub mod config_file;
pub mod dataset;
pub mod elite_games;
pub mod evaluate;
pub mod evolve;
pub mod feature_spread;
pub mod game_kind;
pub mod games_csv;
pub mod journal;
pub mod ladder;
pub mod levels;
pub mod play;
pub mod plot;
pub mod rated_tiers;
pub mod reevaluate;
pub mod registry;
pub mod replay;
pub mod report;
mod resources;
pub mod roster;
pub mod run_config;
pub mod run_dir;
pub mod run_game;
pub mod run_lock;
pub mod sensitivity;
pub mod tasks;
pub mod tiers;
pub mod tournament;
pub mod tournament_rows;
pub mod tournament_spec;
pub mod train;
pub mod validate;

pub use crate::bench::BenchTarget;
pub use bench::BenchConfig;
pub use command::{Command, Exit};
pub use dataset::DatasetConfig;
pub use evolve::EvolveConfig;
pub use game_kind::GameKind;
pub use ladder::LadderConfig;
pub use levels::{LevelsAction, LevelsConfig};
pub use play::PlayConfig;
pub use plot::PlotConfig;
pub use reevaluate::ReevaluateConfig;
pub use registry::{GameEntry, Registry, run};
pub use replay::ReplayConfig;
pub use report::ReportConfig;
pub use roster::RosterConfig;
pub use run_game::run_game;
pub use sensitivity::SensitivityConfig;
pub use tasks::{AskConfig, TellConfig, WorkConfig};
pub use tiers::TiersConfig;
pub use tournament_spec::{TournamentConfig, TournamentSpec};
pub use train::TrainConfig;
pub use validate::{CellChoice, LevelChoice, ValidateConfig};

pub(crate) use resources::{output_error, thread_pool};

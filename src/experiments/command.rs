//! One validated subcommand ([`Command`]) and how it ends ([`Exit`]).

use std::path::Path;

use super::{
    AskConfig, BenchConfig, DatasetConfig, EvolveConfig, GameKind, LadderConfig, LevelsConfig,
    PlayConfig, PlotConfig, ReevaluateConfig, ReplayConfig, ReportConfig, RosterConfig,
    SensitivityConfig, TellConfig, TiersConfig, TournamentConfig, TrainConfig, ValidateConfig,
    WorkConfig,
};

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
    /// `playstyles ladder`.
    Ladder(Box<LadderConfig>),
    /// `playstyles plot`.
    Plot(PlotConfig),
    /// `playstyles validate`.
    Validate(ValidateConfig),
    /// `playstyles reevaluate`.
    Reevaluate(ReevaluateConfig),
    /// `playstyles roster`.
    Roster(Box<RosterConfig>),
    /// `playstyles sensitivity`.
    Sensitivity(Box<SensitivityConfig>),
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
    /// `playstyles dataset`.
    Dataset(Box<DatasetConfig>),
    /// `playstyles train`.
    Train(Box<TrainConfig>),
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
            Command::Ladder(c) => c.spec.game,
            Command::Plot(c) => c.game,
            Command::Validate(c) => c.game,
            Command::Reevaluate(c) => c.game,
            Command::Roster(c) => c.game,
            Command::Sensitivity(c) => c.game(),
            Command::Tiers(c) => c.game,
            Command::Report(c) => c.game,
            Command::Evolve(c) => c.run.game,
            Command::Ask(c) => c.evolve.run.game,
            Command::Work(c) => c.game,
            Command::Tell(c) => c.evolve.run.game,
            Command::Dataset(c) => c.game,
            Command::Train(c) => c.game,
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
            Command::Ladder(_) => "ladder",
            Command::Plot(_) => "plot",
            Command::Validate(_) => "validate",
            Command::Reevaluate(_) => "reevaluate",
            Command::Roster(_) => "roster",
            Command::Sensitivity(_) => "sensitivity",
            Command::Tiers(_) => "tiers",
            Command::Report(_) => "report",
            Command::Evolve(_) => "evolve",
            Command::Ask(_) => "ask",
            Command::Work(_) => "work",
            Command::Tell(_) => "tell",
            Command::Dataset(_) => "dataset",
            Command::Train(_) => "train",
        }
    }

    /// What the command writes, which it locks while it runs ([`super::run_lock`]): a folder
    /// (a run directory for `evolve`, `ask`, `tell`, `validate`, `reevaluate`, `roster`, `report`,
    /// `tiers`, `plot`; a tournament's, a ladder's or a sensitivity measurement's output
    /// folder), or a file (`dataset`'s dataset, `train`'s model, `replay`'s page). `None` for
    /// commands that write nothing, and for `work`, whose workers, many at once, each add
    /// their own result file to a batch of a run that `tell` may hold meanwhile.
    pub fn output(&self) -> Option<Output<'_>> {
        let dir = |dir, create| Some(Output::Dir { dir, create });
        match self {
            Command::Evolve(c) => dir(&c.out, true),
            Command::Ask(c) => dir(&c.evolve.out, true),
            Command::Tell(c) => dir(&c.evolve.out, false),
            Command::Tournament(c) => dir(&c.out, true),
            Command::Ladder(c) => dir(&c.out, true),
            Command::Plot(c) => dir(&c.dir, false),
            Command::Validate(c) => dir(&c.run_dir, false),
            Command::Reevaluate(c) => dir(&c.run_dir, false),
            Command::Roster(c) => dir(&c.run_dir, false),
            Command::Report(c) => dir(&c.run_dir, false),
            Command::Tiers(c) => dir(&c.run_dir, false),
            Command::Sensitivity(c) => dir(&c.out, true),
            Command::Dataset(c) => Some(Output::File(&c.out)),
            Command::Train(c) => Some(Output::File(&c.out)),
            Command::Replay(c) => Some(Output::File(&c.out)),
            Command::Games
            | Command::Levels(_)
            | Command::Play(_)
            | Command::Bench(_)
            | Command::Work(_) => None,
        }
    }
}

/// What a command writes and locks ([`Command::output`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output<'a> {
    /// A folder, locked by its [`super::run_lock::LOCK_FILE`]; `create`: the command may
    /// create it.
    Dir {
        /// The folder.
        dir: &'a Path,
        /// Whether the command may create it.
        create: bool,
    },
    /// A file, locked by a lock file beside it ([`super::run_lock::lock_file_of`]).
    File(&'a Path),
}

/// How a command that ran ends, beyond success or error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The command did its work.
    Success,
    /// `ask`: the schedule is finished, nothing was asked (exit code
    /// [`super::tasks::EXIT_FINISHED`]).
    Finished,
}

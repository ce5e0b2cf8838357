//! The command line: clap types mirroring the flags, turned into the typed settings of
//! [`crate::experiments`]. The only module that uses clap.
//!
//! [`main`] is the `playstyles` binary; [`main_for`] gives a library user's binary the same
//! command line for its own game, under its own name (and [`main_with`] for any registry of
//! games, [`crate::experiments::Registry`]):
//!
//! ```no_run
//! # fn demo<MyGame: playstyles::GameKit>() -> std::process::ExitCode {
//! // src/main.rs of the crate `mygame`, whose `MyGame` implements `GameKit`:
//! // `mygame evolve mygame.toml`, `mygame play --level 2 --agents mcts,random`, …
//! playstyles::cli::main_for::<MyGame>()
//! # }
//! ```
//!
//! ```text
//! playstyles games
//! playstyles levels [--game GAME] [list|show LEVEL]
//! playstyles play --game GAME --level LEVEL --agents SPEC,SPEC [--seed N] [--render] [--json]
//! playstyles bench [fm|agents] --game GAME [--level LEVEL,...] [--json]
//! playstyles tournament CONFIG.toml [--out DIR] [--threads N] [--quiet] [--resume] [--force]
//! playstyles ladder CONFIG.toml [--out DIR] [--threads N] [--quiet] [--resume] [--force]
//! playstyles evolve [CONFIG.toml] [--out DIR] [--threads N] [--resume] [--force] [--quiet]
//! playstyles ask RUN_DIR [--config CONFIG.toml]
//! playstyles work TASKS|- [--shard I/N] [--threads N] [--quiet]
//! playstyles tell RUN_DIR
//! playstyles plot RUN_DIR|TOURNAMENT_DIR
//! playstyles validate RUN_DIR [--levels held-out|paper|builtin|LEVELS|generated:N] [--repetitions N]
//!                     [--cells corners|all|LIST] [--threads N] [--quiet] [--resume] [--force]
//! playstyles reevaluate RUN_DIR [--games N] [--seed S] [--threads N] [--quiet] [--resume] [--force]
//! playstyles roster RUN_DIR [--count N|auto|auto:N] [--target A] [--floor W] [--train-games N]
//!                   [--test-games N] [--levels held-out|paper|LEVELS|generated:N] [--threads N]
//!                   [--quiet] [--resume] [--force]
//! playstyles sensitivity CONFIG.toml [--out DIR] [--repetitions N] [--player SPEC]
//!                        [--strengths LIST|auto] [--group NAME=SCRIPT+SCRIPT]... [--seed S]
//!                        [--threads N] [--quiet]
//!                        [--resume] [--force]
//! playstyles tiers RUN_DIR|LADDER_DIR [--count N] [--gap ELO] [--cell C] [--prefer near|far]
//! playstyles report RUN_DIR [--no-replays] [--threads N] [--ladder LADDER_DIR]
//! playstyles replay --game GAME --level LEVEL --agents SPEC,SPEC [--seed N] --out FILE.html [--force]
//! ```

use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::error::{Error, Result};
use crate::experiments::registry::{Registry, install, registry};
use crate::experiments::{
    self, AskConfig, BenchConfig, BenchTarget, CellChoice, Command, DatasetConfig, EvolveConfig,
    Exit, GameKind, LadderConfig, LevelChoice, LevelsAction, LevelsConfig, PlayConfig, PlotConfig,
    ReevaluateConfig, ReplayConfig, ReportConfig, RosterConfig, SensitivityConfig, TellConfig,
    TiersConfig, TournamentConfig, TrainConfig, ValidateConfig, WorkConfig,
};
use crate::kit::GameKit;
use crate::report::printable::printable_text;

/// Breeds diverse and strong bot personalities for turn-based strategy games.
#[derive(Debug, Parser)]
#[command(name = "playstyles", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: CliCommand,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// List the built-in levels or show one.
    Levels(LevelsArgs),
    /// Play one match between agents and print its outcome.
    Play(PlayArgs),
    /// Play one match and write it as a self-contained HTML page: the board after every
    /// turn, with a slider, the turn's actions and the scores.
    Replay(ReplayGameArgs),
    /// Measure the speed of a game.
    Bench(BenchArgs),
    /// Play a tournament (pairings of agents over levels x repetitions, seats alternated) and
    /// write games.csv and summary.csv as games finish (--resume continues a stopped one).
    Tournament(TournamentArgs),
    /// Rate agents (a run's elites, a strength dial, reference bots) by Bradley-Terry on the
    /// Elo scale with 95% intervals, playing more games where adjacent ratings are least
    /// certain (ladder.csv, ladder_games.csv, ladder.png; --resume continues).
    Ladder(LadderArgs),
    /// Breed a map of diverse, strong players with MAP-Elites and write archive.csv,
    /// progress.csv, heatmaps and a checkpoint (no CONFIG: the built-in quick start).
    Evolve(EvolveArgs),
    /// Write the next batch's game tasks of a MAP-Elites run (creating the run on the first
    /// call) and print the task file's path; exit code 3 when the schedule is finished.
    Ask(AskArgs),
    /// Play a shard of a task file written by `ask` and keep one result line per game beside
    /// it (TASKS = -: tasks on standard input, results on standard output).
    Work(WorkArgs),
    /// Take the results of the batch asked for into the run's archive and write what
    /// `evolve` writes (exit code 2 naming the tasks without a result).
    Tell(TellArgs),
    /// Redraw the pictures of a MAP-Elites run directory (heatmap.png/.svg, progress.png) or
    /// of a tournament's output folder (summary.png/.svg: the win rate of each pairing's side,
    /// the first agent and its copies, with its 95% interval and chance) from its CSV files.
    Plot(PlotArgs),
    /// Re-play a run's elites on other levels and compare their features and win rates with
    /// the archive's (validation.csv, validation_summary.csv).
    Validate(ValidateArgs),
    /// Re-play every elite of a run on fresh games of its training levels and rebuild the
    /// archive from the new win rates and features, exposing lucky elites
    /// (reevaluated.csv, reevaluated_summary.csv).
    Reevaluate(ReevaluateArgs),
    /// Pick a roster of personalities far apart in re-played play, each strong, and measure
    /// how well a classifier trained on training-level games names them from one and three
    /// held-out games (roster.toml, roster_confusion.csv, roster_sizes.csv, roster_games.csv,
    /// roster.png/.svg); a member plays as roster(file=RUN_DIR/roster.toml,name=NAME).
    Roster(RosterArgs),
    /// Measure how far each evolved weight of a run config steers the player: every weight
    /// (or group) at its low and high value with the others at the midpoint, played on the
    /// same games, and the change of every feature and of the win rate with 95% intervals;
    /// then per feature F the extremes min:F and max:F (each weight whose effect on F is clear
    /// at the end that pushes F down, up; the others at the midpoint), played on the same
    /// games (sensitivity_genomes.csv, sensitivity_effects.csv, sensitivity.png).
    Sensitivity(SensitivityArgs),
    /// Pick difficulty tiers, weakest to strongest (tiers.toml): from a ladder's ratings
    /// (adjacent tiers --gap Elo apart with disjoint intervals), or from a run's win rates.
    Tiers(TiersArgs),
    /// Write the run explorer, RUN_DIR/report.html: the map with a card per elite (weights,
    /// features, win rate, validation, spec, tier, one of its games as pictures).
    Report(ReportArgs),
    /// Record positions from self-play for learned evaluation: the games of a dataset
    /// config, each position of the side to move as counts, labelled with its result, beside
    /// the game's hand-written predictors (datasets/NAME.dataset).
    Dataset(DatasetArgs),
    /// Train a value network (sparse input -> hidden -> second -> 1) on one or more datasets,
    /// split by game; write it as safetensors with its training and accuracy-by-turn tables
    /// and chart.
    Train(TrainArgs),
    /// List the registered games with their facts (players, chance, hidden information,
    /// phases, statistics, play-style features).
    Games,
}

/// Flags of `playstyles dataset`.
#[derive(Debug, Args)]
pub struct DatasetArgs {
    /// The dataset config (TOML: game, rules, seed, games, levels, agents).
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,
    /// The dataset file [default: datasets/NAME.dataset, NAME being the config's file name
    /// without the extension].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Stop after K chunks, as if killed (for tests of --resume).
    #[arg(long, value_name = "K", hide = true)]
    pub stop_after_chunks: Option<u64>,
}

/// Flags of `playstyles train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The dataset files (from `playstyles dataset`), trained on together: e.g. a bot's
    /// self-play beside the games of the model that plays it.
    #[arg(value_name = "DATASET", required = true, num_args = 1..)]
    pub datasets: Vec<PathBuf>,
    /// The model file to write (safetensors); its tables go beside it.
    #[arg(long, value_name = "MODEL")]
    pub out: PathBuf,
    /// A dataset of other games to report the accuracy on as well (e.g. with the
    /// hand-written predictors, which the training dataset may lack).
    #[arg(long, value_name = "DATASET")]
    pub test: Option<PathBuf>,
    /// Width of the first hidden layer.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub hidden: usize,
    /// Width of the second hidden layer.
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub second: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-3, value_name = "R")]
    pub rate: f32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Share of the games held out to test on (the split is by game).
    #[arg(long, default_value_t = 0.1, value_name = "F")]
    pub test_fraction: f64,
    /// Only the final tables, no line per epoch.
    #[arg(long)]
    pub quiet: bool,
    /// Replace an existing model file.
    #[arg(long)]
    pub force: bool,
    /// Finish an interrupted run of this same command, or do nothing if its model is there
    /// (for a job that is always requeued with --resume).
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
}

/// Flags of `playstyles evolve`.
#[derive(Debug, Args)]
pub struct EvolveArgs {
    /// The run config (TOML; see experiments/) [default: the built-in
    /// experiments/quickstart.toml].
    #[arg(value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,
    /// The run directory [default: results/NAME/, NAME being the config's `name` or its file
    /// name without the extension].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Stop after K batches, as if killed (for tests of --resume).
    #[arg(long, value_name = "K", hide = true)]
    pub stop_after_batches: Option<u64>,
}

/// Flags of `playstyles ask`.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// The run directory.
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// The run config (TOML) that starts the run [default: the run's config.toml, or the
    /// built-in quick start for a new run]; for an existing run it must resolve to the run's
    /// config.toml.
    #[arg(long, value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,
}

/// Flags of `playstyles work`.
#[derive(Debug, Args)]
pub struct WorkArgs {
    /// The task file written by `ask` (results go to results/ beside it), or `-` for tasks on
    /// standard input and results on standard output.
    #[arg(value_name = "TASKS")]
    pub tasks: String,
    /// Play task lines k with k mod N = I (0-based I) [default: from SLURM_ARRAY_TASK_ID /
    /// SLURM_ARRAY_TASK_COUNT, else SLURM_PROCID / SLURM_NTASKS, else SGE_TASK_ID /
    /// SGE_TASK_LAST, else 0/1].
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Worker threads [default: SLURM_CPUS_PER_TASK, else one per core].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar (and, with TASKS = -, no summary on standard error).
    #[arg(long)]
    pub quiet: bool,
}

/// Flags of `playstyles tell`.
#[derive(Debug, Args)]
pub struct TellArgs {
    /// The run directory.
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
}

/// Flags of `playstyles plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A run directory (written by `playstyles evolve`, with archive.csv) or a tournament's
    /// output folder (written by `playstyles tournament`, with summary.csv).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Flags of `playstyles validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The run directory (written by `playstyles evolve`).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// The levels: `held-out` (the built-in levels the run did not train on), `paper` or
    /// `builtin` (all built-in levels), levels `L1,L2,...` (seeds, level files, or the game's
    /// level names such as Puerto Rico's `2p`), or `generated:N` (N generated levels, seeds
    /// derived from the run seed).
    #[arg(
        long,
        default_value = "held-out",
        value_name = "held-out|paper|LEVELS|generated:N"
    )]
    pub levels: String,
    /// Games per level and elite.
    #[arg(long, default_value_t = experiments::validate::DEFAULT_REPETITIONS, value_name = "N")]
    pub repetitions: u32,
    /// The elites: `corners` (the occupied cells nearest to the grid's corners), `all`, or cell
    /// indices `C1,C2,...`.
    #[arg(long, default_value = "corners", value_name = "corners|all|LIST")]
    pub cells: String,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub replay: ReplayArgs,
}

/// Flags of `playstyles reevaluate`.
#[derive(Debug, Args)]
pub struct ReevaluateArgs {
    /// The run directory (written by `playstyles evolve`).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// Games per elite, spread evenly over the run's training levels (rounded up to a
    /// multiple of their number).
    #[arg(long, default_value_t = experiments::reevaluate::DEFAULT_GAMES, value_name = "N")]
    pub games: u32,
    /// The seed the games derive from (with a stream apart from the run's evaluations)
    /// [default: the run's seed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub replay: ReplayArgs,
}

/// Flags of `playstyles roster`.
#[derive(Debug, Args)]
pub struct RosterArgs {
    /// The run directory (written by `playstyles evolve`; re-evaluated with `playstyles
    /// reevaluate` for the best picks).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// Members: N, or `auto` (`auto:N`): the largest roster of at most N (16) named from one
    /// held-out game at least --target of the time.
    #[arg(long, default_value = "8", value_name = "N|auto|auto:N")]
    pub count: String,
    /// The 1-game accuracy `--count auto` asks for.
    #[arg(long, default_value_t = experiments::roster::DEFAULT_TARGET, value_name = "A")]
    pub target: f64,
    /// The least lower end of a candidate's 95% win-rate interval [default: 1 / players].
    #[arg(long, value_name = "W")]
    pub floor: Option<f64>,
    /// Games per member on the run's training levels (rounded up to a multiple of them).
    #[arg(long, default_value_t = experiments::roster::DEFAULT_TRAIN_GAMES, value_name = "N")]
    pub train_games: u32,
    /// Games per member on the test levels (rounded up to a multiple of them).
    #[arg(long, default_value_t = experiments::roster::DEFAULT_TEST_GAMES, value_name = "N")]
    pub test_games: u32,
    /// The test levels, as `validate --levels`.
    #[arg(
        long,
        default_value = "held-out",
        value_name = "held-out|paper|LEVELS|generated:N"
    )]
    pub levels: String,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Stop after K members, as if killed (for tests of --resume).
    #[arg(long, value_name = "K", hide = true)]
    pub stop_after_members: Option<u64>,
}

/// Flags of `playstyles sensitivity`.
#[derive(Debug, Args)]
pub struct SensitivityArgs {
    /// The run config (TOML, as `evolve` reads it).
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,
    /// The output folder [default: results/NAME-sensitivity/, NAME being the config's `name`
    /// or its file name without the extension].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Games per level and genome [default: the config's `repetitions`].
    #[arg(long, value_name = "N")]
    pub repetitions: Option<u32>,
    /// The player spec, without weights [default: the config's `evaluation.player`].
    #[arg(long, value_name = "SPEC")]
    pub player: Option<String>,
    /// Scripts that move together, as one named unit (repeatable).
    #[arg(long, value_name = "NAME=SCRIPT+SCRIPT")]
    pub group: Vec<String>,
    /// The seed the games derive from [default: the config's seed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Also play the extreme genomes at these style strengths and draw the trade-off
    /// (sensitivity_strengths.csv, sensitivity_strengths.png): `auto` (the config's
    /// `[calibration]` strengths, else the player's ladder) or a list such as 0,1,2
    /// [default: auto where the player's style strength says `auto`, else none].
    #[arg(long, value_name = "LIST|auto")]
    pub strengths: Option<String>,
    /// Stop after K genomes, as if killed (for tests of --resume).
    #[arg(long, value_name = "K", hide = true)]
    pub stop_after_genomes: Option<u64>,
}

/// Flags shared by the commands that re-play a run's elites (`validate`, `reevaluate`).
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Stop after K elites, as if killed (for tests of --resume).
    #[arg(long, value_name = "K", hide = true)]
    pub stop_after_elites: Option<u64>,
}

/// The flags of every command that plays games into files it can stop and continue
/// (`tournament`, `ladder`, `evolve`, `validate`, `reevaluate`, `sensitivity`, `dataset`).
#[derive(Clone, Copy, Debug, Args)]
pub struct RunFlags {
    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Start over: replace what an earlier or interrupted run of the command wrote.
    #[arg(long)]
    pub force: bool,
    /// Continue an interrupted run from what it wrote, playing only what is missing (with the
    /// settings that started it).
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
}

/// Flags of `playstyles tiers`.
#[derive(Debug, Args)]
pub struct TiersArgs {
    /// A ladder's folder (written by `playstyles ladder`: tiers by rating) or a run directory
    /// (written by `playstyles evolve`: tiers by win rate against its baseline).
    #[arg(value_name = "LADDER_DIR|RUN_DIR")]
    pub run_dir: PathBuf,
    /// Number of tiers.
    #[arg(long, default_value_t = experiments::tiers::DEFAULT_TIER_COUNT, value_name = "N")]
    pub count: usize,
    /// Ladder only: the least rating gap between adjacent tiers, in Elo [default: 100, a 64%
    /// expected score].
    #[arg(long, value_name = "ELO")]
    pub gap: Option<f64>,
    /// Ladder only: tiers of one personality, the ladder's agents of this cell (an elite at
    /// several settings of a strength dial).
    #[arg(long, value_name = "C")]
    pub cell: Option<usize>,
    /// Ladder only: adjacent tiers closest in style (near, the default), farthest (far), or
    /// the tiers whose least certain step is surest (surest: to hold on other levels).
    #[arg(long, value_enum, value_name = "near|far|surest")]
    pub prefer: Option<PreferArg>,
}

/// `--prefer` of `playstyles tiers`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PreferArg {
    /// Adjacent tiers closest in style.
    Near,
    /// Adjacent tiers farthest in style.
    Far,
    /// The tiers whose smallest step's interval reaches highest.
    Surest,
}

/// Flags of `playstyles report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The run directory (written by `playstyles evolve`).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// Leave out the elites' games.
    #[arg(long)]
    pub no_replays: bool,
    /// Worker threads for the elites' games [default: one per core].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// A ladder's folder (written by `playstyles ladder`) that rated elites of this run: their
    /// cards show their ratings, and the page the ladder's chart.
    #[arg(long, value_name = "LADDER_DIR")]
    pub ladder: Option<PathBuf>,
}

/// Flags of `playstyles tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The tournament config (TOML; see experiments/table1.toml).
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,
    /// Output folder, threads, progress bar, --resume, --force.
    #[command(flatten)]
    pub games: GamesFlags,
}

/// Flags of `playstyles ladder`.
#[derive(Debug, Args)]
pub struct LadderArgs {
    /// The ladder config (TOML; see experiments/ladder-*.toml).
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,
    /// Output folder, threads, progress bar, --resume, --force.
    #[command(flatten)]
    pub games: GamesFlags,
}

/// The flags of the commands that play a config's games into an output folder (`tournament`,
/// `ladder`).
#[derive(Debug, Args)]
pub struct GamesFlags {
    /// The output folder [default: results/STEM/, STEM being the config file name without
    /// its extension].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Threads, progress bar, --force, --resume.
    #[command(flatten)]
    pub run: RunFlags,
    /// Stop after N games, as if killed (for tests of --resume).
    #[arg(long, value_name = "N", hide = true)]
    pub stop_after_games: Option<u64>,
}

/// Flags of `playstyles levels`.
#[derive(Debug, Args)]
pub struct LevelsArgs {
    /// The game.
    #[arg(long, default_value_t = GameKind::default(), value_parser = parse_game)]
    pub game: GameKind,
    /// What to do (default: list).
    #[command(subcommand)]
    pub action: Option<LevelsActionArg>,
}

/// What `playstyles levels` does.
#[derive(Debug, Subcommand)]
pub enum LevelsActionArg {
    /// List the built-in levels.
    List,
    /// Print a level.
    Show {
        /// The level: as `play --level` takes it (Tribes: a seed or a level file).
        level: String,
    },
}

/// The match `play` and `replay` play.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, default_value_t = GameKind::default(), value_parser = parse_game)]
    pub game: GameKind,
    /// The level: a level seed or a level file.
    #[arg(long, value_name = "SEED|FILE")]
    pub level: String,
    /// One agent spec per seat, comma-separated, e.g. `random,mcts(budget=2000)`.
    #[arg(long, value_name = "SPEC,SPEC")]
    pub agents: String,
    /// The match seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Flags of `playstyles play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game, level, agents and seed.
    #[command(flatten)]
    pub game_match: MatchArgs,
    /// Print the state after every turn and at the end.
    #[arg(long, conflicts_with = "json")]
    pub render: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `playstyles replay`.
#[derive(Debug, Args)]
pub struct ReplayGameArgs {
    /// Game, level, agents and seed.
    #[command(flatten)]
    pub game_match: MatchArgs,
    /// The page to write.
    #[arg(long, value_name = "FILE.html")]
    pub out: PathBuf,
    /// Replace an existing page that `replay` wrote (never another file).
    #[arg(long)]
    pub force: bool,
}

/// Flags of `playstyles bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value_t = BenchTargetArg::Fm)]
    pub target: BenchTargetArg,
    /// The game.
    #[arg(long, default_value_t = GameKind::default(), value_parser = parse_game)]
    pub game: GameKind,
    /// The levels to measure on, comma-separated or repeated (default: the game's benchmark
    /// levels; Tribes and Prismata: the built-in ones; Puerto Rico: 3p,5p for `fm`, 4p for
    /// `agents`).
    #[arg(long, value_name = "LEVEL", value_delimiter = ',')]
    pub level: Vec<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// `bench agents`: time these decisions instead of the game's set, as NAME=SPEC
    /// (repeatable; a NAME ending in `_us` is measured in microseconds), and no whole games.
    #[arg(long, value_name = "NAME=SPEC")]
    pub agent: Vec<String>,
    /// `bench learned`: the model file (from `playstyles train`).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
}

/// What `playstyles bench` measures.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BenchTargetArg {
    /// The forward model: random games, clone, apply.
    Fm,
    /// The search agents: decisions at budget 2000 and whole games.
    Agents,
    /// A learned evaluation (--model): encode and forward per position.
    Learned,
}

/// Parses a `--game` value with the library's registry.
fn parse_game(s: &str) -> std::result::Result<GameKind, String> {
    s.parse::<GameKind>().map_err(|e| match e {
        Error::Config { reason, .. } => reason,
        e => e.to_string(),
    })
}

impl Cli {
    /// Validates the flags into the command to run.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the flag at fault (e.g. `agents` for a malformed spec).
    pub fn settings(self) -> Result<Command> {
        Ok(match self.command {
            CliCommand::Levels(a) => Command::Levels(LevelsConfig {
                game: a.game,
                action: match a.action {
                    None | Some(LevelsActionArg::List) => LevelsAction::List,
                    Some(LevelsActionArg::Show { level }) => LevelsAction::Show(level),
                },
            }),
            CliCommand::Play(a) => {
                let m = a.game_match;
                let mut cfg = PlayConfig::new(m.game, &m.level, &m.agents)?;
                cfg.seed = m.seed;
                cfg.render = a.render;
                cfg.json = a.json;
                Command::Play(cfg)
            }
            CliCommand::Replay(a) => {
                let m = a.game_match;
                let mut cfg = ReplayConfig::new(m.game, &m.level, &m.agents, m.seed, a.out)?;
                cfg.force = a.force;
                Command::Replay(cfg)
            }
            CliCommand::Bench(a) => {
                let target = match a.target {
                    BenchTargetArg::Fm => BenchTarget::Fm,
                    BenchTargetArg::Agents => BenchTarget::Agents,
                    BenchTargetArg::Learned => BenchTarget::Learned,
                };
                let mut cfg = BenchConfig::new(a.game, target);
                cfg.levels = a.level;
                cfg.json = a.json;
                cfg.model = a.model;
                cfg.agents = a
                    .agent
                    .iter()
                    .map(|d| match d.split_once('=') {
                        Some((name, spec)) if !name.trim().is_empty() => {
                            crate::agent::AgentSpec::parse(spec)
                                .map_err(|e| Error::config("--agent", e.to_string()))?;
                            Ok((name.trim().to_string(), spec.to_string()))
                        }
                        _ => Err(Error::config(
                            "--agent",
                            format!("`{d}`: give NAME=SPEC, e.g. ab_ms=AB100"),
                        )),
                    })
                    .collect::<Result<_>>()?;
                Command::Bench(cfg)
            }
            CliCommand::Tournament(a) => {
                let g = a.games;
                let r = g.run;
                let mut cfg = TournamentConfig::load(&a.config, g.out)?.with_threads(r.threads)?;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_games = g.stop_after_games;
                Command::Tournament(cfg)
            }
            CliCommand::Ladder(a) => {
                let g = a.games;
                let r = g.run;
                let mut cfg = LadderConfig::load(&a.config, g.out)?.with_threads(r.threads)?;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_games = g.stop_after_games.map(|n| n as usize);
                Command::Ladder(Box::new(cfg))
            }
            CliCommand::Evolve(a) => {
                let r = a.run;
                let mut cfg =
                    EvolveConfig::load(a.config.as_deref(), a.out)?.with_threads(r.threads)?;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_batches = a.stop_after_batches;
                Command::Evolve(Box::new(cfg))
            }
            CliCommand::Ask(a) => {
                Command::Ask(Box::new(AskConfig::load(a.run_dir, a.config.as_deref())?))
            }
            CliCommand::Work(a) => {
                let mut cfg = WorkConfig::load(&a.tasks, a.shard.as_deref(), a.threads)?;
                cfg.quiet = a.quiet;
                Command::Work(Box::new(cfg))
            }
            CliCommand::Tell(a) => Command::Tell(Box::new(TellConfig::load(a.run_dir)?)),
            CliCommand::Plot(a) => Command::Plot(PlotConfig::new(a.dir)?),
            CliCommand::Validate(a) => {
                // Flag syntax first, so a bad flag is reported even for a bad run directory.
                let levels: LevelChoice = a.levels.parse()?;
                let cells: CellChoice = a.cells.parse()?;
                let (r, stop) = (a.replay.run, a.replay.stop_after_elites);
                let mut cfg = ValidateConfig::new(a.run_dir)?
                    .with_repetitions(a.repetitions)?
                    .with_threads(r.threads)?;
                cfg.levels = levels;
                cfg.cells = cells;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_elites = stop;
                Command::Validate(cfg)
            }
            CliCommand::Reevaluate(a) => {
                let (r, stop) = (a.replay.run, a.replay.stop_after_elites);
                let mut cfg = ReevaluateConfig::new(a.run_dir, a.games, r.threads)?;
                cfg.seed = a.seed;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_elites = stop;
                Command::Reevaluate(cfg)
            }
            CliCommand::Roster(a) => {
                use experiments::roster::{Count, check_floor, check_games, check_target};
                // Flags first, so a bad one is named even for a bad run directory.
                let count: Count = a.count.parse()?;
                let target = check_target(a.target)?;
                let floor = a.floor.map(check_floor).transpose()?;
                let train_games = check_games(a.train_games, 1, "--train-games")?;
                let test_games = check_games(a.test_games, 3, "--test-games")?;
                let levels: LevelChoice = a.levels.parse()?;
                let r = a.run;
                let mut cfg = RosterConfig::new(a.run_dir, count, r.threads)?;
                (cfg.target, cfg.floor, cfg.levels) = (target, floor, levels);
                (cfg.train_games, cfg.test_games) = (train_games, test_games);
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_members = a.stop_after_members;
                Command::Roster(Box::new(cfg))
            }
            CliCommand::Sensitivity(a) => {
                use experiments::sensitivity::{
                    check_repetitions, parse_groups, parse_player, parse_strengths,
                };
                // Flags first, so a bad one is named even for a bad config.
                let repetitions = check_repetitions(a.repetitions)?;
                let strengths = parse_strengths(a.strengths.as_deref())?;
                let player = parse_player(a.player.as_deref())?;
                let groups = parse_groups(&a.group)?;
                let r = a.run;
                let threads = crate::limits::threads(r.threads, "--threads")?;
                let mut cfg = SensitivityConfig::load(&a.config, a.out)?;
                (cfg.repetitions, cfg.player, cfg.groups) = (repetitions, player, groups);
                (cfg.threads, cfg.seed) = (threads, a.seed);
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_genomes = a.stop_after_genomes;
                cfg.strengths = strengths;
                Command::Sensitivity(Box::new(cfg))
            }
            CliCommand::Tiers(a) => {
                let rated = experiments::tiers::RatedFlags {
                    gap: a.gap,
                    cell: a.cell,
                    prefer: a.prefer.map(|p| match p {
                        PreferArg::Near => experiments::rated_tiers::Prefer::Near,
                        PreferArg::Far => experiments::rated_tiers::Prefer::Far,
                        PreferArg::Surest => experiments::rated_tiers::Prefer::Surest,
                    }),
                };
                Command::Tiers(TiersConfig::new(a.run_dir, a.count, rated)?)
            }
            CliCommand::Report(a) => {
                let mut cfg = ReportConfig::new(a.run_dir, a.threads)?;
                cfg.replays = !a.no_replays;
                cfg.ladder = a.ladder;
                Command::Report(cfg)
            }
            CliCommand::Dataset(a) => {
                let r = a.run;
                let threads = crate::limits::threads(r.threads, "--threads")?;
                let mut cfg = DatasetConfig::load(&a.config, a.out)?;
                cfg.threads = threads;
                (cfg.quiet, cfg.force, cfg.resume) = (r.quiet, r.force, r.resume);
                cfg.stop_after_chunks = a.stop_after_chunks;
                Command::Dataset(Box::new(cfg))
            }
            CliCommand::Train(a) => Command::Train(Box::new(TrainConfig {
                resume: a.resume,
                ..TrainConfig::new(
                    a.datasets,
                    a.out,
                    a.test,
                    crate::learn::train::TrainSettings {
                        hidden: a.hidden,
                        second: a.second,
                        epochs: a.epochs,
                        batch: a.batch,
                        rate: a.rate,
                        seed: a.seed,
                        test_fraction: a.test_fraction,
                    },
                    a.quiet,
                    a.force,
                )?
            })),
            CliCommand::Games => Command::Games,
        })
    }
}

/// The `playstyles` binary: the built-in games' command line ([`main_with`] of
/// [`Registry::builtin`]).
pub fn main() -> ExitCode {
    main_with(Registry::builtin())
}

/// A library user's binary for game `G`: every subcommand, with `G` the only game (so the
/// default of `--game` and of a config's `game`) and the binary's file name as the program
/// name in help, messages and replay commands.
///
/// ```no_run
/// # fn demo<MyGame: playstyles::GameKit>() -> std::process::ExitCode {
/// playstyles::cli::main_for::<MyGame>()
/// # }
/// ```
pub fn main_for<G: GameKit>() -> ExitCode {
    let program = std::env::args_os()
        .next()
        .and_then(|a| {
            Path::new(&a)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| G::with_rules(G::Rules::default()).info().name.to_string());
    // One name for the life of the process, as the registry keeps it.
    let program: &'static str = Box::leak(program.into_boxed_str());
    main_with(Registry::new(program).with::<G>())
}

/// Installs `registry` ([`install`]), reads the process arguments and runs the command: on
/// error prints `error: …` to standard error and exits with code 2; a finished `ask` exits
/// with [`crate::experiments::tasks::EXIT_FINISHED`] (3); a closed standard output is not an
/// error ([`run`]). Bad flags and `--help` are clap's (code 2 for errors).
pub fn main_with(registry: Registry) -> ExitCode {
    // A message may quote user text: its control characters are shown, not sent.
    let fail = |e: Error| {
        eprintln!("error: {}", printable_text(&e.to_string()));
        ExitCode::from(2)
    };
    if let Err(e) = install(registry) {
        return fail(e);
    }
    match run(parse()) {
        Ok(Exit::Success) => ExitCode::SUCCESS,
        Ok(Exit::Finished) => ExitCode::from(experiments::tasks::EXIT_FINISHED),
        Err(e) => fail(e),
    }
}

/// Parses the process arguments, the program named as the process's registry names it; on a
/// bad flag or `--help`, clap prints and exits (code 2 for errors).
pub fn parse() -> Cli {
    let program = registry().program();
    let matches = Cli::command().name(program).bin_name(program).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Validates the flags and runs the command with the process's registry, writing to standard
/// output. A closed pipe (as in `playstyles levels list | head -1`) is not an error.
///
/// # Errors
///
/// Invalid settings and whatever the command reports.
pub fn run(cli: Cli) -> Result<Exit> {
    let cmd = cli.settings()?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = experiments::run(cmd, &mut out).and_then(|exit| {
        out.flush()
            .map(|()| exit)
            .map_err(|e| Error::io("<output>", e))
    });
    match result {
        Err(Error::Io { source, .. }) if source.kind() == ErrorKind::BrokenPipe => {
            Ok(Exit::Success)
        }
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> std::result::Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("playstyles").chain(args.iter().copied()))
    }

    fn settings(args: &[&str]) -> Result<Command> {
        parse(args).expect("flags parse").settings()
    }

    fn clap_error(args: &[&str]) -> String {
        parse(args).expect_err("flags are rejected").to_string()
    }

    #[test]
    fn command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn play_flags_become_a_play_config() {
        let cmd = settings(&[
            "play",
            "--level",
            "42",
            "--agents",
            "random, end_turn",
            "--seed",
            "7",
            "--json",
        ])
        .unwrap();
        let Command::Play(cfg) = cmd else {
            panic!("not a play command: {cmd:?}")
        };
        assert_eq!(cfg.game, "tribes".parse::<GameKind>().unwrap());
        assert_eq!(cfg.level, "42");
        assert_eq!(cfg.agents.len(), 2);
        assert_eq!(cfg.agents[1].name(), "end_turn");
        assert_eq!((cfg.seed, cfg.render, cfg.json), (7, false, true));
    }

    #[test]
    fn levels_defaults_to_list_and_show_takes_a_seed() {
        let list = settings(&["levels"]).unwrap();
        assert_eq!(
            list,
            Command::Levels(LevelsConfig {
                game: "tribes".parse::<GameKind>().unwrap(),
                action: LevelsAction::List
            })
        );
        let show = settings(&["levels", "--game", "tribes", "show", "5"]).unwrap();
        assert!(matches!(
            show,
            Command::Levels(LevelsConfig {
                action: LevelsAction::Show(ref l),
                ..
            }) if l == "5"
        ));
    }

    #[test]
    fn bench_defaults_to_the_forward_model() {
        let cmd = settings(&["bench", "--json"]).unwrap();
        let Command::Bench(cfg) = cmd else {
            panic!("not a bench command: {cmd:?}")
        };
        assert_eq!((cfg.target, cfg.json), (BenchTarget::Fm, true));
        assert!(cfg.levels.is_empty(), "{cfg:?}");
        assert!(settings(&["bench", "fm", "--game", "tribes"]).is_ok());
    }

    #[test]
    fn bench_takes_levels_comma_separated_or_repeated() {
        let cmd = settings(&[
            "bench",
            "agents",
            "--game",
            "puerto-rico",
            "--level",
            "3p,4p",
            "--level",
            "5p",
        ])
        .unwrap();
        let Command::Bench(cfg) = cmd else {
            panic!("not a bench command: {cmd:?}")
        };
        assert_eq!(cfg.target, BenchTarget::Agents);
        assert_eq!(cfg.levels, ["3p", "4p", "5p"]);
    }

    #[test]
    fn evolve_without_a_config_runs_the_quickstart() {
        let cmd = settings(&["evolve", "--threads", "2", "--quiet"]).unwrap();
        let Command::Evolve(cfg) = cmd else {
            panic!("not an evolve command: {cmd:?}")
        };
        assert_eq!(cfg.run.name, "quickstart");
        assert_eq!(cfg.out, std::path::Path::new("results/quickstart"));
        assert_eq!((cfg.threads, cfg.quiet, cfg.resume), (Some(2), true, false));
    }

    #[test]
    fn evolve_resume_and_force_exclude_each_other() {
        let e = clap_error(&["evolve", "--resume", "--force"]);
        assert!(e.contains("--resume") && e.contains("--force"), "{e}");
    }

    #[test]
    fn tournament_resume_and_force_exclude_each_other() {
        let e = clap_error(&["tournament", "t.toml", "--resume", "--force"]);
        assert!(e.contains("--resume") && e.contains("--force"), "{e}");
    }

    #[test]
    fn a_non_numeric_seed_names_the_seed_flag() {
        let e = clap_error(&["play", "--level", "1", "--agents", "random", "--seed", "x"]);
        assert!(e.contains("--seed"), "{e}");
    }

    #[test]
    fn an_unknown_game_names_the_game_flag_and_the_known_games() {
        let e = clap_error(&[
            "play", "--game", "chess", "--level", "1", "--agents", "random",
        ]);
        assert!(e.contains("--game") && e.contains("tribes"), "{e}");
    }

    #[test]
    fn a_missing_level_names_the_level_flag() {
        let e = clap_error(&["play", "--agents", "random"]);
        assert!(e.contains("--level"), "{e}");
    }

    #[test]
    fn render_and_json_together_are_rejected() {
        let e = clap_error(&[
            "play", "--level", "1", "--agents", "random", "--render", "--json",
        ]);
        assert!(e.contains("--render") && e.contains("--json"), "{e}");
    }

    #[test]
    fn levels_show_takes_any_level_name_for_the_game_to_load() {
        let show = settings(&["levels", "show", "maps/a.csv"]).unwrap();
        assert_eq!(
            show,
            Command::Levels(LevelsConfig {
                game: GameKind::default(),
                action: LevelsAction::Show("maps/a.csv".into())
            })
        );
    }

    #[test]
    fn an_unknown_bench_target_is_rejected() {
        let e = clap_error(&["bench", "everything"]);
        assert!(e.contains("everything"), "{e}");
    }

    #[test]
    fn a_malformed_agent_list_names_the_agents_flag() {
        let e = settings(&["play", "--level", "1", "--agents", "random,mcts("]).unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "agents"),
            "{e}"
        );
    }

    #[test]
    fn bad_validate_reevaluate_and_tiers_flags_are_named_before_the_run_directory_is_read() {
        for (args, flag) in [
            (
                &["validate", "/no/such/run", "--levels", "5,,6"][..],
                "--levels",
            ),
            (
                &["validate", "/no/such/run", "--cells", "1,1"][..],
                "--cells",
            ),
            (&["tiers", "/no/such/run", "--count", "1"][..], "--count"),
            (
                &["reevaluate", "/no/such/run", "--games", "0"][..],
                "--games",
            ),
            (
                &["reevaluate", "/no/such/run", "--threads", "0"][..],
                "--threads",
            ),
        ] {
            let e = settings(args).unwrap_err();
            assert!(
                matches!(&e, Error::Config { field, .. } if field == flag),
                "{args:?}: {e}"
            );
        }
        let e = settings(&["plot", "/no/such/run"]).unwrap_err();
        assert!(e.to_string().contains("/no/such/run"), "{e}");
    }

    #[test]
    fn an_empty_level_names_the_level_flag() {
        let e = settings(&["play", "--level", " ", "--agents", "random"]).unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "level"),
            "{e}"
        );
    }
}

//! `playstyles evolve`: a MAP-Elites run (tribes-rules §16) over the script weights of a
//! player, evaluated against a baseline, from a [`RunConfig`] to a run directory.
//!
//! With no config file the default game's built-in quick start runs
//! ([`crate::kit::GameKit::quickstart`]; for `playstyles`, Tribes' `experiments/quickstart.toml`). The run directory (default `results/<config name>/`) receives, each file written
//! atomically (temp file, fsync, rename):
//!
//! - `config.toml`: the resolved config (every default explicit, levels listed, evolved scripts
//!   named), written first, before any game, right after `agent-files/`, the copies of the
//!   files its agents read (bot files; none for most runs), which it names
//!   ([`super::agent_files`]);
//! - for a player whose style strength says `auto`, the calibration's files before any batch
//!   ([`super::calibration`]: `calibration.csv`, `calibration_strengths.csv`, `calibration.png`
//!   and `.svg`, its journal while it runs), then `config.toml` again, naming the strength
//!   chosen: the run breeds with it, and its tasks carry that `config.toml`'s fingerprint;
//! - after every batch, in this order: `progress.csv` (one row per batch), `archive.csv` (one
//!   row per elite), `heatmap.png` and `heatmap.svg`, then `checkpoint.json` (the run state
//!   [`MapElites::resume_file`] continues from). The checkpoint comes last, so every other file
//!   holds at least the batches it holds, and a resumed run drops the `progress.csv` rows of a
//!   batch the checkpoint lacks.
//!
//! A run directory is never overwritten without `--force` (which first removes the old run's
//! files, its calibration's too); `--resume` continues the run from `checkpoint.json` if `config.toml` in the
//! directory is the resolved config of this run (and starts it if the run was stopped before
//! its first checkpoint, with `config.toml` alone, or never started: a requeued job may always
//! pass `--resume`); a finished run resumed is "nothing to do" and writes nothing (but the
//! explorer page, if a kill after the last checkpoint left it unwritten).
//!
//! Determinism: genome `i` (its global evaluation index) plays its games as
//! `evaluate_player` seeded by `derive_seed(run seed, &[i])` would: game `j` on level
//! `j / repetitions` with the seed `derive_seed(derive_seed(run seed, &[i]), &[j])`, seats
//! rotated (levels of different player counts: one such series per run of levels of one
//! count, see [`TaskPlan::tasks`]). A batch's games are game tasks ([`TaskPlan::tasks`]), played in parallel on a local
//! rayon pool of `--threads` threads, and their results are gathered per genome in game order
//! and told to the archive in index order. `archive.csv` is therefore byte-identical for any
//! thread count, and for a run taken batch by batch through `ask`, `work` and `tell`
//! ([`super::tasks`]); a run stopped after any batch then resumed ends with the same
//! `archive.csv` (and the same `progress.csv` but for its `seconds` column) as an
//! uninterrupted run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::agent_files::{AgentFile, copy_agent_files};
use super::calibration::stage::calibrate;
use super::calibration::{CALIBRATION_FILES, Calibration, at_strength, tidy};
use super::evaluate::{count_runs, line_up, player_counts};
use super::output_error;
use super::run_config::{RunConfig, older_form_of};
use super::run_dir::{
    CHECKPOINT_JSON, CONFIG_TOML, edited_config, prepare_out_dir, resuming, written_beside,
};
use super::tasks::ask::remove_told_batches;
use super::tasks::{Task, TaskPlan, TaskResult, config_hash, gather, play_task};
use crate::agent::{AgentSpec, SearchSupport};
use crate::agents::build_agent_at;
use crate::arena::series::Series;
use crate::error::{Error, Result};
use crate::features::Feature;
use crate::files::{TEXT_LIMIT, present, read_text, write_atomic};
use crate::game::Game;
use crate::limits;
use crate::qd::checkpoint::Checkpoint;
use crate::qd::{Batch, BatchReport, Evaluation, MapElites, MapElitesConfig};
use crate::report::archive::{
    ARCHIVE_CSV, ArchiveTable, PROGRESS_CSV, check_progress_against, read_progress_csv,
    write_archive_csv, write_progress_csv,
};
use crate::report::heatmap::{HEATMAP_PNG, HEATMAP_SVG, write_heatmaps};
use crate::report::progress::Progress;

/// The name a built-in quick start's config is known by (its file stem, naming the run when
/// the config has no `name`).
pub const QUICKSTART_NAME: &str = "quickstart";

/// Every file a run writes into its run directory, in the order they are first written (the
/// explorer page last, once the run is finished).
pub const RUN_FILES: [&str; 7] = [
    CONFIG_TOML,
    PROGRESS_CSV,
    ARCHIVE_CSV,
    HEATMAP_PNG,
    HEATMAP_SVG,
    CHECKPOINT_JSON,
    super::report::REPORT_HTML,
];

/// Validated settings of `playstyles evolve`.
#[derive(Clone, Debug, PartialEq)]
pub struct EvolveConfig {
    /// The run.
    pub run: RunConfig,
    /// Where the config came from (a path, or `built-in quickstart.toml of GAME`), for
    /// messages.
    pub source: String,
    /// The run directory.
    pub out: PathBuf,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Continue the run in `out` from its checkpoint.
    pub resume: bool,
    /// Overwrite an existing run in `out`.
    pub force: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Stop after this many batches (a hidden test hook simulating a killed run).
    pub stop_after_batches: Option<u64>,
}

impl EvolveConfig {
    /// Reads the config file at `path` (if `None`, the quick start of the registry's default
    /// game, [`crate::kit::GameKit::quickstart`]) and validates it, with the run directory
    /// `out` or by default `results/<config name>/`, the progress bar shown, nothing
    /// overwritten or resumed.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read or is larger than [`TEXT_LIMIT`], [`Error::Data`]
    /// if it is not UTF-8;
    /// [`Error::Config`] naming `CONFIG` if `path` is `None` and the default game has no quick
    /// start;
    /// [`Error::Config`] naming the field at fault
    /// (see [`RunConfig::parse`]), with the file named in the reason.
    pub fn load(path: Option<&Path>, out: Option<PathBuf>) -> Result<Self> {
        let (text, stem, source) = match path {
            Some(p) => {
                let text = read_text(p, TEXT_LIMIT)?;
                let stem = p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (text, stem, p.display().to_string())
            }
            None => {
                let game = super::GameKind::default();
                let text = game.quickstart().ok_or_else(|| {
                    Error::config(
                        "CONFIG",
                        format!(
                            "give a run config: `{}` has no built-in quick start",
                            game.name()
                        ),
                    )
                })?;
                (
                    text.to_string(),
                    QUICKSTART_NAME.to_string(),
                    format!("built-in {QUICKSTART_NAME}.toml of {}", game.name()),
                )
            }
        };
        let run = RunConfig::parse(&text, &stem).map_err(|e| in_source(e, &source))?;
        let out = out.unwrap_or_else(|| Path::new("results").join(&run.name));
        Ok(EvolveConfig {
            run,
            source,
            out,
            threads: None,
            resume: false,
            force: false,
            quiet: false,
            stop_after_batches: None,
        })
    }

    /// `e` with the config's source named in its reason, if it is a config error (for errors
    /// found after loading, such as an unknown script).
    pub fn located(&self, e: Error) -> Error {
        in_source(e, &self.source)
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `threads` if it is 0 or above [`limits::max_threads`].
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        self.threads = limits::threads(threads, "threads")?;
        Ok(self)
    }
}

/// Adds "(in SOURCE)" to a config error's reason.
fn in_source(e: Error, source: &str) -> Error {
    match e {
        Error::Config { field, reason } => Error::Config {
            field,
            reason: format!("{reason} (in {source})"),
        },
        e => e,
    }
}

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct EvolveSummary {
    /// The last batch's progress row (`None` if the schedule has no batch).
    pub last: Option<BatchReport>,
    /// Evaluations the whole schedule asks for.
    pub total_evaluations: u64,
    /// Cells of the map.
    pub cells: usize,
    /// Batches evaluated by this invocation.
    pub batches_run: u64,
    /// Games played by this invocation.
    pub games_run: u64,
    /// Wall-clock seconds of this invocation.
    pub seconds: f64,
    /// True when the schedule is done (false after `--stop-after-batches`).
    pub done: bool,
}

/// A run config resolved for its game: what `evolve`, `ask` and `tell` work from.
#[derive(Clone, Debug)]
pub struct RunSetup<L> {
    /// The training levels, named for the reports, in play order.
    pub levels: Vec<(String, L)>,
    /// The run's features resolved for the game, in axis order.
    pub features: Vec<Feature>,
    /// The evolved scripts in genome order (already checked against the game's portfolio).
    pub scripts: Vec<String>,
    /// The rules, every default explicit (the resolved config's `[rules]`).
    pub rules: toml::Table,
    /// The evolved player's spec (without weights) and the baseline's, as `config.toml`
    /// names them: the files they read are the run's copies, relative to the run directory
    /// ([`super::agent_files`]).
    pub player: AgentSpec,
    /// The baseline's spec, as `config.toml` names it.
    pub baseline: AgentSpec,
    /// The files the agents read, copied into the run directory when it starts.
    pub files: Vec<AgentFile>,
    /// The resolved config, written as `config.toml` (see [`kept_config`]).
    pub config_toml: String,
    /// The calibration of the player's style strength while it is to be done (the player's
    /// style field then says `auto`, [`super::calibration`]); `None` for a run without one,
    /// or calibrated.
    pub calibration: Option<Calibration>,
}

impl<L> RunSetup<L> {
    /// The tasks' shared part for `run` of `game`: levels, specs, seed and config hash.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `evaluation.levels` if there is no level.
    pub fn plan<G: Game<Level = L>>(&self, game: &G, run: &RunConfig) -> Result<TaskPlan> {
        if self.levels.is_empty() {
            return Err(Error::config("evaluation.levels", "no level to play"));
        }
        Ok(TaskPlan {
            game_name: game.info().name.to_string(),
            rules: self.rules.clone(),
            levels: self.levels.iter().map(|(n, _)| n.clone()).collect(),
            repetitions: run.max_repetitions(),
            players: player_counts(game, &self.levels),
            seed: run.seed,
            player: self.player.clone(),
            baseline: self.baseline.clone(),
            scripts: self.scripts.clone(),
            features: run.features.iter().map(|a| a.name.clone()).collect(),
            config_hash: config_hash(&self.config_toml),
        })
    }
}

/// Runs (or resumes) the MAP-Elites run `cfg` describes and writes its run directory.
///
/// `setup` is the run resolved for `game`. Everything is checked (agent specs, player counts,
/// the run directory, the checkpoint when resuming) before the first game. Each batch goes
/// the way `ask`, `work` and `tell` take it, in one process: its genomes become game tasks
/// ([`TaskPlan::tasks`]), the tasks are played in parallel ([`play_task`]) and their results
/// gathered into the genomes' evaluations ([`gather`]), told to the archive, and the run's
/// files written ([`record_batch`]). The summary and the paths written are printed to `out`.
///
/// # Errors
///
/// [`Error::Config`] naming `evaluation.player`, `evaluation.baseline` or `evaluation.levels`
/// for an agent that cannot be built or a level it cannot be played on, `out` if the run
/// directory holds a run and neither `force` nor `resume` is set, `threads` if the pool cannot
/// be built; an error naming `checkpoint.json` or `config.toml` when resuming without a
/// run (neither file) or with another configuration; [`Error::Io`] if a file cannot be written.
pub fn evolve<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    cfg: &EvolveConfig,
    out: &mut impl Write,
) -> Result<EvolveSummary> {
    let started = Instant::now();
    let run = &cfg.run;
    let me_config = run.map_elites(&setup.scripts).map_err(|e| cfg.located(e))?;
    let dir = &cfg.out;
    // A run continued plays with its own copies of its agents' files; a run started, with
    // the files the config names (copied once nothing else can fail).
    let checkpoint_path = dir.join(CHECKPOINT_JSON);
    // A run killed before its first checkpoint has only its config.toml: it starts, as one
    // that never started does.
    let resuming = resuming(
        (cfg.resume, cfg.force),
        dir,
        &[checkpoint_path.clone(), dir.join(CONFIG_TOML)],
        "run",
        out,
    )?;
    let continued = resuming.then_some(dir.as_path());
    preflight(game, setup, run, continued).map_err(|e| cfg.located(e))?;
    // A run whose config.toml records its calibration done breeds with the strength chosen
    // (with --force, the run starts afresh, its calibration too).
    let recorded = match cfg.force {
        false => super::calibration::recorded(dir, setup)?,
        true => None,
    };
    let mut setup = recorded.unwrap_or_else(|| setup.clone());
    let mut calibration_games = 0;

    let (mut me, mut reports) = if resuming {
        if setup.calibration.is_some() {
            check_config(dir, &setup.config_toml)?;
            let done = calibrate(game, &setup, run, dir, cfg.threads, cfg.quiet, out)?;
            (setup, calibration_games) = (done.setup, done.games);
        } else if run.calibration.is_some() {
            // What a kill between the calibration's config.toml and its clean-up left.
            tidy(dir)?;
        }
        let (me, reports) = open_run(dir, &setup.config_toml, me_config)?;
        if me.is_done() {
            // Finished (its checkpoint, written last, says so): nothing to do, nothing
            // written.
            let summary = finished_summary(&me, &reports, started);
            write!(out, "{}", finished_text(&run.name, dir, &summary)).map_err(output_error)?;
            return Ok(summary);
        }
        (me, reports)
    } else {
        if !cfg.force
            && let Some((me, reports)) = same_run(dir, &setup.config_toml, &me_config)
        {
            if !me.is_done() {
                return Err(Error::config(
                    "out",
                    format!(
                        "{} holds this run (the same config.toml), stopped after {} of {} \
                         evaluations: pass --resume to continue it or --force to start over",
                        dir.display(),
                        me.evaluations(),
                        me.total_evaluations()
                    ),
                ));
            }
            let summary = finished_summary(&me, &reports, started);
            write!(out, "{}", finished_text(&run.name, dir, &summary)).map_err(output_error)?;
            return Ok(summary);
        }
        prepare_run_dir(dir, cfg.force)?;
        copy_agent_files(game, dir, &setup.files)?;
        write_atomic(&dir.join(CONFIG_TOML), setup.config_toml.as_bytes())?;
        if setup.calibration.is_some() {
            if cfg.stop_after_batches == Some(0) {
                // Stopped before any game: the run holds its config.toml alone.
                let me = MapElites::new(me_config)?;
                let summary = EvolveSummary {
                    last: None,
                    total_evaluations: me.total_evaluations(),
                    cells: me.archive().num_cells(),
                    batches_run: 0,
                    games_run: 0,
                    seconds: started.elapsed().as_secs_f64(),
                    done: false,
                };
                write!(out, "{}", summary_text(&run.name, dir, &summary)).map_err(output_error)?;
                return Ok(summary);
            }
            let done = calibrate(game, &setup, run, dir, cfg.threads, cfg.quiet, out)?;
            (setup, calibration_games) = (done.setup, done.games);
        }
        (MapElites::new(me_config)?, Vec::new())
    };
    let setup = &setup;
    let plan = setup.plan(game, run)?;
    let pool = super::thread_pool(cfg.threads, "threads")?;

    // With adaptive sampling a genome plays at most this many games: the bar's length is
    // then an upper bound.
    let per_genome = plan.games_per_evaluation() as u64;
    let progress = Progress::with_unit(me.total_evaluations() * per_genome, "games", !cfg.quiet);
    progress.set_position(me.games());
    progress.set_message(progress_message(&me));

    let (games_before, mut batches_run) = (me.games(), 0u64);
    let mut write_error = None;
    while cfg.stop_after_batches.is_none_or(|k| batches_run < k) {
        let Some(batch) = me.ask() else { break };
        let batch_start = Instant::now();
        let tasks = plan.tasks(&batch)?;
        let played = pool.install(|| {
            play_tasks(game, &setup.levels, &setup.features, &tasks, dir, || {
                progress.inc()
            })
        });
        let found = match played {
            Ok(results) => results.into_iter().map(|r| (r, String::new())).collect(),
            Err(e) => {
                progress.finish();
                return Err(e);
            }
        };
        let evaluations = gather(&tasks, found, setup.features.len(), dir)?;
        let seconds = batch_start.elapsed().as_secs_f64();
        batches_run += 1;
        let recorded = record_batch(dir, &mut me, &mut reports, batch, evaluations, seconds);
        progress.set_message(progress_message(&me));
        if let Err(e) = recorded {
            write_error = Some(e);
            break;
        }
    }
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    // Also covers a schedule without batches.
    write_outputs(dir, &me, &reports)?;

    let summary = EvolveSummary {
        last: reports.last().cloned(),
        total_evaluations: me.total_evaluations(),
        cells: me.archive().num_cells(),
        batches_run,
        games_run: me.games() - games_before + calibration_games,
        seconds: started.elapsed().as_secs_f64(),
        done: me.is_done(),
    };
    write!(out, "{}", summary_text(&run.name, dir, &summary)).map_err(output_error)?;
    Ok(summary)
}

/// Plays `tasks` of the run in `dir` on the current rayon pool, the level of each task found
/// by name in `levels`, calling `each` after every game; the results come back in task
/// order.
///
/// # Errors
///
/// The first failing task's error (in task order): a level not among `levels`, a spec that
/// does not build, a bad seating.
pub fn play_tasks<G: SearchSupport>(
    game: &G,
    levels: &[(String, G::Level)],
    features: &[Feature],
    tasks: &[Task],
    dir: &Path,
    each: impl Fn() + Sync,
) -> Result<Vec<TaskResult>> {
    let results: Vec<Result<TaskResult>> = tasks
        .par_iter()
        .map(|t| {
            let level = levels
                .iter()
                .find(|(name, _)| *name == t.level)
                .map(|(_, l)| l)
                .ok_or_else(|| {
                    Error::config("level", format!("`{}` is not a level of the run", t.level))
                })?;
            let result = play_task(game, level, features, t, dir);
            each();
            result
        })
        .collect();
    results.into_iter().collect()
}

/// Tells `me` the evaluations of `batch` (in genome order) that took `seconds`, adds its
/// progress row to `reports` and writes the run's files ([`write_outputs`]).
///
/// # Errors
///
/// As [`MapElites::tell`] (nothing changes then) and [`write_outputs`].
pub fn record_batch(
    dir: &Path,
    me: &mut MapElites,
    reports: &mut Vec<BatchReport>,
    batch: Batch,
    evaluations: Vec<Evaluation>,
    seconds: f64,
) -> Result<()> {
    let number = batch.number();
    me.tell(batch, evaluations)?;
    reports.push(me.report(number, seconds));
    write_outputs(dir, me, reports)
}

/// Creates the run directory `dir` for a new run; an old run's files in it (its calibration's
/// too, [`CALIBRATION_FILES`]) are an error unless `force`, which removes them (and its
/// unfinished batches' folders, named by number or `calibration-N`, never anything else in
/// `batches/`).
///
/// # Errors
///
/// As [`prepare_out_dir`] (naming `out`); [`Error::Io`] if the old batches cannot be removed.
pub fn prepare_run_dir(dir: &Path, force: bool) -> Result<()> {
    let mut owned = RUN_FILES.to_vec();
    owned.extend(CALIBRATION_FILES);
    prepare_out_dir(dir, "out", &owned, force, true)?;
    if force {
        // The batch folders only (named by number); anything else under batches/ stays.
        remove_told_batches(dir, u64::MAX)?;
        tidy(dir)?;
    }
    Ok(())
}

/// Checks, without playing, that the player (with weights for every evolved script; a player
/// to calibrate at every strength of its ladder), the baseline and the levels make games: the player against N − 1 baselines ([`line_up`]) on
/// every level, N its number of players (levels may differ). `started`: the run directory of
/// a run that has started, whose agents read its copies of their files (`setup`'s specs at the
/// directory); `None` for a run starting, whose agents read the files `run` names.
///
/// # Errors
///
/// [`Error::Config`] naming `evaluation.player`, `evaluation.baseline` or `evaluation.levels`,
/// or `calibration.strengths` for a strength the player refuses.
pub fn preflight<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    run: &RunConfig,
    started: Option<&Path>,
) -> Result<()> {
    let (player, baseline, base) = match started {
        Some(dir) => (&setup.player, &setup.baseline, dir),
        None => (&run.player, &run.baseline, Path::new("")),
    };
    let (levels, scripts, baseline) = (&setup.levels, &setup.scripts, baseline.to_string());
    let named = |field: &str| {
        let field = field.to_string();
        move |e: Error| match e {
            Error::Config {
                field: inner,
                reason,
            } => Error::config(field.clone(), format!("`{inner}`: {reason}")),
            e => e,
        }
    };
    // A series plays spec text (a tournament's participants): the player's with zero weights;
    // a player to calibrate at every strength of its ladder (each value must build).
    let values = vec![0.0; scripts.len()];
    let at = |spec: &AgentSpec| {
        spec.clone()
            .with_script_weights(scripts, &values)
            .map(|p| format!("{p:#}"))
            .map_err(named("evaluation.player"))
    };
    let mut ladder = Vec::new();
    if let Some(c) = &setup.calibration {
        for &s in &c.strengths {
            let spec = at(&at_strength(player, &c.field, s))?;
            // A strength the agent refuses is the ladder's fault; anything else the player's.
            build_agent_at(game, &spec, base).map_err(|e| match &e {
                Error::Config { field, .. } if *field == c.field => {
                    named("calibration.strengths")(e)
                }
                _ => named("evaluation.player")(e),
            })?;
            ladder.push(spec);
        }
    }
    let player = match ladder.pop() {
        Some(top) => top,
        None => at(player)?,
    };
    let build = |s: &str| build_agent_at(game, s, base);
    build(&player).map_err(named("evaluation.player"))?;
    build(&baseline).map_err(named("evaluation.baseline"))?;
    if levels.is_empty() {
        return Err(Error::config("evaluation.levels", "no level to play"));
    }
    for (range, _) in count_runs(&player_counts(game, levels), run.seed) {
        let group = &levels[range];
        let specs = line_up(game, group, &player, &baseline).map_err(named("evaluation.levels"))?;
        Series::new(group.to_vec(), run.repetitions, run.seed)
            .check(game, &specs, &build)
            .map_err(|e| match e {
                Error::Config { reason, .. } => Error::config("evaluation.levels", reason),
                e => e,
            })?;
    }
    Ok(())
}

/// The resolved config the run in `dir` works from: `resolved`, or the text of `dir`'s
/// `config.toml` if that is the same run as an earlier version wrote it
/// ([`older_form_of`]): such a run then resumes, and the task files of its batches keep their
/// config hash. With `force` (a new run replacing the old) it is always `resolved`.
pub fn kept_config(dir: &Path, resolved: String, force: bool) -> String {
    if force {
        return resolved;
    }
    match read_text(&dir.join(CONFIG_TOML), TEXT_LIMIT) {
        Ok(on_disk) if on_disk != resolved && older_form_of(&on_disk, &resolved) => on_disk,
        _ => resolved,
    }
}

/// Opens the run in `dir` to continue it: its `config.toml` must be `config_toml`; its
/// checkpoint, if it has one, must have been written beside this `config.toml`
/// ([`written_beside`]) and fit `config` (without a checkpoint, the run starts at batch 0;
/// anything else at its path, a directory, a FIFO or a dangling link, is refused by name);
/// `progress.csv` must hold a row for every batch the checkpoint holds
/// ([`check_progress_against`]) and keeps those rows.
///
/// # Errors
///
/// An error naming `config.toml` if it is missing or holds another configuration (or one
/// edited since the checkpoint), or naming `checkpoint.json` or `progress.csv` if either is
/// unreadable or does not fit.
pub fn open_run(
    dir: &Path,
    config_toml: &str,
    config: MapElitesConfig,
) -> Result<(MapElites, Vec<BatchReport>)> {
    let on_disk = check_config(dir, config_toml)?;
    let checkpoint_path = dir.join(CHECKPOINT_JSON);
    let me = if present(&checkpoint_path)? {
        // A checkpoint beside another config.toml is refused naming config.toml, before its
        // engine settings are compared with this config's.
        if !written_beside(&Checkpoint::load(&checkpoint_path)?, &on_disk) {
            return Err(edited_config(dir));
        }
        MapElites::resume_file(config, &checkpoint_path)?
    } else {
        MapElites::new(config)?
    };
    let progress_path = dir.join(PROGRESS_CSV);
    let mut reports = if me.next_batch() == 0 && !present(&progress_path)? {
        Vec::new()
    } else {
        read_progress_csv(&progress_path)?
    };
    // Every batch the checkpoint holds has its row (they cannot be rebuilt: they record the
    // archive after each batch); a row after them is a batch the checkpoint lacks.
    let last = me.report(me.next_batch().saturating_sub(1), 0.0);
    check_progress_against(&progress_path, &reports, me.next_batch(), &last)?;
    reports.truncate(me.next_batch() as usize);
    Ok((me, reports))
}

/// Checks that the `config.toml` of the run directory `dir` is `config_toml`, and returns it.
///
/// # Errors
///
/// [`Error::Io`] naming `config.toml` if it cannot be read; [`Error::Data`] naming it if it
/// holds another configuration.
pub fn check_config(dir: &Path, config_toml: &str) -> Result<String> {
    let config_path = dir.join(CONFIG_TOML);
    let on_disk = read_text(&config_path, TEXT_LIMIT)?;
    if on_disk != config_toml {
        return Err(Error::data(
            &config_path,
            0,
            "the run in this directory has another configuration; resume it with the \
             config that started it, or start afresh with --force",
        ));
    }
    Ok(on_disk)
}

/// The run in `dir` if it is this run: its `config.toml` is `config_toml` and its checkpoint
/// and progress read back (`None` otherwise, or if either is damaged: then the run directory
/// is another run's, for [`prepare_run_dir`] to refuse).
fn same_run(
    dir: &Path,
    config_toml: &str,
    config: &MapElitesConfig,
) -> Option<(MapElites, Vec<BatchReport>)> {
    if !dir.join(CHECKPOINT_JSON).is_file() {
        return None;
    }
    // `open_run` refuses a `config.toml` other than `config_toml`.
    open_run(dir, config_toml, config.clone()).ok()
}

/// What `evolve` prints for a run directory that already holds this run, finished.
fn finished_text(name: &str, dir: &Path, s: &EvolveSummary) -> String {
    let (evaluations, games) = s.last.as_ref().map_or((0, 0), |r| (r.evaluations, r.games));
    let (elites, best) = s
        .last
        .as_ref()
        .map_or((0, None), |r| (r.elites, r.max_fitness));
    format!(
        "evolve {name}: {dir} already holds this run, finished ({evaluations} evaluations, \
         {games} games; {elites} elites of {cells} cells, best win rate {best}); nothing to do.\n  \
         its explorer: {report}\n  run it again from the start with --force\n",
        dir = dir.display(),
        cells = s.cells,
        best = best.map_or("-".to_string(), |b| format!("{:.1} %", 100.0 * b)),
        report = dir.join(super::report::REPORT_HTML).display(),
    )
}

/// Writes `progress.csv`, `archive.csv`, the heatmaps and the checkpoint, in that order; the
/// checkpoint carries the fingerprint of the run's `config.toml` beside it
/// ([`config_hash`]), which readers of the run check it against
/// ([`super::run_dir::check_against_checkpoint`]).
///
/// # Errors
///
/// [`Error::Io`] naming the file that cannot be written.
pub fn write_outputs(dir: &Path, me: &MapElites, reports: &[BatchReport]) -> Result<()> {
    write_progress_csv(&dir.join(PROGRESS_CSV), reports)?;
    let mut table = ArchiveTable::from_archive(me.archive(), &me.config().space);
    if let Some(a) = &me.config().adaptive {
        table = table.with_confidence(me.archive(), a);
    }
    write_archive_csv(&dir.join(ARCHIVE_CSV), &table)?;
    write_heatmaps(&table.rows, me.archive().axes(), dir)?;
    let mut checkpoint = me.checkpoint();
    checkpoint.run_config = read_text(&dir.join(CONFIG_TOML), TEXT_LIMIT)
        .ok()
        .map(|text| config_hash(&text));
    checkpoint.save(&dir.join(CHECKPOINT_JSON))
}

/// The summary of the finished run `me` (its batch `reports`) found by a command started at
/// `started` that had nothing to do.
fn finished_summary(me: &MapElites, reports: &[BatchReport], started: Instant) -> EvolveSummary {
    EvolveSummary {
        last: reports.last().cloned(),
        total_evaluations: me.total_evaluations(),
        cells: me.archive().num_cells(),
        batches_run: 0,
        games_run: 0,
        seconds: started.elapsed().as_secs_f64(),
        done: true,
    }
}

/// The progress bar's message: elites and best win rate.
fn progress_message(me: &MapElites) -> String {
    let s = me.archive().stats();
    match s.max_fitness {
        Some(best) => format!("{} elites, best {:.1} %", s.num_elites, 100.0 * best),
        None => "no elites yet".to_string(),
    }
}

/// The printed summary of a run.
pub fn summary_text(name: &str, dir: &Path, s: &EvolveSummary) -> String {
    let mut t = String::new();
    let (evaluations, games) = s.last.as_ref().map_or((0, 0), |r| (r.evaluations, r.games));
    if s.done {
        t += &format!("evolve {name}: done, {evaluations} evaluations, {games} games\n");
    } else {
        t += &format!(
            "evolve {name}: stopped after {} batch(es), {evaluations} of {} evaluations; \
             continue with --resume\n",
            s.batches_run, s.total_evaluations
        );
    }
    let (elites, coverage, qd, best) = s.last.as_ref().map_or((0, 0.0, 0.0, None), |r| {
        (r.elites, r.coverage, r.qd_score, r.max_fitness)
    });
    t += &format!(
        "  elites         {elites} of {} cells (coverage {:.1} %)\n",
        s.cells,
        100.0 * coverage
    );
    t += &format!("  QD score       {qd:.2}\n");
    t += &format!(
        "  best win rate  {}\n",
        best.map_or("-".to_string(), |b| format!("{:.1} %", 100.0 * b))
    );
    let rate = if s.seconds > 0.0 {
        s.games_run as f64 / s.seconds
    } else {
        0.0
    };
    t += &format!(
        "  wall time      {} ({} games, {rate:.2} games/s)\n",
        duration(s.seconds),
        s.games_run
    );
    t += &format!("wrote {}:\n", dir.display());
    // The explorer page reports itself once written; a calibrated run's tables and chart come
    // after the run's files (the journal is gone once it is done); a run stopped before its
    // first batch has none of them.
    let files = RUN_FILES.iter().chain(&CALIBRATION_FILES[..4]);
    for f in files.filter(|&&f| f != super::report::REPORT_HTML) {
        if dir.join(f).is_file() {
            t += &format!("  {}\n", dir.join(f).display());
        }
    }
    t
}

/// Seconds as `1h 02m 03s`, `2m 03s` or `4.5 s`.
fn duration(seconds: f64) -> String {
    if seconds < 60.0 {
        return format!("{seconds:.1} s");
    }
    let s = seconds.round() as u64;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}h {m:02}m {s:02}s")
    } else {
        format!("{m}m {s:02}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quickstart_config_is_valid() {
        let cfg = EvolveConfig::load(None, None).unwrap();
        assert_eq!(cfg.run.name, QUICKSTART_NAME);
        assert_eq!(cfg.out, Path::new("results").join(QUICKSTART_NAME));
        assert_eq!(cfg.source, "built-in quickstart.toml of tribes");
    }

    #[test]
    fn zero_threads_are_refused() {
        let cfg = EvolveConfig::load(None, None).unwrap();
        match cfg.with_threads(Some(0)) {
            Err(Error::Config { field, .. }) => assert_eq!(field, "threads"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(4.54), "4.5 s");
        assert_eq!(duration(123.0), "2m 03s");
        assert_eq!(duration(3723.0), "1h 02m 03s");
    }
}

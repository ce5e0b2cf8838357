//! `playstyles tell RUN_DIR`: takes the results of the batch asked for into the archive (see
//! the [module docs](super)).

use std::io::Write;
use std::path::PathBuf;

use super::ask::remove_told_batches;
use super::batch::{Found, gather};
use super::task::{TaskLine, parse_lines};
use super::work::read_results_with_lines;
use super::{RESULTS_DIR, TASKS_JSONL, batch_dir};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::calibration::{self, stage};
use crate::experiments::evolve::{EvolveConfig, RunSetup, check_config, open_run, record_batch};
use crate::experiments::game_kind::program;
use crate::experiments::output_error;
use crate::experiments::run_dir::CONFIG_TOML;
use crate::files::{DATA_LIMIT, present, read_text};

/// Validated settings of `playstyles tell`.
#[derive(Clone, Debug, PartialEq)]
pub struct TellConfig {
    /// The run: its `config.toml` and directory (`out`).
    pub evolve: EvolveConfig,
}

impl TellConfig {
    /// The run in `run_dir`, from its `config.toml`.
    ///
    /// # Errors
    ///
    /// As [`EvolveConfig::load`] on `run_dir/config.toml` (missing: no run there).
    pub fn load(run_dir: PathBuf) -> Result<Self> {
        let config = run_dir.join(CONFIG_TOML);
        if !present(&config)? {
            return Err(no_run(&run_dir));
        }
        let evolve = EvolveConfig::load(Some(&config), Some(run_dir))?;
        Ok(TellConfig { evolve })
    }
}

/// What `tell` did.
#[derive(Clone, Debug, PartialEq)]
pub enum Told {
    /// The batch was told; `done`: it finished the schedule.
    Batch {
        /// The batch's number.
        number: u64,
        /// True if the schedule is now finished.
        done: bool,
    },
    /// A batch of the calibration's games was told ([`calibration::stage::tell`]); `done`: it
    /// finished the calibration.
    Calibration {
        /// True if the calibration is now finished.
        done: bool,
    },
    /// Nothing was asked: the next batch has no task file yet.
    Nothing,
    /// The schedule is finished: nothing to tell (the caller writes the explorer page if a
    /// `tell` killed after the last checkpoint left it unwritten).
    Finished,
}

/// Runs `playstyles tell` for the run `cfg.evolve` resolved as `setup`: checks the results
/// of the batch asked for against its tasks, tells the archive the genomes' evaluations,
/// writes every file `evolve` writes (progress, archive, heatmaps, checkpoint), removes the
/// batch's folder and prints one line on `out`.
///
/// Each step can be killed and the command run again: the checkpoint is written last of the
/// batch's files (before it, telling again re-tells the batch), the folders of batches told
/// are removed on every call, and a finished run's explorer page is written by the caller
/// whenever it is missing ([`Told::Finished`]).
///
/// # Errors
///
/// An error naming the batch's `results` folder and the tasks without a result, the foreign
/// results and the doubled ones (see [`gather`]); naming `tasks.jsonl` if it does not hold
/// the tasks of the batch the run expects; as `evolve` for the run directory's files.
pub fn tell<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    cfg: &TellConfig,
    out: &mut impl Write,
) -> Result<Told> {
    let ecfg = &cfg.evolve;
    let run = &ecfg.run;
    let dir = &ecfg.out;
    let me_config = run
        .map_elites(&setup.scripts)
        .map_err(|e| ecfg.located(e))?;
    // The calibration comes first; a run whose config.toml records it done breeds.
    let setup = &match calibration::recorded(dir, setup)? {
        Some(calibrated) => calibrated,
        None => setup.clone(),
    };
    if setup.calibration.is_some() {
        check_config(dir, &setup.config_toml)?;
        return Ok(match stage::tell(game, setup, run, dir, out)? {
            stage::Told::Batch { done, .. } => Told::Calibration { done },
            stage::Told::Nothing => Told::Nothing,
        });
    }
    if run.calibration.is_some() {
        calibration::tidy(dir)?;
    }
    let plan = setup.plan(game, run)?;
    let (mut me, mut reports) = open_run(dir, &setup.config_toml, me_config)?;
    // A batch told by a `tell` killed before it removed the batch's folder.
    remove_told_batches(dir, me.next_batch())?;
    let Some(batch) = me.ask() else {
        writeln!(
            out,
            "tell {}: nothing to tell, the schedule is finished",
            dir.display()
        )
        .map_err(output_error)?;
        return Ok(Told::Finished);
    };
    let folder = batch_dir(dir, batch.number());
    let tasks_path = folder.join(TASKS_JSONL);
    if !present(&tasks_path)? {
        writeln!(
            out,
            "tell {}: nothing to tell, batch {} has not been asked (run `{} ask`)",
            dir.display(),
            batch.number(),
            program()
        )
        .map_err(output_error)?;
        return Ok(Told::Nothing);
    }
    let tasks = plan.tasks(&batch)?;
    let on_disk: Vec<TaskLine> = parse_lines(&tasks_path, &read_text(&tasks_path, DATA_LIMIT)?)?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    if !on_disk.into_iter().eq(tasks.iter().map(TaskLine::from)) {
        return Err(Error::data(
            &tasks_path,
            0,
            format!(
                "does not hold the {} tasks of batch {} of this run (ask again to rewrite it)",
                tasks.len(),
                batch.number()
            ),
        ));
    }
    let results = folder.join(RESULTS_DIR);
    let found: Vec<Found> = read_results_with_lines(&results)?
        .into_iter()
        .flat_map(|(name, v)| {
            v.into_iter()
                .map(move |(r, line)| (r, format!("{name}:{line}")))
        })
        .collect();
    let evaluations = gather(&tasks, found, setup.features.len(), &results)?;
    let seconds = std::fs::metadata(&tasks_path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .map_or(0.0, |d| d.as_secs_f64());
    let number = batch.number();
    record_batch(dir, &mut me, &mut reports, batch, evaluations, seconds)?;
    remove_told_batches(dir, me.next_batch())?;
    let s = me.archive().stats();
    writeln!(
        out,
        "tell {}: batch {number} told, {} of {} evaluations, {} games; {} elites (coverage {:.1} %), \
         QD score {:.2}, best win rate {}{}",
        dir.display(),
        me.evaluations(),
        me.total_evaluations(),
        me.games(),
        s.num_elites,
        100.0 * s.coverage,
        s.qd_score,
        s.max_fitness
            .map_or("-".to_string(), |b| format!("{:.1} %", 100.0 * b)),
        if me.is_done() { "; done" } else { "" }
    )
    .map_err(output_error)?;
    Ok(Told::Batch {
        number,
        done: me.is_done(),
    })
}

/// The error for a run directory without a run (`tell` before the first `ask`).
fn no_run(dir: &std::path::Path) -> Error {
    Error::io(
        dir.join(CONFIG_TOML),
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "no run here: start it with `{} ask RUN_DIR --config FILE`",
                program()
            ),
        ),
    )
}

//! `playstyles ask RUN_DIR [--config FILE]`: creates the run on the first call, then writes the
//! next batch's game tasks (see the [module docs](super)).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::task::{TaskLine, to_lines};
use super::{BATCHES_DIR, TASKS_JSONL, batch_dir};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::agent_files::copy_agent_files;
use crate::experiments::calibration::{self, stage};
use crate::experiments::evolve::{
    EvolveConfig, RunSetup, check_config, open_run, preflight, prepare_run_dir,
};
use crate::experiments::output_error;
use crate::experiments::run_dir::CONFIG_TOML;
use crate::files::{DATA_LIMIT, present, read_text, write_atomic};

/// Validated settings of `playstyles ask`.
#[derive(Clone, Debug, PartialEq)]
pub struct AskConfig {
    /// The run: its config and directory (`out`).
    pub evolve: EvolveConfig,
}

impl AskConfig {
    /// The run in `run_dir` with the config `config`; without one, the run's own
    /// `config.toml` if the run exists, else the built-in quick start.
    ///
    /// # Errors
    ///
    /// As [`EvolveConfig::load`].
    pub fn load(run_dir: PathBuf, config: Option<&Path>) -> Result<Self> {
        let existing = run_dir.join(CONFIG_TOML);
        let config = match config {
            Some(c) => Some(c.to_path_buf()),
            None if present(&existing)? => Some(existing),
            None => None,
        };
        let evolve = EvolveConfig::load(config.as_deref(), Some(run_dir))?;
        Ok(AskConfig { evolve })
    }
}

/// What `ask` did.
#[derive(Clone, Debug, PartialEq)]
pub enum Asked {
    /// The batch's task file (written now, or already there with the same tasks).
    Tasks(PathBuf),
    /// The schedule is finished: nothing to ask.
    Finished,
}

/// Runs `playstyles ask` for the run `cfg.evolve` resolved as `setup`: creates the run
/// directory with `config.toml` (and the copies of the files its agents read) if it has none, writes the next batch's tasks to
/// `batches/NNNNNN/tasks.jsonl` (unless the file already holds them) and prints its path on
/// `out`; removes the folders of batches already told.
///
/// # Errors
///
/// As `evolve` before its first game: bad specs or levels, a run directory holding another
/// run's files, another configuration in `config.toml`, a checkpoint that does not fit;
/// [`Error::Io`] if a file cannot be written.
pub fn ask<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    cfg: &AskConfig,
    out: &mut impl Write,
) -> Result<Asked> {
    let ecfg = &cfg.evolve;
    let run = &ecfg.run;
    let me_config = run
        .map_elites(&setup.scripts)
        .map_err(|e| ecfg.located(e))?;
    let dir = &ecfg.out;
    let started = present(&dir.join(CONFIG_TOML))?;
    preflight(game, setup, run, started.then_some(dir.as_path())).map_err(|e| ecfg.located(e))?;
    if !started {
        prepare_run_dir(dir, false)?;
        copy_agent_files(game, dir, &setup.files)?;
        write_atomic(&dir.join(CONFIG_TOML), setup.config_toml.as_bytes())?;
    }
    // The calibration comes first; a run whose config.toml records it done breeds.
    let setup = match calibration::recorded(dir, setup)? {
        Some(calibrated) => calibrated,
        None => setup.clone(),
    };
    let setup = if setup.calibration.is_some() {
        check_config(dir, &setup.config_toml)?;
        // Standard output holds the task file's path alone.
        match stage::ask(game, &setup, run, dir, &mut std::io::sink())? {
            stage::Asked::Tasks(path) => {
                writeln!(out, "{}", path.display()).map_err(output_error)?;
                return Ok(Asked::Tasks(path));
            }
            stage::Asked::Calibrated(setup) => *setup,
        }
    } else {
        if run.calibration.is_some() {
            calibration::tidy(dir)?;
        }
        setup
    };
    let plan = setup.plan(game, run)?;
    let (me, _) = open_run(dir, &setup.config_toml, me_config)?;
    remove_told_batches(dir, me.next_batch())?;
    let Some(batch) = me.ask() else {
        return Ok(Asked::Finished);
    };
    let lines: Vec<TaskLine> = plan.tasks(&batch)?.iter().map(TaskLine::from).collect();
    let text = to_lines(&lines);
    let folder = batch_dir(dir, batch.number());
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    let path = folder.join(TASKS_JSONL);
    // Whatever is there is read (a link, a FIFO or a folder refused by name), not replaced.
    let same = present(&path)? && read_text(&path, DATA_LIMIT)? == text;
    if !same {
        write_atomic(&path, text.as_bytes())?;
    }
    writeln!(out, "{}", path.display()).map_err(output_error)?;
    Ok(Asked::Tasks(path))
}

/// Removes the folders of batches before `next_batch` (told already; `tell` removes its
/// batch's folder, this catches one left by a `tell` killed after writing the checkpoint),
/// then `batches/` itself if that left it empty.
///
/// # Errors
///
/// [`Error::Io`] naming a folder that cannot be listed or removed.
pub fn remove_told_batches(dir: &Path, next_batch: u64) -> Result<()> {
    remove_batch_folders(dir, |name| {
        name.parse::<u64>().is_ok_and(|b| b < next_batch)
    })
}

/// Removes the folders of `dir`'s `batches/` whose names `done` picks — real folders only, a
/// link or a file of that name stays — then `batches/` itself if that left it empty: the one
/// place that deletes the task folders `ask` made (its batches', the calibration's phases').
///
/// # Errors
///
/// [`Error::Io`] naming a folder that cannot be listed or removed.
pub fn remove_batch_folders(dir: &Path, done: impl Fn(&str) -> bool) -> Result<()> {
    let batches = dir.join(BATCHES_DIR);
    let entries = match std::fs::read_dir(&batches) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(&batches, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&batches, e))?;
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && entry.file_name().to_str().is_some_and(&done) {
            let path = entry.path();
            std::fs::remove_dir_all(&path).map_err(|e| Error::io(&path, e))?;
        }
    }
    // Left empty (the run is told to its end), the folder goes too, so that a run taken
    // through ask/work/tell ends with the files of `evolve`; one with anything in it stays.
    let _ = std::fs::remove_dir(&batches);
    Ok(())
}

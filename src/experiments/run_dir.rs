//! Output folders and files: creating one without overwriting results by accident
//! ([`prepare_out_dir`], [`own_output`], [`check_replaceable`]), and reading a run directory written by `playstyles evolve`, for
//! `plot`, `validate`, `reevaluate`, `tiers` and `report`: its resolved `config.toml` and its
//! `archive.csv`, checked against each other and against the run's checkpoint (the config it
//! was written with, the elites it holds).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::run_config::RunConfig;
use super::tasks::config_hash;
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, present, read_text};
use crate::qd::GridArchive;
use crate::qd::checkpoint::Checkpoint;
use crate::report::archive::{ARCHIVE_CSV, ArchiveRow, ArchiveTable, read_archive_csv};

/// File name of the resolved run config in a run directory.
pub const CONFIG_TOML: &str = "config.toml";

/// File name of the checkpoint in a run directory.
pub const CHECKPOINT_JSON: &str = "checkpoint.json";

/// A run directory's config and archive.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// The directory.
    pub dir: PathBuf,
    /// The resolved run config (`config.toml`).
    pub config: RunConfig,
    /// The elites (`archive.csv`), in cell order.
    pub archive: ArchiveTable,
    /// An empty archive over the run's axes: cell counts and cell-index arithmetic.
    pub grid: GridArchive,
}

/// Creates `dir` if needed; if it holds any of `files`, refuses unless `force`, in which case
/// those files are removed (so that no result of an old run is ever taken for one of the
/// new). `resumable` adds the `--resume` hint to the error.
///
/// # Errors
///
/// [`Error::Config`] naming `field` (the flag or argument that chose `dir`) if one of `files`
/// exists and `force` is off; [`Error::Io`] if the folder cannot be created or a file removed.
pub fn prepare_out_dir(
    dir: &Path,
    field: &str,
    files: &[&str],
    force: bool,
    resumable: bool,
) -> Result<()> {
    let existing: Vec<&str> = files
        .iter()
        .copied()
        .filter(|f| present(&dir.join(f)).unwrap_or(true))
        .collect();
    if !existing.is_empty() {
        if !force {
            let hint = if resumable {
                "pass --force to overwrite or --resume to continue"
            } else {
                "pass --force to overwrite"
            };
            return Err(Error::config(
                field,
                format!(
                    "{} already holds {}; {hint}",
                    dir.display(),
                    existing.join(", ")
                ),
            ));
        }
        for f in existing {
            let path = dir.join(f);
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Whether a command given `--resume` and `--force` as `(resume, force)` has something to
/// resume in `dir`: one of `markers`, the files it writes first, is there. When none is, it
/// says on `out` that the `what` starts instead (a requeued job may always pass `--resume`).
///
/// # Errors
///
/// [`Error::Config`] naming `resume` if `force` is set too; [`Error::Io`] naming a marker
/// that cannot be looked at, or if `out` cannot be written.
pub fn resuming(
    (resume, force): (bool, bool),
    dir: &Path,
    markers: &[PathBuf],
    what: &str,
    out: &mut impl Write,
) -> Result<bool> {
    if resume && force {
        return Err(Error::config(
            "resume",
            "resume and force exclude each other",
        ));
    }
    if !resume {
        return Ok(false);
    }
    for m in markers {
        if present(m)? {
            return Ok(true);
        }
    }
    writeln!(
        out,
        "nothing to resume in {}: starting the {what}",
        dir.display()
    )
    .map_err(super::output_error)?;
    Ok(false)
}

/// Whether an output file of a command is at `path`: `false` if nothing is; `true` if a
/// regular file (not a link) is, one that `is_own` recognises as of the kind the command writes
/// there (`what`, e.g. "a replay page"). So a command replaces its own earlier output and
/// never a folder, a link or someone else's file: the one place this is decided.
///
/// # Errors
///
/// [`Error::Config`] naming `field` (nothing is touched) if a link, a directory or anything
/// but a regular file is there, or a file `is_own` does not recognise; [`Error::Io`] if the
/// path cannot be looked at.
pub fn own_output(
    path: &Path,
    field: &str,
    what: &str,
    is_own: impl Fn(&Path) -> bool,
) -> Result<bool> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::io(path, e)),
    };
    let shown = path.display();
    let why = if meta.file_type().is_symlink() {
        format!("{shown} is a symbolic link; not replaced (remove it, or name another file)")
    } else if meta.is_dir() {
        format!("{shown} is a directory, not {what}; not replaced (name a file)")
    } else if !meta.is_file() {
        format!("{shown} is a special file, not {what}; not replaced")
    } else if !is_own(path) {
        format!("{shown} is not {what}; --force replaces only {what}, so it is left as it is")
    } else {
        return Ok(true);
    };
    Err(Error::config(field, why))
}

/// Checks that the output file `path` may be written: nothing is there, or `force` is on and
/// it is the command's own ([`own_output`]).
///
/// # Errors
///
/// As [`own_output`]; [`Error::Config`] naming `field` if the file exists without `force`.
pub fn check_replaceable(
    path: &Path,
    field: &str,
    force: bool,
    what: &str,
    is_own: impl Fn(&Path) -> bool,
) -> Result<()> {
    // Without --force a file of any kind is refused as existing, so its kind is not asked.
    if own_output(path, field, what, |p| !force || is_own(p))? && !force {
        return Err(Error::config(
            field,
            format!("{} exists; give --force to replace it", path.display()),
        ));
    }
    Ok(())
}

/// Checks that `dir` is an existing directory.
///
/// # Errors
///
/// [`Error::Io`] naming `dir` if it does not exist or is not a directory.
pub fn check_dir(dir: &Path) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::io(
            dir,
            std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "not a run directory (not a directory)",
            ),
        )),
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// Reads and validates `config.toml` of the run directory `dir`.
///
/// # Errors
///
/// [`Error::Io`] naming the directory or the file if either is missing (or the file is larger
/// than [`TEXT_LIMIT`]); [`Error::Data`] naming the file if it is not UTF-8; [`Error::Config`]
/// naming the field, with the file's path in the reason, if the config is invalid.
pub fn read_config(dir: &Path) -> Result<RunConfig> {
    read_config_text(dir).map(|(config, _)| config)
}

/// As [`read_config`], with the file's text.
fn read_config_text(dir: &Path) -> Result<(RunConfig, String)> {
    check_dir(dir)?;
    let path = dir.join(CONFIG_TOML);
    let text = read_text(&path, TEXT_LIMIT)?;
    let stem = dir
        .file_name()
        .map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned());
    let config = RunConfig::parse_resolved(&text, &stem).map_err(|e| match e {
        Error::Config { field, reason } => Error::Config {
            field,
            reason: format!("{reason} (in {})", path.display()),
        },
        e => e,
    })?;
    Ok((config, text))
}

/// Checks `config.toml` of the run directory `dir` (parsed as `config`, its text `text`)
/// against the run's `checkpoint.json`, if it has one: the checkpoint's hash of the engine's
/// settings ([`crate::qd::MapElitesConfig::hash`]: seed, batches, genome, grid, schedule)
/// must be that of `config` with the evolved scripts `scripts`, and its fingerprint of the
/// whole `config.toml` ([`Checkpoint::run_config`], in checkpoints written since it exists)
/// that of `text`. So a `config.toml` edited after the run (another grid, player, baseline,
/// levels) is refused rather than read as the run's. Returns the checkpoint (`None`: the run
/// has none).
///
/// # Errors
///
/// [`Error::Data`] naming `config.toml` if it is not the config that wrote the checkpoint; as
/// [`Checkpoint::load`] for a damaged checkpoint (anything at its path is read: a directory,
/// a FIFO or a dangling link there is refused by name, not taken for no checkpoint).
pub fn check_against_checkpoint(
    dir: &Path,
    config: &RunConfig,
    text: &str,
    scripts: &[String],
) -> Result<Option<Checkpoint>> {
    let checkpoint = dir.join(CHECKPOINT_JSON);
    if !present(&checkpoint)? {
        return Ok(None);
    }
    let cp = Checkpoint::load(&checkpoint)?;
    let settings = config
        .map_elites(scripts)
        .map(|c| c.hash() == cp.config_hash)
        .unwrap_or(false);
    if settings && written_beside(&cp, text) {
        return Ok(Some(cp));
    }
    Err(edited_config(dir))
}

/// Checks the elites of `archive.csv` at `path`, read as `table`, against those of the run's
/// checkpoint `cp`: the same cells, each with the checkpoint's evaluation index, games, wins,
/// draws and weights. So the `archive.csv` of another run of the same config (or one edited)
/// is refused rather than read as this run's.
///
/// # Errors
///
/// [`Error::Data`] naming `path` (and the line of the first row that differs).
fn check_archive_against(path: &Path, table: &ArchiveTable, cp: &Checkpoint) -> Result<()> {
    let not_this_run = |line: usize, what: String| {
        Error::data(
            path,
            line,
            format!(
                "{what}: this is not the archive of the run's {CHECKPOINT_JSON} (another \
                 run's {ARCHIVE_CSV}, an edited one, or a run stopped while writing its files: \
                 resume it)"
            ),
        )
    };
    let elites: Vec<_> = cp.archive.elites().collect();
    for (i, (row, (cell, e))) in table.rows.iter().zip(&elites).enumerate() {
        let ev = &e.evaluation;
        let same = row.cell == *cell
            && row.evaluation == e.index
            && (row.games, row.wins, row.draws) == (ev.games, ev.wins, ev.draws)
            && row.weights == e.genome.values;
        if !same {
            return Err(not_this_run(
                i + 2,
                format!(
                    "cell {} holds evaluation {} ({} games, {} wins), where the checkpoint's \
                     elite {} of cell {cell} has {} games and {} wins",
                    row.cell, row.evaluation, row.games, row.wins, e.index, ev.games, ev.wins
                ),
            ));
        }
    }
    if table.rows.len() != elites.len() {
        return Err(not_this_run(
            0,
            format!(
                "{} elites, where the checkpoint holds {}",
                table.rows.len(),
                elites.len()
            ),
        ));
    }
    Ok(())
}

/// True if the checkpoint `cp` was written beside a `config.toml` of text `text` (or
/// carries no fingerprint of it, [`Checkpoint::run_config`]).
pub fn written_beside(cp: &Checkpoint, text: &str) -> bool {
    cp.run_config
        .as_ref()
        .is_none_or(|h| *h == config_hash(text))
}

/// The error for a `config.toml` of the run directory `dir` that is not the one its
/// checkpoint was written with.
pub fn edited_config(dir: &Path) -> Error {
    Error::data(
        dir.join(CONFIG_TOML),
        0,
        format!(
            "is not the config this run was played with ({CHECKPOINT_JSON} was written with \
             another one): it was edited or replaced after the run; restore the run's own \
             {CONFIG_TOML}"
        ),
    )
}

impl RunDir {
    /// Reads `config.toml` and `archive.csv` of the run directory `dir` and checks that they
    /// agree: the archive's features are the config's, in order; its weights are the config's
    /// `genome.scripts` (when listed); every row's cell index and coordinates lie on the grid
    /// and match each other, and no cell appears twice; and, when the run has a checkpoint,
    /// that `config.toml` is the one it was written with ([`check_against_checkpoint`]) and
    /// the archive's elites its elites.
    ///
    /// # Errors
    ///
    /// As [`read_config`] and [`check_against_checkpoint`]; [`Error::Io`] naming
    /// `archive.csv` if it is missing; [`Error::Data`] naming it (and the line, for a bad row)
    /// if it is malformed or disagrees with the config or the checkpoint.
    pub fn load(dir: &Path) -> Result<RunDir> {
        let (config, text) = read_config_text(dir)?;
        let path = dir.join(ARCHIVE_CSV);
        let archive = read_archive_csv(&path)?;
        let axes = config.features.clone();
        let grid = GridArchive::new(axes, config.replacement)?;
        let names: Vec<&str> = config.features.iter().map(|a| a.name.as_str()).collect();
        if archive.features != names {
            return Err(Error::data(
                &path,
                0,
                format!(
                    "its features ({}) are not those of {CONFIG_TOML} ({})",
                    archive.features.join(", "),
                    names.join(", ")
                ),
            ));
        }
        if let Some(scripts) = &config.scripts
            && *scripts != archive.weights
        {
            return Err(Error::data(
                &path,
                0,
                format!(
                    "its weights ({}) are not the scripts of {CONFIG_TOML} ({})",
                    archive.weights.join(", "),
                    scripts.join(", ")
                ),
            ));
        }
        let mut seen = BTreeSet::new();
        for (i, r) in archive.rows.iter().enumerate() {
            let line = i + 2;
            if grid.grid_to_index(&r.coords) != Some(r.cell) {
                return Err(Error::data(
                    &path,
                    line,
                    format!(
                        "cell {} with coordinates {:?} does not lie on the grid {:?}",
                        r.cell,
                        r.coords,
                        grid.dims()
                    ),
                ));
            }
            if !seen.insert(r.cell) {
                return Err(Error::data(
                    &path,
                    line,
                    format!("cell {} appears twice", r.cell),
                ));
            }
        }
        if let Some(cp) = check_against_checkpoint(dir, &config, &text, &archive.weights)? {
            check_archive_against(&path, &archive, &cp)?;
        }
        Ok(RunDir {
            dir: dir.to_path_buf(),
            config,
            archive,
            grid,
        })
    }

    /// The elite of cell `cell`, if the archive has one.
    pub fn row(&self, cell: usize) -> Option<&ArchiveRow> {
        self.archive.rows.iter().find(|r| r.cell == cell)
    }

    /// The error for line `line` of the table `path` that `command` (`validate`,
    /// `reevaluate`) wrote for another state of the run: `why`, and to run `command` again.
    pub fn stale(&self, path: &Path, line: usize, why: String, command: &str) -> Error {
        Error::data(
            path,
            line,
            format!(
                "{why}; run `{} {command}` again",
                super::game_kind::program()
            ),
        )
    }

    /// The elite of cell `cell`, which line `line` of the table `path` that `command` wrote
    /// is about.
    ///
    /// # Errors
    ///
    /// [`Error::Data`] naming the file and line ([`RunDir::stale`]) if the archive has no
    /// elite there.
    pub fn elite_of(
        &self,
        cell: usize,
        path: &Path,
        line: usize,
        command: &str,
    ) -> Result<&ArchiveRow> {
        self.row(cell).ok_or_else(|| {
            self.stale(
                path,
                line,
                format!("cell {cell} has no elite in archive.csv"),
                command,
            )
        })
    }

    /// The agent spec of an elite as text (its replay line, `{:#}`): the run's player with
    /// the elite's weights ([`crate::agent::AgentSpec::with_script_weights`]).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `weights` if the player cannot take the weights (not expected
    /// for a valid run).
    pub fn agent_spec(&self, row: &ArchiveRow) -> Result<String> {
        let spec = self
            .config
            .player
            .clone()
            .with_script_weights(&self.archive.weights, &row.weights)?;
        Ok(format!("{spec:#}"))
    }
}

//! Re-playing a run's elites, what `validate` and `reevaluate` share: their files in the run
//! directory ([`EliteFiles`]: the journal opened, or the finished command found, and the two
//! tables and the completion record written), each elite's job (its archive row and the spec
//! that plays it, [`elite_jobs`]), and the elites played in parallel, each saved to the
//! command's [`EliteJournal`] as it finishes ([`play_elites`]).
//!
//! Besides the command's own settings, its journal and completion record hold fingerprints of
//! the run's `config.toml` (game, rules, player, baseline, features, seed) and of the elites
//! played (their cells and specs), so that neither a resume nor a finished command's "nothing
//! to do" ever mixes the games or tables of another run or archive.

use std::io::Write;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::journal::{Entry, Journal, fingerprint, finished};
use super::run_dir::{CONFIG_TOML, RunDir, prepare_out_dir};
use super::{output_error, thread_pool};
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, present, read_text};
use crate::qd::Evaluation;
use crate::report::archive::ArchiveRow;
use crate::report::csv::{CsvTable, check_rate};
use crate::report::progress::Progress;

/// One elite played: its cell, the agent spec it was played with and its evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EliteEntry {
    cell: usize,
    spec: String,
    evaluation: Evaluation,
}

impl Entry for EliteEntry {
    const FIELD: &'static str = "run_dir";
    const HOLDS: &'static str = "an interrupted run's elites";
    fn same_item(&self, other: &Self) -> bool {
        self.cell == other.cell
    }
    /// The evaluation as [`evaluate_player`](super::evaluate::evaluate_player) makes it: a win
    /// rate in [0, 1], and [`Evaluation::validate`] (finite numbers, a mean and a spread per
    /// feature, wins and draws within the games).
    fn check(&self) -> std::result::Result<(), String> {
        let e = &self.evaluation;
        check_rate("fitness", e.fitness)
            .and_then(|()| e.validate(e.descriptor_means.len()))
            .map_err(|why| format!("cell {}, {why}", self.cell))
    }
}

/// The journal of a command that re-plays elites.
pub type EliteJournal = Journal<EliteEntry>;

/// The evaluation `journal` holds for the elite in `cell`, if it was played with `spec`:
/// `games` games with `features` features, as every elite plays.
///
/// # Errors
///
/// [`Error::Config`] naming `run_dir` if it was played with another spec (the archive changed
/// since); [`Error::Data`] naming the journal if the entry does not hold the games an elite
/// plays (a damaged journal).
fn done(
    journal: &EliteJournal,
    cell: usize,
    spec: &str,
    games: u64,
    features: usize,
) -> Result<Option<Evaluation>> {
    let Some(e) = journal.find(|e| e.cell == cell) else {
        return Ok(None);
    };
    if e.spec != spec {
        return Err(Error::config(
            "run_dir",
            format!(
                "{} played cell {cell} as {}, but the archive's elite there is now {spec}; \
                 pass --force instead of --resume to start over",
                journal.path().display(),
                e.spec
            ),
        ));
    }
    let damaged = |why: String| {
        Error::data(
            journal.path(),
            0,
            format!(
                "damaged journal: cell {cell} {why}; pass --force instead of --resume to start \
                 over"
            ),
        )
    };
    if u64::from(e.evaluation.games) != games {
        return Err(damaged(format!(
            "holds {} games, not the {games} each elite plays",
            e.evaluation.games
        )));
    }
    e.evaluation.validate(features).map_err(damaged)?;
    Ok(Some(e.evaluation))
}

/// The files a command that re-plays elites keeps in the run directory: its journal, its two
/// tables and its completion record.
#[derive(Clone, Copy, Debug)]
pub struct EliteFiles {
    /// The command, for messages (`validate`).
    pub command: &'static str,
    /// What its tables hold, for messages (`validation`).
    pub what: &'static str,
    /// The journal's file name.
    pub journal: &'static str,
    /// The tables' file names: the one with a row per elite, then the summary.
    pub tables: [&'static str; 2],
    /// The completion record's file name ([`Journal::finish`]).
    pub done: &'static str,
}

impl EliteFiles {
    /// The command's journal settings: its own `settings`, then the fingerprints of `run`'s
    /// `config.toml` and of the `jobs` it plays (their cells and specs).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `config.toml` if it cannot be read.
    fn settings(
        run: &RunDir,
        settings: &[(&'static str, String)],
        jobs: &[(ArchiveRow, String)],
    ) -> Result<Vec<(&'static str, String)>> {
        let config = read_text(&run.dir.join(CONFIG_TOML), TEXT_LIMIT)?;
        let elites: String = jobs
            .iter()
            .map(|(row, spec)| format!("{} {spec}\n", row.cell))
            .collect();
        let mut all = settings.to_vec();
        all.push((CONFIG_TOML, fingerprint(&config)));
        all.push((
            "elites",
            format!("{} of cells and specs {}", jobs.len(), fingerprint(&elites)),
        ));
        Ok(all)
    }

    /// Opens the journal in `run`'s directory for `jobs` played with `settings`
    /// ([`Journal::open`]; the fingerprints of the run's `config.toml` and of the jobs' cells
    /// and specs are added to them), then makes way for the tables: existing ones are refused unless `force`, or unless the journal was
    /// kept by `resume` (the tables are then those of the interrupted command, killed after
    /// writing them and before deleting its journal, and are written again). With `resume`, a
    /// command finished with these settings ([`finished`]) is nothing to do: it says so on
    /// `out` and returns `None`, writing nothing.
    ///
    /// # Errors
    ///
    /// As [`Journal::open`] and [`finished`]; as [`prepare_out_dir`], naming `run_dir`.
    pub fn open(
        &self,
        run: &RunDir,
        settings: &[(&'static str, String)],
        jobs: &[(ArchiveRow, String)],
        resume: bool,
        force: bool,
        out: &mut impl Write,
    ) -> Result<Option<EliteJournal>> {
        let settings = Self::settings(run, settings, jobs)?;
        let path = run.dir.join(self.journal);
        if resume {
            let tables = self.tables.map(|t| run.dir.join(t));
            let done = run.dir.join(self.done);
            if let Some(f) = finished(&path, &done, &tables, &settings)? {
                let what = format!(
                    "{}: {} already holds this {}",
                    self.command,
                    run.dir.display(),
                    self.what
                );
                write!(out, "{}", f.note(&what)).map_err(output_error)?;
                return Ok(None);
            }
        }
        let journal = Journal::open(&path, &settings, resume, force)?;
        let resumed = present(&path)?;
        let owned = [self.tables[0], self.tables[1], self.done];
        prepare_out_dir(&run.dir, "run_dir", &owned, force || resumed, false)?;
        Ok(Some(journal))
    }

    /// Writes `tables` (in the order of [`EliteFiles::tables`]) into `run`'s directory, each
    /// atomically, then the completion record, deleting `journal` ([`Journal::finish`]), then
    /// prints `printed` and the tables' paths.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if a table or the record cannot be written, the journal cannot be removed
    /// or `out` cannot be written.
    pub fn write(
        &self,
        run: &RunDir,
        tables: [CsvTable; 2],
        journal: EliteJournal,
        printed: &str,
        out: &mut impl Write,
    ) -> Result<()> {
        let paths = self.tables.map(|name| run.dir.join(name));
        for (table, path) in tables.iter().zip(&paths) {
            table.write(path)?;
        }
        journal.finish(&run.dir.join(self.done))?;
        write!(
            out,
            "\n{printed}\nwrote {} and {}\n",
            paths[0].display(),
            paths[1].display()
        )
        .map_err(output_error)
    }
}

/// How a command plays its elites ([`play_elites`]).
#[derive(Clone, Copy, Debug)]
pub struct Plays {
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Play at most this many elites, then stop as if killed (for tests of `--resume`).
    pub stop_after: Option<u64>,
    /// Games per elite: the progress bar's unit, and what a journalled elite must hold.
    pub games_per_elite: u64,
    /// Features per game, which a journalled elite must hold.
    pub features: usize,
}

/// The jobs of `rows`: each elite with the run's player spec carrying its weights.
///
/// # Errors
///
/// As [`RunDir::agent_spec`].
pub fn elite_jobs<'a>(
    run: &RunDir,
    rows: impl IntoIterator<Item = &'a ArchiveRow>,
) -> Result<Vec<(ArchiveRow, String)>> {
    rows.into_iter()
        .map(|row| Ok((row.clone(), run.agent_spec(row)?)))
        .collect()
}

/// Plays the elites of `jobs` (an archive row and the agent spec to play it with) that
/// `journal` does not hold yet, in parallel with `play`, recording each as it finishes, with
/// a progress bar; says on `out` how many the journal already held. Returns every job's
/// evaluation in job order.
///
/// # Errors
///
/// [`Error::Config`] naming `--threads` if the pool cannot be built, or `--stop-after-elites`
/// when `plays.stop_after` left elites unplayed, or naming `run_dir` if the journal played an
/// elite's cell with another spec; [`Error::Data`] naming the journal if an elite there does
/// not hold `plays.games_per_elite` games of `plays.features` features; as
/// [`Journal::record`]; the first error of `play`.
pub fn play_elites(
    jobs: &[(ArchiveRow, String)],
    journal: &EliteJournal,
    plays: Plays,
    out: &mut impl Write,
    play: impl Fn(&ArchiveRow, &str) -> Result<Evaluation> + Sync,
) -> Result<Vec<Evaluation>> {
    let pool = thread_pool(plays.threads, "--threads")?;
    let mut known = Vec::with_capacity(jobs.len());
    for (row, spec) in jobs {
        known.push(done(
            journal,
            row.cell,
            spec,
            plays.games_per_elite,
            plays.features,
        )?);
    }
    let held = known.iter().filter(|e| e.is_some()).count();
    if held > 0 {
        writeln!(
            out,
            "resuming: {held} of {} elites already played",
            jobs.len()
        )
        .map_err(output_error)?;
    }
    let per_elite = plays.games_per_elite;
    let progress = Progress::new(per_elite * jobs.len() as u64, !plays.quiet);
    progress.set_position(held as u64 * per_elite);
    let mut todo: Vec<usize> = (0..jobs.len()).filter(|&i| known[i].is_none()).collect();
    todo.truncate(
        plays
            .stop_after
            .map_or(usize::MAX, |k| usize::try_from(k).unwrap_or(usize::MAX)),
    );
    let played = pool.install(|| {
        todo.par_iter()
            .map(|&i| {
                let (row, spec) = &jobs[i];
                let ev = play(row, spec)?;
                journal.record(EliteEntry {
                    cell: row.cell,
                    spec: spec.clone(),
                    evaluation: ev.clone(),
                })?;
                progress.add(per_elite);
                Ok((i, ev))
            })
            .collect::<Result<Vec<_>>>()
    })?;
    progress.finish();
    for (i, ev) in played {
        known[i] = Some(ev);
    }
    known
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            Error::config(
                "--stop-after-elites",
                format!(
                    "stopped with {} of {} elites played, as asked; continue with --resume",
                    journal.count(|_| true),
                    jobs.len()
                ),
            )
        })
}

/// The level names, comma-separated (a journal setting).
pub fn level_names<L>(levels: &[(String, L)]) -> String {
    let names: Vec<&str> = levels.iter().map(|(n, _)| n.as_str()).collect();
    names.join(",")
}

//! Re-playing a run's elites, what `validate` and `reevaluate` share: their files in the run
//! directory ([`EliteFiles`]: the journal opened, the two tables written), each elite's job (its
//! archive row and the spec that plays it, [`elite_jobs`]), and the elites played in parallel,
//! each saved to the command's [`EliteJournal`] as it finishes ([`play_elites`]).

use std::io::Write;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::journal::{Entry, Journal};
use super::run_dir::{RunDir, prepare_out_dir};
use super::{output_error, thread_pool};
use crate::error::{Error, Result};
use crate::qd::Evaluation;
use crate::report::archive::ArchiveRow;
use crate::report::csv::CsvTable;
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
}

/// The journal of a command that re-plays elites.
pub type EliteJournal = Journal<EliteEntry>;

/// The evaluation `journal` holds for the elite in `cell`, if it was played with `spec`.
///
/// # Errors
///
/// [`Error::Config`] naming `run_dir` if it was played with another spec (the archive changed
/// since).
fn done(journal: &EliteJournal, cell: usize, spec: &str) -> Result<Option<Evaluation>> {
    match journal.find(|e| e.cell == cell) {
        Some(e) if e.spec == spec => Ok(Some(e.evaluation)),
        Some(e) => Err(Error::config(
            "run_dir",
            format!(
                "{} played cell {cell} as {}, but the archive's elite there is now {spec}; \
                 pass --force instead of --resume to start over",
                journal.path().display(),
                e.spec
            ),
        )),
        None => Ok(None),
    }
}

/// The files a command that re-plays elites keeps in the run directory: its journal, and its
/// two tables.
#[derive(Clone, Copy, Debug)]
pub struct EliteFiles {
    /// The journal's file name.
    pub journal: &'static str,
    /// The tables' file names: the one with a row per elite, then the summary.
    pub tables: [&'static str; 2],
}

impl EliteFiles {
    /// Opens the journal in `run`'s directory for games played with `settings`
    /// ([`Journal::open`]), then makes way for the tables: existing ones are refused unless
    /// `force`, or unless the journal was kept by `resume` (the tables are then those of the
    /// interrupted command, killed after writing them and before deleting its journal, and
    /// are written again).
    ///
    /// # Errors
    ///
    /// As [`Journal::open`]; as [`prepare_out_dir`], naming `run_dir`.
    pub fn open(
        &self,
        run: &RunDir,
        settings: &[(&str, String)],
        resume: bool,
        force: bool,
    ) -> Result<EliteJournal> {
        let path = run.dir.join(self.journal);
        let journal = Journal::open(&path, settings, resume, force)?;
        let resumed = path.is_file();
        prepare_out_dir(&run.dir, "run_dir", &self.tables, force || resumed, false)?;
        Ok(journal)
    }

    /// Writes `tables` (in the order of [`EliteFiles::tables`]) into `run`'s directory, each
    /// atomically, deletes `journal`, then prints `printed` and the tables' paths.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if a table cannot be written, the journal cannot be removed or `out`
    /// cannot be written.
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
        journal.finish()?;
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
    /// Games per elite, for the progress bar.
    pub games_per_elite: u64,
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
/// elite's cell with another spec; as [`Journal::record`];
/// the first error of `play`.
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
        known.push(done(journal, row.cell, spec)?);
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

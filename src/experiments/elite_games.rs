//! Re-playing a run's elites, what `validate` and `reevaluate` share: each elite's job (its
//! archive row and the spec that plays it, [`elite_jobs`]), and the elites played in parallel,
//! each saved to the command's [`Journal`] as it finishes ([`play_elites`]).

use std::io::Write;

use rayon::prelude::*;

use super::journal::Journal;
use super::run_dir::RunDir;
use super::{output_error, thread_pool};
use crate::error::{Error, Result};
use crate::qd::Evaluation;
use crate::report::archive::ArchiveRow;
use crate::report::progress::Progress;

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
/// when `plays.stop_after` left elites unplayed; as [`Journal::done`] and [`Journal::record`];
/// the first error of `play`.
pub fn play_elites(
    jobs: &[(ArchiveRow, String)],
    journal: &Journal,
    plays: Plays,
    out: &mut impl Write,
    play: impl Fn(&ArchiveRow, &str) -> Result<Evaluation> + Sync,
) -> Result<Vec<Evaluation>> {
    let pool = thread_pool(plays.threads, "--threads")?;
    let mut known = Vec::with_capacity(jobs.len());
    for (row, spec) in jobs {
        known.push(journal.done(row.cell, spec)?);
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
                journal.record(row.cell, spec, &ev)?;
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
                    journal.len(),
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

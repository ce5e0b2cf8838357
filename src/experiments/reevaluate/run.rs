//! The re-evaluation: every elite re-played on the training levels, in parallel, then the
//! tables written and printed.

use std::io::Write;

use super::ReevaluateConfig;
use super::tables::{REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV, Reevaluation};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::elite_games::{EliteFiles, Plays, elite_jobs, level_names, play_elites};
use crate::experiments::evaluate::evaluate_player;
use crate::experiments::output_error;
use crate::experiments::run_dir::RunDir;
use crate::features::Feature;
use crate::limits;
use crate::qd::Evaluation;
use crate::report::archive::{ARCHIVE_CSV, ArchiveRow};
use crate::rng::derive_seed;

/// The journal of a re-evaluation under way ([`crate::experiments::journal`]).
pub const REEVALUATION_JOURNAL: &str = "reevaluated.journal.json";

/// The completion record of a finished re-evaluation, written after its tables
/// ([`crate::experiments::journal`]).
pub const REEVALUATION_DONE: &str = "reevaluated.done.json";

/// The files of a re-evaluation in the run directory.
const FILES: EliteFiles = EliteFiles {
    command: "reevaluate",
    what: "re-evaluation",
    journal: REEVALUATION_JOURNAL,
    tables: [REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV],
    done: REEVALUATION_DONE,
};

/// Tag of the re-evaluation seeds ("reeval" in ASCII); see [`elite_seed`].
pub const REEVALUATION_TAG: u64 = 0x0000_7265_6576_616c;

/// The series seed of the re-evaluation games of the elite in `cell`:
/// `derive_seed(seed, [REEVALUATION_TAG, cell])`, `seed` being `--seed` or the run seed.
pub fn elite_seed(seed: u64, cell: usize) -> u64 {
    derive_seed(seed, &[REEVALUATION_TAG, cell as u64])
}

/// Re-plays every elite of `run` on `levels` (its training levels, named for the reports) with
/// the run's `features` (resolved for the game, in axis order), builds the corrected archive,
/// writes `reevaluated.csv` and `reevaluated_summary.csv` and prints the totals (see the
/// [module docs](super)). With `cfg.resume`, a re-evaluation finished with these settings is
/// nothing to do: `None`, nothing written.
///
/// # Errors
///
/// [`Error::Data`] naming `archive.csv` if it holds no elite; [`Error::Io`] naming a file that
/// cannot be written;
/// [`Error::Config`] naming `run_dir` if an earlier re-evaluation's tables exist and `force` is
/// off (`resume` replaces those of the re-evaluation its journal continues), `--games` if
/// rounding it up overflows or the elites' games are more than [`limits::MAX_GAMES`], `levels`
/// if there is no level, `--threads` if
/// the pool cannot be built, or the agent field at fault if the run's player or baseline cannot
/// be built.
pub fn reevaluate<G: SearchSupport>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    features: &[Feature],
    run: &RunDir,
    cfg: &ReevaluateConfig,
    out: &mut impl Write,
) -> Result<Option<Reevaluation>> {
    if run.archive.rows.is_empty() {
        return Err(Error::data(
            run.dir.join(ARCHIVE_CSV),
            0,
            "holds no elite, so there is nothing to re-evaluate",
        ));
    }
    if levels.is_empty() {
        return Err(Error::config("evaluation.levels", "no level to play"));
    }
    let repetitions = cfg.games.div_ceil(levels.len() as u32);
    let per_elite = repetitions
        .checked_mul(levels.len() as u32)
        .ok_or_else(|| Error::config("--games", format!("{} is too many", cfg.games)))?;
    limits::games(
        &[
            (run.archive.rows.len() as u64, "elites"),
            (u64::from(per_elite), "games"),
        ],
        "--games",
    )?;
    let rc = &run.config;
    let seed = cfg.seed.unwrap_or(rc.seed);
    let baseline = rc.baseline.to_string();
    let jobs = elite_jobs(run, &run.archive.rows)?;
    let Some(journal) = FILES.open(
        run,
        &[
            ("levels", level_names(&levels)),
            ("--games", per_elite.to_string()),
            ("--seed", seed.to_string()),
            ("baseline", baseline.clone()),
        ],
        &jobs,
        cfg.resume,
        cfg.force,
        out,
    )?
    else {
        return Ok(None);
    };
    let rounded = if per_elite == cfg.games {
        String::new()
    } else {
        format!(
            " (--games {} rounded up to a multiple of the levels)",
            cfg.games
        )
    };
    writeln!(
        out,
        "re-evaluating {} elites of {}: {per_elite} games each ({} level{} x {repetitions}){rounded}, seed {seed}",
        jobs.len(),
        run.dir.display(),
        levels.len(),
        if levels.len() == 1 { "" } else { "s" },
    )
    .map_err(output_error)?;
    out.flush().map_err(output_error)?;
    let plays = Plays {
        threads: cfg.threads,
        quiet: cfg.quiet,
        stop_after: cfg.stop_after_elites,
        games_per_elite: u64::from(per_elite),
        features: features.len(),
    };
    let evaluations = play_elites(&jobs, &journal, plays, out, |row, spec| {
        evaluate_player(
            game,
            &levels,
            repetitions,
            elite_seed(seed, row.cell),
            spec,
            &baseline,
            features,
            &run.dir,
        )
    })?;
    let played: Vec<(ArchiveRow, Evaluation)> = jobs
        .into_iter()
        .map(|(row, _)| row)
        .zip(evaluations)
        .collect();
    let result = Reevaluation::new(run, played, per_elite, seed)?;
    let tables = [result.table(run), result.summary_table()];
    FILES.write(run, tables, journal, &result.printed(), out)?;
    Ok(Some(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::validate::VALIDATION_TAG;

    #[test]
    fn elite_seeds_are_apart_from_the_evaluation_and_validation_seeds() {
        // evolve seeds evaluation `i` with derive_seed(run seed, [i]).
        let run_seed = 7;
        let evaluations: Vec<u64> = (0..2000).map(|i| derive_seed(run_seed, &[i])).collect();
        for cell in 0..200 {
            let s = elite_seed(run_seed, cell);
            assert!(!evaluations.contains(&s), "cell {cell}");
            assert_ne!(s, derive_seed(run_seed, &[VALIDATION_TAG, cell as u64]));
            assert_ne!(s, elite_seed(run_seed + 1, cell));
        }
    }
}

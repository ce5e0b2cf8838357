//! The validation run: each chosen elite re-played on the levels, in parallel, then the tables
//! written and printed.

use std::io::Write;

use super::ValidateConfig;
use super::cells::choose_cells;
use super::tables::{
    VALIDATION_CSV, VALIDATION_SUMMARY_CSV, Validated, printed_elites, printed_summary,
    replayed_of, summary_table, validation_table,
};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::elite_games::{EliteFiles, Plays, elite_jobs, level_names, play_elites};
use crate::experiments::evaluate::evaluate_player;
use crate::experiments::output_error;
use crate::experiments::run_dir::RunDir;
use crate::features::Feature;
use crate::limits;
use crate::report::archive::ArchiveRow;
use crate::rng::derive_seed;

/// The journal of a validation under way ([`crate::experiments::journal`]).
pub const VALIDATION_JOURNAL: &str = "validation.journal.json";

/// The completion record of a finished validation, written after its tables
/// ([`crate::experiments::journal`]).
pub const VALIDATION_DONE: &str = "validation.done.json";

/// The files of a validation in the run directory.
const FILES: EliteFiles = EliteFiles {
    command: "validate",
    what: "validation",
    journal: VALIDATION_JOURNAL,
    tables: [VALIDATION_CSV, VALIDATION_SUMMARY_CSV],
    done: VALIDATION_DONE,
};

/// Tag of the validation seeds: an elite's games use `derive_seed(run seed, [VALIDATION_TAG,
/// cell])` ("validate" in ASCII).
pub const VALIDATION_TAG: u64 = 0x7661_6c69_6461_7465;

/// Validates the elites `cfg.cells` picks on `levels` (named for the reports; loaded by
/// [`crate::experiments::run_game()`] from [`level_refs`](super::level_refs)) with the run's
/// `features` (resolved for the game, in axis order), writes `validation.csv` and
/// `validation_summary.csv` and prints both. With `cfg.resume`, a validation finished with
/// these settings is nothing to do: `None`, nothing written.
///
/// # Errors
///
/// As [`choose_cells`]; [`Error::Config`] naming `--levels` if `levels` is empty,
/// `--repetitions` if the elites × levels × repetitions are more than [`limits::MAX_GAMES`],
/// `--threads` if the pool cannot be built, or the agent field at fault if the run's player or baseline
/// cannot be built; as [`replayed_of`] if the run's `reevaluated.csv` is unreadable or
/// malformed (before any game); [`Error::Io`] if a file cannot be written.
pub fn validate<G: SearchSupport>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    features: &[Feature],
    run: &RunDir,
    cfg: &ValidateConfig,
    out: &mut impl Write,
) -> Result<Option<Vec<Validated>>> {
    if levels.is_empty() {
        return Err(Error::config("--levels", "no level to play"));
    }
    let cells = choose_cells(&cfg.cells, run)?;
    limits::games(
        &[
            (cells.len() as u64, "elites"),
            (levels.len() as u64, "levels"),
            (u64::from(cfg.repetitions), "repetitions"),
        ],
        "--repetitions",
    )?;
    let rows: Vec<&ArchiveRow> = cells.iter().filter_map(|&c| run.row(c)).collect();
    let replayed = replayed_of(run, &rows)?;
    let rc = &run.config;
    let baseline = rc.baseline.to_string();
    let jobs = elite_jobs(run, rows)?;
    let Some(journal) = FILES.open(
        run,
        &[
            ("--levels", level_names(&levels)),
            ("--repetitions", cfg.repetitions.to_string()),
            ("baseline", baseline.clone()),
            ("seed", rc.seed.to_string()),
        ],
        &jobs,
        cfg.resume,
        cfg.force,
        out,
    )?
    else {
        return Ok(None);
    };
    let per_elite = levels.len() as u64 * u64::from(cfg.repetitions);
    writeln!(
        out,
        "validating {} of {}: {} each ({} x {}): {}",
        count(jobs.len(), "elite"),
        run.dir.display(),
        count(per_elite as usize, "game"),
        count(levels.len(), "level"),
        count(cfg.repetitions as usize, "repetition"),
        level_list(&levels)
    )
    .map_err(output_error)?;
    out.flush().map_err(output_error)?;
    let plays = Plays {
        threads: cfg.threads,
        quiet: cfg.quiet,
        stop_after: cfg.stop_after_elites,
        games_per_elite: per_elite,
        features: features.len(),
    };
    let evaluations = play_elites(&jobs, &journal, plays, out, |row, spec| {
        let seed = derive_seed(rc.seed, &[VALIDATION_TAG, row.cell as u64]);
        evaluate_player(
            game,
            &levels,
            cfg.repetitions,
            seed,
            spec,
            &baseline,
            features,
            &run.dir,
        )
    })?;
    let validated: Vec<Validated> = jobs
        .into_iter()
        .zip(evaluations)
        .map(|((row, _), evaluation)| Validated { row, evaluation })
        .collect();
    let summary = summary_table(run, &validated, replayed.as_deref());
    let printed = format!(
        "{}\n{}",
        printed_elites(run, &validated),
        printed_summary(&summary)
    );
    let tables = [validation_table(run, &validated), summary];
    FILES.write(run, tables, journal, &printed, out)?;
    Ok(Some(validated))
}

/// `n word` or `n words`.
fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The level names, shortened to the first few.
fn level_list<L>(levels: &[(String, L)]) -> String {
    const SHOWN: usize = 6;
    let names: Vec<&str> = levels.iter().take(SHOWN).map(|(n, _)| n.as_str()).collect();
    let more = levels.len().saturating_sub(SHOWN);
    if more > 0 {
        format!("{}, … ({more} more)", names.join(", "))
    } else {
        names.join(", ")
    }
}

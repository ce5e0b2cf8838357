//! The measurement: every genome played on the same games, in parallel, each saved to the
//! journal as it finishes; then the tables and the chart written and the effects printed.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::chart::write_charts;
use super::tables::{EFFECTS_CSV, GENOMES_CSV, GenomeGames, PlayedGame, Sensitivity};
use super::{
    CHART_PNG, CHART_SVG, JOURNAL_JSON, Probe, SensitivityConfig, extreme_probes, probes, units,
};
use crate::agent::{Agent, SearchSupport};
use crate::agents::build_agent_at;
use crate::arena::series::Series;
use crate::error::{Error, Result};
use crate::experiments::elite_games::level_names;
use crate::experiments::evaluate::{GameResult, count_runs, line_up, player_counts};
use crate::experiments::journal::{Entry, Journal};
use crate::experiments::run_dir::prepare_out_dir;
use crate::experiments::{output_error, thread_pool};
use crate::features::Feature;
use crate::limits;
use crate::report::progress::Progress;
use crate::rng::derive_seed;

/// Tag of the measurement's seed ("sensitv" in ASCII); see [`series_seed`].
pub const SENSITIVITY_TAG: u64 = 0x0073_656e_7369_7476;

/// The series seed every genome plays: `derive_seed(seed, [SENSITIVITY_TAG])`, `seed` being
/// `--seed` or the run seed (apart from the run's evaluations, `derive_seed(seed, [i])`).
pub fn series_seed(seed: u64) -> u64 {
    derive_seed(seed, &[SENSITIVITY_TAG])
}

/// One genome played, as the journal keeps it: its label, the agent spec it was played with
/// and its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GenomeEntry {
    genome: String,
    spec: String,
    games: Vec<PlayedGame>,
}

impl Entry for GenomeEntry {
    const FIELD: &'static str = "--out";
    const HOLDS: &'static str = "an interrupted measurement";
    fn same_item(&self, other: &Self) -> bool {
        self.genome == other.genome
    }
}

/// The games `journal` holds for `genome` played with `spec` (`None`: not played, or played
/// with another spec, which is then played again).
fn done(journal: &Journal<GenomeEntry>, genome: &str, spec: &str) -> Option<Vec<PlayedGame>> {
    journal
        .find(|e| e.genome == genome && e.spec == spec)
        .map(|e| e.games)
}

/// The files a measurement writes, refused without `--force`.
const OUTPUTS: [&str; 4] = [GENOMES_CSV, EFFECTS_CSV, CHART_PNG, CHART_SVG];

/// Measures the config of `cfg` with `game` on `levels` (its training levels), its `features`
/// (resolved for the game, in axis order) and evolved `scripts`: plays every genome, writes
/// the tables and the chart into `cfg.out` and prints the effects (see the
/// [module docs](super)).
///
/// # Errors
///
/// [`Error::Config`] naming `--group` for a bad group, `evaluation.levels` if there is no
/// level, `--repetitions` if the games exceed [`limits::MAX_GAMES`], `--player` (or
/// `evaluation.player`) and `evaluation.baseline` if they cannot be built, `--out` if earlier
/// results are there without `--force`, `--stop-after-genomes` when it left genomes unplayed;
/// [`Error::Io`] naming a file that cannot be written.
pub fn sensitivity<G: SearchSupport>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    features: &[Feature],
    scripts: Vec<String>,
    cfg: &SensitivityConfig,
    out: &mut impl Write,
) -> Result<Sensitivity> {
    let units = units(&scripts, &cfg.groups)?;
    if levels.is_empty() {
        return Err(Error::config("evaluation.levels", "no level to play"));
    }
    let (lo, hi) = (cfg.run.domain.min(), cfg.run.domain.max());
    let probes = probes(scripts.len(), &units, lo, hi);
    let repetitions = cfg.repetitions();
    let per_genome = u64::from(repetitions) * levels.len() as u64;
    limits::games(
        &[(probes.len() as u64, "genomes"), (per_genome, "games")],
        "--repetitions",
    )?;
    let player_field = cfg.player_field();
    let spec_of = |p: &Probe| -> Result<String> {
        cfg.player()
            .clone()
            .with_script_weights(&scripts, &p.values)
            .map(|s| format!("{s:#}"))
            .map_err(|e| named(player_field, e))
    };
    let specs: Vec<String> = probes.iter().map(spec_of).collect::<Result<_>>()?;
    let baseline = cfg.run.baseline.to_string();
    let base = Path::new("");
    let build = |s: &str| -> Result<Box<dyn Agent<G>>> { build_agent_at(game, s, base) };
    build(&specs[0]).map_err(|e| named(player_field, e))?;
    build(&baseline).map_err(|e| named("evaluation.baseline", e))?;
    let seed = series_seed(cfg.seed.unwrap_or(cfg.run.seed));
    let total = probes.len() + 2 * features.len();

    let journal_path = cfg.out.join(JOURNAL_JSON);
    std::fs::create_dir_all(&cfg.out).map_err(|e| Error::io(&cfg.out, e))?;
    // Results beside a journal are those of the interrupted measurement: written again.
    let resumed = cfg.resume && journal_path.is_file();
    let journal: Journal<GenomeEntry> = Journal::open(
        &journal_path,
        &[
            ("levels", level_names(&levels)),
            ("--repetitions", repetitions.to_string()),
            ("--seed", seed.to_string()),
            ("evaluation.baseline", baseline.clone()),
            (
                "features",
                features
                    .iter()
                    .map(|f| f.name().to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        ],
        cfg.resume,
        cfg.force,
    )?;
    prepare_out_dir(&cfg.out, "--out", &OUTPUTS, cfg.force || resumed, true)?;

    writeln!(
        out,
        "sensitivity of {}: {total} genomes x {per_genome} games ({} level{} x {repetitions}), \
         weights {lo} / {} / {hi}, player {}, seed {seed}",
        cfg.source,
        levels.len(),
        if levels.len() == 1 { "" } else { "s" },
        (lo + hi) / 2.0,
        cfg.player(),
    )
    .map_err(output_error)?;

    let known: Vec<Option<Vec<PlayedGame>>> = probes
        .iter()
        .zip(&specs)
        .map(|(p, s)| done(&journal, &p.label, s))
        .collect();
    // The extremes' weights follow from the first genomes' games: those in the journal are
    // checked against their spec once they are rebuilt.
    let held = known.iter().filter(|k| k.is_some()).count()
        + journal.count(|e| e.genome.starts_with("min:") || e.genome.starts_with("max:"));
    if held > 0 {
        writeln!(out, "resuming: {held} of {total} genomes already played")
            .map_err(output_error)?;
    }
    out.flush().map_err(output_error)?;
    let progress = Progress::with_unit(per_genome * total as u64, "games", !cfg.quiet);
    let mut budget = cfg
        .stop_after_genomes
        .map_or(usize::MAX, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let pool = thread_pool(cfg.threads, "--threads")?;
    // Plays the genomes of `probes` not yet `known`, at most `budget` of them, and returns
    // them all, or `None` if some are left unplayed.
    let mut play = |probes: &[Probe],
                    specs: &[String],
                    mut known: Vec<Option<Vec<PlayedGame>>>|
     -> Result<Option<Vec<GenomeGames>>> {
        progress.add(known.iter().filter(|k| k.is_some()).count() as u64 * per_genome);
        let mut todo: Vec<usize> = (0..probes.len()).filter(|&i| known[i].is_none()).collect();
        todo.truncate(budget);
        budget -= todo.len();
        let played = pool.install(|| {
            todo.par_iter()
                .map(|&i| {
                    let mut games = Vec::with_capacity(per_genome as usize);
                    for (range, seed) in count_runs(&player_counts(game, &levels), seed) {
                        let group = &levels[range];
                        let lineup = line_up(game, group, &specs[i], &baseline)?;
                        let series = Series::new(group.to_vec(), repetitions, seed);
                        let done = series.run(game, &lineup, build, |_, _| progress.inc())?;
                        games.extend(
                            done.iter()
                                .map(|g| PlayedGame::from(GameResult::of(game, g, features))),
                        );
                    }
                    journal.record(GenomeEntry {
                        genome: probes[i].label.clone(),
                        spec: specs[i].clone(),
                        games: games.clone(),
                    })?;
                    Ok((i, games))
                })
                .collect::<Result<Vec<_>>>()
        })?;
        for (i, games) in played {
            known[i] = Some(games);
        }
        Ok(known.into_iter().collect::<Option<Vec<_>>>().map(|all| {
            probes
                .iter()
                .cloned()
                .zip(all)
                .map(|(probe, games)| GenomeGames { probe, games })
                .collect()
        }))
    };
    let stopped = || {
        Error::config(
            "--stop-after-genomes",
            format!(
                "stopped with {} of {total} genomes played, as asked; continue with --resume",
                journal.count(|_| true),
            ),
        )
    };
    let mut genomes = play(&probes, &specs, known)?.ok_or_else(stopped)?;
    let axes = cfg.run.features.clone();
    let names: Vec<String> = axes.iter().map(|a| a.name.clone()).collect();
    let first = Sensitivity::new(scripts.clone(), axes.clone(), &units, genomes.clone(), seed);
    let extremes = extreme_probes(scripts.len(), &units, &names, &first.effects, lo, hi);
    let extreme_specs: Vec<String> = extremes.iter().map(spec_of).collect::<Result<_>>()?;
    // An extreme with the weights of a genome already played (`mid`, where no effect is clear)
    // plays its very games: they are taken over, not played again.
    let known = extremes
        .iter()
        .zip(&extreme_specs)
        .map(|(p, s)| {
            let same = genomes.iter().find(|g| g.probe.values == p.values);
            same.map(|g| g.games.clone())
                .or_else(|| done(&journal, &p.label, s))
        })
        .collect();
    genomes.extend(play(&extremes, &extreme_specs, known)?.ok_or_else(stopped)?);
    progress.finish();
    let result = Sensitivity::new(scripts, axes, &units, genomes, seed);
    let genomes_path = cfg.out.join(GENOMES_CSV);
    let effects_path = cfg.out.join(EFFECTS_CSV);
    result.genomes_table().write(&genomes_path)?;
    result.effects_table().write(&effects_path)?;
    write_charts(&result, &cfg.out)?;
    journal.finish()?;
    write!(
        out,
        "\n{}\nwrote {}, {} and {}\n",
        result.printed(),
        genomes_path.display(),
        effects_path.display(),
        cfg.out.join(CHART_PNG).display()
    )
    .map_err(output_error)?;
    Ok(result)
}

/// `e` re-named after `field`, the setting that gave the spec.
fn named(field: &str, e: Error) -> Error {
    match e {
        Error::Config {
            field: inner,
            reason,
        } => Error::config(field, format!("`{inner}`: {reason}")),
        e => e,
    }
}

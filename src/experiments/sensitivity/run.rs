//! The measurement: every genome played on the same games, in parallel, each saved to the
//! journal as it finishes; then the tables and the chart written, the completion record last,
//! and the effects printed.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::chart::write_charts;
use super::tables::{EFFECTS_CSV, GENOMES_CSV, GenomeGames, PlayedGame, Sensitivity};
use super::{
    CHART_PNG, CHART_SVG, DONE_JSON, JOURNAL_JSON, Probe, SensitivityConfig, extreme_probes,
    probes, units,
};
use crate::agent::{Agent, AgentSpec, SearchSupport};
use crate::agents::build_agent_at;
use crate::arena::series::Series;
use crate::error::{Error, Result};
use crate::experiments::calibration::chart::write_chart;
use crate::experiments::calibration::{Calibration, Tradeoff, at_strength};
use crate::experiments::elite_games::level_names;
use crate::experiments::evaluate::{GameResult, count_runs, line_up, player_counts};
use crate::experiments::journal::{Entry, Journal, fingerprint, finished};
use crate::experiments::run_config::auto_fields;
use crate::experiments::run_dir::prepare_out_dir;
use crate::experiments::sensitivity::tables::num;
use crate::experiments::{output_error, thread_pool};
use crate::features::Feature;
use crate::files::present;
use crate::limits;
use crate::qd::Domain;
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
    /// Each game as the measurement records it: not both won and drawn, and finite feature
    /// values (the feature count is checked against the axes where the entry is used).
    fn check(&self) -> std::result::Result<(), String> {
        for (j, g) in self.games.iter().enumerate() {
            if g.won && g.draw {
                return Err(format!(
                    "genome {}, game {j}: both won and drawn",
                    self.genome
                ));
            }
            if let Some(v) = g.features.iter().flatten().find(|v| !v.is_finite()) {
                return Err(format!(
                    "genome {}, game {j}: a feature value of {v}",
                    self.genome
                ));
            }
        }
        Ok(())
    }
}

/// The games `journal` holds for `genome` played with `spec` (`None`: not played, or played
/// with another spec, which is then played again).
///
/// # Errors
///
/// [`Error::Data`] naming the journal if the entry does not hold `games` games of `features`
/// features each, what every genome plays (a damaged journal).
fn done(
    journal: &Journal<GenomeEntry>,
    genome: &str,
    spec: &str,
    games: u64,
    features: usize,
) -> Result<Option<Vec<PlayedGame>>> {
    let Some(e) = journal.find(|e| e.genome == genome && e.spec == spec) else {
        return Ok(None);
    };
    let damaged = |why: String| {
        Error::data(
            journal.path(),
            0,
            format!(
                "damaged journal: genome `{genome}` {why}; pass --force instead of --resume to \
                 start over"
            ),
        )
    };
    if e.games.len() as u64 != games {
        return Err(damaged(format!(
            "holds {} games, not the {games} every genome plays",
            e.games.len()
        )));
    }
    if let Some((i, g)) = e
        .games
        .iter()
        .enumerate()
        .find(|(_, g)| g.features.len() != features)
    {
        return Err(damaged(format!(
            "game {i} has {} features, not {features}",
            g.features.len()
        )));
    }
    Ok(Some(e.games))
}

/// The files a measurement writes, refused without `--force`; the completion record,
/// written last, is theirs too.
const OUTPUTS: [&str; 4] = [GENOMES_CSV, EFFECTS_CSV, CHART_PNG, CHART_SVG];

/// The trade-off table of `--strengths` ([`Tradeoff::table`]).
pub const STRENGTHS_CSV: &str = "sensitivity_strengths.csv";
/// The trade-off chart's PNG file.
pub const STRENGTHS_PNG: &str = "sensitivity_strengths.png";
/// The trade-off chart's SVG file.
pub const STRENGTHS_SVG: &str = "sensitivity_strengths.svg";
/// The files of `--strengths`.
const STRENGTHS_OUTPUTS: [&str; 3] = [STRENGTHS_CSV, STRENGTHS_PNG, STRENGTHS_SVG];

/// What a measurement of `cfg` (with `rules`, the game's resolved `[rules]` as TOML) on
/// `levels` with the series `seed` and the evolved `scripts` depends on, as its journal and
/// completion record keep them, in the order a difference is named: the game and a fingerprint
/// of its rules, the levels, repetitions, series seed, player, baseline, the genome's domain and
/// scripts, the groups and the feature axes.
fn settings(
    cfg: &SensitivityConfig,
    player: &AgentSpec,
    rules: &str,
    levels: String,
    seed: u64,
    scripts: &[String],
    ladder: Option<&Calibration>,
) -> Vec<(&'static str, String)> {
    let domain = match &cfg.run.domain {
        Domain::Discrete(v) => format!("values {v:?}"),
        Domain::Range { lo, hi } => format!("range [{lo:?}, {hi:?}]"),
    };
    let groups: Vec<String> = cfg
        .groups
        .iter()
        .map(|(name, members)| format!("{name}={}", members.join("+")))
        .collect();
    let groups = if groups.is_empty() {
        "none".to_string()
    } else {
        groups.join(" ")
    };
    // Plain serialisable values: this cannot fail.
    let axes = serde_json::to_string(&cfg.run.features).unwrap_or_default();
    let mut settings = vec![
        ("game", cfg.game().name().to_string()),
        ("rules", fingerprint(rules)),
        ("levels", levels),
        ("--repetitions", cfg.repetitions().to_string()),
        ("--seed", seed.to_string()),
        ("player", player.to_string()),
        ("evaluation.baseline", cfg.run.baseline.to_string()),
        ("genome", domain),
        ("genome.scripts", scripts.join(",")),
        ("--group", groups),
        ("features", axes),
    ];
    // Only with a trade-off, so that the records of measurements without one still hold.
    if let Some(c) = ladder {
        let strengths: Vec<String> = c.strengths.iter().map(|s| num(*s)).collect();
        settings.push((
            "--strengths",
            format!(
                "{} {}; floor {}; z {}",
                c.field,
                strengths.join(","),
                num(c.floor),
                num(c.z)
            ),
        ));
    }
    settings
}

/// Measures the config of `cfg` with `game` (whose resolved `[rules]` are the TOML `rules`)
/// on `levels` (its training levels), its `features` (resolved for the game, in axis order)
/// and evolved `scripts`: plays every genome, writes the tables and the chart into `cfg.out`,
/// then the completion record, and prints the effects (see the [module docs](super)). With
/// `ladder` (the player's style strength resolved for the game: `--strengths`, or the
/// ladder of a player that says `auto`) it also plays the extremes at every strength and
/// writes their trade-off ([`Tradeoff`]); the other genomes play at the player's strength, or
/// at the top of the ladder where it says `auto`. With
/// `cfg.resume`, a measurement finished with these settings is nothing to do: it says so and
/// returns `None`, writing nothing.
///
/// # Errors
///
/// [`Error::Config`] naming `--group` for a bad group, `evaluation.levels` if there is no
/// level, `--repetitions` if the games of every genome, the extremes included, exceed
/// [`limits::MAX_GAMES`], `--player` (or `evaluation.player`) and `evaluation.baseline` if they
/// cannot be built, `--out` if earlier results are there without `--force`, the setting that
/// differs from those of the journal or completion record `--resume` finds,
/// `--stop-after-genomes` when it left genomes unplayed; [`Error::Data`] naming the journal if
/// an entry does not hold the games a genome plays; [`Error::Io`] naming a file that cannot be
/// written.
#[allow(clippy::too_many_arguments)] // what is measured, on what, how far, where
pub fn sensitivity<G: SearchSupport>(
    game: &G,
    rules: &str,
    levels: Vec<(String, G::Level)>,
    features: &[Feature],
    scripts: Vec<String>,
    ladder: Option<&Calibration>,
    cfg: &SensitivityConfig,
    out: &mut impl Write,
) -> Result<Option<Sensitivity>> {
    let units = units(&scripts, &cfg.groups)?;
    if levels.is_empty() {
        return Err(Error::config("evaluation.levels", "no level to play"));
    }
    let repetitions = cfg.repetitions();
    let per_genome = u64::from(repetitions) * levels.len() as u64;
    // Every genome: mid, all-low, all-high, low/high per unit, min/max per feature (and per
    // strength of the ladder).
    let rungs = ladder.map_or(0, |c| c.strengths.len());
    let total = 3 + 2 * units.len() + 2 * features.len() * (1 + rungs);
    limits::games(
        &[(total as u64, "genomes"), (per_genome, "games")],
        "--repetitions",
    )?;
    let (lo, hi) = (cfg.run.domain.min(), cfg.run.domain.max());
    let probes = probes(scripts.len(), &units, lo, hi);
    let player_field = cfg.player_field();
    // A player that says `auto` measures at the top of its ladder.
    let at = |s: f64| {
        let field = ladder.map_or("", |c| c.field.as_str());
        at_strength(cfg.player(), field, s)
    };
    let player = match ladder {
        Some(c) if auto_fields(cfg.player()).contains(&c.field.as_str()) => at(c.top()),
        _ => cfg.player().clone(),
    };
    let spec_at = |player: &AgentSpec, p: &Probe| -> Result<String> {
        player
            .clone()
            .with_script_weights(&scripts, &p.values)
            .map(|s| format!("{s:#}"))
            .map_err(|e| named(player_field, e))
    };
    let spec_of = |p: &Probe| spec_at(&player, p);
    let specs: Vec<String> = probes.iter().map(spec_of).collect::<Result<_>>()?;
    let baseline = cfg.run.baseline.to_string();
    let base = Path::new("");
    let build = |s: &str| -> Result<Box<dyn Agent<G>>> { build_agent_at(game, s, base) };
    build(&specs[0]).map_err(|e| named(player_field, e))?;
    build(&baseline).map_err(|e| named("evaluation.baseline", e))?;
    let seed = series_seed(cfg.seed.unwrap_or(cfg.run.seed));
    debug_assert_eq!(total, probes.len() + 2 * features.len() * (1 + rungs));

    let settings = settings(
        cfg,
        &player,
        rules,
        level_names(&levels),
        seed,
        &scripts,
        ladder,
    );
    let journal_path = cfg.out.join(JOURNAL_JSON);
    let done_path = cfg.out.join(DONE_JSON);
    if cfg.resume {
        let mut outputs: Vec<PathBuf> = OUTPUTS.iter().map(|f| cfg.out.join(f)).collect();
        if ladder.is_some() {
            outputs.extend(STRENGTHS_OUTPUTS.iter().map(|f| cfg.out.join(f)));
        }
        if let Some(f) = finished(&journal_path, &done_path, &outputs, &settings)? {
            let what = format!(
                "sensitivity of {}: {} already holds this measurement",
                cfg.source,
                cfg.out.display()
            );
            write!(out, "{}", f.note(&what)).map_err(output_error)?;
            return Ok(None);
        }
    }
    std::fs::create_dir_all(&cfg.out).map_err(|e| Error::io(&cfg.out, e))?;
    // Results beside a journal are those of the interrupted measurement: written again.
    let resumed = cfg.resume && present(&journal_path)?;
    let journal: Journal<GenomeEntry> =
        Journal::open(&journal_path, &settings, cfg.resume, cfg.force)?;
    let mut owned = OUTPUTS.to_vec();
    owned.extend(STRENGTHS_OUTPUTS);
    owned.push(DONE_JSON);
    // `--resume` with nothing to continue: the hint is --force, not the flag given.
    prepare_out_dir(&cfg.out, "--out", &owned, cfg.force || resumed, !cfg.resume)?;

    writeln!(
        out,
        "sensitivity of {}: {total} genomes x {per_genome} games ({} level{} x {repetitions}), \
         weights {lo} / {} / {hi}, player {}, seed {seed}",
        cfg.source,
        levels.len(),
        if levels.len() == 1 { "" } else { "s" },
        (lo + hi) / 2.0,
        player,
    )
    .map_err(output_error)?;

    let n_features = features.len();
    let known: Vec<Option<Vec<PlayedGame>>> = probes
        .iter()
        .zip(&specs)
        .map(|(p, s)| done(&journal, &p.label, s, per_genome, n_features))
        .collect::<Result<_>>()?;
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
        .map(
            |(p, s)| match genomes.iter().find(|g| g.probe.values == p.values) {
                Some(same) => Ok(Some(same.games.clone())),
                None => done(&journal, &p.label, s, per_genome, n_features),
            },
        )
        .collect::<Result<_>>()?;
    genomes.extend(play(&extremes, &extreme_specs, known)?.ok_or_else(stopped)?);
    // The trade-off: the extremes at every strength, each distinct spec played once (a spec
    // played already lends its games), journalled as `min:F@s`.
    let tradeoff = match ladder {
        None => None,
        Some(c) => {
            let played_specs: Vec<&String> = specs.iter().chain(&extreme_specs).collect();
            let (mut distinct, mut distinct_specs) = (Vec::<Probe>::new(), Vec::<String>::new());
            let mut slots = Vec::new();
            for &s in &c.strengths {
                for e in &extremes {
                    let spec = spec_at(&at(s), e)?;
                    let slot = match distinct_specs.iter().position(|d| *d == spec) {
                        Some(k) => k,
                        None => {
                            distinct.push(Probe {
                                label: format!("{}@{}", e.label, num(s)),
                                values: e.values.clone(),
                            });
                            distinct_specs.push(spec);
                            distinct.len() - 1
                        }
                    };
                    slots.push((s, e.label.clone(), slot));
                }
            }
            let known = distinct
                .iter()
                .zip(&distinct_specs)
                .map(|(p, s)| match played_specs.iter().position(|x| *x == s) {
                    Some(i) => Ok(Some(genomes[i].games.clone())),
                    None => done(&journal, &p.label, s, per_genome, n_features),
                })
                .collect::<Result<_>>()?;
            let played = play(&distinct, &distinct_specs, known)?.ok_or_else(stopped)?;
            let mut rungs: Vec<(f64, Vec<GenomeGames>)> = Vec::new();
            for (s, label, slot) in slots {
                let g = GenomeGames {
                    probe: Probe {
                        label,
                        values: played[slot].probe.values.clone(),
                    },
                    games: played[slot].games.clone(),
                };
                match rungs.last_mut() {
                    Some((last, gs)) if *last == s => gs.push(g),
                    _ => rungs.push((s, vec![g])),
                }
            }
            Some(Tradeoff::new(
                &c.field,
                cfg.run.features.clone(),
                c.floor,
                c.z,
                rungs,
            ))
        }
    };
    progress.finish();
    let result = Sensitivity::new(scripts, axes, &units, genomes, seed);
    let genomes_path = cfg.out.join(GENOMES_CSV);
    let effects_path = cfg.out.join(EFFECTS_CSV);
    result.genomes_table().write(&genomes_path)?;
    result.effects_table().write(&effects_path)?;
    write_charts(&result, &cfg.out)?;
    if let Some(t) = &tradeoff {
        t.table().write(&cfg.out.join(STRENGTHS_CSV))?;
        write_chart(
            t,
            &cfg.out.join(STRENGTHS_PNG),
            &cfg.out.join(STRENGTHS_SVG),
        )?;
    }
    journal.finish(&done_path)?;
    write!(
        out,
        "\n{}\nwrote {}, {} and {}\n",
        result.printed(),
        genomes_path.display(),
        effects_path.display(),
        cfg.out.join(CHART_PNG).display()
    )
    .map_err(output_error)?;
    if let Some(t) = &tradeoff {
        write!(
            out,
            "\n{}wrote {}\n",
            t.printed(false),
            cfg.out.join(STRENGTHS_CSV).display()
        )
        .map_err(output_error)?;
    }
    Ok(Some(result))
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

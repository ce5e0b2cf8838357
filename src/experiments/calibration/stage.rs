//! The calibration as the first stage of a run (see the [module docs](super)): what it plays
//! (`Plan`), its journal, and its three drivers — [`calibrate`] for `evolve` (plays every
//! genome here), [`ask`] and [`tell`] for `ask`/`work`/`tell` (the genomes as game tasks) —
//! which end the same way (`finish`): the tables and the chart, then `config.toml` with the
//! strength chosen, then the journal and the calibration's task folders removed.
//!
//! Where the run directory stands is read from it: its `config.toml` is the run's resolved
//! config with `auto` (the calibration is under way, its games in the journal), or the same
//! config with the strength chosen ([`recorded`]: the calibration is done).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::tradeoff::Tradeoff;
use super::{
    CALIBRATION_CSV, CHART_PNG, CHART_SVG, Calibration, JOURNAL_JSON, STRENGTHS_CSV, at_strength,
    series_seed,
};
use crate::agent::{AgentSpec, SearchSupport};
use crate::error::{Error, Result};
use crate::experiments::evolve::RunSetup;
use crate::experiments::journal::{self, Journal, fingerprint};
use crate::experiments::run_config::{RunConfig, RunFile};
use crate::experiments::run_dir::CONFIG_TOML;
use crate::experiments::sensitivity::tables::{genome_table, num};
use crate::experiments::sensitivity::{
    GenomeGames, PlayedGame, Probe, Sensitivity, Unit, extreme_probes, probes, units,
};
use crate::experiments::tasks::task::{TaskLine, parse_lines, to_lines};
use crate::experiments::tasks::work::{play_task, read_results_with_lines};
use crate::experiments::tasks::{
    BATCHES_DIR, RESULTS_DIR, TASKS_JSONL, Task, TaskPlan, results_by_task,
};
use crate::experiments::{output_error, thread_pool};
use crate::files::{DATA_LIMIT, TEXT_LIMIT, present, read_text, write_atomic};
use crate::qd::FeatureAxis;
use crate::report::progress::Progress;

use super::chart::write_chart;

/// The prefix of a calibration batch's folder under `batches/`: `calibration-0` holds the
/// first genomes' tasks, `calibration-1` the extremes'.
pub const BATCH_PREFIX: &str = "calibration-";

/// One genome played, as the journal keeps it: its spec (the player at a strength, with the
/// genome's weights: what makes its games) and its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Played {
    spec: String,
    games: Vec<PlayedGame>,
}

impl journal::Entry for Played {
    const FIELD: &'static str = "out";
    const HOLDS: &'static str = "an interrupted calibration";
    fn same_item(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
    /// Each game as the calibration records it: not both won and drawn, finite feature
    /// values (their number and the games' are checked where the entry is used).
    fn check(&self) -> std::result::Result<(), String> {
        for (j, g) in self.games.iter().enumerate() {
            if g.won && g.draw {
                return Err(format!("`{}`, game {j}: both won and drawn", self.spec));
            }
            if let Some(v) = g.features.iter().flatten().find(|v| !v.is_finite()) {
                return Err(format!("`{}`, game {j}: a feature value of {v}", self.spec));
            }
        }
        Ok(())
    }
}

/// A genome to play: a probe's weights at a strength, as the player's spec.
#[derive(Clone, Debug)]
struct Genome {
    strength: f64,
    probe: Probe,
    spec: AgentSpec,
    /// The spec as text (weights with a point): the genome's identity in the journal.
    key: String,
}

/// What the journal leaves of a calibration.
enum Next {
    /// Genomes of phase `phase` (0: the first genomes, 1: the extremes) to play, each with its
    /// index among the phase's genomes.
    Play {
        phase: u64,
        genomes: Vec<(usize, Genome)>,
    },
    /// Every game is played.
    Done(Box<Outcome>),
}

/// A finished calibration: the rows of `calibration.csv` and the trade-off.
struct Outcome {
    rows: Vec<(f64, GenomeGames)>,
    tradeoff: Tradeoff,
}

/// What a calibration of a run plays.
struct Plan<'a, L> {
    setup: &'a RunSetup<L>,
    cal: &'a Calibration,
    /// The tasks' shared part (levels, baseline, features, the `auto` config's hash), with
    /// the calibration's repetitions.
    tasks: TaskPlan,
    /// The series seed every genome plays.
    seed: u64,
    units: Vec<Unit>,
    axes: Vec<FeatureAxis>,
    /// The smallest and largest weight of the genome's domain.
    lo: f64,
    hi: f64,
    /// The archive admits a genome only once its win rate clears a floor (adaptive sampling
    /// with `min_win_rate` > 0, or the default floor still to resolve).
    floored: bool,
}

impl<'a, L> Plan<'a, L> {
    /// The calibration of `run`, resolved for `game` as `setup` (whose calibration is under
    /// way: `setup.calibration` is `Some`).
    fn new<G: SearchSupport<Level = L>>(
        game: &G,
        setup: &'a RunSetup<L>,
        run: &RunConfig,
    ) -> Result<Self> {
        let cal = setup
            .calibration
            .as_ref()
            .ok_or_else(|| Error::config("calibration", "the run has nothing to calibrate"))?;
        let mut tasks = setup.plan(game, run)?;
        tasks.repetitions = cal.repetitions;
        Ok(Plan {
            setup,
            cal,
            tasks,
            seed: series_seed(run.seed),
            units: units(&setup.scripts, &[])?,
            axes: run.features.clone(),
            lo: run.domain.min(),
            hi: run.domain.max(),
            floored: run.floor_pending
                || run.adaptive.as_ref().is_some_and(|a| a.min_win_rate > 0.0),
        })
    }

    /// Games a genome plays: levels × repetitions.
    fn per_genome(&self) -> u64 {
        self.tasks.games_per_evaluation() as u64
    }

    /// `probe` played at `strength`.
    fn genome(&self, strength: f64, probe: Probe) -> Result<Genome> {
        let spec = at_strength(&self.setup.player, &self.cal.field, strength)
            .with_script_weights(&self.setup.scripts, &probe.values)?;
        let key = format!("{spec:#}");
        Ok(Genome {
            strength,
            probe,
            spec,
            key,
        })
    }

    /// The first genomes: `sensitivity`'s, at the top of the ladder.
    fn first(&self) -> Result<Vec<Genome>> {
        probes(self.setup.scripts.len(), &self.units, self.lo, self.hi)
            .into_iter()
            .map(|p| self.genome(self.cal.top(), p))
            .collect()
    }

    /// The extremes at every strength, per strength in ladder order, from the first genomes'
    /// games.
    fn ladder(&self, first: &[GenomeGames]) -> Result<Vec<(f64, Vec<Genome>)>> {
        let measured = Sensitivity::new(
            self.setup.scripts.clone(),
            self.axes.clone(),
            &self.units,
            first.to_vec(),
            self.seed,
        );
        let names: Vec<String> = self.axes.iter().map(|a| a.name.clone()).collect();
        let extremes = extreme_probes(
            self.setup.scripts.len(),
            &self.units,
            &names,
            &measured.effects,
            self.lo,
            self.hi,
        );
        self.cal
            .strengths
            .iter()
            .map(|&s| {
                let genomes = extremes
                    .iter()
                    .map(|p| self.genome(s, p.clone()))
                    .collect::<Result<_>>()?;
                Ok((s, genomes))
            })
            .collect()
    }

    /// The games `journal` holds for `genome` (`None`: not played).
    ///
    /// # Errors
    ///
    /// [`Error::Data`] naming the journal if the entry does not hold every game of the genome
    /// with every feature (a damaged journal).
    fn known(&self, journal: &Journal<Played>, genome: &Genome) -> Result<Option<Vec<PlayedGame>>> {
        let Some(e) = journal.find(|e| e.spec == genome.key) else {
            return Ok(None);
        };
        let features = self.axes.len();
        let games = self.per_genome() as usize;
        if e.games.len() != games || e.games.iter().any(|g| g.features.len() != features) {
            return Err(Error::data(
                journal.path(),
                0,
                format!(
                    "damaged journal: `{}` does not hold {games} games of {features} features \
                     each; pass --force instead of --resume to start over",
                    genome.key
                ),
            ));
        }
        Ok(Some(e.games))
    }

    /// What is left to play, or the outcome when nothing is.
    fn next(&self, journal: &Journal<Played>) -> Result<Next> {
        let first = self.first()?;
        let first_games = first
            .iter()
            .map(|g| self.known(journal, g))
            .collect::<Result<Vec<_>>>()?;
        if first_games.iter().any(Option::is_none) {
            return Ok(Next::Play {
                phase: 0,
                genomes: pending(first, &first_games),
            });
        }
        let mut games: BTreeMap<String, Vec<PlayedGame>> = BTreeMap::new();
        let mut first_played = Vec::new();
        for (g, played) in first.iter().zip(first_games.into_iter().flatten()) {
            games.insert(g.key.clone(), played.clone());
            first_played.push(GenomeGames {
                probe: g.probe.clone(),
                games: played,
            });
        }
        let ladder = self.ladder(&first_played)?;
        // The extremes' distinct specs not played first, in ladder order: the second phase.
        let mut second: Vec<Genome> = Vec::new();
        for g in ladder.iter().flat_map(|(_, gs)| gs) {
            if !games.contains_key(&g.key) && !second.iter().any(|s| s.key == g.key) {
                second.push(g.clone());
            }
        }
        let second_games = second
            .iter()
            .map(|g| self.known(journal, g))
            .collect::<Result<Vec<_>>>()?;
        if second_games.iter().any(Option::is_none) {
            return Ok(Next::Play {
                phase: 1,
                genomes: pending(second, &second_games),
            });
        }
        for (g, played) in second.iter().zip(second_games.into_iter().flatten()) {
            games.insert(g.key.clone(), played);
        }
        let played = |g: &Genome| GenomeGames {
            probe: g.probe.clone(),
            games: games.get(&g.key).cloned().unwrap_or_default(),
        };
        let mut rows = Vec::new();
        let mut rungs = Vec::new();
        for (s, extremes) in &ladder {
            if *s == self.cal.top() {
                rows.extend(first.iter().map(|g| (g.strength, played(g))));
            }
            let extremes: Vec<GenomeGames> = extremes.iter().map(played).collect();
            rows.extend(extremes.iter().map(|g| (*s, g.clone())));
            rungs.push((*s, extremes));
        }
        let tradeoff = Tradeoff::new(
            &self.cal.field,
            self.axes.clone(),
            self.cal.floor,
            self.cal.z,
            rungs,
        );
        Ok(Next::Done(Box::new(Outcome { rows, tradeoff })))
    }

    /// The tasks of `genomes` (each with its index in its phase) of phase `phase`.
    fn tasks(&self, phase: u64, genomes: &[(usize, Genome)]) -> Vec<Task> {
        let reps = self.cal.repetitions as usize;
        genomes
            .iter()
            .flat_map(|(i, g)| {
                self.tasks
                    .series_tasks(phase, *i as u64, &g.spec, self.seed, 0..reps)
            })
            .collect()
    }
}

/// The genomes of `all` without games in `known`, each with its index.
fn pending(all: Vec<Genome>, known: &[Option<Vec<PlayedGame>>]) -> Vec<(usize, Genome)> {
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| known[*i].is_none())
        .collect()
}

/// The calibration's journal in `dir`, bound to the run's `config.toml` with `auto`.
fn open_journal<L>(dir: &Path, setup: &RunSetup<L>) -> Result<Journal<Played>> {
    let settings = [(CONFIG_TOML, fingerprint(&setup.config_toml))];
    Journal::open(&dir.join(JOURNAL_JSON), &settings, true, false)
}

/// The resolved config `auto_toml` (a player whose `field` says `auto`) with the strength
/// `chosen` in place of `auto` and `chosen` in `[calibration]`: what `config.toml` holds
/// once the calibration is done.
///
/// # Errors
///
/// [`Error::Config`] naming `config` if `auto_toml` is not a resolved run config.
pub fn calibrated_toml(auto_toml: &str, field: &str, chosen: f64) -> Result<String> {
    let bad = |e: String| Error::config("config", e);
    let mut file: RunFile = toml::from_str(auto_toml).map_err(|e| bad(e.to_string()))?;
    let player = file
        .evaluation
        .player
        .as_deref()
        .ok_or_else(|| bad("a resolved config names its player".into()))?;
    let player = at_strength(&AgentSpec::parse(player)?, field, chosen);
    file.evaluation.player = Some(player.to_string());
    file.calibration.get_or_insert_default().chosen = Some(chosen);
    toml::to_string(&file).map_err(|e| bad(e.to_string()))
}

/// `setup` once calibrated to `chosen`: its player at that strength, its `config.toml`
/// `config_toml`, nothing left to calibrate.
fn settled<L: Clone>(
    setup: &RunSetup<L>,
    cal: &Calibration,
    chosen: f64,
    config_toml: String,
) -> RunSetup<L> {
    RunSetup {
        player: at_strength(&setup.player, &cal.field, chosen),
        config_toml,
        calibration: None,
        ..setup.clone()
    }
}

/// The run `setup` (whose calibration is under way) as calibrated, if the run directory `dir`
/// records its calibration done: its `config.toml` is `setup`'s resolved config with a
/// strength chosen in place of `auto` ([`calibrated_toml`]). `None` otherwise (no calibration
/// to do, no `config.toml`, or another one).
///
/// # Errors
///
/// [`Error::Io`] naming `config.toml` if it cannot be read.
pub fn recorded<L: Clone>(dir: &Path, setup: &RunSetup<L>) -> Result<Option<RunSetup<L>>> {
    let Some(cal) = &setup.calibration else {
        return Ok(None);
    };
    let path = dir.join(CONFIG_TOML);
    if !present(&path)? {
        return Ok(None);
    }
    let on_disk = read_text(&path, TEXT_LIMIT)?;
    let chosen = toml::from_str::<RunFile>(&on_disk)
        .ok()
        .and_then(|f| f.calibration)
        .and_then(|c| c.chosen);
    let Some(chosen) = chosen else {
        return Ok(None);
    };
    if calibrated_toml(&setup.config_toml, &cal.field, chosen)? != on_disk {
        return Ok(None);
    }
    Ok(Some(settled(setup, cal, chosen, on_disk)))
}

/// Removes what a finished calibration leaves behind when a kill stopped it between writing
/// `config.toml` and cleaning up: its journal, its task folders under `batches/` (and
/// `batches/` if that leaves it empty). Nothing else is touched.
///
/// # Errors
///
/// [`Error::Io`] naming what cannot be removed.
pub fn tidy(dir: &Path) -> Result<()> {
    let journal = dir.join(JOURNAL_JSON);
    if present(&journal)? {
        std::fs::remove_file(&journal).map_err(|e| Error::io(&journal, e))?;
    }
    remove_batches(dir, u64::MAX)
}

/// Removes the calibration's task folders of phases before `phase` (`u64::MAX`: all), then
/// `batches/` if that left it empty.
fn remove_batches(dir: &Path, phase: u64) -> Result<()> {
    crate::experiments::tasks::ask::remove_batch_folders(dir, |name| {
        name.strip_prefix(BATCH_PREFIX)
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|p| p < phase)
    })
}

/// The folder of the calibration's phase `phase` in `dir`.
fn batch_folder(dir: &Path, phase: u64) -> PathBuf {
    dir.join(BATCHES_DIR).join(format!("{BATCH_PREFIX}{phase}"))
}

/// Ends a calibration: writes `calibration.csv`, `calibration_strengths.csv` and the chart,
/// then `config.toml` with the strength chosen, then removes the journal and the task
/// folders; prints the trade-off on `out`. Returns the run as calibrated.
///
/// # Errors
///
/// [`Error::Io`] naming a file that cannot be written or removed.
fn finish<L: Clone>(
    dir: &Path,
    plan: &Plan<'_, L>,
    outcome: &Outcome,
    out: &mut impl Write,
) -> Result<RunSetup<L>> {
    let leading = ["strength", "genome"];
    let rows = outcome
        .rows
        .iter()
        .map(|(s, g)| (vec![num(*s), g.probe.label.clone()], g));
    genome_table(&plan.setup.scripts, &plan.axes, &leading, rows, plan.cal.z)
        .write(&dir.join(CALIBRATION_CSV))?;
    let t = &outcome.tradeoff;
    t.table().write(&dir.join(STRENGTHS_CSV))?;
    write_chart(t, &dir.join(CHART_PNG), &dir.join(CHART_SVG))?;
    let chosen = t.chosen_strength();
    let config_toml = calibrated_toml(&plan.setup.config_toml, &plan.cal.field, chosen)?;
    // The completion record: from here on the run breeds with the strength chosen.
    write_atomic(&dir.join(CONFIG_TOML), config_toml.as_bytes())?;
    tidy(dir)?;
    write!(out, "{}", t.printed(plan.floored)).map_err(output_error)?;
    Ok(settled(plan.setup, plan.cal, chosen, config_toml))
}

/// What the calibration of `evolve` did.
#[derive(Clone, Debug)]
pub struct Calibrated<L> {
    /// The run, calibrated.
    pub setup: RunSetup<L>,
    /// Games played now.
    pub games: u64,
}

/// Calibrates the run `run` resolved as `setup` in its directory `dir` (whose `config.toml` is
/// `setup`'s, with `auto`), on `threads` worker threads, continuing from the journal: plays
/// every genome not yet played, each saved to the journal as it finishes, then
/// finishes (`finish`). Progress goes to standard error (unless `quiet`), the header and the
/// trade-off to `out`.
///
/// # Errors
///
/// As [`play_task`] for a game that cannot be played; [`Error::Data`] naming the journal if
/// it is damaged; [`Error::Io`] naming a file that cannot be written.
#[allow(clippy::too_many_arguments)] // the run, where it is, how it is played and shown
pub fn calibrate<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    run: &RunConfig,
    dir: &Path,
    threads: Option<usize>,
    quiet: bool,
    out: &mut impl Write,
) -> Result<Calibrated<G::Level>> {
    let started = std::time::Instant::now();
    let plan = Plan::new(game, setup, run)?;
    let journal = open_journal(dir, setup)?;
    let cal = plan.cal;
    let strengths: Vec<String> = cal.strengths.iter().map(|s| num(*s)).collect();
    let per_genome = plan.per_genome();
    writeln!(
        out,
        "calibration of {}: `{}` at {} against {}, {per_genome} games a genome ({} level{} x {}), \
         floor {:.1} %, z = {}",
        run.name,
        cal.field,
        strengths.join(", "),
        setup.baseline,
        setup.levels.len(),
        if setup.levels.len() == 1 { "" } else { "s" },
        cal.repetitions,
        100.0 * cal.floor,
        cal.z,
    )
    .map_err(output_error)?;
    out.flush().map_err(output_error)?;
    // At most: the first genomes, then two extremes per feature at every strength.
    let most = (plan.first()?.len() + 2 * plan.axes.len() * cal.strengths.len()) as u64;
    let progress = Progress::with_unit(most * per_genome, "games", !quiet);
    let pool = thread_pool(threads, "threads")?;
    let mut games = 0;
    let outcome = loop {
        let (phase, genomes) = match plan.next(&journal)? {
            Next::Done(outcome) => break outcome,
            Next::Play { phase, genomes } => (phase, genomes),
        };
        let reps = cal.repetitions as usize;
        let played = pool.install(|| {
            genomes
                .par_iter()
                .map(|(i, g)| -> Result<()> {
                    let tasks =
                        plan.tasks
                            .series_tasks(phase, *i as u64, &g.spec, plan.seed, 0..reps);
                    let mut games = Vec::with_capacity(tasks.len());
                    for t in &tasks {
                        let level = setup
                            .levels
                            .iter()
                            .find(|(name, _)| *name == t.level)
                            .map(|(_, l)| l)
                            .ok_or_else(|| {
                                Error::config("level", format!("`{}` is not a level", t.level))
                            })?;
                        let r = play_task(game, level, &setup.features, t, dir)?;
                        progress.inc();
                        games.push(PlayedGame::from(r.game_result()));
                    }
                    journal.record(Played {
                        spec: g.key.clone(),
                        games,
                    })
                })
                .collect::<Vec<Result<()>>>()
        });
        if let Some(e) = played.into_iter().find_map(Result::err) {
            progress.finish();
            return Err(e);
        }
        games += genomes.len() as u64 * per_genome;
    };
    progress.finish();
    let setup = finish(dir, &plan, &outcome, out)?;
    writeln!(
        out,
        "calibration: {games} games played in {:.1} s",
        started.elapsed().as_secs_f64()
    )
    .map_err(output_error)?;
    Ok(Calibrated { setup, games })
}

/// What the calibration's `ask` did.
#[derive(Clone, Debug)]
pub enum Asked<L> {
    /// It wrote (or found) the task file of the next genomes.
    Tasks(PathBuf),
    /// Every game was played already: the calibration is finished now (the run, calibrated).
    Calibrated(Box<RunSetup<L>>),
}

/// `ask` during the calibration of the run `run` resolved as `setup` in `dir`: writes the
/// tasks of the genomes left to play, of the earliest phase that has any, to
/// `batches/calibration-P/tasks.jsonl` (unless it holds them already) and removes the folders
/// of earlier phases; with nothing left to play, finishes (`finish`, printing on `out`).
///
/// # Errors
///
/// [`Error::Data`] naming the journal if it is damaged; [`Error::Io`] naming a file that
/// cannot be written.
pub fn ask<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    run: &RunConfig,
    dir: &Path,
    out: &mut impl Write,
) -> Result<Asked<G::Level>> {
    let plan = Plan::new(game, setup, run)?;
    let journal = open_journal(dir, setup)?;
    let (phase, genomes) = match plan.next(&journal)? {
        Next::Done(outcome) => {
            return finish(dir, &plan, &outcome, out).map(|s| Asked::Calibrated(Box::new(s)));
        }
        Next::Play { phase, genomes } => (phase, genomes),
    };
    remove_batches(dir, phase)?;
    let lines: Vec<TaskLine> = plan
        .tasks(phase, &genomes)
        .iter()
        .map(TaskLine::from)
        .collect();
    let text = to_lines(&lines);
    let folder = batch_folder(dir, phase);
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    let path = folder.join(TASKS_JSONL);
    // Whatever is there is read (a link, a FIFO or a folder refused by name), not replaced.
    let same = present(&path)? && read_text(&path, DATA_LIMIT)? == text;
    if !same {
        write_atomic(&path, text.as_bytes())?;
    }
    Ok(Asked::Tasks(path))
}

/// What the calibration's `tell` did.
#[derive(Clone, Debug)]
pub enum Told {
    /// The results of phase `phase` were taken; `done`: that finished the calibration.
    Batch {
        /// The phase told.
        phase: u64,
        /// True if the calibration is finished.
        done: bool,
    },
    /// Nothing was asked: the next phase has no task file yet.
    Nothing,
}

/// `tell` during the calibration of the run `run` resolved as `setup` in `dir`: checks the
/// results of the phase asked for against its tasks, saves each genome's games to the journal
/// (all at once), removes the phase's folder and, after the last phase, finishes (`finish`). One
/// line on `out` (and the trade-off when finished).
///
/// # Errors
///
/// An error naming the phase's `results` folder and the tasks without a result, the foreign
/// results and the doubled ones ([`results_by_task`]); naming `tasks.jsonl` if it does not
/// hold the tasks the calibration expects; [`Error::Io`] naming a file that cannot be written.
pub fn tell<G: SearchSupport>(
    game: &G,
    setup: &RunSetup<G::Level>,
    run: &RunConfig,
    dir: &Path,
    out: &mut impl Write,
) -> Result<Told> {
    let plan = Plan::new(game, setup, run)?;
    let journal = open_journal(dir, setup)?;
    let (phase, genomes) = match plan.next(&journal)? {
        Next::Done(outcome) => {
            writeln!(
                out,
                "tell {}: every calibration game is told",
                dir.display()
            )
            .map_err(output_error)?;
            finish(dir, &plan, &outcome, out)?;
            return Ok(Told::Batch {
                phase: 1,
                done: true,
            });
        }
        Next::Play { phase, genomes } => (phase, genomes),
    };
    // A phase told by a `tell` killed before it removed the phase's folder.
    remove_batches(dir, phase)?;
    let folder = batch_folder(dir, phase);
    let tasks_path = folder.join(TASKS_JSONL);
    if !present(&tasks_path)? {
        writeln!(
            out,
            "tell {}: nothing to tell, calibration batch {phase} has not been asked (run `{} \
             ask`)",
            dir.display(),
            crate::experiments::game_kind::program()
        )
        .map_err(output_error)?;
        return Ok(Told::Nothing);
    }
    let tasks = plan.tasks(phase, &genomes);
    let on_disk: Vec<TaskLine> = parse_lines(&tasks_path, &read_text(&tasks_path, DATA_LIMIT)?)?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    if !on_disk.into_iter().eq(tasks.iter().map(TaskLine::from)) {
        return Err(Error::data(
            &tasks_path,
            0,
            format!(
                "does not hold the {} tasks of calibration batch {phase} of this run (ask again \
                 to rewrite it)",
                tasks.len()
            ),
        ));
    }
    let results_dir = folder.join(RESULTS_DIR);
    let found = read_results_with_lines(&results_dir)?
        .into_iter()
        .flat_map(|(name, v)| {
            v.into_iter()
                .map(move |(r, line)| (r, format!("{name}:{line}")))
        })
        .collect();
    let results = results_by_task(&tasks, found, plan.axes.len(), &results_dir)?;
    let mut by_genome: BTreeMap<u64, Vec<PlayedGame>> = BTreeMap::new();
    for r in results {
        by_genome
            .entry(r.evaluation)
            .or_default()
            .push(PlayedGame::from(r.game_result()));
    }
    let entries = genomes
        .iter()
        .map(|(i, g)| Played {
            spec: g.key.clone(),
            games: by_genome.remove(&(*i as u64)).unwrap_or_default(),
        })
        .collect();
    journal.record_all(entries)?;
    remove_batches(dir, phase + 1)?;
    match plan.next(&journal)? {
        Next::Done(outcome) => {
            writeln!(
                out,
                "tell {}: calibration batch {phase} told ({} genomes); calibration finished",
                dir.display(),
                genomes.len()
            )
            .map_err(output_error)?;
            finish(dir, &plan, &outcome, out)?;
            Ok(Told::Batch { phase, done: true })
        }
        Next::Play { .. } => {
            writeln!(
                out,
                "tell {}: calibration batch {phase} told ({} genomes)",
                dir.display(),
                genomes.len()
            )
            .map_err(output_error)?;
            Ok(Told::Batch { phase, done: false })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTO: &str = r#"name = "t"
game = "puerto-rico"
seed = 1
batch_size = 10

[rules]

[evaluation]
levels = ["2"]
repetitions = 4
player = "pmcts(budget=5,persona=auto)"
baseline = "mcts(budget=5)"

[genome]
scripts = ["a"]
values = [0.0, 1.0]

[[features]]
name = "f"
min = 0.0
max = 10.0
step = 2.0

[map_elites]
one_hot = true
random_init = 1
iterations = 1
replacement = "paper"
emitter = "schedule"

[calibration]
strengths = [0.0, 2.0]
floor = 0.5
z = 1.0
repetitions = 4
"#;

    #[test]
    fn the_calibrated_config_names_the_strength_chosen_in_place_of_auto() {
        let file: RunFile = toml::from_str(AUTO).unwrap();
        let auto = toml::to_string(&file).unwrap();
        let text = calibrated_toml(&auto, "persona", 2.0).unwrap();
        let expected = auto.replace("persona=auto", "persona=2.0") + "chosen = 2.0\n";
        assert_eq!(text, expected);
        let run = RunConfig::parse(&text, "t").unwrap();
        assert_eq!(run.auto_field(), None);
        assert_eq!(run.calibration.unwrap().chosen, Some(2.0));
        assert_eq!(
            RunConfig::parse(&auto, "t").unwrap().auto_field(),
            Some("persona")
        );
    }
}

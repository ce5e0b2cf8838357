//! MAP-Elites as ask/tell: the emitter proposes a batch, the caller evaluates it, the archive
//! takes the results.
//!
//! Determinism: batch `k`'s RNG is `derive_rng(seed, &[k])`, every genome carries its global
//! evaluation index, [`Batch::evaluate`] collects results in index order whatever the thread
//! count, and [`MapElites::tell`] adds them serially in that order. A run therefore ends with the
//! same archive on 1 or 64 threads, and a run resumed from a [`Checkpoint`] taken after any
//! batch ends with the same archive as an uninterrupted one.
//!
//! With adaptive sampling ([`MapElitesConfig::adaptive`], rules in [`super::adaptive`]) a
//! batch also holds further rounds of games ([`Batch::plays`]): of the candidates whose place
//! is not decided yet and of the elites they challenge. The new genomes play their first round;
//! [`MapElites::tell`] merges every round into its genome's record, moves re-played elites
//! whose means left their cell, and judges every undecided candidate in index order. The
//! undecided candidates and the elites to re-play are part of the checkpoint, and the run goes
//! on after the emitter's schedule until none is left.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::adaptive::{Adaptive, Pending, Verdict};
use super::archive::{AddStatus, Elite, GridArchive};
use super::axis::FeatureAxis;
use super::checkpoint::{CHECKPOINT_VERSION, Checkpoint};
use super::emitter::{EmitterConfig, ScheduleEmitter};
use super::evaluation::Evaluation;
use super::genome::{Genome, GenomeSpace};
use super::replacement::Replacement;
use crate::error::{Error, Result};
use crate::rng::{derive_rng, hash_bytes};

/// Everything that defines a MAP-Elites run (the engine's part; the game settings belong to
/// the caller's evaluation function).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapElitesConfig {
    /// The run seed.
    pub seed: u64,
    /// Genomes per batch (≥ 1): evaluated in parallel, then told together.
    pub batch_size: usize,
    /// The weights' names and domain.
    pub space: GenomeSpace,
    /// The feature axes (1–3).
    pub axes: Vec<FeatureAxis>,
    /// When a candidate replaces an elite.
    pub replacement: Replacement,
    /// The schedule: one-hot, random genomes and offspring, and how offspring are made.
    pub emitter: EmitterConfig,
    /// Adaptive sampling (`None`: every genome plays all its games at once); left out of the
    /// JSON (and so of the hash) when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<Adaptive>,
}

impl MapElitesConfig {
    /// Checks every part; the error names the field.
    pub fn validate(&self) -> Result<()> {
        if self.batch_size == 0 {
            return Err(Error::config("batch_size", "must be at least 1"));
        }
        self.space.validate()?;
        if let Some(a) = &self.adaptive {
            a.validate()?;
        }
        self.emitter
            .validate(&self.space.domain, Some(self.space.dim()))?;
        GridArchive::new(self.axes.clone(), self.replacement).map(|_| ())
    }

    /// A stable 64-bit hash of the configuration (of its JSON form), stored in checkpoints.
    /// The emitter kind is in it unless it is the default schedule, so configs written before
    /// the kind existed keep their hash.
    pub fn hash(&self) -> u64 {
        hash_bytes(&serde_json::to_vec(self).unwrap_or_default())
    }
}

/// Genomes to evaluate, from [`MapElites::ask`]; [`MapElites::tell`] consumes it.
#[derive(Debug)]
pub struct Batch {
    number: u64,
    first_index: u64,
    genomes: Vec<Genome>,
    emitter_after: ScheduleEmitter,
    /// Adaptive sampling: further rounds of genomes told before, in index order.
    rounds: Vec<(u64, Genome, Range<u32>)>,
    /// Adaptive sampling: the repetitions of the new genomes' first round.
    first_round: Option<Range<u32>>,
}

/// One genome's games in a batch: a new genome's (all of them, or with adaptive sampling its
/// first round), or a further round of a genome told before.
#[derive(Clone, Debug, PartialEq)]
pub struct Play<'a> {
    /// The genome's evaluation index.
    pub index: u64,
    /// The genome.
    pub genome: &'a Genome,
    /// The repetitions (per level) to play; `None`: all of the run's (no adaptive sampling).
    pub repetitions: Option<Range<u32>>,
}

impl Batch {
    /// The batch number (0-based); its RNG is `derive_rng(seed, &[number])`.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Evaluation index of the first genome; genome `i` has index `first_index + i`.
    pub fn first_index(&self) -> u64 {
        self.first_index
    }

    /// The new genomes, in evaluation-index order.
    pub fn genomes(&self) -> &[Genome] {
        &self.genomes
    }

    /// Everything the batch plays, in evaluation-index order: with adaptive sampling the
    /// further rounds of genomes told before, then the new genomes' first rounds; without,
    /// the new genomes. [`MapElites::tell`] takes one evaluation per play, in this order.
    pub fn plays(&self) -> Vec<Play<'_>> {
        let rounds = self.rounds.iter().map(|(index, genome, r)| Play {
            index: *index,
            genome,
            repetitions: Some(r.clone()),
        });
        let new = self.genomes.iter().enumerate().map(|(i, genome)| Play {
            index: self.first_index + i as u64,
            genome,
            repetitions: self.first_round.clone(),
        });
        rounds.chain(new).collect()
    }

    /// Evaluates every genome in parallel (rayon's current pool), collecting the results in
    /// index order. `evaluate` gets the genome and its evaluation index. (Without adaptive
    /// sampling; with it, evaluate [`Batch::plays`].)
    pub fn evaluate<F>(&self, evaluate: &F) -> Vec<Evaluation>
    where
        F: Fn(&Genome, u64) -> Evaluation + Sync,
    {
        self.genomes
            .par_iter()
            .enumerate()
            .map(|(i, g)| evaluate(g, self.first_index + i as u64))
            .collect()
    }
}

/// Progress after one batch (a row of `progress.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchReport {
    /// The batch's number (0-based).
    pub batch: u64,
    /// Evaluations told so far.
    pub evaluations: u64,
    /// Games played so far.
    pub games: u64,
    /// Elites in the archive.
    pub elites: usize,
    /// Occupied cells / all cells.
    pub coverage: f64,
    /// Σ elite fitness.
    pub qd_score: f64,
    /// Best elite fitness (`None` while the archive is empty).
    pub max_fitness: Option<f64>,
    /// Mean elite fitness (`None` while the archive is empty).
    pub mean_fitness: Option<f64>,
    /// Wall-clock seconds of this batch (evaluation and insertion).
    pub seconds: f64,
}

/// A MAP-Elites run: archive, emitter and counters.
#[derive(Clone, Debug)]
pub struct MapElites {
    config: MapElitesConfig,
    config_hash: u64,
    archive: GridArchive,
    emitter: ScheduleEmitter,
    next_batch: u64,
    games: u64,
    pending: Vec<Pending>,
    replays: Vec<u64>,
}

impl MapElites {
    /// A fresh run.
    pub fn new(config: MapElitesConfig) -> Result<Self> {
        config.validate()?;
        let archive = GridArchive::new(config.axes.clone(), config.replacement)?;
        let emitter = ScheduleEmitter::new(config.space.clone(), config.emitter.clone());
        Ok(MapElites {
            config_hash: config.hash(),
            config,
            archive,
            emitter,
            next_batch: 0,
            games: 0,
            pending: Vec::new(),
            replays: Vec::new(),
        })
    }

    /// Continues a run from its checkpoint; `config` must be the one that wrote it.
    ///
    /// # Errors
    ///
    /// If the checkpoint is of another version or configuration, or inconsistent.
    pub fn resume(config: MapElitesConfig, checkpoint: Checkpoint) -> Result<Self> {
        config.validate()?;
        Self::try_resume(config, checkpoint).map_err(|reason| Error::config("checkpoint", reason))
    }

    /// Reads the checkpoint at `path` and continues the run; every error about the checkpoint
    /// names the file.
    pub fn resume_file(config: MapElitesConfig, path: &Path) -> Result<Self> {
        config.validate()?;
        let checkpoint = Checkpoint::load(path)?;
        Self::try_resume(config, checkpoint).map_err(|reason| Error::data(path, 0, reason))
    }

    /// Resumes from a checkpoint with a validated `config`; the error is the reason.
    fn try_resume(config: MapElitesConfig, cp: Checkpoint) -> std::result::Result<Self, String> {
        let mut me = Self::new(config).map_err(|e| e.to_string())?;
        if cp.version != CHECKPOINT_VERSION {
            return Err(format!(
                "version {}, this build reads version {CHECKPOINT_VERSION}",
                cp.version
            ));
        }
        if cp.config_hash != me.config_hash {
            return Err(format!(
                "was written by another configuration (hash {:#x}, this one is {:#x})",
                cp.config_hash, me.config_hash
            ));
        }
        if cp.archive.axes() != me.config.axes.as_slice()
            || cp.archive.replacement() != me.config.replacement
        {
            return Err("archive's features or rule differ from the configuration".into());
        }
        if cp.evaluations != cp.archive.offered() || cp.evaluations != cp.emitter.total() {
            return Err(format!(
                "counts disagree: {} evaluations, {} offered to the archive, {} emitted",
                cp.evaluations,
                cp.archive.offered(),
                cp.emitter.total()
            ));
        }
        if !me.emitter.is_reachable(cp.emitter) {
            return Err(format!(
                "emitter state {:?} does not fit the schedule",
                cp.emitter
            ));
        }
        for (cell, e) in cp.archive.elites() {
            me.config
                .space
                .check(&e.genome)
                .map_err(|err| format!("elite of cell {cell}: {err}"))?;
        }
        if me.config.adaptive.is_none() && !(cp.pending.is_empty() && cp.replays.is_empty()) {
            return Err("holds undecided candidates, but the run has no adaptive sampling".into());
        }
        let features = me.config.axes.len();
        for p in &cp.pending {
            let what = |err: String| format!("undecided candidate {}: {err}", p.index);
            me.config
                .space
                .check(&p.genome)
                .map_err(|e| what(e.to_string()))?;
            p.evaluation.validate(features).map_err(what)?;
            if p.index >= cp.evaluations {
                return Err(what("index beyond the evaluations told".into()));
            }
        }
        me.pending = cp.pending;
        me.replays = cp.replays;
        me.archive = cp.archive;
        me.emitter = ScheduleEmitter::with_state(
            me.config.space.clone(),
            me.config.emitter.clone(),
            cp.emitter,
        );
        me.next_batch = cp.next_batch;
        me.games = cp.games;
        Ok(me)
    }

    /// The run's state, to save with [`Checkpoint::save`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            version: CHECKPOINT_VERSION,
            config_hash: self.config_hash,
            run_config: None,
            archive: self.archive.clone(),
            emitter: self.emitter.state(),
            next_batch: self.next_batch,
            evaluations: self.evaluations(),
            games: self.games,
            pending: self.pending.clone(),
            replays: self.replays.clone(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MapElitesConfig {
        &self.config
    }

    /// The archive.
    pub fn archive(&self) -> &GridArchive {
        &self.archive
    }

    /// Number of the next batch.
    pub fn next_batch(&self) -> u64 {
        self.next_batch
    }

    /// Evaluations told so far.
    pub fn evaluations(&self) -> u64 {
        self.archive.offered()
    }

    /// Games played so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Evaluations the whole schedule asks for.
    pub fn total_evaluations(&self) -> u64 {
        self.emitter.total()
    }

    /// True when the schedule is done (with adaptive sampling: and no candidate is undecided,
    /// no elite waits to be re-played).
    pub fn is_done(&self) -> bool {
        self.emitter.phase().is_none() && self.pending.is_empty() && self.replays.is_empty()
    }

    /// Adaptive sampling: the candidates whose place is not decided yet, in index order.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// The next batch; `None` when the schedule is done. Asking changes nothing: asking again
    /// before telling gives the same batch.
    pub fn ask(&self) -> Option<Batch> {
        if self.is_done() {
            return None;
        }
        let mut emitter = self.emitter.clone();
        let genomes = if emitter.phase().is_some() {
            let mut rng = derive_rng(self.config.seed, &[self.next_batch]);
            emitter.ask(&self.archive, self.config.batch_size, &mut rng)
        } else {
            Vec::new()
        };
        let (rounds, first_round) = match &self.config.adaptive {
            Some(a) => (self.rounds(a), Some(a.next_round(0))),
            None => (Vec::new(), None),
        };
        Some(Batch {
            number: self.next_batch,
            first_index: self.evaluations(),
            genomes,
            emitter_after: emitter,
            rounds,
            first_round,
        })
    }

    /// The further rounds the next batch plays, in index order: one per undecided candidate
    /// and per elite to re-play that has repetitions left.
    fn rounds(&self, a: &Adaptive) -> Vec<(u64, Genome, Range<u32>)> {
        let pending = self
            .pending
            .iter()
            .map(|p| (p.index, &p.genome, p.repetitions));
        let elites = self
            .replays
            .iter()
            .filter_map(|&i| self.archive.cell_of_elite(i))
            .filter_map(|c| self.archive.elite(c))
            .map(|e| (e.index, &e.genome, e.repetitions));
        let mut rounds: Vec<(u64, Genome, Range<u32>)> = pending
            .chain(elites)
            .map(|(i, g, played)| (i, g.clone(), a.next_round(played)))
            .filter(|(_, _, r)| !r.is_empty())
            .collect();
        rounds.sort_by_key(|(i, _, _)| *i);
        rounds
    }

    /// Adds a batch's evaluations (in genome order; with adaptive sampling, one per
    /// [`Batch::plays`], in that order) to the archive. The statuses are those of the batch's
    /// genomes (empty with adaptive sampling, where a candidate may be decided batches later).
    ///
    /// # Errors
    ///
    /// If the batch is not the one [`MapElites::ask`] gives now (an old one, already told), if
    /// the number of evaluations differs from the number of genomes, or if an evaluation does
    /// not fit the archive. Nothing changes on error.
    pub fn tell(&mut self, batch: Batch, evaluations: Vec<Evaluation>) -> Result<Vec<AddStatus>> {
        if batch.number != self.next_batch {
            return Err(Error::config(
                "batch",
                format!(
                    "batch {} is stale: the run expects batch {}",
                    batch.number, self.next_batch
                ),
            ));
        }
        let plays = batch.rounds.len() + batch.genomes.len();
        if evaluations.len() != plays {
            return Err(Error::config(
                "evaluations",
                format!(
                    "{} evaluations for a batch of {plays} genomes",
                    evaluations.len(),
                ),
            ));
        }
        let games: u64 = evaluations.iter().map(|e| u64::from(e.games)).sum();
        let statuses = match self.config.adaptive {
            None => {
                let evaluations = evaluations.into_iter().map(|mut e| {
                    e.descriptor_counts.clear();
                    e
                });
                self.archive
                    .add_batch(batch.genomes.into_iter().zip(evaluations).collect())?
            }
            Some(a) => {
                self.tell_adaptive(
                    &a,
                    batch.first_index,
                    batch.rounds,
                    batch.genomes,
                    evaluations,
                )?;
                Vec::new()
            }
        };
        self.games += games;
        self.emitter = batch.emitter_after;
        self.next_batch += 1;
        Ok(statuses)
    }

    /// Adaptive sampling's tell (rules in [`super::adaptive`]): merges the further rounds
    /// into their records (moving re-played elites whose means left their cell), takes the
    /// new genomes as candidates, then judges every undecided candidate in index order.
    /// Every evaluation is checked first, so nothing changes on error.
    fn tell_adaptive(
        &mut self,
        a: &Adaptive,
        first_index: u64,
        rounds: Vec<(u64, Genome, Range<u32>)>,
        genomes: Vec<Genome>,
        evaluations: Vec<Evaluation>,
    ) -> Result<()> {
        let features = self.config.axes.len();
        for (i, e) in evaluations.iter().enumerate() {
            let field = || format!("evaluations[{i}]");
            e.validate(features)
                .map_err(|reason| Error::config(field(), reason))?;
            if e.descriptor_counts.len() != features {
                return Err(Error::config(
                    field(),
                    "adaptive sampling needs descriptor_counts (one per feature)",
                ));
            }
        }
        let rule = self.archive.replacement();
        let mut evaluations = evaluations.into_iter();
        let mut pending = std::mem::take(&mut self.pending);
        for ((index, _, range), more) in rounds.into_iter().zip(evaluations.by_ref()) {
            if let Some(p) = pending.iter_mut().find(|p| p.index == index) {
                p.evaluation = p.evaluation.merge(&more);
                p.repetitions = range.end;
            } else if let Some(cell) = self.archive.cell_of_elite(index)
                && let Some(mut elite) = self.archive.take(cell)
            {
                elite.evaluation = elite.evaluation.merge(&more);
                elite.repetitions = range.end;
                let target = self.archive.cell_of(&elite.evaluation);
                let stays = match self.archive.elite(target) {
                    None => true,
                    Some(other) => rule.beats(&elite.evaluation, &other.evaluation),
                } && a.qualifies(&elite.evaluation, &self.config.axes);
                if stays {
                    self.archive.put(elite)?;
                }
            }
        }
        let first = a.next_round(0);
        self.archive.count_offered(genomes.len() as u64);
        for (k, (genome, evaluation)) in genomes.into_iter().zip(evaluations).enumerate() {
            pending.push(Pending {
                index: first_index + k as u64,
                genome,
                evaluation,
                repetitions: first.end,
                challenged: None,
            });
        }
        let mut replays = BTreeSet::new();
        let mut undecided = Vec::new();
        for mut p in pending {
            let cell = self.archive.cell_of(&p.evaluation);
            match a.judge(&p, self.archive.elite(cell), rule, &self.config.axes) {
                Verdict::Enter => self.archive.put(Elite {
                    index: p.index,
                    genome: p.genome,
                    evaluation: p.evaluation,
                    repetitions: p.repetitions,
                })?,
                Verdict::Drop => {}
                Verdict::Extend { replay } => {
                    if let Some(r) = replay {
                        replays.insert(r);
                        p.challenged = Some(r);
                    }
                    undecided.push(p);
                }
            }
        }
        self.pending = undecided;
        self.replays = replays.into_iter().collect();
        Ok(())
    }

    /// Asks, evaluates in parallel and tells one batch; `None` when the schedule is done.
    pub fn step<F>(&mut self, evaluate: &F) -> Result<Option<BatchReport>>
    where
        F: Fn(&Genome, u64) -> Evaluation + Sync,
    {
        let Some(batch) = self.ask() else {
            return Ok(None);
        };
        let start = Instant::now();
        let number = batch.number;
        let evaluations = batch.evaluate(evaluate);
        self.tell(batch, evaluations)?;
        Ok(Some(self.report(number, start.elapsed().as_secs_f64())))
    }

    /// Runs the schedule to the end, calling `on_batch` after every batch (to log progress,
    /// or to save a checkpoint, use [`MapElites::step`] in a loop).
    pub fn run<F>(&mut self, evaluate: F, mut on_batch: impl FnMut(&BatchReport)) -> Result<()>
    where
        F: Fn(&Genome, u64) -> Evaluation + Sync,
    {
        while let Some(report) = self.step(&evaluate)? {
            on_batch(&report);
        }
        Ok(())
    }

    /// The progress row for batch `batch` that took `seconds`.
    pub fn report(&self, batch: u64, seconds: f64) -> BatchReport {
        let s = self.archive.stats();
        BatchReport {
            batch,
            evaluations: self.evaluations(),
            games: self.games,
            elites: s.num_elites,
            coverage: s.coverage,
            qd_score: s.qd_score,
            max_fitness: s.max_fitness,
            mean_fitness: s.mean_fitness,
            seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qd::Domain;

    /// Two random genomes in one batch, one feature `x` over [0, 1] in two bins; rounds of 2
    /// repetitions up to 6, a standard error of one cell width allowed.
    fn config() -> MapElitesConfig {
        MapElitesConfig {
            seed: 1,
            batch_size: 2,
            space: GenomeSpace::new(vec!["w".into()], Domain::default()).unwrap(),
            axes: vec![FeatureAxis::bins("x", 0.0, 1.0, 2).unwrap()],
            replacement: Replacement::Paper,
            emitter: EmitterConfig {
                one_hot: false,
                random_init: 2,
                iterations: 0,
                ..EmitterConfig::default()
            },
            adaptive: Some(Adaptive {
                first_repetitions: 2,
                step_repetitions: 2,
                max_repetitions: 6,
                se_fraction: 1.0,
                z: 1.96,
                placement_z: 0.0,
                min_win_rate: 0.0,
                floor_z: None,
            }),
        }
    }

    /// Two games, `wins` won, both with feature value `x`.
    fn games(wins: u32, x: f64) -> Evaluation {
        Evaluation {
            fitness: f64::from(wins) / 2.0,
            games: 2,
            wins,
            descriptor_means: vec![x],
            descriptor_spreads: vec![0.0],
            descriptor_counts: vec![2],
            ..Evaluation::default()
        }
    }

    /// Each play of `batch`: the genome's index and the repetitions it plays.
    fn plays_of(batch: &Batch) -> Vec<(u64, Option<Range<u32>>)> {
        batch
            .plays()
            .iter()
            .map(|p| (p.index, p.repetitions.clone()))
            .collect()
    }

    #[test]
    fn a_challenged_elite_is_replayed_and_moves_when_its_means_leave_its_cell() {
        let mut me = MapElites::new(config()).unwrap();
        // Batch 0: genome 0 enters cell 0 (1 win of 2); genome 1, in the same cell with 2
        // wins of 2, beats it within the intervals: it challenges it.
        let batch = me.ask().unwrap();
        let plays = plays_of(&batch);
        assert_eq!(plays, [(0, Some(0..2)), (1, Some(0..2))]);
        me.tell(batch, vec![games(1, 0.25), games(2, 0.25)])
            .unwrap();
        assert_eq!(me.archive().elite(0).map(|e| e.index), Some(0));
        assert_eq!(me.pending().len(), 1);
        assert_eq!(me.pending()[0].challenged, Some(0));
        assert!(!me.is_done(), "a candidate is undecided");

        // Resumed from the checkpoint (through JSON), the run asks the same next batch.
        let json = me.checkpoint().to_json().unwrap();
        let cp = Checkpoint::from_json(&json, Path::new("cp")).unwrap();
        let mut me = MapElites::resume(config(), cp).unwrap();

        // Batch 1: no new genome; the elite and its challenger play their next round.
        let batch = me.ask().unwrap();
        assert!(batch.genomes().is_empty());
        let plays = plays_of(&batch);
        assert_eq!(plays, [(0, Some(2..4)), (1, Some(2..4))]);
        // The elite's new games move its mean to 0.5: it leaves for cell 1; the challenger,
        // its cell now empty, enters.
        me.tell(batch, vec![games(0, 0.75), games(2, 0.25)])
            .unwrap();
        let moved = me.archive().elite(1).unwrap();
        assert_eq!((moved.index, moved.repetitions), (0, 4));
        assert_eq!((moved.evaluation.games, moved.evaluation.wins), (4, 1));
        assert_eq!(moved.evaluation.descriptor_means, [0.5]);
        let entered = me.archive().elite(0).unwrap();
        assert_eq!((entered.index, entered.evaluation.games), (1, 4));
        assert!(me.is_done());
        assert!(me.ask().is_none());
        assert_eq!(me.games(), 8);
        assert_eq!(me.evaluations(), 2);
    }

    #[test]
    fn an_adaptive_evaluation_without_counts_is_refused_and_changes_nothing() {
        let mut me = MapElites::new(config()).unwrap();
        let batch = me.ask().unwrap();
        let mut bare = games(1, 0.25);
        bare.descriptor_counts.clear();
        let e = me.tell(batch, vec![games(1, 0.25), bare]).unwrap_err();
        assert!(e.to_string().contains("descriptor_counts"), "{e}");
        assert_eq!(me.next_batch(), 0);
        assert!(me.archive().is_empty());
    }
}

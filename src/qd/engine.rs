//! MAP-Elites as ask/tell: the emitter proposes a batch, the caller evaluates it, the archive
//! takes the results.
//!
//! Determinism: batch `k`'s RNG is `derive_rng(seed, &[k])`, every genome carries its global
//! evaluation index, [`Batch::evaluate`] collects results in index order whatever the thread
//! count, and [`MapElites::tell`] adds them serially in that order. A run therefore ends with the
//! same archive on 1 or 64 threads, and a run resumed from a [`Checkpoint`] taken after any
//! batch ends with the same archive as an uninterrupted one.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::archive::{AddStatus, GridArchive};
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
}

impl MapElitesConfig {
    /// Checks every part; the error names the field.
    pub fn validate(&self) -> Result<()> {
        if self.batch_size == 0 {
            return Err(Error::config("batch_size", "must be at least 1"));
        }
        self.space.validate()?;
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

    /// The genomes, in evaluation-index order.
    pub fn genomes(&self) -> &[Genome] {
        &self.genomes
    }

    /// Evaluates every genome in parallel (rayon's current pool), collecting the results in
    /// index order. `evaluate` gets the genome and its evaluation index.
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

    /// True when the schedule is done.
    pub fn is_done(&self) -> bool {
        self.emitter.phase().is_none()
    }

    /// The next batch; `None` when the schedule is done. Asking changes nothing: asking again
    /// before telling gives the same batch.
    pub fn ask(&self) -> Option<Batch> {
        self.emitter.phase()?;
        let mut emitter = self.emitter.clone();
        let mut rng = derive_rng(self.config.seed, &[self.next_batch]);
        let genomes = emitter.ask(&self.archive, self.config.batch_size, &mut rng);
        Some(Batch {
            number: self.next_batch,
            first_index: self.evaluations(),
            genomes,
            emitter_after: emitter,
        })
    }

    /// Adds a batch's evaluations (in genome order) to the archive.
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
        if evaluations.len() != batch.genomes.len() {
            return Err(Error::config(
                "evaluations",
                format!(
                    "{} evaluations for a batch of {} genomes",
                    evaluations.len(),
                    batch.genomes.len()
                ),
            ));
        }
        let games: u64 = evaluations.iter().map(|e| u64::from(e.games)).sum();
        let statuses = self
            .archive
            .add_batch(batch.genomes.into_iter().zip(evaluations).collect())?;
        self.games += games;
        self.emitter = batch.emitter_after;
        self.next_batch += 1;
        Ok(statuses)
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

//! Quality diversity: a game-independent MAP-Elites engine (pyribs' archive / emitter /
//! scheduler roles, with the reference MAP-Elites of tribes-rules §16 as the default).
//!
//! - [`genome`]: [`Genome`], [`GenomeSpace`] and its one-hot, random, mutation, Gaussian and
//!   Iso+LineDD operators;
//! - [`axis`]: [`FeatureAxis`]: how a descriptor value picks a cell along one dimension;
//! - [`evaluation`]: [`Evaluation`]: what evaluating a genome yields (win rate, games, …);
//! - [`replacement`]: [`Replacement`]: when a candidate beats a cell's elite;
//! - [`adaptive`]: [`Adaptive`]: adaptive sampling, more games while a genome's place is
//!   uncertain;
//! - [`archive`]: [`GridArchive`] of [`Elite`]s, [`AddStatus`], [`ArchiveStats`];
//! - [`emitter`]: [`ScheduleEmitter`]: one-hot, then random genomes, then offspring of elites
//!   (hill climber, Gaussian or Iso+LineDD, as [`EmitterKind`] says);
//! - [`engine`]: [`MapElites`]: ask/tell, parallel evaluation, resume;
//! - [`checkpoint`]: [`Checkpoint`]: the versioned, atomically written run state.
//!
//! Vocabulary: *descriptors* (pyribs' "measures") are the feature values that place a genome
//! on the map; *fitness* is the objective (the win rate).

pub mod adaptive;
pub mod archive;
pub mod axis;
pub mod checkpoint;
pub mod emitter;
pub mod engine;
pub mod evaluation;
pub mod genome;
pub mod replacement;

pub use adaptive::{Adaptive, Pending, Verdict};
pub use archive::{AddStatus, ArchiveStats, Elite, GridArchive};
pub use axis::{AxisKind, FeatureAxis};
pub use checkpoint::{CHECKPOINT_VERSION, Checkpoint};
pub use emitter::{
    DEFAULT_ISO_SIGMA, DEFAULT_LINE_SIGMA, EmitterConfig, EmitterKind, EmitterState, Phase,
    ScheduleEmitter, Sigma,
};
pub use engine::{Batch, BatchReport, MapElites, MapElitesConfig, Play};
pub use evaluation::Evaluation;
pub use genome::{Domain, Genome, GenomeSpace};
pub use replacement::{Replacement, wilson_lower_bound};

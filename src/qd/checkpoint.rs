//! Checkpoints: everything needed to resume a run, versioned, as JSON, written atomically.
//!
//! A checkpoint holds no RNG state: every batch's RNG derives from (run seed, batch number),
//! so the archive, the emitter's counters and the batch number suffice (design §4,
//! *Persistence*).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::adaptive::Pending;
use super::archive::GridArchive;
use super::emitter::EmitterState;
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// The checkpoint format this build writes and reads.
pub const CHECKPOINT_VERSION: u32 = 1;

/// A run's state after a batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version, [`CHECKPOINT_VERSION`].
    pub version: u32,
    /// Hash of the configuration that wrote it
    /// ([`MapElitesConfig::hash`](super::engine::MapElitesConfig::hash)); resuming with another
    /// configuration is refused.
    pub config_hash: u64,
    /// Fingerprint of the caller's whole configuration, for readers to check the
    /// configuration kept beside the checkpoint against (a run directory's `config.toml`:
    /// its `config_hash`, 16 hex digits); absent in checkpoints written before it existed,
    /// and left out of the JSON when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_config: Option<String>,
    /// The archive (axes, rule, elites, evaluations offered).
    pub archive: GridArchive,
    /// The emitter's counters.
    pub emitter: EmitterState,
    /// Number of the next batch to ask for.
    pub next_batch: u64,
    /// Evaluations told so far.
    pub evaluations: u64,
    /// Games played so far (Σ of the evaluations' games).
    pub games: u64,
    /// Adaptive sampling: the candidates whose place is not decided yet, in index order;
    /// left out of the JSON when empty (and absent from checkpoints written before it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Pending>,
    /// Adaptive sampling: the evaluation indices of the elites to re-play in the next batch;
    /// left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replays: Vec<u64>,
}

impl Checkpoint {
    /// The checkpoint as pretty-printed JSON.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec_pretty(self).map_err(|e| Error::config("checkpoint", e.to_string()))
    }

    /// Parses a checkpoint read from `origin` (named in errors): the version is checked
    /// first, so a checkpoint of another version is reported as such; then the checkpoint is
    /// read from the text itself, so that a key given twice is refused and an error says
    /// where it is (line and column).
    pub fn from_json(bytes: &[u8], origin: &Path) -> Result<Self> {
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| Error::data(origin, 0, format!("not a checkpoint (bad JSON: {e})")))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(CHECKPOINT_VERSION) => {}
            Some(v) => {
                return Err(Error::data(
                    origin,
                    0,
                    format!(
                        "checkpoint version {v}, this build reads version {CHECKPOINT_VERSION}"
                    ),
                ));
            }
            None => {
                return Err(Error::data(
                    origin,
                    0,
                    "not a checkpoint (no `version` number)",
                ));
            }
        }
        serde_json::from_slice(bytes)
            .map_err(|e| Error::data(origin, 0, format!("corrupt checkpoint: {e}")))
    }

    /// Writes the checkpoint to `path` atomically (temp file, fsync, rename).
    pub fn save(&self, path: &Path) -> Result<()> {
        write_atomic(path, &self.to_json()?)
    }

    /// Reads a checkpoint from `path`; a missing, corrupt or wrong-version file, or one larger
    /// than [`DATA_LIMIT`], is an error naming it.
    pub fn load(path: &Path) -> Result<Self> {
        let bytes = read_bytes(path, DATA_LIMIT)?;
        Self::from_json(&bytes, path)
    }
}

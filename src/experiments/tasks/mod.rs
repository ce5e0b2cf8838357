//! A MAP-Elites run taken batch by batch by separate processes — `ask`, `work`, `tell` — so
//! that its games can be played by a cluster's job arrays (Slurm, SGE) or by Dask workers,
//! with the same results as `playstyles evolve` on one machine.
//!
//! ```text
//! playstyles ask RUN_DIR [--config FILE]    -> RUN_DIR/batches/000012/tasks.jsonl (path printed)
//! playstyles work TASKS [--shard I/N]       -> RUN_DIR/batches/000012/results/shard-I-of-N.jsonl
//! playstyles tell RUN_DIR                   -> archive.csv, progress.csv, heatmaps, checkpoint.json
//! ```
//!
//! - [`ask`](mod@ask) creates the run on its first call (as `evolve` does: the resolved
//!   `config.toml`), then writes the next batch's game tasks atomically, one JSON [`Task`] per
//!   line ([`TaskLine`]: the specs as text, which the worker parses), and prints the file's
//!   path alone on standard output. Asking twice before `tell` writes the same file. It exits
//!   with [`EXIT_FINISHED`] (3) when the schedule is finished.
//! - [`work`](mod@work) is stateless: it plays its shard of a task file (task line `k` belongs
//!   to shard `k mod N`) and keeps one [`TaskResult`] line per game in its result file,
//!   rewritten atomically after every game; tasks that already have a result in any result
//!   file of the batch are skipped, so a killed or requeued worker loses only the games it was
//!   playing. The shard comes from `--shard`, else from Slurm's or SGE's array variables.
//!   `TASKS = -` reads tasks on standard input and writes result lines on standard output.
//!   The agents read the files they name (bot files) from the run directory the task file
//!   is in ([`crate::experiments::agent_files`]); with tasks on standard input, from the
//!   working folder (run such workers in the run directory).
//! - [`tell`](mod@tell) checks that every task of the batch has exactly one result of this
//!   configuration (exit 2 naming the missing and foreign ones otherwise), aggregates each
//!   genome's games in game order, tells the archive and writes every file `evolve` writes,
//!   then removes the batch's folder. Telling again is harmless: with nothing asked, it says so.
//!   Every step may be killed and run again: a `tell` killed before its checkpoint tells the
//!   batch again, and a finished run whose explorer page a killed `tell` did not write gets it
//!   from the next `tell` or `ask`.
//!
//! A run whose player's style strength says `auto` is calibrated first
//! ([`crate::experiments::calibration`]): `ask` writes the calibration's games as task files
//! (`batches/calibration-0/tasks.jsonl`, the genomes that measure each weight's effect, then
//! `batches/calibration-1/`, the extreme genomes at every strength), `work` plays them as any
//! others, `tell` keeps their results in the calibration's journal and, after the last,
//! chooses the strength and writes it into `config.toml`; the next `ask` asks the run's first
//! batch.
//!
//! `evolve` is the same loop in one process ([`TaskPlan::tasks`], [`crate::experiments::evolve::play_tasks`],
//! [`gather`]), so a run taken through ask/work/tell ends with the same `archive.csv` and
//! `checkpoint.json`, byte for byte.

pub mod ask;
pub mod batch;
pub mod task;
pub mod tell;
pub mod work;

pub use ask::AskConfig;
pub use batch::{TaskPlan, gather, results_by_task};
pub use task::{Task, TaskLine, TaskResult, config_hash};
pub use tell::TellConfig;
pub use work::{Shard, WorkConfig, play_task};

use std::path::{Path, PathBuf};

/// The folder of a run directory holding the batches asked for and not yet told.
pub const BATCHES_DIR: &str = "batches";

/// A batch's task file, in its folder.
pub const TASKS_JSONL: &str = "tasks.jsonl";

/// The folder of a batch's result files, beside its task file.
pub const RESULTS_DIR: &str = "results";

/// The exit code of `ask` when the schedule is finished (nothing to ask).
pub const EXIT_FINISHED: u8 = 3;

/// The folder of batch `batch` in the run directory `dir`: `batches/000012`.
pub fn batch_dir(dir: &Path, batch: u64) -> PathBuf {
    dir.join(BATCHES_DIR).join(format!("{batch:06}"))
}

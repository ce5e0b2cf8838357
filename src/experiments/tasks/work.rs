//! `playstyles work TASKS [--shard I/N] [--threads T]`: plays a shard of a batch's game tasks
//! and keeps their results (see the [module docs](super)).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use super::task::{Task, TaskLine, TaskResult, parse_lines, to_lines};
use super::{BATCHES_DIR, RESULTS_DIR, TASKS_JSONL};
use crate::agent::AgentSpec;
use crate::agent::SearchSupport;
use crate::agents::build_agent_from;
use crate::arena::initial_state;
use crate::arena::series::{GameSlot, play_slot};
use crate::error::{Error, Result};
use crate::experiments::config_file::read_rules;
use crate::experiments::evaluate::GameResult;
use crate::experiments::{GameKind, output_error, thread_pool};
use crate::features::Feature;
use crate::files::{DATA_LIMIT, read_stdin_text, read_text, write_atomic};
use crate::kit::GameKit;
use crate::limits;
use crate::report::progress::Progress;

/// Which tasks of a file a worker plays: task `k` (0-based, in file order) belongs to shard
/// `k mod count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0 ≤ index < count`.
    pub index: usize,
    /// The number of shards.
    pub count: usize,
}

impl Shard {
    /// The whole file.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` (0-based `I`, `0 ≤ I < N`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `field` for anything else.
    pub fn parse(text: &str, field: &str) -> Result<Shard> {
        let bad = || {
            Error::config(
                field,
                format!("`{text}` is not a shard I/N with 0 <= I < N (e.g. 0/4)"),
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard a job array or a parallel step gives this process, read through `var` (the
    /// environment, or a stand-in in tests), in this order:
    ///
    /// 1. `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` (0 if unset) of
    ///    `SLURM_ARRAY_TASK_COUNT` (a Slurm job array);
    /// 2. `SLURM_PROCID` of `SLURM_NTASKS` (the tasks of an `srun` step);
    /// 3. (`SGE_TASK_ID` − `SGE_TASK_FIRST`) / `SGE_TASK_STEPSIZE` of the array's length
    ///    from `SGE_TASK_LAST` (an SGE array; first 1 and step 1 when unset);
    /// 4. otherwise the whole file.
    ///
    /// A variable set to the empty string is unset, and so is an `SGE_*` variable set to
    /// `undefined`, as SGE sets them in a job that is not an array.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the variable that is not a number or gives no valid shard.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
        let num = |name: &str| -> Result<Option<i64>> {
            match var(name) {
                None => Ok(None),
                Some(v) if v.trim().is_empty() => Ok(None),
                Some(v) if name.starts_with("SGE_") && v.trim() == "undefined" => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| Error::config(name, format!("`{v}` is not a number"))),
            }
        };
        let shard = |index: i64, count: i64, field: &str| -> Result<Shard> {
            if count < 1 || index < 0 || index >= count {
                return Err(Error::config(
                    field,
                    format!("gives shard {index} of {count}, outside 0..{count}"),
                ));
            }
            Ok(Shard {
                index: index as usize,
                count: count as usize,
            })
        };
        if let (Some(id), Some(count)) =
            (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?)
        {
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            return shard(id - min, count, "SLURM_ARRAY_TASK_ID");
        }
        if let (Some(id), Some(count)) = (num("SLURM_PROCID")?, num("SLURM_NTASKS")?) {
            return shard(id, count, "SLURM_PROCID");
        }
        if let (Some(id), Some(last)) = (num("SGE_TASK_ID")?, num("SGE_TASK_LAST")?) {
            let first = num("SGE_TASK_FIRST")?.unwrap_or(1);
            let step = num("SGE_TASK_STEPSIZE")?.unwrap_or(1).max(1);
            return shard(
                (id - first) / step,
                (last - first) / step + 1,
                "SGE_TASK_ID",
            );
        }
        Ok(Shard::ALL)
    }

    /// True if task `k` (0-based, in file order) belongs to this shard.
    pub fn owns(self, k: usize) -> bool {
        k % self.count == self.index
    }

    /// The shard's result file name: `shard-I-of-N.jsonl`.
    pub fn file_name(self) -> String {
        format!("shard-{}-of-{}.jsonl", self.index, self.count)
    }
}

/// Validated settings of `playstyles work`.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkConfig {
    /// The task file; `None`: standard input (results to standard output).
    pub tasks_file: Option<PathBuf>,
    /// The tasks with their line numbers, all of one game, rules and feature list (their
    /// specs are parsed as each is played).
    pub tasks: Vec<(TaskLine, usize)>,
    /// The game of the tasks (the default game if there are none).
    pub game: GameKind,
    /// This worker's shard.
    pub shard: Shard,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar or summary on standard error.
    pub quiet: bool,
}

impl WorkConfig {
    /// Reads the tasks (`-`: standard input) and settles the shard (`--shard`, else the
    /// environment, [`Shard::from_env`]) and the threads (`--threads`, else
    /// `SLURM_CPUS_PER_TASK`, else one per core).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming the file that cannot be read; [`Error::Data`] naming it and the line
    /// of a bad task, or of tasks of different games, rules, features or configurations, or
    /// naming a task file that holds no task; [`Error::Config`] naming
    /// `--shard`, `--threads` or the environment variable at fault.
    pub fn load(tasks: &str, shard: Option<&str>, threads: Option<usize>) -> Result<Self> {
        let var = |name: &str| std::env::var(name).ok();
        let shard = match shard {
            Some(s) => Shard::parse(s, "--shard")?,
            None => Shard::from_env(var)?,
        };
        let threads = match threads {
            Some(t) => limits::threads(Some(t), "--threads")?,
            None => match var("SLURM_CPUS_PER_TASK") {
                Some(v) => {
                    let t = v.trim().parse().ok().filter(|&t| t > 0).ok_or_else(|| {
                        Error::config(
                            "SLURM_CPUS_PER_TASK",
                            format!("`{v}` is not a thread count"),
                        )
                    })?;
                    limits::threads(Some(t), "SLURM_CPUS_PER_TASK")?
                }
                None => None,
            },
        };
        let (tasks_file, text, origin) = if tasks == "-" {
            let text = read_stdin_text(DATA_LIMIT)?;
            (None, text, PathBuf::from("<stdin>"))
        } else {
            let path = PathBuf::from(tasks);
            let text = read_text(&path, DATA_LIMIT)?;
            (Some(path.clone()), text, path)
        };
        let tasks: Vec<(TaskLine, usize)> = parse_lines(&origin, &text)?;
        // `ask` writes no task file without a task: an empty one is damaged (standard input
        // may bring none, for a worker with nothing to play).
        if tasks.is_empty() && tasks_file.is_some() {
            return Err(Error::data(
                &origin,
                0,
                "holds no task: not a task file as `ask` writes them (empty or cut short)",
            ));
        }
        let game = match tasks.first() {
            Some((first, line)) => {
                if let Some((_, l)) = tasks.iter().find(|(t, _)| {
                    t.game_name != first.game_name
                        || t.rules != first.rules
                        || t.features != first.features
                        || t.config_hash != first.config_hash
                        || t.batch != first.batch
                }) {
                    return Err(Error::data(
                        &origin,
                        *l,
                        format!(
                            "a task of another game, rules, features, batch or \
                             configuration than line {line}'s (one batch per task file)"
                        ),
                    ));
                }
                first
                    .game_name
                    .parse::<GameKind>()
                    .map_err(|e| Error::data(&origin, *line, e.to_string()))?
            }
            None => GameKind::default(),
        };
        Ok(WorkConfig {
            tasks_file,
            tasks,
            game,
            shard,
            threads,
            quiet: false,
        })
    }
}

/// Plays one task of the run in `run_dir` on `level` (the level its name loads) and
/// measures `features`; the agents read the run's copies of their files
/// ([`crate::experiments::agent_files`]).
///
/// # Errors
///
/// What [`play_slot`] reports: a spec that does not build, a seating that does not fit.
pub fn play_task<G: SearchSupport>(
    game: &G,
    level: &G::Level,
    features: &[Feature],
    task: &Task,
    run_dir: &Path,
) -> Result<TaskResult> {
    // As `build_agent_at`, from the parsed spec.
    let build = |s: &&AgentSpec| {
        let mut spec = (*s).clone();
        spec.map_files(|p| run_dir.join(p).to_string_lossy().into_owned());
        build_agent_from(game, spec)
    };
    let slot = GameSlot {
        index: task.game as usize,
        level: task.level.clone(),
        repetition: 0,
        seats: task.seats.clone(),
        seed: task.seed,
    };
    let g = play_slot(game, level, slot, &task.specs(), &build)?;
    Ok(TaskResult::new(task, GameResult::of(game, &g, features)))
}

/// What a worker did.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkSummary {
    /// Tasks of this shard.
    pub shard_tasks: usize,
    /// Of those, tasks that already had a result.
    pub already_done: usize,
    /// Games played now.
    pub played: usize,
    /// The result file (`None`: standard output).
    pub results: Option<PathBuf>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Runs `playstyles work` with game `G`: plays the shard's tasks that have no result yet and
/// writes their results (file mode: the shard's result file beside the tasks, rewritten
/// atomically after every game, and a summary on `out`; standard-input mode: one line per
/// game on `out`, as games finish).
///
/// # Errors
///
/// A task whose rules, features, level or specs the game refuses (naming its line); a result
/// file of the batch that cannot be read (naming file and line); [`Error::Io`] if the results
/// cannot be written.
pub fn work<G: GameKit, W: Write>(cfg: &WorkConfig, out: &mut W) -> Result<WorkSummary> {
    let started = Instant::now();
    let origin = cfg
        .tasks_file
        .clone()
        .unwrap_or_else(|| PathBuf::from("<stdin>"));
    let at = |line: usize, e: Error| Error::data(&origin, line, e.to_string());
    let mine: Vec<&(TaskLine, usize)> = cfg
        .tasks
        .iter()
        .enumerate()
        .filter(|(k, _)| cfg.shard.owns(*k))
        .map(|(_, t)| t)
        .collect();
    let Some((first, first_line)) = cfg.tasks.first() else {
        return finish(cfg, out, 0, 0, 0, None, started);
    };
    let rules: G::Rules = read_rules(&first.rules).map_err(|e| at(*first_line, e))?;
    let game = G::with_rules(rules);
    let features = first
        .features
        .iter()
        .enumerate()
        .map(|(i, name)| {
            Feature::resolve(name, &format!("features[{i}]"), game.info(), G::features())
        })
        .collect::<Result<Vec<_>>>()
        .map_err(|e| at(*first_line, e))?;

    // Results already kept (file mode): every result file of the batch.
    let (results_path, mut kept) = match &cfg.tasks_file {
        Some(path) => {
            let dir = results_dir(path);
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let own = dir.join(cfg.shard.file_name());
            (Some(own.clone()), read_results(&dir)?)
        }
        None => (None, BTreeMap::new()),
    };
    let own_name = cfg.shard.file_name();
    let done: BTreeSet<(u64, u32)> = kept
        .values()
        .flatten()
        .filter(|r| r.config_hash == first.config_hash && r.batch == first.batch)
        .map(TaskResult::key)
        .collect();
    let todo: Vec<&(TaskLine, usize)> = mine
        .iter()
        .copied()
        .filter(|(t, _)| !done.contains(&t.key()))
        .collect();

    // The levels the shard plays, each loaded once and checked against its seatings.
    // Each with its number of players, worked out once.
    let mut levels: BTreeMap<&str, (G::Level, usize)> = BTreeMap::new();
    for (t, line) in &todo {
        if !levels.contains_key(t.level.as_str()) {
            let level = G::load_level(&t.level).map_err(|e| at(*line, e))?;
            let players = game.num_players(&initial_state(&game, &level, 0));
            levels.insert(&t.level, (level, players));
        }
        let players = levels[t.level.as_str()].1;
        if players != t.seats.len() {
            return Err(at(
                *line,
                Error::config(
                    "seats",
                    format!(
                        "level {} has {players} players, the task seats {}",
                        t.level,
                        t.seats.len()
                    ),
                ),
            ));
        }
    }

    let run_dir = run_dir_of(cfg.tasks_file.as_deref());
    let pool = thread_pool(cfg.threads, "--threads")?;
    let progress = Progress::new(todo.len() as u64, !cfg.quiet && cfg.tasks_file.is_some());
    let mut own_lines: Vec<TaskResult> = kept.remove(&own_name).unwrap_or_default();
    // The workers play and send; this thread writes every result as it comes.
    let (tx, rx) = mpsc::channel::<TaskResult>();
    let (played, written) = std::thread::scope(|s| {
        let workers = s.spawn(|| {
            pool.install(|| {
                todo.par_iter()
                    .try_for_each_with(tx, |tx, (t, line)| -> Result<()> {
                        let level = &levels[t.level.as_str()].0;
                        let result = t
                            .task()
                            .and_then(|t| play_task(&game, level, &features, &t, &run_dir))
                            .map_err(|e| at(*line, e))?;
                        progress.inc();
                        // The writer is gone only after a write error, reported below.
                        tx.send(result)
                            .map_err(|_| Error::config("work", "stopped"))
                    })
            })
        });
        let mut written = Ok(());
        for result in rx {
            written = match &results_path {
                Some(path) => {
                    own_lines.push(result);
                    write_atomic(path, to_lines(&own_lines).as_bytes())
                }
                None => writeln!(out, "{}", to_lines(&[result]).trim_end())
                    .and_then(|()| out.flush())
                    .map_err(output_error),
            };
            if written.is_err() {
                break;
            }
        }
        let played = workers
            .join()
            .unwrap_or_else(|_| Err(Error::config("work", "a worker thread panicked")));
        (played, written)
    });
    progress.finish();
    written?;
    played?;
    finish(
        cfg,
        out,
        mine.len(),
        mine.len() - todo.len(),
        todo.len(),
        results_path,
        started,
    )
}

/// Writes the summary (to `out` in file mode, to standard error in standard-input mode
/// unless quiet) and returns it.
fn finish<W: Write>(
    cfg: &WorkConfig,
    out: &mut W,
    shard_tasks: usize,
    already_done: usize,
    played: usize,
    results: Option<PathBuf>,
    started: Instant,
) -> Result<WorkSummary> {
    let summary = WorkSummary {
        shard_tasks,
        already_done,
        played,
        results,
        seconds: started.elapsed().as_secs_f64(),
    };
    let text = format!(
        "work {}: shard {}/{}, {} task(s), {} already done, {} played in {:.1} s{}\n",
        cfg.tasks_file
            .as_deref()
            .map_or("<stdin>".into(), |p| p.display().to_string()),
        cfg.shard.index,
        cfg.shard.count,
        summary.shard_tasks,
        summary.already_done,
        summary.played,
        summary.seconds,
        summary
            .results
            .as_ref()
            .map_or(String::new(), |p| format!("; results in {}", p.display()))
    );
    if cfg.tasks_file.is_some() {
        out.write_all(text.as_bytes()).map_err(output_error)?;
    } else if !cfg.quiet {
        eprint!("{text}");
    }
    Ok(summary)
}

/// The folder of result files beside a task file: `results/` in the task file's folder.
pub fn results_dir(tasks_file: &Path) -> PathBuf {
    tasks_file
        .parent()
        .map_or_else(|| PathBuf::from(RESULTS_DIR), |p| p.join(RESULTS_DIR))
}

/// The run directory of a task file, `RUN_DIR` of `RUN_DIR/batches/NNNNNN/tasks.jsonl`, which
/// the tasks' agents read their files from; the working folder (`""`) for tasks on standard
/// input or in a file elsewhere.
pub fn run_dir_of(tasks_file: Option<&Path>) -> PathBuf {
    let batches = tasks_file.and_then(Path::parent).and_then(Path::parent);
    match batches {
        Some(b) if b.file_name().is_some_and(|n| n == BATCHES_DIR) => {
            b.parent().map(Path::to_path_buf).unwrap_or_default()
        }
        _ => PathBuf::new(),
    }
}

/// Every result file in `dir` (`*.jsonl`, hidden temporary files skipped), by file name, in
/// name order; an absent folder holds none.
///
/// # Errors
///
/// [`Error::Io`] naming the folder or a file that cannot be read; [`Error::Data`] naming the
/// file and line of a bad result.
pub fn read_results(dir: &Path) -> Result<BTreeMap<String, Vec<TaskResult>>> {
    Ok(read_results_with_lines(dir)?
        .into_iter()
        .map(|(name, v)| (name, v.into_iter().map(|(r, _)| r).collect()))
        .collect())
}

/// As [`read_results`], each result with its line number.
///
/// # Errors
///
/// As [`read_results`].
pub fn read_results_with_lines(dir: &Path) -> Result<BTreeMap<String, Vec<(TaskResult, usize)>>> {
    let mut files = BTreeMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(e) => return Err(Error::io(dir, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".jsonl") || name == TASKS_JSONL {
            continue;
        }
        let path = entry.path();
        let text = read_text(&path, DATA_LIMIT)?;
        files.insert(name, parse_lines(&path, &text)?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn shards_parse_and_split_the_file_round_robin() {
        let s = Shard::parse("1/3", "--shard").unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        let owned: Vec<usize> = (0..8).filter(|&k| s.owns(k)).collect();
        assert_eq!(owned, [1, 4, 7]);
        assert_eq!(s.file_name(), "shard-1-of-3.jsonl");
        for bad in ["3/3", "1", "a/2", "-1/2", "0/0"] {
            let e = Shard::parse(bad, "--shard").unwrap_err().to_string();
            assert!(e.contains("--shard"), "{e}");
        }
    }

    #[test]
    fn the_environment_gives_the_shard_in_the_documented_order() {
        let from = |v: &[(&str, &str)]| Shard::from_env(env(v));
        assert_eq!(from(&[]).unwrap(), Shard::ALL);
        let array = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_PROCID", "0"),
            ("SLURM_NTASKS", "1"),
        ];
        assert_eq!(from(&array).unwrap(), Shard { index: 1, count: 2 });
        let step = [
            ("SLURM_PROCID", "2"),
            ("SLURM_NTASKS", "4"),
            ("SGE_TASK_ID", "1"),
        ];
        assert_eq!(from(&step).unwrap(), Shard { index: 2, count: 4 });
        let sge = [
            ("SGE_TASK_ID", "5"),
            ("SGE_TASK_FIRST", "1"),
            ("SGE_TASK_LAST", "7"),
            ("SGE_TASK_STEPSIZE", "2"),
        ];
        assert_eq!(from(&sge).unwrap(), Shard { index: 2, count: 4 });
        let sge_default = [
            ("SGE_TASK_ID", "3"),
            ("SGE_TASK_LAST", "3"),
            ("SGE_TASK_FIRST", "x"),
        ];
        let e = from(&sge_default).unwrap_err().to_string();
        assert!(e.contains("SGE_TASK_FIRST"), "{e}");
        // SGE outside an array job: every SGE_TASK_* variable is `undefined`, i.e. unset.
        let not_an_array = [
            ("SGE_TASK_ID", "undefined"),
            ("SGE_TASK_FIRST", "undefined"),
            ("SGE_TASK_LAST", "undefined"),
            ("SGE_TASK_STEPSIZE", "undefined"),
        ];
        assert_eq!(from(&not_an_array).unwrap(), Shard::ALL);
        let first_undefined = [
            ("SGE_TASK_ID", "3"),
            ("SGE_TASK_LAST", "3"),
            ("SGE_TASK_FIRST", "undefined"),
        ];
        assert_eq!(
            from(&first_undefined).unwrap(),
            Shard { index: 2, count: 3 }
        );
        let e = from(&[("SLURM_PROCID", "undefined"), ("SLURM_NTASKS", "2")])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("SLURM_PROCID"),
            "only SGE writes `undefined`: {e}"
        );
        let outside = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ];
        let e = from(&outside).unwrap_err().to_string();
        assert!(e.contains("SLURM_ARRAY_TASK_ID"), "{e}");
    }
}

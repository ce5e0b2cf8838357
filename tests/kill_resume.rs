//! The crash harness: every command that writes files, stopped between any two of its writes
//! or killed at a random moment, then run again as its documentation says, ends with the files
//! of an uninterrupted run, byte for byte.
//!
//! **The table.** [`ROWS`] holds one row per command (and per kind of input where a command
//! reads several: `tiers` of a run and of a ladder, `report` with and without `--ladder`): its
//! name, the files its folder holds before it runs (written from text, or copied from another
//! row's uninterrupted run: a finished run, ladder, tournament or dataset), the command, and
//! how it is run again after an interruption ([`Again`]): with `--resume` where the command
//! has it — always, also after it had finished (then it has nothing to do and exits 0) or
//! before it had written anything (a Slurm job requeued with `--resume` must end well);
//! otherwise the same command.
//! Every command runs in its row's folder with relative paths, so that two folders' files can
//! be compared. A new command joins the harness with one row.
//!
//! **The checks**, for every row ([`check`]):
//! - run uninterrupted (the reference; made once and also copied into the rows that read it);
//! - run again in a copy of the finished folder: nothing changes;
//! - not started at all, then run again (the "write 0" case);
//! - stopped right after its 1st, 2nd, … atomic write (the `PLAYSTYLES_TEST_EXIT_AFTER_WRITES`
//!   hook of `write_atomic`, exit code 137 as `kill -9` leaves it) until it makes fewer writes,
//!   each in a fresh folder, then run again;
//! - killed (`SIGKILL`) after [`KILLS`] seeded-random delays within the reference's time, then
//!   run again.
//!
//! Each ends with the reference's folder. A run taken through `ask`, `work` (two shards) and
//! `tell` ([`Run::Tasks`]) is a row of many steps that ends as `evolve` does: every write of its
//! last [`LAST_STEPS`] steps, [`KILLS`] seeded-random (step, write) pairs among the earlier
//! ones, and twice [`KILLS`] kills at seeded-random steps, each step run again as it was.
//!
//! **What the comparison ignores**, and only that: the hidden temporary files of a write that a
//! kill cut short (`.NAME.tmpPID`, `.NAME.tmpPID.png`; the hook stops a command after a write
//! is complete, so only the random kills leave them), and the wall-clock `seconds` column of
//! `progress.csv`. No other table has a wall-clock column. Everything else counts: every file
//! (inputs included, which no command may change), its bytes, and every folder, empty or not
//! (a command's leftover working folder is a difference).
//!
//! The test checks every row (on as many threads as there are cores) and then names each
//! failure: the row, where it was stopped, what the writes since the one before wrote, and what
//! went wrong (the command run again failed, with its error; or which files differ, and the
//! first line that differs); the failing folder is kept. `KILL_RESUME_ROWS=ladder,train` checks
//! only the rows named. Tiny Puerto Rico configs (SA-0 games take under a millisecond) keep the
//! module to well under two minutes on two cores.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use playstyles::files::EXIT_AFTER_WRITES;
use playstyles::rng::derive_seed;

use crate::support::cli::scratch;
use Again::{Resume, Same};
use Input::{File, Made};
use Run::{Once, Tasks};

/// A tiny Puerto Rico run config: `$reps` games per genome, `$iterations` offspring after four
/// random genomes, batches of four, then `$extra` (more TOML).
macro_rules! run_toml {
    ($reps:literal, $iterations:literal, $extra:literal) => {
        concat!(
            r#"
game = "puerto-rico"
seed = 11
batch_size = 4

[evaluation]
levels = ["4p"]
repetitions = "#,
            $reps,
            r#"
player = "sa0"
baseline = "sa0"

[genome]
scripts = ["role.captain", "role.builder", "build.large"]
values = [0.0, 0.5, 1.0]

[[features]]
name = "shipping_pct"
min = 20
max = 100
step = 20

[[features]]
name = "builder_pct"
min = 0
max = 60
step = 20

[map_elites]
one_hot = false
random_init = 4
iterations = "#,
            $iterations,
            "\n",
            $extra
        )
    };
}

/// A Puerto Rico run of three batches of four genomes, one four-player game each.
pub(crate) const RUN: &str = run_toml!(1, 8, "adaptive = false\n");

/// [`RUN`] with adaptive sampling: rounds of one game up to four, so that candidates wait
/// across batches and elites are re-played (the checkpoint holds them).
const RUN_ADAPTIVE: &str = run_toml!(
    4,
    4,
    "
[map_elites.adaptive]
first_repetitions = 1
step_repetitions = 1
max_repetitions = 4
se_fraction = 0.5
"
);

/// [`RUN`] with a player whose style strength is calibrated before it breeds (issue 61):
/// Puerto Rico's `persona` at two simulations a choice, `style=auto`, tried at three strengths
/// on two games a genome (nine first genomes, then the extremes).
const RUN_CALIBRATED: &str = r#"
game = "puerto-rico"
seed = 11
batch_size = 4

[evaluation]
levels = ["4p"]
repetitions = 1
player = "persona(budget=2,style=auto)"
baseline = "sa0"

[genome]
scripts = ["role.captain", "role.builder", "build.large"]
values = [0.0, 0.5, 1.0]

[[features]]
name = "shipping_pct"
min = 20
max = 100
step = 20

[[features]]
name = "builder_pct"
min = 0
max = 60
step = 20

[map_elites]
one_hot = false
random_init = 4
iterations = 8

[calibration]
strengths = [0.0, 0.5, 2.0]
repetitions = 2
floor = 0.1
"#;

/// A Puerto Rico tournament of 24 games: saved after every tenth and at the end.
pub(crate) const TOURNAMENT: &str = r#"
game = "puerto-rico"
seed = 5
levels = ["4p"]
repetitions = 12

[[pairing]]
name = "captain-vs-sa0"
agents = ["sa0(weights=[role.captain=0.0])", "sa0", "sa0", "sa0"]

[[pairing]]
name = "builder-vs-sa0"
agents = ["sa0(weights=[role.builder=0.0])", "sa0", "sa0", "sa0"]
"#;

/// A Puerto Rico ladder of three elites of [`RUN`] (folder `run`) and two reference bots: 40
/// games (saved every tenth) in two rounds, and a style check of each elite.
pub(crate) const LADDER: &str = r#"
game = "puerto-rico"
seed = 3
levels = ["4p"]
anchor = "sa0"
target = 100.0
max_games = 40
style_repetitions = 1

[[elites]]
run = "run"
cells = [5, 11, 16]

[[agent]]
name = "sa0"
spec = "sa0"

[[agent]]
name = "random"
spec = "random"
"#;

/// A Puerto Rico dataset of 450 three-player games: three chunks (parts), a quarter of the
/// positions kept.
pub(crate) const DATASET: &str = r#"
game = "puerto-rico"
seed = 9
games = 450
levels = ["3p"]
agents = ["sa0", "sa0", "sa0"]
keep = 0.25
"#;

/// Every command that writes files, as the harness runs it (see the [module docs](self)).
const ROWS: &[Row] = &[
    Row {
        name: "evolve",
        inputs: &[File("run.toml", RUN)],
        run: Once("evolve run.toml --out run --quiet --threads 2", Resume),
    },
    Row {
        name: "evolve-adaptive",
        inputs: &[File("run.toml", RUN_ADAPTIVE)],
        run: Once("evolve run.toml --out run --quiet --threads 2", Resume),
    },
    Row {
        name: "ask-work-tell",
        inputs: &[File("run.toml", RUN)],
        run: Tasks {
            config: "run.toml",
            run: "run",
            ends_as: "evolve",
        },
    },
    Row {
        name: "evolve-calibrated",
        inputs: &[File("run.toml", RUN_CALIBRATED)],
        run: Once("evolve run.toml --out run --quiet --threads 2", Resume),
    },
    Row {
        name: "ask-work-tell-calibrated",
        inputs: &[File("run.toml", RUN_CALIBRATED)],
        run: Tasks {
            config: "run.toml",
            run: "run",
            ends_as: "evolve-calibrated",
        },
    },
    Row {
        name: "tournament",
        inputs: &[File("t.toml", TOURNAMENT)],
        run: Once("tournament t.toml --out out --quiet --threads 2", Resume),
    },
    Row {
        name: "validate",
        inputs: &[Made("evolve", "run")],
        run: Once(
            "validate run --cells all --repetitions 1 --threads 2 --quiet",
            Resume,
        ),
    },
    Row {
        name: "reevaluate",
        inputs: &[Made("evolve", "run")],
        run: Once("reevaluate run --games 2 --threads 2 --quiet", Resume),
    },
    Row {
        name: "roster",
        inputs: &[Made("evolve", "run")],
        run: Once(
            "roster run --count 3 --floor 0 --train-games 2 --test-games 3 --levels 3p \
             --threads 2 --quiet",
            Resume,
        ),
    },
    Row {
        name: "sensitivity",
        inputs: &[File("run.toml", RUN)],
        run: Once(
            "sensitivity run.toml --out sens --repetitions 4 --threads 2 --quiet",
            Resume,
        ),
    },
    Row {
        name: "ladder",
        inputs: &[Made("evolve", "run"), File("ladder.toml", LADDER)],
        run: Once(
            "ladder ladder.toml --out ladder --quiet --threads 2",
            Resume,
        ),
    },
    Row {
        name: "dataset",
        inputs: &[File("data.toml", DATASET)],
        run: Once(
            "dataset data.toml --out data.dataset --quiet --threads 2",
            Resume,
        ),
    },
    Row {
        name: "train",
        inputs: &[Made("dataset", "data.dataset")],
        run: Once(
            "train data.dataset --out m.safetensors --hidden 8 --second 4 --epochs 2 \
             --test-fraction 0.25 --quiet",
            Resume,
        ),
    },
    Row {
        name: "tiers-run",
        inputs: &[Made("evolve", "run")],
        run: Once("tiers run --count 2", Same),
    },
    Row {
        name: "tiers-ladder",
        inputs: &[Made("ladder", "run"), Made("ladder", "ladder")],
        run: Once("tiers ladder --count 2", Same),
    },
    Row {
        name: "report",
        inputs: &[Made("evolve", "run")],
        run: Once("report run --threads 2", Same),
    },
    Row {
        name: "report-ladder",
        inputs: &[Made("tiers-ladder", "run"), Made("tiers-ladder", "ladder")],
        run: Once("report run --ladder ladder --threads 2", Same),
    },
    Row {
        name: "plot-run",
        inputs: &[Made("evolve", "run")],
        run: Once("plot run", Same),
    },
    Row {
        name: "plot-tournament",
        inputs: &[Made("tournament", "out")],
        run: Once("plot out", Same),
    },
    Row {
        name: "replay",
        inputs: &[],
        run: Once(
            "replay --game puerto-rico --level 4p --agents sa0,sa0,sa0,sa0 --out game.html --force",
            Same,
        ),
    },
];

#[test]
fn every_writing_command_interrupted_anywhere_then_run_again_ends_as_an_uninterrupted_run() {
    // The rows on as many threads as there are cores (at most four): each runs its commands
    // one at a time, and a row waits for the uninterrupted run of a row it copies from.
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(vec![Vec::new(); ROWS.len()]);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(row) = ROWS.get(i) else { break };
                    if chosen(row) {
                        let found = check(row);
                        failures.lock().unwrap()[i] = found;
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap().concat();
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The environment variable naming the rows to check (comma-separated; all if unset).
const ONLY: &str = "KILL_RESUME_ROWS";

/// True if `row` is to be checked ([`ONLY`]).
fn chosen(row: &Row) -> bool {
    std::env::var(ONLY).map_or(true, |names| names.split(',').any(|n| n.trim() == row.name))
}

/// One command of the table.
struct Row {
    /// Its name, and its folder's under the module's scratch folder.
    name: &'static str,
    /// What its folder holds before it runs.
    inputs: &'static [Input],
    /// How it runs, and is run again.
    run: Run,
}

/// A file or folder a row's folder holds before its command runs.
enum Input {
    /// A file: its name and text.
    File(&'static str, &'static str),
    /// A copy of a path (a file or a folder) of another row's folder after its uninterrupted
    /// run: the row's name and the path.
    Made(&'static str, &'static str),
}

/// How a row runs.
enum Run {
    /// One command (its arguments separated by white space), and how it is run again after an
    /// interruption.
    Once(&'static str, Again),
    /// `ask RUN --config CONFIG`, `work TASKS --shard 0/2`, `work TASKS --shard 1/2`,
    /// `tell RUN`, … until `ask` exits 3 (the schedule finished), each step run again as it was
    /// after an interruption; it ends as the row `ends_as` does, too.
    Tasks {
        config: &'static str,
        run: &'static str,
        ends_as: &'static str,
    },
}

/// How a command is run again after an interruption, whatever it had done by then.
#[derive(Clone, Copy)]
enum Again {
    /// With `--resume`: always, also after it had finished or before it had written anything.
    Resume,
    /// The same command (it rewrites what it writes).
    Same,
}

impl Again {
    /// The command to run again after `args` was interrupted.
    fn args(self, args: &[String]) -> Vec<String> {
        let mut a = args.to_vec();
        if let Resume = self {
            a.push("--resume".into());
        }
        a
    }
}

/// The seed of the random kill points.
const SEED: u64 = 0x6b69_6c6c;

/// Random-delay kills per row (twice as many for a row of several steps).
const KILLS: u64 = 3;

/// Steps of a many-step row (from its last) stopped after every one of their writes.
const LAST_STEPS: usize = 5;

/// The longest any command may run before the harness calls it a hang.
const HANG: Duration = Duration::from_secs(120);

/// A seeded random number in `0..n`.
fn pick(n: u64, tags: &[u64]) -> u64 {
    derive_seed(SEED, tags) % n.max(1)
}

/// `items` as owned arguments.
fn args(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A command line as shown in a failure.
fn shown(args: &[String]) -> String {
    format!("`{}`", args.join(" "))
}

/// A finished command's exit code and the first line of its standard error.
fn why(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    format!("exit {:?}: {line}", o.status.code())
}

/// `o` if its command succeeded (or, for `ask`, exited 3: the schedule is finished).
fn succeeded(o: Output, args: &[String]) -> Result<Output, String> {
    if o.status.success() || (args[0] == "ask" && o.status.code() == Some(3)) {
        Ok(o)
    } else {
        Err(format!("{} failed ({})", shown(args), why(&o)))
    }
}

/// Runs `args` in `dir`: stopped after its `exit_after`-th write if given, killed after
/// `kill_after` if given. `None` if it was killed before it ended; an error if it ran longer
/// than [`HANG`].
fn exec(
    dir: &Path,
    args: &[String],
    exit_after: Option<u64>,
    kill_after: Option<Duration>,
) -> Result<Option<Output>, String> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_playstyles"));
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(n) = exit_after {
        command.env(EXIT_AFTER_WRITES, n.to_string());
    }
    let mut child = command.spawn().expect("the binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        let took = start.elapsed();
        if kill_after.is_some_and(|d| took >= d) || took > HANG {
            child.kill().unwrap();
            let status = child.wait().unwrap();
            if took > HANG {
                return Err(format!("{} ran longer than {HANG:?}", shown(args)));
            }
            // It may have ended between the last look and the kill.
            break status.success().then_some(status);
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    Ok(status.map(|status| Output {
        status,
        stdout,
        stderr,
    }))
}

/// A folder's entries by relative path: each file's bytes, each folder as `path/` (no bytes).
type Files = BTreeMap<String, Vec<u8>>;

/// True for the temporary file of a write cut short: `.NAME.tmpPID` or `.NAME.tmpPID.png`.
fn temporary(name: &str) -> bool {
    name.starts_with('.')
        && name.rsplit_once(".tmp").is_some_and(|(_, rest)| {
            let pid = rest.strip_suffix(".png").unwrap_or(rest);
            !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        })
}

/// `progress.csv` without its wall-clock `seconds` column (the last).
fn without_seconds(bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        return bytes;
    };
    if !text.lines().next().is_some_and(|h| h.ends_with(",seconds")) {
        return bytes;
    }
    text.lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest).to_string() + "\n")
        .collect::<String>()
        .into_bytes()
}

/// Every entry under `dir` but the temporary files of writes cut short; `progress.csv`
/// without its `seconds` column.
fn files(dir: &Path) -> Files {
    fn walk(root: &Path, dir: &Path, out: &mut Files) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                out.insert(rel + "/", Vec::new());
                walk(root, &path, out);
            } else if !temporary(&name) {
                let bytes = std::fs::read(&path).unwrap();
                let bytes = if name == "progress.csv" {
                    without_seconds(bytes)
                } else {
                    bytes
                };
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = Files::new();
    walk(dir, dir, &mut out);
    out
}

/// The entries of `after` that are new or changed since `before`, and those gone.
fn changed(before: &Files, after: &Files) -> Vec<String> {
    let mut names: Vec<String> = after
        .iter()
        .filter(|(name, bytes)| before.get(*name) != Some(bytes))
        .map(|(name, _)| name.clone())
        .collect();
    names.extend(
        before
            .keys()
            .filter(|name| !after.contains_key(*name))
            .map(|name| format!("{name} (removed)")),
    );
    names
}

/// How `got` differs from `expected`, or `None` if it does not: the entries missing, the
/// extra ones, and the files whose bytes differ (with the first line that differs).
fn difference(expected: &Files, got: &Files) -> Option<String> {
    let mut out = Vec::new();
    let missing: Vec<&str> = expected
        .keys()
        .filter(|n| !got.contains_key(*n))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        out.push(format!("missing {}", missing.join(", ")));
    }
    let extra: Vec<&str> = got
        .keys()
        .filter(|n| !expected.contains_key(*n))
        .map(String::as_str)
        .collect();
    if !extra.is_empty() {
        out.push(format!("extra {}", extra.join(", ")));
    }
    for (name, bytes) in expected {
        let Some(other) = got.get(name).filter(|b| *b != bytes) else {
            continue;
        };
        let (a, b) = (
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(other),
        );
        let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
        out.push(match first {
            Some(i) => format!(
                "{name} differs at line {}: {:?} instead of {:?}",
                i + 1,
                cut(b.lines().nth(i).unwrap_or("")),
                cut(a.lines().nth(i).unwrap_or(""))
            ),
            None => format!(
                "{name} differs ({} lines instead of {})",
                b.lines().count(),
                a.lines().count()
            ),
        });
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// At most 100 characters of `line`.
fn cut(line: &str) -> String {
    line.chars().take(100).collect()
}

/// Copies the file or folder `from` to `to`.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            copy(&path, &to.join(path.file_name().unwrap()));
        }
    } else {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
    }
}

/// A fresh folder `sub` of the row `name`'s scratch folder, holding the row's inputs.
fn prepared(row: &Row, sub: &str) -> Result<PathBuf, String> {
    let dir = scratch("kill_resume", &format!("{}/{sub}", row.name));
    for input in row.inputs {
        match *input {
            File(name, text) => std::fs::write(dir.join(name), text).unwrap(),
            Made(other, path) => {
                let made = made(other).map_err(|e| format!("its input {other}: {e}"))?;
                copy(&made.dir.join(path), &dir.join(path));
            }
        }
    }
    Ok(dir)
}

/// A row run uninterrupted: its folder and its steps.
struct Reference {
    /// The folder.
    dir: PathBuf,
    /// Its steps in order.
    steps: Vec<Step>,
}

/// A step of a row: a command, how it is run again, and how long it took uninterrupted.
struct Step {
    /// The command.
    args: Vec<String>,
    /// How it is run again.
    again: Again,
    /// How long it ran.
    took: Duration,
}

/// The row `name` run uninterrupted, once per test binary.
fn made(name: &str) -> Result<&'static Reference, String> {
    static MADE: [OnceLock<Result<Reference, String>>; ROWS.len()] =
        [const { OnceLock::new() }; ROWS.len()];
    let i = ROWS
        .iter()
        .position(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row named {name} in ROWS"));
    MADE[i]
        .get_or_init(|| {
            let row = &ROWS[i];
            let dir = prepared(row, "reference")?;
            let mut driver = Driver::new(&dir, None);
            driver.drive(row)?;
            let steps = driver.steps;
            Ok(Reference { dir, steps })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Where a drive interrupts its row: which step, and how.
#[derive(Clone, Copy)]
struct Stop {
    step: usize,
    how: How,
}

/// How a step is interrupted.
#[derive(Clone, Copy)]
enum How {
    /// It exits right after its `n`-th atomic write; `n = 0`: it never started.
    AfterWrite(u64),
    /// It is killed after this delay, unless it ended first.
    Killed(Duration),
}

/// Runs a row's steps in a folder, interrupting one as told and running it again.
struct Driver<'a> {
    dir: &'a Path,
    stop: Option<Stop>,
    /// The steps run so far.
    steps: Vec<Step>,
    /// The folder just before the step to interrupt.
    before: Option<Files>,
    /// The folder right after its interruption.
    after: Option<Files>,
    /// Whether it was interrupted (false: it ended first).
    stopped: bool,
}

impl<'a> Driver<'a> {
    fn new(dir: &'a Path, stop: Option<Stop>) -> Self {
        Driver {
            dir,
            stop,
            steps: Vec::new(),
            before: None,
            after: None,
            stopped: false,
        }
    }

    /// Runs `row`'s steps.
    fn drive(&mut self, row: &Row) -> Result<(), String> {
        match row.run {
            Once(command, again) => {
                self.step(args(&command.split_whitespace().collect::<Vec<_>>()), again)?;
            }
            Tasks { config, run, .. } => loop {
                let asked = self.step(args(&["ask", run, "--config", config]), Same)?;
                let asked = asked.expect("ask is run again");
                if asked.status.code() == Some(3) {
                    return Ok(());
                }
                let tasks = String::from_utf8_lossy(&asked.stdout)
                    .trim_end()
                    .to_string();
                for shard in ["0/2", "1/2"] {
                    let work = ["work", &tasks, "--shard", shard, "--quiet"];
                    self.step(args(&work), Same)?;
                }
                self.step(args(&["tell", run]), Same)?;
                if self.steps.len() > 1000 {
                    return Err("ask never said the run was finished".into());
                }
            },
        }
        Ok(())
    }

    /// Runs one step (interrupted and run again if it is the one to stop); its output, or
    /// `None` if it was not run again (it had finished).
    fn step(&mut self, args: Vec<String>, again: Again) -> Result<Option<Output>, String> {
        let index = self.steps.len();
        let how = self.stop.filter(|s| s.step == index).map(|s| s.how);
        if how.is_some() {
            self.before = Some(files(self.dir));
        }
        let start = Instant::now();
        let ended = match how {
            None => exec(self.dir, &args, None, None)?,
            Some(How::AfterWrite(0)) => None,
            Some(How::AfterWrite(n)) => {
                exec(self.dir, &args, Some(n), None)?.filter(|o| o.status.code() != Some(137))
            }
            Some(How::Killed(delay)) => exec(self.dir, &args, None, Some(delay))?,
        };
        self.steps.push(Step {
            args: args.clone(),
            again,
            took: start.elapsed(),
        });
        if let Some(o) = ended {
            return succeeded(o, &args).map(Some);
        }
        self.stopped = true;
        self.after = Some(files(self.dir));
        let a = again.args(&args);
        let o = exec(self.dir, &a, None, None)?.expect("not killed");
        succeeded(o, &a)
            .map(Some)
            .map_err(|e| format!("run again: {e}"))
    }
}

/// Checks `row` as the [module docs](self) say; its failures, each naming the row.
fn check(row: &Row) -> Vec<String> {
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut fail = |what: String| failures.push(format!("{}: {what}", row.name));
    let reference = match made(row.name) {
        Ok(r) => r,
        Err(e) => {
            fail(format!("uninterrupted: {e}"));
            return failures;
        }
    };
    let expected = files(&reference.dir);
    if let Tasks { ends_as, .. } = row.run {
        match made(ends_as) {
            Ok(other) => {
                if let Some(d) = difference(&files(&other.dir), &expected) {
                    fail(format!("uninterrupted, unlike {ends_as}: {d}"));
                }
            }
            Err(e) => fail(format!("{ends_as}: {e}")),
        }
    }
    let mut tried = 0;

    // Run again once finished: nothing changes.
    let last = reference.steps.last().expect("a step");
    let dir = scratch("kill_resume", &format!("{}/finished", row.name));
    copy(&reference.dir, &dir);
    let again = last.again.args(&last.args);
    let result = exec(&dir, &again, None, None)
        .and_then(|o| succeeded(o.expect("not killed"), &again))
        .map(|_| difference(&expected, &files(&dir)));
    match result {
        Ok(None) => {}
        Ok(Some(d)) => fail(format!("{} after it finished: {d}", shown(&again))),
        Err(e) => fail(format!("after it finished: {e}")),
    }
    tried += 1;

    // Every write of the last steps (and the first step not started at all). The step's
    // time once it is no longer stopped (a warm run) bounds the kill delays below.
    let steps = reference.steps.len();
    let mut took: Vec<Duration> = reference.steps.iter().map(|s| s.took).collect();
    let every = steps.saturating_sub(LAST_STEPS);
    let mut tries = Vec::new();
    for (step, warm) in took.iter_mut().enumerate().skip(every) {
        let mut previous = None;
        for n in u64::from(step > 0).. {
            let sub = format!("step-{step}-write-{n}");
            let how = How::AfterWrite(n);
            let tried = attempt(row, &expected, step, how, &sub, previous.as_ref());
            tries.push((tried.stopped, tried.failure));
            previous = tried.after;
            if !tried.stopped {
                *warm = (*warm).min(tried.took);
                if n <= 1 && steps == 1 {
                    fail("made no atomic write".into());
                }
                break;
            }
        }
    }
    // Sampled writes of the earlier steps.
    for k in 0..KILLS.min(every as u64) {
        let (step, n) = (pick(every as u64, &[2, k]) as usize, 1 + pick(2, &[3, k]));
        let sub = format!("step-{step}-write-{n}");
        let tried = attempt(row, &expected, step, How::AfterWrite(n), &sub, None);
        tries.push((tried.stopped, tried.failure));
    }
    // Random kills.
    for k in 0..KILLS * steps.min(2) as u64 {
        let step = pick(steps as u64, &[4, k]) as usize;
        let delay = Duration::from_micros(pick(took[step].as_micros() as u64, &[5, k]));
        let sub = format!("step-{step}-killed-{k}");
        let tried = attempt(row, &expected, step, How::Killed(delay), &sub, None);
        tries.push((tried.stopped, tried.failure));
    }
    let interrupted = tries.iter().filter(|(stopped, _)| *stopped).count();
    tried += tries.len();
    tries.into_iter().filter_map(|(_, f)| f).for_each(&mut fail);
    eprintln!(
        "kill_resume {}: {steps} step(s), {tried} runs ({interrupted} interrupted), {:.1} s",
        row.name,
        start.elapsed().as_secs_f64()
    );
    failures
}

/// What [`attempt`] found.
struct Tried {
    /// The step was interrupted (false: it ended first).
    stopped: bool,
    /// The folder right after the interruption.
    after: Option<Files>,
    /// How long the step ran (until it was interrupted, or ended).
    took: Duration,
    /// What went wrong, if the folder did not end with the expected files.
    failure: Option<String>,
}

/// Runs `row` in the fresh folder `sub`, its step `step` interrupted as `how` says and run
/// again, and compares the folder with the `expected` files (keeping it if they differ, else
/// removing it). A failure names what the step's writes wrote: since `previous` (the folder
/// after the write before), else since the step started.
fn attempt(
    row: &Row,
    expected: &Files,
    step: usize,
    how: How,
    sub: &str,
    previous: Option<&Files>,
) -> Tried {
    let what = match how {
        How::AfterWrite(0) => format!("step {step} not started"),
        How::AfterWrite(n) => format!("step {step} stopped after write {n}"),
        How::Killed(d) => format!("step {step} killed after {d:?}"),
    };
    let dir = match prepared(row, sub) {
        Ok(dir) => dir,
        Err(e) => {
            return Tried {
                stopped: false,
                after: None,
                took: Duration::MAX,
                failure: Some(format!("{what}: {e}")),
            };
        }
    };
    let mut driver = Driver::new(&dir, Some(Stop { step, how }));
    let result = driver.drive(row);
    let wrote = match (previous.or(driver.before.as_ref()), &driver.after) {
        (Some(b), Some(a)) if driver.stopped && b != a => {
            format!(" (wrote {})", changed(b, a).join(", "))
        }
        _ => String::new(),
    };
    let error = match result {
        Err(e) => Some(e),
        Ok(()) => difference(expected, &files(&dir)),
    };
    if error.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Tried {
        stopped: driver.stopped,
        took: driver.steps.get(step).map_or(Duration::MAX, |s| s.took),
        after: driver.after,
        failure: error.map(|e| format!("{what}{wrote}: {e} [{}]", dir.display())),
    }
}

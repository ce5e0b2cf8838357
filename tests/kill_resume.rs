//! Crash-consistent endings: `evolve`, `tournament`, `validate`, `reevaluate` and a run taken
//! through `ask`/`work`/`tell`, each stopped between two of its writes (the
//! `PLAYSTYLES_TEST_EXIT_AFTER_WRITES` hook of `write_atomic`, at every write or at seeded-random
//! ones) or killed with `kill -9` after a seeded-random delay, then run again (with `--resume`
//! where it applies), end with the files of an uninterrupted run, byte for byte, `report.html`
//! included (`progress.csv` but for its `seconds` column). Tiny Puerto Rico runs (SA-0 games
//! take under a millisecond) keep the whole module to well under a minute.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use playstyles::files::EXIT_AFTER_WRITES;
use playstyles::rng::derive_seed;

use crate::support::cli::{path_arg, scratch};

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
const RUN: &str = run_toml!(1, 8, "");

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

/// A Puerto Rico tournament of 24 games: saved after every tenth and at the end.
const TOURNAMENT_TOML: &str = r#"
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

/// The seed of the random kill points.
const SEED: u64 = 0x6b69_6c6c;

/// Random-delay kills per command.
const KILLS: u64 = 3;

/// One command of the binary: its arguments.
type Args = Vec<String>;

fn args(items: &[&str]) -> Args {
    items.iter().map(|s| s.to_string()).collect()
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_playstyles"))
}

/// Runs `args`, stopped after its `exit_after`-th write if given.
fn run(args: &Args, exit_after: Option<u64>) -> Output {
    let mut c = binary();
    c.args(args);
    if let Some(n) = exit_after {
        c.env(EXIT_AFTER_WRITES, n.to_string());
    }
    c.output().expect("the binary runs")
}

/// Runs `args` and kills it (`SIGKILL`) after `delay` unless it finished first; true if it
/// was killed.
fn killed_after(args: &Args, delay: Duration) -> bool {
    let mut child = binary()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while start.elapsed() < delay {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{args:?} failed by itself: {status}");
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    // It may have finished between the last look and the kill.
    !status.success()
}

/// The output of a run that must have succeeded (or, for `ask`, exited 3: finished).
fn succeeded(o: Output, args: &Args) -> Output {
    assert!(
        o.status.success() || (args[0] == "ask" && o.status.code() == Some(3)),
        "{args:?} failed ({:?}):\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Every file under `dir` but hidden ones (a write killed mid-way leaves its hidden temporary
/// file), by relative path; `progress.csv` without its `seconds` column.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
                continue;
            }
            let mut bytes = std::fs::read(&path).unwrap();
            if name == "progress.csv" {
                let text = String::from_utf8(bytes).unwrap();
                bytes = text
                    .lines()
                    .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest).to_string() + "\n")
                    .collect::<String>()
                    .into_bytes();
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.insert(rel, bytes);
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Panics naming `what` and the first file that differs unless `dir` holds exactly the files
/// of `reference`.
fn assert_same_files(reference: &BTreeMap<String, Vec<u8>>, dir: &Path, what: &str) {
    let got = files(dir);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&got), names(reference), "{what}: other files");
    for (name, bytes) in reference {
        assert!(got[name] == *bytes, "{what}: {name} differs");
    }
}

/// A seeded random number in `0..n`.
fn pick(n: u64, tags: &[u64]) -> u64 {
    derive_seed(SEED, tags) % n.max(1)
}

/// A command whose interruptions the module checks: how to start it in a folder and how to
/// run it again there after an interruption.
trait Interrupted {
    /// Prepares `dir` (inputs the command reads).
    fn prepare(&self, dir: &Path);
    /// The command, run in `dir`.
    fn command(&self, dir: &Path) -> Args;
    /// The command to run again after an interruption left `dir` as it is, or `None` if the
    /// interrupted run had finished its work.
    fn again(&self, dir: &Path) -> Option<Args>;
}

/// Runs `cmd` uninterrupted in `name/reference`, then stopped after each of its writes in turn
/// and killed after [`KILLS`] seeded-random delays, each in a fresh folder and run again:
/// every folder ends with the reference's files.
fn check(name: &str, cmd: &dyn Interrupted) {
    let base = scratch("kill_resume", name);
    let reference_dir = base.join("reference");
    cmd.prepare(&reference_dir);
    let start = Instant::now();
    let command = cmd.command(&reference_dir);
    succeeded(run(&command, None), &command);
    let took = start.elapsed();
    let reference = files(&reference_dir);

    // Stopped right after write n, for n = 1, 2, … until the command makes fewer writes.
    for n in 1.. {
        let dir = base.join(format!("write-{n}"));
        cmd.prepare(&dir);
        let command = cmd.command(&dir);
        let o = run(&command, Some(n));
        if o.status.code() != Some(137) {
            succeeded(o, &command);
            assert!(n > 2, "{name}: only {} write(s)", n - 1);
            break;
        }
        if let Some(again) = cmd.again(&dir) {
            succeeded(run(&again, None), &again);
        }
        assert_same_files(&reference, &dir, &format!("{name} stopped after write {n}"));
    }

    // Killed after a random delay within the uninterrupted run's time.
    for k in 0..KILLS {
        let dir = base.join(format!("kill-{k}"));
        cmd.prepare(&dir);
        let delay = Duration::from_micros(pick(took.as_micros() as u64, &[1, k]));
        if killed_after(&cmd.command(&dir), delay)
            && let Some(again) = cmd.again(&dir)
        {
            succeeded(run(&again, None), &again);
        }
        assert_same_files(&reference, &dir, &format!("{name} killed after {delay:?}"));
    }
}

/// A command that starts from a config file, `COMMAND CONFIG --out OUT --quiet --threads 2`,
/// run again with `--resume` once `OUT/config.toml` exists (before it, the same command again:
/// the folder holds nothing to resume).
struct FromConfig {
    /// The subcommand.
    command: &'static str,
    /// The config file's name and text.
    config: (&'static str, &'static str),
    /// The output folder's name.
    out: &'static str,
}

/// `evolve run.toml --out run`.
const EVOLVE: FromConfig = FromConfig {
    command: "evolve",
    config: ("run.toml", RUN),
    out: "run",
};

/// `evolve run.toml --out run` with adaptive sampling.
const EVOLVE_ADAPTIVE: FromConfig = FromConfig {
    command: "evolve",
    config: ("run.toml", RUN_ADAPTIVE),
    out: "run",
};

/// `tournament t.toml --out out`.
const TOURNAMENT: FromConfig = FromConfig {
    command: "tournament",
    config: ("t.toml", TOURNAMENT_TOML),
    out: "out",
};

impl Interrupted for FromConfig {
    fn prepare(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(self.config.0), self.config.1).unwrap();
    }

    fn command(&self, dir: &Path) -> Args {
        let config = dir.join(self.config.0);
        let out = dir.join(self.out);
        args(&[
            self.command,
            path_arg(&config),
            "--out",
            path_arg(&out),
            "--quiet",
            "--threads",
            "2",
        ])
    }

    fn again(&self, dir: &Path) -> Option<Args> {
        let mut a = self.command(dir);
        if dir.join(self.out).join("config.toml").is_file() {
            a.push("--resume".into());
        }
        Some(a)
    }
}

/// `validate` or `reevaluate` of a copy of a finished run, again with `--resume` unless the
/// tables are written and the journal deleted (finished).
struct Replay {
    /// The finished run to copy.
    run: PathBuf,
    /// The command and its settings.
    args: Args,
    /// Its tables and journal.
    tables: [&'static str; 2],
    journal: &'static str,
}

impl Interrupted for Replay {
    fn prepare(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        for entry in std::fs::read_dir(&self.run).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            }
        }
    }

    fn command(&self, dir: &Path) -> Args {
        let mut a = vec![self.args[0].clone(), path_arg(dir).to_string()];
        a.extend(self.args[1..].iter().cloned());
        a
    }

    fn again(&self, dir: &Path) -> Option<Args> {
        let finished =
            !dir.join(self.journal).exists() && self.tables.iter().all(|t| dir.join(t).is_file());
        let mut a = self.command(dir);
        a.push("--resume".into());
        (!finished).then_some(a)
    }
}

/// The run in `DIR/run` (config `DIR/run.toml`) taken through `ask`, `work` (two shards) and
/// `tell` until `ask` says it is finished, the step of index `step` interrupted by `interrupt`
/// (true if it interrupted it) then run again. Returns the number of steps and whether the
/// chosen one was interrupted.
fn through_tasks(dir: &Path, step: usize, interrupt: &dyn Fn(&Args) -> bool) -> (usize, bool) {
    let run_dir = dir.join("run");
    let config = dir.join("run.toml");
    let mut index = 0;
    let mut interrupted = false;
    let mut take = |a: Args| {
        if index == step {
            interrupted = interrupt(&a);
        }
        index += 1;
        succeeded(run(&a, None), &a)
    };
    loop {
        let asked = take(args(&[
            "ask",
            path_arg(&run_dir),
            "--config",
            path_arg(&config),
        ]));
        if asked.status.code() == Some(3) {
            break;
        }
        let tasks = String::from_utf8(asked.stdout).unwrap();
        let tasks = tasks.trim_end();
        take(args(&["work", tasks, "--shard", "0/2", "--quiet"]));
        take(args(&["work", tasks, "--shard", "1/2", "--quiet"]));
        take(args(&["tell", path_arg(&run_dir)]));
    }
    (index, interrupted)
}

#[test]
fn evolve_stopped_after_any_write_or_killed_then_resumed_ends_as_an_uninterrupted_run() {
    check("evolve", &EVOLVE);
}

#[test]
fn an_adaptive_evolve_stopped_after_any_write_or_killed_then_resumed_ends_as_an_uninterrupted_run()
{
    check("evolve-adaptive", &EVOLVE_ADAPTIVE);
}

#[test]
fn a_tournament_stopped_after_any_write_or_killed_then_resumed_ends_as_an_uninterrupted_one() {
    check("tournament", &TOURNAMENT);
}

#[test]
fn validate_and_reevaluate_stopped_or_killed_then_resumed_write_the_tables_of_an_uninterrupted_run()
{
    let base = scratch("kill_resume", "replay-run");
    EVOLVE.prepare(&base);
    succeeded(run(&EVOLVE.command(&base), None), &EVOLVE.command(&base));
    let finished = base.join("run");
    let validate = Replay {
        run: finished.clone(),
        args: args(&[
            "validate",
            "--cells",
            "all",
            "--repetitions",
            "1",
            "--threads",
            "2",
            "--quiet",
        ]),
        tables: ["validation.csv", "validation_summary.csv"],
        journal: "validation.journal.json",
    };
    check("validate", &validate);
    let reevaluate = Replay {
        run: finished,
        args: args(&["reevaluate", "--games", "2", "--threads", "2", "--quiet"]),
        tables: ["reevaluated.csv", "reevaluated_summary.csv"],
        journal: "reevaluated.journal.json",
    };
    check("reevaluate", &reevaluate);
}

#[test]
fn a_run_through_ask_work_and_tell_with_a_step_stopped_or_killed_ends_as_evolve_does() {
    let base = scratch("kill_resume", "tasks");
    let evolved = base.join("evolved");
    EVOLVE.prepare(&evolved);
    let evolve = EVOLVE.command(&evolved);
    succeeded(run(&evolve, None), &evolve);
    let reference = files(&evolved.join("run"));

    let whole = base.join("whole");
    EVOLVE.prepare(&whole);
    let (steps, _) = through_tasks(&whole, usize::MAX, &|_| false);
    assert_same_files(&reference, &whole.join("run"), "ask/work/tell");
    // ask, work, work, tell per batch, then the ask that finds the schedule finished.
    assert_eq!(steps, 13);

    // The last batch's steps and the final ask stopped after each of their writes in turn
    // (the last tell writes the batch's five files, then the page); earlier steps after a
    // sampled write.
    for step in steps - 5..steps {
        for n in 1.. {
            let dir = base.join(format!("step-{step}-write-{n}"));
            EVOLVE.prepare(&dir);
            let (_, stopped) =
                through_tasks(&dir, step, &|a| run(a, Some(n)).status.code() == Some(137));
            assert_same_files(
                &reference,
                &dir.join("run"),
                &format!("step {step} write {n}"),
            );
            if !stopped {
                assert!(
                    step != steps - 2 || n == 7,
                    "the last tell made {} writes",
                    n - 1
                );
                break;
            }
        }
    }
    for k in 0..KILLS {
        let (step, n) = (pick(8, &[2, k]) as usize, 1 + pick(2, &[3, k]));
        let dir = base.join(format!("step-{step}-write-{n}"));
        EVOLVE.prepare(&dir);
        through_tasks(&dir, step, &|a| run(a, Some(n)).status.code() == Some(137));
        assert_same_files(
            &reference,
            &dir.join("run"),
            &format!("step {step} write {n}"),
        );
    }

    for k in 0..2 * KILLS {
        let step = pick(steps as u64, &[4, k]) as usize;
        let dir = base.join(format!("step-{step}-killed-{k}"));
        EVOLVE.prepare(&dir);
        let delay = Duration::from_micros(pick(50_000, &[5, k]));
        through_tasks(&dir, step, &|a| killed_after(a, delay));
        assert_same_files(&reference, &dir.join("run"), &format!("step {step} killed"));
    }
}

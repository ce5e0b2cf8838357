//! `ask`, `work` and `tell` as binaries on the tiny run of `tests/evolve.rs`: a run taken
//! through them with two shards ends byte-identical to `evolve`; asking is idempotent; a batch
//! with missing results is refused naming the tasks; telling twice is harmless; a killed worker
//! re-run completes its shard; standard-input mode; bad task files, shards and run
//! directories are named.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::evolve::TINY;
use crate::support::cli::{
    path_arg, playstyles, read_bytes, read_text, scratch, stderr, succeeded,
};

/// Writes `text` as `<dir>/tiny.toml` and returns its path.
fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("tiny.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `ask RUN --config CONFIG`: the task file's path, or `None` when it exits 3 (finished).
fn ask(run: &Path, config: &Path) -> Option<PathBuf> {
    let o = playstyles(&["ask", path_arg(run), "--config", path_arg(config)]);
    if o.status.code() == Some(3) {
        assert!(o.stdout.is_empty(), "nothing on stdout when finished");
        return None;
    }
    let out = succeeded(o, "ask");
    let path = PathBuf::from(out.trim_end());
    assert_eq!(out.lines().count(), 1, "ask prints the path alone: {out}");
    assert!(path.is_file(), "{}", path.display());
    Some(path)
}

fn work(tasks: &Path, shard: &str) -> String {
    succeeded(
        playstyles(&["work", path_arg(tasks), "--shard", shard, "--threads", "2"]),
        "work",
    )
}

fn tell(run: &Path) -> Output {
    playstyles(&["tell", path_arg(run)])
}

/// The reference: the tiny run through `evolve`.
fn evolved(dir: &Path, config: &Path) -> PathBuf {
    let out = dir.join("evolved");
    succeeded(
        playstyles(&[
            "evolve",
            path_arg(config),
            "--out",
            path_arg(&out),
            "--quiet",
        ]),
        "evolve",
    );
    out
}

/// Runs the whole schedule through ask / work (two shards) / tell; returns the batches told.
fn through_tasks(run: &Path, config: &Path) -> usize {
    let mut batches = 0;
    while let Some(tasks) = ask(run, config) {
        // Asking again before telling writes the same batch.
        let again = ask(run, config).unwrap();
        assert_eq!(again, tasks);
        work(&tasks, "1/2");
        work(&tasks, "0/2");
        let told = succeeded(tell(run), "tell");
        assert!(told.contains(&format!("batch {batches} told")), "{told}");
        batches += 1;
    }
    batches
}

/// Panics unless the runs in `a` and `b` have the same archive, checkpoint, config and progress
/// (but for the `seconds` column).
pub fn assert_same_run(a: &Path, b: &Path) {
    for f in ["archive.csv", "checkpoint.json", "config.toml"] {
        assert!(
            read_bytes(&a.join(f)) == read_bytes(&b.join(f)),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
    let without_seconds = |d: &Path| -> Vec<String> {
        read_text(&d.join("progress.csv"))
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest).to_string())
            .collect()
    };
    assert_eq!(without_seconds(a), without_seconds(b));
}

#[test]
fn a_run_through_ask_work_and_tell_with_two_shards_is_byte_identical_to_evolve() {
    let dir = scratch("tasks", "identical");
    let cfg = config(&dir, TINY);
    let reference = evolved(&dir, &cfg);
    let run = dir.join("run");
    assert_eq!(
        through_tasks(&run, &cfg),
        4,
        "the tiny schedule has four batches"
    );
    assert_same_run(&reference, &run);
    assert!(
        run.join("report.html").is_file(),
        "the last tell writes the explorer page"
    );
    assert!(
        !run.join("batches").join("000003").exists(),
        "a told batch's folder is removed"
    );
    // Finished: ask exits 3, tell has nothing to tell.
    assert!(ask(&run, &cfg).is_none());
    let told = succeeded(tell(&run), "tell");
    assert!(told.contains("nothing to tell"), "{told}");
}

#[test]
fn a_finished_run_without_its_page_gets_it_from_the_next_tell_or_ask() {
    let dir = scratch("tasks", "page");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    through_tasks(&run, &cfg);
    let page = run.join("report.html");
    let written = read_bytes(&page);
    // As a tell killed after the last checkpoint leaves the run: the page not written, the
    // last batch's folder not removed.
    std::fs::remove_file(&page).unwrap();
    let last = run.join("batches").join("000003");
    std::fs::create_dir_all(&last).unwrap();
    std::fs::write(last.join("tasks.jsonl"), "").unwrap();
    let told = succeeded(tell(&run), "tell");
    assert!(
        told.contains("nothing to tell, the schedule is finished"),
        "{told}"
    );
    assert!(told.contains("report.html"), "{told}");
    assert!(read_bytes(&page) == written, "the same page");
    assert!(!last.exists(), "the told batch's folder is removed");
    // Or the driver asks first: ask writes the page, says nothing and exits 3.
    std::fs::remove_file(&page).unwrap();
    assert!(ask(&run, &cfg).is_none());
    assert!(read_bytes(&page) == written, "the same page");
}

#[test]
fn a_result_that_cannot_be_a_game_of_the_run_is_named_by_file_and_line() {
    let dir = scratch("tasks", "malformed");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    let tasks = ask(&run, &cfg).unwrap();
    work(&tasks, "0/1");
    let path = tasks
        .parent()
        .unwrap()
        .join("results")
        .join("shard-0-of-1.jsonl");
    let good = read_text(&path);
    let second = good.lines().nth(1).unwrap();
    let edits = [
        // One feature value where the run has two: once filed in the wrong cell.
        (
            {
                let at = second.find("\"features\":[").unwrap() + 12;
                let end = at + second[at..].find(']').unwrap();
                format!("{}1.0{}", &second[..at], &second[end..])
            },
            "1 feature value(s), the run has 2 feature(s)",
        ),
        (
            second
                .replace("\"won\":false", "\"won\":true")
                .replace("\"draw\":false", "\"draw\":true"),
            "both won and draw are true",
        ),
    ];
    for (line, why) in &edits {
        let text = good.replacen(second, line, 1);
        std::fs::write(&path, text).unwrap();
        let o = tell(&run);
        assert_eq!(o.status.code(), Some(2), "{why}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("results: 1 malformed result(s): shard-0-of-1.jsonl:2 (") && e.contains(why),
            "{e}"
        );
        assert!(!run.join("checkpoint.json").exists(), "nothing told");
    }
    std::fs::write(&path, &good).unwrap();
    succeeded(tell(&run), "tell");
}

#[test]
fn a_run_whose_config_an_earlier_version_wrote_continues_through_ask_work_and_tell() {
    let dir = scratch("tasks", "older-config");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    ask(&run, &cfg).unwrap();
    // As an earlier version would have started it: no `emitter` line, no batch asked yet.
    let path = run.join("config.toml");
    let older = read_text(&path).replace("emitter = \"schedule\"\n", "");
    std::fs::write(&path, &older).unwrap();
    std::fs::remove_dir_all(run.join("batches")).unwrap();
    let tasks = ask(&run, &cfg).unwrap();
    work(&tasks, "0/1");
    let told = succeeded(tell(&run), "tell");
    assert!(told.contains("batch 0 told"), "{told}");
    assert_eq!(read_text(&path), older);
}

#[test]
fn missing_results_are_named_and_telling_twice_is_harmless() {
    let dir = scratch("tasks", "missing");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    // No run yet: tell names config.toml.
    let o = tell(&run);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("config.toml") && stderr(&o).contains("ask"),
        "{}",
        stderr(&o)
    );

    let tasks = ask(&run, &cfg).unwrap();
    assert_eq!(read_text(&tasks).lines().count(), 6, "3 genomes x 2 games");
    work(&tasks, "0/2");
    let o = tell(&run);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("3 of 6 tasks have no result"), "{e}");
    assert!(e.contains("evaluation 0 (games 1)"), "{e}");
    assert!(e.contains("evaluation 2 (games 1)"), "{e}");
    assert!(!run.join("checkpoint.json").exists(), "nothing told");

    // A foreign result (another configuration's hash) is named with its file and line.
    let results = tasks.parent().unwrap().join("results");
    let own = read_text(&results.join("shard-0-of-2.jsonl"));
    let first = own.lines().next().unwrap();
    let hash_at = first.find("\"config_hash\":\"").unwrap() + 15;
    let foreign = format!("{}0{}\n", &first[..hash_at], &first[hash_at + 1..]);
    std::fs::write(results.join("other.jsonl"), foreign).unwrap();
    work(&tasks, "1/2");
    let o = tell(&run);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("1 foreign result(s): other.jsonl:1 (config hash"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(results.join("other.jsonl")).unwrap();

    succeeded(tell(&run), "tell");
    let checkpoint = read_bytes(&run.join("checkpoint.json"));
    let archive = read_bytes(&run.join("archive.csv"));
    let again = succeeded(tell(&run), "tell again");
    assert!(
        again.contains("nothing to tell, batch 1 has not been asked"),
        "{again}"
    );
    assert_eq!(read_bytes(&run.join("checkpoint.json")), checkpoint);
    assert_eq!(read_bytes(&run.join("archive.csv")), archive);
}

#[test]
fn a_killed_worker_run_again_completes_its_shard() {
    let dir = scratch("tasks", "killed");
    // More games per genome, so that the worker is still playing when it is killed.
    let cfg = config(&dir, &TINY.replace("repetitions = 1", "repetitions = 6"));
    let run = dir.join("run");
    let tasks = ask(&run, &cfg).unwrap();
    let results = tasks
        .parent()
        .unwrap()
        .join("results")
        .join("shard-0-of-1.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args([
            "work",
            path_arg(&tasks),
            "--shard",
            "0/1",
            "--threads",
            "1",
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !results.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = read_text(&results).lines().count();
    assert!(
        (1..36).contains(&kept),
        "killed mid-shard, {kept} of 36 results kept"
    );
    let o = tell(&run);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unfinished shard cannot be told"
    );

    let summary = work(&tasks, "0/1");
    assert!(
        summary.contains(&format!(
            "36 task(s), {kept} already done, {} played",
            36 - kept
        )),
        "{summary}"
    );
    assert_eq!(read_text(&results).lines().count(), 36);
    succeeded(tell(&run), "tell");

    // The same batch through evolve: the same archive after batch 0.
    let reference = dir.join("evolved");
    succeeded(
        playstyles(&[
            "evolve",
            path_arg(&cfg),
            "--out",
            path_arg(&reference),
            "--quiet",
            "--stop-after-batches",
            "1",
        ]),
        "evolve",
    );
    assert_same_run(&reference, &run);
}

#[test]
fn standard_input_mode_writes_one_result_line_per_task_and_nothing_else() {
    let dir = scratch("tasks", "stdin");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    let tasks = ask(&run, &cfg).unwrap();
    let text = read_text(&tasks);
    let mut child = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(["work", "-", "--shard", "0/1"])
        // A shard from the environment would be overridden by --shard.
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = succeeded(child.wait_with_output().unwrap(), "work -");
    assert_eq!(out.lines().count(), 6, "{out}");
    // The file mode's results are the same lines, in some order.
    work(&tasks, "0/1");
    let file = read_text(
        &tasks
            .parent()
            .unwrap()
            .join("results")
            .join("shard-0-of-1.jsonl"),
    );
    let sorted = |t: &str| {
        let mut v: Vec<String> = t.lines().map(str::to_string).collect();
        v.sort();
        v
    };
    assert_eq!(sorted(&out), sorted(&file));

    // Without --shard, the environment chooses: Slurm's array element 1 of 2.
    let o = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(["work", path_arg(&tasks), "--threads", "1"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .output()
        .unwrap();
    let summary = succeeded(o, "work from the environment");
    assert!(
        summary.contains("shard 1/2, 3 task(s), 3 already done, 0 played"),
        "{summary}"
    );
}

#[test]
fn bad_task_files_shards_and_configs_are_named() {
    let dir = scratch("tasks", "errors");
    let cfg = config(&dir, TINY);
    let run = dir.join("run");
    let tasks = ask(&run, &cfg).unwrap();

    let o = playstyles(&["work", path_arg(&tasks), "--shard", "2/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--shard"), "{}", stderr(&o));

    let bad = dir.join("bad.jsonl");
    let mut text = read_text(&tasks);
    text.push_str("{\"batch\": 0}\n");
    std::fs::write(&bad, &text).unwrap();
    let o = playstyles(&["work", path_arg(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.jsonl: line 7"), "{}", stderr(&o));

    let level = read_text(&tasks).replacen(
        "\"level\":\"1590191438878\"",
        "\"level\":\"no-such-level\"",
        1,
    );
    std::fs::write(&bad, level).unwrap();
    let o = playstyles(&["work", path_arg(&bad), "--shard", "0/1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.jsonl: line 1"), "{}", stderr(&o));

    let o = playstyles(&["work", path_arg(&dir.join("none.jsonl"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("none.jsonl"), "{}", stderr(&o));

    // Another config for an existing run is refused naming config.toml.
    let other = dir.join("other.toml");
    std::fs::write(&other, TINY.replace("seed = 5", "seed = 6")).unwrap();
    let o = playstyles(&["ask", path_arg(&run), "--config", path_arg(&other)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("config.toml"), "{}", stderr(&o));

    // A task file that is not the batch the run expects is refused by tell.
    std::fs::write(
        &tasks,
        read_text(&tasks).replacen("mcts(budget=20)\"", "mcts(budget=21)\"", 1),
    )
    .unwrap();
    let o = tell(&run);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("tasks.jsonl") && stderr(&o).contains("ask again"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_puerto_rico_run_on_levels_of_different_player_counts_runs_alike_everywhere() {
    let dir = scratch("tasks", "player-counts");
    let text = crate::validate::PUERTO_RICO_CONFIG
        .replace(r#"levels = ["4p"]"#, r#"levels = ["3p", "4p"]"#)
        .replace("repetitions = 4", "repetitions = 3");
    let cfg = config(&dir, &text);
    // Refused before ("level 4p has 4 players but 3 agents were given").
    let reference = evolved(&dir, &cfg);
    // Each task seats its own level's players: the player against N - 1 baselines.
    let peek = dir.join("peek");
    let tasks = ask(&peek, &cfg).unwrap();
    let lines: Vec<serde_json::Value> = read_text(&tasks)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        !lines.is_empty() && lines.len().is_multiple_of(6),
        "2 levels x 3 repetitions a genome"
    );
    for t in &lines {
        let seats = t["seats"].as_array().unwrap().len();
        let level = t["level"].as_str().unwrap();
        assert_eq!(format!("{seats}p"), level, "{t}");
    }
    let run = dir.join("run");
    through_tasks(&run, &cfg);
    assert_same_run(&reference, &run);
    // Validation and re-evaluation play each level with its own count; --levels names them.
    let run_arg = path_arg(&run);
    let out = succeeded(
        playstyles(&[
            "validate",
            run_arg,
            "--levels",
            "2p,5p",
            "--repetitions",
            "2",
            "--quiet",
        ]),
        "validate",
    );
    assert!(out.contains("2p, 5p"), "{out}");
    succeeded(
        playstyles(&["reevaluate", run_arg, "--games", "4", "--quiet"]),
        "reevaluate",
    );
}

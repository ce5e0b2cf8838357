//! The `evolve` command, run as a binary on tiny configs (budget 20, two levels, one repetition,
//! eight genomes in four batches): the run directory's files, byte-identical archives for any
//! thread count, resuming a stopped run (one whose config an earlier version wrote too), no
//! overwriting without `--force`, config errors naming the field; the minimal example configs
//! resolved for their games.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use playstyles::experiments::EvolveConfig;
use playstyles::experiments::evolve::RUN_FILES;
use playstyles::experiments::run_config::RunConfig;
use playstyles::experiments::run_dir::CHECKPOINT_JSON;

use crate::support::cli::{playstyles, read_bytes as read, scratch, stderr};

/// A tiny run: 2 levels x 1 repetition (2 games per genome), 4 random genomes then 4
/// offspring, 3 per batch (batches of 3, 1, 3 and 1 genomes).
pub(crate) const TINY: &str = r#"
seed = 5
batch_size = 3

[evaluation]
levels = [1590191438878, 1590791907337]
repetitions = 1
player = "pmcts(bias=true,pruning=true,budget=20)"
baseline = "mcts(budget=20)"

[genome]
scripts = ["spawn.strongest", "spawn.defensive", "spawn.range", "research.farms"]

[[features]]
name = "attacks"
min = 0
max = 20
step = 2

[[features]]
name = "support_balance"
min = -5
max = 5
step = 1

[map_elites]
adaptive = false
one_hot = false
random_init = 4
iterations = 4
"#;

/// Writes `text` as `<dir>/tiny.toml` and returns its path.
fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("tiny.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `evolve CONFIG --out OUT --quiet ARGS…` and checks it succeeds.
fn evolve_ok(config: &Path, out: &Path, args: &[&str]) -> Output {
    let o = evolve(config, out, args);
    assert!(
        o.status.success(),
        "evolve failed: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    o
}

fn evolve(config: &Path, out: &Path, args: &[&str]) -> Output {
    let (config, out) = (config.to_str().unwrap(), out.to_str().unwrap());
    let mut all = vec!["evolve", config, "--out", out, "--quiet"];
    all.extend_from_slice(args);
    playstyles(&all)
}

/// `progress.csv` without its `seconds` column (wall-clock time differs between runs).
fn progress_without_seconds(dir: &Path) -> Vec<String> {
    let text = String::from_utf8(read(&dir.join("progress.csv"))).unwrap();
    text.lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest).to_string())
        .collect()
}

/// Every file of the run directory, by name.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                read(&e.path()),
            )
        })
        .collect()
}

#[test]
fn a_run_writes_every_file_and_prints_a_summary() {
    let dir = scratch("evolve", "files");
    let out = dir.join("run");
    let o = evolve_ok(&config(&dir, TINY), &out, &["--threads", "2"]);
    for f in RUN_FILES {
        assert!(out.join(f).is_file(), "{f} is missing");
    }
    assert!(read(&out.join("heatmap.png")).starts_with(b"\x89PNG\r\n\x1a\n"));
    let report = String::from_utf8(read(&out.join("report.html"))).unwrap();
    assert!(
        report.contains("class=\"card\""),
        "the run explorer has elite cards"
    );
    assert!(
        String::from_utf8(read(&out.join("heatmap.svg")))
            .unwrap()
            .contains("<svg")
    );
    // The resolved config names every setting and parses back to the same run.
    let resolved = String::from_utf8(read(&out.join("config.toml"))).unwrap();
    let again = RunConfig::parse(&resolved, "other").unwrap();
    assert_eq!(again.name, "tiny");
    assert_eq!(again.scripts.as_ref().map(Vec::len), Some(4));
    assert!(resolved.contains("compat = "), "{resolved}");
    // One progress row per batch, the last one counting every evaluation and game.
    let progress = progress_without_seconds(&out);
    assert_eq!(progress.len(), 1 + 4, "{progress:?}");
    assert!(progress[4].starts_with("3,8,16,"), "{progress:?}");
    let archive = String::from_utf8(read(&out.join("archive.csv"))).unwrap();
    assert!(archive.starts_with("cell,cell_attacks,cell_support_balance,"));
    assert!(archive.lines().count() >= 2, "no elite:\n{archive}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    for word in ["elites", "coverage", "QD score", "best win rate", "games/s"] {
        assert!(stdout.contains(word), "{word} missing from:\n{stdout}");
    }
    assert!(stdout.contains(&out.join("archive.csv").display().to_string()));
}

#[test]
fn archive_csv_is_byte_identical_with_one_and_two_threads() {
    let dir = scratch("evolve", "threads");
    let cfg = config(&dir, TINY);
    let (one, two) = (dir.join("one"), dir.join("two"));
    evolve_ok(&cfg, &one, &["--threads", "1"]);
    evolve_ok(&cfg, &two, &["--threads", "2"]);
    assert_eq!(
        read(&one.join("archive.csv")),
        read(&two.join("archive.csv"))
    );
    assert_eq!(
        read(&one.join(CHECKPOINT_JSON)),
        read(&two.join(CHECKPOINT_JSON))
    );
    assert_eq!(
        progress_without_seconds(&one),
        progress_without_seconds(&two)
    );
}

#[test]
fn a_stopped_run_resumed_ends_as_an_uninterrupted_run() {
    let dir = scratch("evolve", "resume");
    let cfg = config(&dir, TINY);
    let (whole, stopped) = (dir.join("whole"), dir.join("stopped"));
    evolve_ok(&cfg, &whole, &["--threads", "2"]);

    let o = evolve_ok(
        &cfg,
        &stopped,
        &["--threads", "2", "--stop-after-batches", "1"],
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("--resume"));
    assert_eq!(progress_without_seconds(&stopped).len(), 1 + 1);
    // Resumed twice, with another thread count: one batch, then the rest.
    evolve_ok(
        &cfg,
        &stopped,
        &["--threads", "1", "--resume", "--stop-after-batches", "1"],
    );
    assert_eq!(progress_without_seconds(&stopped).len(), 1 + 2);
    evolve_ok(&cfg, &stopped, &["--resume"]);

    assert_eq!(
        read(&whole.join("archive.csv")),
        read(&stopped.join("archive.csv"))
    );
    assert_eq!(
        read(&whole.join(CHECKPOINT_JSON)),
        read(&stopped.join(CHECKPOINT_JSON))
    );
    assert_eq!(
        read(&whole.join("config.toml")),
        read(&stopped.join("config.toml"))
    );
    assert_eq!(
        progress_without_seconds(&whole),
        progress_without_seconds(&stopped)
    );
}

/// TINY with continuous weights in [0, 1] and offspring made by `emitter` (its `[map_elites]`
/// lines).
fn tiny_continuous(emitter: &str) -> String {
    TINY.replace(
        "\"research.farms\"]",
        "\"research.farms\"]\nrange = [0.0, 1.0]",
    )
    .replace("iterations = 4", &format!("iterations = 4\n{emitter}"))
}

#[test]
fn continuous_emitters_run_reproducibly_and_resume_exactly() {
    let emitters = [
        "emitter = \"gaussian\"\nsigma = [0.05, 0.1, 0.2, 0.3]",
        "emitter = \"iso_line_dd\"\niso_sigma = 0.05",
    ];
    let mut archives = Vec::new();
    for (i, emitter) in emitters.iter().enumerate() {
        let dir = scratch("evolve", &format!("continuous-{i}"));
        let cfg = config(&dir, &tiny_continuous(emitter));
        let (whole, stopped) = (dir.join("whole"), dir.join("stopped"));
        evolve_ok(&cfg, &whole, &["--threads", "2"]);
        // Stopped after the random genomes, the offspring made by the resumed run.
        evolve_ok(
            &cfg,
            &stopped,
            &["--threads", "2", "--stop-after-batches", "2"],
        );
        evolve_ok(&cfg, &stopped, &["--threads", "1", "--resume"]);
        for f in ["archive.csv", CHECKPOINT_JSON, "config.toml"] {
            assert_eq!(
                read(&whole.join(f)),
                read(&stopped.join(f)),
                "{emitter}: {f}"
            );
        }
        assert_eq!(
            progress_without_seconds(&whole),
            progress_without_seconds(&stopped)
        );
        let resolved = String::from_utf8(read(&whole.join("config.toml"))).unwrap();
        let given = RunConfig::parse(&tiny_continuous(emitter), "tiny").unwrap();
        assert_eq!(
            RunConfig::parse(&resolved, "tiny").unwrap().emitter,
            given.emitter
        );
        archives.push(read(&whole.join("archive.csv")));
    }
    assert_ne!(archives[0], archives[1]);
}

#[test]
fn resuming_a_finished_run_writes_nothing() {
    let dir = scratch("evolve", "resume-done");
    let cfg = config(&dir, TINY);
    let out = dir.join("run");
    evolve_ok(&cfg, &out, &[]);
    let before = snapshot(&out);
    let modified = |dir: &Path| -> Vec<(std::ffi::OsString, std::time::SystemTime)> {
        let mut m: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), e.metadata().unwrap().modified().unwrap())
            })
            .collect();
        m.sort();
        m
    };
    let times = modified(&out);
    let printed = evolve_ok(&cfg, &out, &["--resume"]);
    assert!(String::from_utf8_lossy(&printed.stdout).contains("nothing to do"));
    let after = snapshot(&out);
    for f in [
        "archive.csv",
        "progress.csv",
        CHECKPOINT_JSON,
        "config.toml",
    ] {
        assert_eq!(before[f], after[f], "{f} changed");
    }
    // Issue 60: nothing to do, nothing written.
    assert_eq!(modified(&out), times, "a file was written again");
}

#[test]
fn a_run_whose_config_an_earlier_version_wrote_resumes_keeping_it() {
    let dir = scratch("evolve", "resume-older");
    let cfg = config(&dir, TINY);
    let out = dir.join("run");
    evolve_ok(&cfg, &out, &["--stop-after-batches", "1"]);
    // Resolved configs used to leave `emitter = "schedule"` out.
    let path = out.join("config.toml");
    let written = String::from_utf8(read(&path)).unwrap();
    let older = written.replace("emitter = \"schedule\"\n", "");
    assert_ne!(older, written);
    std::fs::write(&path, &older).unwrap();
    // Nor did its checkpoints carry the fingerprint of config.toml.
    let checkpoint = out.join(CHECKPOINT_JSON);
    let without: String = String::from_utf8(read(&checkpoint))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"run_config\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&checkpoint, without).unwrap();
    evolve_ok(&cfg, &out, &["--resume"]);
    assert_eq!(progress_without_seconds(&out).len(), 1 + 4);
    assert_eq!(String::from_utf8(read(&path)).unwrap(), older);
    // A changed value is still another run.
    let other = config(&dir, &TINY.replace("iterations = 4", "iterations = 5"));
    let o = evolve(&other, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn resuming_with_a_progress_row_of_the_checkpoint_missing_is_refused_naming_progress_csv() {
    let dir = scratch("evolve", "resume-progress-cut");
    let cfg = config(&dir, TINY);
    let out = dir.join("run");
    evolve_ok(&cfg, &out, &["--stop-after-batches", "2"]);
    let path = out.join("progress.csv");
    let text = String::from_utf8(read(&path)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "a header and two batches");
    // The last row lost: its batch cannot be rebuilt, so the run is refused.
    std::fs::write(&path, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
    let o = evolve(&cfg, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("progress.csv") && e.contains("1 batch row(s), but the checkpoint holds 2"),
        "{e}"
    );
    // A row doubled or out of order is named by its line.
    std::fs::write(&path, format!("{}\n{}\n{}\n", lines[0], lines[1], lines[1])).unwrap();
    let e = stderr(&evolve(&cfg, &out, &["--resume"]));
    assert!(
        e.contains("progress.csv: line 3: batch 0 where batch 1 belongs"),
        "{e}"
    );
    // Restored, the run resumes.
    std::fs::write(&path, &text).unwrap();
    evolve_ok(&cfg, &out, &["--resume"]);
}

#[test]
fn resuming_a_run_that_never_started_starts_it() {
    // A requeued job always passes --resume: with nothing to resume, the run starts, says so,
    // and ends as one started without --resume.
    let dir = scratch("evolve", "resume-none");
    let cfg = config(&dir, TINY);
    let out = dir.join("run");
    let printed =
        String::from_utf8_lossy(&evolve_ok(&cfg, &out, &["--resume"]).stdout).into_owned();
    assert!(
        printed.starts_with(&format!("nothing to resume in {}: starting", out.display())),
        "{printed}"
    );
    let plain = dir.join("plain");
    evolve_ok(&cfg, &plain, &[]);
    crate::tasks::assert_same_run(&plain, &out);
}

#[test]
fn resuming_with_another_config_is_refused_naming_the_file() {
    let dir = scratch("evolve", "resume-other");
    let out = dir.join("run");
    evolve_ok(&config(&dir, TINY), &out, &["--stop-after-batches", "1"]);
    let before = snapshot(&out);
    let other = config(&dir, &TINY.replace("iterations = 4", "iterations = 5"));
    let o = evolve(&other, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("config.toml"), "{}", stderr(&o));
    assert_eq!(snapshot(&out), before);
}

#[test]
fn a_run_directory_is_not_overwritten_without_force() {
    let dir = scratch("evolve", "force");
    let cfg = config(&dir, TINY);
    let out = dir.join("run");
    evolve_ok(&cfg, &out, &["--stop-after-batches", "1"]);
    let before = snapshot(&out);

    let o = evolve(&cfg, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("`out`") && e.contains(&out.display().to_string()),
        "{e}"
    );
    assert!(e.contains("--force"), "{e}");
    assert_eq!(snapshot(&out), before, "files changed");

    evolve_ok(&cfg, &out, &["--force", "--stop-after-batches", "2"]);
    assert_eq!(progress_without_seconds(&out).len(), 1 + 2);
}

#[test]
fn bad_configs_exit_with_code_2_naming_the_field() {
    let dir = scratch("evolve", "bad");
    let cases = [
        (
            TINY.replace("\"attacks\"", "\"attaks\""),
            "features[0].name",
        ),
        (
            TINY.replace("\"spawn.range\"", "\"spawn.nope\""),
            "genome.scripts[2]",
        ),
        (
            TINY.replace("levels = [1590191438878, 1590791907337]", "levels = []"),
            "evaluation.levels",
        ),
        (TINY.replace("max = 20", "max = 0"), "features[0].max"),
        (
            TINY.replace("random_init = 4", "random_init = -4"),
            "map_elites.random_init",
        ),
        (
            TINY.replace("iterations = 4", "iterations = -1"),
            "map_elites.iterations",
        ),
        (
            TINY.replace("repetitions = 1", "repetitions = -1"),
            "evaluation.repetitions",
        ),
        (
            TINY.replace(
                "baseline = \"mcts(budget=20)\"",
                "baseline = \"mcts(budgt=20)\"",
            ),
            "evaluation.baseline",
        ),
        (
            TINY.replace(
                "player = \"pmcts(bias=true,pruning=true,budget=20)\"",
                "player = \"random\"",
            ),
            "evaluation.player",
        ),
        (
            TINY.replace("iterations = 4", "iterations = 4\nemitter = \"gaussian\"\nsigma = 0.1"),
            "map_elites.emitter",
        ),
        (
            tiny_continuous("emitter = \"gaussian\"\nsigma = [0.1, 0.1, 0.1]"),
            "map_elites.sigma",
        ),
        (
            tiny_continuous("emitter = \"iso_line_dd\"\nline_sigma = -0.2"),
            "map_elites.line_sigma",
        ),
        // Without a script list the run evolves the game's 11 weights.
        (
            tiny_continuous("emitter = \"gaussian\"\nsigma = [0.1, 0.1, 0.1, 0.1]").replace(
                "scripts = [\"spawn.strongest\", \"spawn.defensive\", \"spawn.range\", \"research.farms\"]\n",
                "",
            ),
            "map_elites.sigma",
        ),
        // A missing top-level table, in a file whose first key starts at offset 0 (was
        // named `seed.evaluation`).
        ("seed = 1\n".to_string(), "evaluation"),
        // A level the game refuses: the config's field, not the `--level` flag.
        (
            "game = \"puerto-rico\"\n[evaluation]\nlevels = [\"9p\"]\nplayer = \"sa0\"\n\
             baseline = \"sa0\"\n[[features]]\nname = \"shipping_pct\"\nmin = 0\nmax = 100\n\
             step = 10\n"
                .to_string(),
            "evaluation.levels",
        ),
    ];
    for (i, (text, field)) in cases.iter().enumerate() {
        let out = dir.join(format!("run{i}"));
        let o = evolve(&config(&dir, text), &out, &[]);
        assert_eq!(o.status.code(), Some(2), "{field}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.starts_with("error: "), "{e}");
        assert!(
            e.contains(&format!("`{field}`")),
            "{field} not named in: {e}"
        );
        assert!(!out.join("config.toml").exists(), "{field}: files written");
    }
}

#[test]
fn a_missing_config_file_is_named() {
    let dir = scratch("evolve", "missing");
    let o = playstyles(&["evolve", dir.join("nope.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope.toml"), "{}", stderr(&o));
}

#[test]
fn the_experiment_files_are_valid_runs_with_the_papers_settings() {
    use playstyles::experiments::config_file::LevelSet;
    use playstyles::experiments::run_game::resolve_features;
    use playstyles::games::tribes::QUICKSTART;
    use playstyles::games::tribes::TribesGame;
    use playstyles::games::tribes::ai::scripts::SCRIPT_NAMES;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let quick = EvolveConfig::load(Some(&dir.join("quickstart.toml")), None).unwrap();
    assert_eq!(quick.run, EvolveConfig::load(None, None).unwrap().run);
    assert_eq!(
        std::fs::read_to_string(dir.join("quickstart.toml")).unwrap(),
        QUICKSTART
    );
    quick.run.check_scripts(&SCRIPT_NAMES).unwrap();

    let cases = [
        (
            "usecase1-attacks-vs-support",
            ["attacks", "support_balance"],
        ),
        (
            "usecase2-defenders-vs-win-turn",
            ["num_spawn_defender", "speed_win"],
        ),
        (
            "usecase3-research-vs-tiles",
            ["research_progress", "owned_tiles_progress"],
        ),
    ];
    for (name, features) in cases {
        let cfg = EvolveConfig::load(Some(&dir.join(format!("{name}.toml"))), None).unwrap();
        let run = &cfg.run;
        run.check_scripts(&SCRIPT_NAMES).unwrap();
        assert_eq!(run.name, name);
        assert_eq!(cfg.out, Path::new("results").join(name));
        let names: Vec<&str> = run.features.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, features, "{name}");
        // Every feature is one Tribes has.
        let resolved = resolve_features(&TribesGame::default(), run).unwrap();
        assert_eq!(resolved.len(), names.len(), "{name}");
        assert_eq!(run.scripts.as_ref().map(Vec::len), Some(11), "{name}");
        let LevelSet::List(levels) = &run.levels else {
            panic!("{name}: levels are not listed")
        };
        assert_eq!(levels.len(), 5, "{name}");
        assert_eq!(run.repetitions, 4, "{name}");
        let e = &run.emitter;
        assert_eq!(
            (e.one_hot, e.random_init, e.iterations),
            (true, 40, 500),
            "{name}"
        );
        assert_eq!(
            run.player.to_string(),
            "pmcts(bias=true,pruning=false,budget=2000)"
        );
        assert_eq!(run.baseline.to_string(), "mcts(budget=2000)");
    }
}

#[test]
fn the_minimal_configs_resolve_for_their_games_with_every_default_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let scratch = scratch("evolve", "minimal");
    for game in ["tribes", "prismata", "puerto-rico"] {
        let path = dir.join(format!("minimal-{game}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        for key in ["seed", "repetitions", "[map_elites]", "[genome]", "[rules]"] {
            assert!(
                !lines.iter().any(|l| l.starts_with(key)),
                "{game}: the minimal config sets {key}"
            );
        }
        let given = EvolveConfig::load(Some(&path), None).unwrap().run;
        assert_eq!(given.game.name(), game);
        // 20 games a genome: repetitions per level rounded up to even.
        let playstyles::experiments::config_file::LevelSet::List(listed) = &given.levels else {
            panic!("{game}: levels not listed");
        };
        assert_eq!(
            given.repetitions,
            playstyles::experiments::run_config::default_repetitions(listed.len())
        );
        // Resolved for the game, checked (agents built, levels loaded), no batch played.
        let out = scratch.join(game);
        evolve_ok(&path, &out, &["--stop-after-batches", "0"]);
        let resolved = String::from_utf8(read(&out.join("config.toml"))).unwrap();
        for line in [
            format!("name = \"minimal-{game}\""),
            format!("game = \"{game}\""),
            "seed = 1".into(),
            "batch_size = 10".into(),
            "[rules]".into(),
            format!("repetitions = {}", given.repetitions),
            "values = [0.0, 0.25, 0.5, 0.75, 1.0]".into(),
            "one_hot = true".into(),
            "random_init = 40".into(),
            "iterations = 500".into(),
            "replacement = \"paper\"".into(),
            "emitter = \"schedule\"".into(),
        ] {
            assert!(
                resolved.lines().any(|l| l == line),
                "{game}: {line} missing from:\n{resolved}"
            );
        }
        let again = RunConfig::parse(&resolved, "other").unwrap();
        assert!(!again.rules.is_empty(), "{game}: no rules in:\n{resolved}");
        assert!(again.scripts.is_some_and(|s| !s.is_empty()), "{game}");
        assert_eq!(
            (
                again.name.as_str(),
                again.game,
                again.seed,
                again.batch_size
            ),
            (
                given.name.as_str(),
                given.game,
                given.seed,
                given.batch_size
            )
        );
        assert_eq!(
            (
                &again.levels,
                again.repetitions,
                &again.player,
                &again.baseline
            ),
            (
                &given.levels,
                given.repetitions,
                &given.player,
                &given.baseline
            )
        );
        assert_eq!(
            (
                &again.domain,
                &again.features,
                &again.emitter,
                again.replacement
            ),
            (
                &given.domain,
                &given.features,
                &given.emitter,
                given.replacement
            )
        );
    }
}

#[test]
fn the_continuous_use_case_is_use_case_one_with_continuous_weights_and_iso_line_dd() {
    use playstyles::qd::{Domain, EmitterKind};

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let load = |name: &str| {
        EvolveConfig::load(Some(&dir.join(format!("{name}.toml"))), None)
            .unwrap()
            .run
    };
    let (one, cont) = (
        load("usecase1-attacks-vs-support"),
        load("usecase1-continuous"),
    );
    assert_eq!(cont.name, "usecase1-continuous");
    assert_eq!(cont.domain, Domain::Range { lo: 0.0, hi: 1.0 });
    assert_eq!(
        cont.emitter.kind,
        EmitterKind::IsoLineDd {
            iso_sigma: 0.05,
            line_sigma: 0.2
        }
    );
    // Everything else, the evaluation budget included, is use case I's.
    let sizes = |r: &RunConfig| {
        (
            r.emitter.one_hot,
            r.emitter.random_init,
            r.emitter.iterations,
        )
    };
    assert_eq!(sizes(&cont), sizes(&one));
    assert_eq!(cont.seed, one.seed);
    assert_eq!(cont.batch_size, one.batch_size);
    assert_eq!(cont.rules, one.rules);
    assert_eq!(cont.levels, one.levels);
    assert_eq!(cont.repetitions, one.repetitions);
    assert_eq!(cont.player, one.player);
    assert_eq!(cont.baseline, one.baseline);
    assert_eq!(cont.scripts, one.scripts);
    assert_eq!(cont.features, one.features);
    assert_eq!(cont.replacement, one.replacement);
}

#[test]
fn a_feature_the_game_does_not_have_fails_before_any_game_and_lists_the_games_features() {
    let dir = scratch("evolve", "unknown-feature");
    let out = dir.join("run");
    let text = TINY.replace("\"attacks\"", "\"no_such_feature\"");
    let o = evolve(&config(&dir, &text), &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("features[0].name"), "{e}");
    assert!(e.contains("no_such_feature"), "{e}");
    // The list holds tribes' own features and the generic ones.
    for name in [
        "attacks",
        "support_balance",
        "speed_win",
        "kind:attack",
        "slope:techs",
    ] {
        assert!(e.contains(name), "{name} missing from: {e}");
    }
    assert!(!out.join("archive.csv").exists());
}

#[test]
fn generic_features_name_kinds_labels_and_statistics() {
    let dir = scratch("evolve", "generic-features");
    let out = dir.join("run");
    let text = TINY
        .replace("\"attacks\"", "\"kind:attack/turn\"")
        .replace("\"support_balance\"", "\"label:spawn.archer@won\"");
    evolve_ok(&config(&dir, &text), &out, &[]);
    let archive = String::from_utf8(read(&out.join("archive.csv"))).unwrap();
    assert!(
        archive.starts_with("cell,cell_kind:attack/turn,cell_label:spawn.archer@won,"),
        "{archive}"
    );
}

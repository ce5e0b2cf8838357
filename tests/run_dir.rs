//! Issue 27, "a run directory owns itself": a command that writes into a run directory holds
//! its lock, so a second one is refused naming the holder and the first run's files stay
//! whole; a run killed before its first checkpoint resumes; `config.toml` is checked against
//! the checkpoint that its run wrote; the bot files a run's agents read are copied into it, so
//! the run is continued and re-played from anywhere after the originals are gone. Issue 60: a
//! link in place of the lock file is refused by every command and its target left whole;
//! `dataset` and `train` hold the lock of the file they write.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::evolve::TINY;
use crate::support::cli::{playstyles, playstyles_in, read_text, scratch, stderr, succeeded};
use crate::tasks::assert_same_run;

/// Runs `evolve CONFIG --out OUT --quiet ARGS…`.
fn evolve(config: &Path, out: &Path, args: &[&str]) -> std::process::Output {
    let (config, out) = (config.to_str().unwrap(), out.to_str().unwrap());
    let mut all = vec!["evolve", config, "--out", out, "--quiet"];
    all.extend_from_slice(args);
    playstyles(&all)
}

#[test]
fn a_second_evolve_force_is_refused_while_the_first_holds_the_run_directory() {
    let dir = scratch("run_dir", "lock");
    // Long enough to be killed long before it ends.
    let slow = dir.join("slow.toml");
    std::fs::write(
        &slow,
        TINY.replace("budget=20)\"", "budget=100000)\"")
            .replace("iterations = 4", "iterations = 100000"),
    )
    .unwrap();
    let other = dir.join("other.toml");
    std::fs::write(&other, TINY.replace("\"mcts(budget=20)\"", "\"random\"")).unwrap();
    let out = dir.join("run");
    let mut first = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(["evolve", slow.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--quiet", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !out.join("config.toml").is_file() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let config = read_text(&out.join("config.toml"));

    let o = evolve(&other, &out, &["--force"]);
    let e = stderr(&o);
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(&out.display().to_string())
            && e.contains(&format!("in use by `playstyles evolve (pid {}", first.id())),
        "the error names the folder and its holder: {e}"
    );
    assert_eq!(
        read_text(&out.join("config.toml")),
        config,
        "the first run's config.toml stays"
    );
    assert!(
        !out.join("checkpoint.json").exists(),
        "nothing of the second run"
    );

    // The killed holder's lock went with it: the run continues, with its own config only.
    let o = evolve(&other, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("config.toml"), "{}", stderr(&o));
    succeeded(
        evolve(&slow, &out, &["--resume", "--stop-after-batches", "0"]),
        "resume",
    );
    assert!(out.join("checkpoint.json").is_file());
    assert!(!out.join(".lock").exists(), "no lock file once done");
}

#[test]
fn a_run_killed_before_its_first_checkpoint_resumes() {
    let dir = scratch("run_dir", "first-checkpoint");
    let cfg = dir.join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    let whole = dir.join("whole");
    succeeded(evolve(&cfg, &whole, &[]), "evolve");
    // Killed after writing config.toml, before its first batch was done.
    let killed = dir.join("killed");
    std::fs::create_dir_all(&killed).unwrap();
    std::fs::copy(whole.join("config.toml"), killed.join("config.toml")).unwrap();
    succeeded(evolve(&cfg, &killed, &["--resume"]), "evolve --resume");
    assert_same_run(&whole, &killed);
}

/// Runs `playstyles ARGS…` on the run directory `run` (`{}` in `args`) and returns its
/// output.
fn on_run(args: &[&str], run: &Path) -> std::process::Output {
    let run = run.to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "{}" { run } else { a })
        .collect();
    playstyles(&args)
}

/// The commands that read a run directory, none of which may take an edited `config.toml`.
const READERS: [&[&str]; 5] = [
    &["plot", "{}"],
    &["tiers", "{}", "--count", "2"],
    &["report", "{}"],
    &[
        "validate",
        "{}",
        "--levels",
        "2",
        "--repetitions",
        "1",
        "--quiet",
    ],
    &["reevaluate", "{}", "--games", "2", "--quiet"],
];

#[test]
fn an_edited_config_toml_is_refused_by_every_command_that_reads_the_run() {
    let dir = scratch("run_dir", "edited");
    let cfg = dir.join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    let run = dir.join("run");
    succeeded(evolve(&cfg, &run, &[]), "evolve");
    let config = read_text(&run.join("config.toml"));
    let checkpoint = read_text(&run.join("checkpoint.json"));
    // Another player; the same grid shifted by one cell (the archive still fits it).
    let player = config.replace("budget=20)\"", "budget=21)\"");
    let shifted = config
        .replace("min = -5.0", "min = -4.0")
        .replace("max = 5.0", "max = 6.0");
    assert!(player != config && shifted != config);
    // A checkpoint written before it carried the config's fingerprint: the engine's
    // settings (the grid) are still checked.
    let older: String = checkpoint
        .lines()
        .filter(|l| !l.contains("\"run_config\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(older.len() < checkpoint.len(), "{checkpoint}");
    for (name, text, cp) in [
        ("player", &player, &checkpoint),
        ("grid", &shifted, &checkpoint),
        ("grid, older checkpoint", &shifted, &older),
    ] {
        std::fs::write(run.join("config.toml"), text).unwrap();
        std::fs::write(run.join("checkpoint.json"), cp).unwrap();
        for args in READERS {
            let o = on_run(args, &run);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name}: {args:?}: {e}");
            assert!(
                e.contains(&run.join("config.toml").display().to_string())
                    && e.contains("is not the config this run was played with"),
                "{name}: {args:?}: {e}"
            );
        }
    }
    // Nor do `ask` and `tell`, which would go on with another player.
    std::fs::write(run.join("config.toml"), &player).unwrap();
    std::fs::write(run.join("checkpoint.json"), &checkpoint).unwrap();
    for args in [&["ask", "{}"][..], &["tell", "{}"]] {
        let o = on_run(args, &run);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains("is not the config this run was played with"),
            "{e}"
        );
    }
    std::fs::write(run.join("config.toml"), &config).unwrap();
    std::fs::write(run.join("checkpoint.json"), &older).unwrap();
    succeeded(
        on_run(&["tiers", "{}"], &run),
        "tiers of the run as written",
    );
}

/// A tiny Prismata run whose player reads the bot file `bots/x.toml` (relative to the working
/// folder it starts in).
const PRISMATA_WITH_BOT_FILE: &str = r#"
game = "prismata"
seed = 3
batch_size = 2

[evaluation]
levels = ["1"]
repetitions = 1
player = "PMCTS100(traversals=1,config=bots/x.toml)"
baseline = "RandomAI"

[[features]]
name = "economy"
min = 20
max = 50
step = 10

[[features]]
name = "aggression"
min = 5
max = 15
step = 5

[map_elites]
adaptive = false
one_hot = false
random_init = 2
iterations = 2
"#;

#[test]
fn a_run_keeps_its_bot_files_and_works_from_anywhere_once_the_originals_are_gone() {
    let dir = scratch("run_dir", "bot-files");
    let (start, elsewhere) = (dir.join("start"), dir.join("elsewhere"));
    std::fs::create_dir_all(start.join("bots")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let bots = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/prismata/ai/bots.toml");
    std::fs::copy(&bots, start.join("bots/x.toml")).unwrap();
    let cfg = start.join("pr.toml");
    std::fs::write(&cfg, PRISMATA_WITH_BOT_FILE).unwrap();
    let cfg = cfg.to_str().unwrap();
    let at = |cwd: &Path, args: &[&str]| playstyles_in(args, cwd);
    // Started in `start`: a whole run, one stopped after its first batch, one through ask.
    succeeded(
        at(&start, &["evolve", cfg, "--out", "whole", "--quiet"]),
        "evolve",
    );
    let whole = start.join("whole");
    let stopped = &[
        "evolve",
        cfg,
        "--out",
        "stopped",
        "--quiet",
        "--stop-after-batches",
        "1",
    ];
    succeeded(at(&start, stopped), "evolve, stopped");
    let first = succeeded(at(&start, &["ask", "asked", "--config", cfg]), "ask");
    let config = read_text(&whole.join("config.toml"));
    assert!(
        config.contains("player = \"PMCTS100(traversals=1,config=agent-files/bots/x.toml)\""),
        "config.toml names the copy: {config}"
    );
    assert_eq!(
        read_text(&whole.join("agent-files/bots/x.toml")),
        read_text(&bots)
    );
    std::fs::remove_dir_all(start.join("bots")).unwrap();

    // Elsewhere, without the original: resumed, taken through work and tell, re-played.
    let (stopped, asked) = (start.join("stopped"), start.join("asked"));
    let resume = &[
        "evolve",
        cfg,
        "--out",
        stopped.to_str().unwrap(),
        "--quiet",
        "--resume",
    ];
    succeeded(at(&elsewhere, resume), "evolve --resume");
    assert_same_run(&whole, &stopped);
    let mut tasks = first.trim().to_string();
    loop {
        let tasks_file = start.join(&tasks);
        succeeded(
            at(
                &elsewhere,
                &["work", tasks_file.to_str().unwrap(), "--quiet"],
            ),
            "work",
        );
        succeeded(at(&elsewhere, &["tell", asked.to_str().unwrap()]), "tell");
        let o = at(&elsewhere, &["ask", asked.to_str().unwrap()]);
        if o.status.code() == Some(3) {
            break;
        }
        tasks = succeeded(o, "ask").trim().to_string();
    }
    assert_same_run(&whole, &asked);
    let run = whole.to_str().unwrap();
    for args in READERS {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "{}" { run } else { a })
            .collect();
        succeeded(at(&elsewhere, &args), &args.join(" "));
    }
    // The tiers name the run's copy by its absolute path, and play from anywhere.
    let tiers = read_text(&whole.join("tiers.toml"));
    let copy = std::fs::canonicalize(whole.join("agent-files/bots/x.toml")).unwrap();
    assert!(
        tiers.contains(&format!("config={}", copy.display())),
        "{tiers}"
    );
    let agent = tiers
        .lines()
        .find_map(|l| l.strip_prefix("agent = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    let agents = format!("{agent},RandomAI");
    let play = &[
        "play", "--game", "prismata", "--level", "1", "--agents", &agents,
    ];
    succeeded(at(&elsewhere, play), "play a tier");
}

/// A Prismata tournament whose first pairing's agent reads a bot file.
const TOURNAMENT_WITH_BOT_FILE: &str = r#"
game = "prismata"
seed = 4
levels = ["1"]
repetitions = 4

[[pairing]]
name = "bot"
agents = ["PMCTS100(traversals=1,config=bots/x.toml)", "RandomAI"]
"#;

#[test]
fn a_tournament_keeps_its_bot_files_and_resumes_from_anywhere_once_the_originals_are_gone() {
    let dir = scratch("run_dir", "tournament-bot-files");
    let (start, elsewhere) = (dir.join("start"), dir.join("elsewhere"));
    std::fs::create_dir_all(start.join("bots")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let bots = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/prismata/ai/bots.toml");
    std::fs::copy(&bots, start.join("bots/x.toml")).unwrap();
    let cfg = start.join("t.toml");
    std::fs::write(&cfg, TOURNAMENT_WITH_BOT_FILE).unwrap();
    let cfg = cfg.to_str().unwrap();
    let at = |cwd: &Path, args: &[&str]| playstyles_in(args, cwd);
    let (whole, stopped) = (start.join("whole"), start.join("stopped"));
    let (whole, stopped) = (whole.to_str().unwrap(), stopped.to_str().unwrap());
    succeeded(
        at(&start, &["tournament", cfg, "--out", whole, "--quiet"]),
        "tournament",
    );
    let args = &["tournament", cfg, "--out", stopped, "--quiet"];
    let mut first = args.to_vec();
    first.extend(["--stop-after-games", "1"]);
    succeeded(at(&start, &first), "tournament, stopped");
    let config = read_text(&Path::new(whole).join("config.toml"));
    assert!(
        config.contains("PMCTS100(traversals=1,config=agent-files/bots/x.toml)"),
        "config.toml names the copy: {config}"
    );
    assert_eq!(
        read_text(&Path::new(stopped).join("agent-files/bots/x.toml")),
        read_text(&bots)
    );
    std::fs::remove_dir_all(start.join("bots")).unwrap();

    // Elsewhere, without the original: the stopped tournament resumes and ends as the whole.
    let mut again = args.to_vec();
    again.push("--resume");
    succeeded(at(&elsewhere, &again), "tournament --resume");
    for file in ["config.toml", "games.csv", "summary.csv"] {
        assert_eq!(
            read_text(&Path::new(stopped).join(file)),
            read_text(&Path::new(whole).join(file)),
            "{file}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_in_place_of_the_lock_file_is_refused_by_every_command_and_its_target_kept() {
    let dir = scratch("run_dir", "lock-link");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY).unwrap();
    let out = dir.join("run");
    succeeded(evolve(&config, &out, &[]), "evolve");
    let victim = dir.join("someone-elses.csv");
    std::fs::write(&victim, "keep,me\n").unwrap();
    let lock = out.join(".lock");
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let run = out.to_str().unwrap();
    let tries: [&[&str]; 4] = [
        &["plot", run],
        &["report", run],
        &["tiers", run, "--count", "2"],
        &["reevaluate", run, "--games", "1", "--quiet"],
    ];
    for args in tries {
        let o = playstyles(args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains(&lock.display().to_string()) && e.contains("a symbolic link"),
            "{args:?} names the link: {e}"
        );
    }
    let o = evolve(&config, &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        read_text(&victim),
        "keep,me\n",
        "the link's target is untouched"
    );
    assert!(lock.is_symlink(), "the link is left for its owner");
}

#[test]
fn dataset_and_train_hold_the_lock_of_the_file_they_write() {
    use playstyles::experiments::run_lock::DirLock;
    let dir = scratch("run_dir", "file-lock");
    let config = dir.join("pr.toml");
    std::fs::write(
        &config,
        "game = \"puerto-rico\"\ngames = 4\nlevels = [\"3p\"]\nagents = [\"sa0\", \"sa0\", \"sa0\"]\n",
    )
    .unwrap();
    let dataset = dir.join("data").join("pr.dataset");
    let held = DirLock::acquire_file(&dataset, "playstyles dataset")
        .unwrap()
        .unwrap();
    let (c, d) = (config.to_str().unwrap(), dataset.to_str().unwrap());
    let o = playstyles(&["dataset", c, "--out", d, "--quiet"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(d) && e.contains("in use by `playstyles dataset (pid"),
        "{e}"
    );
    assert!(!dataset.exists() && !dir.join("data").join("pr.dataset.parts").exists());
    drop(held);
    succeeded(
        playstyles(&["dataset", c, "--out", d, "--quiet"]),
        "dataset",
    );
    assert!(!dir.join("data").join(".pr.dataset.lock").exists());

    let model = dir.join("pr.safetensors");
    let held = DirLock::acquire_file(&model, "playstyles train")
        .unwrap()
        .unwrap();
    let m = model.to_str().unwrap();
    let o = playstyles(&["train", d, "--out", m, "--epochs", "1", "--hidden", "4"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains(m) && e.contains("in use by"), "{e}");
    assert!(!model.exists());
    drop(held);
}

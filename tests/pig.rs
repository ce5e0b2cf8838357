//! A library user's game through its own binary: `examples/pig` is `playstyles::cli::main_for`
//! of Pig. Every subcommand takes `--game pig` or a Pig config under Pig's name; a run through
//! `ask`, `work` and `tell` ends byte-identical to `evolve`, and a finished `ask` exits 3;
//! `validate`, `reevaluate`, `tiers`, `report`, `plot` and `tournament` read and write Pig's
//! runs; messages and replay commands name the binary; a closed pipe is not an error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use crate::support::cli::{path_arg, read_text, scratch, stderr, succeeded};
use crate::tasks::assert_same_run;

/// A small Pig run: 2 players, small budgets, a few batches.
const TINY_PIG: &str = r#"
game = "pig"
seed = 5
batch_size = 4

[evaluation]
levels = ["2"]
repetitions = 4
player = "pmcts(budget=40,bias=true,pruning=true)"
baseline = "mcts(budget=20)"

[[features]]
name = "hold_total"
min = 4
max = 18
step = 2

[[features]]
name = "rolls_per_turn"
min = 1.5
max = 4
bins = 5

[map_elites]
adaptive = false
random_init = 2
iterations = 6
"#;

/// The Pig binary, built by Cargo in the profile and target folder of these tests (a no-op
/// after `cargo test`, which builds the examples; needed after `cargo test --test main`).
fn pig_binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        // target/<profile>/playstyles → target/<profile>/examples/pig
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_playstyles"))
            .parent()
            .expect("the binary's folder")
            .to_path_buf();
        let target = bin_dir.parent().expect("the target folder");
        let o = Command::new(env!("CARGO"))
            .args([
                "build",
                "--profile",
                "test",
                "--example",
                "pig",
                "--target-dir",
            ])
            .arg(target)
            .arg("--manifest-path")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .output()
            .expect("cargo runs");
        assert!(
            o.status.success(),
            "building the Pig example failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let pig = bin_dir
            .join("examples")
            .join(format!("pig{}", std::env::consts::EXE_SUFFIX));
        assert!(pig.is_file(), "{} is missing", pig.display());
        pig
    })
}

/// Runs the Pig binary with `args` in `cwd`.
fn pig_in(args: &[&str], cwd: &Path) -> Output {
    Command::new(pig_binary())
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the Pig binary runs")
}

/// Runs the Pig binary with `args` in the current folder.
pub(crate) fn pig(args: &[&str]) -> Output {
    pig_in(args, Path::new("."))
}

/// Writes `text` as `<dir>/<name>` and returns its path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn every_game_flag_takes_pig_and_refuses_the_builtin_games() {
    let games = succeeded(pig(&["games"]), "games");
    assert!(games.starts_with("pig\n"), "{games}");
    assert!(games.contains("hold_total"), "{games}");
    assert!(!games.contains("tribes"), "only Pig: {games}");

    let levels = succeeded(pig(&["levels", "--game", "pig"]), "levels");
    assert_eq!(
        levels.lines().count(),
        4,
        "a header and levels 2-4: {levels}"
    );
    let shown = succeeded(
        pig(&["levels", "--game", "pig", "show", "3"]),
        "levels show",
    );
    assert!(shown.contains("3 players"), "{shown}");

    let args = [
        "--game",
        "pig",
        "--level",
        "2",
        "--agents",
        "mcts(budget=20),random",
    ];
    let played = succeeded(pig(&[&["play"][..], &args, &["--json"]].concat()), "play");
    assert!(played.starts_with("{\"winner\":"), "{played}");
    // `--game` defaults to the binary's game.
    let default = succeeded(
        pig(&[
            "play",
            "--level",
            "2",
            "--agents",
            "mcts(budget=20),random",
            "--json",
        ]),
        "play",
    );
    assert_eq!(default, played);

    let dir = scratch("pig", "flags");
    let page = dir.join("game.html");
    let replayed = succeeded(
        pig(&[&["replay"][..], &args, &["--out", path_arg(&page)]].concat()),
        "replay",
    );
    assert!(replayed.contains("game.html"), "{replayed}");
    assert!(read_text(&page).contains("pig replay --game pig --level 2"));

    let bench = succeeded(
        pig(&["bench", "fm", "--game", "pig", "--level", "2", "--json"]),
        "bench",
    );
    assert!(bench.contains("random_game_ms"), "{bench}");

    for args in [
        &["levels", "--game", "tribes"][..],
        &[
            "play",
            "--game",
            "tribes",
            "--level",
            "1",
            "--agents",
            "random,random",
        ],
    ] {
        let o = pig(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(
            e.contains("unknown game `tribes`") && e.contains("pig"),
            "{e}"
        );
    }
    // A config of another game is refused naming `game`.
    let other = write(
        &dir,
        "tribes.toml",
        &TINY_PIG.replace("\"pig\"", "\"tribes\""),
    );
    let o = pig(&[
        "evolve",
        path_arg(&other),
        "--out",
        path_arg(&dir.join("run")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`game`"), "{}", stderr(&o));
}

#[test]
fn a_pig_run_through_ask_work_and_tell_is_byte_identical_to_evolve() {
    let dir = scratch("pig", "tasks");
    let cfg = write(&dir, "tiny.toml", TINY_PIG);
    let evolved = dir.join("evolved");
    let said = succeeded(
        pig(&[
            "evolve",
            path_arg(&cfg),
            "--out",
            path_arg(&evolved),
            "--quiet",
        ]),
        "evolve",
    );
    assert!(said.contains("evolve tiny: done"), "{said}");
    assert!(read_text(&evolved.join("config.toml")).contains("game = \"pig\""));

    let run = dir.join("run");
    let mut batches = 0;
    loop {
        let o = pig(&["ask", path_arg(&run), "--config", path_arg(&cfg)]);
        if o.status.code() == Some(3) {
            break;
        }
        let tasks = PathBuf::from(succeeded(o, "ask").trim_end());
        assert!(read_text(&tasks).contains("\"game_name\":\"pig\""));
        for shard in ["1/2", "0/2"] {
            succeeded(
                pig(&["work", path_arg(&tasks), "--shard", shard, "--quiet"]),
                "work",
            );
        }
        succeeded(pig(&["tell", path_arg(&run)]), "tell");
        batches += 1;
        assert!(batches <= 10, "the schedule never finished");
    }
    let rows = read_text(&evolved.join("progress.csv")).lines().count();
    assert_eq!(
        batches,
        rows - 1,
        "as many batches as evolve's progress rows"
    );
    assert!(
        batches > 2,
        "one-hot, random and offspring batches: {batches}"
    );
    assert_same_run(&evolved, &run);
    let page = read_text(&run.join("report.html"));
    assert!(
        page.contains("pig replay --game pig"),
        "replay commands name the binary"
    );
    // Finished: ask exits 3 again; tell has nothing to tell and says which command asks.
    let o = pig(&["ask", path_arg(&run)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let told = succeeded(pig(&["tell", path_arg(&run)]), "tell");
    assert!(told.contains("nothing to tell"), "{told}");
}

#[test]
fn a_pig_run_is_validated_reevaluated_tiered_reported_and_plotted() {
    let dir = scratch("pig", "workflows");
    let cfg = write(&dir, "tiny.toml", TINY_PIG);
    let run = dir.join("run");
    succeeded(
        pig(&["evolve", path_arg(&cfg), "--out", path_arg(&run), "--quiet"]),
        "evolve",
    );
    // Again: the finished run is found, nothing changes, exit 0.
    let archive = read_text(&run.join("archive.csv"));
    let again = succeeded(
        pig(&["evolve", path_arg(&cfg), "--out", path_arg(&run), "--quiet"]),
        "evolve again",
    );
    assert!(
        again.contains("already holds this run, finished"),
        "{again}"
    );
    assert!(again.contains("report.html"), "{again}");
    assert_eq!(read_text(&run.join("archive.csv")), archive);

    let r = path_arg(&run);
    let validated = succeeded(
        pig(&["validate", r, "--repetitions", "2", "--quiet"]),
        "validate",
    );
    assert!(validated.contains("validation.csv"), "{validated}");
    assert!(read_text(&run.join("validation.csv")).lines().count() > 1);
    succeeded(
        pig(&["reevaluate", r, "--games", "4", "--quiet"]),
        "reevaluate",
    );
    assert!(run.join("reevaluated.csv").is_file());
    let tiers = succeeded(pig(&["tiers", r, "--count", "2"]), "tiers");
    assert!(tiers.contains("tier-2"), "{tiers}");
    let plotted = succeeded(pig(&["plot", r]), "plot");
    assert!(plotted.contains("heatmap.png"), "{plotted}");
    succeeded(pig(&["report", r, "--threads", "2"]), "report");
    let page = read_text(&run.join("report.html"));
    assert!(
        page.contains("pig replay --game pig"),
        "replay commands name the binary"
    );
    assert!(page.contains("tier-2"), "the cards show the tiers");
}

#[test]
fn a_pig_tournament_plays_under_the_binary() {
    let dir = scratch("pig", "tournament");
    let cfg = write(
        &dir,
        "t.toml",
        r#"
game = "pig"
seed = 3
levels = ["2"]
repetitions = 4

[rules]
target = 30

[[pairing]]
name = "mcts-vs-random"
agents = ["mcts(budget=30)", "random"]
"#,
    );
    let out = dir.join("out");
    let said = succeeded(
        pig(&[
            "tournament",
            path_arg(&cfg),
            "--out",
            path_arg(&out),
            "--quiet",
        ]),
        "tournament",
    );
    assert!(said.contains("mcts-vs-random"), "{said}");
    let games = read_text(&out.join("games.csv"));
    assert_eq!(games.lines().count(), 1 + 4, "{games}");
    assert!(read_text(&out.join("config.toml")).contains("target = 30"));
}

#[test]
fn a_closed_output_pipe_is_not_an_error() {
    // Standard output is a pipe whose reading end is closed before the binary starts, so its
    // first write fails with a broken pipe (as under `pig games | head -0`).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = Command::new(pig_binary())
        .arg("games")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the Pig binary runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

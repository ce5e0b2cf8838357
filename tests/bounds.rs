//! Every input bounded (issue 27): a FIFO, device or directory given as any input file is an
//! error naming it, not a hang; every count, budget and thread count above its maximum
//! (`playstyles::limits`) is an error naming the field, exit code 2, before anything is
//! allocated or played; a config is checked whole (its grid too) before the first game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use playstyles::experiments::config_file::LevelSet;
use playstyles::experiments::{EvolveConfig, TournamentConfig};
use playstyles::games::prismata::PrismataGame;
use playstyles::games::puerto_rico::PuertoRicoGame;
use playstyles::games::tribes::TribesGame;
use playstyles::kit::GameKit;

use crate::support::cli::{path_arg, playstyles_within, scratch, stderr};

/// How long a refused input may take: it is refused at once (a FIFO used to block forever, a
/// huge count to abort or to run until killed); generous for a loaded machine.
const LIMIT: Duration = Duration::from_secs(60);

/// A small Puerto Rico run (SA-0 games take about a millisecond).
const RUN: &str = r#"
game = "puerto-rico"
batch_size = 4
[evaluation]
levels = ["4p"]
player = "sa0"
baseline = "sa0"
repetitions = 2
[[features]]
name = "shipping_pct"
min = 20
max = 100
step = 5
[[features]]
name = "builder_pct"
min = 0
max = 80
step = 5
[map_elites]
random_init = 4
iterations = 8
"#;

/// A small tournament.
const TOURNAMENT: &str = r#"
game = "puerto-rico"
levels = ["3p"]
repetitions = 2
[[pairing]]
name = "sa0"
agents = ["sa0", "sa0", "sa0"]
"#;

/// The standard error of `playstyles args`, which must exit with code 2 within [`LIMIT`].
fn refused(args: &[&str]) -> String {
    let o = playstyles_within(args, LIMIT);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    err
}

/// A file `name` in `dir` holding `text`.
fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_as_any_input_file_is_an_error_naming_it_not_a_hang() {
    let dir = scratch("bounds", "fifo");
    let fifo = dir.join("input.fifo");
    mkfifo(&fifo);
    let f = path_arg(&fifo);
    // A run directory whose archive.csv is a FIFO.
    let run = dir.join("run");
    std::fs::create_dir(&run).unwrap();
    file(&run, "config.toml", RUN);
    mkfifo(&run.join("archive.csv"));
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let bot = format!("ExpertAI(config={f}),Playout");
    let (evolved, asked, played) = (out("evolved"), out("asked"), out("played"));
    let cases: [(&[&str], &str); 9] = [
        (&["evolve", f, "--out", &evolved], f),
        (&["ask", "--config", f, &asked], f),
        (&["play", "--level", f, "--agents", "random,random"], f),
        (&["work", f], f),
        (&["tournament", f, "--out", &played], f),
        (
            &[
                "play", "--game", "prismata", "--level", "1", "--agents", &bot,
            ],
            f,
        ),
        (&["plot", path_arg(&run)], "archive.csv"),
        (&["tiers", path_arg(&run)], "archive.csv"),
        (&["report", path_arg(&run)], "archive.csv"),
    ];
    for (args, named) in cases {
        let err = refused(args);
        assert!(
            err.contains(named) && err.contains("not a regular file (a FIFO)"),
            "{args:?}: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_endless_bot_file_is_refused_before_it_is_read() {
    let err = refused(&[
        "play",
        "--game",
        "prismata",
        "--level",
        "1",
        "--agents",
        "ExpertAI(config=/dev/zero),Playout",
    ]);
    assert!(
        err.starts_with("error: /dev/zero: not a regular file (a character device)"),
        "{err}"
    );
}

#[test]
fn a_directory_as_a_config_is_an_error_naming_it() {
    let dir = scratch("bounds", "directory");
    let err = refused(&["evolve", path_arg(&dir), "--out", path_arg(&dir.join("r"))]);
    assert!(err.contains("not a regular file (a directory)"), "{err}");
}

/// `refused(args)` names `field` as invalid and says it is above a maximum.
fn above_maximum(args: &[&str], field: &str) {
    let err = refused(args);
    assert!(
        err.starts_with(&format!("error: invalid `{field}`: ")) && err.contains("maximum"),
        "{args:?}: {err}"
    );
}

#[test]
fn counts_in_configs_above_their_maxima_name_the_field_before_any_game() {
    let dir = scratch("bounds", "configs");
    let run_cases = [
        (
            "repetitions = 2",
            "repetitions = 4294967295",
            "evaluation.repetitions",
        ),
        ("batch_size = 4", "batch_size = 1000000000", "batch_size"),
        (
            "iterations = 8",
            "iterations = 1000000000",
            "map_elites.iterations",
        ),
        (
            "iterations = 8",
            "iterations = 9223372036854775807",
            "map_elites.iterations",
        ),
    ];
    for (i, (from, to, field)) in run_cases.into_iter().enumerate() {
        let config = file(&dir, &format!("run{i}.toml"), &RUN.replace(from, to));
        let out = dir.join(format!("run{i}"));
        above_maximum(
            &["evolve", path_arg(&config), "--out", path_arg(&out)],
            field,
        );
        assert!(!out.exists(), "{to}: nothing is written");
    }
    let config = file(
        &dir,
        "tournament.toml",
        &TOURNAMENT.replace("repetitions = 2", "repetitions = 4294967295"),
    );
    let out = dir.join("tournament");
    above_maximum(
        &["tournament", path_arg(&config), "--out", path_arg(&out)],
        "repetitions",
    );
    assert!(!out.exists());
}

#[test]
fn flags_above_their_maxima_name_the_flag() {
    let dir = scratch("bounds", "flags");
    // `validate` and `reevaluate` read only the run's config.toml before checking their flags.
    let run = dir.join("run");
    std::fs::create_dir(&run).unwrap();
    file(&run, "config.toml", RUN);
    let r = path_arg(&run);
    let config = file(&dir, "run.toml", RUN);
    let c = path_arg(&config);
    let tournament = file(&dir, "tournament.toml", TOURNAMENT);
    let t = path_arg(&tournament);
    for (args, field) in [
        (
            &["validate", r, "--repetitions", "4294967295"][..],
            "--repetitions",
        ),
        (
            &["validate", r, "--levels", "generated:4294967295"],
            "--levels",
        ),
        (&["reevaluate", r, "--games", "4294967295"], "--games"),
        (&["evolve", c, "--threads", "10000"], "threads"),
        (
            &["evolve", c, "--threads", "18446744073709551615"],
            "threads",
        ),
        (&["tournament", t, "--threads", "10000"], "threads"),
        (&["validate", r, "--threads", "10000"], "--threads"),
        (&["reevaluate", r, "--threads", "10000"], "--threads"),
        (&["report", r, "--threads", "10000"], "--threads"),
        (&["work", c, "--threads", "10000"], "--threads"),
    ] {
        above_maximum(args, field);
    }
    assert_eq!(
        std::fs::read_dir(&run).unwrap().count(),
        1,
        "only config.toml"
    );
}

#[test]
fn budgets_above_their_maxima_name_the_field() {
    let dir = scratch("bounds", "budgets");
    let bots = file(
        &dir,
        "bots.toml",
        r#"
[partial_players]
Defend = { type = "Defense_Solver" }
Econ = { type = "ActionAbility_EconomyDefault" }
BuyNone = { type = "ActionBuy_Nothing" }
Breach = { type = "Breach_GreedyKnapsack" }
[iterators]
Root = { partial_players = [["Defend"], ["Econ"], ["BuyNone"], ["Breach"]] }
[players]
Deep = { type = "Player_StackAlphaBeta", evaluations = 9223372036854775807, iterator = "Root", eval = "WillScore" }
"#,
    );
    let deep = format!("Deep(config={}),Playout", bots.display());
    let max = "18446744073709551615";
    let game = |game: &str, level: &str, agents: &str| {
        ["play", "--game", game, "--level", level, "--agents", agents]
            .map(String::from)
            .to_vec()
    };
    let tribes = |agent: String| game("tribes", "1", &format!("{agent},random"));
    for (args, field) in [
        (tribes(format!("mcts(budget={max})")), "budget"),
        (tribes(format!("pmcts(budget={max})")), "budget"),
        (tribes(format!("osla(budget={max})")), "budget"),
        (tribes(format!("rhea(budget={max})")), "budget"),
        (tribes("rhea(length=4294967295)".into()), "length"),
        (
            game(
                "prismata",
                "1",
                &format!("UCT100(traversals={max}),Playout"),
            ),
            "traversals",
        ),
        (
            game(
                "prismata",
                "1",
                &format!("PMCTS100(traversals={max}),Playout"),
            ),
            "traversals",
        ),
        (
            game(
                "prismata",
                "1",
                &format!("ExpertAI(evaluations={max}),Playout"),
            ),
            "evaluations",
        ),
        (
            game("prismata", "1", "PGSAI(iterations=4294967295),Playout"),
            "iterations",
        ),
        (game("prismata", "1", &deep), "players.Deep.evaluations"),
        (
            game("puerto-rico", "3p", "thinking(budget=4294967295),sa0,sa0"),
            "budget",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        above_maximum(&args, field);
    }
}

#[test]
fn a_grid_too_large_to_draw_is_refused_with_the_config_not_after_a_batch() {
    let dir = scratch("bounds", "grid");
    for (i, (from, to, field)) in [
        ("step = 5", "step = 0.3", "features[0].step"),
        ("step = 5\n[map", "bins = 201\n[map", "features[1].bins"),
    ]
    .into_iter()
    .enumerate()
    {
        let config = file(&dir, &format!("grid{i}.toml"), &RUN.replacen(from, to, 1));
        let out = dir.join(format!("grid{i}"));
        let err = refused(&["evolve", path_arg(&config), "--out", path_arg(&out)]);
        assert!(
            err.starts_with(&format!("error: invalid `{field}`: has "))
                && err.contains("at most 200 allowed"),
            "{err}"
        );
        assert!(!out.exists(), "no batch was played");
    }
}

#[test]
fn a_weight_range_of_three_numbers_is_an_error_naming_it() {
    let dir = scratch("bounds", "range");
    let config = file(
        &dir,
        "range.toml",
        &RUN.replace(
            "[evaluation]",
            "[genome]\nrange = [0.0, 0.5, 2.0]\n[evaluation]",
        ),
    );
    let out = dir.join("range");
    let err = refused(&["evolve", path_arg(&config), "--out", path_arg(&out)]);
    assert!(
        err.starts_with("error: invalid `genome.range`: give two numbers `[lo, hi]`, got 3"),
        "{err}"
    );
    assert!(!out.exists());
}

/// The number of levels of `set` for game `game`: the game's built-in ones for `"paper"`.
fn level_count(set: &LevelSet, game: &str) -> usize {
    match set {
        LevelSet::List(levels) => levels.len(),
        LevelSet::Paper => match game {
            "tribes" => TribesGame::builtin_levels().len(),
            "prismata" => PrismataGame::builtin_levels().len(),
            "puerto-rico" => PuertoRicoGame::builtin_levels().len(),
            other => panic!("unknown game {other}"),
        },
    }
}

#[test]
fn every_committed_experiment_is_within_the_limits() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let is_dataset =
            !text.contains("[[pairing]]") && text.lines().any(|l| l.starts_with("agents ="));
        let is_ladder = ["[[agent]]", "[[elites]]", "\ntiers = "]
            .iter()
            .any(|k| text.contains(k));
        let loaded = if is_ladder {
            // A held-out ladder's tiers file exists only once its ladder has run: the file's
            // own fields are checked (`max_games` against the limit).
            playstyles::experiments::ladder::LadderFile::parse(&text)
                .and_then(|f| {
                    playstyles::limits::at_most(
                        f.max_games,
                        playstyles::limits::MAX_GAMES,
                        "max_games",
                    )
                })
                .map(|_| ())
        } else if is_dataset {
            // `load` checks `games` against the limit.
            playstyles::experiments::DatasetConfig::load(&path, None).map(|_| ())
        } else if text.contains("[[pairing]]") {
            TournamentConfig::load(&path, None).and_then(|c| {
                let levels = level_count(&c.spec.levels, c.spec.game.name());
                c.spec.check_games(levels)
            })
        } else {
            EvolveConfig::load(Some(&path), None).and_then(|c| {
                let levels = level_count(&c.run.levels, c.run.game.name());
                c.run.check_batch_games(levels)
            })
        };
        loaded.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        checked += 1;
    }
    assert!(checked >= 20, "{checked} experiment files");
}

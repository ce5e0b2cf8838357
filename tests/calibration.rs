//! Issue 61, calibration of the player's style strength, through the binary on a small Puerto
//! Rico run (Puerto Rico's `persona` at two simulations a choice, `style=auto`, against SA-0)
//! and a small Pig run with the default player (the generic Portfolio MCTS, `persona=auto`, no
//! code of the game): the tables, the chart and the strength chosen agree, and the resolved
//! config names it; the run is the same on any thread count and through `ask`/`work`/`tell`;
//! `sensitivity --strengths` draws the same trade-off; malformed settings and `auto` on the
//! wrong field exit 2 naming the field; the committed run directories read as before.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use playstyles::experiments::EvolveConfig;
use playstyles::experiments::config_file::LevelSet;
use playstyles::experiments::run_config::{RunConfig, older_form_of};

use crate::support::cli::{
    path_arg, playstyles, read_bytes, read_text, scratch, stderr, succeeded,
};
use crate::tasks::assert_same_run;

/// Twelve Puerto Rico games a genome are few, but enough to play every path: three strengths,
/// three evolved factors, two features.
pub(crate) const CALIBRATED: &str = r#"
game = "puerto-rico"
seed = 5
batch_size = 4

[evaluation]
levels = ["4p"]
repetitions = 2
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
iterations = 4

[calibration]
strengths = [0.0, 0.5, 2.0]
repetitions = 6
floor = 0.1
"#;

/// The calibration's files in a run directory.
const FILES: [&str; 4] = [
    "calibration.csv",
    "calibration_strengths.csv",
    "calibration.png",
    "calibration.svg",
];

fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("cal.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn evolve(cfg: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", path_arg(cfg), "--out", path_arg(out), "--quiet"];
    args.extend_from_slice(extra);
    succeeded(playstyles(&args), "evolve")
}

/// The rows of a CSV file as maps from column to cell (no quoted cells in these tables).
fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let text = read_text(path);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, c)| ((*h).to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

/// Panics unless `a` and `b` hold the same calibration files, byte for byte.
fn assert_same_calibration(a: &Path, b: &Path) {
    for f in FILES {
        assert!(
            read_bytes(&a.join(f)) == read_bytes(&b.join(f)),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn the_strength_chosen_agrees_with_the_tables_and_the_resolved_config_names_it() {
    let dir = scratch("calibration", "tables");
    let cfg = config(&dir, CALIBRATED);
    let run = dir.join("run");
    let printed = evolve(&cfg, &run, &["--threads", "2"]);
    assert!(
        printed.contains("calibration of cal: `style` at 0, 0.5, 2"),
        "{printed}"
    );
    for f in FILES {
        assert!(run.join(f).is_file(), "{f} missing");
    }
    assert!(!run.join("calibration.journal.json").exists());
    assert!(!run.join("batches").exists());

    // Per strength: the lowest lower bound, a spread per feature, passes and the choice.
    let strengths = rows(&run.join("calibration_strengths.csv"));
    let listed: Vec<&str> = strengths.iter().map(|r| r["strength"].as_str()).collect();
    assert_eq!(listed, ["0", "0.5", "2"]);
    let passes: Vec<bool> = strengths.iter().map(|r| r["passes"] == "true").collect();
    for r in &strengths {
        let lo: f64 = r["win_rate_lo_min"].parse().unwrap();
        assert_eq!(r["passes"] == "true", lo >= 0.1 - 1e-9, "{r:?}");
        for f in ["shipping_pct", "builder_pct"] {
            r[&format!("spread_{f}")].parse::<f64>().unwrap();
        }
    }
    let chosen: Vec<usize> = (0..3)
        .filter(|&i| strengths[i]["chosen"] == "true")
        .collect();
    assert_eq!(chosen.len(), 1, "{strengths:?}");
    let (expected, _) = playstyles::experiments::calibration::choose(&passes);
    assert_eq!(chosen[0], expected);
    let value = ["0.0", "0.5", "2.0"][expected];

    // Per strength × genome: the first genomes at the top strength, the four extremes at
    // each; every genome on the calibration's six games.
    let genomes = rows(&run.join("calibration.csv"));
    assert_eq!(genomes.len(), 3 + 2 * 3 + 3 * 4, "{genomes:?}");
    assert!(genomes.iter().all(|g| g["games"] == "6"));
    let at_top: Vec<&str> = genomes
        .iter()
        .filter(|g| g["strength"] == "2")
        .map(|g| g["genome"].as_str())
        .collect();
    assert_eq!(&at_top[..3], ["mid", "all-low", "all-high"]);
    assert_eq!(at_top.len(), 9 + 4);
    // The extreme of the lowest lower bound is the one the strengths table names.
    for (r, s) in strengths.iter().zip(["0", "0.5", "2"]) {
        let lowest = genomes
            .iter()
            .filter(|g| g["strength"] == s)
            .filter(|g| g["genome"].starts_with("min:") || g["genome"].starts_with("max:"))
            .map(|g| g["win_rate_lo"].parse::<f64>().unwrap())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(lowest, r["win_rate_lo_min"].parse::<f64>().unwrap(), "{s}");
    }

    // The resolved config: the player at the strength chosen, every setting written.
    let toml = read_text(&run.join("config.toml"));
    let player = format!("player = \"persona(budget=2,style={value})\"");
    assert!(toml.lines().any(|l| l == player), "{player} in:\n{toml}");
    for line in [
        "[calibration]".to_string(),
        "strengths = [0.0, 0.5, 2.0]".into(),
        "floor = 0.1".into(),
        "z = 1.0".into(),
        "repetitions = 6".into(),
        format!("chosen = {value}"),
    ] {
        assert!(toml.lines().any(|l| l == line), "{line} in:\n{toml}");
    }
    let again = RunConfig::parse(&toml, "run").unwrap();
    assert_eq!(again.auto_field(), None);
    // The elites' specs, which validate, tiers and ladders read, are concrete.
    let archive = read_text(&run.join("archive.csv"));
    assert!(!archive.contains("auto"), "{archive}");

    // Run again with the same config: finished, nothing to do; resumed, the same.
    let said = evolve(&cfg, &run, &[]);
    assert!(said.contains("nothing to do"), "{said}");
    let said = evolve(&cfg, &run, &["--resume"]);
    assert!(said.contains("nothing to do"), "{said}");
}

#[test]
fn a_calibrated_run_is_the_same_on_any_thread_count_resumed_and_through_ask_work_tell() {
    let dir = scratch("calibration", "identical");
    let cfg = config(&dir, CALIBRATED);
    let (one, two) = (dir.join("one"), dir.join("two"));
    evolve(&cfg, &one, &["--threads", "1"]);
    evolve(&cfg, &two, &["--threads", "2"]);
    assert_same_run(&one, &two);
    assert_same_calibration(&one, &two);

    // Stopped before any game (config.toml alone, with `auto`), then resumed.
    let stopped = dir.join("stopped");
    evolve(&cfg, &stopped, &["--stop-after-batches", "0"]);
    let toml = read_text(&stopped.join("config.toml"));
    assert!(
        toml.contains("style=auto") && !toml.contains("chosen"),
        "{toml}"
    );
    assert!(!stopped.join("calibration.csv").exists());
    evolve(&cfg, &stopped, &["--resume", "--threads", "1"]);
    assert_same_run(&one, &stopped);
    assert_same_calibration(&one, &stopped);

    // Through ask / work (two shards) / tell: two calibration batches, then the run's.
    let run = dir.join("run");
    let mut asked = Vec::new();
    loop {
        let o = playstyles(&["ask", path_arg(&run), "--config", path_arg(&cfg)]);
        if o.status.code() == Some(3) {
            break;
        }
        let out = succeeded(o, "ask");
        assert_eq!(out.lines().count(), 1, "ask prints the path alone: {out}");
        let tasks = PathBuf::from(out.trim_end());
        asked.push(
            tasks
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        );
        for shard in ["1/2", "0/2"] {
            succeeded(
                playstyles(&["work", path_arg(&tasks), "--shard", shard, "--quiet"]),
                "work",
            );
        }
        succeeded(playstyles(&["tell", path_arg(&run)]), "tell");
        assert!(asked.len() < 20, "the run never finished: {asked:?}");
    }
    assert_eq!(
        &asked[..3],
        ["calibration-0", "calibration-1", "000000"],
        "{asked:?}"
    );
    assert_same_run(&one, &run);
    assert_same_calibration(&one, &run);
    assert!(!run.join("batches").exists() && !run.join("calibration.journal.json").exists());
}

/// A small Pig run with the default player: `budget` sets it and nothing names it.
const PIG: &str = r#"
game = "pig"
seed = 5
batch_size = 4

[evaluation]
levels = ["2"]
repetitions = 4
budget = 40
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
random_init = 2
iterations = 2

[calibration]
strengths = [0.0, 2.0]
"#;

#[test]
fn the_default_player_calibrates_its_persona_on_a_users_game_through_ask_work_tell() {
    let dir = scratch("calibration", "pig");
    let cfg = config(&dir, PIG);
    let evolved = dir.join("evolved");
    let said = succeeded(
        crate::pig::pig(&[
            "evolve",
            path_arg(&cfg),
            "--out",
            path_arg(&evolved),
            "--quiet",
        ]),
        "evolve",
    );
    assert!(
        said.contains("`persona` at 0, 2 against mcts(budget=20)"),
        "{said}"
    );
    let toml = read_text(&evolved.join("config.toml"));
    assert!(
        toml.contains(
            "player = \"pmcts(bias=true,pruning=false,budget=40,expand=weighted,final=weighted,\
             persona="
        ) && toml.contains("chosen = "),
        "{toml}"
    );
    let run = dir.join("run");
    for _ in 0..20 {
        let o = crate::pig::pig(&["ask", path_arg(&run), "--config", path_arg(&cfg)]);
        if o.status.code() == Some(3) {
            break;
        }
        let tasks = PathBuf::from(succeeded(o, "ask").trim_end());
        succeeded(
            crate::pig::pig(&["work", path_arg(&tasks), "--quiet"]),
            "work",
        );
        succeeded(crate::pig::pig(&["tell", path_arg(&run)]), "tell");
    }
    assert_same_run(&evolved, &run);
    assert_same_calibration(&evolved, &run);
}

#[test]
fn sensitivity_draws_the_same_trade_off_on_any_thread_count_and_resumed() {
    let dir = scratch("calibration", "sensitivity");
    // The player says `auto`: the genomes play at the top strength, the extremes at each.
    let cfg = config(&dir, CALIBRATED);
    let measure = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "sensitivity",
            path_arg(&cfg),
            "--out",
            path_arg(out),
            "--quiet",
            "--strengths",
            "0,2",
        ];
        args.extend_from_slice(extra);
        playstyles(&args)
    };
    let (one, two, stopped) = (dir.join("one"), dir.join("two"), dir.join("stopped"));
    let printed = succeeded(measure(&one, &["--threads", "1"]), "sensitivity");
    assert!(printed.contains("style strength `style`"), "{printed}");
    succeeded(measure(&two, &["--threads", "2"]), "sensitivity");
    let o = measure(&stopped, &["--stop-after-genomes", "9"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    succeeded(measure(&stopped, &["--resume"]), "sensitivity");
    let files = [
        "sensitivity_strengths.csv",
        "sensitivity_strengths.png",
        "sensitivity_strengths.svg",
        "sensitivity_genomes.csv",
        "sensitivity_effects.csv",
    ];
    for f in files {
        for other in [&two, &stopped] {
            assert!(
                read_bytes(&one.join(f)) == read_bytes(&other.join(f)),
                "{f} differs in {}",
                other.display()
            );
        }
    }
    let strengths = rows(&one.join("sensitivity_strengths.csv"));
    let listed: Vec<&str> = strengths.iter().map(|r| r["strength"].as_str()).collect();
    assert_eq!(listed, ["0", "2"]);
    // Resumed once finished: nothing to do; with other strengths: refused naming the flag.
    let said = succeeded(measure(&one, &["--resume"]), "sensitivity");
    assert!(said.contains("nothing to do"), "{said}");
    let mut args = vec![
        "sensitivity",
        path_arg(&cfg),
        "--out",
        path_arg(&one),
        "--resume",
    ];
    args.extend(["--strengths", "0,0.5,2"]);
    let o = playstyles(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--strengths"), "{}", stderr(&o));
}

#[test]
fn malformed_calibration_settings_and_auto_misused_exit_2_naming_the_field() {
    let dir = scratch("calibration", "malformed");
    let player = "player = \"persona(budget=2,style=auto)\"";
    let cases = [
        (player, "player = \"sa0(tau=auto)\"", "evaluation.player"),
        (
            player,
            "player = \"persona(budget=2,tau=auto)\"",
            "evaluation.player",
        ),
        (
            player,
            "player = \"persona(budget=2,style=auto,tau=auto)\"",
            "evaluation.player",
        ),
        (
            "baseline = \"sa0\"",
            "baseline = \"thinking(style=auto)\"",
            "evaluation.baseline",
        ),
        (
            "baseline = \"sa0\"",
            "baseline = \"sa0\"\nbudget = 50",
            "evaluation.budget",
        ),
        (player, "player = \"sa0\"", "calibration"),
        ("floor = 0.1", "floor = 1.5", "calibration.floor"),
        ("floor = 0.1", "floor = 0.1\nz = -1", "calibration.z"),
        ("floor = 0.1", "floor = 0.1\nwho = 1", "calibration.who"),
        (
            "floor = 0.1",
            "floor = 0.1\nchosen = 0.5",
            "calibration.chosen",
        ),
        (
            "strengths = [0.0, 0.5, 2.0]",
            "strengths = [2, 1]",
            "calibration.strengths",
        ),
        (
            "strengths = [0.0, 0.5, 2.0]",
            "strengths = []",
            "calibration.strengths",
        ),
        (
            "repetitions = 6",
            "repetitions = 0",
            "calibration.repetitions",
        ),
        // 21 genomes (9 first, 4 extremes at each of 3 strengths) x 50,000 games: too many.
        (
            "repetitions = 6",
            "repetitions = 50000",
            "calibration.repetitions",
        ),
    ];
    for (from, to, field) in cases {
        assert!(CALIBRATED.contains(from), "{from}");
        let cfg = config(&dir, &CALIBRATED.replacen(from, to, 1));
        let out = dir.join("x");
        let o = playstyles(&["evolve", path_arg(&cfg), "--out", path_arg(&out)]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{to}: {err}");
        assert!(err.contains(&format!("`{field}`")), "{to}: {err}");
        assert!(!out.join("config.toml").exists(), "{to}: a run was started");
    }
    // sensitivity's --strengths: malformed, or for a player without a style strength.
    let cfg = config(&dir, CALIBRATED);
    for (strengths, player) in [("1,0", None), ("x", None), ("0,1", Some("sa0"))] {
        let mut args = vec!["sensitivity", path_arg(&cfg), "--strengths", strengths];
        if let Some(p) = player {
            args.extend(["--player", p]);
        }
        let o = playstyles(&args);
        assert_eq!(o.status.code(), Some(2), "{strengths}: {}", stderr(&o));
        assert!(stderr(&o).contains("`--strengths`"), "{}", stderr(&o));
    }
}

#[test]
fn agents_declare_their_style_strength_and_others_none() {
    use playstyles::AgentSpec;
    use playstyles::agents::style_field;
    use playstyles::games::prismata::PrismataGame;
    use playstyles::games::puerto_rico::PuertoRicoGame;
    use playstyles::games::tribes::TribesGame;

    let spec = |s: &str| AgentSpec::parse(s).unwrap();
    let field = |f: Option<playstyles::StyleField>| f.map(|f| (f.field, f.ladder.to_vec()));
    let generic = Some(("persona", vec![0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0]));
    // The generic Portfolio MCTS, in any game; the generic MCTS has none.
    let tribes = TribesGame::default();
    assert_eq!(
        field(style_field(&tribes, &spec("pmcts(budget=5)"))),
        generic
    );
    assert_eq!(field(style_field(&tribes, &spec("mcts"))), None);
    assert_eq!(field(style_field(&tribes, &spec("rule"))), None);
    // Puerto Rico: persona and thinking their `style`; SA-0 none.
    let pr = PuertoRicoGame::default();
    let style = |f: Option<playstyles::StyleField>| f.map(|f| f.field);
    assert_eq!(field(style_field(&pr, &spec("pmcts"))), generic);
    assert_eq!(
        style(style_field(&pr, &spec("persona(budget=50)"))),
        Some("style")
    );
    assert_eq!(style(style_field(&pr, &spec("thinking"))), Some("style"));
    assert_eq!(style(style_field(&pr, &spec("sa0"))), None);
    // Prismata: its Portfolio MCTS players `style`; its other bots none.
    let prismata = PrismataGame::default();
    assert_eq!(
        style(style_field(&prismata, &spec("PMCTS100"))),
        Some("style")
    );
    assert_eq!(style(style_field(&prismata, &spec("MediumAI"))), None);
    assert_eq!(style(style_field(&prismata, &spec("NoSuchBot"))), None);
}

#[test]
fn the_quick_start_calibrates_the_default_player_at_its_budget() {
    let quick = EvolveConfig::load(None, None).unwrap().run;
    assert_eq!(
        quick.player.to_string(),
        "pmcts(bias=true,pruning=false,budget=200,expand=weighted,final=weighted,persona=auto)"
    );
    assert_eq!(quick.baseline.to_string(), "mcts(budget=200)");
    let cal = quick.calibration.unwrap();
    assert_eq!(cal.strengths, Some(vec![0.0, 1.0, 3.0]));
    assert_eq!(cal.repetitions, 4);
}

/// Every run directory committed under `results/` (its `config.toml`, a run config) reads as
/// before: an explicit player, nothing left to calibrate, and its config resolved again is itself
/// (or the same run as an earlier version wrote it).
#[test]
fn committed_run_directories_read_as_before() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut configs = Vec::new();
    let mut stack = vec![results];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "config.toml") {
                configs.push(path);
            }
        }
    }
    let mut runs = 0;
    for path in configs {
        let text = read_text(&path);
        // Tournament, ladder and dataset configs have no [evaluation].
        if !text.lines().any(|l| l == "[evaluation]") {
            continue;
        }
        let run = match RunConfig::parse_resolved(&text, "run") {
            Ok(run) => run,
            // A user's game (Pig): its own binary's registry knows it, not this one's.
            Err(playstyles::Error::Config { field, .. }) if field == "game" => continue,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        assert!(text.contains("\nplayer = "), "{}", path.display());
        // Nothing left to calibrate: no `auto`, and a calibration only with its choice.
        assert_eq!(run.auto_field(), None, "{}", path.display());
        assert!(
            run.calibration.as_ref().is_none_or(|c| c.chosen.is_some()),
            "{}",
            path.display()
        );
        let (LevelSet::List(levels), Some(scripts)) = (&run.levels, &run.scripts) else {
            panic!("{}: not a resolved config", path.display());
        };
        let again = run.resolved_toml(levels, scripts).unwrap();
        assert!(
            again == text || older_form_of(&text, &again),
            "{}",
            path.display()
        );
        runs += 1;
    }
    assert!(runs > 20, "only {runs} committed runs found");
}

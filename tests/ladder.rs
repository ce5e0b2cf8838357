use std::path::{Path, PathBuf};
use std::time::Duration;

use playstyles::experiments::LadderConfig;

use crate::support::cli::{
    path_arg, playstyles, playstyles_within, read_bytes, read_text, scratch, stderr, succeeded,
};

/// Three Tribes agents of clearly different strength on two levels.
const LADDER: &str = r#"
game = "tribes"
seed = 5
levels = [1590191438878, 1590791907337]
anchor = "end_turn"
target = 150.0
max_games = 48

[[agent]]
name = "end_turn"
spec = "end_turn"

[[agent]]
name = "random"
spec = "random"

[[agent]]
name = "osla"
spec = "osla"
"#;

const FILES: [&str; 5] = [
    "config.toml",
    "ladder_games.csv",
    "ladder.csv",
    "ladder.svg",
    "ladder.png",
];

/// Three Puerto Rico agents (a game takes milliseconds): 60 games in three rounds, stopped at
/// the budget.
const QUICK: &str = r#"
game = "puerto-rico"
seed = 3
levels = ["4p"]
anchor = "random"
target = 100.0
max_games = 60

[[agent]]
name = "random"
spec = "random"

[[agent]]
name = "sa0"
spec = "sa0"

[[agent]]
name = "osla"
spec = "osla(budget=20)"
"#;

/// A fourth agent for [`QUICK`].
const FOURTH: &str = "\n[[agent]]\nname = \"osla5\"\nspec = \"osla(budget=5)\"\n";

/// A copy of a committed Puerto Rico map (its tracked files) in `dir/run`, so that pages are
/// written there, and a ladder config in `dir/dial.toml` rating its cell 111 at budgets 2 and 8
/// against `sa0`, with `extra` fields; returns the run and the config.
fn dial_ladder(dir: &Path, extra: &str) -> (PathBuf, String) {
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    for f in ["archive.csv", "config.toml", "progress.csv"] {
        std::fs::copy(
            Path::new("results/puerto-rico-personas-floor").join(f),
            run.join(f),
        )
        .unwrap();
    }
    let config = write_config(
        dir,
        "dial.toml",
        &format!(
            r#"
game = "puerto-rico"
levels = ["4p"]
anchor = "sa0"
max_games = 12
{extra}

[rules]
vp_chips_5p = 122

[[elites]]
run = "{}"
cells = [111]
dial = {{ field = "budget", values = [2, 8] }}

[[agent]]
name = "sa0"
spec = "sa0"
"#,
            path_arg(&run)
        ),
    );
    (run, config)
}

fn write_config(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path_arg(&path).to_string()
}

/// Runs the binary expecting exit code 2 with an error naming `field`.
fn fails_naming(args: &[&str], field: &str) {
    let o = playstyles(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(field), "{args:?} should name {field}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_ladder_is_the_same_for_any_thread_count_and_after_a_kill_and_resume() {
    let dir = scratch("ladder", "determinism");
    let config = write_config(&dir, "ladder.toml", LADDER);
    let (a, b) = (dir.join("a"), dir.join("b"));
    let out = succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&a),
            "--threads",
            "1",
            "--quiet",
        ]),
        "ladder on one thread",
    );
    assert!(out.contains("ratings anchored at end_turn"), "{out}");
    let o = playstyles(&[
        "ladder",
        &config,
        "--out",
        path_arg(&b),
        "--threads",
        "2",
        "--quiet",
        "--stop-after-games",
        "13",
    ]);
    assert!(succeeded(o, "stopped ladder").contains("continue with --resume"));
    assert!(
        !b.join("ladder.csv").exists(),
        "no ratings before the ladder ends"
    );
    succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&b),
            "--threads",
            "2",
            "--quiet",
            "--resume",
        ]),
        "resumed ladder",
    );
    for f in FILES {
        assert_eq!(read_bytes(&a.join(f)), read_bytes(&b.join(f)), "{f}");
    }
    let csv = read_text(&a.join("ladder.csv"));
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(
        rows.iter()
            .any(|r| r.contains(",end_turn,end_turn,") && r.split(',').nth(9) == Some("0.0")),
        "the anchor is rated 0: {csv}"
    );
    let games = read_text(&a.join("ladder_games.csv"));
    assert!(games.lines().count() - 1 <= 48, "max_games holds");
    // A ladder stopped at its budget goes on with a larger one, as if given it at the start.
    let (small, big) = (dir.join("small"), dir.join("big"));
    let more = write_config(
        &dir,
        "more.toml",
        &LADDER.replace("max_games = 48", "max_games = 60"),
    );
    succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&small), "--quiet"]),
        "ladder to 48 games",
    );
    succeeded(
        playstyles(&[
            "ladder",
            &more,
            "--out",
            path_arg(&small),
            "--quiet",
            "--resume",
        ]),
        "the same ladder resumed to 60 games",
    );
    succeeded(
        playstyles(&["ladder", &more, "--out", path_arg(&big), "--quiet"]),
        "ladder to 60 games",
    );
    for f in FILES {
        assert_eq!(read_bytes(&small.join(f)), read_bytes(&big.join(f)), "{f}");
    }
    // Other settings may not change on a resume.
    let other = write_config(
        &dir,
        "other.toml",
        &LADDER.replace("target = 150.0", "target = 100.0"),
    );
    fails_naming(
        &[
            "ladder",
            &other,
            "--out",
            path_arg(&small),
            "--quiet",
            "--resume",
        ],
        "resume",
    );
    // Without --force or --resume, the results are not overwritten.
    fails_naming(
        &["ladder", &config, "--out", path_arg(&a), "--quiet"],
        "out",
    );
}

#[test]
fn tiers_from_a_ladder_step_by_the_gap_and_a_held_out_ladder_checks_their_order() {
    let dir = scratch("ladder", "tiers");
    let config = write_config(&dir, "ladder.toml", LADDER);
    let lad = dir.join("rated");
    succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&lad), "--quiet"]),
        "ladder",
    );
    let out = succeeded(
        playstyles(&["tiers", path_arg(&lad), "--count", "2"]),
        "tiers from the ladder",
    );
    assert!(out.contains("tiers by rating"), "{out}");
    let tiers: toml::Table = toml::from_str(&read_text(&lad.join("tiers.toml"))).unwrap();
    let list = tiers["tier"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    let f = |t: &toml::Value, k: &str| t[k].as_float().unwrap();
    assert!(f(&list[1], "elo") - f(&list[0], "elo") >= 100.0, "{tiers}");
    assert!(f(&list[0], "elo_hi") < f(&list[1], "elo_lo"), "{tiers}");
    assert!(f(&list[1], "expected_below") > 0.64, "{tiers}");
    // More tiers than the ratings can separate: named, with how many they can give.
    let o = playstyles(&["tiers", path_arg(&lad), "--count", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--count") && stderr(&o).contains("at most 3"),
        "{}",
        stderr(&o)
    );
    // The tiers re-played on other levels: the ladder reports whether their order holds.
    let held_out = LADDER
        .replace(
            "levels = [1590191438878, 1590791907337]",
            "levels = [1591330872230]",
        )
        .replace("anchor = \"end_turn\"\n", "")
        .split("[[agent]]")
        .next()
        .unwrap()
        .to_string()
        + &format!("tiers = \"{}\"\n", path_arg(&lad.join("tiers.toml")));
    let held = write_config(&dir, "held-out.toml", &held_out);
    let out = succeeded(
        playstyles(&[
            "ladder",
            &held,
            "--out",
            path_arg(&dir.join("held")),
            "--quiet",
        ]),
        "held-out ladder of the tiers",
    );
    assert!(
        out.contains("Kendall's tau") && out.contains("tier-2 - tier-1"),
        "{out}"
    );
    // The surest tiers: still valid steps, and the file says how they were chosen.
    succeeded(
        playstyles(&[
            "tiers",
            path_arg(&lad),
            "--count",
            "3",
            "--prefer",
            "surest",
        ]),
        "the surest tiers",
    );
    let text = read_text(&lad.join("tiers.toml"));
    assert!(text.starts_with("# 3 difficulty tiers") && text.contains("--prefer surest"));
}

#[test]
fn malformed_ladders_exit_2_naming_the_field() {
    let dir = scratch("ladder", "errors");
    let out = path_arg(&dir.join("out")).to_string();
    let one = LADDER
        .split("[[agent]]\nname = \"random\"")
        .next()
        .unwrap()
        .to_string();
    let cases = [
        (one, "agent"),
        (
            LADDER.replace("spec = \"random\"", "spec = \"nosuch\""),
            "agent[1].spec",
        ),
        (
            LADDER.replace("anchor = \"end_turn\"", "anchor = \"mcts\""),
            "anchor",
        ),
        (LADDER.replace("target = 150.0", "target = -1.0"), "target"),
        (
            LADDER.replace("target = 150.0", "target = 150.0\ndecisive = 0"),
            "decisive",
        ),
        (
            LADDER.replace("max_games = 48", "max_games = 0"),
            "max_games",
        ),
        (
            LADDER.replace("name = \"osla\"", "name = \"random\""),
            "agent[2].name",
        ),
        (
            LADDER.replace(
                "max_games = 48",
                "max_games = 48\n[[elites]]\nrun = \"/no/such/run\"",
            ),
            "elites[0].run",
        ),
    ];
    for (i, (text, field)) in cases.iter().enumerate() {
        let config = write_config(&dir, &format!("bad{i}.toml"), text);
        fails_naming(&["ladder", &config, "--out", &out, "--quiet"], field);
    }
    // A games file that does not belong to the ladder: refused on resume, naming the line.
    let config = write_config(&dir, "good.toml", LADDER);
    let lad = dir.join("lad");
    succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&lad),
            "--quiet",
            "--stop-after-games",
            "4",
        ]),
        "stopped ladder",
    );
    let games = lad.join("ladder_games.csv");
    let text = read_text(&games);
    std::fs::write(&games, text.replacen(",osla,", ",mcts,", 1)).unwrap();
    fails_naming(
        &[
            "ladder",
            &config,
            "--out",
            path_arg(&lad),
            "--quiet",
            "--resume",
        ],
        "line",
    );
    // Ladder-only flags on a run directory are named.
    fails_naming(
        &[
            "tiers",
            "results/usecase1-attacks-vs-support",
            "--gap",
            "50",
        ],
        "--gap",
    );
}

#[test]
fn an_elite_at_several_dial_settings_is_rated_style_checked_and_shown_on_its_runs_page() {
    let dir = scratch("ladder", "dial");
    let (run, config) = dial_ladder(&dir, "style_repetitions = 2");
    let lad = dir.join("lad");
    let out = succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&lad), "--quiet"]),
        "dial ladder",
    );
    assert!(out.contains("style check:"), "{out}");
    let printed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("cell-111@budget="))
        .collect();
    assert_eq!(printed.len(), 2, "{out}");
    for l in printed {
        let cols: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            cols.len(),
            6,
            "agent, cell, reached, in cell, consistent, win %: {l}"
        );
        assert!(
            cols[2].parse::<usize>().is_ok() && ["yes", "no"].contains(&cols[3]),
            "{l}"
        );
    }
    let style = read_text(&lad.join("ladder_style.csv"));
    let rows: Vec<&str> = style.lines().collect();
    assert_eq!(rows.len(), 3, "{style}");
    assert!(
        rows[0].ends_with("reached_cell,in_cell,consistent"),
        "{style}"
    );
    assert!(rows[1].starts_with("cell-111@budget=2,") && rows[2].starts_with("cell-111@budget=8,"));
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.ends_with(",true") || r.ends_with(",false"))
    );
    assert!(read_text(&lad.join("config.toml")).contains("dial = \"budget=8\""));
    // `tiers --cell` leaves out the settings whose style left the cell (not consistent): with
    // fewer than two left it names `--cell`.
    let kept = rows[1..].iter().filter(|r| r.ends_with(",true")).count();
    let o = playstyles(&["tiers", path_arg(&lad), "--cell", "111", "--count", "2"]);
    if kept < 2 {
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--cell") && stderr(&o).contains("ladder_style.csv"),
            "{}",
            stderr(&o)
        );
    } else {
        assert!(!stderr(&o).contains("--cell"), "{}", stderr(&o));
    }
    // A style check that found both settings consistent with the cell:
    let marked: Vec<String> = style
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut f: Vec<&str> = l.split(',').collect();
            let n = f.len();
            if i > 0 {
                f[n - 1] = "true";
            }
            f.join(",")
        })
        .collect();
    std::fs::write(lad.join("ladder_style.csv"), marked.join("\n") + "\n").unwrap();
    // Marked as kept, both settings are candidates again: 12 games cannot tell them apart,
    // so the refusal names `--count` and counts both.
    let o = playstyles(&["tiers", path_arg(&lad), "--cell", "111", "--count", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--count") && stderr(&o).contains("from 2 agents"),
        "{}",
        stderr(&o)
    );
    // Two settings cannot give three strengths; a cell not on the ladder is named.
    let o = playstyles(&["tiers", path_arg(&lad), "--cell", "111", "--count", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--count"), "{}", stderr(&o));
    fails_naming(
        &["tiers", path_arg(&lad), "--cell", "5", "--count", "2"],
        "--cell",
    );
    // A resumed ladder plays nothing and recomputes each kept row's flag from its intervals.
    succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&lad),
            "--resume",
            "--quiet",
        ]),
        "resumed dial ladder",
    );
    assert_eq!(read_text(&lad.join("ladder_style.csv")), style);
    // The run's page shows the elite's ratings and the ladder's chart.
    succeeded(
        playstyles(&[
            "report",
            path_arg(&run),
            "--ladder",
            path_arg(&lad),
            "--no-replays",
        ]),
        "report with the ladder",
    );
    let html = read_text(&run.join("report.html"));
    assert!(html.contains("Rating on the ladder") && html.contains("rating at budget=8"));
    assert!(html.contains("<h2>Ladder</h2>"));
    // Tiers by style need the elites' map: a map moved away is named by the ladder's field.
    std::fs::rename(&run, dir.join("moved")).unwrap();
    fails_naming(
        &["tiers", path_arg(&lad), "--count", "2", "--gap", "0"],
        "].run`",
    );
}

/// Runs the binary expecting exit code 2 with an error naming each of `words`.
fn fails_with(args: &[&str], words: &[&str]) -> String {
    let o = playstyles(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?} should name {w}: {err}");
    }
    err
}

#[test]
fn a_tiers_count_is_checked_before_anything_is_allocated() {
    let dir = scratch("ladder", "tiers-count");
    let config = write_config(&dir, "quick.toml", QUICK);
    let lad = dir.join("lad");
    succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&lad), "--quiet"]),
        "ladder",
    );
    for count in ["18446744073709551615", "100000000000", "1001"] {
        fails_with(
            &["tiers", path_arg(&lad), "--count", count],
            &["`--count`", "maximum of 1,000"],
        );
        fails_with(
            &[
                "tiers",
                "results/usecase1-attacks-vs-support",
                "--count",
                count,
            ],
            &["`--count`", "maximum of 1,000"],
        );
    }
    fails_with(
        &["tiers", path_arg(&lad), "--count", "4"],
        &["`--count`", "from 3 agents"],
    );
    assert!(!lad.join("tiers.toml").exists());
}

#[test]
fn a_ladders_games_are_bounded_before_any_is_played() {
    let dir = scratch("ladder", "bounded");
    let out = dir.join("out");
    let within = |config: &str, field: &str, words: &[&str]| {
        let o = playstyles_within(
            &["ladder", config, "--out", path_arg(&out), "--quiet"],
            Duration::from_secs(20),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("`{field}`")), "{err}");
        for w in words {
            assert!(err.contains(w), "{w}: {err}");
        }
        assert!(!out.exists(), "nothing written: {err}");
    };
    // The style check: 11 settings × 1 training level × 100,000 games.
    let (_, config) = dial_ladder(&dir, "style_repetitions = 100000");
    let text = read_text(Path::new(&config)).replace("max_games = 12", "max_games = 200");
    let eleven = write_config(
        &dir,
        "eleven.toml",
        &text.replace(
            "values = [2, 8]",
            "values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]",
        ),
    );
    within(
        &eleven,
        "style_repetitions",
        &["11 elite agents", "1100000 games"],
    );
    // The opening round robin: 46 agents, 1,035 pairs × 1,000 games.
    let mut many = "game = \"puerto-rico\"\nlevels = [\"4p\"]\nstart = 1000\nmax_games = 1000000\n"
        .to_string();
    for i in 0..46 {
        many += &format!("[[agent]]\nname = \"r{i}\"\nspec = \"random\"\n");
    }
    let many = write_config(&dir, "many.toml", &many);
    within(&many, "start", &["1035 pairs", "1035000 games"]);
}

#[test]
fn a_budget_that_leaves_an_agent_unplayed_is_refused_and_fit_errors_name_agents() {
    let dir = scratch("ladder", "unplayed");
    let out = dir.join("out");
    // Four agents, two games a pair: `osla5` plays its first game after four.
    let short = write_config(
        &dir,
        "short.toml",
        &(QUICK.replace("max_games = 60", "max_games = 4") + FOURTH),
    );
    fails_with(
        &["ladder", &short, "--out", path_arg(&out), "--quiet"],
        &[
            "`max_games`",
            "`osla5`",
            "6 pairs × 2 games = 12",
            "at least 5",
        ],
    );
    assert!(!out.exists());
    // Without prior draws a sweep has no finite rating: the agent is named by its name.
    let bare = write_config(
        &dir,
        "bare.toml",
        &QUICK.replace("target = 100.0", "target = 100.0\nprior_draws = 0.0"),
    );
    let err = fails_with(
        &["ladder", &bare, "--out", path_arg(&out), "--quiet"],
        &["every game"],
    );
    assert!(
        ["`random`", "`sa0`", "`osla`"]
            .iter()
            .any(|n| err.contains(n))
            && !err.contains("agent 1"),
        "{err}"
    );
}

#[test]
fn every_committed_ladder_config_loads_within_its_bounds() {
    let mut checked = 0;
    for entry in std::fs::read_dir("experiments").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("ladder") && name.ends_with(".toml")) {
            continue;
        }
        LadderConfig::load(&path, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += 1;
    }
    assert!(checked >= 30, "{checked} ladder configs");
}

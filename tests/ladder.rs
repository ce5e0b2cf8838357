//! Ladders (issues 31 and 60): deterministic and resumable ratings; tiers from them; a ladder's
//! tables bound to its config and checked as written by every reader; resumes that lose
//! nothing and write nothing before their checks pass; counts bounded before anything is
//! played or allocated; `--force` replacing only a ladder's own files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use playstyles::experiments::LadderConfig;
use playstyles::experiments::config_file::LevelSet;
use playstyles::experiments::ladder::style::check_style_games;
use playstyles::games::prismata::PrismataGame;
use playstyles::games::puerto_rico::PuertoRicoGame;
use playstyles::games::tribes::TribesGame;
use playstyles::kit::GameKit;

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

/// Every file under `dir` (recursively) with its bytes.
fn files_in(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.insert(path.clone(), read_bytes(&path));
            }
        }
    }
    files
}

/// Every file under `dir` with its inode and modification time: a file written again, even
/// with the same bytes (atomically: a new file renamed into place), changes them.
fn stamps(dir: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    use std::os::unix::fs::MetadataExt;
    files_in(dir)
        .into_keys()
        .map(|p| {
            let m = std::fs::metadata(&p).unwrap();
            (p, (m.ino(), m.modified().unwrap()))
        })
        .collect()
}

/// A copy of `from`'s files (not its folders) in the new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// Replaces cell `col` of data row `row` (1: the first after the header) of the CSV `text`.
fn with_cell(text: &str, row: usize, col: &str, value: &str) -> String {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().clone();
    let c = header.iter().position(|h| h == col).unwrap();
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(&header).unwrap();
    for (i, rec) in r.records().enumerate() {
        let mut rec: Vec<String> = rec.unwrap().iter().map(String::from).collect();
        if i + 1 == row {
            rec[c] = value.to_string();
        }
        w.write_record(&rec).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// Cell `col` of data row `row` of the CSV `text`.
fn cell(text: &str, row: usize, col: &str) -> String {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let c = r.headers().unwrap().iter().position(|h| h == col).unwrap();
    r.records().nth(row - 1).unwrap().unwrap()[c].to_string()
}

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
        rows[0].ends_with("reached_cell,in_cell,consistent,config_hash"),
        "{style}"
    );
    assert!(rows[1].starts_with("cell-111@budget=2,") && rows[2].starts_with("cell-111@budget=8,"));
    let consistent = |style: &str, row: usize| cell(style, row, "consistent");
    assert!((1..=2).all(|r| ["true", "false"].contains(&consistent(&style, r).as_str())));
    assert!(read_text(&lad.join("config.toml")).contains("dial = \"budget=8\""));
    // `tiers --cell` leaves out the settings whose style left the cell (not consistent): with
    // fewer than two left it names `--cell`.
    let kept = (1..=2).filter(|&r| consistent(&style, r) == "true").count();
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
    let marked = with_cell(
        &with_cell(&style, 1, "consistent", "true"),
        2,
        "consistent",
        "true",
    );
    std::fs::write(lad.join("ladder_style.csv"), &marked).unwrap();
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
    // A finished ladder resumed: nothing to do, nothing written.
    let resume = || {
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
        )
    };
    assert!(resume().contains("nothing to do"));
    assert_eq!(read_text(&lad.join("ladder_style.csv")), marked);
    // Stopped before its ratings were written (the last file), it plays nothing and
    // recomputes each kept row's flag from its intervals.
    let ratings = read_text(&lad.join("ladder.csv"));
    std::fs::remove_file(lad.join("ladder.csv")).unwrap();
    resume();
    assert_eq!(read_text(&lad.join("ladder_style.csv")), style);
    assert_eq!(read_text(&lad.join("ladder.csv")), ratings);
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
fn a_resume_below_the_games_played_is_refused_with_the_folder_untouched() {
    let dir = scratch("ladder", "smaller-budget");
    let config = write_config(&dir, "quick.toml", QUICK);
    let small = write_config(
        &dir,
        "small.toml",
        &QUICK.replace("max_games = 60", "max_games = 30"),
    );
    let lad = dir.join("lad");
    succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&lad), "--quiet"]),
        "ladder",
    );
    let tiers = |what: &str| {
        succeeded(
            playstyles(&["tiers", path_arg(&lad), "--count", "2", "--gap", "50"]),
            what,
        )
    };
    let picked = tiers("tiers");
    let before = files_in(&lad);
    fails_with(
        &[
            "ladder",
            &small,
            "--out",
            path_arg(&lad),
            "--quiet",
            "--resume",
        ],
        &["`max_games`", "holds 60 games", "at least 60"],
    );
    assert_eq!(files_in(&lad), before, "the folder untouched");
    assert_eq!(tiers("the same tiers"), picked);
    assert_eq!(files_in(&lad), before);
    // A ladder killed while its workers played round 0: its saved games skip one. A budget
    // that ends the ladder before a saved game is refused, the folder untouched; its own
    // budget ends it as an uninterrupted ladder.
    let cut = dir.join("cut");
    succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&cut),
            "--quiet",
            "--stop-after-games",
            "5",
        ]),
        "stopped ladder",
    );
    let games = cut.join("ladder_games.csv");
    let text = read_text(&games);
    assert_eq!(text.lines().count(), 6, "{text}");
    let skipped: String = text
        .lines()
        .enumerate()
        .filter(|&(i, _)| i != 3)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(&games, skipped).unwrap();
    let four = write_config(
        &dir,
        "four.toml",
        &QUICK.replace("max_games = 60", "max_games = 4"),
    );
    let before = files_in(&cut);
    fails_with(
        &[
            "ladder",
            &four,
            "--out",
            path_arg(&cut),
            "--quiet",
            "--resume",
        ],
        &["`max_games`", "line 5"],
    );
    assert_eq!(files_in(&cut), before, "the folder untouched");
    succeeded(
        playstyles(&[
            "ladder",
            &config,
            "--out",
            path_arg(&cut),
            "--quiet",
            "--resume",
        ]),
        "the ladder resumed with its own budget",
    );
    for f in FILES {
        assert_eq!(read_bytes(&cut.join(f)), read_bytes(&lad.join(f)), "{f}");
    }
}

#[test]
fn a_ladders_tables_are_bound_to_the_config_that_made_them() {
    let dir = scratch("ladder", "bound");
    let config = write_config(&dir, "quick.toml", QUICK);
    let other = write_config(
        &dir,
        "other.toml",
        &QUICK.replace("osla(budget=20)", "osla(budget=5)"),
    );
    let (lad, theirs) = (dir.join("lad"), dir.join("theirs"));
    for (c, out) in [(&config, &lad), (&other, &theirs)] {
        succeeded(
            playstyles(&["ladder", c, "--out", path_arg(out), "--quiet"]),
            "ladder",
        );
    }
    let tiers = |d: &Path| ["tiers", path_arg(d), "--count", "2", "--gap", "50"].map(String::from);
    let run = |args: &[String], words: &[&str]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_with(&args, words)
    };
    let resume = |c: &str, d: &Path| {
        ["ladder", c, "--out", path_arg(d), "--quiet", "--resume"].map(String::from)
    };
    // Another ladder's games, of agents of the same names, on the same levels and seeds.
    let games = dir.join("their-games");
    copy_folder(&lad, &games);
    std::fs::copy(
        theirs.join("ladder_games.csv"),
        games.join("ladder_games.csv"),
    )
    .unwrap();
    let words = ["ladder_games.csv", "line 2", "config_hash"];
    run(&tiers(&games), &words);
    let before = files_in(&games);
    run(&resume(&config, &games), &words);
    assert_eq!(files_in(&games), before, "a refused resume writes nothing");
    // Another ladder's ratings.
    let ratings = dir.join("their-ratings");
    copy_folder(&lad, &ratings);
    std::fs::copy(theirs.join("ladder.csv"), ratings.join("ladder.csv")).unwrap();
    run(&tiers(&ratings), &["ladder.csv", "line 2", "config_hash"]);
    // A config.toml edited after the ladder: its games are no longer the config's.
    let edited = dir.join("edited");
    copy_folder(&lad, &edited);
    let toml = read_text(&edited.join("config.toml"));
    std::fs::write(
        edited.join("config.toml"),
        toml.replace("osla(budget=20)", "osla(budget=5)"),
    )
    .unwrap();
    run(&tiers(&edited), &words);
    run(&resume(&other, &edited), &words);
    // The ladder's own files read as they are.
    succeeded(
        playstyles(&["tiers", path_arg(&lad), "--count", "2", "--gap", "50"]),
        "tiers of the ladder itself",
    );
}

#[test]
fn committed_ladders_without_fingerprints_give_the_same_tiers() {
    // Written before the fingerprint existed: read as they are, their tiers as committed.
    for (ladder, file, flags) in [
        (
            "results/ladder-tribes",
            "tiers.toml",
            &["--count", "5", "--gap", "100"][..],
        ),
        (
            "results/ladder-puerto-rico-dial",
            "tiers-cell-111.toml",
            &["--count", "4", "--gap", "100", "--cell", "111"][..],
        ),
    ] {
        let committed = Path::new(ladder);
        assert!(!read_text(&committed.join("ladder.csv")).contains("config_hash"));
        let copy = scratch("ladder", &format!("committed-{}", file.replace('.', "-")));
        copy_folder(committed, &copy);
        std::fs::remove_file(copy.join(file)).unwrap();
        let mut args = vec!["tiers", path_arg(&copy)];
        args.extend_from_slice(flags);
        succeeded(playstyles(&args), ladder);
        // The first line names the folder.
        let body = |p: &Path| {
            read_text(p)
                .split_once('\n')
                .map(|(_, b)| b.to_string())
                .unwrap()
        };
        assert_eq!(
            body(&copy.join(file)),
            body(&committed.join(file)),
            "{ladder}"
        );
    }
}

#[test]
fn damaged_ladder_tables_are_refused_naming_the_file_and_line() {
    let dir = scratch("ladder", "damaged");
    let (run, config) = dial_ladder(&dir, "style_repetitions = 2");
    let lad = dir.join("lad");
    succeeded(
        playstyles(&["ladder", &config, "--out", path_arg(&lad), "--quiet"]),
        "dial ladder",
    );
    let report = [
        "report",
        path_arg(&run),
        "--ladder",
        path_arg(&lad),
        "--no-replays",
    ];
    let tiers = ["tiers", path_arg(&lad), "--count", "2", "--gap", "0"];
    let cell_tiers = [
        "tiers",
        path_arg(&lad),
        "--count",
        "2",
        "--gap",
        "0",
        "--cell",
        "111",
    ];
    succeeded(playstyles(&report), "report with the ladder");
    let damaged = |file: &str, text: &str, commands: &[&[&str]], words: &[&str]| {
        let path = lad.join(file);
        let good = read_text(&path);
        std::fs::write(&path, text).unwrap();
        for args in commands {
            fails_with(args, words);
        }
        std::fs::write(&path, good).unwrap();
    };
    let csv = read_text(&lad.join("ladder.csv"));
    let (lo, hi) = (cell(&csv, 2, "elo_lo"), cell(&csv, 2, "elo_hi"));
    let games: f64 = cell(&csv, 1, "games").parse().unwrap();
    for (text, col, line) in [
        (with_cell(&csv, 2, "rank", "-1"), "rank", 3),
        (
            with_cell(&with_cell(&csv, 2, "elo_lo", &hi), 2, "elo_hi", &lo),
            "elo_lo",
            3,
        ),
        (with_cell(&csv, 1, "score", "7"), "score", 2),
        (with_cell(&csv, 1, "agent", "nobody"), "agent", 2),
        (
            with_cell(&csv, 1, "games", &(games + 2.0).to_string()),
            "games",
            2,
        ),
        (with_cell(&csv, 3, "elo", "NaN"), "elo", 4),
    ] {
        let line = format!("line {line}");
        damaged(
            "ladder.csv",
            &text,
            &[&report, &tiers],
            &["ladder.csv", col, &line],
        );
    }
    // A row of another config.
    damaged(
        "ladder.csv",
        &with_cell(&csv, 1, "config_hash", "0123456789abcdef"),
        &[&report, &tiers],
        &["ladder.csv", "config_hash", "line 2"],
    );
    // A row missing.
    let short: String = csv.lines().take(3).map(|l| format!("{l}\n")).collect();
    damaged("ladder.csv", &short, &[&report, &tiers], &["ladder.csv"]);
    let games_csv = read_text(&lad.join("ladder_games.csv"));
    let lines: Vec<&str> = games_csv.lines().collect();
    let swapped = [&[lines[0], lines[2], lines[1]], &lines[3..]]
        .concat()
        .join("\n")
        + "\n";
    for (text, col, line) in [
        (with_cell(&games_csv, 2, "seed", "17"), "seed", 3),
        (with_cell(&games_csv, 1, "score_a", "0.7"), "score_a", 2),
        (swapped, "round", 3),
    ] {
        let line = format!("line {line}");
        damaged(
            "ladder_games.csv",
            &text,
            &[&report, &tiers],
            &["ladder_games.csv", col, &line],
        );
    }
    let style = read_text(&lad.join("ladder_style.csv"));
    let flipped = if cell(&style, 1, "in_cell") == "true" {
        "false"
    } else {
        "true"
    };
    for (text, col) in [
        (with_cell(&style, 1, "win_rate", "7"), "win_rate"),
        (with_cell(&style, 1, "in_cell", flipped), "in_cell"),
        (with_cell(&style, 1, "agent", "sa0"), "agent"),
    ] {
        damaged(
            "ladder_style.csv",
            &text,
            &[&cell_tiers],
            &["ladder_style.csv", col, "line 2"],
        );
    }
    // Restored, every reader takes the ladder again.
    succeeded(playstyles(&report), "report with the ladder restored");
}

#[test]
fn a_round_lists_no_more_games_than_the_budget_leaves() {
    // A tiny target and a large batch: the schedule wants about 10⁹ games of each adjacent
    // pair, of which the budget leaves 100.
    let dir = scratch("ladder", "tiny-target");
    let config = write_config(
        &dir,
        "tiny.toml",
        &(QUICK
            .replace("target = 100.0", "target = 0.001\nbatch = 1000")
            .replace("max_games = 60", "max_games = 100")
            + FOURTH),
    );
    let lad = dir.join("lad");
    let o = playstyles_within(
        &["ladder", &config, "--out", path_arg(&lad), "--quiet"],
        Duration::from_secs(60),
    );
    let out = succeeded(o, "ladder of a tiny target");
    assert!(out.contains("stopped at max_games = 100"), "{out}");
    assert_eq!(
        read_text(&lad.join("ladder_games.csv")).lines().count(),
        101
    );
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
    let (run, config) = dial_ladder(&dir, "style_repetitions = 100000");
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
    // 6 settings × 100,000 fit, but not at the run's 2 training levels.
    let run_config = read_text(&run.join("config.toml"));
    std::fs::write(
        run.join("config.toml"),
        run_config.replace("levels = [\"4p\"]", "levels = [\"4p\", \"5p\"]"),
    )
    .unwrap();
    let six = write_config(
        &dir,
        "six.toml",
        &text.replace("values = [2, 8]", "values = [1, 2, 3, 4, 5, 6]"),
    );
    within(
        &six,
        "style_repetitions",
        &["12 training levels", "1200000 games"],
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
fn a_finished_ladder_resumed_writes_nothing_and_force_replaces_only_its_own_files() {
    let dir = scratch("ladder", "owned");
    let config = write_config(&dir, "quick.toml", QUICK);
    let lad = dir.join("lad");
    let ladder = |extra: &str, out: &Path| {
        let mut args = vec!["ladder", &config, "--out", path_arg(out), "--quiet"];
        if !extra.is_empty() {
            args.push(extra);
        }
        playstyles(&args)
    };
    succeeded(ladder("", &lad), "ladder");
    let before = stamps(&lad);
    let out = succeeded(ladder("--resume", &lad), "finished ladder resumed");
    assert!(out.contains("nothing to do"), "{out}");
    assert_eq!(stamps(&lad), before, "nothing written");
    // Files of others in the folder survive --force.
    std::fs::write(lad.join("notes.txt"), "mine").unwrap();
    std::fs::create_dir_all(lad.join("mine")).unwrap();
    std::fs::write(lad.join("mine/x.csv"), "a,b\n").unwrap();
    succeeded(ladder("--force", &lad), "ladder played afresh");
    assert_eq!(read_text(&lad.join("notes.txt")), "mine");
    assert_eq!(read_text(&lad.join("mine/x.csv")), "a,b\n");
    // A run directory is not a ladder's folder: --force deletes nothing there.
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    for f in ["archive.csv", "config.toml", "progress.csv"] {
        std::fs::copy(
            Path::new("results/puerto-rico-personas-floor").join(f),
            run.join(f),
        )
        .unwrap();
    }
    let before = files_in(&run);
    let o = ladder("--force", &run);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`out`") && err.contains("not a ladder's folder"),
        "{err}"
    );
    assert_eq!(files_in(&run), before);
}

/// The number of levels of `set` for game `game`: the game's built-in ones for `"paper"`.
fn level_count(set: &LevelSet, game: &str) -> u64 {
    (match set {
        LevelSet::List(levels) => levels.len(),
        LevelSet::Paper => match game {
            "tribes" => TribesGame::builtin_levels().len(),
            "prismata" => PrismataGame::builtin_levels().len(),
            "puerto-rico" => PuertoRicoGame::builtin_levels().len(),
            other => panic!("unknown game {other}"),
        },
    }) as u64
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
        let cfg = LadderConfig::load(&path, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_style_games(&cfg.spec, |run| {
            let c = playstyles::experiments::run_dir::read_config(Path::new(run))?;
            Ok(level_count(&c.levels, c.game.name()))
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += 1;
    }
    assert!(checked >= 30, "{checked} ladder configs");
}

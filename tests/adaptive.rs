//! Adaptive sampling (`[map_elites.adaptive]`) through the binary on a small Puerto Rico run:
//! genomes play more rounds while their place is uncertain; the run is the same on 1 and 2
//! threads, resumed after every batch, and taken through ask / work / tell; malformed
//! settings exit 2 naming the field. A config without the table breeds with the default
//! settings (placement and a fair-share strength floor); `adaptive = false` turns them off.

use std::path::{Path, PathBuf};

use playstyles::qd::FeatureAxis;

use crate::support::cli::{path_arg, playstyles, read_text, scratch, stderr, succeeded};
use crate::tasks::assert_same_run;

/// A small Puerto Rico run with adaptive sampling: first rounds of 2 games, rounds of 2 more
/// up to 8, features settled at a standard error of half a cell.
pub const ADAPTIVE: &str = r#"
game = "puerto-rico"
seed = 3
batch_size = 4

[evaluation]
levels = ["4p"]
repetitions = 8
player = "sa0"
baseline = "sa0"

[[features]]
name = "shipping_pct"
min = 20
max = 100
step = 10

[[features]]
name = "builder_pct"
min = 0
max = 80
step = 10

[map_elites]
one_hot = false
random_init = 8
iterations = 12

[map_elites.adaptive]
first_repetitions = 2
step_repetitions = 2
max_repetitions = 8
se_fraction = 0.5
"#;

fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("adaptive.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn evolve(cfg: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", path_arg(cfg), "--out", path_arg(out), "--quiet"];
    args.extend_from_slice(extra);
    succeeded(playstyles(&args), "evolve")
}

/// The values of column `name` of `archive.csv` in `run`.
fn column(run: &Path, name: &str) -> Vec<String> {
    let text = read_text(&run.join("archive.csv"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines
        .map(|l| l.split(',').nth(i).unwrap().to_string())
        .collect()
}

#[test]
fn uncertain_genomes_play_more_and_the_run_is_the_same_on_any_thread_count_and_resumed() {
    let dir = scratch("adaptive", "determinism");
    let cfg = config(&dir, ADAPTIVE);
    let (one, two, stopped) = (dir.join("one"), dir.join("two"), dir.join("stopped"));
    let out = evolve(&cfg, &one, &["--threads", "1"]);
    assert!(out.contains("done, 20 evaluations"), "{out}");
    evolve(&cfg, &two, &["--threads", "2"]);
    assert_same_run(&one, &two);

    // Elites carry their confidence; some played beyond the first round, none beyond the
    // maximum, and the run spent fewer games than 8 per genome but more than 2.
    let reps: Vec<f64> = column(&one, "extra_repetitions")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(!reps.is_empty());
    assert!(reps.iter().all(|&r| (2.0..=8.0).contains(&r)), "{reps:?}");
    assert!(reps.iter().any(|&r| r > 2.0), "{reps:?}");
    let games: Vec<u32> = column(&one, "games")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(
        games,
        reps.iter().map(|&r| r as u32).collect::<Vec<_>>(),
        "one level: games = repetitions"
    );
    for c in [
        "extra_se_shipping_pct",
        "extra_win_rate_lo",
        "extra_settled",
    ] {
        assert_eq!(column(&one, c).len(), reps.len(), "{c}");
    }
    let progress = read_text(&one.join("progress.csv"));
    let last: Vec<&str> = progress.lines().last().unwrap().split(',').collect();
    let spent: u64 = last[2].parse().unwrap();
    assert!((2 * 20 + 1..8 * 20).contains(&spent), "{spent} games");

    // Stopped after every batch and resumed, alternating thread counts.
    let batches = progress.lines().count() - 1;
    for b in 0..batches {
        let threads = if b % 2 == 0 { "1" } else { "2" };
        let mut args = vec!["--threads", threads, "--stop-after-batches", "1"];
        if b > 0 {
            args.push("--resume");
        }
        evolve(&cfg, &stopped, &args);
    }
    evolve(&cfg, &stopped, &["--resume"]);
    assert_same_run(&one, &stopped);
}

#[test]
fn with_placement_z_and_min_win_rate_every_elite_is_placed_and_wins_on_any_thread_count() {
    let dir = scratch("adaptive", "placement");
    let text = ADAPTIVE.replace(
        "se_fraction = 0.5",
        "se_fraction = 0.5\nplacement_z = 1.0\nmin_win_rate = 0.05",
    );
    let cfg = config(&dir, &text);
    let (one, two) = (dir.join("one"), dir.join("two"));
    evolve(&cfg, &one, &["--threads", "1"]);
    evolve(&cfg, &two, &["--threads", "2"]);
    assert_same_run(&one, &two);
    assert!(read_text(&one.join("config.toml")).contains("placement_z = 1.0"));
    let num =
        |c: &str| -> Vec<f64> { column(&one, c).iter().map(|s| s.parse().unwrap()).collect() };
    let axes = [("shipping_pct", 20.0, 100.0), ("builder_pct", 0.0, 80.0)];
    let mut elites = 0;
    for (f, min, max) in axes {
        let axis = FeatureAxis::bucket(f, min, max, 10.0).unwrap();
        let cell_of = |x: f64| axis.index_of(x) as f64;
        let (means, ses, cells) = (
            num(&format!("{f}_mean")),
            num(&format!("extra_se_{f}")),
            num(&format!("cell_{f}")),
        );
        elites = means.len();
        for ((m, se), cell) in means.iter().zip(&ses).zip(&cells) {
            let (lo, hi) = (cell_of(m - se), cell_of(m + se));
            assert_eq!((lo, hi), (*cell, *cell), "{f}: {m} ± {se}");
        }
    }
    assert!(elites > 0, "some genome was placed");
    assert!(
        num("extra_win_rate_lo").iter().all(|&lo| lo >= 0.05),
        "{:?}",
        num("extra_win_rate_lo")
    );
    assert!(read_text(&one.join("config.toml")).contains("min_win_rate = 0.05"));
}

#[test]
fn an_adaptive_run_through_ask_work_and_tell_is_byte_identical_to_evolve() {
    let dir = scratch("adaptive", "tasks");
    let cfg = config(&dir, ADAPTIVE);
    let (reference, run) = (dir.join("evolved"), dir.join("run"));
    evolve(&cfg, &reference, &[]);
    let mut rounds_seen = false;
    loop {
        let o = playstyles(&["ask", path_arg(&run), "--config", path_arg(&cfg)]);
        if o.status.code() == Some(3) {
            break;
        }
        let tasks = PathBuf::from(succeeded(o, "ask").trim_end());
        // A further round plays repetitions beyond the first round's two: game index ≥ 2.
        rounds_seen |= read_text(&tasks)
            .lines()
            .any(|l| !l.contains(r#""game":0,"#) && !l.contains(r#""game":1,"#));
        for shard in ["1/2", "0/2"] {
            succeeded(
                playstyles(&["work", path_arg(&tasks), "--shard", shard]),
                "work",
            );
        }
        succeeded(playstyles(&["tell", path_arg(&run)]), "tell");
    }
    assert!(rounds_seen, "some batch held a further round");
    assert_same_run(&reference, &run);
}

#[test]
fn malformed_adaptive_settings_exit_2_naming_the_field() {
    let dir = scratch("adaptive", "malformed");
    let cases = [
        (
            "first_repetitions = 2",
            "first_repetitions = 9",
            "max_repetitions",
        ),
        (
            "first_repetitions = 2",
            "first_repetitions = 0",
            "first_repetitions",
        ),
        (
            "step_repetitions = 2",
            "step_repetitions = 0",
            "step_repetitions",
        ),
        ("se_fraction = 0.5", "se_fraction = 0", "se_fraction"),
        ("se_fraction = 0.5", "se_fraction = -1", "se_fraction"),
        ("se_fraction = 0.5", "se_fraction = 0.5\nfoo = 1", "foo"),
        (
            "se_fraction = 0.5",
            "se_fraction = 0.5\nplacement_z = -1",
            "placement_z",
        ),
        (
            "se_fraction = 0.5",
            "se_fraction = 0.5\nmin_win_rate = 2",
            "min_win_rate",
        ),
        (
            "max_repetitions = 8",
            "max_repetitions = \"8\"",
            "max_repetitions",
        ),
    ];
    for (from, to, field) in cases {
        let cfg = config(&dir, &ADAPTIVE.replace(from, to));
        let o = playstyles(&["evolve", path_arg(&cfg), "--out", path_arg(&dir.join("x"))]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{to}: {err}");
        let named = format!("map_elites.adaptive.{field}");
        assert!(err.contains(&named), "{to}: {err}");
    }
}

/// [`ADAPTIVE`] without its `[map_elites.adaptive]` table (the defaults), the player against
/// random baselines so that some genomes clear the default strength floor.
fn defaults() -> String {
    let text = ADAPTIVE.replace("baseline = \"sa0\"", "baseline = \"random\"");
    text[..text.find("[map_elites.adaptive]").unwrap()].to_string()
}

#[test]
fn a_config_without_adaptive_settings_breeds_noise_aware_and_adaptive_false_turns_it_off() {
    let dir = scratch("adaptive", "defaults");
    let cfg = config(&dir, &defaults());
    let (one, two, run) = (dir.join("one"), dir.join("two"), dir.join("run"));
    evolve(&cfg, &one, &["--threads", "1"]);
    evolve(&cfg, &two, &["--threads", "2"]);
    assert_same_run(&one, &two);
    // The defaults written out: a first round of 2 of the 8 games, a fair share of a
    // four-player level (0.25) at one sigma, placement at half a standard error.
    let resolved = read_text(&one.join("config.toml"));
    for line in [
        "[map_elites.adaptive]",
        "first_repetitions = 2",
        "max_repetitions = 8",
        "placement_z = 0.5",
        "min_win_rate = 0.25",
        "floor_z = 1.0",
    ] {
        assert!(resolved.lines().any(|l| l == line), "{line} in\n{resolved}");
    }
    let lo: Vec<f64> = column(&one, "extra_win_rate_lo")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(!lo.is_empty(), "some genome cleared the floor");
    // The archive's interval is the duels' (95 %); the floor's, at one sigma, is narrower.
    let (wins, games) = (column(&one, "wins"), column(&one, "games"));
    for (w, g) in wins.iter().zip(&games) {
        let (w, g): (f64, f64) = (w.parse().unwrap(), g.parse().unwrap());
        let p = w / g;
        let lo1 = (p + 1.0 / (2.0 * g) - (p * (1.0 - p) / g + 1.0 / (4.0 * g * g)).sqrt())
            / (1.0 + 1.0 / g);
        assert!(lo1 >= 0.25 - 1e-12, "{w} of {g} won");
    }
    // Through ask / work / tell: the same run.
    loop {
        let o = playstyles(&["ask", path_arg(&run), "--config", path_arg(&cfg)]);
        if o.status.code() == Some(3) {
            break;
        }
        let tasks = PathBuf::from(succeeded(o, "ask").trim_end());
        succeeded(playstyles(&["work", path_arg(&tasks)]), "work");
        succeeded(playstyles(&["tell", path_arg(&run)]), "tell");
    }
    assert_same_run(&one, &run);

    // `adaptive = false`: every genome plays its 8 games at once.
    let off = config(
        &dir,
        &defaults().replace("[map_elites]", "[map_elites]\nadaptive = false"),
    );
    let plain = dir.join("plain");
    evolve(&off, &plain, &[]);
    assert!(read_text(&plain.join("config.toml")).contains("adaptive = false"));
    assert!(column(&plain, "games").iter().all(|g| g == "8"));
}

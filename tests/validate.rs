//! `plot`, `validate`, `reevaluate`, `tiers` and `report` on a small synthetic run directory: a resolved
//! `config.toml` with tiny budgets (`pmcts(budget=10)` against `mcts(budget=10)`, one training
//! level), an `archive.csv` of five hand-placed elites and a `progress.csv`.

use std::path::{Path, PathBuf};

use playstyles::agent::AgentSpec;
use playstyles::agents::build_agent_from;
use playstyles::experiments::reevaluate::{
    REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV, REEVALUATION_JOURNAL, reevaluated_columns,
    summary_columns as reevaluated_summary_columns,
};
use playstyles::experiments::run_config::RunConfig;
use playstyles::experiments::run_dir::RunDir;
use playstyles::experiments::tiers::{Source, TIERS_TOML, TiersFile};
use playstyles::experiments::tournament_spec::TournamentSpec;
use playstyles::experiments::validate::{
    LevelChoice, LevelRef, SUMMARY_COLUMNS, VALIDATION_COLUMNS, VALIDATION_CSV, VALIDATION_JOURNAL,
    VALIDATION_SUMMARY_CSV, corner_cells, level_refs,
};
use playstyles::games::tribes::{TribesGame, builtin};
use playstyles::kit::GameKit;
use playstyles::qd::{BatchReport, Evaluation, FeatureAxis, Genome, GenomeSpace, GridArchive};
use playstyles::report::archive::{
    ARCHIVE_CSV, ArchiveTable, PROGRESS_CSV, read_archive_csv, write_archive_csv,
    write_progress_csv,
};

use crate::support::cli::{path_arg, playstyles, read_text as read, scratch};

/// The one training level of the synthetic run.
const TRAINING: &str = "1590557911279";
/// The level the tests validate on.
const VALIDATION_LEVEL: &str = "1590791907337";

/// The run config before `evolve` resolves it: 2 × 2 weights, a 4 × 5 grid
/// (attacks ≤0, 1–2, 3, ≥4 × support balance ≤−2, −1, 0, 1, ≥2).
const CONFIG: &str = r#"
seed = 7
batch_size = 2
[evaluation]
levels = [1590557911279]
repetitions = 2
player = "pmcts(budget=10)"
baseline = "mcts(budget=10)"
[genome]
scripts = ["spawn.defensive", "research.naval"]
[[features]]
name = "attacks"
min = 0
max = 4
step = 2
[[features]]
name = "support_balance"
min = -2
max = 2
step = 1
[map_elites]
adaptive = false
random_init = 0
iterations = 0
"#;

/// The synthetic elites: (attacks, support balance, win rate, weights). Their cells are
/// 0 = (0, 0), 4 = (0, 4), 7 = (1, 2), 15 = (3, 0) and 19 = (3, 4).
const ELITES: [(f64, f64, f64, [f64; 2]); 5] = [
    (0.0, -2.0, 0.1, [0.0, 1.0]),
    (0.0, 2.0, 0.9, [1.0, 0.0]),
    (2.0, 0.0, 0.7, [0.5, 0.5]),
    (4.0, -2.0, 0.5, [0.25, 0.75]),
    (4.0, 2.0, 0.3, [0.75, 0.25]),
];

/// Writes the synthetic run directory `name` (as `evolve` would leave it) and returns it.
fn synthetic_run(name: &str) -> PathBuf {
    let dir = scratch("validate", name);
    let config = RunConfig::parse(CONFIG, "synthetic").unwrap();
    let scripts: Vec<String> = config.scripts.clone().unwrap();
    let resolved = config
        .resolved_toml(&[TRAINING.to_string()], &scripts)
        .unwrap();
    std::fs::write(dir.join("config.toml"), resolved).unwrap();

    let axes = config.features.clone();
    let mut archive = GridArchive::new(axes, config.replacement).unwrap();
    for (a, b, win_rate, weights) in ELITES {
        let evaluation = Evaluation {
            fitness: win_rate,
            tie_break: 5000.0,
            games: 20,
            wins: (win_rate * 20.0).round() as u32,
            draws: 0,
            descriptor_means: vec![a, b],
            descriptor_spreads: vec![0.5, 1.0],
            descriptor_counts: Vec::new(),
            extra: Default::default(),
        };
        archive
            .add(Genome::new(weights.to_vec()), evaluation)
            .unwrap();
    }
    let space = GenomeSpace::new(scripts, config.domain.clone()).unwrap();
    let table = ArchiveTable::from_archive(&archive, &space);
    write_archive_csv(&dir.join(ARCHIVE_CSV), &table).unwrap();

    let report = |batch: u64, elites: usize, best: Option<f64>| BatchReport {
        batch,
        evaluations: 2 * (batch + 1),
        games: 8 * (batch + 1),
        elites,
        coverage: elites as f64 / 20.0,
        qd_score: 0.0,
        max_fitness: best,
        mean_fitness: best.map(|b| b / 2.0),
        seconds: 0.5,
    };
    let reports = [
        report(0, 0, None),
        report(1, 2, Some(0.5)),
        report(2, 5, Some(0.9)),
    ];
    write_progress_csv(&dir.join(PROGRESS_CSV), &reports).unwrap();
    dir
}

/// A copy of the run directory `from` named `name`.
fn copy_run(from: &Path, name: &str) -> PathBuf {
    let dir = scratch("validate", name);
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The arguments of `validate DIR` on [`VALIDATION_LEVEL`] with `repetitions` games per elite,
/// the elites `cells`, no progress bar, then `extra`.
fn validate_args<'a>(
    dir: &'a Path,
    repetitions: &'a str,
    cells: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "validate",
        path_arg(dir),
        "--levels",
        VALIDATION_LEVEL,
        "--repetitions",
        repetitions,
        "--cells",
        cells,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

/// Runs the binary and asserts success.
fn ok(args: &[&str]) -> String {
    let o = playstyles(args);
    assert!(
        o.status.success(),
        "{args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs the binary, asserts exit code 2 and returns standard error.
fn fails(args: &[&str]) -> String {
    let o = playstyles(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?} did not fail with code 2"
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The rows of a CSV file without quoted fields, header first.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    read(path)
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn is_png(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"\x89PNG\r\n\x1a\n"))
}

#[test]
fn plot_redraws_the_heatmaps_and_the_progress_chart() {
    let dir = synthetic_run("plot");
    let out = ok(&["plot", path_arg(&dir)]);
    assert!(is_png(&dir.join("heatmap.png")), "{out}");
    assert!(is_png(&dir.join("progress.png")), "{out}");
    assert!(read(&dir.join("heatmap.svg")).contains("<svg"));
    assert!(out.contains("progress.png"), "{out}");
}

#[test]
fn plot_names_a_missing_or_malformed_progress_csv_and_its_line() {
    let dir = synthetic_run("plot-bad");
    std::fs::remove_file(dir.join(PROGRESS_CSV)).unwrap();
    let err = fails(&["plot", path_arg(&dir)]);
    assert!(err.contains("progress.csv"), "{err}");
    let text = "batch,evaluations,games,elites,coverage,qd_score,max_fitness,mean_fitness,seconds\n\
                0,2,8,1,0.05,0.5,0.5,0.5,1\n\
                1,x,8,1,0.05,0.5,0.5,0.5,1\n";
    std::fs::write(dir.join(PROGRESS_CSV), text).unwrap();
    let err = fails(&["plot", path_arg(&dir)]);
    assert!(
        err.contains("progress.csv") && err.contains("line: 3"),
        "{err}"
    );
    std::fs::write(dir.join(ARCHIVE_CSV), "cell,nonsense\n").unwrap();
    let err = fails(&["plot", path_arg(&dir)]);
    assert!(err.contains("archive.csv"), "{err}");
}

#[test]
fn validate_writes_both_tables_identically_with_one_and_two_threads() {
    let one = synthetic_run("threads-1");
    let two = copy_run(&one, "threads-2");
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        let out = ok(&validate_args(dir, "2", "all", &["--threads", threads]));
        assert!(out.contains("validating 5 elites"), "{out}");
        assert!(out.contains("all_axes"), "{out}");
    }
    for file in [VALIDATION_CSV, VALIDATION_SUMMARY_CSV] {
        assert_eq!(read(&one.join(file)), read(&two.join(file)), "{file}");
    }

    // validation.csv: one row per elite and feature, cells in order, features in axis order.
    let rows = csv_rows(&one.join(VALIDATION_CSV));
    assert_eq!(rows[0], VALIDATION_COLUMNS);
    assert_eq!(rows.len(), 1 + 5 * 2);
    let cells: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        cells,
        ["0", "0", "4", "4", "7", "7", "15", "15", "19", "19"]
    );
    let run = RunDir::load(&one).unwrap();
    for (i, r) in rows[1..].iter().enumerate() {
        let k = i % 2;
        let axis = &run.config.features[k];
        assert_eq!(r[1], axis.name);
        let elite = run.row(r[0].parse().unwrap()).unwrap();
        assert_eq!(r[2].parse::<f64>().unwrap(), elite.means[k]);
        assert_eq!(r[6].parse::<f64>().unwrap(), elite.win_rate);
        assert_eq!((r[8].as_str(), r[9].as_str()), ("20", "2"));
        // stays_in_cell: the validation mean falls in the elite's bucket on that axis.
        let val_mean: f64 = r[4].parse().unwrap();
        let stays = axis.index_of(val_mean) == elite.coords[k];
        assert_eq!(r[10], stays.to_string(), "{r:?}");
    }

    // validation_summary.csv: one row per feature, then win_rate, then all_axes.
    let summary = csv_rows(&one.join(VALIDATION_SUMMARY_CSV));
    assert_eq!(summary[0], SUMMARY_COLUMNS);
    let names: Vec<&str> = summary[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        ["attacks", "support_balance", "win_rate", "all_axes"]
    );
    assert!(summary[1..].iter().all(|r| r[1] == "5"));
    assert_eq!(summary[3][5], "", "win_rate has no cell share");
    assert_eq!(summary[4][4], "", "all_axes has no correlation");
    let both = rows[1..]
        .chunks(2)
        .filter(|c| c.iter().all(|r| r[10] == "true"))
        .count();
    assert_eq!(summary[4][5].parse::<f64>().unwrap(), both as f64 / 5.0);
    assert_eq!(
        summary[3][2].parse::<f64>().unwrap(),
        0.5,
        "mean map win rate"
    );
    // The features' true spread on the validation levels, from the elites' validation means
    // and standard errors (each game counts every feature: se = population sd / √(games − 1)).
    let features = &run.config.features;
    for (k, axis) in features.iter().enumerate() {
        let pairs = rows[1..].iter().skip(k).step_by(features.len()).map(|r| {
            let (m, sd, n): (f64, f64, f64) = (
                r[4].parse().unwrap(),
                r[5].parse().unwrap(),
                r[9].parse().unwrap(),
            );
            (m, sd / (n - 1.0).sqrt())
        });
        let expected = playstyles::stats::true_spread(pairs).unwrap();
        let got = |c: usize| summary[1 + k][c].parse::<f64>().unwrap();
        assert!(
            (got(6) - expected.true_sd).abs() < 1e-9,
            "{:?}",
            summary[1 + k]
        );
        assert!((got(7) - expected.true_sd / axis.cell_width()).abs() < 1e-9);
        match expected.reliability {
            Some(r) => assert!((got(8) - r).abs() < 1e-9),
            None => assert_eq!(summary[1 + k][8], ""),
        }
    }
    for r in &summary[3..] {
        assert_eq!(r[6..9], ["", "", ""], "{} has no spread", r[0]);
    }
}

#[test]
fn corners_pick_the_occupied_cells_nearest_to_each_corner() {
    let axis = |name: &str, cells: usize| FeatureAxis::bins(name, 0.0, 1.0, cells).unwrap();
    let replacement = playstyles::qd::Replacement::Paper;
    let grid = GridArchive::new(vec![axis("a", 4), axis("b", 5)], replacement).unwrap();
    let cell = |a: usize, b: usize| grid.grid_to_index(&[a, b]).unwrap();
    // Corner (0,0): (0,1) and (1,0) tie at distance 1, the lower cell index wins; corner
    // (0,4): (0,3); corner (3,0): (1,0) at squared distance 4 beats (2,2) at 5; corner (3,4):
    // (3,3).
    let occupied = [cell(0, 1), cell(1, 0), cell(0, 3), cell(3, 3), cell(2, 2)];
    let mut expected = vec![cell(0, 1), cell(0, 3), cell(1, 0), cell(3, 3)];
    expected.sort();
    assert_eq!(corner_cells(&grid, &occupied), expected);
    // Corners that share their nearest elite give it once.
    assert_eq!(corner_cells(&grid, &[cell(2, 2)]), [cell(2, 2)]);
    assert!(corner_cells(&grid, &[]).is_empty());

    let line = GridArchive::new(vec![axis("a", 6)], replacement).unwrap();
    assert_eq!(corner_cells(&line, &[1, 2, 3, 4]), [1, 4]);

    let cube =
        GridArchive::new(vec![axis("a", 3), axis("b", 3), axis("c", 3)], replacement).unwrap();
    let all: Vec<usize> = (0..27).collect();
    let corners: Vec<usize> = [0, 2, 6, 8, 18, 20, 24, 26].to_vec();
    assert_eq!(corner_cells(&cube, &all), corners);

    // The synthetic run's elites sit in the four corners plus the middle cell 7.
    let dir = synthetic_run("corners");
    let run = RunDir::load(&dir).unwrap();
    let occupied: Vec<usize> = run.archive.rows.iter().map(|r| r.cell).collect();
    assert_eq!(corner_cells(&run.grid, &occupied), [0, 4, 15, 19]);
}

#[test]
fn held_out_levels_are_the_built_in_levels_minus_the_training_ones() {
    let dir = synthetic_run("held-out");
    let run = RunDir::load(&dir).unwrap();
    let refs = level_refs(
        &LevelChoice::HeldOut,
        &run.config.levels,
        &TribesGame::builtin_levels(),
        run.config.seed,
    )
    .unwrap();
    assert_eq!(refs.len(), builtin::SEEDS.len() - 1);
    assert!(!refs.contains(&LevelRef::Load(TRAINING.into())));
    let paper = level_refs(
        &LevelChoice::Paper,
        &run.config.levels,
        &TribesGame::builtin_levels(),
        run.config.seed,
    )
    .unwrap();
    assert_eq!(paper.len(), 25);
    assert!(paper.contains(&LevelRef::Load(TRAINING.into())));
}

#[test]
fn validate_plays_generated_levels() {
    let dir = synthetic_run("generated");
    let out = ok(&[
        "validate",
        path_arg(&dir),
        "--levels",
        "generated:3",
        "--repetitions",
        "1",
        "--cells",
        "7",
        "--quiet",
    ]);
    assert!(
        out.contains("3 levels") && out.contains("generated:"),
        "{out}"
    );
    let rows = csv_rows(&dir.join(VALIDATION_CSV));
    assert_eq!(rows.len(), 1 + 2);
    assert!(
        rows[1..].iter().all(|r| r[0] == "7" && r[9] == "3"),
        "{rows:?}"
    );
}

#[test]
fn bad_flags_and_missing_files_name_the_flag_or_file() {
    let dir = synthetic_run("errors");
    let run = path_arg(&dir);
    let err = fails(&["validate", run, "--cells", "3", "--quiet"]);
    assert!(err.contains("--cells") && err.contains("cell 3"), "{err}");
    for (command, flag, value) in [
        ("validate", "--cells", "999"),
        ("validate", "--cells", "1,x"),
        ("validate", "--cells", ""),
        ("validate", "--levels", "heldout"),
        ("validate", "--levels", "generated:0"),
        ("validate", "--repetitions", "0"),
        ("tiers", "--count", "6"),
    ] {
        let mut args = vec![command, run, flag, value];
        if value == "999" {
            args.push("--quiet");
        }
        let err = fails(&args);
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    assert!(!dir.join(VALIDATION_CSV).exists());

    let missing = dir.join("no-such-run");
    for cmd in ["validate", "tiers", "plot"] {
        let err = fails(&[cmd, path_arg(&missing)]);
        assert!(err.contains("no-such-run"), "{cmd}: {err}");
    }
    std::fs::remove_file(dir.join(ARCHIVE_CSV)).unwrap();
    for cmd in ["validate", "tiers", "plot"] {
        let err = fails(&[cmd, run]);
        assert!(err.contains("archive.csv"), "{cmd}: {err}");
    }
    std::fs::remove_file(dir.join("config.toml")).unwrap();
    let err = fails(&["validate", run]);
    assert!(err.contains("config.toml"), "{err}");
}

#[test]
fn tiers_spread_from_weakest_to_strongest_and_their_agents_play() {
    let dir = synthetic_run("tiers");
    let out = ok(&["tiers", path_arg(&dir), "--count", "3"]);
    assert!(out.contains("archived"), "{out}");
    let file: TiersFile = toml::from_str(&read(&dir.join(TIERS_TOML))).unwrap();
    let picked: Vec<(usize, f64)> = file.tier.iter().map(|t| (t.cell, t.win_rate)).collect();
    // Win rates 0.1 (cell 0), 0.3 (19), 0.5 (15), 0.7 (7), 0.9 (4): weakest, median, strongest.
    assert_eq!(picked, [(0, 0.1), (15, 0.5), (4, 0.9)]);
    let names: Vec<&str> = file.tier.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["tier-1", "tier-2", "tier-3"]);
    assert!(file.tier.iter().all(|t| t.source == Source::Archived));
    assert_eq!(
        file.tier[0].agent,
        "pmcts(budget=10,weights=[spawn.defensive=0.0,research.naval=1.0])"
    );

    // The specs go straight into `play --agents` …
    let agents = format!("{},{}", file.tier[0].agent, file.tier[2].agent);
    let played = ok(&[
        "play",
        "--level",
        VALIDATION_LEVEL,
        "--agents",
        &agents,
        "--json",
    ]);
    assert!(played.contains("\"ticks\""), "{played}");
    // … and into a tournament config's `agents` list.
    let config = format!(
        "game = \"tribes\"\nseed = 1\nlevels = [{VALIDATION_LEVEL}]\nrepetitions = 1\n\
         [[pairing]]\nname = \"tiers\"\nagents = [{:?}, {:?}]\n",
        file.tier[0].agent, file.tier[2].agent
    );
    let spec = TournamentSpec::parse(&config).unwrap();
    let game = TribesGame::default();
    for a in &spec.pairings[0].agents {
        build_agent_from(&game, a.clone()).unwrap();
    }
    assert_eq!(
        spec.pairings[0].agents[1],
        AgentSpec::parse(&file.tier[2].agent).unwrap()
    );
}

#[test]
fn tiers_prefer_validated_win_rates() {
    let dir = synthetic_run("tiers-validated");
    ok(&validate_args(&dir, "1", "corners", &[]));
    let out = ok(&["tiers", path_arg(&dir), "--count", "4"]);
    assert!(out.contains("validation.csv"), "{out}");
    let file: TiersFile = toml::from_str(&read(&dir.join(TIERS_TOML))).unwrap();
    assert!(file.tier.iter().all(|t| t.source == Source::Validated));
    let mut cells: Vec<usize> = file.tier.iter().map(|t| t.cell).collect();
    cells.sort();
    assert_eq!(cells, [0, 4, 15, 19], "the four validated corners");
    assert!(file.tier.windows(2).all(|w| w[0].win_rate <= w[1].win_rate));
    // Only the four validated elites count.
    let err = fails(&["tiers", path_arg(&dir), "--count", "5"]);
    assert!(
        err.contains("--count") && err.contains("validated"),
        "{err}"
    );
    // An elite replaced after validation makes validation.csv stale.
    let path = dir.join(ARCHIVE_CSV);
    let mut table = read_archive_csv(&path).unwrap();
    table.rows[0].win_rate = 0.15;
    write_archive_csv(&path, &table).unwrap();
    let err = fails(&["tiers", path_arg(&dir), "--count", "2"]);
    assert!(
        err.contains("validation.csv") && err.contains("line 2") && err.contains("changed"),
        "{err}"
    );
}

#[test]
fn validate_never_overwrites_an_earlier_validation_without_force() {
    let dir = synthetic_run("force");
    let args = validate_args(&dir, "1", "7", &[]);
    ok(&args);
    let first = read(&dir.join(VALIDATION_CSV));
    let err = fails(&args);
    assert!(
        err.contains("run_dir") && err.contains("validation.csv") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(read(&dir.join(VALIDATION_CSV)), first);
    let mut forced = args.to_vec();
    forced.push("--force");
    ok(&forced);
    assert_eq!(read(&dir.join(VALIDATION_CSV)), first);
}

/// `reevaluated.csv` and `reevaluated_summary.csv` of `dir`, header first.
fn reevaluated(dir: &Path) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    (
        csv_rows(&dir.join(REEVALUATED_CSV)),
        csv_rows(&dir.join(REEVALUATED_SUMMARY_CSV)),
    )
}

#[test]
fn reevaluate_is_reproducible_whatever_the_threads_and_writes_consistent_rows() {
    let one = synthetic_run("reevaluate-1");
    let two = copy_run(&one, "reevaluate-2");
    let out = ok(&[
        "reevaluate",
        path_arg(&one),
        "--games",
        "3",
        "--threads",
        "1",
        "--quiet",
    ]);
    assert!(
        out.contains("re-evaluating 5 elites") && out.contains("QD score"),
        "{out}"
    );
    // The run seed (7) is the default seed.
    ok(&[
        "reevaluate",
        path_arg(&two),
        "--games",
        "3",
        "--threads",
        "2",
        "--seed",
        "7",
        "--quiet",
    ]);
    for file in [REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV] {
        assert_eq!(read(&one.join(file)), read(&two.join(file)), "{file}");
    }

    let run = RunDir::load(&one).unwrap();
    let (rows, summary) = reevaluated(&one);
    let features = ["attacks".to_string(), "support_balance".to_string()];
    assert_eq!(rows[0], reevaluated_columns(&features));
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let num = |r: &[String], name: &str| r[col(name)].parse::<f64>().unwrap();
    let cells: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(cells, ["0", "4", "7", "15", "19"]);
    for r in &rows[1..] {
        let elite = run.row(r[0].parse().unwrap()).unwrap();
        assert_eq!(num(r, "map_win_rate"), elite.win_rate);
        assert_eq!(num(r, "map_attacks_mean"), elite.means[0]);
        assert_eq!(num(r, "cell_support_balance"), elite.coords[1] as f64);
        assert_eq!(r[col("new_games")], "3");
        let rate = num(r, "new_win_rate");
        assert_eq!(rate, num(r, "new_wins") / 3.0);
        assert!(num(r, "new_win_rate_lo") <= rate && rate <= num(r, "new_win_rate_hi"));
        let means = [
            num(r, "new_attacks_mean"),
            num(r, "new_support_balance_mean"),
        ];
        let cell = run.grid.index_of(&means).unwrap();
        assert_eq!(r[col("new_cell")], cell.to_string());
        let coords = run.grid.index_to_grid(cell).unwrap();
        assert_eq!(num(r, "new_cell_attacks"), coords[0] as f64);
        assert_eq!(r[col("kept_cell")], (r[0] == cell.to_string()).to_string());
    }
    // The corrected archive: in every new cell, exactly one elite, one with the cell's best
    // new win rate.
    let mut new_cells: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r[col("new_cell")].as_str())
        .collect();
    new_cells.sort();
    new_cells.dedup();
    let mut corrected_qd = 0.0;
    for cell in &new_cells {
        let here: Vec<&Vec<String>> = rows[1..]
            .iter()
            .filter(|r| r[col("new_cell")] == *cell)
            .collect();
        let held: Vec<&&Vec<String>> = here
            .iter()
            .filter(|r| r[col("corrected_elite")] == "true")
            .collect();
        assert_eq!(held.len(), 1, "cell {cell}");
        let best = here
            .iter()
            .map(|r| num(r, "new_win_rate"))
            .fold(0.0, f64::max);
        assert_eq!(num(held[0], "new_win_rate"), best, "cell {cell}");
        corrected_qd += best;
    }

    assert_eq!(summary[0], reevaluated_summary_columns(&features));
    let s = &summary[1];
    let field = |name: &str| s[summary[0].iter().position(|c| c == name).unwrap()].as_str();
    let kept = rows[1..]
        .iter()
        .filter(|r| r[col("kept_cell")] == "true")
        .count();
    assert_eq!(field("elites"), "5");
    assert_eq!(field("kept_cell_elites"), kept.to_string());
    assert_eq!(field("corrected_elites"), new_cells.len().to_string());
    assert_eq!(field("cells"), "20");
    assert_eq!(field("archived_coverage"), "0.25");
    let close = |name: &str, x: f64| {
        let v: f64 = field(name).parse().unwrap();
        assert!((v - x).abs() < 1e-9, "{name}: {v} vs {x}");
    };
    close("archived_qd_score", 0.1 + 0.9 + 0.7 + 0.5 + 0.3);
    close("corrected_qd_score", corrected_qd);
    close("corrected_coverage", new_cells.len() as f64 / 20.0);
    assert_eq!((field("games_per_elite"), field("seed")), ("3", "7"));
    // Each feature's true spread: the elites' new means and standard errors (the table's sd
    // is the population one, so the standard error is sd / sqrt(games - 1)).
    for (k, f) in features.iter().enumerate() {
        let spread = playstyles::stats::true_spread(rows[1..].iter().map(|r| {
            let games = num(r, "new_games");
            (
                num(r, &format!("new_{f}_mean")),
                num(r, &format!("new_{f}_sd")) / (games - 1.0).sqrt(),
            )
        }))
        .unwrap();
        close(&format!("{f}_true_sd"), spread.true_sd);
        let width = run.config.features[k].cell_width();
        close(&format!("{f}_true_sd_cells"), spread.true_sd / width);
        match spread.reliability {
            Some(r) => close(&format!("{f}_reliability"), r),
            None => assert_eq!(field(&format!("{f}_reliability")), ""),
        }
    }

    // An earlier re-evaluation is kept without --force.
    let err = fails(&["reevaluate", path_arg(&one), "--games", "3", "--quiet"]);
    assert!(
        err.contains("run_dir") && err.contains(REEVALUATED_CSV) && err.contains("--force"),
        "{err}"
    );
}

#[test]
fn reevaluate_names_a_missing_or_truncated_archive_csv_and_its_line() {
    let dir = synthetic_run("reevaluate-bad");
    let path = dir.join(ARCHIVE_CSV);
    let whole = read(&path);
    let run = path_arg(&dir);
    let err = fails(&["reevaluate", run, "--games", "0"]);
    assert!(err.contains("--games"), "{err}");

    // The last row cut mid-way, as a killed copy leaves it.
    let cut = &whole[..whole.trim_end().len() - 12];
    std::fs::write(&path, cut).unwrap();
    let err = fails(&["reevaluate", run, "--quiet"]);
    assert!(
        err.contains("archive.csv") && err.contains("line 6") && err.contains("truncated"),
        "{err}"
    );
    // A row in the middle missing its last fields.
    let lines: Vec<&str> = whole.lines().collect();
    let short = lines[2].rsplitn(3, ',').last().unwrap();
    let text = [lines[0], lines[1], short, lines[3]].join("\n");
    std::fs::write(&path, text).unwrap();
    let err = fails(&["reevaluate", run, "--quiet"]);
    assert!(
        err.contains("archive.csv") && err.contains("line 3"),
        "{err}"
    );

    std::fs::remove_file(&path).unwrap();
    let err = fails(&["reevaluate", run, "--quiet"]);
    assert!(err.contains("archive.csv"), "{err}");
    assert!(!dir.join(REEVALUATED_CSV).exists());
}

#[test]
fn validate_and_reevaluate_stopped_then_resumed_write_the_tables_of_an_uninterrupted_run() {
    let whole = synthetic_run("resume-whole");
    let parts = copy_run(&whole, "resume-parts");
    let validate = |dir: &Path, extra: &[&str]| playstyles(&validate_args(dir, "1", "all", extra));
    let reevaluate = |dir: &Path, extra: &[&str]| {
        let mut args = vec!["reevaluate", path_arg(dir), "--games", "1", "--quiet"];
        args.extend_from_slice(extra);
        playstyles(&args)
    };
    for (command, journal, tables) in [
        (
            &validate as &dyn Fn(&Path, &[&str]) -> std::process::Output,
            VALIDATION_JOURNAL,
            [VALIDATION_CSV, VALIDATION_SUMMARY_CSV],
        ),
        (
            &reevaluate,
            REEVALUATION_JOURNAL,
            [REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV],
        ),
    ] {
        assert!(command(&whole, &[]).status.success());
        // Killed after 2 of the 5 elites: the journal holds them and no table is written.
        let o = command(&parts, &["--stop-after-elites", "2"]);
        assert_eq!(o.status.code(), Some(2));
        let journal_path = parts.join(journal);
        let held: serde_json::Value = serde_json::from_str(&read(&journal_path)).unwrap();
        assert_eq!(held["done"].as_array().unwrap().len(), 2, "{journal}");
        assert!(tables.iter().all(|t| !parts.join(t).exists()));
        // Without --resume (or --force) the journal is never thrown away.
        let err = String::from_utf8_lossy(&command(&parts, &[]).stderr).into_owned();
        assert!(err.contains(journal) && err.contains("--resume"), "{err}");
        // One more elite, then the rest: the tables are the uninterrupted run's.
        assert_eq!(
            command(&parts, &["--resume", "--stop-after-elites", "1"])
                .status
                .code(),
            Some(2)
        );
        let o = command(&parts, &["--resume"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("3 of 5 elites already played"),
            "{journal}"
        );
        for t in tables {
            assert_eq!(read(&parts.join(t)), read(&whole.join(t)), "{t}");
        }
        assert!(!journal_path.exists(), "{journal} is deleted at the end");
    }

    // Resuming with other settings is refused, naming the setting.
    let other = copy_run(&whole, "resume-other");
    assert!(
        !validate(&other, &["--force", "--stop-after-elites", "1"])
            .status
            .success()
    );
    let o = playstyles(&validate_args(&other, "2", "all", &["--resume"]));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("--repetitions") && err.contains("1, not 2"),
        "{err}"
    );
}

#[test]
fn report_writes_one_card_per_elite_with_a_replay_and_what_the_run_knows() {
    let dir = synthetic_run("report");
    let run = path_arg(&dir);
    let o = playstyles(&["report", run, "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = read(&dir.join("report.html"));
    assert_eq!(html.matches("class=\"card\"").count(), ELITES.len());
    assert_eq!(html.matches("class=\"replay\"").count(), ELITES.len());
    assert_eq!(html.matches("class=\"hit").count(), ELITES.len());
    // The strongest elite (cell 4, 90 %) is shown first and marked on the map.
    assert!(html.contains("class=\"hit chosen\" data-cell=\"4\""));
    assert!(html.contains("class=\"card\" data-cell=\"4\">"));
    assert!(
        html.contains("spawn.defensive=1.0"),
        "agent specs are on the cards"
    );
    assert!(!html.contains("Validation on held-out levels"));

    // With a validation, a re-evaluation and tiers, the cards show them.
    let ok = |args: &[&str]| {
        let o = playstyles(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    ok(&[
        "validate",
        run,
        "--levels",
        VALIDATION_LEVEL,
        "--repetitions",
        "1",
        "--quiet",
    ]);
    ok(&["reevaluate", run, "--games", "2", "--quiet"]);
    ok(&["tiers", run, "--count", "2"]);
    ok(&["report", run, "--no-replays", "--threads", "1"]);
    let html = read(&dir.join("report.html"));
    assert_eq!(html.matches("class=\"replay\"").count(), 0);
    assert!(html.contains("Validation on held-out levels"));
    assert!(html.contains("Re-evaluation on fresh games"));
    assert!(html.contains("tier-1") && html.contains("tier-2"));
}

#[test]
fn report_pages_are_the_same_whatever_the_thread_count() {
    let one = synthetic_run("report-one");
    let two = copy_run(&one, "report-two");
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        let o = playstyles(&["report", path_arg(dir), "--threads", threads]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(
        read(&one.join("report.html")),
        read(&two.join("report.html"))
    );
}

#[test]
fn report_names_a_missing_or_truncated_archive_csv_and_its_line() {
    let dir = synthetic_run("report-bad");
    let path = dir.join(ARCHIVE_CSV);
    let whole = read(&path);
    let run = path_arg(&dir);
    let cut = &whole[..whole.trim_end().len() - 12];
    std::fs::write(&path, cut).unwrap();
    let err = fails(&["report", run]);
    assert!(
        err.contains("archive.csv") && err.contains("line 6") && err.contains("truncated"),
        "{err}"
    );
    std::fs::remove_file(&path).unwrap();
    let err = fails(&["report", run]);
    assert!(err.contains("archive.csv"), "{err}");
    assert!(!dir.join("report.html").exists());
    let err = fails(&["report", path_arg(&dir.join("nowhere"))]);
    assert!(err.contains("nowhere"), "{err}");
}

/// `path` with the field `column` of data row `row` (0-based, after the header) set to
/// `value` (the file has no quoted fields).
fn set_field(path: &Path, row: usize, column: &str, value: &str) {
    let mut rows = csv_rows(path);
    let at = rows[0].iter().position(|c| c == column).unwrap();
    rows[row + 1][at] = value.to_string();
    let text: String = rows.iter().map(|r| r.join(",") + "\n").collect();
    std::fs::write(path, text).unwrap();
}

#[test]
fn damaged_numbers_in_the_tables_a_command_reads_are_errors_naming_file_and_line() {
    let run = synthetic_run("damaged");
    let dir = path_arg(&run);
    let archive = run.join(ARCHIVE_CSV);
    let whole = read(&archive);
    let commands: [&[&str]; 5] = [
        &["plot", dir],
        &["report", dir],
        &["tiers", dir, "--count", "2"],
        &[
            "validate",
            dir,
            "--levels",
            VALIDATION_LEVEL,
            "--repetitions",
            "1",
        ],
        &["reevaluate", dir, "--games", "1"],
    ];
    for (value, why) in [
        ("NaN", "`win_rate` is NaN, not a rate in [0, 1]"),
        ("-0.5", "`win_rate` is -0.5, not a rate in [0, 1]"),
    ] {
        set_field(&archive, 1, "win_rate", value);
        for args in commands {
            let err = fails(args);
            assert!(
                err.contains("archive.csv: line 3: ") && err.contains(why),
                "{args:?}: {err}"
            );
        }
        std::fs::write(&archive, &whole).unwrap();
    }
    // A cell twice, a negative standard deviation, more wins than games.
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&archive, format!("{whole}{}\n", lines[2])).unwrap();
    let err = fails(&["plot", dir]);
    assert!(
        err.contains("archive.csv: line 7: cell 4 appears twice (line 3)"),
        "{err}"
    );
    std::fs::write(&archive, &whole).unwrap();
    set_field(&archive, 0, "attacks_sd", "-1");
    assert!(
        fails(&["tiers", dir, "--count", "2"])
            .contains("line 2: a feature standard deviation is negative")
    );
    std::fs::write(&archive, &whole).unwrap();
    set_field(&archive, 0, "wins", "30");
    assert!(
        fails(&["tiers", dir, "--count", "2"]).contains("line 2: 30 wins and 0 draws in 20 games")
    );
    std::fs::write(&archive, &whole).unwrap();

    // progress.csv: a coverage that is not a number, for plot and report.
    let progress = run.join(PROGRESS_CSV);
    let rows = read(&progress);
    set_field(&progress, 1, "coverage", "NaN");
    for args in [&["plot", dir][..], &["report", dir]] {
        let err = fails(args);
        assert!(
            err.contains("progress.csv: line 3: `coverage` is NaN"),
            "{args:?}: {err}"
        );
    }
    std::fs::write(&progress, &rows).unwrap();

    // validation.csv: a NaN win rate (tiers once ranked it strongest) or a doubled row.
    ok(&[
        "validate",
        dir,
        "--levels",
        VALIDATION_LEVEL,
        "--repetitions",
        "1",
        "--quiet",
    ]);
    let validation = run.join(VALIDATION_CSV);
    let table = read(&validation);
    set_field(&validation, 0, "val_win_rate", "NaN");
    for args in [&["tiers", dir, "--count", "2"][..], &["report", dir]] {
        let err = fails(args);
        assert!(
            err.contains("validation.csv: line 2: `val_win_rate` is NaN, not a rate in [0, 1]"),
            "{args:?}: {err}"
        );
    }
    let first = table.lines().nth(1).unwrap();
    std::fs::write(&validation, format!("{table}{first}\n")).unwrap();
    let err = fails(&["report", dir]);
    assert!(
        err.contains("validation.csv: line ") && err.contains("appear twice (line 2)"),
        "{err}"
    );
    std::fs::remove_file(&validation).unwrap();
    std::fs::remove_file(run.join(VALIDATION_SUMMARY_CSV)).unwrap();

    // reevaluated.csv: a doubled row, a rate above 1.
    ok(&["reevaluate", dir, "--games", "1", "--quiet"]);
    let reevaluated = run.join(REEVALUATED_CSV);
    let table = read(&reevaluated);
    let first = table.lines().nth(1).unwrap();
    std::fs::write(&reevaluated, format!("{table}{first}\n")).unwrap();
    let err = fails(&["report", dir]);
    assert!(
        err.contains("reevaluated.csv: line 7: cell 0 appears twice (line 2)"),
        "{err}"
    );
    std::fs::write(&reevaluated, &table).unwrap();
    set_field(&reevaluated, 0, "new_win_rate_hi", "1.5");
    for args in [
        &["report", dir][..],
        &["validate", dir, "--levels", VALIDATION_LEVEL, "--quiet"],
    ] {
        let err = fails(args);
        assert!(
            err.contains("reevaluated.csv: line 2: `new_win_rate_hi` is 1.5"),
            "{args:?}: {err}"
        );
    }
    // validate read it before playing: nothing was written.
    for file in [VALIDATION_CSV, VALIDATION_SUMMARY_CSV, VALIDATION_JOURNAL] {
        assert!(!run.join(file).exists(), "{file}");
    }
}

/// The Spearman correlation of `xs` and `ys` as the summary writes it, by ranks with ties
/// averaged (written out here apart from the library's).
fn rank_correlation(xs: &[f64], ys: &[f64]) -> f64 {
    let ranks = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .map(|x| {
                let below = v.iter().filter(|y| *y < x).count() as f64;
                let equal = v.iter().filter(|y| *y == x).count() as f64;
                below + (equal + 1.0) / 2.0
            })
            .collect()
    };
    let (rx, ry) = (ranks(xs), ranks(ys));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let var = |r: &[f64], m: f64| r.iter().map(|a| (a - m) * (a - m)).sum::<f64>();
    cov / (var(&rx, mx) * var(&ry, my)).sqrt()
}

#[test]
fn validation_ranks_the_held_out_means_against_the_re_played_ones_when_the_run_has_them() {
    let run = synthetic_run("replayed-spearman");
    let dir = path_arg(&run);
    let validate = validate_args(&run, "2", "all", &["--force"]);
    let column = SUMMARY_COLUMNS
        .iter()
        .position(|c| *c == "replayed_spearman")
        .unwrap();
    // No re-evaluation yet: the column is empty.
    ok(&validate);
    let summary = csv_rows(&run.join(VALIDATION_SUMMARY_CSV));
    assert!(
        summary[1..].iter().all(|r| r[column].is_empty()),
        "{summary:?}"
    );

    ok(&["reevaluate", dir, "--games", "4", "--quiet"]);
    let out = ok(&validate);
    assert!(out.contains("vs re-played"), "{out}");
    let (re, _) = reevaluated(&run);
    let re_col = |name: &str| re[0].iter().position(|c| c == name).unwrap();
    let rows = csv_rows(&run.join(VALIDATION_CSV));
    let summary = csv_rows(&run.join(VALIDATION_SUMMARY_CSV));
    let features = ["attacks", "support_balance"];
    let num = |s: &str| s.parse::<f64>().unwrap();
    // Per feature: validation means (validation.csv, cell order) against the re-played ones
    // (reevaluated.csv, the same cells in the same order).
    let mut compared = 0;
    for (k, f) in features.iter().enumerate() {
        let val: Vec<f64> = rows[1..]
            .iter()
            .skip(k)
            .step_by(2)
            .map(|r| num(&r[4]))
            .collect();
        let new: Vec<f64> = re[1..]
            .iter()
            .map(|r| num(&r[re_col(&format!("new_{f}_mean"))]))
            .collect();
        let written = &summary[1 + k][column];
        let spread = |v: &[f64]| v.iter().any(|x| *x != v[0]);
        if spread(&val) && spread(&new) {
            assert!(
                (num(written) - rank_correlation(&new, &val)).abs() < 1e-12,
                "{f}"
            );
            compared += 1;
        } else {
            assert_eq!(written, "", "{f}: no spread, no correlation");
        }
    }
    let val: Vec<f64> = rows[1..].iter().step_by(2).map(|r| num(&r[7])).collect();
    let new: Vec<f64> = re[1..]
        .iter()
        .map(|r| num(&r[re_col("new_win_rate")]))
        .collect();
    if let Ok(written) = summary[3][column].parse::<f64>() {
        assert!((written - rank_correlation(&new, &val)).abs() < 1e-12);
        compared += 1;
    }
    assert!(compared > 0, "no correlation to compare: {summary:?}");
    assert_eq!(summary[4][column], "", "all_axes has no correlation");

    // A re-play of another archive (one elite's archived win rate changed since) is not used.
    let reevaluated_csv = run.join(REEVALUATED_CSV);
    set_field(&reevaluated_csv, 2, "map_win_rate", "0.25");
    ok(&validate);
    let summary = csv_rows(&run.join(VALIDATION_SUMMARY_CSV));
    assert!(
        summary[1..].iter().all(|r| r[column].is_empty()),
        "{summary:?}"
    );
}

/// A Puerto Rico run: SA-0 play-style factors, 4 players on `4p`.
pub(crate) const PUERTO_RICO_CONFIG: &str = r#"
game = "puerto-rico"
seed = 3
batch_size = 4
[evaluation]
levels = ["4p"]
repetitions = 4
player = "sa0"
baseline = "sa0"
[genome]
scripts = ["role.captain", "role.builder"]
values = [0.0, 1.0, 2.0]
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
adaptive = false
one_hot = true
random_init = 4
iterations = 4
"#;

#[test]
fn a_puerto_rico_run_validates_on_other_player_counts_and_reports_four_player_games() {
    let dir = scratch("validate", "puerto-rico");
    let config = dir.join("pr.toml");
    std::fs::write(&config, PUERTO_RICO_CONFIG).unwrap();
    let run = dir.join("run");
    let (config, run_arg) = (path_arg(&config), path_arg(&run));
    ok(&[
        "evolve",
        config,
        "--out",
        run_arg,
        "--quiet",
        "--threads",
        "2",
    ]);
    // Held-out levels: 2p, 3p and 5p, each played with its own number of baselines.
    let out = ok(&[
        "validate",
        run_arg,
        "--cells",
        "all",
        "--repetitions",
        "3",
        "--quiet",
    ]);
    assert!(out.contains("2p, 3p, 5p"), "{out}");
    let rows = csv_rows(&run.join(VALIDATION_CSV));
    let games = rows[0].iter().position(|c| c == "val_games").unwrap();
    assert!(rows.len() > 1);
    assert!(rows[1..].iter().all(|r| r[games] == "9"), "{rows:?}");
    ok(&["reevaluate", run_arg, "--games", "4", "--quiet"]);
    ok(&["tiers", run_arg, "--count", "2"]);
    let out = ok(&["report", run_arg]);
    assert!(out.contains("report.html"), "{out}");
    let page = read(&run.join("report.html"));
    assert!(
        page.contains("sa0(weights=["),
        "the replays name the elite's agent"
    );
}

/// `validate` (one repetition, every elite) and `reevaluate` (two games per elite) of a run
/// directory with `extra` flags, each with its journal and tables.
type Replays = [(
    &'static str,
    fn(&Path, &[&str]) -> std::process::Output,
    &'static str,
    [&'static str; 2],
); 2];

const REPLAYS: Replays = [
    (
        "validate",
        |dir, extra| playstyles(&validate_args(dir, "1", "all", extra)),
        VALIDATION_JOURNAL,
        [VALIDATION_CSV, VALIDATION_SUMMARY_CSV],
    ),
    (
        "reevaluate",
        |dir, extra| {
            let mut args = vec!["reevaluate", path_arg(dir), "--games", "2", "--quiet"];
            args.extend_from_slice(extra);
            playstyles(&args)
        },
        REEVALUATION_JOURNAL,
        [REEVALUATED_CSV, REEVALUATED_SUMMARY_CSV],
    ),
];

/// The journal of `command` in `dir`, parsed.
fn journal(dir: &Path, name: &str) -> serde_json::Value {
    serde_json::from_str(&read(&dir.join(name))).unwrap()
}

#[test]
fn validate_and_reevaluate_resumed_under_an_edited_config_are_refused() {
    let whole = synthetic_run("edited-whole");
    for (command, play, journal_name, tables) in REPLAYS {
        let dir = copy_run(&whole, &format!("edited-{command}"));
        assert_eq!(
            play(&dir, &["--stop-after-elites", "2"]).status.code(),
            Some(2)
        );
        // The run's rules edited (this synthetic run has no checkpoint to catch it).
        let config = dir.join("config.toml");
        let text = read(&config);
        let edited = if text.contains("[rules]\n") {
            text.replacen("[rules]\n", "[rules]\nmode = \"score\"\n", 1)
        } else {
            format!("{text}\n[rules]\nmode = \"score\"\n")
        };
        std::fs::write(&config, edited).unwrap();
        let o = play(&dir, &["--resume"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("`config.toml`") && err.contains("--force"),
            "{command}: {err}"
        );
        assert_eq!(
            journal(&dir, journal_name)["done"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        assert!(tables.iter().all(|t| !dir.join(t).exists()), "{command}");
    }
}

#[test]
fn validate_and_reevaluate_refuse_a_journal_entry_without_the_games_it_must_hold() {
    let whole = synthetic_run("damaged-whole");
    for (command, play, journal_name, tables) in REPLAYS {
        let dir = copy_run(&whole, &format!("damaged-{command}"));
        assert_eq!(
            play(&dir, &["--stop-after-elites", "2"]).status.code(),
            Some(2)
        );
        let mut j = journal(&dir, journal_name);
        let games = j["done"][0]["evaluation"]["games"].as_u64().unwrap();
        j["done"][0]["evaluation"]["games"] = (games + 1).into();
        std::fs::write(dir.join(journal_name), serde_json::to_string(&j).unwrap()).unwrap();
        let o = play(&dir, &["--resume"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains(journal_name) && err.contains("damaged"),
            "{command}: {err}"
        );
        assert!(tables.iter().all(|t| !dir.join(t).exists()), "{command}");
    }
}

#[test]
fn resuming_a_finished_validate_or_reevaluate_is_nothing_to_do_bound_to_its_settings() {
    let whole = synthetic_run("finished-whole");
    for (command, play, journal_name, tables) in REPLAYS {
        let dir = copy_run(&whole, &format!("finished-{command}"));
        assert!(play(&dir, &[]).status.success(), "{command}");
        let done = dir.join(journal_name.replace(".journal.json", ".done.json"));
        assert!(
            done.is_file() && !dir.join(journal_name).exists(),
            "{command}"
        );
        let snapshot = || -> Vec<(String, std::time::SystemTime)> {
            tables
                .iter()
                .map(|t| {
                    let p = dir.join(t);
                    (read(&p), p.metadata().unwrap().modified().unwrap())
                })
                .collect()
        };
        let before = snapshot();
        let o = play(&dir, &["--resume"]);
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("nothing to do"), "{command}: {text}");
        assert!(
            before == snapshot(),
            "{command}: the tables are not written again"
        );

        // Other settings: refused, naming the setting and --force.
        let (flag, other) = if command == "validate" {
            (
                "--repetitions",
                playstyles(&validate_args(&dir, "2", "all", &["--resume"])),
            )
        } else {
            let d = path_arg(&dir);
            (
                "--games",
                playstyles(&["reevaluate", d, "--games", "4", "--quiet", "--resume"]),
            )
        };
        let err = String::from_utf8_lossy(&other.stderr).into_owned();
        assert_eq!(other.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains(&format!("`{flag}`")) && err.contains("--force"),
            "{command}: {err}"
        );
        assert!(before == snapshot(), "{command}");

        // Tables of an older version (no completion record): nothing to do, unchecked.
        std::fs::remove_file(&done).unwrap();
        let o = play(&dir, &["--resume"]);
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{command}");
        assert!(
            text.contains("nothing to do") && text.contains("cannot be checked"),
            "{command}: {text}"
        );
        assert!(before == snapshot(), "{command}");
    }
}

//! `playstyles sensitivity` on a tiny Puerto Rico config (SA-0 against SA-0, four games per
//! genome): the tables and the chart are written, each effect agrees with the genomes' own
//! games, the per-feature extremes follow the clear one-at-a-time effects, the files do not
//! depend on the thread count or on a stop and `--resume` (before or among the extremes), and
//! every bad flag exits with code 2 naming the flag.

use std::path::{Path, PathBuf};

use crate::support::cli::{
    path_arg, playstyles, playstyles_within, read_bytes, read_text, scratch, stderr, succeeded,
};

/// Twelve factors from {0, 0.5, 1}, the player's shipping share × builder picks.
const CONFIG: &str = r#"
game = "puerto-rico"
seed = 3
[evaluation]
levels = ["4p"]
repetitions = 4
player = "sa0"
baseline = "sa0"
[genome]
values = [0.0, 0.5, 1.0]
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
"#;

/// The roles as one group: the genome's units are then `roles` and the five build factors.
const ROLES: &str = "roles=role.settler+role.mayor+role.builder+role.craftsman+role.trader+\
                     role.captain+role.prospector";

const FILES: [&str; 4] = [
    "sensitivity_genomes.csv",
    "sensitivity_effects.csv",
    "sensitivity.png",
    "sensitivity.svg",
];

/// Writes the config into a fresh scratch folder `name` and returns (folder, config path).
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("sensitivity", name);
    let config = dir.join("pr.toml");
    std::fs::write(&config, CONFIG).unwrap();
    (dir, config)
}

/// Runs the measurement of `config` into `out` with `extra` flags; panics if it fails.
fn measure(config: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "sensitivity",
        path_arg(config),
        "--out",
        path_arg(out),
        "--quiet",
        "--group",
        ROLES,
    ];
    args.extend_from_slice(extra);
    succeeded(playstyles(&args), "sensitivity")
}

/// The rows of a CSV file as maps from column to cell.
fn rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
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

fn number(s: &str) -> f64 {
    s.parse()
        .unwrap_or_else(|_| panic!("`{s}` is not a number"))
}

#[test]
fn the_tables_hold_every_genome_and_effects_agree_with_the_genomes_games() {
    let (dir, config) = setup("tables");
    let out = dir.join("out");
    let printed = measure(&config, &out, &["--threads", "2"]);
    for f in FILES {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    assert!(!out.join("sensitivity.journal.json").exists());
    assert!(
        printed.contains("roles") && printed.contains("build.large"),
        "{printed}"
    );
    let genomes = rows(&out.join("sensitivity_genomes.csv"));
    let labels: Vec<&str> = genomes.iter().map(|r| r["genome"].as_str()).collect();
    // mid, all-low, all-high, low/high per unit, then min/max per feature.
    assert_eq!(labels.len(), 3 + 2 * 6 + 2 * 2, "{labels:?}");
    assert_eq!(
        &labels[15..],
        [
            "min:shipping_pct",
            "max:shipping_pct",
            "min:builder_pct",
            "max:builder_pct"
        ]
    );
    assert_eq!(
        &labels[..5],
        ["mid", "all-low", "all-high", "low:roles", "high:roles"]
    );
    let g = |label: &str| genomes.iter().find(|r| r["genome"] == label).unwrap();
    assert_eq!(g("mid")["weight_role.builder"], "0.5");
    // Four games show no clear effect: every extreme is `mid` and has its games.
    for x in &labels[15..] {
        let mut row = g(x).clone();
        row.insert("genome".into(), "mid".into());
        assert_eq!(&row, g("mid"), "{x}");
    }
    assert_eq!(g("high:roles")["weight_role.captain"], "1");
    assert_eq!(g("high:roles")["weight_build.large"], "0.5");
    assert_eq!(g("low:build.large")["weight_build.large"], "0");
    for r in &genomes {
        assert_eq!(r["games"], "4");
        let (lo, w, hi) = (
            number(&r["win_rate_lo"]),
            number(&r["win_rate"]),
            number(&r["win_rate_hi"]),
        );
        assert!(lo <= w && w <= hi, "{r:?}");
    }
    let effects = rows(&out.join("sensitivity_effects.csv"));
    // 6 units, `all` and the extremes of the two features, three measures each.
    assert_eq!(effects.len(), 9 * 3);
    for e in &effects {
        let (low, high) = if e["unit"] == "all" {
            (g("all-low"), g("all-high"))
        } else if let Some(f) = e["unit"].strip_prefix("extremes:") {
            (g(&format!("min:{f}")), g(&format!("max:{f}")))
        } else {
            (
                g(&format!("low:{}", e["unit"])),
                g(&format!("high:{}", e["unit"])),
            )
        };
        let column = if e["measure"] == "win_rate" {
            "win_rate".to_string()
        } else {
            format!("{}_mean", e["measure"])
        };
        assert_eq!(number(&e["low_mean"]), number(&low[&column]), "{e:?}");
        assert_eq!(number(&e["high_mean"]), number(&high[&column]), "{e:?}");
        // Every game has both features and the win: the mean paired difference is the
        // difference of the means.
        assert_eq!(e["pairs"], "4");
        let effect = number(&e["effect"]);
        assert!(
            (effect - (number(&e["high_mean"]) - number(&e["low_mean"]))).abs() < 1e-9,
            "{e:?}"
        );
        if !e["effect_lo"].is_empty() {
            assert!(number(&e["effect_lo"]) <= effect + 1e-12, "{e:?}");
            assert!(effect <= number(&e["effect_hi"]) + 1e-12, "{e:?}");
        }
        if e["measure"] == "win_rate" {
            assert_eq!(e["cell_width"], "");
        } else {
            assert_eq!(e["cell_width"], "5");
            assert!(
                (number(&e["effect_cells"]) - effect / 5.0).abs() < 1e-9,
                "{e:?}"
            );
        }
    }
}

#[test]
fn results_do_not_depend_on_threads_nor_on_a_stop_and_resume() {
    // 20 games per genome: enough for clear effects, so the extremes move weights.
    let (dir, config) = setup("determinism");
    let one = dir.join("one");
    let two = dir.join("two");
    let resumed = dir.join("resumed");
    let reps = ["--repetitions", "20"];
    measure(&config, &one, &[&reps[..], &["--threads", "1"]].concat());
    measure(&config, &two, &[&reps[..], &["--threads", "2"]].concat());
    // Stopped among the first genomes, then again after the first extreme.
    for (extra, stop, played) in [(&[][..], "5", 5), (&["--resume"][..], "11", 16)] {
        let mut args = vec![
            "sensitivity",
            path_arg(&config),
            "--out",
            path_arg(&resumed),
            "--quiet",
            "--group",
            ROLES,
            "--repetitions",
            "20",
            "--stop-after-genomes",
            stop,
        ];
        args.extend_from_slice(extra);
        let o = playstyles(&args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("stopped with {played} of 19 genomes")),
            "{}",
            stderr(&o)
        );
        assert!(resumed.join("sensitivity.journal.json").is_file());
    }
    let text = measure(
        &config,
        &resumed,
        &[&reps[..], &["--resume", "--threads", "2"]].concat(),
    );
    assert!(text.contains("resuming: 16 of 19 genomes"), "{text}");
    for f in [
        "sensitivity_genomes.csv",
        "sensitivity_effects.csv",
        "sensitivity.svg",
    ] {
        let a = read_bytes(&one.join(f));
        assert!(
            a == read_bytes(&two.join(f)),
            "{f}: --threads 1 and 2 differ"
        );
        assert!(
            a == read_bytes(&resumed.join(f)),
            "{f}: the resumed run differs"
        );
    }
    // Finished results are not overwritten without --force.
    let o = playstyles(&[
        "sensitivity",
        path_arg(&config),
        "--out",
        path_arg(&one),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--out") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_extremes_follow_the_clear_effects() {
    let (dir, config) = setup("extremes");
    let out = dir.join("out");
    measure(&config, &out, &["--repetitions", "20", "--threads", "2"]);
    let genomes = rows(&out.join("sensitivity_genomes.csv"));
    let effects = rows(&out.join("sensitivity_effects.csv"));
    let g = |label: &str| genomes.iter().find(|r| r["genome"] == label).unwrap();
    let roles: Vec<&str> = ROLES["roles=".len()..].split('+').collect();
    let builds = [
        "build.production",
        "build.shipping",
        "build.trade",
        "build.planting",
        "build.large",
    ];
    let mut moved = 0;
    for f in ["shipping_pct", "builder_pct"] {
        for (unit, scripts) in
            std::iter::once(("roles", roles.clone())).chain(builds.iter().map(|b| (*b, vec![*b])))
        {
            let e = effects
                .iter()
                .find(|e| e["unit"] == unit && e["measure"] == f)
                .unwrap();
            let (lo, hi) = (number(&e["effect_lo"]), number(&e["effect_hi"]));
            // At the end that pushes F up in max:F, down in min:F; 0.5 if the interval spans 0.
            let (min, max) = if lo > 0.0 {
                ("0", "1")
            } else if hi < 0.0 {
                ("1", "0")
            } else {
                ("0.5", "0.5")
            };
            if min != max {
                moved += 1;
            }
            for s in scripts {
                let column = format!("weight_{s}");
                assert_eq!(g(&format!("min:{f}"))[&column], min, "{f} {s}: {e:?}");
                assert_eq!(g(&format!("max:{f}"))[&column], max, "{f} {s}: {e:?}");
            }
        }
    }
    // Hand-checked on this seed: roles lower shipping (-2.16 [-4.06, -0.26] cells) and
    // build.production raises it (+3.00 [+0.66, +5.34]); nothing clearly moves builder_pct.
    assert_eq!(moved, 2);
    assert_eq!(g("max:shipping_pct")["weight_role.captain"], "0");
    assert_eq!(g("max:shipping_pct")["weight_build.production"], "1");
    assert_eq!(g("min:shipping_pct")["weight_role.mayor"], "1");
    let x = effects
        .iter()
        .find(|e| e["unit"] == "extremes:shipping_pct" && e["measure"] == "shipping_pct")
        .unwrap();
    assert_eq!(x["scripts"].split('+').count(), roles.len() + 1, "{x:?}");
    assert!(x["scripts"].contains("build.production"), "{x:?}");
    let y = effects
        .iter()
        .find(|e| e["unit"] == "extremes:builder_pct" && e["measure"] == "builder_pct")
        .unwrap();
    assert_eq!((y["scripts"].as_str(), y["effect"].as_str()), ("", "0"));
}

#[test]
fn bad_flags_exit_2_naming_the_flag() {
    let (dir, config) = setup("bad-flags");
    let out = dir.join("out");
    let cases: [(&[&str], &str); 9] = [
        (&["--repetitions", "0"], "--repetitions"),
        (&["--threads", "0"], "--threads"),
        (&["--group", "g=role.mayor+nosuch"], "--group"),
        (&["--group", "g="], "--group"),
        (&["--group", "role.mayor"], "--group"),
        (
            &["--group", "g=role.mayor", "--group", "h=role.mayor"],
            "--group",
        ),
        (&["--player", "sa0("], "--player"),
        (&["--player", "sa0(weights=[role.mayor=1])"], "--player"),
        (&["--player", "nosuch"], "--player"),
    ];
    for (flags, field) in cases {
        let mut args = vec!["sensitivity", path_arg(&config), "--out", path_arg(&out)];
        args.extend_from_slice(flags);
        let o = playstyles(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(field), "{flags:?}: {err}");
        assert!(!err.contains("panicked"), "{flags:?}: {err}");
    }
    // None of them played a game or left a file behind.
    for f in FILES {
        assert!(!out.join(f).exists(), "{f}");
    }
}

/// `CONFIG` measured on Puerto Rico's five-player level (the one `vp_chips_5p` changes) with
/// that rule.
fn five_players(chips: u32) -> String {
    CONFIG
        .replace("levels = [\"4p\"]", "levels = [\"5p\"]")
        .replacen(
            "seed = 3\n",
            &format!("seed = 3\n[rules]\nvp_chips_5p = {chips}\n"),
            1,
        )
}

/// Runs `sensitivity CONFIG --out OUT --quiet` with `extra` flags (no group unless given).
fn sensitivity(config: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "sensitivity",
        path_arg(config),
        "--out",
        path_arg(out),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    playstyles(&args)
}

#[test]
fn resuming_under_other_settings_is_refused_naming_the_setting() {
    let (dir, _) = setup("other-settings");
    let config = dir.join("a.toml");
    std::fs::write(&config, five_players(122)).unwrap();
    let out = dir.join("out");
    let roles = ["--group", ROLES];
    let stop = [&roles[..], &["--stop-after-genomes", "3"]].concat();
    assert_eq!(sensitivity(&config, &out, &stop).status.code(), Some(2));
    let journal = out.join("sensitivity.journal.json");
    let held = || -> usize {
        let j: serde_json::Value = serde_json::from_str(&read_text(&journal)).unwrap();
        j["done"].as_array().unwrap().len()
    };
    assert_eq!(held(), 3);
    // Whatever the games or the tables depend on, changed, is named; the journal is kept.
    let resume = [&roles[..], &["--resume"]].concat();
    let cases: [(&str, String, &[&str], &str); 5] = [
        ("rules", five_players(126), &resume, "rules"),
        (
            "genome",
            five_players(122).replace("values = [0.0, 0.5, 1.0]", "values = [0.0, 0.5, 2.0]"),
            &resume,
            "genome",
        ),
        (
            "scripts",
            five_players(122).replace(
                "[genome]\n",
                "[genome]\nscripts = [\"role.settler\", \"role.mayor\", \"role.builder\", \
                 \"role.craftsman\", \"role.trader\", \"role.captain\", \"role.prospector\", \
                 \"build.production\", \"build.shipping\"]\n",
            ),
            &resume,
            "genome.scripts",
        ),
        (
            "axes",
            five_players(122).replacen("step = 5", "step = 10", 1),
            &resume,
            "features",
        ),
        ("group", five_players(122), &["--resume"], "--group"),
    ];
    for (name, text, flags, field) in cases {
        let other = dir.join(format!("{name}.toml"));
        std::fs::write(&other, text).unwrap();
        let o = sensitivity(&other, &out, flags);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("`{field}`")) && err.contains("--force"),
            "{name}: {err}"
        );
        assert_eq!(held(), 3, "{name}: the journal is kept");
    }
    let text = succeeded(sensitivity(&config, &out, &resume), "the same settings");
    assert!(text.contains("resuming: 3 of"), "{text}");
}

#[test]
fn a_genome_evolve_refuses_is_refused_with_evolves_error() {
    let (dir, _) = setup("bad-genome");
    for (i, (genome, field)) in [
        ("values = [1.0, 0.5, 0.0]", "genome.values"),
        ("values = [0.5]", "genome.values"),
        ("values = [0.0, 0.5, 0.5]", "genome.values"),
        ("range = [1.0, 0.0]", "genome.range"),
    ]
    .into_iter()
    .enumerate()
    {
        let config = dir.join(format!("g{i}.toml"));
        std::fs::write(&config, CONFIG.replace("values = [0.0, 0.5, 1.0]", genome)).unwrap();
        let out = dir.join(format!("out{i}"));
        let o = sensitivity(&config, &out, &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{genome}: {err}");
        assert!(err.contains(&format!("`{field}`")), "{genome}: {err}");
        assert!(!out.exists(), "{genome}: nothing is written");
        let run = dir.join(format!("run{i}"));
        let o = playstyles(&["evolve", path_arg(&config), "--out", path_arg(&run)]);
        assert_eq!(o.status.code(), Some(2), "{genome}");
        assert_eq!(stderr(&o), err, "{genome}: evolve's error is sensitivity's");
    }
}

#[test]
fn a_journal_entry_without_the_games_it_must_hold_is_a_damaged_journal() {
    let (dir, config) = setup("damaged-journal");
    let journal_of = |out: &Path| out.join("sensitivity.journal.json");
    type Damage = fn(&mut serde_json::Value);
    let damages: [(&str, Damage); 4] = [
        ("fewer games", |e| {
            e["games"].as_array_mut().unwrap().truncate(1);
        }),
        ("a game won and drawn", |e| {
            e["games"][0]["won"] = true.into();
            e["games"][0]["draw"] = true.into();
        }),
        ("more games", |e| {
            let games = e["games"].as_array_mut().unwrap();
            games.push(games[0].clone());
        }),
        ("a feature missing", |e| {
            e["games"][0]["features"].as_array_mut().unwrap().pop();
        }),
    ];
    for (i, (what, damage)) in damages.into_iter().enumerate() {
        let out = dir.join(format!("out{i}"));
        let o = sensitivity(&config, &out, &["--stop-after-genomes", "3"]);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        let path = journal_of(&out);
        let mut j: serde_json::Value = serde_json::from_str(&read_text(&path)).unwrap();
        damage(&mut j["done"][1]);
        std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
        let o = sensitivity(&config, &out, &["--resume"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("sensitivity.journal.json") && err.contains("damaged"),
            "{what}: {err}"
        );
        for f in FILES {
            assert!(!out.join(f).exists(), "{what}: {f} written");
        }
    }
}

#[test]
fn resuming_a_finished_measurement_is_nothing_to_do_bound_to_its_settings() {
    let (dir, config) = setup("finished");
    let out = dir.join("out");
    let done = out.join("sensitivity.done.json");
    measure(&config, &out, &[]);
    assert!(done.is_file() && !out.join("sensitivity.journal.json").exists());
    let snapshot = || -> Vec<(Vec<u8>, std::time::SystemTime)> {
        FILES
            .iter()
            .chain(std::iter::once(&"sensitivity.done.json"))
            .map(|f| {
                let p = out.join(f);
                (read_bytes(&p), p.metadata().unwrap().modified().unwrap())
            })
            .collect()
    };
    let before = snapshot();
    let text = measure(&config, &out, &["--resume"]);
    assert!(text.contains("nothing to do"), "{text}");
    assert!(
        before == snapshot(),
        "a finished measurement is not written again"
    );

    // Other settings: refused, naming the setting and --force (not the --resume given).
    let o = sensitivity(
        &config,
        &out,
        &["--group", ROLES, "--resume", "--repetitions", "3"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`--repetitions`")
            && err.contains("--force")
            && !err.contains("--resume to continue"),
        "{err}"
    );
    assert!(before == snapshot());

    // A measurement of an older version (no completion record): nothing to do, unchecked.
    std::fs::remove_file(&done).unwrap();
    let text = measure(&config, &out, &["--resume"]);
    assert!(
        text.contains("nothing to do") && text.contains("cannot be checked"),
        "{text}"
    );

    // Part of the outputs without a journal: --resume has nothing to continue, and says
    // --force, not the --resume it was given.
    std::fs::remove_file(out.join("sensitivity.png")).unwrap();
    let o = sensitivity(&config, &out, &["--group", ROLES, "--resume"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--force") && !err.contains("--resume to continue"),
        "{err}"
    );
}

#[test]
fn force_replaces_only_the_measurements_own_files() {
    let (dir, config) = setup("force");
    let out = dir.join("out");
    measure(&config, &out, &[]);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::create_dir_all(out.join("drafts")).unwrap();
    std::fs::write(out.join("drafts").join("a.csv"), "x").unwrap();
    measure(&config, &out, &["--force", "--repetitions", "2"]);
    assert_eq!(read_text(&out.join("notes.txt")), "mine");
    assert_eq!(read_text(&out.join("drafts").join("a.csv")), "x");
    let genomes = rows(&out.join("sensitivity_genomes.csv"));
    assert!(genomes.iter().all(|r| r["games"] == "2"), "replaced");
}

#[test]
fn the_games_of_every_genome_extremes_included_are_bounded_before_any_is_played() {
    // 15 genomes before the extremes, 19 with them: 15 x 60,000 games fit MAX_GAMES
    // (1,000,000), 19 x 60,000 do not.
    let (dir, config) = setup("bounds");
    let out = dir.join("out");
    let o = playstyles_within(
        &[
            "sensitivity",
            path_arg(&config),
            "--out",
            path_arg(&out),
            "--quiet",
            "--group",
            ROLES,
            "--repetitions",
            "60000",
        ],
        std::time::Duration::from_secs(60),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`--repetitions`") && err.contains("1140000"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
}

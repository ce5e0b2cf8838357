//! `playstyles sensitivity` on a tiny Puerto Rico config (SA-0 against SA-0, four games per
//! genome): the tables and the chart are written, each effect agrees with the genomes' own
//! games, the files do not depend on the thread count or on a stop and `--resume`, and every
//! bad flag exits with code 2 naming the flag.

use std::path::{Path, PathBuf};

use crate::support::cli::{
    path_arg, playstyles, read_bytes, read_text, scratch, stderr, succeeded,
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
    assert_eq!(labels.len(), 3 + 2 * 6, "{labels:?}");
    assert_eq!(
        &labels[..5],
        ["mid", "all-low", "all-high", "low:roles", "high:roles"]
    );
    let g = |label: &str| genomes.iter().find(|r| r["genome"] == label).unwrap();
    assert_eq!(g("mid")["weight_role.builder"], "0.5");
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
    // 6 units and `all`, three measures each.
    assert_eq!(effects.len(), 7 * 3);
    for e in &effects {
        let (low, high) = if e["unit"] == "all" {
            (g("all-low"), g("all-high"))
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
    let (dir, config) = setup("determinism");
    let one = dir.join("one");
    let two = dir.join("two");
    let resumed = dir.join("resumed");
    measure(&config, &one, &["--threads", "1"]);
    measure(&config, &two, &["--threads", "2"]);
    let o = playstyles(&[
        "sensitivity",
        path_arg(&config),
        "--out",
        path_arg(&resumed),
        "--quiet",
        "--group",
        ROLES,
        "--stop-after-genomes",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    assert!(resumed.join("sensitivity.journal.json").is_file());
    let text = measure(&config, &resumed, &["--resume", "--threads", "2"]);
    assert!(text.contains("resuming: 5 of 15 genomes"), "{text}");
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

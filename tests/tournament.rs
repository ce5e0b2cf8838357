use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use playstyles::Error;
use playstyles::agents::build_agent;
use playstyles::experiments::GameKind;
use playstyles::experiments::games_csv::games_header;
use playstyles::experiments::tournament::{
    LevelSet, TournamentConfig, TournamentScales, TournamentSpec, summary_header, tournament,
};

use crate::support::{Nim, NimLevel};

/// A fresh, empty folder under Cargo's scratch space for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tournament")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const TOY: &str = r#"
game = "tribes"
seed = 17
levels = [1, 2]
repetitions = 3

[[pairing]]
name = "random-vs-random"
agents = ["random", "random"]

[[pairing]]
name = "random-vs-end_turn"
agents = ["random", "end_turn"]
"#;

fn nim_levels() -> Vec<(String, NimLevel)> {
    vec![
        (
            "small".into(),
            NimLevel {
                heaps: vec![3, 4],
                ..NimLevel::standard()
            },
        ),
        ("standard".into(), NimLevel::standard()),
    ]
}

/// Runs the toy tournament on Nim into `dir` with `threads` threads; returns the printed table.
fn run_toy(dir: &Path, threads: usize) -> playstyles::Result<String> {
    let cfg = TournamentConfig {
        spec: TournamentSpec::parse(TOY).unwrap(),
        out: dir.to_path_buf(),
        threads: Some(threads),
        quiet: true,
        force: false,
    };
    let mut out = Vec::new();
    tournament(
        &Nim::new(),
        nim_levels(),
        build_agent::<Nim>,
        &cfg,
        "# resolved\n",
        TournamentScales { techs_total: None },
        &mut out,
    )?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn results_are_byte_identical_with_one_and_two_threads() {
    let (a, b) = (scratch("threads-1"), scratch("threads-2"));
    let table_a = run_toy(&a, 1).unwrap();
    let table_b = run_toy(&b, 2).unwrap();
    assert_eq!(table_a, table_b);
    for file in ["games.csv", "summary.csv", "config.toml"] {
        assert_eq!(read(&a.join(file)), read(&b.join(file)), "{file}");
    }
    let games = read(&a.join("games.csv"));
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines[0], games_header(2).join(","));
    // 2 pairings x 2 levels x 3 repetitions.
    assert_eq!(lines.len(), 1 + 12);
    assert!(
        lines[1].starts_with("random-vs-random,0,small,0,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[12].starts_with("random-vs-end_turn,5,standard,2,"),
        "{}",
        lines[12]
    );
    let summary = read(&a.join("summary.csv"));
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[0], summary_header().join(","));
    assert_eq!(lines.len(), 3);
    // random beats end_turn in every game of Nim; techs, cities, production are unknown.
    assert!(
        lines[2].starts_with("random-vs-end_turn,random,end_turn,6,6,0,1,"),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with(",,,"), "{}", lines[2]);
    assert!(table_a.lines().next().unwrap().starts_with("pairing"));
    assert!(table_a.contains("random-vs-end_turn"), "{table_a}");
}

#[test]
fn existing_results_are_kept_without_force() {
    let dir = scratch("keep");
    run_toy(&dir, 1).unwrap();
    let e = run_toy(&dir, 1).unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "out" && reason.contains("--force")),
        "{e}"
    );
}

#[test]
fn an_unknown_agent_names_the_pairing_and_writes_nothing() {
    let dir = scratch("unknown-agent");
    let cfg = TournamentConfig {
        spec: TournamentSpec::parse(
            &TOY.replace("\"random\", \"end_turn\"", "\"random\", \"mcts\""),
        )
        .unwrap(),
        out: dir.join("out"),
        threads: Some(1),
        quiet: true,
        force: false,
    };
    let e = tournament(
        &Nim::new(),
        nim_levels(),
        build_agent::<Nim>,
        &cfg,
        "",
        TournamentScales { techs_total: None },
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "pairing[1].agents" && reason.contains("mcts")),
        "{e}"
    );
    assert!(!dir.join("out").exists());
}

fn field_of(text: &str) -> String {
    match TournamentSpec::parse(text) {
        Err(Error::Config { field, .. }) => field,
        other => panic!("not a config error: {other:?}"),
    }
}

#[test]
fn bad_configs_name_the_field() {
    let cases = [
        (
            TOY.replace("seed = 17", "seed = 17\nthreads = 2"),
            "threads",
        ),
        (TOY.replace("levels = [1, 2]", "levels = []"), "levels"),
        (TOY.replace("levels = [1, 2]", "levels = \"all\""), "levels"),
        (
            TOY.replace("levels = [1, 2]", "levels = [1, \" \"]"),
            "levels[1]",
        ),
        (
            TOY.replace("repetitions = 3", "repetitions = 0"),
            "repetitions",
        ),
        (
            TOY.replace("repetitions = 3", "repetitions = -1"),
            "repetitions",
        ),
        (
            TOY.replace("\"random\", \"end_turn\"", "\"random\""),
            "pairing[1].agents",
        ),
        (
            TOY.replace("\"random\", \"end_turn\"", "\"random\", \"mcts(\""),
            "pairing[1].agents",
        ),
        (
            TOY.replace("\"random-vs-end_turn\"", "\"random-vs-random\""),
            "pairing[1].name",
        ),
        (
            TOY.replace("name = \"random-vs-random\"", "name = \"a\"\nagent = \"x\""),
            "pairing[0].agent",
        ),
        (TOY.replace("game = \"tribes\"", "game = \"chess\""), "game"),
        (TOY.replace("seed = 17\n", ""), "seed"),
        (TOY.replace("seed = 17", "seed = 1.5"), "seed"),
        (
            "game = \"tribes\"\nseed = 1\nlevels = \"paper\"\nrepetitions = 1\npairing = []\n"
                .into(),
            "pairing",
        ),
        ("game = [".into(), "config"),
    ];
    for (text, field) in cases {
        assert_eq!(field_of(&text), field, "{text}");
    }
}

#[test]
fn the_table_one_config_parses() {
    let text = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/table1.toml"));
    let spec = TournamentSpec::parse(&text).unwrap();
    assert_eq!(spec.game, GameKind::Tribes);
    assert_eq!(spec.levels, LevelSet::Paper);
    assert_eq!(spec.repetitions, 20);
    assert_eq!(spec.pairings.len(), 7);
    let names: Vec<Vec<String>> = spec.pairings.iter().map(|p| p.specs()).collect();
    let pmcts = |bias, pruning| format!("pmcts(bias={bias},pruning={pruning},budget=2000)");
    let (mcts, rhea) = (
        "mcts(budget=2000)".to_string(),
        "rhea(budget=2000)".to_string(),
    );
    assert_eq!(
        names,
        [
            [pmcts(false, false), mcts.clone()],
            [pmcts(true, false), mcts.clone()],
            [pmcts(true, true), mcts.clone()],
            [mcts.clone(), rhea.clone()],
            [pmcts(false, false), rhea.clone()],
            [pmcts(true, false), rhea.clone()],
            [pmcts(true, true), rhea.clone()],
        ]
    );
    assert_eq!(
        spec.rules.get("mode").and_then(|m| m.as_str()),
        Some("capitals")
    );
}

fn playstyles(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the binary runs")
}

fn smoke_config() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/smoke-tournament.toml")
        .display()
        .to_string()
}

#[test]
fn the_binary_plays_the_smoke_tournament_and_refuses_to_overwrite_without_force() {
    let dir = scratch("binary");
    let config = smoke_config();
    // Default output folder: results/<config stem>/ under the working directory.
    let o = playstyles(&["tournament", &config, "--quiet", "--threads", "2"], &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("results/smoke-tournament");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("random-vs-end_turn"), "{stdout}");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let games = read(&out.join("games.csv"));
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines[0], games_header(2).join(","));
    assert_eq!(lines.len(), 1 + 4);
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |name: &str| header.iter().position(|&h| h == name).unwrap();
    for (i, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len());
        assert_eq!(cells[col("game")], i.to_string());
        // Seats alternate: random (participant 0) sits in seat i mod 2.
        assert_eq!(cells[col("seat_0")], (i % 2).to_string());
        assert_eq!(cells[col("seat_1")], ((i + 1) % 2).to_string());
        // end_turn plays END_TURN once per round and nothing else.
        let ticks: u64 = cells[col("ticks")].parse().unwrap();
        let passive: u64 = cells[col("actions_1")].parse().unwrap();
        assert!(passive.abs_diff(ticks) <= 1, "{line}");
        let techs: f64 = cells[col("techs_1")].parse().unwrap();
        assert!((0.0..=24.0).contains(&techs));
    }
    let summary = read(&out.join("summary.csv"));
    assert_eq!(summary.lines().count(), 2);
    assert!(
        summary
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("random-vs-end_turn,random,end_turn,4,")
    );
    let resolved = read(&out.join("config.toml"));
    assert!(resolved.contains("compat = \"intended\""), "{resolved}");
    assert!(resolved.contains("repetitions = 2"), "{resolved}");

    // A second run into the same folder is refused and leaves the files alone.
    let again = playstyles(&["tournament", &config, "--quiet"], &dir);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.starts_with("error: invalid `out`") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(read(&out.join("games.csv")), games);

    // With --force, one thread gives the very same files.
    let forced = playstyles(
        &[
            "tournament",
            &config,
            "--quiet",
            "--force",
            "--threads",
            "1",
        ],
        &dir,
    );
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert_eq!(read(&out.join("games.csv")), games);
    assert_eq!(read(&out.join("summary.csv")), summary);
}

#[test]
fn the_binary_names_the_field_of_a_bad_config() {
    let dir = scratch("bad-config");
    let cases = [
        (
            "levels = [1590557911279, 1590557910891]",
            "levels = []",
            "`levels`",
        ),
        ("repetitions = 2", "repetitions = 0", "`repetitions`"),
        (
            "\"random\", \"end_turn\"",
            "\"random\", \"nobody\"",
            "`pairing[0].agents`",
        ),
        (
            "mode = \"capitals\"",
            "mode = \"everything\"",
            "`rules.mode`",
        ),
        ("seed = 1", "seed = 1\nseeds = 2", "`seeds`"),
    ];
    let good = read(Path::new(&smoke_config()));
    for (i, (from, to, field)) in cases.into_iter().enumerate() {
        let path = dir.join(format!("bad{i}.toml"));
        std::fs::write(&path, good.replace(from, to)).unwrap();
        let o = playstyles(&["tournament", path.to_str().unwrap(), "--quiet"], &dir);
        assert_eq!(o.status.code(), Some(2), "{to}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with(&format!("error: invalid {field}")),
            "{to}: {err}"
        );
        assert!(!dir.join("results").exists(), "{to}: results written");
    }
    let o = playstyles(&["tournament", &smoke_config(), "--threads", "0"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("threads"));
}

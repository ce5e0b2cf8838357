use std::path::{Path, PathBuf};

use playstyles::Error;
use playstyles::agents::build_agent;
use playstyles::experiments::GameKind;
use playstyles::experiments::config_file::LevelSet;
use playstyles::experiments::games_csv::{TableColumns, games_header};
use playstyles::games::tribes::TribesGame;
use playstyles::kit::GameKit;

/// Nim keeps no statistic in the tables.
const NO_COLUMNS: TableColumns = TableColumns {
    stats: &[],
    summary: &[],
};
use playstyles::experiments::tournament::{KeptAgents, SAVE_EVERY, tournament};
use playstyles::experiments::tournament_rows::summary_header;
use playstyles::experiments::tournament_spec::{TournamentConfig, TournamentSpec};

use crate::support::cli::{playstyles_in as playstyles, read_text as read, scratch};
use crate::support::{Nim, NimLevel};

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

/// The toy tournament's settings: `TOY` into `dir` on `threads` threads, quiet, nothing
/// overwritten, resumed or stopped.
fn toy_config(dir: &Path, threads: usize) -> TournamentConfig {
    TournamentConfig {
        spec: TournamentSpec::parse(TOY).unwrap(),
        out: dir.to_path_buf(),
        threads: Some(threads),
        quiet: true,
        force: false,
        resume: false,
        stop_after_games: None,
    }
}

/// `cfg`'s agents as they are written (Nim's agents read no file), with the resolved config
/// `config_toml`.
fn as_written(cfg: &TournamentConfig, config_toml: &str) -> KeptAgents {
    KeptAgents {
        spec: cfg.spec.clone(),
        files: Vec::new(),
        config_toml: config_toml.to_string(),
    }
}

/// Plays `cfg` on Nim with the resolved config `config_toml`; returns the printed table.
fn play_toy(cfg: &TournamentConfig, config_toml: &str) -> playstyles::Result<String> {
    let mut out = Vec::new();
    let game = Nim::new();
    tournament(
        &game,
        nim_levels(),
        |s: &str, _: &Path| build_agent(&game, s),
        cfg,
        &as_written(cfg, config_toml),
        NO_COLUMNS,
        &mut out,
    )?;
    Ok(String::from_utf8(out).unwrap())
}

/// Runs the toy tournament on Nim into `dir` with `threads` threads; returns the printed table.
fn run_toy(dir: &Path, threads: usize) -> playstyles::Result<String> {
    play_toy(&toy_config(dir, threads), RESOLVED)
}

/// The resolved config the toy tournament writes.
const RESOLVED: &str = "# resolved\n";

#[test]
fn results_are_byte_identical_with_one_and_two_threads() {
    let (a, b) = (
        scratch("tournament", "threads-1"),
        scratch("tournament", "threads-2"),
    );
    let table_a = run_toy(&a, 1).unwrap();
    let table_b = run_toy(&b, 2).unwrap();
    assert_eq!(table_a, table_b);
    for file in ["games.csv", "summary.csv", "config.toml"] {
        assert_eq!(read(&a.join(file)), read(&b.join(file)), "{file}");
    }
    let games = read(&a.join("games.csv"));
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines[0], games_header(2, &[]).join(","));
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
    assert_eq!(lines[0], summary_header(&[]).join(","));
    assert_eq!(lines.len(), 3);
    // random beats end_turn in every game of Nim (mean rank 1); Nim has no summary column.
    assert!(
        lines[2].starts_with("random-vs-end_turn,random,end_turn,6,6,0,1,"),
        "{}",
        lines[2]
    );
    let header: Vec<&str> = lines[0].split(',').collect();
    let cell = |line: usize, name: &str| -> String {
        let col = header.iter().position(|&h| h == name).unwrap();
        lines[line].split(',').nth(col).unwrap().to_string()
    };
    assert_eq!(cell(2, "mean_rank"), "1");
    // The side of `random` against `end_turn` is `random` alone: the same numbers.
    for line in [1, 2] {
        for (side, own) in [
            ("side_wins", "wins"),
            ("side_win_rate", "win_rate"),
            ("side_win_rate_lo", "win_rate_lo"),
            ("side_win_rate_hi", "win_rate_hi"),
        ] {
            let same = cell(line, side) == cell(line, own);
            assert_eq!(same, line == 2, "line {line}: {side}, {own}");
        }
    }
    assert_eq!(
        (cell(2, "side_size"), cell(2, "participants")),
        ("1".into(), "2".into())
    );
    // random-vs-random: both participants are the side, which wins every game somebody wins.
    assert_eq!(cell(1, "side_size"), "2");
    let (games_1, draws_1): (u32, u32) = (
        cell(1, "games").parse().unwrap(),
        cell(1, "draws").parse().unwrap(),
    );
    assert_eq!(cell(1, "side_wins"), (games_1 - draws_1).to_string());
    assert!(table_a.lines().next().unwrap().starts_with("pairing"));
    assert!(
        table_a.contains("side 95% CI") && table_a.contains("2/2"),
        "{table_a}"
    );
    assert!(table_a.contains("random-vs-end_turn"), "{table_a}");
}

#[test]
fn existing_results_are_kept_without_force() {
    let dir = scratch("tournament", "keep");
    run_toy(&dir, 1).unwrap();
    let e = run_toy(&dir, 1).unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "out" && reason.contains("--force") && reason.contains("--resume")),
        "{e}"
    );
}

#[test]
fn an_unknown_agent_names_the_pairing_and_writes_nothing() {
    let dir = scratch("tournament", "unknown-agent");
    let cfg = TournamentConfig {
        spec: TournamentSpec::parse(
            &TOY.replace("\"random\", \"end_turn\"", "\"random\", \"minimax\""),
        )
        .unwrap(),
        out: dir.join("out"),
        threads: Some(1),
        quiet: true,
        force: false,
        resume: false,
        stop_after_games: None,
    };
    let game = Nim::new();
    let e = tournament(
        &game,
        nim_levels(),
        |s: &str, _: &Path| build_agent(&game, s),
        &cfg,
        &as_written(&cfg, ""),
        NO_COLUMNS,
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "pairing[1].agents" && reason.contains("minimax")),
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
        (TOY.replace("levels = [1, 2]\n", ""), "levels"),
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
    assert_eq!(spec.game, "tribes".parse::<GameKind>().unwrap());
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

fn smoke_config() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/smoke-tournament.toml")
        .display()
        .to_string()
}

#[test]
fn the_binary_plays_the_smoke_tournament_and_refuses_to_overwrite_without_force() {
    let dir = scratch("tournament", "binary");
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
    assert_eq!(
        lines[0],
        games_header(2, TribesGame::game_columns()).join(",")
    );
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
    let dir = scratch("tournament", "bad-config");
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

/// The files of an uninterrupted toy tournament (one thread) and its printed table.
fn reference(name: &str) -> (PathBuf, String) {
    let dir = scratch("tournament", name);
    let table = run_toy(&dir, 1).unwrap();
    (dir, table)
}

fn assert_same_files(a: &Path, b: &Path) {
    for file in ["config.toml", "games.csv", "summary.csv"] {
        assert_eq!(read(&a.join(file)), read(&b.join(file)), "{file}");
    }
}

#[test]
fn a_stopped_tournament_resumed_ends_with_the_files_of_an_uninterrupted_one() {
    let (full, full_table) = reference("resume-reference");
    // 12 games in all, 6 per pairing: stop before any, inside and between pairings.
    for threads in [1, 2] {
        for stop in [0, 1, 5, 6, 11] {
            let dir = scratch("tournament", &format!("resume-{threads}-{stop}"));
            let mut cfg = toy_config(&dir, threads);
            cfg.stop_after_games = Some(stop);
            let printed = play_toy(&cfg, RESOLVED).unwrap();
            assert!(
                printed.contains(&format!("stopped with {stop} of 12 games played"))
                    && printed.contains("--resume"),
                "{printed}"
            );
            let games = read(&dir.join("games.csv"));
            assert_eq!(games.lines().count() as u64, 1 + stop, "{games}");
            // The rows written are the first games of the full run.
            assert!(read(&full.join("games.csv")).starts_with(&games));
            let summary = read(&dir.join("summary.csv"));
            // The header, then the pairings begun (the second begins with game 7).
            let lines = 1 + usize::from(stop >= 1) + usize::from(stop >= 7);
            assert_eq!(summary.lines().count(), lines, "{summary}");

            cfg.stop_after_games = None;
            cfg.resume = true;
            let table = play_toy(&cfg, RESOLVED).unwrap();
            assert_eq!(table, full_table, "{threads} threads, stopped after {stop}");
            assert_same_files(&full, &dir);
        }
    }
    // Resuming a finished tournament plays nothing and changes nothing.
    let mut cfg = toy_config(&full, 2);
    cfg.resume = true;
    let dir = scratch("tournament", "resume-finished");
    for file in ["config.toml", "games.csv", "summary.csv"] {
        std::fs::copy(full.join(file), dir.join(file)).unwrap();
    }
    cfg.out = dir.clone();
    let modified = |f: &str| std::fs::metadata(dir.join(f)).unwrap().modified().unwrap();
    let times = ["games.csv", "summary.csv"].map(modified);
    assert_eq!(
        play_toy(&cfg, RESOLVED).unwrap(),
        format!(
            "the tournament in {} has finished: nothing to do\n{full_table}",
            dir.display()
        )
    );
    assert_same_files(&full, &dir);
    assert_eq!(
        ["games.csv", "summary.csv"].map(modified),
        times,
        "nothing written again"
    );
}

#[test]
fn resume_plays_whatever_games_are_missing_in_any_order_of_rows() {
    let (full, full_table) = reference("resume-subset-reference");
    let games = read(&full.join("games.csv"));
    let lines: Vec<&str> = games.lines().collect();
    // Keep every third game, in reverse order, and a summary that no longer fits them.
    let kept: Vec<&str> = lines[1..].iter().copied().step_by(3).rev().collect();
    for threads in [1, 2] {
        let dir = scratch("tournament", &format!("resume-subset-{threads}"));
        std::fs::write(dir.join("config.toml"), RESOLVED).unwrap();
        std::fs::write(
            dir.join("games.csv"),
            format!("{}\n{}\n", lines[0], kept.join("\n")),
        )
        .unwrap();
        std::fs::write(dir.join("summary.csv"), "stale\n").unwrap();
        let mut cfg = toy_config(&dir, threads);
        cfg.resume = true;
        assert_eq!(play_toy(&cfg, RESOLVED).unwrap(), full_table);
        assert_same_files(&full, &dir);
    }
    // Without games.csv (killed before the first save), everything is played.
    let dir = scratch("tournament", "resume-no-games");
    std::fs::write(dir.join("config.toml"), RESOLVED).unwrap();
    let mut cfg = toy_config(&dir, 2);
    cfg.resume = true;
    play_toy(&cfg, RESOLVED).unwrap();
    assert_same_files(&full, &dir);
}

/// A Nim agent that calls `on_new_game` before each game (and otherwise plays as `inner`).
struct Watched {
    inner: Box<dyn playstyles::agent::Agent<Nim>>,
    on_new_game: std::sync::Arc<dyn Fn() + Send + Sync>,
}

impl playstyles::agent::Agent<Nim> for Watched {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn act(
        &mut self,
        game: &Nim,
        state: &<Nim as playstyles::game::Game>::State,
        rng: &mut playstyles::rng::Rng,
    ) -> playstyles::Result<<Nim as playstyles::game::Game>::Action> {
        self.inner.act(game, state, rng)
    }

    fn new_game(&mut self) {
        (self.on_new_game)();
        self.inner.new_game();
    }
}

#[test]
fn a_killed_tournament_loses_fewer_than_save_every_finished_games() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    let dir = scratch("tournament", "save-every");
    // 2 pairings x 2 levels x 15 repetitions = 60 games.
    let mut cfg = toy_config(&dir, 1);
    cfg.spec.repetitions = 15;
    // (games finished, games in games.csv) as each game starts.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let starts = Arc::new(AtomicUsize::new(0));
    let on_new_game: Arc<dyn Fn() + Send + Sync> = {
        let (seen, starts, games) = (seen.clone(), starts.clone(), dir.join("games.csv"));
        Arc::new(move || {
            // Two agents per game; on one thread every game before this one has finished.
            let calls = starts.fetch_add(1, Ordering::SeqCst);
            if calls % 2 == 0 {
                let saved = std::fs::read_to_string(&games)
                    .map_or(0, |t| t.lines().count().saturating_sub(1));
                seen.lock().unwrap().push((calls / 2, saved));
            }
        })
    };
    let build =
        |spec: &str, _: &Path| -> playstyles::Result<Box<dyn playstyles::agent::Agent<Nim>>> {
            Ok(Box::new(Watched {
                inner: build_agent(&Nim::new(), spec)?,
                on_new_game: on_new_game.clone(),
            }))
        };
    tournament(
        &Nim::new(),
        nim_levels(),
        build,
        &cfg,
        &as_written(&cfg, RESOLVED),
        NO_COLUMNS,
        &mut Vec::new(),
    )
    .unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 60);
    for &(finished, saved) in seen.iter() {
        assert!(
            saved <= finished && finished - saved < SAVE_EVERY,
            "{seen:?}"
        );
    }
    // Saved inside the first pairing, not only at its end.
    assert!(seen.iter().any(|&(f, s)| f < 30 && s > 0), "{seen:?}");
    assert_eq!(read(&dir.join("games.csv")).lines().count(), 61);
}

#[test]
fn resume_with_another_config_names_resume_and_with_nothing_to_resume_starts() {
    let (full, _) = reference("resume-other-config");
    let mut cfg = toy_config(&full, 1);
    cfg.resume = true;
    let before = read(&full.join("games.csv"));
    let e = play_toy(&cfg, "# another config\n").unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "resume" && reason.contains("differs")),
        "{e}"
    );
    assert_eq!(read(&full.join("games.csv")), before);

    // Nothing to resume: the tournament starts (a requeued job always passes --resume), and
    // ends as one started without it.
    let empty = scratch("tournament", "resume-empty");
    for out in [empty.clone(), empty.join("no/such/folder")] {
        let mut cfg = toy_config(&out, 1);
        cfg.resume = true;
        play_toy(&cfg, RESOLVED).unwrap();
        assert_eq!(
            read(&out.join("games.csv")),
            read(&full.join("games.csv")),
            "{}",
            out.display()
        );
    }
}

#[test]
fn a_corrupted_games_csv_names_the_line_and_column() {
    let (full, _) = reference("corrupt-reference");
    let games = read(&full.join("games.csv"));
    let header: Vec<&str> = games.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|&h| h == name).unwrap();
    // Edits a cell of line `line` (1-based, the header is line 1).
    let edit = |line: usize, column: &str, value: &str| -> String {
        let mut lines: Vec<String> = games.lines().map(String::from).collect();
        let mut cells: Vec<String> = lines[line - 1].split(',').map(String::from).collect();
        cells[col(column)] = value.to_string();
        lines[line - 1] = cells.join(",");
        lines.join("\n") + "\n"
    };
    let second_row = games.lines().nth(1).unwrap();
    let cases: Vec<(String, &str, &str)> = vec![
        (
            edit(3, "score_0", "lots"),
            "line 3: column `score_0`",
            "lots",
        ),
        (edit(4, "ticks", "-2"), "line 4: column `ticks`", "-2"),
        (
            edit(5, "pairing", "nobody-vs-nobody"),
            "line 5: column `pairing`",
            "nobody-vs-nobody",
        ),
        (edit(6, "seed", "12345"), "line 6: column `seed`", "12345"),
        (edit(7, "game", "6"), "line 7: column `game`", "6 games"),
        (
            edit(8, "level", "standard"),
            "line 8: column `level`",
            "on level `small`",
        ),
        (
            edit(9, "repetition", "0"),
            "line 9: column `repetition`",
            "repetition",
        ),
        (
            edit(10, "seat_0", "1"),
            "line 10: column `seat_0`",
            "sits in seat 0",
        ),
        (
            format!("{games}{second_row}\n"),
            "line 14: column `game`",
            "first on line 2",
        ),
        (
            games.replacen("winner", "champion", 1),
            "line 1",
            "not the header",
        ),
        (games.replacen(second_row, "a,b", 1), "line 2", "cells"),
    ];
    for (i, (text, place, detail)) in cases.into_iter().enumerate() {
        let dir = scratch("tournament", &format!("corrupt-{i}"));
        std::fs::copy(full.join("config.toml"), dir.join("config.toml")).unwrap();
        std::fs::write(dir.join("games.csv"), &text).unwrap();
        let mut cfg = toy_config(&dir, 1);
        cfg.resume = true;
        let e = play_toy(&cfg, RESOLVED).unwrap_err().to_string();
        assert!(
            e.contains("games.csv: ") && e.contains(place) && e.contains(detail),
            "case {i} ({place}): {e}"
        );
        // Nothing is played or rewritten.
        assert_eq!(read(&dir.join("games.csv")), text);
        assert!(!dir.join("summary.csv").exists());
    }
}

#[test]
fn the_binary_resumes_a_stopped_smoke_tournament() {
    let dir = scratch("tournament", "binary-resume");
    let config = smoke_config();
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["tournament", &config, "--quiet", "--out", out];
        args.extend_from_slice(extra);
        playstyles(&args, &dir)
    };
    let full = run("full", &["--threads", "1"]);
    assert!(
        full.status.success(),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );

    let stopped = run("stopped", &["--threads", "2", "--stop-after-games", "1"]);
    assert!(stopped.status.success());
    assert!(String::from_utf8_lossy(&stopped.stdout).contains("continue with --resume"));
    // Without --resume the folder is refused, and the message says how to continue.
    let again = run("stopped", &[]);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("--force") && err.contains("--resume"), "{err}");
    let resumed = run("stopped", &["--threads", "2", "--resume"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(resumed.stdout, full.stdout);
    assert_same_files(&dir.join("full"), &dir.join("stopped"));

    // Another config: nothing is resumed; an empty folder: the tournament starts.
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        read(Path::new(&config)).replace("seed = 1", "seed = 2"),
    )
    .unwrap();
    let o = playstyles(
        &[
            "tournament",
            other.to_str().unwrap(),
            "--quiet",
            "--out",
            "full",
            "--resume",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: invalid `resume`") && err.contains("differs"),
        "{err}"
    );
    let o = run("empty", &["--resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("nothing to resume in "),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Resume and force exclude each other.
    let o = run("full", &["--resume", "--force"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Runs `plot DIR` and returns its standard output, or its standard error if it fails with
/// code 2.
fn plot(dir: &Path) -> std::result::Result<String, String> {
    let o = playstyles(&["plot", dir.to_str().unwrap()], Path::new("."));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match o.status.code() {
        Some(0) => Ok(text(&o.stdout)),
        Some(2) => Err(text(&o.stderr)),
        code => panic!("plot exited with {code:?}: {}", text(&o.stderr)),
    }
}

/// The height of a PNG image (from its IHDR chunk); panics if `path` is no PNG.
fn png_height(path: &Path) -> u32 {
    let bytes = std::fs::read(path).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{}",
        path.display()
    );
    u32::from_be_bytes(bytes[20..24].try_into().unwrap())
}

/// A `summary.csv` as a tournament wrote it before the side columns, one row per (pairing,
/// wins of 40 games): `plot` reads old files too.
fn summary_csv(rows: &[(&str, u32)]) -> String {
    let header = summary_header(&[]);
    let old = header.iter().position(|h| h == "mean_rank").unwrap() + 1;
    let mut text = header[..old].join(",") + "\n";
    for (name, wins) in rows {
        let (lo, hi) = playstyles::stats::wilson_interval(u64::from(*wins), 40, 1.96);
        let rate = f64::from(*wins) / 40.0;
        text += &format!("{name},pmcts,mcts,40,{wins},0,{rate},{lo},{hi},3000,1.4\n");
    }
    text
}

#[test]
fn plot_draws_a_tournament_summary_one_row_per_pairing() {
    let dir = scratch("tournament", "plot");
    run_toy(&dir, 1).unwrap();
    let out = plot(&dir).unwrap();
    assert!(
        out.contains("summary.png") && out.contains("summary.svg"),
        "{out}"
    );
    let small = png_height(&dir.join("summary.png"));
    let svg = read(&dir.join("summary.svg"));
    assert!(svg.starts_with("<svg"), "{svg:.80}");
    for name in ["random-vs-random", "random-vs-end_turn"] {
        assert!(svg.contains(name), "{name} missing from the SVG");
    }

    // A sweep of 15 settings: every name drawn, the picture taller by a row per pairing.
    let sweep = scratch("tournament", "plot-sweep");
    let names: Vec<String> = ["default".to_string()]
        .into_iter()
        .chain((1..8).map(|i| format!("t_mult={}", f64::from(i) / 4.0)))
        .chain((1..8).map(|i| format!("b={}", 1.0 + f64::from(i) / 5.0)))
        .collect();
    let rows: Vec<(&str, u32)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), 5 + 2 * i as u32))
        .collect();
    std::fs::write(sweep.join("summary.csv"), summary_csv(&rows)).unwrap();
    plot(&sweep).unwrap();
    let svg = read(&sweep.join("summary.svg"));
    for name in &names {
        assert!(svg.contains(name.as_str()), "{name} missing from the SVG");
    }
    assert!(png_height(&sweep.join("summary.png")) >= small + 13 * 20);
}

#[test]
fn control_characters_in_a_pairing_name_are_refused_or_shown_never_sent_raw() {
    let dir = scratch("tournament", "control-names");
    // In a tournament config: refused, naming the field, the name shown escaped.
    let config = dir.join("t.toml");
    std::fs::write(
        &config,
        TOY.replace("random-vs-end_turn", "a\\u0000b\\u001b[31mred"),
    )
    .unwrap();
    let o = playstyles(
        &["tournament", config.to_str().unwrap(), "--out", "out"],
        &dir,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("pairing[1].name") && err.contains("a\\u{0}b\\u{1b}[31mred"),
        "{err}"
    );
    assert!(
        !err.contains(['\0', '\u{1b}']),
        "raw control characters: {err:?}"
    );
    // In a summary.csv (edited, or older): plotted with the characters written visibly, so
    // summary.svg stays well-formed XML.
    let summary = summary_csv(&[("a\u{0}b\u{1b}[31mred", 20), ("plain", 30)]);
    std::fs::write(dir.join("summary.csv"), summary).unwrap();
    plot(&dir).unwrap();
    let svg = read(&dir.join("summary.svg"));
    assert!(svg.contains("a\\u{0}b\\u{1b}[31mred"), "the name shown");
    assert!(
        !svg.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t')),
        "XML 1.0 forbids other control characters"
    );
}

#[test]
fn plot_names_a_bad_or_truncated_summary_csv_and_its_line() {
    let dir = scratch("tournament", "plot-bad");
    let good = summary_csv(&[("default", 20), ("b=1.6", 30)]);
    let path = dir.join("summary.csv");
    let cases = [
        // The last row cut mid-way, as a killed copy leaves it.
        (good[..good.len() - 20].to_string(), "line 3"),
        (
            good.replace(
                "default,pmcts,mcts,40,20,0,0.5",
                "default,pmcts,mcts,40,20,0,x",
            ),
            "line 2",
        ),
        (
            good.replace(
                "b=1.6,pmcts,mcts,40,30,0,0.75",
                "b=1.6,pmcts,mcts,40,30,0,0.01",
            ),
            "line 3",
        ),
        (good.replace("win_rate_lo", "lo"), "win_rate_lo"),
        (summary_header(&[]).join(",") + "\n", "no pairing"),
    ];
    for (text, expected) in cases {
        std::fs::write(&path, &text).unwrap();
        let err = plot(&dir).unwrap_err();
        assert!(
            err.contains("summary.csv") && err.contains(expected),
            "{expected}: {err}"
        );
    }
    assert!(!dir.join("summary.png").exists());
    std::fs::remove_file(&path).unwrap();
    let err = plot(&dir).unwrap_err();
    assert!(
        err.contains("archive.csv") && err.contains("summary.csv"),
        "{err}"
    );
}

/// A four-player Puerto Rico tournament config, good as it stands.
const PUERTO_RICO: &str = r#"
game = "puerto-rico"
seed = 1
levels = ["4p"]
repetitions = 1

[[pairing]]
name = "thinking-vs-sa0"
agents = ["thinking(budget=250)", "thinking(budget=250)", "sa0", "sa0"]
"#;

#[test]
fn the_binary_names_the_field_of_a_bad_puerto_rico_config() {
    let dir = scratch("tournament", "bad-puerto-rico");
    let rules = |r: &str| format!("repetitions = 1\n\n[rules]\n{r}");
    // (text replaced in PUERTO_RICO, its replacement, the field the error must name, a word of
    // the reason)
    let cases = [
        ("[\"4p\"]", "[\"6p\"]".to_string(), "levels", "6p"),
        ("[\"4p\"]", "[\"1p\"]".to_string(), "levels", "1p"),
        ("[\"4p\"]", "[\"four\"]".to_string(), "levels", "four"),
        (
            "[\"4p\"]",
            "[\"2p\"]".to_string(),
            "pairing[0].agents",
            "4 agents",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"thinkin\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "thinkin",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"thinking(budget=0)\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "budget",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"sa0(weights=[role.x=1])\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "role.x",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"sa0(weights=[role.settler=-1])\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "role.settler",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"pmcts(budget=0)\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "budget",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"persona(style=-1)\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "style",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"persona(floor=2)\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "floor",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"thinking(own_rollouts=2)\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "own_rollouts",
        ),
        (
            "\"sa0\", \"sa0\"",
            "\"persona(weights=[role.nobody=1])\", \"sa0\"".to_string(),
            "pairing[0].agents",
            "role.nobody",
        ),
        (
            "repetitions = 1",
            rules("vp_chips_5p = 123"),
            "rules.vp_chips_5p",
            "123",
        ),
        (
            "repetitions = 1",
            rules("vp_chips = 122"),
            "rules.vp_chips",
            "vp_chips",
        ),
    ];
    for (i, (from, to, field, word)) in cases.into_iter().enumerate() {
        assert!(PUERTO_RICO.contains(from), "{from}");
        let path = dir.join(format!("bad{i}.toml"));
        std::fs::write(&path, PUERTO_RICO.replacen(from, &to, 1)).unwrap();
        let o = playstyles(&["tournament", path.to_str().unwrap(), "--quiet"], &dir);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{to}: {err}");
        assert!(
            err.starts_with(&format!("error: invalid `{field}`")) && err.contains(word),
            "{to}: {err}"
        );
        assert!(!err.contains("panicked"), "{to}: {err}");
        assert!(!dir.join("results").exists(), "{to}: results written");
    }
}

#[test]
fn the_puerto_rico_thinking_config_plays_the_paper_protocol() {
    let text =
        read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/puerto-rico-thinking.toml"));
    let spec = TournamentSpec::parse(&text).unwrap();
    assert_eq!(spec.game, "puerto-rico".parse::<GameKind>().unwrap());
    assert_eq!(spec.levels, LevelSet::List(vec!["4p".into()]));
    assert_eq!(spec.repetitions, 100);
    let pairings: Vec<Vec<String>> = spec.pairings.iter().map(|p| p.specs()).collect();
    // Every pairing: two of one agent, then two SA-0.
    for p in &pairings {
        assert_eq!(p.len(), 4, "{p:?}");
        assert_eq!(p[0], p[1], "{p:?}");
        assert_eq!(p[2..], ["sa0", "sa0"], "{p:?}");
    }
    let thinking: Vec<&str> = pairings
        .iter()
        .map(|p| p[0].as_str())
        .filter(|a| a.starts_with("thinking"))
        .collect();
    assert_eq!(
        thinking,
        [250, 6000, 12000, 25000].map(|b| format!("thinking(budget={b})"))
    );
    assert!(pairings.iter().any(|p| p[0].starts_with("mcts(")));
    assert!(
        pairings
            .iter()
            .any(|p| p[0].starts_with("pmcts(") && p[0].contains("bias=true"))
    );
}

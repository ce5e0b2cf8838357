//! `roster` on a tiny Puerto Rico run (SA-0 games, under a millisecond each): the same files
//! for any thread count and after a stop and `--resume`; `--resume` of a finished roster is
//! nothing to do; `--count auto` keeps the size its rule says; members play by name through
//! `play` and `tournament`; `report` shows the roster; bad flags, names and files are named.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use playstyles::experiments::roster::{
    ROSTER_CONFUSION_CSV, ROSTER_DONE, ROSTER_GAMES_CSV, ROSTER_JOURNAL, ROSTER_PNG,
    ROSTER_SIZES_CSV, ROSTER_SVG, ROSTER_TOML, RosterFile,
};

use crate::kill_resume::RUN;
use crate::support::cli::{
    path_arg, playstyles, playstyles_in, read_bytes, read_text, scratch, stderr, succeeded,
};

/// The files a finished roster leaves.
const FILES: [&str; 7] = [
    ROSTER_TOML,
    ROSTER_CONFUSION_CSV,
    ROSTER_SIZES_CSV,
    ROSTER_GAMES_CSV,
    ROSTER_PNG,
    ROSTER_SVG,
    ROSTER_DONE,
];

/// The roster's flags: four members of the tiny run (its elites played one game each, so the
/// floor is 0), 4 training and 6 test games each, on two held-out levels.
const FLAGS: [&str; 10] = [
    "--count",
    "4",
    "--floor",
    "0",
    "--train-games",
    "4",
    "--test-games",
    "6",
    "--levels",
    "3p,5p",
];

/// A finished tiny Puerto Rico run, made once ([`RUN`], the crash harness's).
fn run() -> &'static Path {
    static RUN_DIR: OnceLock<PathBuf> = OnceLock::new();
    RUN_DIR.get_or_init(|| {
        let dir = scratch("roster", "fixture");
        std::fs::write(dir.join("run.toml"), RUN).unwrap();
        succeeded(
            playstyles_in(&["evolve", "run.toml", "--out", "run", "--quiet"], &dir),
            "evolve",
        );
        dir.join("run")
    })
}

/// A copy of the fixture's run in the folder `roster/<name>/run`.
fn copy_run(name: &str) -> PathBuf {
    let to = scratch("roster", name).join("run");
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(run()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    to
}

/// Runs `roster DIR` with `extra` flags.
fn roster(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["roster", path_arg(dir), "--quiet"];
    args.extend_from_slice(extra);
    playstyles(&args)
}

#[test]
fn a_roster_is_the_same_for_any_thread_count_and_after_a_stop_and_resume() {
    let one = copy_run("threads-1");
    let two = copy_run("threads-2");
    let stopped = copy_run("stopped");
    let with = |threads: &'static str| [&FLAGS[..], &["--threads", threads]].concat();
    let out = succeeded(roster(&one, &with("1")), "roster");
    assert!(out.contains("playing 4 of them"), "{out}");
    succeeded(roster(&two, &with("2")), "roster");
    let mut stop = with("2");
    stop.extend(["--stop-after-members", "1"]);
    let o = roster(&stopped, &stop);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stopped.join(ROSTER_JOURNAL).is_file());
    assert!(
        !stopped.join(ROSTER_TOML).exists(),
        "nothing written before the end"
    );
    let resumed = succeeded(
        roster(&stopped, &[with("1"), vec!["--resume"]].concat()),
        "resume",
    );
    assert!(
        resumed.contains("resuming: 1 of 4 members already played"),
        "{resumed}"
    );
    for f in FILES {
        let a = read_bytes(&one.join(f));
        assert_eq!(a, read_bytes(&two.join(f)), "{f}: 1 and 2 threads");
        assert_eq!(a, read_bytes(&stopped.join(f)), "{f}: stopped and resumed");
    }
    assert!(
        !stopped.join(ROSTER_JOURNAL).exists(),
        "the journal is deleted at the end"
    );
    // Finished: --resume has nothing to do and writes nothing; without --force, refused.
    let before = read_bytes(&one.join(ROSTER_TOML));
    let again = succeeded(
        roster(&one, &[with("1"), vec!["--resume"]].concat()),
        "again",
    );
    assert!(again.contains("nothing to do"), "{again}");
    assert_eq!(read_bytes(&one.join(ROSTER_TOML)), before);
    let o = roster(&one, &with("1"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    // Another setting with --resume is named.
    let o = roster(
        &one,
        &[with("1"), vec!["--resume", "--target", "0.5"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--target"), "{}", stderr(&o));
    // --force makes it again, the same.
    succeeded(
        roster(&one, &[with("1"), vec!["--force"]].concat()),
        "force",
    );
    assert_eq!(read_bytes(&one.join(ROSTER_TOML)), before);

    // The files say what the docs say.
    let file: RosterFile = toml::from_str(&read_text(&one.join(ROSTER_TOML))).unwrap();
    assert_eq!((file.count, file.member.len()), (4, 4));
    assert_eq!(file.chance, 0.25);
    assert_eq!(file.settings.test_levels, ["3p", "5p"]);
    assert_eq!(
        (file.settings.train_games, file.settings.test_games),
        (4, 6)
    );
    let names: Vec<&str> = file.member.iter().map(|m| m.name.as_str()).collect();
    for m in &file.member {
        assert_eq!(m.named_as.iter().sum::<u32>(), 6);
        assert_eq!(
            f64::from(m.named_as[names.iter().position(|n| *n == m.name).unwrap()]) / 6.0,
            m.accuracy_1
        );
        assert!(
            (3..=5).contains(&m.style.len()) || m.style.len() < 3,
            "{:?}",
            m.style
        );
    }
    let mean = file.member.iter().map(|m| m.accuracy_1).sum::<f64>() / 4.0;
    assert!((mean - file.accuracy_1).abs() < 1e-12);
    let games = read_text(&one.join(ROSTER_GAMES_CSV));
    // 4 members × (4 + 6) games, and a header.
    assert_eq!(games.lines().count(), 41);
    assert!(
        games
            .lines()
            .next()
            .unwrap()
            .contains(",shipping_pct,builder_pct,")
    );
    let confusion = read_text(&one.join(ROSTER_CONFUSION_CSV));
    assert_eq!(
        confusion.lines().next().unwrap(),
        format!("member,{},games", names.join(","))
    );
}

#[test]
fn auto_keeps_the_largest_roster_that_reaches_the_target_else_the_most_accurate() {
    for (name, target) in [("auto-low", "0.01"), ("auto-high", "1")] {
        let dir = copy_run(name);
        let mut flags = FLAGS.to_vec();
        flags[1] = "auto:4";
        flags.extend(["--target", target]);
        let out = succeeded(roster(&dir, &flags), "roster auto");
        let sizes = read_text(&dir.join(ROSTER_SIZES_CSV));
        let rows: Vec<(usize, f64, bool)> = sizes
            .lines()
            .skip(1)
            .map(|l| {
                let c: Vec<&str> = l.split(',').collect();
                (c[0].parse().unwrap(), c[1].parse().unwrap(), c[5] == "true")
            })
            .collect();
        assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [2, 3, 4]);
        let t: f64 = target.parse().unwrap();
        let expected = match rows.iter().rev().find(|r| r.1 >= t) {
            Some(r) => r.0,
            None => {
                assert!(out.contains("no roster of 2 to 4 members reaches"), "{out}");
                rows.iter()
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
                    .unwrap()
                    .0
            }
        };
        let chosen: Vec<usize> = rows.iter().filter(|r| r.2).map(|r| r.0).collect();
        assert_eq!(chosen, [expected], "{name}");
        let file: RosterFile = toml::from_str(&read_text(&dir.join(ROSTER_TOML))).unwrap();
        assert_eq!(file.count, expected);
        if name == "auto-low" {
            assert_eq!(expected, 4, "every size reaches 1 %");
        }
    }
}

#[test]
fn members_play_by_name_in_play_and_tournament_and_show_in_the_report() {
    let dir = copy_run("members");
    succeeded(roster(&dir, &FLAGS), "roster");
    let file: RosterFile = toml::from_str(&read_text(&dir.join(ROSTER_TOML))).unwrap();
    let m = &file.member[1];
    let by_name = format!(
        "roster(file={}/roster.toml,name={})",
        path_arg(&dir),
        m.name
    );
    let play = |first: &str| {
        let agents = format!("{first},sa0,sa0,sa0");
        succeeded(
            playstyles(&[
                "play",
                "--game",
                "puerto-rico",
                "--level",
                "4p",
                "--agents",
                &agents,
                "--seed",
                "5",
                "--json",
            ]),
            "play",
        )
    };
    assert_eq!(
        play(&by_name),
        play(&m.spec),
        "the member plays as its spec"
    );
    // A tournament of the member by name and by spec: the same games.
    let base = dir.parent().unwrap();
    for (out, first) in [("t-name", by_name.as_str()), ("t-spec", m.spec.as_str())] {
        let config = format!(
            "game = \"puerto-rico\"\nseed = 5\nlevels = [\"4p\"]\nrepetitions = 4\n\n\
             [[pairing]]\nname = \"member\"\nagents = [\"{first}\", \"sa0\", \"sa0\", \"sa0\"]\n"
        );
        std::fs::write(base.join(format!("{out}.toml")), config).unwrap();
        succeeded(
            playstyles_in(
                &[
                    "tournament",
                    &format!("{out}.toml"),
                    "--out",
                    out,
                    "--quiet",
                ],
                base,
            ),
            "tournament",
        );
    }
    let scores = |out: &str| read_text(&base.join(out).join("games.csv"));
    assert_eq!(scores("t-name"), scores("t-spec"));
    // The tournament keeps a copy of the roster file it read.
    assert!(
        walk(&base.join("t-name"))
            .iter()
            .any(|p| p.ends_with("roster.toml")),
        "the roster file is kept"
    );
    // An unknown member is named, with the members.
    let o = playstyles(&[
        "play",
        "--game",
        "puerto-rico",
        "--level",
        "4p",
        "--agents",
        &format!(
            "roster(file={}/roster.toml,name=nobody),sa0,sa0,sa0",
            path_arg(&dir)
        ),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`name`") && stderr(&o).contains(&m.name),
        "{}",
        stderr(&o)
    );
    // The report shows the roster, each member with the spec that plays it.
    succeeded(
        playstyles(&["report", path_arg(&dir), "--no-replays", "--threads", "1"]),
        "report",
    );
    let html = read_text(&dir.join("report.html"));
    assert!(html.contains("<h2>Roster</h2>"));
    for m in &file.member {
        assert!(html.contains(&format!("name={}", m.name)), "{}", m.name);
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn bad_flags_and_impossible_rosters_exit_2_naming_the_flag() {
    let dir = copy_run("errors");
    let d = path_arg(&dir);
    for (args, flag) in [
        (vec!["--count", "1"], "--count"),
        (vec!["--count", "auto:0"], "--count"),
        (vec!["--count", "65"], "--count"),
        (vec!["--target", "2"], "--target"),
        (vec!["--floor=-1"], "--floor"),
        (vec!["--test-games", "2"], "--test-games"),
        (vec!["--train-games", "0"], "--train-games"),
        (vec!["--train-games", "300000"], "--train-games"),
        (vec!["--levels", "5,,6"], "--levels"),
        (vec!["--levels", "nowhere"], "--levels"),
        (vec!["--threads", "0"], "--threads"),
        // Impossible: more members than candidates; a floor nobody clears.
        (vec!["--floor", "0", "--count", "60"], "--count"),
        (vec!["--floor", "1"], "--floor"),
    ] {
        let mut all = vec!["roster", d, "--quiet"];
        all.extend(args.iter().copied());
        let o = playstyles(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{args:?}: {}", stderr(&o));
        assert!(!dir.join(ROSTER_TOML).exists() && !dir.join(ROSTER_JOURNAL).exists());
    }
    // A bad flag is named even for a bad run directory.
    let o = playstyles(&["roster", "/no/such/run", "--count", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--count"), "{}", stderr(&o));
}

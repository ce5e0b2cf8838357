//! Every input bounded (issue 27): a FIFO, device or directory given as any input file is an
//! error naming it, not a hang.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::cli::{path_arg, playstyles_within, scratch, stderr};

/// How long a refused input may take: it is refused at once (a FIFO used to block forever, a
/// huge count to abort or to run until killed); generous for a loaded machine.
const LIMIT: Duration = Duration::from_secs(60);

/// A small Puerto Rico run (SA-0 games take about a millisecond).
const RUN: &str = r#"
game = "puerto-rico"
batch_size = 4
[evaluation]
levels = ["4p"]
player = "sa0"
baseline = "sa0"
repetitions = 2
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
[map_elites]
random_init = 4
iterations = 8
"#;

/// The standard error of `playstyles args`, which must exit with code 2 within [`LIMIT`].
fn refused(args: &[&str]) -> String {
    let o = playstyles_within(args, LIMIT);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    err
}

/// A file `name` in `dir` holding `text`.
fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_as_any_input_file_is_an_error_naming_it_not_a_hang() {
    let dir = scratch("bounds", "fifo");
    let fifo = dir.join("input.fifo");
    mkfifo(&fifo);
    let f = path_arg(&fifo);
    // A run directory whose archive.csv is a FIFO.
    let run = dir.join("run");
    std::fs::create_dir(&run).unwrap();
    file(&run, "config.toml", RUN);
    mkfifo(&run.join("archive.csv"));
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let bot = format!("ExpertAI(config={f}),Playout");
    let (evolved, asked, played) = (out("evolved"), out("asked"), out("played"));
    let cases: [(&[&str], &str); 9] = [
        (&["evolve", f, "--out", &evolved], f),
        (&["ask", "--config", f, &asked], f),
        (&["play", "--level", f, "--agents", "random,random"], f),
        (&["work", f], f),
        (&["tournament", f, "--out", &played], f),
        (
            &[
                "play", "--game", "prismata", "--level", "1", "--agents", &bot,
            ],
            f,
        ),
        (&["plot", path_arg(&run)], "archive.csv"),
        (&["tiers", path_arg(&run)], "archive.csv"),
        (&["report", path_arg(&run)], "archive.csv"),
    ];
    for (args, named) in cases {
        let err = refused(args);
        assert!(
            err.contains(named) && err.contains("not a regular file (a FIFO)"),
            "{args:?}: {err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_endless_bot_file_is_refused_before_it_is_read() {
    let err = refused(&[
        "play",
        "--game",
        "prismata",
        "--level",
        "1",
        "--agents",
        "ExpertAI(config=/dev/zero),Playout",
    ]);
    assert!(
        err.starts_with("error: /dev/zero: not a regular file (a character device)"),
        "{err}"
    );
}

#[test]
fn a_directory_as_a_config_is_an_error_naming_it() {
    let dir = scratch("bounds", "directory");
    let err = refused(&["evolve", path_arg(&dir), "--out", path_arg(&dir.join("r"))]);
    assert!(err.contains("not a regular file (a directory)"), "{err}");
}

//! Learned evaluation through the command line, at CI scale: a tiny Prismata dataset (Easy
//! bots, 12 games) made, stopped and resumed to the same bytes whatever the threads; a tiny
//! model trained twice to the same bytes with its tables; the model played by the searches
//! (`AB_Learned`, `UCT_Learned`); a Puerto Rico dataset of every seat's view whose model the
//! generic searches play (`mcts(model=…)` and the others) and another game's searches refuse;
//! and every truncated, mismatched or foreign file, and every bad flag, exiting with code 2
//! naming it. A dataset owns its outputs: `--force` replaces only a dataset and its parts, a
//! part of another config or of other games is named rather than joined, a dataset keeping a
//! share of its positions finishes and resumes, and `--resume` of a finished one has nothing
//! to do. So does `train`: a held-out dataset of the training games, or without decided
//! games, is named; a diverging `--rate` writes nothing; a `train` stopped after any write is
//! finished by running it again, and replaces tables it did not write only with `--force`.
//! A model named in a Prismata bot file is kept with the tournament that plays it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use playstyles::files::EXIT_AFTER_WRITES;

use crate::support::cli::{
    path_arg, playstyles, playstyles_in, read_bytes, read_text, scratch, stderr, succeeded,
};

const CONFIG: &str = r#"
game = "prismata"
seed = 4
games = 12
agents = ["EasyAI", "EasyAI"]
[rules]
open_engine = true
"#;

/// Writes the config into a fresh scratch folder and returns (folder, config path).
fn setup(name: &str, config: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("learned", name);
    let path = dir.join("tiny.toml");
    std::fs::write(&path, config).unwrap();
    (dir, path)
}

fn make_dataset(config: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "dataset",
        path_arg(config),
        "--out",
        path_arg(out),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    succeeded(playstyles(&args), "dataset")
}

fn train(dataset: &Path, model: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "train",
        path_arg(dataset),
        "--out",
        path_arg(model),
        "--hidden",
        "16",
        "--second",
        "8",
        "--epochs",
        "3",
        "--test-fraction",
        "0.25",
    ];
    args.extend_from_slice(extra);
    succeeded(playstyles(&args), "train")
}

/// Exits with code 2 and an error that names `needle`.
fn fails_naming(args: &[&str], needle: &str) {
    let o = playstyles(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in {err}");
}

#[test]
fn a_dataset_is_the_same_whatever_the_threads_and_a_resume() {
    let (dir, config) = setup("dataset", &CONFIG.replace("games = 12", "games = 450"));
    let one = dir.join("one.dataset");
    let printed = make_dataset(&config, &one, &["--threads", "1"]);
    assert!(printed.contains("of 450 games"), "{printed}");
    let two = dir.join("two.dataset");
    let stopped = playstyles(&[
        "dataset",
        path_arg(&config),
        "--out",
        path_arg(&two),
        "--quiet",
        "--threads",
        "2",
        "--stop-after-chunks",
        "1",
    ]);
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    assert!(!two.exists(), "a stopped dataset writes only its chunks");
    fails_naming(
        &["dataset", path_arg(&config), "--out", path_arg(&two)],
        "--resume",
    );
    make_dataset(&config, &two, &["--threads", "2", "--resume"]);
    assert_eq!(read_bytes(&one), read_bytes(&two));
    fails_naming(
        &["dataset", path_arg(&config), "--out", path_arg(&two)],
        "--force",
    );
}

#[test]
fn a_model_is_trained_reproducibly_and_played_by_the_searches() {
    let (dir, config) = setup("train", CONFIG);
    let data = dir.join("tiny.dataset");
    make_dataset(&config, &data, &[]);
    let model = dir.join("m.safetensors");
    let printed = train(&data, &model, &[]);
    assert!(
        printed.contains("will_score") && printed.contains("playout"),
        "{printed}"
    );
    let first = read_bytes(&model);
    train(&data, &model, &["--force"]);
    assert_eq!(
        first,
        read_bytes(&model),
        "the same command writes the same bytes"
    );
    // Held out: the games of another seed.
    let (_, other_config) = setup("train-other", &CONFIG.replace("seed = 4", "seed = 5"));
    let other = dir.join("other.dataset");
    make_dataset(&other_config, &other, &[]);
    let again = dir.join("again").join("m.safetensors");
    train(&data, &again, &["--test", path_arg(&other)]);
    // Two datasets train together, their games kept apart.
    let twice = dir.join("twice").join("m.safetensors");
    let printed = train(&data, &twice, &[path_arg(&data)]);
    assert!(printed.contains("of 24 games"), "{printed}");
    let accuracy = read_text(&dir.join("m-accuracy.csv"));
    assert!(
        accuracy.starts_with("split,predictor,turns,positions,decided,accuracy,log_loss,brier\n")
    );
    for row in [
        "train,model,all,",
        "test,will_score,30+,",
        "test,playout,0-9,",
    ] {
        assert!(accuracy.contains(row), "{row} not in {accuracy}");
    }
    assert!(read_text(&dir.join("again").join("m-accuracy.csv")).contains("held-out,model,all,"));
    assert_eq!(read_text(&dir.join("m-training.csv")).lines().count(), 4);
    for f in ["m-accuracy.png", "m-accuracy.svg"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    fails_naming(
        &["train", path_arg(&data), "--out", path_arg(&model)],
        "--force",
    );
    // The searches read it.
    let m = path_arg(&model);
    for spec in [
        format!("AB_Learned(evaluations=6,model={m})"),
        format!("UCT_Learned(traversals=6,model={m})"),
        format!("AB_LearnedAhead(evaluations=6,model={m})"),
        format!("UCT_Learned(traversals=6,model={m},playout_turns=3)"),
        format!("UCT_LearnedSharp(traversals=6,model={m})"),
    ] {
        let agents = format!("{spec},MediumAI");
        let o = playstyles(&[
            "play", "--game", "prismata", "--level", "3", "--agents", &agents,
        ]);
        succeeded(o, &spec);
    }
}

#[test]
fn foreign_truncated_and_mismatched_files_and_bad_flags_exit_2_naming_them() {
    let (dir, config) = setup("errors", CONFIG);
    let data = dir.join("tiny.dataset");
    make_dataset(&config, &data, &[]);
    let model = dir.join("m.safetensors");
    train(&data, &model, &[]);
    let bytes = read_bytes(&data);
    let cut = dir.join("cut.dataset");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    fails_naming(
        &["train", path_arg(&cut), "--out", "x.safetensors"],
        "cut.dataset",
    );
    // A second dataset that cannot join the first is named.
    let bare = dir.join("bare.dataset");
    let (_, bare_config) = setup(
        "errors-bare",
        &CONFIG.replace("games = 12", "games = 12\npredictors = false"),
    );
    make_dataset(&bare_config, &bare, &[]);
    fails_naming(
        &[
            "train",
            path_arg(&data),
            path_arg(&bare),
            "--out",
            "x.safetensors",
        ],
        "bare.dataset",
    );
    let text = dir.join("text.dataset");
    std::fs::write(&text, "not a dataset").unwrap();
    fails_naming(
        &["train", path_arg(&text), "--out", "x.safetensors"],
        "not a playstyles dataset",
    );
    // A model cut short, a model that is a dataset, a missing model.
    let mbytes = read_bytes(&model);
    let short = dir.join("short.safetensors");
    std::fs::write(&short, &mbytes[..mbytes.len() / 2]).unwrap();
    for (file, needle) in [
        (path_arg(&short), "short.safetensors"),
        (path_arg(&data), "tiny.dataset"),
        ("missing.safetensors", "missing.safetensors"),
    ] {
        let agents = format!("AB_Learned(model={file}),MediumAI");
        fails_naming(
            &[
                "play", "--game", "prismata", "--level", "3", "--agents", &agents,
            ],
            needle,
        );
    }
    fails_naming(
        &[
            "play",
            "--game",
            "prismata",
            "--level",
            "3",
            "--agents",
            "AB_Learned,MediumAI",
        ],
        "model=FILE",
    );
    let m = format!("AB100(model={}),MediumAI", path_arg(&model));
    fails_naming(
        &["play", "--game", "prismata", "--level", "3", "--agents", &m],
        "model",
    );
    // Looking ahead: at most 50 turns, and only for a learned search.
    for agents in [
        format!(
            "AB_Learned(model={},playout_turns=51),MediumAI",
            path_arg(&model)
        ),
        "AB100(playout_turns=2),MediumAI".to_string(),
    ] {
        fails_naming(
            &[
                "play", "--game", "prismata", "--level", "3", "--agents", &agents,
            ],
            "playout_turns",
        );
    }
    for (flag, value) in [
        ("--hidden", "0"),
        ("--second", "5000"),
        ("--epochs", "0"),
        ("--rate", "0"),
        ("--test-fraction", "1"),
    ] {
        fails_naming(
            &[
                "train",
                path_arg(&data),
                "--out",
                "x.safetensors",
                flag,
                value,
            ],
            flag,
        );
    }
    for (bad, field) in [
        (CONFIG.replace("games = 12", "games = 0"), "games"),
        (
            CONFIG.replace("\"EasyAI\", \"EasyAI\"", "\"EasyAI\", \"nobody(\""),
            "agents[1]",
        ),
        (
            CONFIG.replace("\"EasyAI\", \"EasyAI\"", "\"EasyAI\""),
            "agents",
        ),
        (
            CONFIG.replace("seed = 4", "seed = 4\nlevels = \"all\""),
            "levels",
        ),
        (CONFIG.replace("seed = 4", "seed = 4\ncolour = 1"), "colour"),
        (CONFIG.replace("seed = 4", "seed = 4\nkeep = 0.0"), "keep"),
        (
            CONFIG.replace("seed = 4", "seed = 4\nsides = \"some\""),
            "sides",
        ),
    ] {
        let (d, c) = setup(&format!("bad-{field}"), &bad);
        let out = d.join("x.dataset");
        fails_naming(
            &["dataset", path_arg(&c), "--out", path_arg(&out), "--quiet"],
            field,
        );
    }
}

#[test]
fn the_generic_searches_read_a_model_of_their_own_game_only() {
    // Puerto Rico: every seat's view of each position, a tiny model, and MCTS, P-MCTS, RHEA and
    // OSLA valuing their leaves with it.
    let config = r#"
game = "puerto-rico"
seed = 9
games = 8
levels = ["3p"]
agents = ["sa0", "sa0", "sa0"]
sides = "all"
"#;
    let (dir, path) = setup("generic", config);
    let data = dir.join("pr.dataset");
    let printed = make_dataset(&path, &data, &[]);
    let model = dir.join("pr.safetensors");
    train(&data, &model, &[]);
    let m = path_arg(&model);
    for spec in [
        format!("mcts(budget=40,model={m})"),
        format!("pmcts(budget=40,model={m})"),
        format!("rhea(budget=40,model={m})"),
        format!("osla(budget=40,model={m})"),
    ] {
        let agents = format!("{spec},sa0,sa0");
        let o = playstyles(&[
            "play",
            "--game",
            "puerto-rico",
            "--level",
            "3p",
            "--agents",
            &agents,
        ]);
        succeeded(o, &spec);
    }
    // Each position once per seat: the seat count divides the positions.
    let positions: u64 = printed
        .split_whitespace()
        .find_map(|w| w.replace(',', "").parse().ok())
        .unwrap_or(0);
    assert!(positions > 0 && positions.is_multiple_of(3), "{printed}");
    // A Prismata model is refused by Puerto Rico's and Tribes' searches, naming the file and
    // the encodings.
    let (pdir, pconfig) = setup("generic-prismata", CONFIG);
    let pdata = pdir.join("p.dataset");
    make_dataset(&pconfig, &pdata, &[]);
    let pmodel = pdir.join("p.safetensors");
    train(&pdata, &pmodel, &[]);
    let play = |game: &str, level: &str, agents: &str, needle: &str| {
        fails_naming(
            &["play", "--game", game, "--level", level, "--agents", agents],
            needle,
        )
    };
    let agents = format!("mcts(budget=40,model={}),sa0,sa0", path_arg(&pmodel));
    play("puerto-rico", "3p", &agents, "p.safetensors");
    let agents = format!("mcts(budget=40,model={m}),mcts(budget=40)");
    play("tribes", "1", &agents, "puerto-rico-counts");
    play("puerto-rico", "3p", "mcts(model=3),sa0,sa0", "model");
}

/// A Puerto Rico dataset config of `games` games (its `sa0` games take under a millisecond),
/// with `extra` lines.
fn pr_config(games: u64, extra: &str) -> String {
    format!(
        "game = \"puerto-rico\"\nseed = 9\ngames = {games}\nlevels = [\"3p\"]\n\
         agents = [\"sa0\", \"sa0\", \"sa0\"]\n{extra}"
    )
}

/// Runs the binary with `args`, stopping it right after its `n`-th atomic write (exit code
/// 137, as a kill leaves it).
fn stopped_after_writes(args: &[&str], n: u64) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(args)
        .env(EXIT_AFTER_WRITES, n.to_string())
        .output()
        .expect("the binary runs")
}

/// A dataset file's header and where its records start.
fn dataset_header(bytes: &[u8]) -> (serde_json::Value, usize) {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    (
        serde_json::from_slice(&bytes[16..16 + len]).unwrap(),
        16 + len,
    )
}

/// A dataset file of `bytes`' magic and version, `header` and `records`.
fn dataset_file(bytes: &[u8], header: &serde_json::Value, records: &[u8]) -> Vec<u8> {
    let json = serde_json::to_vec(header).unwrap();
    let mut out = bytes[..12].to_vec();
    out.extend((json.len() as u32).to_le_bytes());
    out.extend(json);
    out.extend(records);
    out
}

/// Where each record of a dataset file's bytes starts (a record: game `u32`, turn `u16`,
/// label `u8`, `n` `u16`, one `f32` per predictor, `n` pairs of `u16`).
fn record_starts(bytes: &[u8]) -> Vec<usize> {
    let (header, mut at) = dataset_header(bytes);
    let k = header["predictors"].as_array().unwrap().len();
    let mut starts = Vec::new();
    while at < bytes.len() {
        starts.push(at);
        let n = u16::from_le_bytes([bytes[at + 7], bytes[at + 8]]) as usize;
        at += 9 + 4 * k + 4 * n;
    }
    starts
}

/// Every file under `dir` (hidden ones too), by path relative to it, with its bytes.
fn files_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.insert(rel, read_bytes(&path));
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn dataset_force_replaces_its_own_files_and_nothing_else() {
    let (dir, config) = setup("force", &pr_config(8, ""));
    fn run<'a>(config: &'a Path, out: &'a Path) -> Vec<&'a str> {
        let (config, out) = (path_arg(config), path_arg(out));
        vec!["dataset", config, "--out", out, "--quiet", "--force"]
    }
    // A folder at --out is refused, and nothing in it deleted.
    let folder = dir.join("folder");
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    std::fs::write(folder.join("sub/keep.txt"), "precious").unwrap();
    fails_naming(&run(&config, &folder), "--out");
    assert_eq!(read_text(&folder.join("sub/keep.txt")), "precious");
    // So is a file that is not a dataset.
    let notes = dir.join("notes.dataset");
    std::fs::write(&notes, "my notes").unwrap();
    fails_naming(&run(&config, &notes), "--out");
    assert_eq!(read_text(&notes), "my notes");
    // And a link, even to a dataset: the link and its target stay.
    let data = dir.join("d.dataset");
    make_dataset(&config, &data, &[]);
    let made = read_bytes(&data);
    #[cfg(unix)]
    {
        let link = dir.join("link.dataset");
        std::os::unix::fs::symlink(&data, &link).unwrap();
        fails_naming(&run(&config, &link), "--out");
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(read_bytes(&data), made);
    }
    // A parts folder holding a file that is not a part: named, and nothing deleted.
    let parts = dir.join("d.dataset.parts");
    std::fs::create_dir_all(&parts).unwrap();
    std::fs::write(parts.join("part-000000.dataset"), "a part").unwrap();
    std::fs::write(parts.join("mine.txt"), "precious").unwrap();
    fails_naming(&run(&config, &data), "mine.txt");
    assert_eq!(read_bytes(&data), made);
    assert_eq!(read_text(&parts.join("part-000000.dataset")), "a part");
    // Its own files only: replaced, the parts folder removed.
    std::fs::remove_file(parts.join("mine.txt")).unwrap();
    succeeded(playstyles(&run(&config, &data)), "dataset --force");
    assert_eq!(read_bytes(&data), made);
    assert!(!parts.exists(), "the parts folder is removed");
}

#[test]
fn a_dataset_joins_only_the_parts_of_its_own_config_and_games() {
    let (dir, config) = setup("parts", &pr_config(450, ""));
    let whole = dir.join("whole.dataset");
    make_dataset(&config, &whole, &[]);
    let out = dir.join("d.dataset");
    let parts = dir.join("d.dataset.parts");
    let stop = |config: &Path, out: &Path, chunks: &str| {
        let o = playstyles(&[
            "dataset",
            path_arg(config),
            "--out",
            path_arg(out),
            "--quiet",
            "--stop-after-chunks",
            chunks,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    stop(&config, &out, "1");
    let resume = [
        "dataset",
        path_arg(&config),
        "--out",
        path_arg(&out),
        "--quiet",
        "--resume",
    ];
    // The first chunk's part where the second's goes: this config's, other games.
    let second = parts.join("part-000001.dataset");
    std::fs::copy(parts.join("part-000000.dataset"), &second).unwrap();
    fails_naming(&resume, "part-000001.dataset");
    assert!(!out.exists());
    // A part of another seed's dataset in its place.
    let (other_dir, other) = setup(
        "parts-other",
        &pr_config(450, "").replace("seed = 9", "seed = 10"),
    );
    stop(&other, &other_dir.join("o.dataset"), "2");
    std::fs::copy(
        other_dir.join("o.dataset.parts/part-000001.dataset"),
        &second,
    )
    .unwrap();
    fails_naming(&resume, "part-000001.dataset");
    assert!(!out.exists());
    // Without the stray part, the resume ends as the whole.
    std::fs::remove_file(&second).unwrap();
    make_dataset(&config, &out, &["--resume"]);
    assert_eq!(read_bytes(&out), read_bytes(&whole));
    // A reader checks the records' games against the header's: the last game renumbered
    // past the header's 450 is named with the file.
    let bytes = read_bytes(&whole);
    let mut past = bytes.clone();
    let last = u32::from_le_bytes(
        bytes[*record_starts(&bytes).last().unwrap()..][..4]
            .try_into()
            .unwrap(),
    );
    assert_eq!(last, 449);
    for at in record_starts(&bytes) {
        if bytes[at..at + 4] == last.to_le_bytes() {
            past[at..at + 4].copy_from_slice(&999u32.to_le_bytes());
        }
    }
    let renumbered = dir.join("renumbered.dataset");
    std::fs::write(&renumbered, &past).unwrap();
    fails_naming(
        &[
            "train",
            path_arg(&renumbered),
            "--out",
            path_arg(&dir.join("m.safetensors")),
        ],
        "renumbered.dataset",
    );
}

#[test]
fn a_dataset_keeping_few_positions_finishes_and_resumes_to_the_same_file() {
    // About one position in two games: many games keep none.
    let (dir, config) = setup("keep", &pr_config(450, "keep = 0.005\n"));
    let one = dir.join("one.dataset");
    let printed = make_dataset(&config, &one, &[]);
    assert!(printed.contains("of 450 games"), "{printed}");
    let two = dir.join("two.dataset");
    let o = playstyles(&[
        "dataset",
        path_arg(&config),
        "--out",
        path_arg(&two),
        "--quiet",
        "--stop-after-chunks",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    make_dataset(&config, &two, &["--resume"]);
    assert_eq!(read_bytes(&one), read_bytes(&two));
}

#[test]
fn resuming_a_finished_dataset_is_nothing_to_do() {
    let (dir, config) = setup("finished", &pr_config(8, ""));
    let whole = dir.join("whole.dataset");
    make_dataset(&config, &whole, &[]);
    let printed = make_dataset(&config, &whole, &["--resume"]);
    assert!(printed.contains("nothing to do"), "{printed}");
    // Stopped between writing the file (the second write: its one part, then the file) and
    // removing the parts.
    let out = dir.join("d.dataset");
    let parts = dir.join("d.dataset.parts");
    let args = [
        "dataset",
        path_arg(&config),
        "--out",
        path_arg(&out),
        "--quiet",
    ];
    let o = stopped_after_writes(&args, 2);
    assert_eq!(o.status.code(), Some(137), "{}", stderr(&o));
    assert!(out.exists() && parts.exists());
    let printed = make_dataset(&config, &out, &["--resume"]);
    assert!(printed.contains("nothing to do"), "{printed}");
    assert!(!parts.exists(), "the leftover parts are removed");
    assert_eq!(read_bytes(&out), read_bytes(&whole));
    // The file of another config is named, and kept.
    let (_, other) = setup(
        "finished-other",
        &pr_config(8, "").replace("seed = 9", "seed = 10"),
    );
    fails_naming(
        &[
            "dataset",
            path_arg(&other),
            "--out",
            path_arg(&out),
            "--quiet",
            "--resume",
        ],
        "--out",
    );
    assert_eq!(read_bytes(&out), read_bytes(&whole));
}

/// `train` arguments for a tiny model of `data` at `model`, with `extra` flags.
fn tiny_train<'a>(data: &'a Path, model: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        path_arg(data),
        "--out",
        path_arg(model),
        "--hidden",
        "8",
        "--second",
        "4",
        "--epochs",
        "2",
        "--test-fraction",
        "0.3",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_held_out_dataset_must_hold_other_games_with_a_winner() {
    let (dir, config) = setup("held-out", &pr_config(60, ""));
    let data = dir.join("d.dataset");
    make_dataset(&config, &data, &[]);
    let model = dir.join("m.safetensors");
    // The training dataset itself, a copy, the same games fewer of them: named as `--test`.
    let copy = dir.join("copy.dataset");
    std::fs::copy(&data, &copy).unwrap();
    let (_, fewer_config) = setup("held-out-fewer", &pr_config(20, ""));
    let fewer = dir.join("fewer.dataset");
    make_dataset(&fewer_config, &fewer, &[]);
    for test in [&data, &copy, &fewer] {
        fails_naming(
            &tiny_train(&data, &model, &["--test", path_arg(test)]),
            "--test",
        );
    }
    // A dataset without positions, and one without a game won or lost.
    let bytes = read_bytes(&data);
    let (mut header, start) = dataset_header(&bytes);
    let mut draws = bytes.clone();
    for at in record_starts(&bytes) {
        draws[at + 6] = 1;
    }
    let drawn = dir.join("draws.dataset");
    std::fs::write(&drawn, &draws).unwrap();
    header["positions"] = 0.into();
    let empty = dir.join("empty.dataset");
    std::fs::write(&empty, dataset_file(&bytes, &header, &[])).unwrap();
    assert!(start < bytes.len());
    for test in [&empty, &drawn] {
        fails_naming(
            &tiny_train(&data, &model, &["--test", path_arg(test)]),
            "--test",
        );
    }
    // An empty training dataset is named.
    fails_naming(&tiny_train(&empty, &model, &[]), "empty.dataset");
    assert!(!model.exists());
    // Another seed's games are held out.
    let (_, other_config) = setup(
        "held-out-other",
        &pr_config(20, "").replace("seed = 9", "seed = 10"),
    );
    let other = dir.join("other.dataset");
    make_dataset(&other_config, &other, &[]);
    succeeded(
        playstyles(&tiny_train(&data, &model, &["--test", path_arg(&other)])),
        "train --test of other games",
    );
}

#[test]
fn a_diverging_training_stops_naming_the_rate_and_writes_nothing() {
    let (dir, config) = setup("diverge", &pr_config(60, ""));
    let data = dir.join("d.dataset");
    make_dataset(&config, &data, &[]);
    let before = files_in(&dir);
    let model = dir.join("models").join("m.safetensors");
    let o = playstyles(&tiny_train(&data, &model, &["--rate", "1e30"]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--rate") && err.contains("epoch 1"), "{err}");
    assert_eq!(files_in(&dir), before, "nothing written");
    assert!(!dir.join("models").exists(), "no folder made");
}

#[test]
fn an_interrupted_training_is_finished_by_running_it_again() {
    let (dir, config) = setup("interrupted", &pr_config(60, ""));
    let data = dir.join("d.dataset");
    make_dataset(&config, &data, &[]);
    let folder = dir.join("models");
    let model = folder.join("m.safetensors");
    let args = tiny_train(&data, &model, &[]);
    succeeded(playstyles(&args), "train");
    let whole = files_in(&folder);
    assert_eq!(
        whole.len(),
        5,
        "the model and its four tables: {:?}",
        whole.keys()
    );
    // The model names the dataset it was trained on by its config's fingerprint.
    let header = playstyles::learn::dataset::Dataset::read_header(&data).unwrap();
    let fingerprint = playstyles::experiments::tasks::config_hash(&header.config);
    assert!(
        String::from_utf8_lossy(&whole["m.safetensors"]).contains(&fingerprint),
        "the model's metadata holds {fingerprint}"
    );
    // Stopped after each of its writes, the same command again ends as the whole.
    let mut n = 1;
    loop {
        std::fs::remove_dir_all(&folder).unwrap();
        let o = stopped_after_writes(&args, n);
        if o.status.success() {
            break;
        }
        assert_eq!(o.status.code(), Some(137), "{}", stderr(&o));
        succeeded(playstyles(&args), &format!("train again after {n} writes"));
        assert_eq!(files_in(&folder), whole, "after {n} writes");
        n += 1;
    }
    assert!(n > 5, "{n} writes");
    // A finished model is not replaced without --force.
    fails_naming(&args, "--force");
    // Tables this command did not write are not replaced without --force, nor replaced by
    // it when they are not train's tables.
    std::fs::remove_dir_all(&folder).unwrap();
    std::fs::create_dir_all(&folder).unwrap();
    let accuracy = folder.join("m-accuracy.csv");
    std::fs::write(&accuracy, "my table\n").unwrap();
    fails_naming(&args, "m-accuracy.csv");
    let mut forced = args.clone();
    forced.push("--force");
    fails_naming(&forced, "m-accuracy.csv");
    assert_eq!(read_text(&accuracy), "my table\n");
    assert!(!model.exists());
    // An older table of train's is replaced with --force.
    std::fs::write(&accuracy, &whole["m-accuracy.csv"][..200]).unwrap();
    fails_naming(&args, "--force");
    succeeded(playstyles(&forced), "train --force");
    assert_eq!(files_in(&folder), whole);
}

#[test]
fn a_model_named_in_a_bot_file_is_kept_with_the_tournament() {
    let (dir, config) = setup("bot-model", CONFIG);
    let (start, elsewhere) = (dir.join("start"), dir.join("elsewhere"));
    std::fs::create_dir_all(start.join("bots")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let data = dir.join("tiny.dataset");
    make_dataset(&config, &data, &[]);
    let model = start.join("models").join("m.safetensors");
    train(&data, &model, &[]);
    let model_bytes = read_bytes(&model);
    // Two learned players: one names the model by its absolute path, one relative to the bot
    // file's folder.
    let bots = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/prismata/ai/bots.toml");
    let absolute = std::fs::canonicalize(&model).unwrap();
    let player = |name: &str, path: &str| {
        format!(
            "{name} = {{ type = \"Player_UCT\", traversals = 2, max_children = 40, \
             root_iterator = \"HardIterator_Root\", iterator = \"HardIterator\", \
             eval = \"Learned\", playout_player = \"Playout\", model = \"{path}\" }}\n"
        )
    };
    let text = format!(
        "{}\n{}{}",
        read_text(&bots),
        player("Far", absolute.to_str().unwrap()),
        player("Near", "../models/m.safetensors")
    );
    std::fs::write(start.join("bots/x.toml"), text).unwrap();
    let tournament = "game = \"prismata\"\nseed = 4\nlevels = [\"1\"]\nrepetitions = 2\n\n\
                      [[pairing]]\nname = \"learned\"\n\
                      agents = [\"Far(config=bots/x.toml)\", \"Near(config=bots/x.toml)\"]\n";
    let cfg = start.join("t.toml");
    std::fs::write(&cfg, tournament).unwrap();
    let (whole, stopped) = (start.join("whole"), start.join("stopped"));
    let args = |out: &Path| {
        vec![
            "tournament".to_string(),
            path_arg(&cfg).to_string(),
            "--out".into(),
            path_arg(out).to_string(),
            "--quiet".into(),
        ]
    };
    let at = |cwd: &Path, args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        playstyles_in(&args, cwd)
    };
    succeeded(at(&start, &args(&whole)), "tournament");
    let mut first = args(&stopped);
    first.extend(["--stop-after-games".into(), "1".into()]);
    succeeded(at(&start, &first), "tournament, stopped");
    // The kept bot file names the kept models, relative to itself.
    let kept = stopped.join("agent-files/bots/x.toml");
    let table: toml::Table = toml::from_str(&read_text(&kept)).unwrap();
    for name in ["Far", "Near"] {
        let path = table["players"][name]["model"].as_str().unwrap();
        assert!(Path::new(path).is_relative(), "{name}: {path}");
        assert_eq!(
            read_bytes(&kept.parent().unwrap().join(path)),
            model_bytes,
            "{name}"
        );
    }
    // Elsewhere, without the originals: the stopped tournament resumes and ends as the whole.
    std::fs::remove_dir_all(start.join("models")).unwrap();
    std::fs::remove_dir_all(start.join("bots")).unwrap();
    let mut again = args(&stopped);
    again.push("--resume".into());
    succeeded(at(&elsewhere, &again), "tournament --resume");
    for file in ["config.toml", "games.csv", "summary.csv"] {
        assert_eq!(
            read_text(&stopped.join(file)),
            read_text(&whole.join(file)),
            "{file}"
        );
    }
}

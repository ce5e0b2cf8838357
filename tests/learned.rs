//! Learned evaluation through the command line, at CI scale: a tiny Prismata dataset (Easy
//! bots, 12 games) made, stopped and resumed to the same bytes whatever the threads; a tiny
//! model trained twice to the same bytes with its tables; the model played by the searches
//! (`AB_Learned`, `UCT_Learned`); a Puerto Rico dataset of every seat's view whose model the
//! generic searches play (`mcts(model=…)` and the others) and another game's searches refuse;
//! and every truncated, mismatched or foreign file, and every bad flag, exiting with code 2
//! naming it.

use std::path::{Path, PathBuf};

use crate::support::cli::{
    path_arg, playstyles, read_bytes, read_text, scratch, stderr, succeeded,
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
    let again = dir.join("again").join("m.safetensors");
    train(&data, &again, &["--test", path_arg(&data)]);
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

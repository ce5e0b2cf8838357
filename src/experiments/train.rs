//! `playstyles train DATASET... --out MODEL`: a value network fitted to one or more datasets
//! ([`crate::learn::train`]; several are joined by [`Dataset::append`]), written as a model
//! file ([`crate::learn::model`]), with how well it predicts the winner beside the game's
//! hand-written predictors.
//!
//! Next to the model `DIR/NAME.safetensors` go, each written atomically:
//!
//! - `NAME-training.csv`: per epoch `epoch`, `train_loss` (mean log loss over the epoch's
//!   batches), `test_loss`, `test_accuracy`;
//! - `NAME-accuracy.csv`: per split (`train`, `test`, and `held-out`: every position of
//!   the dataset of `--test`, other games than the training dataset's), predictor (`model`, then the dataset's
//!   predictors) and turns (`all`, `0-9`, `10-19`, `20-29`, `30+`): `positions`, `decided`
//!   (positions of games with a winner), `accuracy` (share of decided positions whose winner
//!   the predictor named), `log_loss` (the model only) and `brier` (mean squared error of the
//!   predicted probability against 0, ½ or 1: calibration);
//! - `NAME-accuracy.png` and `.svg`: accuracy by turn on the last split (`held-out` if
//!   given, else `test`), a line per predictor.
//!
//! The model is a function of the dataset and the flags: the same command writes the same
//! bytes, whatever the machine's thread count. Its metadata names the datasets it was trained
//! on by the fingerprints of their configs. A held-out dataset must hold positions of games
//! won or lost, and no game of a training dataset (the same config's games at the same
//! indices, [`games_fingerprint`]). Training that diverges (a loss or weight no longer
//! finite) is an error naming `--rate`, and writes nothing.
//!
//! Nothing is written until training has ended. Then, in order: a hidden manifest
//! `DIR/.NAME.train.json` holding the fingerprint of the command (its flags and its datasets'
//! configs), the tables and charts, the model (the completion marker), and the manifest is
//! removed. A `train` stopped on the way is finished by running the same command again: it
//! recognises the tables of its own interrupted run by the manifest and replaces them (and
//! finding the model already written, it only removes the manifest). Tables it did not write
//! are replaced only with `--force`, and a model only with `--force`; `--force` replaces only
//! files of the kinds `train` writes (a model, its CSV tables, a PNG, an SVG), never a folder,
//! a link or another file. `--resume` does the same as running the command again, and finds
//! nothing to do once its model is there (written by this very command: the model's
//! metadata holds its command line and its datasets' fingerprints), so a job requeued with
//! `--resume` ends well whether it had not started, was stopped or had finished.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::GameKind;
use super::dataset::games_fingerprint;
use super::resources::output_error;
use super::run_dir::own_output;
use super::tasks::config_hash;
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, read_text, write_atomic};
use crate::kit::GameKit;
use crate::learn::dataset::{Dataset, Header, Label};
use crate::learn::model::{FORMAT, FORMAT_VERSION, Model, ModelInfo};
use crate::learn::train::{
    BUCKETS, BucketScore, EpochRow, Prepared, TrainSettings, bucket_name, scores_by_turn, train,
};
use crate::limits;
use crate::report::chart::{DrawResult, svg_string, write_png};
use crate::report::palette::{BLUE, GREEN, RED};

/// The paths shown one after the other, `sep` between them.
fn joined(paths: &[PathBuf], sep: &str) -> String {
    paths
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A validated `playstyles train` command.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The dataset files (at least one), trained on together.
    pub datasets: Vec<PathBuf>,
    /// The game its header names.
    pub game: GameKind,
    /// The model file.
    pub out: PathBuf,
    /// A dataset of other games to test on as well (`held-out` rows).
    pub held_out: Option<PathBuf>,
    /// The training settings.
    pub settings: TrainSettings,
    /// No progress lines.
    pub quiet: bool,
    /// Replace an existing model.
    pub force: bool,
    /// Finish an interrupted run of this command, or nothing to do if this very command
    /// wrote the model.
    pub resume: bool,
    /// The command line, kept in the model's metadata.
    pub command_line: String,
}

impl TrainConfig {
    /// Checks the flags and reads the dataset's header for its game.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the flag out of range (`--hidden` 1 to
    /// [`limits::MAX_HIDDEN`] and a first layer of at most [`limits::MAX_FIRST_LAYER`]
    /// weights, `--second` 1 to [`limits::MAX_SECOND`], `--epochs` 1 to
    /// [`limits::MAX_EPOCHS`], `--batch` 1 to [`limits::MAX_BATCH`], `--rate` a finite number
    /// above 0, `--test-fraction` strictly between 0 and 1);
    /// [`Error::Io`] or [`Error::Data`] naming the first dataset if its header cannot be read,
    /// or names a game this program does not have (the others are checked against it when
    /// read).
    ///
    /// # Panics
    ///
    /// If `datasets` is empty (the command line requires one).
    pub fn new(
        datasets: Vec<PathBuf>,
        out: PathBuf,
        held_out: Option<PathBuf>,
        f: TrainSettings,
        quiet: bool,
        force: bool,
    ) -> Result<TrainConfig> {
        let range = |flag: &str, v: u64, max: u64| {
            if v == 0 || v > max {
                Err(Error::config(flag, format!("must be 1 to {max}, got {v}")))
            } else {
                Ok(())
            }
        };
        range("--hidden", f.hidden as u64, limits::MAX_HIDDEN)?;
        range("--second", f.second as u64, limits::MAX_SECOND)?;
        range("--epochs", u64::from(f.epochs), limits::MAX_EPOCHS)?;
        range("--batch", f.batch as u64, limits::MAX_BATCH)?;
        if !f.rate.is_finite() || f.rate <= 0.0 {
            return Err(Error::config(
                "--rate",
                format!("must be above 0, got {}", f.rate),
            ));
        }
        if !(f.test_fraction > 0.0 && f.test_fraction < 1.0) {
            return Err(Error::config(
                "--test-fraction",
                format!("must be between 0 and 1, got {}", f.test_fraction),
            ));
        }
        let dataset = &datasets[0];
        let header = Dataset::read_header(dataset)?;
        let inputs = header.encoding.inputs();
        if (inputs as u64).saturating_mul(f.hidden as u64) > limits::MAX_FIRST_LAYER {
            return Err(Error::config(
                "--hidden",
                format!(
                    "{} inputs × {} is over the {} first-layer weights allowed",
                    inputs,
                    f.hidden,
                    limits::MAX_FIRST_LAYER
                ),
            ));
        }
        let game: GameKind = header.game.parse().map_err(|e| match e {
            Error::Config { reason, .. } => Error::Data {
                path: dataset.to_path_buf(),
                line: 0,
                reason,
            },
            e => e,
        })?;
        let test_fraction = ((f.test_fraction * 1000.0).round() / 1000.0).clamp(0.001, 0.999);
        let test_flag = held_out
            .as_ref()
            .map_or(String::new(), |t| format!(" --test {}", t.display()));
        let command_line = format!(
            "{} train {}{test_flag} --out {} --hidden {} --second {} --epochs {} --batch {} --rate {} --seed {} --test-fraction {}",
            super::game_kind::program(),
            joined(&datasets, " "),
            out.display(),
            f.hidden,
            f.second,
            f.epochs,
            f.batch,
            f.rate,
            f.seed,
            test_fraction
        );
        Ok(TrainConfig {
            datasets,
            game,
            out,
            held_out,
            settings: TrainSettings { test_fraction, ..f },
            quiet,
            force,
            resume: false,
            command_line,
        })
    }
}

/// The files written next to a model `DIR/NAME.EXT`: `DIR/NAME-<suffix>`.
pub fn beside(model: &Path, suffix: &str) -> PathBuf {
    let stem = model
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    model.with_file_name(format!("{stem}-{suffix}"))
}

/// The tables and charts written beside a model, in the order written (before the model).
const TABLES: [&str; 4] = [
    "training.csv",
    "accuracy.csv",
    "accuracy.png",
    "accuracy.svg",
];

/// The first line of `NAME-training.csv`.
const EPOCHS_HEADER: &str = "epoch,train_loss,test_loss,test_accuracy";

/// The first line of `NAME-accuracy.csv`.
const ACCURACY_HEADER: &str = "split,predictor,turns,positions,decided,accuracy,log_loss,brier";

/// The in-progress manifest of a model `DIR/NAME.EXT`: `DIR/.NAME.train.json`.
pub fn manifest_path(model: &Path) -> PathBuf {
    let stem = model
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    model.with_file_name(format!(".{stem}.train.json"))
}

/// What a `train` writing its outputs leaves beside them until the model is written: the
/// fingerprint of its command, by which the same command run again knows them for its own.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// [`config_hash`] of the command line and the fingerprints of its datasets.
    fingerprint: String,
    /// The command line, for a reader.
    trained_by: String,
}

/// The manifest at `path`, if it is one.
fn read_manifest(path: &Path) -> Option<Manifest> {
    let text = read_text(path, 1 << 16).ok()?;
    serde_json::from_str(&text).ok()
}

/// Whether the file at `path` begins with `prefix`.
fn starts_with(path: &Path, prefix: &[u8]) -> bool {
    crate::files::head(path, prefix.len() as u64).is_ok_and(|start| start == prefix)
}

/// Whether the file at `path`, the output `suffix` of a model (`None`: the model itself), is
/// of the kind `train` writes there: what `--force` may replace.
fn of_train_kind(path: &Path, suffix: Option<&str>) -> bool {
    match suffix {
        None => read_bytes(path, DATA_LIMIT).is_ok_and(|b| ModelInfo::parse(&b).is_ok()),
        Some("training.csv") => starts_with(path, format!("{EPOCHS_HEADER}\n").as_bytes()),
        Some("accuracy.csv") => starts_with(path, format!("{ACCURACY_HEADER}\n").as_bytes()),
        Some("accuracy.png") => starts_with(path, b"\x89PNG\r\n\x1a\n"),
        Some(_) => starts_with(path, b"<svg "),
    }
}

/// What the outputs of a `train` hold before it writes.
enum Outputs {
    /// Nothing of this command's yet, or what it may replace.
    Clear,
    /// The model of this very command, whose run stopped before removing its manifest.
    Finished,
}

/// Checks the outputs of `cfg` (the model, its tables and its manifest) before anything is
/// written, for the command of fingerprint `fingerprint` training on datasets of the config
/// fingerprints `trained_on`.
///
/// # Errors
///
/// [`Error::Config`] naming `--out`: for an output that is a link, a folder or a special
/// file; for a model without `--force`; for tables not written by an interrupted run of this
/// command (its manifest) without `--force`; with `--force`, for a file that is not of the
/// kind `train` writes there.
fn check_outputs(cfg: &TrainConfig, fingerprint: &str, trained_on: &[String]) -> Result<Outputs> {
    let manifest = manifest_path(&cfg.out);
    let outputs: Vec<(PathBuf, Option<&str>)> = std::iter::once((cfg.out.clone(), None))
        .chain(TABLES.iter().map(|t| (beside(&cfg.out, t), Some(*t))))
        .chain([(manifest.clone(), Some("manifest"))])
        .collect();
    let ours = read_manifest(&manifest).is_some_and(|m| m.fingerprint == fingerprint);
    // What --force may replace: the files of an interrupted run of this command, and files of
    // the kinds `train` writes there; without --force the kind is not asked (see below).
    let replaceable = |path: &Path, suffix: Option<&str>| {
        ours || !cfg.force
            || match suffix {
                Some("manifest") => read_manifest(path).is_some(),
                suffix => of_train_kind(path, suffix),
            }
    };
    let mut present = Vec::new();
    for (path, suffix) in &outputs {
        let what = "a file of the kind `train` writes there";
        if own_output(path, "--out", what, |p| replaceable(p, *suffix))? {
            present.push((path, *suffix));
        }
    }
    let model = present.iter().any(|(_, s)| s.is_none());
    // With --resume, a model this very command wrote (its command line and datasets) is a
    // finished run too, whether or not its manifest was removed.
    let made_here = || {
        read_bytes(&cfg.out, DATA_LIMIT)
            .ok()
            .and_then(|b| ModelInfo::parse(&b).ok())
            .is_some_and(|info| info.trained_by == cfg.command_line && info.datasets == trained_on)
    };
    if model && !cfg.force && (ours || (cfg.resume && made_here())) {
        return Ok(Outputs::Finished);
    }
    for (path, suffix) in present {
        if suffix.is_none() && !cfg.force {
            return Err(Error::config(
                "--out",
                format!("{} exists; give --force to replace it", path.display()),
            ));
        }
        if !ours && !cfg.force {
            return Err(Error::config(
                "--out",
                format!(
                    "{} exists and is not of an interrupted run of this command; give --force to replace it",
                    path.display()
                ),
            ));
        }
    }
    Ok(Outputs::Clear)
}

/// Trains the model `cfg` asks for, for `game`.
///
/// # Errors
///
/// [`Error::Config`] naming `--out` for outputs it may not replace (`check_outputs`),
/// `--test` for a held-out dataset without positions of games won or lost or sharing games
/// with a training dataset, `--rate` for training that diverges; [`Error::Data`] naming a
/// dataset if it is malformed, of another game or of another encoding than the game's, holds
/// no positions, or has no training or no test games; [`Error::Io`] for a file that cannot be
/// written.
pub fn run_train<G: GameKit, W: Write>(game: &G, cfg: &TrainConfig, out: &mut W) -> Result<Model> {
    let name = cfg.game.name();
    let first = &cfg.datasets[0];
    let encoding = game.encoding().ok_or_else(|| Error::Data {
        path: first.clone(),
        line: 0,
        reason: format!("{name} has no encoding for learned evaluation"),
    })?;
    // The command's fingerprint: its flags and what its datasets were made by.
    let headers = cfg
        .datasets
        .iter()
        .map(|p| Dataset::read_header(p))
        .collect::<Result<Vec<Header>>>()?;
    let trained_on: Vec<String> = headers.iter().map(|h| config_hash(&h.config)).collect();
    let held_out_hash = match &cfg.held_out {
        Some(path) => config_hash(&Dataset::read_header(path)?.config),
        None => String::new(),
    };
    let fingerprint = config_hash(&format!(
        "{}\n{}\n{held_out_hash}\n",
        cfg.command_line,
        trained_on.join(",")
    ));
    let manifest = manifest_path(&cfg.out);
    if let Outputs::Finished = check_outputs(cfg, &fingerprint, &trained_on)? {
        let model = Model::load(&cfg.out, Some(name), &encoding)?;
        if crate::files::present(&manifest)? {
            fs::remove_file(&manifest).map_err(|e| Error::io(&manifest, e))?;
        }
        writeln!(
            out,
            "{}: finished already; nothing to do",
            cfg.out.display()
        )
        .map_err(output_error)?;
        return Ok(model);
    }
    let sets = cfg
        .datasets
        .iter()
        .map(|path| read_for(path, name, &encoding))
        .collect::<Result<Vec<Dataset>>>()?;
    for (path, d) in cfg.datasets.iter().zip(&sets) {
        if d.is_empty() {
            return Err(Error::data(
                path,
                0,
                "holds no positions: nothing to train on",
            ));
        }
    }
    let held_out = match &cfg.held_out {
        Some(path) => Some(held_out_for(path, name, &encoding, &cfg.datasets, &sets)?),
        None => None,
    };
    let mut sets = sets.into_iter();
    let mut data = sets.next().expect("at least one dataset");
    for (path, d) in cfg.datasets[1..].iter().zip(sets) {
        data.append(d).map_err(|reason| Error::Data {
            path: path.clone(),
            line: 0,
            reason,
        })?;
    }
    let shown = joined(&cfg.datasets, " + ");
    let prepared = Prepared::new(&data, cfg.settings.test_fraction);
    if prepared.train.is_empty() || prepared.test.is_empty() {
        return Err(Error::data(
            first,
            0,
            format!(
                "{} training and {} test positions: too few games to split (give more games or another --test-fraction)",
                prepared.train.len(),
                prepared.test.len()
            ),
        ));
    }
    writeln!(
        out,
        "{}: {} positions of {} games; {} to train on, {} to test",
        shown,
        data.len(),
        data.header.games,
        prepared.train.len(),
        prepared.test.len()
    )
    .map_err(output_error)?;
    let mut failed = None;
    let trained = train(&data, &prepared, &cfg.settings, |row| {
        if !cfg.quiet && failed.is_none() {
            failed = writeln!(
                out,
                "epoch {:>3}: train loss {:.4}, test loss {:.4}, test accuracy {:.3}",
                row.epoch, row.train_loss, row.test_loss, row.test_accuracy
            )
            .err();
        }
    });
    if let Some(e) = failed {
        return Err(output_error(e));
    }
    let (net, epochs) = trained.map_err(|d| {
        Error::config(
            "--rate",
            format!(
                "training diverged in epoch {}: {} is no longer a finite number; give a rate below {:e} (nothing was written)",
                d.epoch, d.what, cfg.settings.rate
            ),
        )
    })?;
    let model = Model {
        net,
        info: ModelInfo {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            game: name.into(),
            encoding,
            trained_by: cfg.command_line.clone(),
            datasets: trained_on,
        },
    };
    let mut splits = vec![
        (
            "train",
            scores_by_turn(&model.net, &data, &prepared, &prepared.train),
        ),
        (
            "test",
            scores_by_turn(&model.net, &data, &prepared, &prepared.test),
        ),
    ];
    if let Some(h) = &held_out {
        let all = Prepared::new(h, 1.0);
        splits.push(("held-out", scores_by_turn(&model.net, h, &all, &all.test)));
    }
    // Written in order: the manifest, the tables and charts, the model (the completion
    // marker); the manifest removed last.
    if let Some(dir) = cfg.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let record = Manifest {
        fingerprint,
        trained_by: cfg.command_line.clone(),
    };
    let json = serde_json::to_string(&record).expect("a manifest serialises");
    write_atomic(&manifest, json.as_bytes())?;
    write_atomic(&beside(&cfg.out, TABLES[0]), epochs_csv(&epochs).as_bytes())?;
    write_atomic(
        &beside(&cfg.out, TABLES[1]),
        accuracy_csv(&splits).as_bytes(),
    )?;
    let (shown, rows) = splits.last().expect("at least two splits");
    write_chart(rows, shown, &cfg.out)?;
    model.save(&cfg.out)?;
    fs::remove_file(&manifest).map_err(|e| Error::io(&manifest, e))?;
    writeln!(out, "{shown} {}", accuracy_table(rows)).map_err(output_error)?;
    writeln!(
        out,
        "wrote {} ({} weights) and its tables",
        cfg.out.display(),
        model.net.parameters()
    )
    .map_err(output_error)?;
    Ok(model)
}

/// The held-out dataset at `path`, checked to be of `game` with `encoding`, to hold positions
/// of games won or lost, and no game of the training datasets `sets` (at `paths`).
///
/// # Errors
///
/// As [`read_for`]; [`Error::Config`] naming `--test` for a dataset without positions, or
/// without a position of a game won or lost, or of the same games as a training dataset (the
/// same [`games_fingerprint`] and overlapping game indices: the same file, a copy, or the
/// same config with more or fewer games).
fn held_out_for(
    path: &Path,
    game: &str,
    encoding: &crate::learn::encoding::Encoding,
    paths: &[PathBuf],
    sets: &[Dataset],
) -> Result<Dataset> {
    let h = read_for(path, game, encoding)?;
    let refuse = |reason: String| Error::config("--test", format!("{}: {reason}", path.display()));
    if h.is_empty() {
        return Err(refuse("holds no positions to test on".into()));
    }
    if h.labels.iter().all(|&l| l == Label::Draw) {
        return Err(refuse(
            "holds no position of a game won or lost: no accuracy to measure".into(),
        ));
    }
    let games = games_fingerprint(&h.header.config);
    let held = h.game_range();
    for (p, d) in paths.iter().zip(sets) {
        let trained = d.game_range();
        if games_fingerprint(&d.header.config) == games
            && held.start < trained.end
            && trained.start < held.end
        {
            return Err(refuse(format!(
                "holds games {} to {} of the config that made the training dataset {}; hold out other games (another seed)",
                held.start.max(trained.start),
                held.end.min(trained.end) - 1,
                p.display()
            )));
        }
    }
    Ok(h)
}

fn epochs_csv(rows: &[EpochRow]) -> String {
    let mut s = format!("{EPOCHS_HEADER}\n");
    for r in rows {
        s.push_str(&format!(
            "{},{},{},{}\n",
            r.epoch, r.train_loss, r.test_loss, r.test_accuracy
        ));
    }
    s
}

/// The dataset at `path`, checked to be of `game` with `encoding`.
fn read_for(
    path: &Path,
    game: &str,
    encoding: &crate::learn::encoding::Encoding,
) -> Result<Dataset> {
    let data = Dataset::read(path)?;
    let bad = |reason: String| Error::Data {
        path: path.to_path_buf(),
        line: 0,
        reason,
    };
    if data.header.game != game {
        return Err(bad(format!(
            "a dataset of {}, not {game}",
            data.header.game
        )));
    }
    if let Some(why) = encoding.mismatch(&data.header.encoding) {
        return Err(bad(format!("a dataset {why}")));
    }
    Ok(data)
}

fn accuracy_csv(splits: &[(&str, Vec<BucketScore>)]) -> String {
    let mut s = format!("{ACCURACY_HEADER}\n");
    for (split, rows) in splits {
        for r in rows {
            let loss = if r.score.log_loss.is_nan() {
                String::new()
            } else {
                r.score.log_loss.to_string()
            };
            s.push_str(&format!(
                "{split},{},{},{},{},{},{loss},{}\n",
                r.predictor,
                r.turns,
                r.score.positions,
                r.score.decided,
                r.score.accuracy,
                r.score.brier
            ));
        }
    }
    s
}

/// The distinct values of `field` in `rows`, in the order they first appear.
fn distinct<'a>(
    rows: &'a [BucketScore],
    field: impl Fn(&'a BucketScore) -> &'a String,
) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for r in rows {
        let v = field(r).as_str();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The test accuracy as a text table: a row per predictor, a column per turn bucket.
fn accuracy_table(test: &[BucketScore]) -> String {
    let turns = distinct(test, |r| &r.turns);
    let predictors = distinct(test, |r| &r.predictor);
    let mut s = format!("{:<12}", "accuracy");
    for t in &turns {
        s.push_str(&format!(" {t:>7}"));
    }
    s.push_str("   brier");
    for p in &predictors {
        s.push_str(&format!("\n{p:<12}"));
        for t in &turns {
            let r = test
                .iter()
                .find(|r| r.predictor == *p && r.turns == *t)
                .expect("every predictor has every bucket");
            s.push_str(&format!(" {:>7.3}", r.score.accuracy));
        }
        let all = test
            .iter()
            .find(|r| r.predictor == *p && r.turns == "all")
            .expect("every predictor has `all`");
        s.push_str(&format!(" {:>7.3}", all.score.brier));
    }
    s
}

const SIZE: (u32, u32) = (720, 440);

/// Writes `NAME-accuracy.png` and `.svg` of the scores of the split `split`.
fn write_chart(test: &[BucketScore], split: &str, model: &Path) -> Result<()> {
    write_png(&beside(model, "accuracy.png"), SIZE, |root| {
        draw(root, test, split)
    })?;
    let path = beside(model, "accuracy.svg");
    let svg = svg_string(&path, SIZE, |root| draw(root, test, split))?;
    write_atomic(&path, svg.as_bytes())
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    test: &[BucketScore],
    split: &str,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let names: Vec<String> = BUCKETS.iter().map(|&b| bucket_name(b)).collect();
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("Winner accuracy on the {split} games, by turn"),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..(BUCKETS.len() as f64 - 0.5), 40.0..100.0)?;
    let label_names = names.clone();
    chart
        .configure_mesh()
        .x_desc("turns played")
        .y_desc("accuracy, percent")
        .x_labels(BUCKETS.len())
        .x_label_formatter(&move |x| {
            let k = x.round();
            if (x - k).abs() < 1e-9 && k >= 0.0 && (k as usize) < label_names.len() {
                label_names[k as usize].clone()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let predictors = distinct(test, |r| &r.predictor);
    let colours = [BLUE, RED, GREEN, RGBColor(148, 103, 189)];
    for (k, p) in predictors.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let points: Vec<(f64, f64)> = names
            .iter()
            .enumerate()
            .filter_map(|(x, n)| {
                test.iter()
                    .find(|r| r.predictor == *p && r.turns == *n && r.score.decided > 0)
                    .map(|r| (x as f64, 100.0 * r.score.accuracy))
            })
            .collect();
        let style = colour.stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(points.clone(), style)))?
            .label(p.to_string())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart.draw_series(
            points
                .into_iter()
                .map(|q| Circle::new(q, 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()?;
    Ok(())
}

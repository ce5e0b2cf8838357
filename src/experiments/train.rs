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
//! bytes, whatever the machine's thread count.

use std::io::Write;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::GameKind;
use super::resources::output_error;
use crate::error::{Error, Result};
use crate::files::write_atomic;
use crate::kit::GameKit;
use crate::learn::dataset::Dataset;
use crate::learn::model::{FORMAT, FORMAT_VERSION, Model, ModelInfo};
use crate::learn::train::{
    BUCKETS, BucketScore, EpochRow, Prepared, TrainSettings, bucket_name, scores_by_turn, train,
};
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
    /// The command line, kept in the model's metadata.
    pub command_line: String,
}

/// Most first-layer weights a model may have (2^28, 1 GiB of f32): `--hidden` × inputs.
const MAX_FIRST_LAYER: usize = 1 << 28;

impl TrainConfig {
    /// Checks the flags and reads the dataset's header for its game.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the flag out of range (`--hidden` 1 to 4096 and a first layer
    /// of at most 2^28 weights, `--second` 1 to 1024, `--epochs` 1 to 1000, `--batch` 1 to
    /// 65536, `--rate` a finite number above 0, `--test-fraction` strictly between 0 and 1);
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
        range("--hidden", f.hidden as u64, 4096)?;
        range("--second", f.second as u64, 1024)?;
        range("--epochs", u64::from(f.epochs), 1000)?;
        range("--batch", f.batch as u64, 65536)?;
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
        if inputs.saturating_mul(f.hidden) > MAX_FIRST_LAYER {
            return Err(Error::config(
                "--hidden",
                format!(
                    "{} inputs × {} is over the {MAX_FIRST_LAYER} first-layer weights allowed",
                    inputs, f.hidden
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

/// Trains the model `cfg` asks for, for `game`.
///
/// # Errors
///
/// [`Error::Config`] naming `--out` for an existing model without `--force`; [`Error::Data`]
/// naming the dataset if it is malformed, of another game or of another encoding than the
/// game's, or has no training or no test games; [`Error::Io`] for a file that cannot be
/// written.
pub fn run_train<G: GameKit, W: Write>(game: &G, cfg: &TrainConfig, out: &mut W) -> Result<Model> {
    if cfg.out.exists() && !cfg.force {
        return Err(Error::config(
            "--out",
            format!("{} exists; give --force to replace it", cfg.out.display()),
        ));
    }
    let name = cfg.game.name();
    let first = &cfg.datasets[0];
    let encoding = game.encoding().ok_or_else(|| Error::Data {
        path: first.clone(),
        line: 0,
        reason: format!("{name} has no encoding for learned evaluation"),
    })?;
    let mut data = read_for(first, name, &encoding)?;
    for path in &cfg.datasets[1..] {
        data.append(read_for(path, name, &encoding)?)
            .map_err(|reason| Error::Data {
                path: path.clone(),
                line: 0,
                reason,
            })?;
    }
    let shown = joined(&cfg.datasets, " + ");
    let bad = |reason: String| Error::Data {
        path: first.clone(),
        line: 0,
        reason,
    };
    let held_out = match &cfg.held_out {
        Some(path) => Some(read_for(path, name, &encoding)?),
        None => None,
    };
    let prepared = Prepared::new(&data, cfg.settings.test_fraction);
    if prepared.train.is_empty() || prepared.test.is_empty() {
        return Err(bad(format!(
            "{} training and {} test positions: too few games to split (give more games or another --test-fraction)",
            prepared.train.len(),
            prepared.test.len()
        )));
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
    let (net, epochs) = train(&data, &prepared, &cfg.settings, |row| {
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
    let model = Model {
        net,
        info: ModelInfo {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            game: name.into(),
            encoding,
            trained_by: cfg.command_line.clone(),
        },
    };
    if let Some(dir) = cfg.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    model.save(&cfg.out)?;
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
    write_atomic(
        &beside(&cfg.out, "training.csv"),
        epochs_csv(&epochs).as_bytes(),
    )?;
    write_atomic(
        &beside(&cfg.out, "accuracy.csv"),
        accuracy_csv(&splits).as_bytes(),
    )?;
    let (shown, rows) = splits.last().expect("at least two splits");
    write_chart(rows, shown, &cfg.out)?;
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

fn epochs_csv(rows: &[EpochRow]) -> String {
    let mut s = String::from("epoch,train_loss,test_loss,test_accuracy\n");
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
    let mut s = String::from("split,predictor,turns,positions,decided,accuracy,log_loss,brier\n");
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

//! The tables of a validation: `validation.csv` and `validation_summary.csv` built, printed, and
//! read back (see the module docs of [`super`] for their columns).

use std::path::Path;
use std::str::FromStr;

use super::run::Validated;
use crate::error::Result;
use crate::experiments::run_dir::RunDir;
use crate::qd::checkpoint::invalid;
use crate::report::csv::{CsvTable, read_with_header};
use crate::report::table::aligned;
use crate::stats::{mean, spearman};

/// File name of the per-elite validation table in a run directory.
pub const VALIDATION_CSV: &str = "validation.csv";
/// File name of the validation summary in a run directory.
pub const VALIDATION_SUMMARY_CSV: &str = "validation_summary.csv";
/// The columns of `validation.csv`.
pub const VALIDATION_COLUMNS: [&str; 11] = [
    "cell",
    "feature",
    "map_mean",
    "map_sd",
    "val_mean",
    "val_sd",
    "map_win_rate",
    "val_win_rate",
    "map_games",
    "val_games",
    "stays_in_cell",
];
/// The columns of `validation_summary.csv`.
pub const SUMMARY_COLUMNS: [&str; 6] = [
    "feature",
    "elites",
    "map_mean",
    "val_mean",
    "spearman",
    "stays_in_cell",
];
/// The `feature` of the summary row about win rates.
pub const WIN_RATE_ROW: &str = "win_rate";
/// The `feature` of the summary row about whole cells.
pub const ALL_AXES_ROW: &str = "all_axes";

/// Whether the validation descriptor `k` of `v` stays in the elite's bucket on axis `k`.
fn stays(run: &RunDir, v: &Validated, k: usize) -> bool {
    let axis = &run.config.features[k];
    axis.index_of(v.evaluation.descriptor_means[k]) == v.row.coords[k]
}

/// `validation.csv` (see the [module docs](super)).
pub fn validation_table(run: &RunDir, validated: &[Validated]) -> CsvTable {
    let mut t = CsvTable::new(VALIDATION_COLUMNS.map(String::from).to_vec());
    for v in validated {
        let (r, e) = (&v.row, &v.evaluation);
        for (k, axis) in run.config.features.iter().enumerate() {
            t.rows.push(vec![
                r.cell.to_string(),
                axis.name.clone(),
                r.means[k].to_string(),
                r.sds[k].to_string(),
                e.descriptor_means[k].to_string(),
                e.descriptor_spreads[k].to_string(),
                r.win_rate.to_string(),
                e.fitness.to_string(),
                r.games.to_string(),
                e.games.to_string(),
                stays(run, v, k).to_string(),
            ]);
        }
    }
    t
}

/// `validation_summary.csv` (see the [module docs](super)).
pub fn summary_table(run: &RunDir, validated: &[Validated]) -> CsvTable {
    let n = validated.len();
    let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
    let share = |count: usize| opt((n > 0).then(|| count as f64 / n as f64));
    let row = |name: &str, map: Vec<f64>, val: Vec<f64>, stay: String| {
        vec![
            name.to_string(),
            n.to_string(),
            opt(mean(map.iter().copied())),
            opt(mean(val.iter().copied())),
            opt(spearman(&map, &val)),
            stay,
        ]
    };
    let mut t = CsvTable::new(SUMMARY_COLUMNS.map(String::from).to_vec());
    for (k, axis) in run.config.features.iter().enumerate() {
        let map = validated.iter().map(|v| v.row.means[k]).collect();
        let val = validated
            .iter()
            .map(|v| v.evaluation.descriptor_means[k])
            .collect();
        let kept = validated.iter().filter(|v| stays(run, v, k)).count();
        t.rows.push(row(&axis.name, map, val, share(kept)));
    }
    let map = validated.iter().map(|v| v.row.win_rate).collect();
    let val = validated.iter().map(|v| v.evaluation.fitness).collect();
    t.rows.push(row(WIN_RATE_ROW, map, val, String::new()));
    let axes = run.config.features.len();
    let kept = validated
        .iter()
        .filter(|v| (0..axes).all(|k| stays(run, v, k)))
        .count();
    t.rows.push(vec![
        ALL_AXES_ROW.to_string(),
        n.to_string(),
        String::new(),
        String::new(),
        String::new(),
        share(kept),
    ]);
    t
}

/// The printed per-elite table: one line per elite, map → validation per feature.
pub(super) fn printed_elites(run: &RunDir, validated: &[Validated]) -> String {
    let mut header = vec!["cell".to_string()];
    for axis in &run.config.features {
        header.push(format!("{} map", axis.name));
        header.push("val".into());
    }
    header.extend(["win % map", "val", "in cell"].map(String::from));
    let rows: Vec<Vec<String>> = validated
        .iter()
        .map(|v| {
            let mut row = vec![v.row.cell.to_string()];
            for k in 0..run.config.features.len() {
                row.push(format!("{:.2}", v.row.means[k]));
                row.push(format!("{:.2}", v.evaluation.descriptor_means[k]));
            }
            let kept = (0..run.config.features.len()).all(|k| stays(run, v, k));
            row.push(format!("{:.1}", 100.0 * v.row.win_rate));
            row.push(format!("{:.1}", 100.0 * v.evaluation.fitness));
            row.push(if kept { "yes" } else { "no" }.into());
            row
        })
        .collect();
    aligned(&header, &rows)
}

/// The printed summary: the CSV's rows with numbers rounded and shares in percent.
pub(super) fn printed_summary(summary: &CsvTable) -> String {
    let header: Vec<String> = [
        "feature",
        "elites",
        "map mean",
        "val mean",
        "spearman",
        "in cell %",
    ]
    .map(String::from)
    .to_vec();
    let fmt = |s: &str, scale: f64, digits: usize| match s.parse::<f64>() {
        Ok(x) => format!("{:.digits$}", scale * x),
        Err(_) => "-".to_string(),
    };
    let rows: Vec<Vec<String>> = summary
        .rows
        .iter()
        .map(|r| {
            vec![
                r[0].clone(),
                r[1].clone(),
                fmt(&r[2], 1.0, 3),
                fmt(&r[3], 1.0, 3),
                fmt(&r[4], 1.0, 3),
                fmt(&r[5], 100.0, 1),
            ]
        })
        .collect();
    aligned(&header, &rows)
}

/// One row of `validation.csv` as read back (the columns `tiers` needs).
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationRow {
    /// The elite's cell.
    pub cell: usize,
    /// The feature.
    pub feature: String,
    /// The elite's win rate in the archive when it was validated.
    pub map_win_rate: f64,
    /// The elite's games in the archive when it was validated.
    pub map_games: u32,
    /// The elite's win rate in the validation games.
    pub val_win_rate: f64,
    /// Validation games played.
    pub val_games: u32,
}

/// Reads `validation.csv`.
///
/// # Errors
///
/// [`Error::Io`](crate::error::Error::Io) naming the file (and the line, for a bad row) if it
/// cannot be read or is larger than [`DATA_LIMIT`](crate::files::DATA_LIMIT), its header is not [`VALIDATION_COLUMNS`], or
/// a number does not parse.
pub fn read_validation_csv(path: &Path) -> Result<Vec<ValidationRow>> {
    let mut r = read_with_header(path, &VALIDATION_COLUMNS)?;
    // The header is checked, so the columns are where VALIDATION_COLUMNS puts them.
    let (cell, feature, map_win, map_games, win, games) = (0, 1, 6, 8, 7, 9);
    r.records()
        .enumerate()
        .map(|(i, rec)| {
            let line = i + 2;
            let rec = rec.map_err(|e| invalid(path, format!("line {line}: {e}")))?;
            let text = |c: usize| rec.get(c).unwrap_or("").trim();
            fn parse<T: FromStr>(path: &Path, line: usize, c: usize, text: &str) -> Result<T> {
                text.parse().map_err(|_| {
                    invalid(
                        path,
                        format!(
                            "line {line}: `{}` is `{text}`, not a number of the right kind",
                            VALIDATION_COLUMNS[c]
                        ),
                    )
                })
            }
            Ok(ValidationRow {
                cell: parse(path, line, cell, text(cell))?,
                feature: text(feature).to_string(),
                map_win_rate: parse(path, line, map_win, text(map_win))?,
                map_games: parse(path, line, map_games, text(map_games))?,
                val_win_rate: parse(path, line, win, text(win))?,
                val_games: parse(path, line, games, text(games))?,
            })
        })
        .collect()
}

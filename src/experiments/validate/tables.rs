//! The tables of a validation: each validated elite ([`Validated`]) and the `validation.csv` and
//! `validation_summary.csv` built of them, printed, and read back (see the module docs of
//! [`super`] for their columns).

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::experiments::feature_spread::FeatureSpread;
use crate::experiments::reevaluate::tables::{REEVALUATED_CSV, read_reevaluated_csv};
use crate::experiments::run_dir::RunDir;
use crate::files::present;
use crate::qd::Evaluation;
use crate::report::archive::ArchiveRow;
use crate::report::csv::{CsvTable, check_finite, check_rate, read_with_header, record_error};
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
pub const SUMMARY_COLUMNS: [&str; 10] = [
    "feature",
    "elites",
    "map_mean",
    "val_mean",
    "spearman",
    "stays_in_cell",
    "val_true_sd",
    "val_true_sd_cells",
    "val_reliability",
    "replayed_spearman",
];
/// The `feature` of the summary row about win rates.
pub const WIN_RATE_ROW: &str = "win_rate";
/// The `feature` of the summary row about whole cells.
pub const ALL_AXES_ROW: &str = "all_axes";

/// One validated elite: its archive row and its validation evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated {
    /// The elite as archived.
    pub row: ArchiveRow,
    /// Its games on the validation levels.
    pub evaluation: Evaluation,
}

/// An elite's numbers as `reevaluate` re-played it on its training levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// Its re-played feature means, in axis order.
    pub means: Vec<f64>,
    /// Its re-played win rate.
    pub win_rate: f64,
}

/// The re-played numbers of the elites `rows` (in their order) from the run's
/// `reevaluated.csv`: `None` if the run has none, or if it re-played another archive — some
/// elite has no row there with its cell, archived games, win rate and feature means.
///
/// # Errors
///
/// As [`read_reevaluated_csv`] if the file is there but unreadable or malformed.
pub fn replayed_of(run: &RunDir, rows: &[&ArchiveRow]) -> Result<Option<Vec<Replayed>>> {
    let path = run.dir.join(REEVALUATED_CSV);
    if !present(&path)? {
        return Ok(None);
    }
    let features: Vec<String> = run.config.features.iter().map(|a| a.name.clone()).collect();
    let by_cell: BTreeMap<usize, _> = read_reevaluated_csv(&path, &features)?
        .into_iter()
        .map(|r| (r.cell, r))
        .collect();
    Ok(rows
        .iter()
        .map(|elite| {
            let r = by_cell.get(&elite.cell)?;
            let same = r.map_games == elite.games
                && r.map_win_rate == elite.win_rate
                && r.map_means == elite.means;
            same.then(|| Replayed {
                means: r.new_features.iter().map(|&(mean, _)| mean).collect(),
                win_rate: r.new_win_rate,
            })
        })
        .collect())
}

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

/// `validation_summary.csv` (see the [module docs](super)), with `replayed` the validated
/// elites' re-played numbers ([`replayed_of`]) where the run has them.
pub fn summary_table(
    run: &RunDir,
    validated: &[Validated],
    replayed: Option<&[Replayed]>,
) -> CsvTable {
    let n = validated.len();
    let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
    let share = |count: usize| opt((n > 0).then(|| count as f64 / n as f64));
    let against_replayed = |of: &dyn Fn(&Replayed) -> f64, val: &[f64]| {
        let re: Option<Vec<f64>> = replayed.map(|r| r.iter().map(of).collect());
        opt(re.and_then(|re| spearman(&re, val)))
    };
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
    let blanks = || vec![String::new(); 3];
    let mut t = CsvTable::new(SUMMARY_COLUMNS.map(String::from).to_vec());
    for (k, axis) in run.config.features.iter().enumerate() {
        let map = validated.iter().map(|v| v.row.means[k]).collect();
        let val: Vec<f64> = validated
            .iter()
            .map(|v| v.evaluation.descriptor_means[k])
            .collect();
        let kept = validated.iter().filter(|v| stays(run, v, k)).count();
        let spread = FeatureSpread::of(axis, k, validated.iter().map(|v| &v.evaluation));
        let replayed_spearman = against_replayed(&|r| r.means[k], &val);
        let mut r = row(&axis.name, map, val, share(kept));
        r.extend(spread.columns());
        r.push(replayed_spearman);
        t.rows.push(r);
    }
    let map = validated.iter().map(|v| v.row.win_rate).collect();
    let val: Vec<f64> = validated.iter().map(|v| v.evaluation.fitness).collect();
    let replayed_spearman = against_replayed(&|r| r.win_rate, &val);
    let mut r = row(WIN_RATE_ROW, map, val, String::new());
    r.extend(blanks());
    r.push(replayed_spearman);
    t.rows.push(r);
    let axes = run.config.features.len();
    let kept = validated
        .iter()
        .filter(|v| (0..axes).all(|k| stays(run, v, k)))
        .count();
    let mut r = vec![ALL_AXES_ROW.to_string(), n.to_string()];
    r.extend(blanks());
    r.push(share(kept));
    r.extend(blanks());
    r.push(String::new());
    t.rows.push(r);
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
        "vs re-played",
        "in cell %",
        "true sd (cells)",
        "reliability",
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
                fmt(&r[9], 1.0, 3),
                fmt(&r[5], 100.0, 1),
                fmt(&r[7], 1.0, 2),
                fmt(&r[8], 1.0, 2),
            ]
        })
        .collect();
    aligned(&header, &rows)
}

/// One row of `validation.csv` as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationRow {
    /// The elite's cell.
    pub cell: usize,
    /// The feature.
    pub feature: String,
    /// The feature's mean over the elite's games in the archive.
    pub map_mean: f64,
    /// The feature's standard deviation over the elite's games in the archive.
    pub map_sd: f64,
    /// The feature's mean over the validation games (0 if no game gave it a value).
    pub val_mean: f64,
    /// The feature's standard deviation over the validation games.
    pub val_sd: f64,
    /// The elite's win rate in the archive when it was validated.
    pub map_win_rate: f64,
    /// The elite's win rate in the validation games.
    pub val_win_rate: f64,
    /// The elite's games in the archive when it was validated.
    pub map_games: u32,
    /// Validation games played.
    pub val_games: u32,
    /// The validation mean falls in the elite's bucket on this feature's axis.
    pub stays_in_cell: bool,
}

impl ValidationRow {
    /// Checks the numbers `validate` writes: win rates in [0, 1], every feature number finite
    /// (a feature no game gave a value has mean and deviation 0), no negative standard
    /// deviation.
    fn check(&self) -> std::result::Result<(), String> {
        check_rate("map_win_rate", self.map_win_rate)?;
        check_rate("val_win_rate", self.val_win_rate)?;
        check_finite("map_mean", self.map_mean)?;
        check_finite("map_sd", self.map_sd)?;
        check_finite("val_mean", self.val_mean)?;
        check_finite("val_sd", self.val_sd)?;
        for (name, sd) in [("map_sd", self.map_sd), ("val_sd", self.val_sd)] {
            if sd < 0.0 {
                return Err(format!("`{name}` is negative ({sd})"));
            }
        }
        Ok(())
    }

    /// The columns every row of one elite shares.
    fn elite(&self) -> (u64, u64, u32, u32) {
        (
            self.map_win_rate.to_bits(),
            self.val_win_rate.to_bits(),
            self.map_games,
            self.val_games,
        )
    }
}

/// Reads `validation.csv` and checks it as `validate` wrote it: every row's numbers
/// ([`ValidationRow`]: win rates in [0, 1], finite feature numbers), one row per elite and
/// feature, and the same win rates and games on every row of an elite.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read or is larger than
/// [`DATA_LIMIT`](crate::files::DATA_LIMIT); [`Error::Data`] naming it (and the line, for a bad
/// row) if its header is not [`VALIDATION_COLUMNS`], a number does not parse or a row breaks
/// one of the rules above.
pub fn read_validation_csv(path: &Path) -> Result<Vec<ValidationRow>> {
    let mut r = read_with_header(path, &VALIDATION_COLUMNS)?;
    let mut rows: Vec<ValidationRow> = Vec::new();
    let mut seen: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let mut elites: BTreeMap<usize, (u64, u64, u32, u32)> = BTreeMap::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let bad = |why: String| Error::data(path, line, why);
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        // The header is checked, so the columns are where VALIDATION_COLUMNS puts them.
        let text = |c: usize| rec.get(c).unwrap_or("").trim();
        fn parse<T: FromStr>(text: &str, c: usize) -> std::result::Result<T, String> {
            text.parse().map_err(|_| {
                format!(
                    "`{}` is `{text}`, not a number of the right kind",
                    VALIDATION_COLUMNS[c]
                )
            })
        }
        let row = (|| -> std::result::Result<ValidationRow, String> {
            Ok(ValidationRow {
                cell: parse(text(0), 0)?,
                feature: text(1).to_string(),
                map_mean: parse(text(2), 2)?,
                map_sd: parse(text(3), 3)?,
                val_mean: parse(text(4), 4)?,
                val_sd: parse(text(5), 5)?,
                map_win_rate: parse(text(6), 6)?,
                val_win_rate: parse(text(7), 7)?,
                map_games: parse(text(8), 8)?,
                val_games: parse(text(9), 9)?,
                stays_in_cell: text(10)
                    .parse()
                    .map_err(|_| format!("`stays_in_cell` is `{}`, not true or false", text(10)))?,
            })
        })()
        .map_err(&bad)?;
        row.check().map_err(&bad)?;
        if let Some(first) = seen.insert((row.cell, row.feature.clone()), line) {
            return Err(bad(format!(
                "cell {} and feature `{}` appear twice (line {first})",
                row.cell, row.feature
            )));
        }
        if *elites.entry(row.cell).or_insert_with(|| row.elite()) != row.elite() {
            return Err(bad(format!(
                "the win rates or games of cell {} differ from its row before",
                row.cell
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The rows of `run`'s `validation.csv` (`None` if it has none), read as `validate` wrote them
/// ([`read_validation_csv`]) and bound to the run: each row's elite is the archive's elite of
/// its cell as it was validated — its feature one of the run's, and the archived numbers the
/// row repeats (`map_mean`, `map_sd`, `map_win_rate`, `map_games`) those of `archive.csv` —
/// so that another run's table, or one the run went on after, is an error rather than shown
/// or ranked as this run's.
///
/// # Errors
///
/// As [`read_validation_csv`]; [`Error::Data`] naming the file and the line of the first row
/// that is not of the run's archive, saying to validate again.
pub fn validation_of(run: &RunDir) -> Result<Option<Vec<ValidationRow>>> {
    let path = run.dir.join(VALIDATION_CSV);
    if !present(&path)? {
        return Ok(None);
    }
    let rows = read_validation_csv(&path)?;
    for (i, r) in rows.iter().enumerate() {
        let stale = |why: String| run.stale(&path, i + 2, why, "validate");
        let row = run.elite_of(r.cell, &path, i + 2, "validate")?;
        let Some(k) = run.config.features.iter().position(|a| a.name == r.feature) else {
            return Err(stale(format!(
                "`{}` is not a feature of the run",
                r.feature
            )));
        };
        let archived = (row.means[k], row.sds[k], row.win_rate, row.games);
        if (r.map_mean, r.map_sd, r.map_win_rate, r.map_games) != archived {
            return Err(stale(format!(
                "the elite of cell {} changed since it was validated (its archived numbers are \
                 not the row's)",
                r.cell
            )));
        }
    }
    Ok(Some(rows))
}

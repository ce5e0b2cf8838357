//! `archive.csv` and `progress.csv`: written atomically, read back for `plot`.
//!
//! `archive.csv` has one row per elite, in cell order, with the columns
//!
//! ```text
//! cell, cell_<f1>, …, cell_<fk>, <f1>_mean, <f1>_sd, …, <fk>_mean, <fk>_sd,
//! win_rate, games, wins, draws, mean_score, evaluation, <weight 1>, …, <weight n>,
//! extra_<name>, …
//! ```
//!
//! where `cell` is the flat cell index, `cell_<f>` the cell's coordinate along feature `f`,
//! `<f>_mean`/`<f>_sd` the feature's mean and standard deviation over the elite's games,
//! `win_rate` the fitness, `mean_score` the tie-break, `evaluation` the index of the evaluation
//! that created the elite, then one column per weight (named as the weight) and one per extra
//! statistic kept by any elite (empty where an elite lacks it). Numbers are written in the
//! shortest form that reads back to the same `f64`.
//!
//! A run with adaptive sampling adds, as extra statistics ([`ArchiveTable::with_confidence`]),
//! each elite's confidence: `extra_repetitions` (repetitions per level played),
//! `extra_se_<f>` (the standard error of feature `f`'s mean; empty below two games),
//! `extra_win_rate_lo`/`extra_win_rate_hi` (the win rate's Wilson interval at the run's `z`)
//! and `extra_settled` (1 if every feature's standard error is within the run's target, else 0).
//!
//! `progress.csv` has one row per batch, the fields of [`BatchReport`] in order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, present, read_bytes, write_atomic};
use crate::qd::checkpoint::Checkpoint;
use crate::qd::{Adaptive, BatchReport, GenomeSpace, GridArchive};
use crate::report::csv::{check_rate, check_unique_columns, read_with_header, record_error};

/// File name of the archive table in a run directory.
pub const ARCHIVE_CSV: &str = "archive.csv";
/// File name of the progress table in a run directory.
pub const PROGRESS_CSV: &str = "progress.csv";
/// Prefix of the extra-statistic columns of `archive.csv`.
pub const EXTRA_PREFIX: &str = "extra_";
/// The extra statistic (adaptive sampling) that is 1 for an elite whose features' standard
/// errors are all within the target, else 0.
pub const SETTLED: &str = "settled";
/// Prefix of the extra statistics (adaptive sampling) holding a feature's standard error.
pub const SE_PREFIX: &str = "se_";

/// The fixed columns between the descriptor columns and the weights.
const FIXED: [&str; 6] = [
    "win_rate",
    "games",
    "wins",
    "draws",
    "mean_score",
    "evaluation",
];

/// One elite as a row of `archive.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchiveRow {
    /// Flat cell index.
    pub cell: usize,
    /// Grid coordinates, one per feature.
    pub coords: Vec<usize>,
    /// Feature means, one per feature.
    pub means: Vec<f64>,
    /// Feature standard deviations, one per feature.
    pub sds: Vec<f64>,
    /// Win rate (the fitness).
    pub win_rate: f64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Mean score (the tie-break).
    pub mean_score: f64,
    /// Index of the evaluation that created the elite.
    pub evaluation: u64,
    /// The weights, in the table's weight order.
    pub weights: Vec<f64>,
    /// Extra statistics the elite kept.
    pub extra: BTreeMap<String, f64>,
}

impl ArchiveRow {
    /// Checks the numbers a run writes: finite feature means, standard deviations, scores,
    /// weights and extras, no negative deviation, a win rate in [0, 1], wins and draws within
    /// the games.
    ///
    /// # Errors
    ///
    /// What is wrong, in words (the caller names the file and line).
    pub fn check(&self) -> std::result::Result<(), String> {
        let finite = [
            ("a feature mean", &self.means),
            ("a feature standard deviation", &self.sds),
            ("a weight", &self.weights),
        ];
        for (what, xs) in finite {
            if let Some(x) = xs.iter().find(|x| !x.is_finite()) {
                return Err(format!("{what} is {x}, not a finite number"));
            }
        }
        if let Some(x) = self.sds.iter().find(|&&x| x < 0.0) {
            return Err(format!("a feature standard deviation is negative ({x})"));
        }
        check_rate("win_rate", self.win_rate)?;
        if !self.mean_score.is_finite() {
            return Err(format!(
                "`mean_score` is {}, not a finite number",
                self.mean_score
            ));
        }
        if let Some((k, x)) = self.extra.iter().find(|(_, x)| !x.is_finite()) {
            return Err(format!("`{EXTRA_PREFIX}{k}` is {x}, not a finite number"));
        }
        if u64::from(self.wins) + u64::from(self.draws) > u64::from(self.games) {
            return Err(format!(
                "{} wins and {} draws in {} games",
                self.wins, self.draws, self.games
            ));
        }
        Ok(())
    }
}

/// The contents of `archive.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchiveTable {
    /// Feature names, in axis order.
    pub features: Vec<String>,
    /// Weight names.
    pub weights: Vec<String>,
    /// Names of the extra statistics (the union over the elites, sorted).
    pub extras: Vec<String>,
    /// The elites, in cell order.
    pub rows: Vec<ArchiveRow>,
}

impl ArchiveTable {
    /// The table of an archive whose genomes live in `space`.
    pub fn from_archive(archive: &GridArchive, space: &GenomeSpace) -> Self {
        let rows: Vec<ArchiveRow> = archive
            .elites()
            .map(|(cell, e)| {
                let ev = &e.evaluation;
                ArchiveRow {
                    cell,
                    coords: archive.index_to_grid(cell).unwrap_or_default(),
                    means: ev.descriptor_means.clone(),
                    sds: ev.descriptor_spreads.clone(),
                    win_rate: ev.fitness,
                    games: ev.games,
                    wins: ev.wins,
                    draws: ev.draws,
                    mean_score: ev.tie_break,
                    evaluation: e.index,
                    weights: e.genome.values.clone(),
                    extra: ev.extra.clone(),
                }
            })
            .collect();
        let extras: BTreeSet<&String> = rows.iter().flat_map(|r| r.extra.keys()).collect();
        ArchiveTable {
            features: archive.axes().iter().map(|a| a.name.clone()).collect(),
            weights: space.names.clone(),
            extras: extras.into_iter().cloned().collect(),
            rows,
        }
    }

    /// The table with each elite's confidence under adaptive sampling `a` added to its extra
    /// statistics (see the module docs); `archive` is the one the table was made from.
    pub fn with_confidence(mut self, archive: &GridArchive, a: &Adaptive) -> Self {
        for (row, (_, e)) in self.rows.iter_mut().zip(archive.elites()) {
            let ev = &e.evaluation;
            row.extra
                .insert("repetitions".into(), f64::from(e.repetitions));
            for (k, f) in self.features.iter().enumerate() {
                let se = ev.standard_error(k);
                if se.is_finite() {
                    row.extra.insert(format!("{SE_PREFIX}{f}"), se);
                }
            }
            let (lo, hi) = a.interval(ev);
            row.extra.insert("win_rate_lo".into(), lo);
            row.extra.insert("win_rate_hi".into(), hi);
            let settled = a.settled(ev, archive.axes());
            row.extra
                .insert(SETTLED.into(), if settled { 1.0 } else { 0.0 });
        }
        let extras: BTreeSet<&String> = self.rows.iter().flat_map(|r| r.extra.keys()).collect();
        self.extras = extras.into_iter().cloned().collect();
        self
    }

    /// The header row.
    pub fn header(&self) -> Vec<String> {
        let mut h = vec!["cell".to_string()];
        h.extend(self.features.iter().map(|f| format!("cell_{f}")));
        for f in &self.features {
            h.push(format!("{f}_mean"));
            h.push(format!("{f}_sd"));
        }
        h.extend(FIXED.iter().map(|s| s.to_string()));
        h.extend(self.weights.iter().cloned());
        h.extend(self.extras.iter().map(|x| format!("{EXTRA_PREFIX}{x}")));
        h
    }

    /// The table as CSV bytes.
    ///
    /// # Errors
    ///
    /// If two columns would share a name (say, a weight called `games`), a weight name starts
    /// with `extra_`, or a row's lengths do not match the header.
    pub fn to_csv(&self) -> Result<Vec<u8>> {
        let header = self.header();
        let mut seen = BTreeSet::new();
        for h in &header {
            if !seen.insert(h) {
                return Err(Error::config(
                    "archive.csv",
                    format!("two columns would be named `{h}`"),
                ));
            }
        }
        if let Some(w) = self.weights.iter().find(|w| w.starts_with(EXTRA_PREFIX)) {
            return Err(Error::config(
                "archive.csv",
                format!("weight `{w}` starts with `{EXTRA_PREFIX}`, reserved for extra statistics"),
            ));
        }
        let k = self.features.len();
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(&header).map_err(csv_error)?;
        for r in &self.rows {
            if r.coords.len() != k || r.means.len() != k || r.sds.len() != k {
                return Err(Error::config(
                    "archive.csv",
                    format!("row of cell {} does not have {k} features", r.cell),
                ));
            }
            if r.weights.len() != self.weights.len() {
                return Err(Error::config(
                    "archive.csv",
                    format!(
                        "row of cell {} does not have {} weights",
                        r.cell,
                        self.weights.len()
                    ),
                ));
            }
            let mut rec = vec![r.cell.to_string()];
            rec.extend(r.coords.iter().map(|c| c.to_string()));
            for (m, s) in r.means.iter().zip(&r.sds) {
                rec.push(m.to_string());
                rec.push(s.to_string());
            }
            rec.extend([
                r.win_rate.to_string(),
                r.games.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.mean_score.to_string(),
                r.evaluation.to_string(),
            ]);
            rec.extend(r.weights.iter().map(|x| x.to_string()));
            rec.extend(
                self.extras
                    .iter()
                    .map(|x| r.extra.get(x).map(f64::to_string).unwrap_or_default()),
            );
            w.write_record(&rec).map_err(csv_error)?;
        }
        w.into_inner()
            .map_err(|e| Error::config("archive.csv", e.to_string()))
    }

    /// Parses CSV bytes read from `origin` (named in errors) and checks every row as the run
    /// wrote it ([`ArchiveRow::check`]); no cell may appear twice.
    ///
    /// # Errors
    ///
    /// [`Error::Data`] naming `origin` (and the line, for a bad row).
    pub fn from_csv(bytes: &[u8], origin: &Path) -> Result<Self> {
        let mut r = ::csv::Reader::from_reader(bytes);
        let header: Vec<String> = r
            .headers()
            .map_err(|e| Error::data(origin, 0, e.to_string()))?
            .iter()
            .map(str::to_string)
            .collect();
        check_unique_columns(origin, header.iter().map(String::as_str))?;
        let mut table = parse_header(&header).map_err(|e| Error::data(origin, 0, e))?;
        let mut lines = BTreeMap::new();
        for (i, rec) in r.records().enumerate() {
            let line = i + 2;
            let rec = rec.map_err(|e| record_error(origin, line, &e))?;
            let row = table
                .parse_row(&rec)
                .and_then(|row| row.check().map(|()| row))
                .map_err(|e| Error::data(origin, line, e))?;
            if let Some(first) = lines.insert(row.cell, line) {
                return Err(Error::data(
                    origin,
                    line,
                    format!("cell {} appears twice (line {first})", row.cell),
                ));
            }
            table.rows.push(row);
        }
        Ok(table)
    }

    fn parse_row(&self, rec: &::csv::StringRecord) -> std::result::Result<ArchiveRow, String> {
        let header = self.header();
        let mut fields = header.iter().zip(rec.iter());
        let mut next = || fields.next().ok_or("too few fields".to_string());
        let k = self.features.len();
        let cell = parse(next()?)?;
        let coords = (0..k)
            .map(|_| parse(next()?))
            .collect::<std::result::Result<_, _>>()?;
        let (mut means, mut sds) = (Vec::new(), Vec::new());
        for _ in 0..k {
            means.push(parse(next()?)?);
            sds.push(parse(next()?)?);
        }
        let win_rate = parse(next()?)?;
        let games = parse(next()?)?;
        let wins = parse(next()?)?;
        let draws = parse(next()?)?;
        let mean_score = parse(next()?)?;
        let evaluation = parse(next()?)?;
        let weights = (0..self.weights.len())
            .map(|_| parse(next()?))
            .collect::<std::result::Result<_, _>>()?;
        let mut extra = BTreeMap::new();
        for name in &self.extras {
            let (col, v) = next()?;
            if !v.is_empty() {
                extra.insert(name.clone(), parse((col, v))?);
            }
        }
        Ok(ArchiveRow {
            cell,
            coords,
            means,
            sds,
            win_rate,
            games,
            wins,
            draws,
            mean_score,
            evaluation,
            weights,
            extra,
        })
    }
}

fn parse<T: std::str::FromStr>((col, v): (&String, &str)) -> std::result::Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("`{col}` is `{v}`, not a number of the right kind"))
}

/// Splits a header into features, weights and extras, checking the fixed columns.
fn parse_header(h: &[String]) -> std::result::Result<ArchiveTable, String> {
    let pos = h
        .iter()
        .position(|c| c == FIXED[0])
        .ok_or("no `win_rate` column: not an archive.csv")?;
    if h.first().map(String::as_str) != Some("cell") || pos < 4 || (pos - 1) % 3 != 0 {
        return Err("the header does not start with `cell`, then 3 columns per feature".into());
    }
    let k = (pos - 1) / 3;
    let features: Vec<String> = h[1..=k]
        .iter()
        .map(|c| c.strip_prefix("cell_").map(str::to_string))
        .collect::<Option<_>>()
        .ok_or("the cell coordinate columns must be named `cell_<feature>`")?;
    let table = ArchiveTable {
        features,
        weights: Vec::new(),
        extras: Vec::new(),
        rows: Vec::new(),
    };
    let rest = &h[pos + FIXED.len().min(h.len() - pos)..];
    let n_weights = rest
        .iter()
        .position(|c| c.starts_with(EXTRA_PREFIX))
        .unwrap_or(rest.len());
    let table = ArchiveTable {
        weights: rest[..n_weights].to_vec(),
        extras: rest[n_weights..]
            .iter()
            .map(|c| c.strip_prefix(EXTRA_PREFIX).map(str::to_string))
            .collect::<Option<_>>()
            .ok_or("extra columns must all come last")?,
        ..table
    };
    if table.header() != h {
        return Err(format!(
            "unexpected header; expected `{}`",
            table.header().join(",")
        ));
    }
    Ok(table)
}

fn csv_error(e: ::csv::Error) -> Error {
    Error::config("csv", e.to_string())
}

/// Writes `archive.csv` atomically.
pub fn write_archive_csv(path: &Path, table: &ArchiveTable) -> Result<()> {
    write_atomic(path, &table.to_csv()?)
}

/// Reads an `archive.csv` (at most [`DATA_LIMIT`] bytes); errors name the file and line.
pub fn read_archive_csv(path: &Path) -> Result<ArchiveTable> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    ArchiveTable::from_csv(&bytes, path)
}

/// Writes `progress.csv` (one row per batch) atomically.
pub fn write_progress_csv(path: &Path, reports: &[BatchReport]) -> Result<()> {
    let mut w = ::csv::WriterBuilder::new()
        .has_headers(true)
        .from_writer(Vec::new());
    if reports.is_empty() {
        w.write_record(PROGRESS_COLUMNS).map_err(csv_error)?;
    }
    for r in reports {
        w.serialize(r).map_err(csv_error)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::config("progress.csv", e.to_string()))?;
    write_atomic(path, &bytes)
}

/// The columns of `progress.csv`: the fields of [`BatchReport`].
pub const PROGRESS_COLUMNS: [&str; 9] = [
    "batch",
    "evaluations",
    "games",
    "elites",
    "coverage",
    "qd_score",
    "max_fitness",
    "mean_fitness",
    "seconds",
];

/// Reads a `progress.csv` (to append to it when a run resumes; at most [`DATA_LIMIT`] bytes)
/// and checks its rows as the run wrote them: batches `0, 1, 2, …` in order, evaluation and
/// game counts that never fall, coverage and win rates in [0, 1], a QD score and seconds that
/// are finite and not negative.
///
/// # Errors
///
/// As [`read_with_header`]; [`Error::Data`] naming the file and the line of the first bad row.
pub fn read_progress_csv(path: &Path) -> Result<Vec<BatchReport>> {
    let mut r = read_with_header(path, &PROGRESS_COLUMNS)?;
    let mut reports: Vec<BatchReport> = Vec::new();
    for (i, row) in r.deserialize().enumerate() {
        let line = i + 2;
        let row: BatchReport = row.map_err(|e| Error::data(path, line, e.to_string()))?;
        check_progress_row(&row, i as u64, reports.last())
            .map_err(|e| Error::data(path, line, e))?;
        reports.push(row);
    }
    Ok(reports)
}

/// Checks row `row` of `progress.csv`, the one of batch `batch`, after the row `before`.
fn check_progress_row(
    row: &BatchReport,
    batch: u64,
    before: Option<&BatchReport>,
) -> std::result::Result<(), String> {
    if row.batch != batch {
        return Err(format!(
            "batch {} where batch {batch} belongs (rows missing, doubled or out of order)",
            row.batch
        ));
    }
    if let Some(b) = before
        && (row.evaluations < b.evaluations || row.games < b.games)
    {
        return Err("fewer evaluations or games than the row before".to_string());
    }
    let rates = [
        ("coverage", Some(row.coverage)),
        ("max_fitness", row.max_fitness),
        ("mean_fitness", row.mean_fitness),
    ];
    for (name, x) in rates {
        if let Some(x) = x {
            check_rate(name, x)?;
        }
    }
    for (name, x) in [("qd_score", row.qd_score), ("seconds", row.seconds)] {
        if !(x.is_finite() && x >= 0.0) {
            return Err(format!("`{name}` is {x}, not a finite number ≥ 0"));
        }
    }
    Ok(())
}

/// Checks `progress.csv` at `path`, read as `reports`, against a checkpoint of `batches`
/// batches whose archive and counts give the row `last` (the row of its last batch, but for
/// the seconds): every batch the checkpoint holds has its row, the last of them `last` (its
/// evaluations, games, elites, coverage, QD score, best and mean win rates), and at most one
/// row follows (a batch whose files were written by a run killed before its checkpoint). So
/// the `progress.csv` of another run of the same config is refused.
///
/// # Errors
///
/// [`Error::Data`] naming `path` and saying what does not fit.
pub fn check_progress_against(
    path: &Path,
    reports: &[BatchReport],
    batches: u64,
    last: &BatchReport,
) -> Result<()> {
    let rows = reports.len() as u64;
    if rows < batches || rows > batches + 1 {
        return Err(Error::data(
            path,
            0,
            format!(
                "{rows} batch row(s), but the checkpoint holds {batches} batch(es): the file is \
                 damaged or another run's"
            ),
        ));
    }
    let Some(row) = batches.checked_sub(1).map(|b| &reports[b as usize]) else {
        return Ok(());
    };
    let counts = |r: &BatchReport| (r.evaluations, r.games);
    let archive = |r: &BatchReport| {
        (
            r.elites,
            r.coverage,
            r.qd_score,
            r.max_fitness,
            r.mean_fitness,
        )
    };
    let line = (batches + 1) as usize;
    if counts(row) != counts(last) {
        return Err(Error::data(
            path,
            line,
            format!(
                "{} evaluations and {} games after batch {}, but the checkpoint holds {} and \
                 {}: the file is damaged or another run's",
                row.evaluations, row.games, row.batch, last.evaluations, last.games
            ),
        ));
    }
    if archive(row) != archive(last) {
        return Err(Error::data(
            path,
            line,
            format!(
                "{} elites and a QD score of {} after batch {}, but the checkpoint's archive \
                 has {} and {}: the file is damaged or another run's",
                row.elites, row.qd_score, row.batch, last.elites, last.qd_score
            ),
        ));
    }
    Ok(())
}

/// The row of `progress.csv` for the last batch checkpoint `c` holds (seconds 0).
fn checkpoint_row(c: &Checkpoint) -> BatchReport {
    let s = c.archive.stats();
    BatchReport {
        batch: c.next_batch.saturating_sub(1),
        evaluations: c.evaluations,
        games: c.games,
        elites: s.num_elites,
        coverage: s.coverage,
        qd_score: s.qd_score,
        max_fitness: s.max_fitness,
        mean_fitness: s.mean_fitness,
        seconds: 0.0,
    }
}

/// Reads `progress.csv` at `path` ([`read_progress_csv`]) and, if the run has a checkpoint at
/// `checkpoint` (anything at that path is read: a directory, a FIFO or a dangling link there
/// is refused by name), checks the rows against it ([`check_progress_against`]).
///
/// # Errors
///
/// As [`read_progress_csv`], [`Checkpoint::load`] and [`check_progress_against`].
pub fn read_run_progress(path: &Path, checkpoint: &Path) -> Result<Vec<BatchReport>> {
    let reports = read_progress_csv(path)?;
    if present(checkpoint)? {
        let c = Checkpoint::load(checkpoint)?;
        check_progress_against(path, &reports, c.next_batch, &checkpoint_row(&c))?;
    }
    Ok(reports)
}

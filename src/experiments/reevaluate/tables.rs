//! A re-evaluation's results: the corrected archive, `reevaluated.csv`,
//! `reevaluated_summary.csv` and the printed totals (see the module docs of [`super`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::experiments::feature_spread::FeatureSpread;
use crate::experiments::run_dir::RunDir;
use crate::qd::{ArchiveStats, Evaluation, FeatureAxis, Genome, GridArchive};
use crate::report::archive::ArchiveRow;
use crate::report::csv::{CsvTable, check_finite, check_rate, read_with_header, record_error};
use crate::report::table::aligned;
use crate::stats::{Z_95, mean, wilson_interval};

/// File name of the per-elite re-evaluation table in a run directory.
pub const REEVALUATED_CSV: &str = "reevaluated.csv";
/// File name of the re-evaluation summary in a run directory.
pub const REEVALUATED_SUMMARY_CSV: &str = "reevaluated_summary.csv";
/// The columns of `reevaluated_summary.csv` that every run has; [`summary_columns`] adds
/// three per feature.
pub const SUMMARY_COLUMNS: [&str; 14] = [
    "elites",
    "kept_cell_elites",
    "kept_cell_share",
    "kept_cell_ceiling",
    "corrected_elites",
    "cells",
    "archived_coverage",
    "corrected_coverage",
    "archived_qd_score",
    "corrected_qd_score",
    "archived_mean_win_rate",
    "new_mean_win_rate",
    "games_per_elite",
    "seed",
];

/// The columns of `reevaluated_summary.csv` for a run with these features: [`SUMMARY_COLUMNS`],
/// then per feature (in axis order) `<f>_true_sd`, `<f>_true_sd_cells` and `<f>_reliability`
/// (see [`FeatureSpread::columns`]).
pub fn summary_columns(features: &[String]) -> Vec<String> {
    let mut h: Vec<String> = SUMMARY_COLUMNS.map(String::from).to_vec();
    for f in features {
        h.extend(["true_sd", "true_sd_cells", "reliability"].map(|c| format!("{f}_{c}")));
    }
    h
}

/// How many of the elites whose win rate fell most are printed.
const PRINTED_DROPS: usize = 5;

/// The columns of `reevaluated.csv` for a run with these features, in axis order.
pub fn reevaluated_columns(features: &[String]) -> Vec<String> {
    let each = |f: &dyn Fn(&String) -> Vec<String>| -> Vec<String> {
        features.iter().flat_map(f).collect()
    };
    let mut h = vec!["cell".to_string()];
    h.extend(each(&|f| vec![format!("cell_{f}")]));
    h.extend(each(&|f| {
        vec![format!("map_{f}_mean"), format!("map_{f}_sd")]
    }));
    h.extend(
        [
            "map_win_rate",
            "map_games",
            "new_win_rate",
            "new_win_rate_lo",
            "new_win_rate_hi",
            "new_games",
            "new_wins",
            "new_draws",
        ]
        .map(String::from),
    );
    h.extend(each(&|f| {
        vec![format!("new_{f}_mean"), format!("new_{f}_sd")]
    }));
    h.push("new_cell".into());
    h.extend(each(&|f| vec![format!("new_cell_{f}")]));
    h.extend(["kept_cell", "corrected_elite"].map(String::from));
    h
}

/// The chance that `evaluation`'s features, re-measured on as many games, fall again in the
/// cell at `coords` (each feature's new mean normal around `evaluation`'s mean with its
/// standard error, the features independent): the product over the axes of the normal
/// probability of the cell's [value bounds](crate::qd::FeatureAxis::value_bounds).
pub fn keep_chance(axes: &[FeatureAxis], coords: &[usize], evaluation: &Evaluation) -> f64 {
    let phi = |z: f64| 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
    axes.iter()
        .zip(coords)
        .enumerate()
        .map(|(k, (axis, &i))| {
            let (lo, hi) = axis.value_bounds(i);
            let (mu, se) = (evaluation.descriptor_means[k], evaluation.standard_error(k));
            if se == 0.0 {
                f64::from(u8::from(lo <= mu && mu < hi))
            } else if !se.is_finite() {
                0.0
            } else {
                phi((hi - mu) / se) - phi((lo - mu) / se)
            }
        })
        .product()
}

/// One re-evaluated elite.
#[derive(Clone, Debug, PartialEq)]
pub struct Reevaluated {
    /// The elite as archived.
    pub row: ArchiveRow,
    /// Its re-evaluation games.
    pub evaluation: Evaluation,
    /// The cell its new feature means fall in; `None` if they cannot be placed (a feature that
    /// is not a finite number).
    pub new_cell: Option<usize>,
    /// True if it holds `new_cell` in the corrected archive.
    pub corrected_elite: bool,
}

impl Reevaluated {
    /// True if the elite's new cell is its archived cell.
    pub fn kept_cell(&self) -> bool {
        self.new_cell == Some(self.row.cell)
    }
}

/// The outcome of a re-evaluation: every elite, the archive as archived and as corrected.
#[derive(Clone, Debug, PartialEq)]
pub struct Reevaluation {
    /// The elites, in archived cell order.
    pub elites: Vec<Reevaluated>,
    /// Games each elite played.
    pub games_per_elite: u32,
    /// Cells of the grid.
    pub cells: usize,
    /// The seed the games derived from (`--seed` or the run seed).
    pub seed: u64,
    /// The share of elites a second re-play of as many games would keep in their new cells
    /// were their new means their true ones ([`keep_chance`]): what "kept their cell" could
    /// reach with these elites at this number of games, however well the run had placed them
    /// (`None` without elites).
    pub kept_cell_ceiling: Option<f64>,
    /// Per feature, in axis order: how much the elites truly differ, beside the noise of their
    /// new means. A feature whose true spread is a small part of a cell width cannot keep its
    /// elites in their cells, nor in order on other levels, at any number of games.
    pub spreads: Vec<FeatureSpread>,
    /// The archive's numbers as archived: the run's elites and win rates.
    pub archived: ArchiveStats,
    /// The corrected archive's numbers.
    pub corrected: ArchiveStats,
}

impl Reevaluation {
    /// The re-evaluation of `run` from each archived elite and its new evaluation (in archived
    /// cell order): places each in the run's grid and fills the corrected archive under the
    /// run's replacement rule (see the [module docs](super)).
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] if an evaluation placed in the grid does not fit the archive (not
    /// expected: placing checks it).
    pub fn new(
        run: &RunDir,
        played: Vec<(ArchiveRow, Evaluation)>,
        games_per_elite: u32,
        seed: u64,
    ) -> Result<Self> {
        let axes = run.grid.axes().len();
        let new_cells: Vec<Option<usize>> = played
            .iter()
            .map(|(_, ev)| {
                ev.validate(axes)
                    .ok()
                    .and_then(|()| run.grid.index_of(&ev.descriptor_means).ok())
            })
            .collect();
        // The placed elites (elite, cell), offered as one batch in cell order: the b-th gets
        // evaluation index b.
        let placed: Vec<(usize, usize)> = new_cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, c)))
            .collect();
        let mut corrected = GridArchive::new(run.grid.axes().to_vec(), run.grid.replacement())?;
        corrected.add_batch(
            placed
                .iter()
                .map(|&(i, _)| {
                    let (row, ev) = &played[i];
                    (Genome::new(row.weights.clone()), ev.clone())
                })
                .collect(),
        )?;
        let mut holds = vec![false; played.len()];
        for (b, &(i, cell)) in placed.iter().enumerate() {
            holds[i] = corrected.elite(cell).is_some_and(|e| e.index == b as u64);
        }
        let archived = archived_stats(run);
        let kept_cell_ceiling = mean(played.iter().zip(&new_cells).map(|((_, ev), cell)| {
            cell.and_then(|c| run.grid.index_to_grid(c))
                .map_or(0.0, |coords| keep_chance(run.grid.axes(), &coords, ev))
        }));
        let spreads = run
            .grid
            .axes()
            .iter()
            .enumerate()
            .map(|(k, axis)| FeatureSpread::of(axis, k, played.iter().map(|(_, ev)| ev)))
            .collect();
        let elites = played
            .into_iter()
            .zip(new_cells)
            .zip(holds)
            .map(
                |(((row, evaluation), new_cell), corrected_elite)| Reevaluated {
                    row,
                    evaluation,
                    new_cell,
                    corrected_elite,
                },
            )
            .collect();
        Ok(Reevaluation {
            elites,
            games_per_elite,
            cells: run.grid.num_cells(),
            seed,
            kept_cell_ceiling,
            spreads,
            archived,
            corrected: corrected.stats(),
        })
    }

    /// How many elites kept their cell.
    pub fn kept_cell(&self) -> usize {
        self.elites.iter().filter(|e| e.kept_cell()).count()
    }

    /// `reevaluated.csv`.
    pub fn table(&self, run: &RunDir) -> CsvTable {
        let mut t = CsvTable::new(reevaluated_columns(&run.archive.features));
        let axes = run.archive.features.len();
        for e in &self.elites {
            let (r, ev) = (&e.row, &e.evaluation);
            let (lo, hi) = wilson_interval(u64::from(ev.wins), u64::from(ev.games), Z_95);
            let mut row = vec![r.cell.to_string()];
            row.extend(r.coords.iter().map(usize::to_string));
            for k in 0..axes {
                row.extend([r.means[k].to_string(), r.sds[k].to_string()]);
            }
            row.extend([
                r.win_rate.to_string(),
                r.games.to_string(),
                ev.fitness.to_string(),
                lo.to_string(),
                hi.to_string(),
                ev.games.to_string(),
                ev.wins.to_string(),
                ev.draws.to_string(),
            ]);
            for k in 0..axes {
                row.extend([
                    ev.descriptor_means[k].to_string(),
                    ev.descriptor_spreads[k].to_string(),
                ]);
            }
            let coords = e.new_cell.and_then(|c| run.grid.index_to_grid(c));
            row.push(e.new_cell.map_or_else(String::new, |c| c.to_string()));
            match coords {
                Some(cs) => row.extend(cs.iter().map(usize::to_string)),
                None => row.extend((0..axes).map(|_| String::new())),
            }
            row.extend([e.kept_cell().to_string(), e.corrected_elite.to_string()]);
            t.rows.push(row);
        }
        t
    }

    /// `reevaluated_summary.csv`: one row, columns [`summary_columns`].
    pub fn summary_table(&self) -> CsvTable {
        let n = self.elites.len();
        let kept = self.kept_cell();
        let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        let names: Vec<String> = self.spreads.iter().map(|f| f.name.clone()).collect();
        let mut t = CsvTable::new(summary_columns(&names));
        let mut row = vec![
            n.to_string(),
            kept.to_string(),
            opt((n > 0).then(|| kept as f64 / n as f64)),
            opt(self.kept_cell_ceiling),
            self.corrected.num_elites.to_string(),
            self.cells.to_string(),
            self.archived.coverage.to_string(),
            self.corrected.coverage.to_string(),
            self.archived.qd_score.to_string(),
            self.corrected.qd_score.to_string(),
            opt(self.archived.mean_fitness),
            opt(self.new_mean_win_rate()),
            self.games_per_elite.to_string(),
            self.seed.to_string(),
        ];
        for f in &self.spreads {
            row.extend(f.columns());
        }
        t.rows.push(row);
        t
    }

    /// The mean new win rate of all re-played elites (`None` if there is none).
    pub fn new_mean_win_rate(&self) -> Option<f64> {
        mean(self.elites.iter().map(|e| e.evaluation.fitness))
    }

    /// The printed report: archived and corrected totals side by side, how many elites kept
    /// their cell, and the elites whose win rate fell most.
    pub fn printed(&self) -> String {
        let pct = |x: Option<f64>| x.map_or_else(|| "-".into(), |x| format!("{:.1}", 100.0 * x));
        let (a, c) = (&self.archived, &self.corrected);
        let header: Vec<String> = ["", "archived", "corrected"].map(String::from).to_vec();
        let rows: Vec<Vec<String>> = [
            ("elites", a.num_elites.to_string(), c.num_elites.to_string()),
            ("coverage %", pct(Some(a.coverage)), pct(Some(c.coverage))),
            (
                "QD score",
                format!("{:.2}", a.qd_score),
                format!("{:.2}", c.qd_score),
            ),
            ("mean win %", pct(a.mean_fitness), pct(c.mean_fitness)),
        ]
        .into_iter()
        .map(|(name, x, y)| vec![name.to_string(), x, y])
        .collect();
        let n = self.elites.len();
        let kept = self.kept_cell();
        let mut text = aligned(&header, &rows);
        text += &format!(
            "kept their cell: {kept} of {n} elites ({:.1}%); mean win rate of all {n}: {}% archived, {}% re-played\n",
            100.0 * kept as f64 / n.max(1) as f64,
            pct(a.mean_fitness),
            pct(self.new_mean_win_rate()),
        );
        if let Some(c) = self.kept_cell_ceiling {
            text += &format!(
                "ceiling: a second re-play of {} games would keep {:.1}% in their new cells, were their new means exact\n",
                self.games_per_elite,
                100.0 * c
            );
        }
        for f in &self.spreads {
            if let (Some(s), Some(cells)) = (f.spread, f.true_sd_cells()) {
                let reliability = s
                    .reliability
                    .map_or_else(|| "-".into(), |r| format!("{r:.2}"));
                text += &format!(
                    "{}: the elites truly differ by {:.3} (sd; {cells:.2} of a cell width), their means by {:.3} with a noise of {:.3}; reliability {reliability}\n",
                    f.name, s.true_sd, s.sd, s.noise
                );
            }
        }
        let mut drops: Vec<&Reevaluated> = self
            .elites
            .iter()
            .filter(|e| e.evaluation.fitness < e.row.win_rate)
            .collect();
        drops.sort_by(|x, y| {
            let fall = |e: &Reevaluated| e.row.win_rate - e.evaluation.fitness;
            fall(y)
                .total_cmp(&fall(x))
                .then(x.row.cell.cmp(&y.row.cell))
        });
        drops.truncate(PRINTED_DROPS);
        if !drops.is_empty() {
            let header: Vec<String> = ["cell", "map win %", "new win %", "95% CI", "new cell"]
                .map(String::from)
                .to_vec();
            let rows: Vec<Vec<String>> = drops
                .iter()
                .map(|e| {
                    let ev = &e.evaluation;
                    let (lo, hi) = wilson_interval(u64::from(ev.wins), u64::from(ev.games), Z_95);
                    vec![
                        e.row.cell.to_string(),
                        pct(Some(e.row.win_rate)),
                        pct(Some(ev.fitness)),
                        format!("{:.1}-{:.1}", 100.0 * lo, 100.0 * hi),
                        e.new_cell.map_or_else(|| "none".into(), |c| c.to_string()),
                    ]
                })
                .collect();
            text += &format!("\nlargest win-rate drops:\n{}", aligned(&header, &rows));
        }
        text
    }
}

/// One row of `reevaluated.csv` as read back (the columns the run explorer shows).
#[derive(Clone, Debug, PartialEq)]
pub struct ReevaluatedRow {
    /// The elite's cell.
    pub cell: usize,
    /// Its feature means in the archive, in axis order.
    pub map_means: Vec<f64>,
    /// Its win rate in the archive.
    pub map_win_rate: f64,
    /// Its games in the archive.
    pub map_games: u32,
    /// Its win rate in the fresh games.
    pub new_win_rate: f64,
    /// The 95 % Wilson interval of `new_win_rate`.
    pub new_win_rate_interval: (f64, f64),
    /// Fresh games played.
    pub new_games: u32,
    /// Fresh games won.
    pub new_wins: u32,
    /// Fresh games drawn.
    pub new_draws: u32,
    /// Each feature's mean and standard deviation over the fresh games, in axis order.
    pub new_features: Vec<(f64, f64)>,
    /// The cell the fresh means fall in (`None` if they cannot be placed).
    pub new_cell: Option<usize>,
    /// The new cell is the archived cell.
    pub kept_cell: bool,
}

/// Reads `reevaluated.csv` of a run with `features` (in axis order) and checks it as
/// `reevaluate` wrote it: win rates and their intervals in [0, 1], wins and draws within the
/// games, the archive's feature numbers finite, the fresh ones finite where the elite was
/// placed in a cell, `kept_cell` true exactly when the new cell is the archived one, and one row
/// per cell.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read or is larger than
/// [`DATA_LIMIT`](crate::files::DATA_LIMIT); [`Error::Data`] naming it (and the line, for a bad
/// row) if its header is not [`reevaluated_columns`] or a row breaks one of the rules above.
pub fn read_reevaluated_csv(path: &Path, features: &[String]) -> Result<Vec<ReevaluatedRow>> {
    let columns = reevaluated_columns(features);
    let names: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut reader = read_with_header(path, &names)?;
    let mut rows: Vec<ReevaluatedRow> = Vec::new();
    let mut lines: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let bad = |why: String| Error::data(path, line, why);
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        let row = reevaluated_row(&rec, &columns, features).map_err(bad)?;
        if let Some(first) = lines.insert(row.cell, line) {
            return Err(Error::data(
                path,
                line,
                format!("cell {} appears twice (line {first})", row.cell),
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The rows of `run`'s `reevaluated.csv` (`None` if it has none), read as `reevaluate` wrote
/// them ([`read_reevaluated_csv`], with the archive's features) and bound to the run: each
/// row's elite is the archive's elite of its cell as it was re-played — the archived numbers
/// the row repeats (`map_win_rate`, `map_games`, each `map_{f}_mean`) those of `archive.csv` —
/// so that another run's table, or one the run went on after, is an error rather than shown as
/// this run's.
///
/// # Errors
///
/// As [`read_reevaluated_csv`]; [`Error::Data`] naming the file and the line of the first row
/// that is not of the run's archive, saying to re-evaluate again.
pub fn reevaluation_of(run: &RunDir) -> Result<Option<Vec<ReevaluatedRow>>> {
    let path = run.dir.join(REEVALUATED_CSV);
    if !crate::files::present(&path)? {
        return Ok(None);
    }
    let rows = read_reevaluated_csv(&path, &run.archive.features)?;
    for (i, r) in rows.iter().enumerate() {
        let stale = |why: String| run.stale(&path, i + 2, why, "reevaluate");
        let row = run.elite_of(r.cell, &path, i + 2, "reevaluate")?;
        if (r.map_win_rate, r.map_games, &r.map_means) != (row.win_rate, row.games, &row.means) {
            return Err(stale(format!(
                "the elite of cell {} changed since it was re-evaluated (its archived numbers \
                 are not the row's)",
                r.cell
            )));
        }
    }
    Ok(Some(rows))
}

/// One record of `reevaluated.csv` (whose header is `columns`), parsed and checked.
fn reevaluated_row(
    rec: &::csv::StringRecord,
    columns: &[String],
    features: &[String],
) -> std::result::Result<ReevaluatedRow, String> {
    let get = |name: &str| {
        let at = columns.iter().position(|c| c == name).unwrap_or(0);
        rec.get(at).unwrap_or("").trim()
    };
    fn parse<T: FromStr>(name: &str, text: &str) -> std::result::Result<T, String> {
        text.parse()
            .map_err(|_| format!("`{name}` is `{text}`, not a number of the right kind"))
    }
    let num = |name: &str| parse::<f64>(name, get(name));
    let count = |name: &str| parse::<u32>(name, get(name));
    let cell: usize = parse("cell", get("cell"))?;
    for name in [
        "map_win_rate",
        "new_win_rate",
        "new_win_rate_lo",
        "new_win_rate_hi",
    ] {
        check_rate(name, num(name)?)?;
    }
    let (new_games, new_wins, new_draws) =
        (count("new_games")?, count("new_wins")?, count("new_draws")?);
    if u64::from(new_wins) + u64::from(new_draws) > u64::from(new_games) {
        return Err(format!(
            "{new_wins} wins and {new_draws} draws in {new_games} games"
        ));
    }
    let map_games = count("map_games")?;
    let mut map_means = Vec::with_capacity(features.len());
    for f in features {
        let (m, sd) = (format!("map_{f}_mean"), format!("map_{f}_sd"));
        let mean = num(&m)?;
        check_finite(&m, mean)?;
        map_means.push(mean);
        check_finite(&sd, num(&sd)?)?;
    }
    let new_cell = match get("new_cell") {
        "" => None,
        text => Some(parse::<usize>("new_cell", text)?),
    };
    let mut new_features = Vec::with_capacity(features.len());
    for f in features {
        let (m, sd) = (format!("new_{f}_mean"), format!("new_{f}_sd"));
        let pair = (num(&m)?, num(&sd)?);
        if new_cell.is_some() {
            check_finite(&m, pair.0)?;
            check_finite(&sd, pair.1)?;
        }
        new_features.push(pair);
    }
    let kept_cell: bool = get("kept_cell")
        .parse()
        .map_err(|_| format!("`kept_cell` is `{}`, not true or false", get("kept_cell")))?;
    if kept_cell != (new_cell == Some(cell)) {
        return Err(format!(
            "`kept_cell` is {kept_cell}, but the new cell is {}",
            new_cell.map_or_else(|| "none".to_string(), |c| c.to_string())
        ));
    }
    Ok(ReevaluatedRow {
        cell,
        map_means,
        map_win_rate: num("map_win_rate")?,
        map_games,
        new_win_rate: num("new_win_rate")?,
        new_win_rate_interval: (num("new_win_rate_lo")?, num("new_win_rate_hi")?),
        new_games,
        new_wins,
        new_draws,
        new_features,
        new_cell,
        kept_cell,
    })
}

/// The run's archive numbers as archived, computed as [`GridArchive::stats`] computes them:
/// the QD score is the sum of the elites' win rates.
fn archived_stats(run: &RunDir) -> ArchiveStats {
    let fits: Vec<f64> = run.archive.rows.iter().map(|r| r.win_rate).collect();
    ArchiveStats::of(&fits, run.grid.num_cells())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;
    use crate::experiments::run_config::RunConfig;
    use crate::report::archive::ArchiveTable;

    /// A run over one axis `x` of 5 bins on [0, 5] with `cells` archived, win rate 0.5 each.
    fn run(cells: &[usize]) -> RunDir {
        let config = RunConfig::parse(
            "seed = 3\nbatch_size = 1\n[evaluation]\nlevels = [1]\nrepetitions = 4\n\
             player = \"pmcts\"\nbaseline = \"mcts\"\n[genome]\nscripts = [\"a\"]\n\
             [[features]]\nname = \"x\"\nmin = 0\nmax = 5\nbins = 5\n\
             [map_elites]\nrandom_init = 0\niterations = 0\n",
            "t",
        )
        .unwrap();
        let grid = GridArchive::new(config.features.clone(), config.replacement).unwrap();
        let rows = cells
            .iter()
            .map(|&c| ArchiveRow {
                cell: c,
                coords: vec![c],
                means: vec![c as f64 + 0.5],
                sds: vec![0.0],
                win_rate: 0.5,
                games: 20,
                wins: 10,
                draws: 0,
                mean_score: 1.0,
                evaluation: c as u64,
                weights: vec![c as f64],
                extra: BTreeMap::new(),
            })
            .collect();
        let archive = ArchiveTable {
            features: vec!["x".into()],
            weights: vec!["a".into()],
            extras: vec![],
            rows,
        };
        RunDir {
            dir: PathBuf::from("run"),
            config,
            archive,
            grid,
        }
    }

    fn eval(x: f64, wins: u32, score: f64) -> Evaluation {
        Evaluation {
            fitness: f64::from(wins) / 4.0,
            tie_break: score,
            games: 4,
            wins,
            draws: 0,
            descriptor_means: vec![x],
            descriptor_spreads: vec![0.0],
            descriptor_counts: Vec::new(),
            extra: BTreeMap::new(),
        }
    }

    #[test]
    fn elites_are_rebinned_one_per_cell_by_new_win_rate_then_score() {
        let run = run(&[0, 1, 2, 3]);
        let rows = run.archive.rows.clone();
        // Cells 0 and 1 move to cell 4 (x = 9 clamps to the last bin) with equal win rates:
        // the higher mean score holds it. Cell 2 stays; cell 3's features are not finite.
        let played = vec![
            (rows[0].clone(), eval(4.5, 1, 1.0)),
            (rows[1].clone(), eval(9.0, 1, 2.0)),
            (rows[2].clone(), eval(2.5, 3, 0.0)),
            (rows[3].clone(), eval(f64::NAN, 4, 0.0)),
        ];
        let r = Reevaluation::new(&run, played, 4, 3).unwrap();
        let cells: Vec<Option<usize>> = r.elites.iter().map(|e| e.new_cell).collect();
        assert_eq!(cells, [Some(4), Some(4), Some(2), None]);
        let held: Vec<bool> = r.elites.iter().map(|e| e.corrected_elite).collect();
        assert_eq!(held, [false, true, true, false]);
        assert_eq!(r.kept_cell(), 1);
        assert_eq!((r.archived.num_elites, r.corrected.num_elites), (4, 2));
        assert_eq!((r.archived.qd_score, r.corrected.qd_score), (2.0, 1.0));
        assert_eq!(r.corrected.coverage, 0.4);

        let t = r.table(&run);
        assert_eq!(t.header, reevaluated_columns(&["x".to_string()]));
        let last = t.rows.last().unwrap();
        let at = |name: &str| t.header.iter().position(|c| c == name).unwrap();
        assert_eq!(
            (
                last[at("new_cell")].as_str(),
                last[at("new_cell_x")].as_str()
            ),
            ("", "")
        );
        assert_eq!(last[at("kept_cell")], "false");
        let s = r.summary_table();
        // Exact features (no spread): the three placed elites would stay, the fourth cannot.
        assert_eq!(s.rows[0][..6], ["4", "1", "0.25", "0.75", "2", "5"]);
        assert!(r.printed().contains("kept their cell: 1 of 4"));
        assert!(r.printed().contains("would keep 75.0%"));
        // The finite means 4.5, 9, 2.5, known exactly here: all their spread is true (sample
        // sd 3.329), 3.33 cell widths of 1, reliability 1.
        let x = r.spreads[0].spread.unwrap();
        let sd = (((4.5f64 - 16.0 / 3.0).powi(2)
            + (9.0f64 - 16.0 / 3.0).powi(2)
            + (2.5f64 - 16.0 / 3.0).powi(2))
            / 2.0)
            .sqrt();
        assert!((x.true_sd - sd).abs() < 1e-12 && x.reliability == Some(1.0));
        assert_eq!(
            s.header[14..],
            ["x_true_sd", "x_true_sd_cells", "x_reliability"]
        );
        assert_eq!(s.rows[0][16], "1");
        assert!(
            r.printed()
                .contains("x: the elites truly differ by 3.329 (sd; 3.33 of a cell width)")
        );
    }

    #[test]
    fn keep_chance_is_the_normal_mass_of_the_cell() {
        let axes = [FeatureAxis::bucket("a", 0.0, 20.0, 2.0).unwrap()];
        // 101 games, spread 10 (SE 1), mean 1.5: cell 1 holds values [0.5, 2.5), ±1 SE.
        let e = Evaluation {
            games: 101,
            descriptor_means: vec![1.5],
            descriptor_spreads: vec![10.0],
            descriptor_counts: vec![101],
            ..Evaluation::default()
        };
        let p = keep_chance(&axes, &[1], &e);
        assert!((p - 0.682_689_49).abs() < 1e-6, "{p}");
        // An edge cell is open outwards: mean 30 in the last cell (≥ 19.5) stays for sure.
        let far = Evaluation {
            descriptor_means: vec![30.0],
            ..e.clone()
        };
        assert!((keep_chance(&axes, &[11], &far) - 1.0).abs() < 1e-9);
        // Two axes multiply.
        let two = [axes[0].clone(), axes[0].clone()];
        let both = Evaluation {
            descriptor_means: vec![1.5, 1.5],
            descriptor_spreads: vec![10.0, 10.0],
            descriptor_counts: vec![101, 101],
            ..e
        };
        assert!((keep_chance(&two, &[1, 1], &both) - p * p).abs() < 1e-12);
    }
}

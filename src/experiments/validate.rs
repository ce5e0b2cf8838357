//! `playstyles validate RUN_DIR`: re-plays elites of a MAP-Elites run on other levels and
//! compares their play-style features and win rates with the archive's (the paper's held-out
//! validation, its Table II).
//!
//! **Levels** (`--levels`): `held-out` (default), the game's built-in experiment levels minus
//! the run's training levels (`evaluation.levels` of `config.toml`); `paper`, all built-in
//! levels; a comma-separated list of level seeds; or `generated:N`, `N` levels from the game's
//! level generator whose seeds are `derive_seed(run seed, [GENERATED_LEVELS_TAG, i])` for
//! `i` in `0..N` (Tribes: Xin-Xi and Imperius).
//!
//! **Cells** (`--cells`): `corners` (default, as the paper), `all`, or a comma-separated list of
//! cell indices, each of which must hold an elite. The corners of a grid are the cells whose
//! every coordinate is 0 or the axis's last cell (two ends in 1-D, four corners in 2-D, eight in
//! 3-D); for each corner, the chosen elite is the occupied cell nearest to it by Euclidean
//! distance in grid coordinates, ties going to the lower cell index; the chosen cells are then
//! de-duplicated ([`corner_cells`]).
//!
//! **Games.** Each chosen elite is re-played exactly as `evolve` evaluated it:
//! [`evaluate_player`] with the run's player spec carrying the elite's weights
//! ([`super::evaluate::with_weights`]), the run's baseline and features, `--repetitions` games per level (default
//! 20) with seats alternating, and seed `derive_seed(run seed, [VALIDATION_TAG, cell])`. Elites
//! and games run in parallel on a local pool of `--threads` threads; the results are identical
//! for any thread count.
//!
//! **Outputs**, written atomically into the run directory and printed as aligned tables:
//!
//! - `validation.csv`: one row per validated elite and feature, in cell order then axis order:
//!   `cell`; `feature`; `map_mean`, `map_sd` (the feature's mean and standard deviation over
//!   the elite's games in the archive); `val_mean`, `val_sd` (the same over the validation
//!   games); `map_win_rate`, `val_win_rate`; `map_games`, `val_games`; `stays_in_cell`
//!   (`true` if `val_mean` falls in the elite's bucket on that feature's axis, i.e. the axis
//!   maps it to the elite's `cell_<feature>` coordinate).
//! - `validation_summary.csv`: columns `feature`, `elites`, `map_mean`, `val_mean` (means over
//!   the validated elites), `spearman`, `stays_in_cell`. One row per feature, where `spearman`
//!   is Spearman's rank correlation between the elites' map and validation means (ranks of
//!   ties averaged; empty with fewer than 3 elites or when either side has no spread,
//!   [`spearman`]) and `stays_in_cell` the share of elites whose validation value stays in its
//!   bucket on that axis; then a `win_rate` row (the win rates' means and rank correlation;
//!   `stays_in_cell` empty); then an `all_axes` row whose `stays_in_cell` is the share of
//!   elites whose validation descriptors fall in the elite's own cell on every axis at once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use rayon::prelude::*;

use super::config_file::LevelSet;
use super::evaluate::evaluate_player;
use super::run_dir::{RunDir, prepare_out_dir, read_config};
use super::{GameKind, output_error};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::features::Feature;
use crate::qd::checkpoint::invalid;
use crate::qd::{Evaluation, GridArchive};
use crate::report::archive::ArchiveRow;
use crate::report::csv::CsvTable;
use crate::report::progress::Progress;
use crate::report::table::aligned;
use crate::rng::derive_seed;
use crate::stats::{mean, spearman};

/// File name of the per-elite validation table in a run directory.
pub const VALIDATION_CSV: &str = "validation.csv";
/// File name of the validation summary in a run directory.
pub const VALIDATION_SUMMARY_CSV: &str = "validation_summary.csv";
/// Tag of the validation seeds: an elite's games use `derive_seed(run seed, [VALIDATION_TAG,
/// cell])` ("validate" in ASCII).
pub const VALIDATION_TAG: u64 = 0x7661_6c69_6461_7465;
/// Tag of the seeds of `generated:N` levels: level `i` is made from `derive_seed(run seed,
/// [GENERATED_LEVELS_TAG, i])` ("heldout" in ASCII).
pub const GENERATED_LEVELS_TAG: u64 = 0x0068_656c_646f_7574;
/// Default games per level and elite (as the paper).
pub const DEFAULT_REPETITIONS: u32 = 20;
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

/// Which levels to validate on (`--levels`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelChoice {
    /// `held-out`: the built-in levels the run did not train on.
    HeldOut,
    /// `paper`: all built-in levels.
    Paper,
    /// Level seeds (the built-in level for a built-in seed, else the generator's).
    Seeds(Vec<u64>),
    /// `generated:N`: `N` generated levels with seeds derived from the run seed.
    Generated(usize),
}

impl FromStr for LevelChoice {
    type Err = Error;

    /// Parses `held-out`, `paper`, `generated:N` (N ≥ 1) or a comma-separated list of distinct
    /// level seeds; errors name `--levels`.
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        let bad = |reason: String| Error::config("--levels", reason);
        Ok(match s {
            "held-out" => LevelChoice::HeldOut,
            "paper" => LevelChoice::Paper,
            _ => {
                if let Some(n) = s.strip_prefix("generated:") {
                    match n.trim().parse::<usize>() {
                        Ok(n) if n > 0 => LevelChoice::Generated(n),
                        _ => {
                            return Err(bad(format!(
                                "`{s}`: give the number of levels to generate, at least 1, as `generated:5`"
                            )));
                        }
                    }
                } else {
                    let mut seeds: Vec<u64> = Vec::new();
                    for part in s.split(',') {
                        let seed = part.trim().parse::<u64>().map_err(|_| {
                            bad(format!(
                                "`{}` is not a level seed (give held-out, paper, generated:N or a comma-separated list of seeds)",
                                part.trim()
                            ))
                        })?;
                        if seeds.contains(&seed) {
                            return Err(bad(format!("level {seed} is listed twice")));
                        }
                        seeds.push(seed);
                    }
                    LevelChoice::Seeds(seeds)
                }
            }
        })
    }
}

/// Which elites to validate (`--cells`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellChoice {
    /// `corners`: the occupied cells nearest to the grid's corners ([`corner_cells`]).
    Corners,
    /// `all`: every elite.
    All,
    /// Cell indices, each holding an elite.
    List(Vec<usize>),
}

impl FromStr for CellChoice {
    type Err = Error;

    /// Parses `corners`, `all` or a comma-separated list of distinct cell indices; errors name
    /// `--cells`. (Whether the cells hold elites is checked against the archive later.)
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        Ok(match s {
            "corners" => CellChoice::Corners,
            "all" => CellChoice::All,
            _ => {
                let mut cells: Vec<usize> = Vec::new();
                for part in s.split(',') {
                    let cell = part.trim().parse::<usize>().map_err(|_| {
                        Error::config(
                            "--cells",
                            format!(
                                "`{}` is not a cell index (give corners, all or a comma-separated list of cell indices)",
                                part.trim()
                            ),
                        )
                    })?;
                    if cells.contains(&cell) {
                        return Err(Error::config(
                            "--cells",
                            format!("cell {cell} is listed twice"),
                        ));
                    }
                    cells.push(cell);
                }
                CellChoice::List(cells)
            }
        })
    }
}

/// Validated settings of `playstyles validate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidateConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
    /// The levels to play.
    pub levels: LevelChoice,
    /// Games per level and elite (at least 1).
    pub repetitions: u32,
    /// The elites to play.
    pub cells: CellChoice,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace the tables of an earlier validation (without it, they are never overwritten).
    pub force: bool,
}

impl ValidateConfig {
    /// Settings with the defaults (held-out levels, 20 repetitions, corners, one thread per
    /// core, a progress bar); reads the run's `config.toml` for the game.
    ///
    /// # Errors
    ///
    /// As [`read_config`]: the directory or `config.toml` is missing or invalid.
    pub fn new(run_dir: PathBuf) -> Result<Self> {
        let game = read_config(&run_dir)?.game;
        Ok(ValidateConfig {
            run_dir,
            game,
            levels: LevelChoice::HeldOut,
            repetitions: DEFAULT_REPETITIONS,
            cells: CellChoice::Corners,
            threads: None,
            quiet: false,
            force: false,
        })
    }

    /// Sets the games per level and elite.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--repetitions` if it is 0.
    pub fn with_repetitions(mut self, repetitions: u32) -> Result<Self> {
        if repetitions == 0 {
            return Err(Error::config("--repetitions", "must be at least 1"));
        }
        self.repetitions = repetitions;
        Ok(self)
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--threads` if it is 0.
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        if threads == Some(0) {
            return Err(Error::config("--threads", "must be at least 1"));
        }
        self.threads = threads;
        Ok(self)
    }
}

/// One level to load, as resolved from a [`LevelChoice`] by [`level_refs`]; the game
/// ([`crate::kit::GameKit`]) turns it into a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelRef {
    /// A level name as the game loads it ([`crate::kit::GameKit::load_level`]).
    Load(String),
    /// A level from the game's generator with this seed.
    Generated(u64),
}

/// The levels of `choice` for a run trained on `training` with seed `run_seed`; `builtin` are
/// the names of the game's built-in levels. Held-out levels keep the order of `builtin`.
///
/// # Errors
///
/// [`Error::Config`] naming `--levels` if `held-out` leaves no level.
pub fn level_refs(
    choice: &LevelChoice,
    training: &LevelSet,
    builtin: &[String],
    run_seed: u64,
) -> Result<Vec<LevelRef>> {
    let load = |s: &String| LevelRef::Load(s.clone());
    Ok(match choice {
        LevelChoice::Paper => builtin.iter().map(load).collect(),
        LevelChoice::Seeds(seeds) => seeds
            .iter()
            .map(|s| LevelRef::Load(s.to_string()))
            .collect(),
        LevelChoice::Generated(n) => (0..*n as u64)
            .map(|i| LevelRef::Generated(derive_seed(run_seed, &[GENERATED_LEVELS_TAG, i])))
            .collect(),
        LevelChoice::HeldOut => {
            let held_out: Vec<LevelRef> = match training {
                LevelSet::Paper => Vec::new(),
                LevelSet::List(names) => builtin
                    .iter()
                    .filter(|s| !names.contains(s))
                    .map(load)
                    .collect(),
            };
            if held_out.is_empty() {
                return Err(Error::config(
                    "--levels",
                    "the run trained on every built-in level, so none is held out; give paper, generated:N or level seeds",
                ));
            }
            held_out
        }
    })
}

/// The occupied cells nearest to the corners of `grid` (see the module docs): for each corner
/// (every coordinate 0 or the axis's last cell), the cell of `occupied` at the least squared
/// Euclidean distance in grid coordinates, ties to the lower cell index; sorted, without
/// repeats. Empty if `occupied` is; cells off the grid are ignored.
pub fn corner_cells(grid: &GridArchive, occupied: &[usize]) -> Vec<usize> {
    let dims = grid.dims();
    let points: Vec<(usize, Vec<usize>)> = occupied
        .iter()
        .filter_map(|&c| grid.index_to_grid(c).map(|g| (c, g)))
        .collect();
    let mut chosen: Vec<usize> = (0..1usize << dims.len())
        .filter_map(|corner| {
            let target: Vec<usize> = dims
                .iter()
                .enumerate()
                .map(|(k, &d)| if corner >> k & 1 == 1 { d - 1 } else { 0 })
                .collect();
            points
                .iter()
                .min_by_key(|(cell, coords)| {
                    let d2: usize = coords
                        .iter()
                        .zip(&target)
                        .map(|(&a, &b)| a.abs_diff(b).pow(2))
                        .sum();
                    (d2, *cell)
                })
                .map(|(cell, _)| *cell)
        })
        .collect();
    chosen.sort_unstable();
    chosen.dedup();
    chosen
}

/// The cells `choice` picks from the run's archive, in cell order.
///
/// # Errors
///
/// [`Error::Config`] naming `--cells` for a listed cell that holds no elite, or if the
/// archive is empty.
pub fn choose_cells(choice: &CellChoice, run: &RunDir) -> Result<Vec<usize>> {
    let occupied: Vec<usize> = run.archive.rows.iter().map(|r| r.cell).collect();
    if occupied.is_empty() {
        return Err(Error::config(
            "--cells",
            format!("the archive of {} holds no elite", run.dir.display()),
        ));
    }
    Ok(match choice {
        CellChoice::Corners => corner_cells(&run.grid, &occupied),
        CellChoice::All => occupied,
        CellChoice::List(cells) => {
            if let Some(c) = cells.iter().find(|c| !occupied.contains(c)) {
                let why = if *c >= run.grid.num_cells() {
                    format!("the grid has {} cells", run.grid.num_cells())
                } else {
                    "it holds no elite".to_string()
                };
                return Err(Error::config(
                    "--cells",
                    format!("cell {c} cannot be validated: {why}"),
                ));
            }
            let mut cells = cells.clone();
            cells.sort_unstable();
            cells
        }
    })
}

/// One validated elite: its archive row and its validation evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated {
    /// The elite as archived.
    pub row: ArchiveRow,
    /// Its games on the validation levels.
    pub evaluation: Evaluation,
}

/// Validates the elites `cfg.cells` picks on `levels` (named for the reports; loaded by
/// [`super::run_game`] from [`level_refs`]) with the run's `features` (resolved for the game,
/// in axis order), writes `validation.csv` and `validation_summary.csv` and prints both.
///
/// # Errors
///
/// As [`choose_cells`]; [`Error::Config`] naming `--levels` if `levels` is empty, `--threads`
/// if the pool cannot be built, or the agent field at fault if the run's player or baseline
/// cannot be built; [`Error::Io`] if a file cannot be written.
pub fn validate<G: SearchSupport>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    features: &[Feature],
    run: &RunDir,
    cfg: &ValidateConfig,
    out: &mut impl Write,
) -> Result<Vec<Validated>> {
    if levels.is_empty() {
        return Err(Error::config("--levels", "no level to play"));
    }
    let cells = choose_cells(&cfg.cells, run)?;
    prepare_out_dir(
        &run.dir,
        "run_dir",
        &[VALIDATION_CSV, VALIDATION_SUMMARY_CSV],
        cfg.force,
        false,
    )?;
    let rc = &run.config;
    let baseline = rc.baseline.to_string();
    let jobs: Vec<(ArchiveRow, String)> = cells
        .iter()
        .filter_map(|&c| run.row(c))
        .map(|row| Ok((row.clone(), run.agent_spec(row)?)))
        .collect::<Result<_>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::config("--threads", e.to_string()))?;
    let per_elite = levels.len() as u64 * u64::from(cfg.repetitions);
    writeln!(
        out,
        "validating {} of {}: {} each ({} x {}): {}",
        count(jobs.len(), "elite"),
        run.dir.display(),
        count(per_elite as usize, "game"),
        count(levels.len(), "level"),
        count(cfg.repetitions as usize, "repetition"),
        level_list(&levels)
    )
    .map_err(output_error)?;
    out.flush().map_err(output_error)?;
    let progress = Progress::new(per_elite * jobs.len() as u64, !cfg.quiet);
    let evaluations = pool.install(|| {
        jobs.par_iter()
            .map(|(row, spec)| {
                let seed = derive_seed(rc.seed, &[VALIDATION_TAG, row.cell as u64]);
                let ev = evaluate_player(
                    game,
                    &levels,
                    cfg.repetitions,
                    seed,
                    spec,
                    &baseline,
                    features,
                );
                (0..per_elite).for_each(|_| progress.inc());
                ev
            })
            .collect::<Result<Vec<_>>>()
    });
    progress.finish();
    let validated: Vec<Validated> = jobs
        .into_iter()
        .zip(evaluations?)
        .map(|((row, _), evaluation)| Validated { row, evaluation })
        .collect();
    let per_elite_table = validation_table(run, &validated);
    let summary = summary_table(run, &validated);
    per_elite_table.write(&run.dir.join(VALIDATION_CSV))?;
    summary.write(&run.dir.join(VALIDATION_SUMMARY_CSV))?;
    write!(
        out,
        "\n{}\n{}\nwrote {} and {}\n",
        printed_elites(run, &validated),
        printed_summary(&summary),
        run.dir.join(VALIDATION_CSV).display(),
        run.dir.join(VALIDATION_SUMMARY_CSV).display()
    )
    .map_err(output_error)?;
    Ok(validated)
}

/// `n word` or `n words`.
fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The level names, shortened to the first few.
fn level_list<L>(levels: &[(String, L)]) -> String {
    const SHOWN: usize = 6;
    let names: Vec<&str> = levels.iter().take(SHOWN).map(|(n, _)| n.as_str()).collect();
    let more = levels.len().saturating_sub(SHOWN);
    if more > 0 {
        format!("{}, … ({more} more)", names.join(", "))
    } else {
        names.join(", ")
    }
}

/// Whether the validation descriptor `k` of `v` stays in the elite's bucket on axis `k`.
fn stays(run: &RunDir, v: &Validated, k: usize) -> bool {
    let axis = &run.config.features[k];
    axis.index_of(v.evaluation.descriptor_means[k]) == v.row.coords[k]
}

/// `validation.csv` (see the module docs).
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

/// `validation_summary.csv` (see the module docs).
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
fn printed_elites(run: &RunDir, validated: &[Validated]) -> String {
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
fn printed_summary(summary: &CsvTable) -> String {
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
/// [`Error::Io`] naming the file (and the line, for a bad row) if it cannot be read, its
/// header is not [`VALIDATION_COLUMNS`], or a number does not parse.
pub fn read_validation_csv(path: &Path) -> Result<Vec<ValidationRow>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut r = ::csv::Reader::from_reader(bytes.as_slice());
    let header = r.headers().map_err(|e| invalid(path, e.to_string()))?;
    if header.iter().ne(VALIDATION_COLUMNS) {
        return Err(invalid(
            path,
            format!(
                "unexpected header; expected `{}`",
                VALIDATION_COLUMNS.join(",")
            ),
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_choices_parse_and_bad_ones_name_the_flag() {
        assert_eq!(
            "held-out".parse::<LevelChoice>().unwrap(),
            LevelChoice::HeldOut
        );
        assert_eq!("paper".parse::<LevelChoice>().unwrap(), LevelChoice::Paper);
        assert_eq!(
            "generated:3".parse::<LevelChoice>().unwrap(),
            LevelChoice::Generated(3)
        );
        assert_eq!(
            " 5, 7 ".parse::<LevelChoice>().unwrap(),
            LevelChoice::Seeds(vec![5, 7])
        );
        for bad in [
            "",
            "heldout",
            "generated:0",
            "generated:x",
            "5,5",
            "5,,6",
            "-1",
        ] {
            match bad.parse::<LevelChoice>() {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--levels", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn cell_choices_parse_and_bad_ones_name_the_flag() {
        assert_eq!(
            "corners".parse::<CellChoice>().unwrap(),
            CellChoice::Corners
        );
        assert_eq!("all".parse::<CellChoice>().unwrap(), CellChoice::All);
        assert_eq!(
            "3,1".parse::<CellChoice>().unwrap(),
            CellChoice::List(vec![3, 1])
        );
        for bad in ["", "corner", "1,1", "1,x", "-2"] {
            match bad.parse::<CellChoice>() {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--cells", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn held_out_levels_exclude_the_training_levels() {
        let training = LevelSet::List(vec!["2".into(), "maps/a.txt".into()]);
        let names = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let refs = level_refs(
            &LevelChoice::HeldOut,
            &training,
            &names(&["1", "2", "3"]),
            9,
        )
        .unwrap();
        assert_eq!(
            refs,
            [LevelRef::Load("1".into()), LevelRef::Load("3".into())]
        );
        assert!(
            level_refs(
                &LevelChoice::HeldOut,
                &LevelSet::Paper,
                &names(&["1", "2"]),
                9
            )
            .is_err()
        );
        let all = LevelSet::List(vec!["1".into(), "2".into()]);
        assert!(level_refs(&LevelChoice::HeldOut, &all, &names(&["1", "2"]), 9).is_err());
        let generated =
            level_refs(&LevelChoice::Generated(2), &training, &names(&["1"]), 9).unwrap();
        assert_eq!(
            generated,
            [
                LevelRef::Generated(derive_seed(9, &[GENERATED_LEVELS_TAG, 0])),
                LevelRef::Generated(derive_seed(9, &[GENERATED_LEVELS_TAG, 1])),
            ]
        );
    }
}

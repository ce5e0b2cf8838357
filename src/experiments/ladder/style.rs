//! The style check of a ladder's elites (`style_repetitions > 0`): does an elite keep its
//! personality at every setting of a strength dial? Each agent that is an elite of a run is
//! played as the run scores its genomes — against the run's baseline in every other seat, on
//! the run's training levels × `style_repetitions`, with the run's rules and features
//! ([`evaluate_player`]) — and its features are placed on the run's map: `reached_cell` is the
//! cell its feature means fall in, `in_cell` whether that is its own, and `consistent` whether
//! each feature's 95 % interval (mean ± 1.96 sd / √games, as the row records it) reaches the
//! values its own cell holds on that axis: an elite re-played near a cell edge leaves its cell
//! by chance about half the time, and `consistent` tells that from a style that moved. A
//! resumed check recomputes `consistent` of the rows it keeps, from their intervals.
//!
//! Every agent plays the same games (the series seed is `derive_seed(ladder seed,
//! [STYLE_TAG])`), so the dial settings of one elite are compared on common random numbers.
//! `ladder_style.csv` is rewritten after each agent, every row carrying the ladder's
//! [`fingerprint`](super::fingerprint); a resumed ladder keeps the rows of the agents it
//! already checked with as many games. The check's games — each elite agent's run's training
//! levels × `style_repetitions` — are bounded by [`limits::games`] before the ladder plays
//! ([`check_style_games`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::CONFIG_HASH;
use super::folder::check_hash;
use super::spec::LadderSpec;
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::agent_files::usable_anywhere;
use crate::experiments::evaluate::evaluate_player;
use crate::experiments::output_error;
use crate::experiments::run_dir::RunDir;
use crate::features::Feature;
use crate::limits;
use crate::qd::FeatureAxis;
use crate::report::csv::{CsvTable, record_error};
use crate::report::table::aligned;
use crate::rng::derive_seed;

/// File name of the style check.
pub const LADDER_STYLE_CSV: &str = "ladder_style.csv";

/// The tag the style games' seed is derived with.
pub const STYLE_TAG: u64 = 0x0057_171e;

/// What the style check needs of an elite's run, from the game: the run loaded, its game with
/// the run's rules, levels and features.
pub struct StyleRun<G: SearchSupport> {
    /// The run.
    pub run: RunDir,
    /// The game with the run's rules.
    pub game: G,
    /// The run's training levels.
    pub levels: Vec<(String, G::Level)>,
    /// The run's features, in axis order.
    pub features: Vec<Feature>,
}

/// The columns of a style row before its features'.
const LEAD: [&str; 6] = ["agent", "run", "cell", "dial", "games", "win_rate"];

/// Each feature's columns, `{feature}_{stat}`; its interval is `STATS[LO]` to `STATS[HI]`.
const STATS: [&str; 4] = ["mean", "sd", "lo", "hi"];
const LO: usize = 2;
const HI: usize = 3;

/// The columns of a style row after its features'.
const TAIL: [&str; 3] = ["reached_cell", "in_cell", "consistent"];

/// The columns of `ladder_style.csv` for features named `features` but the last,
/// [`CONFIG_HASH`] (a table written before the fingerprint existed has these alone).
pub fn columns(features: &[String]) -> Vec<String> {
    let mut c: Vec<String> = LEAD.map(String::from).to_vec();
    for f in features {
        for s in STATS {
            c.push(format!("{f}_{s}"));
        }
    }
    c.extend(TAIL.map(String::from));
    c
}

/// The games of the style check of `spec`: each elite agent's run's training levels
/// (`training_levels` of the run, as the config names it) × `style_repetitions`; 0 without
/// the check.
///
/// # Errors
///
/// What `training_levels` reports; [`Error::Config`] naming `style_repetitions` if the games
/// are more than [`limits::MAX_GAMES`].
pub fn check_style_games(
    spec: &LadderSpec,
    training_levels: impl Fn(&str) -> Result<u64>,
) -> Result<u64> {
    let reps = u64::from(spec.style_repetitions);
    if reps == 0 {
        return Ok(0);
    }
    let mut levels: BTreeMap<&str, u64> = BTreeMap::new();
    let mut elites = 0u64;
    let mut total = 0u64;
    for (run, _) in spec.agents.iter().filter_map(|a| a.elite.as_ref()) {
        let l = match levels.get(run.as_str()) {
            Some(&l) => l,
            None => {
                let l = training_levels(run)?;
                levels.insert(run, l);
                l
            }
        };
        elites += 1;
        total = total.saturating_add(l);
    }
    if elites == 0 {
        return Ok(0);
    }
    limits::games(
        &[
            (total, "training levels of the elite agents (summed)"),
            (reps, "style_repetitions"),
        ],
        "style_repetitions",
    )
}

/// A style check's table as read back: its header and rows, each row's line.
#[derive(Clone, Debug, PartialEq)]
pub struct StyleTable {
    /// The columns (without [`CONFIG_HASH`]).
    pub header: Vec<String>,
    /// The rows (without [`CONFIG_HASH`]), with their lines.
    pub rows: Vec<(Vec<String>, usize)>,
}

impl StyleTable {
    /// Whether each agent kept its elite's style — `consistent` — by agent name.
    pub fn consistent(&self) -> BTreeMap<String, bool> {
        let last = self.header.len() - 1;
        self.rows
            .iter()
            .map(|(row, _)| (row[0].clone(), row[last] == "true"))
            .collect()
    }
}

/// Reads the style check `path` of the ladder `spec` as [`check_styles`] wrote it: its header
/// `agent, run, cell, dial, games, win_rate`, four columns per feature (`{f}_mean`, `{f}_sd`, `{f}_lo`, `{f}_hi`) and `reached_cell`,
/// `in_cell`, `consistent`, then [`CONFIG_HASH`] (or not, in a table written before it
/// existed); one row per elite agent at most, in the config's order, with its run, cell and
/// dial; whole games, at least one; a win rate in [0, 1]; per feature four empty cells (a
/// feature of another run) or finite numbers with `sd ≥ 0` and `lo ≤ mean ≤ hi`; a whole
/// `reached_cell`, `in_cell` true exactly when it is the agent's cell, `consistent` true or
/// false; and `fingerprint` where the table has the column.
///
/// # Errors
///
/// [`Error::Data`] naming the file and line of the first row (or the header) that is not so;
/// [`Error::Io`] if it cannot be read.
pub fn read_styles(path: &Path, spec: &LadderSpec, fingerprint: &str) -> Result<StyleTable> {
    let bytes = crate::files::read_bytes(path, crate::files::DATA_LIMIT)?;
    let mut r = ::csv::Reader::from_reader(bytes.as_slice());
    let mut header: Vec<String> = r
        .headers()
        .map_err(|e| Error::data(path, 1, e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    let bound = header.last().is_some_and(|h| h == CONFIG_HASH);
    if bound {
        header.pop();
    }
    let features = header
        .len()
        .checked_sub(LEAD.len() + TAIL.len())
        .unwrap_or(1);
    let names: Vec<String> = (0..features / STATS.len())
        .map(|j| {
            header[LEAD.len() + STATS.len() * j]
                .strip_suffix("_mean")
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    if !features.is_multiple_of(STATS.len()) || header != columns(&names) {
        return Err(Error::data(
            path,
            1,
            format!(
                "unexpected header: `{}`, four columns `{{f}}_mean`, `{{f}}_sd`, `{{f}}_lo`, \
                 `{{f}}_hi` per feature, `{}`, then `{CONFIG_HASH}`",
                LEAD.join(","),
                TAIL.join(",")
            ),
        ));
    }
    let mut rows = Vec::new();
    let mut last_agent: Option<usize> = None;
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        let bad =
            |col: &str, why: String| Error::data(path, line, format!("column `{col}`: {why}"));
        let mut row: Vec<String> = rec.iter().map(String::from).collect();
        if bound {
            let hash = row.pop().unwrap_or_default();
            check_hash(path, line, &hash, fingerprint)?;
        }
        let agent = spec
            .agents
            .iter()
            .position(|a| a.name == row[0] && a.elite.is_some())
            .ok_or_else(|| {
                bad(
                    "agent",
                    format!("no elite agent `{}` in the ladder", row[0]),
                )
            })?;
        if last_agent.is_some_and(|l| l >= agent) {
            return Err(bad(
                "agent",
                format!(
                    "`{}` out of order or given twice: the check goes through the elite \
                     agents in the config's order",
                    row[0]
                ),
            ));
        }
        last_agent = Some(agent);
        let a = &spec.agents[agent];
        let (run, cell) = a.elite.clone().unwrap_or_default();
        if row[1] != run || row[2] != cell.to_string() {
            return Err(bad("run", format!("not the run and cell of `{}`", a.name)));
        }
        if row[3] != a.dial.clone().unwrap_or_default() {
            return Err(bad("dial", format!("not the dial of `{}`", a.name)));
        }
        if !row[4].parse::<u64>().is_ok_and(|g| g > 0) {
            return Err(bad(
                "games",
                format!("`{}` is not a number of games", row[4]),
            ));
        }
        if !row[5]
            .parse::<f64>()
            .is_ok_and(|w| (0.0..=1.0).contains(&w))
        {
            return Err(bad(
                "win_rate",
                format!("`{}` is not a rate in [0, 1]", row[5]),
            ));
        }
        for (j, f) in names.iter().enumerate() {
            let at = LEAD.len() + STATS.len() * j;
            let cells = &row[at..at + STATS.len()];
            if cells.iter().all(String::is_empty) {
                continue;
            }
            let x: Vec<f64> = cells
                .iter()
                .map(|c| c.parse::<f64>().ok().filter(|x| x.is_finite()))
                .collect::<Option<_>>()
                .ok_or_else(|| bad(&format!("{f}_mean"), "give four finite numbers".into()))?;
            if !(x[1] >= 0.0 && x[LO] <= x[0] && x[0] <= x[HI]) {
                return Err(bad(
                    &format!("{f}_lo"),
                    format!(
                        "the interval [{}, {}] does not hold the mean {} (or sd < 0)",
                        x[LO], x[HI], x[0]
                    ),
                ));
            }
        }
        let tail = row.len() - TAIL.len();
        let reached = row[tail]
            .parse::<usize>()
            .map_err(|_| bad("reached_cell", format!("`{}` is not a cell", row[tail])))?;
        if row[tail + 1] != (reached == cell).to_string() {
            return Err(bad(
                "in_cell",
                format!(
                    "`{}` where the reached cell {reached} is {}its cell {cell}",
                    row[tail + 1],
                    if reached == cell { "" } else { "not " }
                ),
            ));
        }
        if !["true", "false"].contains(&row[tail + 2].as_str()) {
            return Err(bad(
                "consistent",
                format!("`{}`, not true or false", row[tail + 2]),
            ));
        }
        rows.push((row, line));
    }
    Ok(StyleTable { header, rows })
}

/// Checks the style of every elite agent of `spec` (the ladder as its folder `dir` keeps it,
/// its fingerprint `fingerprint`), `load` giving each run's [`StyleRun`]; writes
/// `ladder_style.csv` and prints a table.
///
/// # Errors
///
/// What `load` reports; the errors of [`evaluate_player`]; as [`read_styles`] on resume, and
/// [`Error::Data`] naming the style file if its features are not the runs'; [`Error::Io`] for
/// the file.
pub fn check_styles<G: SearchSupport>(
    spec: &LadderSpec,
    dir: &Path,
    fingerprint: &str,
    load: impl Fn(&str) -> Result<StyleRun<G>>,
    threads: Option<usize>,
    resume: bool,
    out: &mut impl Write,
) -> Result<()> {
    let reps = spec.style_repetitions;
    let elites: Vec<(usize, &str, usize)> = spec
        .agents
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.elite.as_ref().map(|(r, c)| (i, r.as_str(), *c)))
        .collect();
    if reps == 0 || elites.is_empty() {
        return Ok(());
    }
    let mut runs: BTreeMap<&str, StyleRun<G>> = BTreeMap::new();
    for &(_, run, _) in &elites {
        if !runs.contains_key(run) {
            runs.insert(run, load(run)?);
        }
    }
    // One file for every run's features (the union, in order of first appearance).
    let mut names: Vec<String> = Vec::new();
    for r in runs.values() {
        for a in &r.run.config.features {
            if !names.contains(&a.name) {
                names.push(a.name.clone());
            }
        }
    }
    let header = columns(&names);
    let path = dir.join(LADDER_STYLE_CSV);
    let mut done: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if resume && crate::files::present(&path)? {
        let kept = read_styles(&path, spec, fingerprint)?;
        if kept.header != header {
            return Err(Error::data(
                &path,
                1,
                format!(
                    "its features are not those of the elites' runs (expected `{}`)",
                    header.join(",")
                ),
            ));
        }
        for (row, _) in kept.rows {
            done.insert(row[0].clone(), row);
        }
    }
    let pool = crate::experiments::thread_pool(threads, "threads")?;
    let seed = derive_seed(spec.seed, &[STYLE_TAG]);
    let mut file_header = header.clone();
    file_header.push(CONFIG_HASH.to_string());
    let mut table = CsvTable::new(file_header);
    let mut printed = Vec::new();
    for &(i, run_name, cell) in &elites {
        let a = &spec.agents[i];
        let sr = &runs[run_name];
        let games = sr.levels.len() as u64 * u64::from(reps);
        let mut row = match done.get(&a.name) {
            Some(row) if row[4] == games.to_string() => row.clone(),
            _ => {
                let player = usable_anywhere(&format!("{:#}", a.spec), dir)?;
                let baseline = usable_anywhere(&sr.run.config.baseline.to_string(), &sr.run.dir)?;
                let ev = pool.install(|| {
                    evaluate_player(
                        &sr.game,
                        &sr.levels,
                        reps,
                        seed,
                        &player,
                        &baseline,
                        &sr.features,
                        Path::new(""),
                    )
                })?;
                let reached = sr.run.grid.index_of(&ev.descriptor_means).map_err(|e| {
                    Error::config(format!("agent[{i}]"), format!("its features: {e}"))
                })?;
                let mut row = vec![
                    a.name.clone(),
                    run_name.to_string(),
                    cell.to_string(),
                    a.dial.clone().unwrap_or_default(),
                    ev.games.to_string(),
                    format!("{:.4}", ev.fitness),
                ];
                for n in &names {
                    match sr.run.config.features.iter().position(|f| &f.name == n) {
                        Some(k) => {
                            let (m, sd) = (ev.descriptor_means[k], ev.descriptor_spreads[k]);
                            let half = 1.96 * sd / f64::from(ev.games.max(1)).sqrt();
                            for x in [m, sd, m - half, m + half] {
                                row.push(format!("{x:.4}"));
                            }
                        }
                        None => row.extend(std::iter::repeat_n(String::new(), 4)),
                    }
                }
                row.push(reached.to_string());
                row.push((reached == cell).to_string());
                row.push(String::new());
                row
            }
        };
        // From the row's own intervals, so that a resumed check applies the current rule.
        let last = row.len() - 1;
        row[last] = consistent_row(&row, &names, &sr.run, cell).to_string();
        let yes = |s: &str| if s == "true" { "yes" } else { "no" }.to_string();
        printed.push(vec![
            a.name.clone(),
            row[2].clone(),
            row[row.len() - 3].clone(),
            yes(&row[row.len() - 2]),
            yes(&row[row.len() - 1]),
            format!("{:.1}", 100.0 * row[5].parse::<f64>().unwrap_or(0.0)),
        ]);
        row.push(fingerprint.to_string());
        table.rows.push(row);
        table.write(&path)?;
    }
    let kept = printed.iter().filter(|r| r[3] == "yes").count();
    let near = printed.iter().filter(|r| r[4] == "yes").count();
    write!(
        out,
        "style check: {kept} of {} elite agents stay in their cell, {near} within their \
         features' 95% intervals ({reps} games per training level against their run's \
         baseline)\n{}wrote {}\n",
        printed.len(),
        aligned(
            &[
                "agent",
                "cell",
                "reached",
                "in cell",
                "consistent",
                "win % vs baseline",
            ]
            .map(String::from),
            &printed
        ),
        path.display()
    )
    .map_err(output_error)
}

/// Whether a style row's every feature interval (its `{f}_lo` and `{f}_hi` columns, as
/// written) reaches the values that `run`'s map puts in `cell` on that feature's axis; features
/// the run does not have (empty columns of another run's) are not its concern, and an interval
/// that is not a number is not consistent.
fn consistent_row(row: &[String], names: &[String], run: &RunDir, cell: usize) -> bool {
    let own = run.grid.index_to_grid(cell).unwrap_or_default();
    names.iter().enumerate().all(|(j, n)| {
        let Some(k) = run.config.features.iter().position(|f| &f.name == n) else {
            return true;
        };
        let at = |s: usize| {
            row.get(LEAD.len() + STATS.len() * j + s)
                .and_then(|x| x.parse::<f64>().ok())
        };
        match (at(LO), at(HI)) {
            (Some(lo), Some(hi)) => reaches(
                &run.config.features[k],
                own.get(k).copied().unwrap_or_default(),
                lo,
                hi,
            ),
            _ => false,
        }
    })
}

/// Whether the interval `[lo, hi]` meets the values `axis` puts in its cell `i` (the value
/// bounds, not the rounded-value bounds of a bucket axis: a value rounds into the cell from
/// half a unit below its lower bound).
fn reaches(axis: &FeatureAxis, i: usize, lo: f64, hi: f64) -> bool {
    let (a, b) = axis.value_bounds(i);
    hi >= a && lo < b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_is_the_lo_and_hi_columns() {
        assert_eq!((STATS[LO], STATS[HI]), ("lo", "hi"));
    }

    #[test]
    fn an_interval_reaches_a_bucket_cell_from_half_a_unit_below_its_rounded_bounds() {
        // Prismata's aggression axis: cell 4 holds the values that round to 9, [8.5, 9.5).
        let a = FeatureAxis::bucket("aggression", 5.0, 15.0, 1.0).unwrap();
        assert_eq!(a.index_of(8.6), 4);
        assert!(reaches(&a, 4, 8.2, 8.98), "a mean of 8.6 in the cell");
        assert!(reaches(&a, 4, 8.0, 8.5), "touches the lower bound");
        assert!(!reaches(&a, 4, 7.9, 8.49), "below the cell");
        assert!(reaches(&a, 4, 9.4, 9.9));
        assert!(!reaches(&a, 4, 9.5, 9.9), "the upper bound is open");
        // The open edge cells.
        assert!(reaches(&a, 0, -3.0, 1.0) && !reaches(&a, 0, 5.5, 6.0));
        let b = FeatureAxis::bins("share", 0.0, 1.0, 10).unwrap();
        assert!(reaches(&b, 3, 0.25, 0.31) && !reaches(&b, 3, 0.41, 0.5));
    }

    #[test]
    fn a_style_table_reads_back_as_written_and_a_row_not_as_written_is_named() {
        let text = "game = \"puerto-rico\"\nlevels = [\"4p\"]\n\
                    [[agent]]\nname = \"c@t=1\"\nspec = \"random\"\nrun = \"r\"\ncell = 4\ndial = \"t=1\"\n\
                    [[agent]]\nname = \"c@t=2\"\nspec = \"random\"\nrun = \"r\"\ncell = 4\ndial = \"t=2\"\n\
                    [[agent]]\nname = \"plain\"\nspec = \"sa0\"\n";
        let spec = super::super::LadderFile::parse(text)
            .and_then(LadderSpec::validate)
            .unwrap();
        let dir =
            std::env::temp_dir().join(format!("playstyles-style-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(LADDER_STYLE_CSV);
        let header = columns(&["economy".into()]).join(",");
        let rows = [
            "c@t=1,r,4,t=1,10,0.5000,1,1,0,2,3,false,true",
            "c@t=2,r,4,t=2,10,0.5000,1,1,0,2,4,true,false",
        ];
        let file = |rows: &[&str], hash: &str| {
            let mut t = format!("{header},{CONFIG_HASH}\n");
            for r in rows {
                t += &format!("{r},{hash}\n");
            }
            std::fs::write(&path, t).unwrap();
        };
        file(&rows, "ab");
        let read = read_styles(&path, &spec, "ab").unwrap();
        assert_eq!(read.header, columns(&["economy".into()]));
        let kept = read.consistent();
        assert_eq!(kept.get("c@t=1"), Some(&true));
        assert_eq!(kept.get("c@t=2"), Some(&false));
        let e = read_styles(&path, &spec, "cd").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains(CONFIG_HASH), "{e}");
        for (damaged, col, line) in [
            (rows[0].replace(",true", ",maybe"), "consistent", 2),
            (rows[0].replace(",3,false", ",3,true"), "in_cell", 2),
            (rows[0].replace("c@t=1,", "c@t=9,"), "agent", 2),
            (rows[0].replace(",0.5000,", ",7,"), "win_rate", 2),
            (rows[0].replace(",1,1,0,2,", ",1,1,1.5,2,"), "economy_lo", 2),
            (rows[0].replace(",t=1,", ",t=2,"), "dial", 2),
        ] {
            file(&[&damaged, rows[1]], "ab");
            let e = read_styles(&path, &spec, "ab").unwrap_err().to_string();
            assert!(
                e.contains(&format!("line {line}")) && e.contains(col),
                "{col}: {e}"
            );
        }
        file(&[rows[1], rows[0]], "ab");
        let e = read_styles(&path, &spec, "ab").unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("order"), "{e}");
        // A table written before the fingerprint existed: read as it is.
        std::fs::write(&path, format!("{header}\n{}\n", rows[0])).unwrap();
        assert_eq!(read_styles(&path, &spec, "ab").unwrap().rows.len(), 1);
        std::fs::write(&path, "agent,games\nc,3\n").unwrap();
        let e = read_styles(&path, &spec, "ab").unwrap_err().to_string();
        assert!(e.contains("header"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

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
//! `ladder_style.csv` is rewritten after each agent; a resumed ladder keeps the rows of the
//! agents it already checked with as many games.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::spec::LadderSpec;
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::agent_files::usable_anywhere;
use crate::experiments::evaluate::evaluate_player;
use crate::experiments::output_error;
use crate::experiments::run_dir::RunDir;
use crate::features::Feature;
use crate::qd::FeatureAxis;
use crate::report::csv::{CsvTable, read_with_header, record_error};
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

/// The columns of `ladder_style.csv` for features named `features`.
pub fn columns(features: &[String]) -> Vec<String> {
    let mut c: Vec<String> = LEAD.map(String::from).to_vec();
    for f in features {
        for s in STATS {
            c.push(format!("{f}_{s}"));
        }
    }
    c.extend(["reached_cell", "in_cell", "consistent"].map(String::from));
    c
}

/// Checks the style of every elite agent of `spec` (the ladder as its folder `dir` keeps it),
/// `load` giving each run's [`StyleRun`]; writes `ladder_style.csv` and prints a table.
///
/// # Errors
///
/// What `load` reports; the errors of [`evaluate_player`]; [`Error::Data`] naming the style
/// file for a row that does not parse on resume; [`Error::Io`] for the file.
pub fn check_styles<G: SearchSupport>(
    spec: &LadderSpec,
    dir: &Path,
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
    if resume && path.exists() {
        let cols: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut r = read_with_header(&path, &cols)?;
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| record_error(&path, i + 2, &e))?;
            let row: Vec<String> = rec.iter().map(String::from).collect();
            done.insert(row[0].clone(), row);
        }
    }
    let pool = crate::experiments::thread_pool(threads, "threads")?;
    let seed = derive_seed(spec.seed, &[STYLE_TAG]);
    let mut table = CsvTable::new(header.clone());
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

/// Whether each agent of a ladder's style check kept its elite's style — `consistent`: every
/// feature's 95 % interval reaches the elite's cell — by agent name, from `ladder_style.csv` in
/// `dir`; `None` when the ladder has no style check (no such file).
///
/// # Errors
///
/// [`Error::Data`] naming the file when it lacks the `agent` or `consistent` column, or naming
/// its line when a row is damaged or its `consistent` is not `true` or `false`; [`Error::Io`]
/// when it cannot be read.
pub fn consistent_styles(dir: &Path) -> Result<Option<BTreeMap<String, bool>>> {
    let path = dir.join(LADDER_STYLE_CSV);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = crate::files::read_bytes(&path, crate::files::DATA_LIMIT)?;
    let mut r = ::csv::Reader::from_reader(bytes.as_slice());
    let header = r
        .headers()
        .map_err(|e| Error::data(&path, 1, e.to_string()))?;
    let column = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            Error::data(
                &path,
                1,
                format!("no `{name}` column in the style check's header"),
            )
        })
    };
    let (agent, consistent) = (column("agent")?, column("consistent")?);
    let mut kept = BTreeMap::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| record_error(&path, i + 2, &e))?;
        let flag = match &rec[consistent] {
            "true" => true,
            "false" => false,
            other => {
                return Err(Error::data(
                    &path,
                    i + 2,
                    format!("consistent is `{other}`, not true or false"),
                ));
            }
        };
        kept.insert(rec[agent].to_string(), flag);
    }
    Ok(Some(kept))
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
    fn consistent_styles_are_read_by_column_name_and_a_bad_line_is_named() {
        let dir = std::env::temp_dir().join(format!(
            "playstyles-consistent-styles-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(consistent_styles(&dir).unwrap(), None);
        let path = dir.join(LADDER_STYLE_CSV);
        let header = columns(&["economy".into()]).join(",");
        std::fs::write(
            &path,
            format!(
                "{header}\n\
                 c@t=1,r,4,t=1,10,0.5,1,1,0,2,3,false,true\n\
                 c@t=2,r,4,t=2,10,0.5,1,1,0,2,4,false,false\n"
            ),
        )
        .unwrap();
        let kept = consistent_styles(&dir).unwrap().unwrap();
        assert_eq!(kept.get("c@t=1"), Some(&true));
        assert_eq!(kept.get("c@t=2"), Some(&false));
        std::fs::write(
            &path,
            format!("{header}\nc@t=1,r,4,t=1,10,0.5,1,1,0,2,3,true,maybe\n"),
        )
        .unwrap();
        let e = consistent_styles(&dir).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("consistent"), "{e}");
        std::fs::write(&path, "agent,games\nc,3\n").unwrap();
        let e = consistent_styles(&dir).unwrap_err().to_string();
        assert!(e.contains("consistent"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

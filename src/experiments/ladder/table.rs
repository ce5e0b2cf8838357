//! A finished ladder's results: `ladder.csv`, the printed table, the chart, and how far the
//! ratings keep an expected order of tiers.

use std::io::Write;
use std::path::Path;

use super::run::{Ladder, Stop};
use super::spec::{LadderSpec, Schedule};
use crate::error::{Error, Result};
use crate::experiments::output_error;
use crate::ladder::bradley_terry::{Ratings, expected_score};
use crate::report::csv::{CsvTable, read_with_header, record_error};
use crate::report::ladder_chart::{ChartRow, write_ladder_charts};
use crate::report::table::aligned;
use crate::stats::kendall_tau;

/// File name of the ratings.
pub const LADDER_CSV: &str = "ladder.csv";

/// The columns of [`LADDER_CSV`].
pub const COLUMNS: [&str; 17] = [
    "rank",
    "agent",
    "spec",
    "run",
    "cell",
    "dial",
    "tier",
    "games",
    "score",
    "elo",
    "elo_lo",
    "elo_hi",
    "below",
    "diff_below",
    "diff_below_lo",
    "diff_below_hi",
    "expected_below",
];

/// One row of [`LADDER_CSV`], strongest first.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderRow {
    /// 1 for the strongest.
    pub rank: usize,
    /// The agent's name.
    pub agent: String,
    /// Its spec (files named as the ladder's folder keeps them).
    pub spec: String,
    /// The run and cell it is an elite of.
    pub elite: Option<(String, usize)>,
    /// Its dial setting.
    pub dial: Option<String>,
    /// Its expected place (1 the weakest).
    pub tier: Option<u32>,
    /// Games it played.
    pub games: f64,
    /// Its mean score in them.
    pub score: f64,
    /// Its rating (the anchor's is 0) and 95 % interval around the average
    /// ([`Ratings::margin`]).
    pub elo: f64,
    /// Lower end of the interval.
    pub elo_lo: f64,
    /// Upper end of the interval.
    pub elo_hi: f64,
}

/// Agent indices from strongest to weakest (ties by index).
pub fn by_rating(r: &Ratings) -> Vec<usize> {
    let mut order: Vec<usize> = (0..r.elo.len()).collect();
    order.sort_by(|&a, &b| r.elo[b].total_cmp(&r.elo[a]).then(a.cmp(&b)));
    order
}

/// Writes `ladder.csv` and the charts of `ladder` into `dir` and prints its table.
///
/// # Errors
///
/// [`Error::Io`] for a file that cannot be written.
pub fn write_outputs(
    dir: &Path,
    spec: &LadderSpec,
    ladder: &Ladder,
    out: &mut impl Write,
) -> Result<()> {
    let r = &ladder.ratings;
    let order = by_rating(r);
    let mut csv = CsvTable::new(COLUMNS.map(String::from).to_vec());
    let mut printed = Vec::new();
    let mut chart = Vec::new();
    let opt = |x: Option<String>| x.unwrap_or_default();
    for (pos, &i) in order.iter().enumerate() {
        let a = &spec.agents[i];
        let n = r.elo.len();
        let games: f64 = (0..n)
            .filter(|&j| j != i)
            .map(|j| ladder.results.games(i, j))
            .sum();
        let scored: f64 = (0..n)
            .filter(|&j| j != i)
            .map(|j| ladder.results.score(i, j))
            .sum();
        let score = if games > 0.0 { scored / games } else { 0.0 };
        let m = r.margin(i);
        let below = order.get(pos + 1).copied();
        let diff = below.map(|j| r.difference(i, j));
        csv.rows.push(vec![
            (pos + 1).to_string(),
            a.name.clone(),
            format!("{:#}", a.spec),
            opt(a.elite.as_ref().map(|e| e.0.clone())),
            opt(a.elite.as_ref().map(|e| e.1.to_string())),
            opt(a.dial.clone()),
            opt(a.tier.map(|t| t.to_string())),
            games.to_string(),
            format!("{score:.4}"),
            format!("{:.1}", r.elo[i]),
            format!("{:.1}", r.elo[i] - m),
            format!("{:.1}", r.elo[i] + m),
            opt(below.map(|j| spec.agents[j].name.clone())),
            opt(diff.map(|d| format!("{:.1}", d.0))),
            opt(diff.map(|d| format!("{:.1}", d.0 - d.1))),
            opt(diff.map(|d| format!("{:.1}", d.0 + d.1))),
            opt(diff.map(|d| format!("{:.4}", expected_score(d.0)))),
        ]);
        printed.push(vec![
            (pos + 1).to_string(),
            a.name.clone(),
            format!("{:+.0}", r.elo[i]),
            format!("±{m:.0}"),
            format!("{games:.0}"),
            format!("{:.1}", 100.0 * score),
            diff.map_or_else(|| "-".into(), |d| format!("{:+.0} ±{:.0}", d.0, d.1)),
        ]);
        chart.push(ChartRow {
            name: a.name.clone(),
            elo: r.elo[i],
            lo: r.elo[i] - m,
            hi: r.elo[i] + m,
            anchor: i == spec.anchor,
        });
    }
    csv.write(&dir.join(LADDER_CSV))?;
    write_ladder_charts(&chart, dir)?;
    let header = [
        "rank",
        "agent",
        "elo",
        "95%",
        "games",
        "score %",
        "above next",
    ]
    .map(String::from);
    let widest = order
        .windows(2)
        .map(|w| r.difference(w[0], w[1]).1)
        .fold(0.0, f64::max);
    let schedule = match spec.schedule {
        Schedule::Adaptive => "adaptive",
        Schedule::RoundRobin => "round robin",
    };
    let how = match ladder.stop {
        Stop::Converged => match spec.decisive {
            None => format!(
                "every adjacent difference within ±{:.0} Elo (widest ±{widest:.0})",
                spec.target
            ),
            Some(d) => format!(
                "every adjacent difference within ±{:.0} Elo or wholly above +{d:.0} (widest ±{widest:.0})",
                spec.target
            ),
        },
        Stop::Budget => format!(
            "stopped at max_games = {} with the widest adjacent difference ±{widest:.0} Elo (target ±{:.0})",
            spec.max_games, spec.target
        ),
    };
    write!(
        out,
        "ratings anchored at {} = 0 Elo; 95% intervals around the average (each rating's own), \
         and of the difference with the next agent below\n{}{} games in {} rounds ({schedule}); {how}\n",
        spec.agents[spec.anchor].name,
        aligned(&header, &printed),
        ladder.games,
        ladder.rounds,
    )
    .map_err(output_error)?;
    write!(out, "{}", tier_order(spec, r)).map_err(output_error)?;
    writeln!(out, "wrote {}", dir.join(LADDER_CSV).display()).map_err(output_error)
}

/// How far the ratings keep the agents' expected order (their `tier`): Kendall's τ between
/// tier and rating, and each adjacent tier's gap with its 95 % interval. Empty if fewer than
/// two agents have a tier.
pub fn tier_order(spec: &LadderSpec, r: &Ratings) -> String {
    let mut tiered: Vec<(u32, usize)> = spec
        .agents
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.tier.map(|t| (t, i)))
        .collect();
    if tiered.len() < 2 {
        return String::new();
    }
    tiered.sort_unstable();
    let ts: Vec<f64> = tiered.iter().map(|&(t, _)| f64::from(t)).collect();
    let es: Vec<f64> = tiered.iter().map(|&(_, i)| r.elo[i]).collect();
    let tau = kendall_tau(&ts, &es).map_or_else(|| "-".into(), |t| format!("{t:.2}"));
    let mut s = format!(
        "tier order kept: Kendall's tau = {tau} over {} tiers; gaps (next tier minus this one, 95%):\n",
        tiered.len()
    );
    for w in tiered.windows(2) {
        let ((_, lo), (_, hi)) = (w[0], w[1]);
        let (d, m) = r.difference(hi, lo);
        s.push_str(&format!(
            "  {} - {}: {d:+.0} [{:+.0}, {:+.0}]{}\n",
            spec.agents[hi].name,
            spec.agents[lo].name,
            d - m,
            d + m,
            if d - m > 0.0 {
                ""
            } else {
                "  (not clearly stronger)"
            }
        ));
    }
    s
}

/// Reads `ladder.csv`.
///
/// # Errors
///
/// [`Error::Data`] naming the file and line for a malformed row; as [`read_with_header`].
pub fn read_ladder_csv(path: &Path) -> Result<Vec<LadderRow>> {
    let mut r = read_with_header(path, &COLUMNS)?;
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        let bad = |col: usize| {
            Error::data(
                path,
                line,
                format!("column `{}`: `{}` is not a number", COLUMNS[col], &rec[col]),
            )
        };
        let num = |col: usize| -> Result<f64> {
            rec[col]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(col))
        };
        let some = |col: usize| (!rec[col].is_empty()).then(|| rec[col].to_string());
        let elite = match (some(3), some(4)) {
            (Some(run), Some(cell)) => Some((run, cell.parse::<usize>().map_err(|_| bad(4))?)),
            _ => None,
        };
        rows.push(LadderRow {
            rank: num(0)? as usize,
            agent: rec[1].to_string(),
            spec: rec[2].to_string(),
            elite,
            dial: some(5),
            tier: some(6)
                .map(|t| t.parse::<u32>().map_err(|_| bad(6)))
                .transpose()?,
            games: num(7)?,
            score: num(8)?,
            elo: num(9)?,
            elo_lo: num(10)?,
            elo_hi: num(11)?,
        });
    }
    if rows.is_empty() {
        return Err(Error::data(path, 0, "no agents"));
    }
    Ok(rows)
}

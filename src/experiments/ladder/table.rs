//! A finished ladder's results: the printed table, the chart, how far the ratings keep an
//! expected order of tiers, and `ladder.csv` — written last, the mark of a finished ladder —
//! with its reader, which checks every row as the writer wrote it.

use std::io::Write;
use std::path::Path;

use super::CONFIG_HASH;
use super::folder::{check_hash, read_bound};
use super::games::SavedGames;
use super::run::{Ladder, Stop};
use super::spec::{LadderSpec, Schedule};
use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::experiments::output_error;
use crate::ladder::bradley_terry::{Ratings, expected_score};
use crate::report::csv::{CsvTable, record_error};
use crate::report::ladder_chart::{ChartRow, write_ladder_charts};
use crate::report::table::aligned;
use crate::stats::kendall_tau;

/// File name of the ratings.
pub const LADDER_CSV: &str = "ladder.csv";

/// The columns of [`LADDER_CSV`] but the last, [`CONFIG_HASH`] (a table written before the
/// fingerprint existed has these alone).
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

/// The ratings table of `ladder` (rows strongest first, each carrying `fingerprint`).
fn ratings_table(spec: &LadderSpec, ladder: &Ladder, fingerprint: &str) -> CsvTable {
    let r = &ladder.ratings;
    let order = by_rating(r);
    let mut header: Vec<String> = COLUMNS.map(String::from).to_vec();
    header.push(CONFIG_HASH.to_string());
    let mut csv = CsvTable::new(header);
    let opt = |x: Option<String>| x.unwrap_or_default();
    for (pos, &i) in order.iter().enumerate() {
        let a = &spec.agents[i];
        let (games, score) = games_and_score(ladder, i);
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
            fingerprint.to_string(),
        ]);
    }
    csv
}

/// Agent `i`'s games in `ladder` and its mean score in them (0 without games).
fn games_and_score(ladder: &Ladder, i: usize) -> (f64, f64) {
    let n = ladder.ratings.elo.len();
    let games: f64 = (0..n)
        .filter(|&j| j != i)
        .map(|j| ladder.results.games(i, j))
        .sum();
    let scored: f64 = (0..n)
        .filter(|&j| j != i)
        .map(|j| ladder.results.score(i, j))
        .sum();
    (games, if games > 0.0 { scored / games } else { 0.0 })
}

/// Writes the charts of `ladder` into `dir` and prints its table; `ladder.csv` comes after,
/// last of the ladder's files ([`write_ladder_csv`]).
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
    let mut printed = Vec::new();
    let mut chart = Vec::new();
    for (pos, &i) in order.iter().enumerate() {
        let a = &spec.agents[i];
        let (games, score) = games_and_score(ladder, i);
        let m = r.margin(i);
        let diff = order.get(pos + 1).map(|&j| r.difference(i, j));
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
    write!(out, "{}", tier_order(spec, r)).map_err(output_error)
}

/// Writes `ladder.csv` of `ladder` into `dir`, every row carrying `fingerprint`: the last of
/// the ladder's files, which marks it finished.
///
/// # Errors
///
/// [`Error::Io`] if it cannot be written.
pub fn write_ladder_csv(
    dir: &Path,
    spec: &LadderSpec,
    ladder: &Ladder,
    fingerprint: &str,
    out: &mut impl Write,
) -> Result<()> {
    let path = dir.join(LADDER_CSV);
    ratings_table(spec, ladder, fingerprint).write(&path)?;
    writeln!(out, "wrote {}", path.display()).map_err(output_error)
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

/// Reads `ladder.csv` of the ladder `spec` whose games are `games`, as [`write_ladder_csv`]
/// wrote it: one row per agent of the ladder, ranks 1 to n in order, strongest first; each
/// agent's spec, run, cell, dial and tier those of the config; its games those it played in
/// `games` and its score their mean; finite ratings with `elo_lo ≤ elo ≤ elo_hi`, the anchor's
/// 0; `below` the next row's agent, the difference to it within its interval, its expected
/// score in [0, 1] (all empty on the last row); and, where the file has the column, the
/// ladder's `fingerprint`.
///
/// # Errors
///
/// [`Error::Data`] naming the file and line of the first row that is not so (the file, for a
/// header of other columns or an agent missing); [`Error::Io`] if it cannot be read.
pub fn read_ladder_csv(
    path: &Path,
    spec: &LadderSpec,
    fingerprint: &str,
    games: &SavedGames,
) -> Result<Vec<LadderRow>> {
    let n = spec.agents.len();
    // Each agent's games and score in `games`.
    let mut played = vec![(0.0f64, 0.0f64); n];
    for (&(a, b, _), g) in &games.games {
        played[a].0 += 1.0;
        played[a].1 += g.score_a;
        played[b].0 += 1.0;
        played[b].1 += 1.0 - g.score_a;
    }
    let (mut r, bound) = read_bound(path, &COLUMNS)?;
    let mut rows: Vec<LadderRow> = Vec::new();
    // The previous row's `below` and its difference to it.
    let mut above: Option<(String, f64)> = None;
    let mut seen = vec![false; n];
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        if bound {
            check_hash(path, line, &rec[COLUMNS.len()], fingerprint)?;
        }
        let bad = |col: usize, why: String| {
            Error::data(path, line, format!("column `{}`: {why}", COLUMNS[col]))
        };
        let num = |col: usize| -> Result<f64> {
            rec[col]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(col, format!("`{}` is not a finite number", &rec[col])))
        };
        let some = |col: usize| (!rec[col].is_empty()).then(|| rec[col].to_string());
        if rec[0] != (i + 1).to_string() {
            return Err(bad(
                0,
                format!(
                    "`{}` where rank {} comes (ranks 1, 2, … in order)",
                    &rec[0],
                    i + 1
                ),
            ));
        }
        let Some(k) = spec.agents.iter().position(|a| a.name == rec[1]) else {
            return Err(bad(
                1,
                format!("no agent `{}` in the ladder's config", &rec[1]),
            ));
        };
        if std::mem::replace(&mut seen[k], true) {
            return Err(bad(1, format!("`{}` is given twice", &rec[1])));
        }
        let a = &spec.agents[k];
        if AgentSpec::parse(&rec[2]).ok().as_ref() != Some(&a.spec) {
            return Err(bad(
                2,
                format!("not the spec of `{}` in the config", a.name),
            ));
        }
        let elite = match (some(3), some(4)) {
            (Some(run), Some(cell)) => Some((
                run,
                cell.parse::<usize>()
                    .map_err(|_| bad(4, format!("`{cell}` is not a cell")))?,
            )),
            (None, None) => None,
            _ => return Err(bad(4, "give both `run` and `cell`, or neither".into())),
        };
        if elite != a.elite {
            return Err(bad(
                3,
                format!("not the run and cell of `{}` in the config", a.name),
            ));
        }
        if some(5) != a.dial {
            return Err(bad(
                5,
                format!("not the dial of `{}` in the config", a.name),
            ));
        }
        let tier = some(6)
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| bad(6, format!("`{t}` is not a tier")))
            })
            .transpose()?;
        if tier != a.tier {
            return Err(bad(
                6,
                format!("not the tier of `{}` in the config", a.name),
            ));
        }
        let (games_played, scored) = played[k];
        let row_games = num(7)?;
        if row_games != games_played {
            return Err(bad(
                7,
                format!(
                    "{row_games} where {} played {games_played} games in ladder_games.csv",
                    a.name
                ),
            ));
        }
        let score = num(8)?;
        let mean = if games_played > 0.0 {
            scored / games_played
        } else {
            0.0
        };
        if !(0.0..=1.0).contains(&score) || (score - mean).abs() > 5e-5 + 1e-9 {
            return Err(bad(
                8,
                format!(
                    "{score} is not the mean score of {}'s games ({mean:.4})",
                    a.name
                ),
            ));
        }
        let (elo, lo, hi) = (num(9)?, num(10)?, num(11)?);
        if !(lo <= elo && elo <= hi) {
            return Err(bad(
                10,
                format!("the interval [{lo}, {hi}] does not hold the rating {elo}"),
            ));
        }
        if k == spec.anchor && elo != 0.0 {
            return Err(bad(9, format!("{elo}: the anchor {} is rated 0", a.name)));
        }
        if let Some(up) = rows.last()
            && elo > up.elo
        {
            return Err(bad(
                9,
                format!(
                    "{elo} above the row before ({}): rows go strongest first",
                    up.elo
                ),
            ));
        }
        if let Some(up) = rows.last() {
            // The row before names this agent below it, and their difference, both ratings
            // and it rounded to 0.1 Elo.
            let Some((name, d)) = &above else {
                return Err(Error::data(
                    path,
                    line - 1,
                    format!("column `below`: empty, but `{}` comes next", a.name),
                ));
            };
            if name != &a.name {
                return Err(Error::data(
                    path,
                    line - 1,
                    format!(
                        "column `below`: `{name}`, not the next row's agent `{}`",
                        a.name
                    ),
                ));
            }
            let up = up.elo;
            if (d - (up - elo)).abs() > 0.15 + 1e-9 {
                return Err(Error::data(
                    path,
                    line - 1,
                    format!(
                        "column `diff_below`: {d} is not the difference of its rating and the \
                         next row's ({up} - {elo})"
                    ),
                ));
            }
        }
        above = match some(12) {
            Some(name) => {
                let (d, dlo, dhi, e) = (num(13)?, num(14)?, num(15)?, num(16)?);
                if !(dlo <= d && d <= dhi) {
                    return Err(bad(
                        14,
                        format!("the interval [{dlo}, {dhi}] does not hold the difference {d}"),
                    ));
                }
                if !(0.0..=1.0).contains(&e) {
                    return Err(bad(16, format!("{e} is not an expected score in [0, 1]")));
                }
                Some((name, d))
            }
            None if (13..17).any(|c| !rec[c].is_empty()) => {
                return Err(bad(12, "a difference without the agent below".into()));
            }
            None => None,
        };
        rows.push(LadderRow {
            rank: i + 1,
            agent: a.name.clone(),
            spec: rec[2].to_string(),
            elite,
            dial: a.dial.clone(),
            tier,
            games: row_games,
            score,
            elo,
            elo_lo: lo,
            elo_hi: hi,
        });
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(Error::data(
            path,
            0,
            format!(
                "no row for the agent `{}` of the ladder's config",
                spec.agents[k].name
            ),
        ));
    }
    if let Some((name, _)) = above {
        return Err(Error::data(
            path,
            rows.len() + 1,
            format!("column `below`: `{name}` below the last row"),
        ));
    }
    Ok(rows)
}

//! `playstyles tiers LADDER_DIR [--count N] [--gap ELO] [--cell C] [--prefer near|far|surest]`:
//! difficulty tiers picked from a finished ladder's ratings ([`super::ladder`]), fitted again
//! from its games; its tables are read as written and bound to its config
//! ([`super::ladder::folder::LadderFolder`]), so another ladder's games, a damaged table or an
//! edited `config.toml` is an error naming the file and line. `--count` is at most
//! [`crate::limits::MAX_TIERS`], and checked before anything is allocated by it.
//!
//! **Steps a player feels.** Tiers are `N` agents, weakest first, each rated at least `gap` Elo
//! (default 100: a 64 % expected score) above the one below it, with disjoint 95 % rating
//! intervals. Among all such choices the one whose adjacent tiers are closest in style is taken
//! (`--prefer far`: farthest) — style distance being the distance in cells between two elites of
//! one run's map, and the map's diagonal for an agent that is no elite or of another run — ties
//! going to the lower ratings. `--prefer surest` takes instead the choice whose least certain
//! step is surest: the largest smallest lower end of an adjacent difference's 95 % interval,
//! for tiers that should keep their order on levels they were not chosen on. When no choice
//! exists the command fails naming `--count` and saying how many tiers the ladder can give.
//!
//! **One personality at several strengths.** `--cell C` takes only the agents of cell `C` (a
//! ladder of that elite at several settings of a strength dial, `[[elites]] dial`), and writes
//! `tiers-cell-C.toml` instead of `tiers.toml`. Where the ladder checked the elites' style
//! (`ladder_style.csv`), a setting whose style left the cell — some feature's 95 % interval
//! wholly outside it (not `consistent`) — is left out, and said so: it is another
//! personality, not this one made weaker.
//!
//! **Output.** `tiers.toml` in the ladder's folder (written atomically), one `[[tier]]` table
//! per tier, weakest first: `name` (`tier-1` …), `agent` (its spec, usable from any folder), the
//! ladder's `ladder_agent` name, `elo`, `elo_lo`, `elo_hi`, and against the tier below
//! `gap_below` with its interval `gap_below_lo`, `gap_below_hi` and the `expected_below` score
//! it implies; elites add `run`, `cell` and their `dial` setting. Such a file is what a ladder's
//! `tiers` field reads, to re-play the tiers on held-out levels. `report --ladder` reads it
//! back checked as written and bound to the ladder ([`read_rated_tiers`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::agent_files::usable_anywhere;
use super::game_kind::program;
use super::ladder::LadderSpec;
use super::ladder::folder::LadderFolder;
use super::ladder::games::LADDER_GAMES_CSV;
use super::ladder::style::LADDER_STYLE_CSV;
use super::ladder::table::{LADDER_CSV, LadderRow};
use super::output_error;
use super::run_dir::RunDir;
use super::tiers::{check_tier_count, check_tier_name, read_tiers_file, same_agent, tier_error};
use crate::error::{Error, Result};
use crate::files::{present, write_atomic};
use crate::ladder::bradley_terry::{BradleyTerry, Ratings, Results, expected_score};
use crate::limits;
use crate::report::table::aligned;

/// File name of the tiers in a ladder's folder.
pub const TIERS_TOML: &str = "tiers.toml";
/// The smallest gap between adjacent tiers when none is given (Elo; a 64 % expected score).
pub const DEFAULT_GAP: f64 = 100.0;

/// Which of the possible tier sets to prefer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prefer {
    /// Adjacent tiers closest in style.
    #[default]
    Near,
    /// Adjacent tiers farthest in style.
    Far,
    /// The tiers whose smallest step is surest: the largest least lower end of an adjacent
    /// difference's 95 % interval.
    Surest,
}

/// A finished ladder read back from its folder: its config, results and ratings.
#[derive(Clone, Debug)]
pub struct LoadedLadder {
    /// The folder.
    pub folder: LadderFolder,
    /// Its results.
    pub results: Results,
    /// Its ratings.
    pub ratings: Ratings,
}

/// Reads the finished ladder in `dir` — its config, its games and its `ladder.csv`, each
/// checked as written and bound to the config ([`LadderFolder`]) — and fits its ratings again
/// (as the ladder did).
///
/// # Errors
///
/// As [`LadderFolder::open`], [`LadderFolder::games`] and [`LadderFolder::ratings`] (a ladder
/// that has not finished); [`Error::Data`] naming the games file if the ratings cannot be
/// fitted.
pub fn load_ladder(dir: &Path) -> Result<LoadedLadder> {
    let folder = LadderFolder::open(dir)?;
    let saved = folder.games()?;
    folder.ratings(&saved)?;
    let spec = &folder.spec;
    let mut results = Results::new(spec.agents.len());
    for (&(a, b, _), g) in &saved.games {
        results.add(a, b, g.score_a);
    }
    let ratings = BradleyTerry {
        prior_draws: spec.prior_draws,
        anchor: spec.anchor,
    }
    .fit(&results)
    .map_err(|e| {
        Error::data(
            dir.join(LADDER_GAMES_CSV),
            0,
            format!(
                "the ratings cannot be fitted: {}",
                e.describe(&folder.names())
            ),
        )
    })?;
    Ok(LoadedLadder {
        folder,
        results,
        ratings,
    })
}

/// The candidates' style distances: cells apart on the map for two elites of one run, else
/// `far` (the largest distance on any map involved, at least 1).
fn style_distances(spec: &LadderSpec, candidates: &[usize]) -> Result<Vec<Vec<f64>>> {
    let mut runs: BTreeMap<&str, RunDir> = BTreeMap::new();
    for &i in candidates {
        if let Some((run, _)) = &spec.agents[i].elite
            && !runs.contains_key(run.as_str())
        {
            // Style distances need the elites' map, found by the path the ladder recorded.
            let dir = RunDir::load(Path::new(run)).map_err(|e| {
                Error::config(
                    format!("agent[{i}].run"),
                    format!(
                        "the map of {} (a path from the folder the command runs in, as when the \
                         ladder was played): {e}",
                        spec.agents[i].name
                    ),
                )
            })?;
            runs.insert(run.as_str(), dir);
        }
    }
    let coords = |i: usize| -> Option<(&str, Vec<usize>)> {
        let (run, cell) = spec.agents[i].elite.as_ref()?;
        let dir = runs.get(run.as_str())?;
        Some((run.as_str(), dir.row(*cell)?.coords.clone()))
    };
    let far = runs
        .values()
        .map(|r| {
            r.grid
                .dims()
                .iter()
                .map(|&d| ((d.max(1) - 1) as f64).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(1.0, f64::max);
    let points: Vec<Option<(&str, Vec<usize>)>> = candidates.iter().map(|&i| coords(i)).collect();
    Ok(points
        .iter()
        .map(|p| {
            points
                .iter()
                .map(|q| match (p, q) {
                    (Some((r1, c1)), Some((r2, c2))) if r1 == r2 => c1
                        .iter()
                        .zip(c2)
                        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
                        .sum::<f64>()
                        .sqrt(),
                    _ => far,
                })
                .collect()
        })
        .collect())
}

/// A chain's least cost so far and the position of its previous tier.
type Link = Option<(f64, Option<usize>)>;

/// Picks `count` of the `candidates` (agent indices) as tiers, weakest first: adjacent ones at
/// least `gap` Elo apart with disjoint intervals, adjacent style distances (`dist`, indexed as
/// `candidates`) summed smallest (`Near`) or largest (`Far`), or the smallest lower end of an
/// adjacent difference's interval largest (`Surest`), ties to lower ratings. `Err` carries the
/// most tiers the candidates can give.
pub fn pick(
    ratings: &Ratings,
    candidates: &[usize],
    dist: &[Vec<f64>],
    count: usize,
    gap: f64,
    prefer: Prefer,
) -> std::result::Result<Vec<usize>, usize> {
    // Positions in `candidates` from weakest to strongest.
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    let elo = |p: usize| ratings.elo[candidates[p]];
    order.sort_by(|&a, &b| {
        elo(a)
            .total_cmp(&elo(b))
            .then(candidates[a].cmp(&candidates[b]))
    });
    let step_ok = |lo: usize, hi: usize| {
        let (i, j) = (candidates[lo], candidates[hi]);
        ratings.elo[j] - ratings.elo[i] >= gap
            && ratings.elo[i] + ratings.margin(i) < ratings.elo[j] - ratings.margin(j)
    };
    // A step's cost, and how a chain's cost grows by it (summed, or its worst step).
    let step_cost = |lo: usize, hi: usize| match prefer {
        Prefer::Near => dist[lo][hi],
        Prefer::Far => -dist[lo][hi],
        Prefer::Surest => {
            let (d, m) = ratings.difference(candidates[hi], candidates[lo]);
            m - d
        }
    };
    let grow = |c: f64, step: f64| match prefer {
        Prefer::Surest => c.max(step),
        Prefer::Near | Prefer::Far => c + step,
    };
    // The cost of a one-tier chain: `grow`'s identity.
    let empty = if prefer == Prefer::Surest {
        f64::NEG_INFINITY
    } else {
        0.0
    };
    let m = order.len();
    // The longest chain possible, for the error (beyond `count` too).
    let mut reach = vec![1usize; m];
    for x in 0..m {
        for y in 0..x {
            if step_ok(order[y], order[x]) {
                reach[x] = reach[x].max(reach[y] + 1);
            }
        }
    }
    let most = reach.iter().copied().max().unwrap_or(0);
    // Before the table below, which has a column per tier.
    if count == 0 || count > most {
        return Err(most);
    }
    // best[x][l]: the least cost of a chain of l + 1 tiers ending at order[x], and its previous.
    let mut best: Vec<Vec<Link>> = vec![vec![None; count]; m];
    for x in 0..m {
        best[x][0] = Some((empty, None));
        for y in 0..x {
            if !step_ok(order[y], order[x]) {
                continue;
            }
            for l in 1..count {
                if let Some((c, _)) = best[y][l - 1] {
                    let cost = grow(c, step_cost(order[y], order[x]));
                    if best[x][l].is_none_or(|(b, _)| cost < b) {
                        best[x][l] = Some((cost, Some(y)));
                    }
                }
            }
        }
    }
    let end = (0..m)
        .filter_map(|x| best[x][count - 1].map(|(c, _)| (c, x)))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let Some((_, mut x)) = end else {
        return Err(most);
    };
    let mut chain = vec![order[x]];
    for l in (1..count).rev() {
        let prev = best[x][l].and_then(|(_, p)| p).ok_or(most)?;
        chain.push(order[prev]);
        x = prev;
    }
    chain.reverse();
    Ok(chain.into_iter().map(|p| candidates[p]).collect())
}

/// One `[[tier]]` table of a rated `tiers.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatedTier {
    /// `tier-1` (weakest) … `tier-N`.
    pub name: String,
    /// Its agent spec.
    pub agent: String,
    /// Its name in the ladder.
    pub ladder_agent: String,
    /// Its rating and 95 % interval.
    pub elo: f64,
    /// Lower end.
    pub elo_lo: f64,
    /// Upper end.
    pub elo_hi: f64,
    /// Its rating above the tier below, with the difference's 95 % interval (not for tier 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_below: Option<f64>,
    /// Lower end of the gap's interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_below_lo: Option<f64>,
    /// Upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_below_hi: Option<f64>,
    /// Its expected score against the tier below.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_below: Option<f64>,
    /// The run it is an elite of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Its cell there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<usize>,
    /// Its dial setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dial: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RatedTiersFile {
    tier: Vec<RatedTier>,
}

/// Reads the `tiers.toml` of the ladder `folder` (`None` if it has none) as [`rated_tiers`]
/// wrote it, bound to the ladder whose `ladder.csv` rows are `rows`: 2 to
/// [`limits::MAX_TIERS`] tiers named `tier-1`, `tier-2`, … in order, weakest first; each an
/// agent of the ladder (`ladder_agent`) with its spec, run, cell and dial; finite ratings with
/// `elo_lo ≤ elo ≤ elo_hi`, each within the rounding (0.1 Elo) of the agent's in `ladder.csv`;
/// from the second tier on, the gap to the tier below — the difference of their ratings, within
/// its interval — and an expected score in [0, 1], the first tier without them.
///
/// # Errors
///
/// [`Error::Data`] naming the file and the line of the first field that is not so (another
/// ladder's tiers, or a damaged file), or of a syntax error; [`Error::Io`] if it cannot be
/// read.
pub fn read_rated_tiers(
    folder: &LadderFolder,
    rows: &[LadderRow],
) -> Result<Option<Vec<RatedTier>>> {
    let path = folder.dir.join(TIERS_TOML);
    if !present(&path)? {
        return Ok(None);
    }
    let (file, text): (RatedTiersFile, String) = read_tiers_file(&path)?;
    let n = file.tier.len();
    check_tier_count(&path, n)?;
    let again = format!(
        "; pick the ladder's tiers again with `{} tiers {}`",
        program(),
        folder.dir.display()
    );
    let spec = &folder.spec;
    for (i, t) in file.tier.iter().enumerate() {
        let bad = |key: &str, why: String| tier_error(&path, &text, i, key, why);
        check_tier_name(&path, &text, i, &t.name)?;
        let Some(a) = spec.agents.iter().find(|a| a.name == t.ladder_agent) else {
            return Err(bad(
                "ladder_agent",
                format!("no agent `{}` in the ladder{again}", t.ladder_agent),
            ));
        };
        if !same_agent(&t.agent, &format!("{:#}", a.spec)) {
            return Err(bad(
                "agent",
                format!("not the spec of `{}` in the ladder{again}", a.name),
            ));
        }
        if (t.run.clone(), t.cell) != (a.elite.clone().map(|e| e.0), a.elite.as_ref().map(|e| e.1))
        {
            return Err(bad(
                "cell",
                format!("not the run and cell of `{}` in the ladder{again}", a.name),
            ));
        }
        if t.dial != a.dial {
            return Err(bad(
                "dial",
                format!("not the dial of `{}` in the ladder{again}", a.name),
            ));
        }
        for (key, x) in [("elo", t.elo), ("elo_lo", t.elo_lo), ("elo_hi", t.elo_hi)] {
            if !x.is_finite() {
                return Err(bad(key, format!("{x} is not a finite number")));
            }
        }
        if !(t.elo_lo <= t.elo && t.elo <= t.elo_hi) {
            return Err(bad(
                "elo_lo",
                format!(
                    "the interval [{}, {}] does not hold the rating {}",
                    t.elo_lo, t.elo_hi, t.elo
                ),
            ));
        }
        let rated = rows.iter().find(|r| r.agent == a.name).ok_or_else(|| {
            bad(
                "ladder_agent",
                format!("`{}` has no row in {LADDER_CSV}", a.name),
            )
        })?;
        for (key, x, y) in [
            ("elo", t.elo, rated.elo),
            ("elo_lo", t.elo_lo, rated.elo_lo),
            ("elo_hi", t.elo_hi, rated.elo_hi),
        ] {
            if (x - y).abs() > 0.1 + 1e-9 {
                return Err(bad(
                    key,
                    format!("{x} is not the ladder's ({y} in {LADDER_CSV}){again}"),
                ));
            }
        }
        let gap = [
            ("gap_below", t.gap_below),
            ("gap_below_lo", t.gap_below_lo),
            ("gap_below_hi", t.gap_below_hi),
            ("expected_below", t.expected_below),
        ];
        let Some(below) = i.checked_sub(1).map(|j| &file.tier[j]) else {
            if let Some((key, _)) = gap.iter().find(|(_, x)| x.is_some()) {
                return Err(bad(key, "the first tier has no tier below".into()));
            }
            continue;
        };
        let [d, lo, hi, e] = gap.map(|(key, x)| match x {
            Some(x) if x.is_finite() => Ok(x),
            Some(x) => Err(bad(key, format!("{x} is not a finite number"))),
            None => Err(bad(key, "missing: a tier above the first has it".into())),
        });
        let (d, lo, hi, e) = (d?, lo?, hi?, e?);
        if t.elo < below.elo {
            return Err(bad(
                "elo",
                format!(
                    "{} below the tier before ({}): tiers go weakest first",
                    t.elo, below.elo
                ),
            ));
        }
        if !(lo <= d && d <= hi) || (d - (t.elo - below.elo)).abs() > 0.15 + 1e-9 {
            return Err(bad(
                "gap_below",
                format!(
                    "{d} (interval [{lo}, {hi}]) is not the difference of its rating and the \
                     tier's below ({} - {})",
                    t.elo, below.elo
                ),
            ));
        }
        if !(0.0..=1.0).contains(&e) {
            return Err(bad(
                "expected_below",
                format!("{e} is not an expected score in [0, 1]"),
            ));
        }
    }
    Ok(Some(file.tier))
}

/// The settings among `candidates` (agents of cell `cell`) whose style the ladder's style check
/// found consistent with their cell, printing those left out; all of them when the ladder has
/// no style check, and any setting the check did not reach.
///
/// # Errors
///
/// As [`LadderFolder::styles`]; [`Error::Config`] naming `--cell` when fewer than two
/// settings keep the style.
fn keeping_style(
    folder: &LadderFolder,
    candidates: Vec<usize>,
    cell: usize,
    out: &mut impl Write,
) -> Result<Vec<usize>> {
    let spec = &folder.spec;
    let Some(kept) = folder.styles()?.map(|t| t.consistent()) else {
        return Ok(candidates);
    };
    let (keep, left): (Vec<usize>, Vec<usize>) = candidates
        .into_iter()
        .partition(|&i| kept.get(&spec.agents[i].name).copied().unwrap_or(true));
    let names = |v: &[usize]| {
        v.iter()
            .map(|&i| spec.agents[i].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if keep.len() < 2 {
        return Err(Error::config(
            "--cell",
            format!(
                "{} setting(s) of cell {cell} keep its style in the ladder's style check \
                 ({LADDER_STYLE_CSV}; left the cell: {}); tiers of one personality need two",
                keep.len(),
                names(&left)
            ),
        ));
    }
    if !left.is_empty() {
        writeln!(
            out,
            "left out, as their style leaves cell {cell} in the style check \
             ({LADDER_STYLE_CSV}): {}",
            names(&left)
        )
        .map_err(output_error)?;
    }
    Ok(keep)
}

/// Rounds to one decimal, for the file.
fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Picks tiers from the ladder in `dir`, writes `tiers.toml` there and prints them.
///
/// # Errors
///
/// As [`load_ladder`] and [`LadderFolder::styles`]; [`Error::Config`] naming `--count` when it
/// is above [`limits::MAX_TIERS`] (checked first), `--cell` when fewer than two agents are of
/// that cell (or keep its style), `--count` when the ladder cannot give that many tiers
/// (saying how many it can; [`pick`] checks it before its table of tiers is allocated);
/// [`Error::Io`] for `tiers.toml`.
pub fn rated_tiers(
    dir: &Path,
    count: usize,
    gap: f64,
    cell: Option<usize>,
    prefer: Prefer,
    out: &mut impl Write,
) -> Result<Vec<RatedTier>> {
    limits::at_most(count as u64, limits::MAX_TIERS, "--count")?;
    let ladder = load_ladder(dir)?;
    let spec = &ladder.folder.spec;
    let r = &ladder.ratings;
    let mut candidates: Vec<usize> = (0..spec.agents.len())
        .filter(|&i| cell.is_none_or(|c| spec.agents[i].elite.as_ref().is_some_and(|e| e.1 == c)))
        .collect();
    if candidates.len() < 2 {
        return Err(Error::config(
            "--cell",
            format!(
                "the ladder has {} agent(s) of cell {}; rate the elite at several dial settings \
                 ([[elites]] cells = [C], dial = {{ field = \"budget\", values = [...] }})",
                candidates.len(),
                cell.unwrap_or_default()
            ),
        ));
    }
    if let Some(c) = cell {
        candidates = keeping_style(&ladder.folder, candidates, c, out)?;
    }

    let dist = style_distances(spec, &candidates)?;
    let chain = pick(r, &candidates, &dist, count, gap, prefer).map_err(|most| {
        Error::config(
            "--count",
            format!(
                "cannot pick {count} tiers {gap} Elo apart with disjoint 95% intervals from {} \
                 agents: this ladder gives at most {most}; ask for --count {most}, lower --gap, \
                 or play more games (a smaller target) to narrow the intervals",
                candidates.len()
            ),
        )
    })?;
    let mut tiers = Vec::new();
    for (t, &i) in chain.iter().enumerate() {
        let a = &spec.agents[i];
        let m = r.margin(i);
        let below = (t > 0).then(|| r.difference(i, chain[t - 1]));
        tiers.push(RatedTier {
            name: format!("tier-{}", t + 1),
            agent: usable_anywhere(&format!("{:#}", a.spec), dir)?,
            ladder_agent: a.name.clone(),
            elo: r1(r.elo[i]),
            elo_lo: r1(r.elo[i] - m),
            elo_hi: r1(r.elo[i] + m),
            gap_below: below.map(|d| r1(d.0)),
            gap_below_lo: below.map(|d| r1(d.0 - d.1)),
            gap_below_hi: below.map(|d| r1(d.0 + d.1)),
            expected_below: below.map(|d| (expected_score(d.0) * 1000.0).round() / 1000.0),
            run: a.elite.as_ref().map(|e| e.0.clone()),
            cell: a.elite.as_ref().map(|e| e.1),
            dial: a.dial.clone(),
        });
    }
    let body = toml::to_string(&RatedTiersFile {
        tier: tiers.clone(),
    })
    .map_err(|e| Error::config("tiers", e.to_string()))?;
    let text = format!(
        "# {} difficulty tiers from the ladder in {}, weakest first: adjacent tiers at least {gap} \
         Elo apart with disjoint 95% intervals, {}.\n\n{body}",
        tiers.len(),
        dir.display(),
        match prefer {
            Prefer::Near => "closest in style",
            Prefer::Far => "farthest in style (--prefer far)",
            Prefer::Surest => "the least certain step surest (--prefer surest)",
        }
    );
    let path = dir.join(match cell {
        None => TIERS_TOML.to_string(),
        Some(c) => format!("tiers-cell-{c}.toml"),
    });
    write_atomic(&path, text.as_bytes())?;
    let header = ["tier", "agent", "elo", "95%", "above below", "expected"].map(String::from);
    let rows: Vec<Vec<String>> = tiers
        .iter()
        .map(|t| {
            vec![
                t.name.clone(),
                t.ladder_agent.clone(),
                format!("{:+.0}", t.elo),
                format!("[{:+.0}, {:+.0}]", t.elo_lo, t.elo_hi),
                t.gap_below.map_or_else(
                    || "-".into(),
                    |g| {
                        format!(
                            "{g:+.0} [{:+.0}, {:+.0}]",
                            t.gap_below_lo.unwrap_or_default(),
                            t.gap_below_hi.unwrap_or_default()
                        )
                    },
                ),
                t.expected_below
                    .map_or_else(|| "-".into(), |e| format!("{:.0}%", 100.0 * e)),
            ]
        })
        .collect();
    write!(
        out,
        "tiers by rating (ladder {}), weakest first\n{}wrote {}\n",
        dir.display(),
        aligned(&header, &rows),
        path.display()
    )
    .map_err(output_error)?;
    Ok(tiers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ratings with independent intervals of half-width `margin`.
    fn ratings(elo: &[f64], margin: f64) -> Ratings {
        let var = (margin / crate::ladder::bradley_terry::Z_95).powi(2);
        let n = elo.len();
        Ratings {
            elo: elo.to_vec(),
            cov: (0..n)
                .map(|i| (0..n).map(|j| if i == j { var } else { 0.0 }).collect())
                .collect(),
        }
    }

    /// Style distances among `n` agents: 1 for the `near` pairs, 5 for the others.
    fn distances(n: usize, near: &[(usize, usize)]) -> Vec<Vec<f64>> {
        let mut dist = vec![vec![5.0; n]; n];
        for &(a, b) in near {
            dist[a][b] = 1.0;
            dist[b][a] = 1.0;
        }
        dist
    }

    #[test]
    fn tiers_keep_the_gap_and_disjoint_intervals_and_the_error_says_how_many_fit() {
        let r = ratings(&[0.0, 60.0, 130.0, 250.0, 400.0, 410.0], 30.0);
        let cands: Vec<usize> = (0..6).collect();
        let dist = vec![vec![1.0; 6]; 6];
        let chain = pick(&r, &cands, &dist, 4, 100.0, Prefer::Near).unwrap();
        for w in chain.windows(2) {
            assert!(r.elo[w[1]] - r.elo[w[0]] >= 100.0, "{chain:?}");
        }
        assert_eq!(chain.len(), 4);
        assert_eq!(pick(&r, &cands, &dist, 5, 100.0, Prefer::Near), Err(4));
        // Wider intervals overlap even where the gap holds.
        let wide = ratings(&[0.0, 60.0, 130.0, 250.0, 400.0, 410.0], 70.0);
        assert_eq!(pick(&wide, &cands, &dist, 4, 100.0, Prefer::Near), Err(3));
    }

    #[test]
    fn style_preference_chooses_among_equally_valid_tiers() {
        // Agents 1 and 2 are both 200 Elo above 0 and below 3; 2 is closer in style to both.
        let r = ratings(&[0.0, 200.0, 205.0, 400.0], 20.0);
        let dist = distances(4, &[(0, 2), (2, 3)]);
        let cands: Vec<usize> = (0..4).collect();
        assert_eq!(
            pick(&r, &cands, &dist, 3, 100.0, Prefer::Near).unwrap(),
            [0, 2, 3]
        );
        assert_eq!(
            pick(&r, &cands, &dist, 3, 100.0, Prefer::Far).unwrap(),
            [0, 1, 3]
        );
    }

    #[test]
    fn the_surest_tiers_have_the_largest_smallest_step() {
        // 0, then 150 or 230, then 400: through 150 the steps are 150 and 250, through 230 they
        // are 230 and 170 — the smallest step larger, though 150 is closer in style.
        let r = ratings(&[0.0, 150.0, 230.0, 400.0], 20.0);
        let dist = distances(4, &[(0, 1), (1, 3)]);
        let cands: Vec<usize> = (0..4).collect();
        assert_eq!(
            pick(&r, &cands, &dist, 3, 100.0, Prefer::Near).unwrap(),
            [0, 1, 3]
        );
        assert_eq!(
            pick(&r, &cands, &dist, 3, 100.0, Prefer::Surest).unwrap(),
            [0, 2, 3]
        );
    }
}

//! `playstyles tiers RUN_DIR [--count N]`: picks difficulty tiers from a run's elites and
//! writes them as ready-to-use agent specs in `tiers.toml`. Given a ladder's folder instead
//! (`playstyles ladder`), it picks them from ratings ([`super::rated_tiers`]); what follows is
//! the pick from a run's win rates against its one baseline, which checks no step between
//! tiers.
//!
//! **Win rates.** If the run directory holds a `validation.csv` (from `playstyles validate`),
//! the candidates are the validated elites with their validation win rates (`validated`);
//! otherwise every elite of `archive.csv` with its archived win rate (`archived`). The output
//! says which. A `validation.csv` whose elites' archived numbers (win rate, games, feature
//! means and deviations) differ from `archive.csv` (the run went on after validation, or
//! another run's table) is an error ([`validation_of`]).
//!
//! **Picking.** The candidates are sorted from weakest to strongest by win rate, ties by cell
//! index (the lower cell counts as weaker). Tier `i` of `N` (`i = 0..N`) takes the candidate at
//! the target quantile `i/(N−1)`: sorted position `round(i·(M−1)/(N−1))` among `M` candidates,
//! rounding half up. As `M ≥ N`, the positions are distinct, so each elite is used once, and
//! the first and last tiers are the weakest and strongest elites. `N` must be at least 2 and
//! at most `M`.
//!
//! **Output.** `tiers.toml` (written atomically) holds one `[[tier]]` table per tier, weakest
//! first: `name` (`tier-1` … `tier-N`), `cell`, `win_rate`, `source` (`validated` or
//! `archived`) and `agent`, the run's player spec with the elite's weights, usable as is in
//! `playstyles play --agents` and in a tournament config's `agents` list, from any working
//! folder (the files it reads are the run's copies, by absolute path,
//! [`super::agent_files::usable_anywhere`]). Read back (`report`), the file is checked as
//! written and bound to the run ([`read_run_tiers`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::agent_files::usable_anywhere;
use super::game_kind::program;
use super::ladder::folder::LadderFolder;
use super::rated_tiers::Prefer;
use super::run_dir::{RunDir, read_config};
use super::validate::{VALIDATION_CSV, ValidationRow, validation_of};
use super::{GameKind, output_error};
use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, present, read_text, write_atomic};
use crate::limits;
use crate::report::archive::ARCHIVE_CSV;
use crate::report::table::aligned;

/// File name of the tiers in a run directory.
pub const TIERS_TOML: &str = "tiers.toml";
/// Default number of tiers.
pub const DEFAULT_TIER_COUNT: usize = 5;

/// Validated settings of `playstyles tiers`.
#[derive(Clone, Debug, PartialEq)]
pub struct TiersConfig {
    /// The run directory, or a ladder's folder.
    pub run_dir: PathBuf,
    /// The run's (or ladder's) game (from its `config.toml`).
    pub game: GameKind,
    /// Number of tiers (at least 2).
    pub count: usize,
    /// For a ladder: the tiers' rating steps and which agents they are picked from.
    pub rated: Option<RatedSettings>,
}

/// How tiers are picked from a ladder ([`super::rated_tiers`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSettings {
    /// The least rating gap between adjacent tiers (Elo).
    pub gap: f64,
    /// Only the agents of this cell (one personality at several strengths).
    pub cell: Option<usize>,
    /// Adjacent tiers close or far in style.
    pub prefer: Prefer,
}

/// True if `dir` holds a ladder: something is at its `ladder_games.csv` (a link, folder or FIFO
/// there is then refused by name when the games are read, not taken for a run directory).
///
/// # Errors
///
/// As [`present`].
pub fn is_ladder(dir: &Path) -> Result<bool> {
    present(&dir.join(super::ladder::games::LADDER_GAMES_CSV))
}

impl TiersConfig {
    /// Settings for `count` tiers of the run or ladder in `run_dir`; reads its `config.toml`
    /// for the game. `rated` applies to a ladder only.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--count` if it is below 2 or above [`limits::MAX_TIERS`],
    /// `--gap` if it is negative or not finite, `--cell`, `--gap` or `--prefer` if given for a
    /// run directory; as [`read_config`], or for a ladder [`LadderFolder::open`] (its
    /// `config.toml` named).
    pub fn new(run_dir: PathBuf, count: usize, rated: RatedFlags) -> Result<Self> {
        if count < 2 {
            return Err(Error::config(
                "--count",
                format!("give at least 2 tiers (weakest and strongest), got {count}"),
            ));
        }
        limits::at_most(count as u64, limits::MAX_TIERS, "--count")?;
        if let Some(g) = rated.gap
            && !(g.is_finite() && g >= 0.0)
        {
            return Err(Error::config(
                "--gap",
                format!("give a number of Elo of at least 0, got {g}"),
            ));
        }
        if is_ladder(&run_dir)? {
            let game = LadderFolder::open(&run_dir)?.spec.game;
            return Ok(TiersConfig {
                run_dir,
                game,
                count,
                rated: Some(RatedSettings {
                    gap: rated.gap.unwrap_or(super::rated_tiers::DEFAULT_GAP),
                    cell: rated.cell,
                    prefer: rated.prefer.unwrap_or_default(),
                }),
            });
        }
        for (given, flag) in [
            (rated.gap.is_some(), "--gap"),
            (rated.cell.is_some(), "--cell"),
            (rated.prefer.is_some(), "--prefer"),
        ] {
            if given {
                return Err(Error::config(
                    flag,
                    format!(
                        "{} holds no ladder (ladder_games.csv): {flag} picks tiers from ratings; \
                         rate the run's elites with `{} ladder` first",
                        run_dir.display(),
                        program()
                    ),
                ));
            }
        }
        let game = read_config(&run_dir)?.game;
        Ok(TiersConfig {
            run_dir,
            game,
            count,
            rated: None,
        })
    }
}

/// The flags of `tiers` that pick from a ladder, as given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatedFlags {
    /// `--gap`.
    pub gap: Option<f64>,
    /// `--cell`.
    pub cell: Option<usize>,
    /// `--prefer`.
    pub prefer: Option<Prefer>,
}

/// Where a tier's win rate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `validation.csv` (`val_win_rate`).
    Validated,
    /// `archive.csv` (`win_rate`).
    Archived,
}

/// One `[[tier]]` table of `tiers.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// `tier-1` (weakest) … `tier-N` (strongest).
    pub name: String,
    /// The elite's cell.
    pub cell: usize,
    /// The win rate the tier was picked by.
    pub win_rate: f64,
    /// Where that win rate comes from.
    pub source: Source,
    /// The elite's agent spec.
    pub agent: String,
}

/// The contents of `tiers.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TiersFile {
    /// The tiers, weakest first.
    pub tier: Vec<Tier>,
}

/// Positions in `0..candidates` of `count` tiers spread evenly from the weakest (0) to the
/// strongest (`candidates − 1`): `round(i·(M−1)/(N−1))` rounding half up, computed exactly.
/// Distinct and increasing when `2 ≤ count ≤ candidates`.
///
/// # Errors
///
/// [`Error::Config`] naming `--count` if `count < 2` or `count > candidates`.
pub fn tier_positions(candidates: usize, count: usize) -> Result<Vec<usize>> {
    if count < 2 || count > candidates {
        return Err(Error::config(
            "--count",
            format!("cannot pick {count} tiers from {candidates} elites (give 2 to {candidates})"),
        ));
    }
    let (m, n) = (candidates - 1, count - 1);
    // round(i·m/n) = floor((2·i·m + n) / (2·n)).
    Ok((0..count).map(|i| (2 * i * m + n) / (2 * n)).collect())
}

/// Picks `count` of the `(cell, win rate)` candidates spread evenly from weakest to strongest
/// (see the module docs); returns them weakest first.
///
/// # Errors
///
/// As [`tier_positions`].
pub fn pick_tiers(candidates: &[(usize, f64)], count: usize) -> Result<Vec<(usize, f64)>> {
    let mut sorted = candidates.to_vec();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    Ok(tier_positions(sorted.len(), count)?
        .into_iter()
        .map(|p| sorted[p])
        .collect())
}

/// Picks the tiers of `cfg.run_dir`, writes `tiers.toml` and prints them; for a ladder's
/// folder, those of [`super::rated_tiers::rated_tiers`] (returning no win-rate tiers).
///
/// # Errors
///
/// As [`RunDir::load`] and [`pick_tiers`] (the message says how many elites there are);
/// as [`validation_of`] for a `validation.csv` that is malformed or not of the run's archive;
/// [`Error::Io`] naming `tiers.toml` if it cannot be written.
pub fn tiers(cfg: &TiersConfig, out: &mut impl Write) -> Result<Vec<Tier>> {
    if let Some(r) = &cfg.rated {
        super::rated_tiers::rated_tiers(&cfg.run_dir, cfg.count, r.gap, r.cell, r.prefer, out)?;
        return Ok(Vec::new());
    }
    let run = RunDir::load(&cfg.run_dir)?;
    let (source, candidates): (Source, Vec<(usize, f64)>) = if let Some(rows) = validation_of(&run)?
    {
        (
            Source::Validated,
            validated_rates(&rows).into_iter().collect(),
        )
    } else {
        let rows = &run.archive.rows;
        (
            Source::Archived,
            rows.iter().map(|r| (r.cell, r.win_rate)).collect(),
        )
    };
    let picked = pick_tiers(&candidates, cfg.count).map_err(|e| match (e, source) {
        (Error::Config { field, reason }, Source::Validated) => Error::config(
            field,
            format!("{reason}: only the validated elites of {VALIDATION_CSV} count; validate more cells (--cells all) or ask for fewer tiers"),
        ),
        (e, _) => e,
    })?;
    let tiers: Vec<Tier> = picked
        .iter()
        .enumerate()
        .map(|(i, &(cell, win_rate))| {
            let row = run.row(cell).ok_or_else(|| {
                Error::data(
                    run.dir.join(ARCHIVE_CSV),
                    0,
                    format!("cell {cell} has no elite"),
                )
            })?;
            Ok(Tier {
                name: format!("tier-{}", i + 1),
                cell,
                win_rate,
                source,
                agent: usable_anywhere(&run.agent_spec(row)?, &run.dir)?,
            })
        })
        .collect::<Result<_>>()?;
    let file = TiersFile {
        tier: tiers.clone(),
    };
    let body = toml::to_string(&file).map_err(|e| Error::config("tiers", e.to_string()))?;
    let from = match source {
        Source::Validated => format!("validation win rates ({VALIDATION_CSV})"),
        Source::Archived => {
            format!(
                "archived win rates (archive.csv; run `{} validate` for held-out ones)",
                program()
            )
        }
    };
    let text = format!(
        "# {} difficulty tiers of run `{}`, weakest first, picked by {from}.\n\n{body}",
        tiers.len(),
        run.config.name
    );
    let path = run.dir.join(TIERS_TOML);
    write_atomic(&path, text.as_bytes())?;

    let mut header: Vec<String> = ["tier", "cell", "win %"].map(String::from).to_vec();
    header.extend(run.config.features.iter().map(|a| a.name.clone()));
    let rows: Vec<Vec<String>> = tiers
        .iter()
        .map(|t| {
            let mut row = vec![
                t.name.clone(),
                t.cell.to_string(),
                format!("{:.1}", 100.0 * t.win_rate),
            ];
            if let Some(r) = run.row(t.cell) {
                row.extend(r.means.iter().map(|m| format!("{m:.2}")));
            }
            row
        })
        .collect();
    write!(
        out,
        "tiers by {from}; features as archived\n{}wrote {}\n",
        aligned(&header, &rows),
        path.display()
    )
    .map_err(output_error)?;
    Ok(tiers)
}

/// Each validated elite's validation win rate, by cell.
fn validated_rates(rows: &[ValidationRow]) -> BTreeMap<usize, f64> {
    let mut rates = BTreeMap::new();
    for r in rows {
        rates.entry(r.cell).or_insert(r.val_win_rate);
    }
    rates
}

/// The error for the field `key` of tier `i` (0-based) of `tiers.toml` at `path` (its
/// text `text`): `why`, on the field's line.
pub(crate) fn tier_error(path: &Path, text: &str, i: usize, key: &str, why: String) -> Error {
    Error::data(
        path,
        tier_line(text, i, key),
        format!("tier {}: `{key}`: {why}", i + 1),
    )
}

/// Ok if tier `i` (0-based) of `tiers.toml` at `path` (its text `text`) is named `name` as
/// `tiers` names it (`tier-1`, `tier-2`, …).
///
/// # Errors
///
/// [`Error::Data`] naming the file and the line ([`tier_error`]) otherwise.
pub(crate) fn check_tier_name(path: &Path, text: &str, i: usize, name: &str) -> Result<()> {
    if name != format!("tier-{}", i + 1) {
        return Err(tier_error(
            path,
            text,
            i,
            "name",
            format!("`{name}` where `tier-{}` comes", i + 1),
        ));
    }
    Ok(())
}

/// Ok if `tiers.toml` at `path` holds `n` tiers, as many as `tiers` writes (2 to
/// [`limits::MAX_TIERS`]).
///
/// # Errors
///
/// [`Error::Data`] naming the file otherwise.
pub(crate) fn check_tier_count(path: &Path, n: usize) -> Result<()> {
    if n < 2 || n as u64 > limits::MAX_TIERS {
        return Err(Error::data(
            path,
            0,
            format!(
                "{n} tiers: `tiers` writes 2 to {} of them",
                limits::MAX_TIERS
            ),
        ));
    }
    Ok(())
}

/// Reads the `[[tier]]` tables file `path` (TOML, at most [`TEXT_LIMIT`] bytes) into `T`; its
/// text too, for [`tier_line`].
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read; [`Error::Data`] naming it and the line
/// if it is not TOML of `T`'s fields.
pub(crate) fn read_tiers_file<T: DeserializeOwned>(path: &Path) -> Result<(T, String)> {
    let text = read_text(path, TEXT_LIMIT)?;
    let file = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(0, |s| {
            text[..s.start.min(text.len())].matches('\n').count() + 1
        });
        Error::data(path, line, e.message().trim().to_string())
    })?;
    Ok((file, text))
}

/// The line of `key` in the `tier`-th (0-based) `[[tier]]` table of a tiers file's `text`
/// (that table's header line if the key is not there; 0 if the table is not).
pub(crate) fn tier_line(text: &str, tier: usize, key: &str) -> usize {
    let mut tables = 0;
    let mut header = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line == "[[tier]]" {
            tables += 1;
            if tables == tier + 2 {
                break;
            }
            header = i + 1;
        } else if tables == tier + 1
            && line
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return i + 1;
        }
    }
    if tables > tier { header } else { 0 }
}

/// Whether the agent specs `a` and `b` are the same agent: equal once the files they name are
/// taken by file name alone (a tiers file names them from anywhere, by absolute path, and the
/// folder they are in may have moved since).
pub(crate) fn same_agent(a: &str, b: &str) -> bool {
    let plain = |s: &str| {
        AgentSpec::parse(s).ok().map(|mut spec| {
            spec.map_files(|p| {
                Path::new(p)
                    .file_name()
                    .map_or_else(|| p.to_string(), |n| n.to_string_lossy().into_owned())
            });
            spec
        })
    };
    let a = plain(a);
    a.is_some() && a == plain(b)
}

/// Reads `run`'s `tiers.toml` (`None` if it has none) as [`tiers`] wrote it, bound to the run:
/// 2 to [`limits::MAX_TIERS`] tiers named `tier-1`, `tier-2`, … in order, weakest first (win
/// rates in increasing order, ties by cell), of one source; each tier's cell an elite of the
/// run's archive, its agent that elite's spec, its win rate the elite's — archived
/// (`archive.csv`), or validated (`validation`, the run's [`validation_of`]).
///
/// # Errors
///
/// [`Error::Data`] naming the file and the line of the first field that is not so (another
/// run's tiers, or tiers the run went on after), or of a syntax error; [`Error::Io`] if it
/// cannot be read.
pub fn read_run_tiers(
    run: &RunDir,
    validation: Option<&[ValidationRow]>,
) -> Result<Option<Vec<Tier>>> {
    let path = run.dir.join(TIERS_TOML);
    if !present(&path)? {
        return Ok(None);
    }
    let (file, text): (TiersFile, String) = read_tiers_file(&path)?;
    let n = file.tier.len();
    check_tier_count(&path, n)?;
    let validated = validation.map(validated_rates);
    let again = format!("; pick the run's tiers again with `{} tiers`", program());
    for (i, t) in file.tier.iter().enumerate() {
        let bad = |key: &str, why: String| tier_error(&path, &text, i, key, why);
        check_tier_name(&path, &text, i, &t.name)?;
        if t.source != file.tier[0].source {
            return Err(bad("source", "the tiers of a file have one source".into()));
        }
        if !(0.0..=1.0).contains(&t.win_rate) {
            return Err(bad(
                "win_rate",
                format!("{} is not a rate in [0, 1]", t.win_rate),
            ));
        }
        if t.cell >= run.grid.num_cells() {
            return Err(bad(
                "cell",
                format!(
                    "{} is not a cell of the run's map ({} cells)",
                    t.cell,
                    run.grid.num_cells()
                ),
            ));
        }
        let Some(row) = run.row(t.cell) else {
            return Err(bad(
                "cell",
                format!("cell {} has no elite in {ARCHIVE_CSV}{again}", t.cell),
            ));
        };
        if !same_agent(&t.agent, &run.agent_spec(row)?) {
            return Err(bad(
                "agent",
                format!(
                    "not the spec of the elite of cell {} in {ARCHIVE_CSV}{again}",
                    t.cell
                ),
            ));
        }
        let (rate, of) = match t.source {
            Source::Archived => (Some(row.win_rate), ARCHIVE_CSV),
            Source::Validated => (
                validated.as_ref().and_then(|v| v.get(&t.cell).copied()),
                VALIDATION_CSV,
            ),
        };
        if rate != Some(t.win_rate) {
            return Err(bad(
                "win_rate",
                format!(
                    "{} is not the win rate of cell {} in the run's {of}{again}",
                    t.win_rate, t.cell
                ),
            ));
        }
        if let Some(below) = i.checked_sub(1).map(|j| &file.tier[j])
            && below
                .win_rate
                .total_cmp(&t.win_rate)
                .then(below.cell.cmp(&t.cell))
                != std::cmp::Ordering::Less
        {
            return Err(bad(
                "win_rate",
                "below the tier before: tiers go weakest first (ties by cell)".into(),
            ));
        }
    }
    Ok(Some(file.tier))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tier_field_is_found_on_its_line_of_its_table() {
        let text = "# head\n\n[[tier]]\nname = \"tier-1\"\ncell = 3\n\n[[tier]]\n\
                    name = \"tier-2\"\nwin_rate = 0.5\ncell_x = 1\ncell = 7\n";
        assert_eq!(tier_line(text, 0, "cell"), 5);
        assert_eq!(tier_line(text, 1, "name"), 8);
        assert_eq!(tier_line(text, 1, "cell"), 11);
        assert_eq!(tier_line(text, 0, "win_rate"), 3, "the table's header");
        assert_eq!(tier_line(text, 2, "cell"), 0, "no third table");
    }

    #[test]
    fn agents_are_the_same_whatever_folder_names_their_files() {
        assert!(same_agent(
            "mcts(budget=5,config=/a/run/agent-files/bots.toml)",
            "mcts(budget=5,config=agent-files/bots.toml)"
        ));
        assert!(!same_agent("sa0(weights=[a=1.0])", "sa0(weights=[a=0.5])"));
        assert!(!same_agent("sa0(", "sa0("), "a spec that does not parse");
    }

    #[test]
    fn positions_spread_from_weakest_to_strongest() {
        assert_eq!(tier_positions(5, 5).unwrap(), [0, 1, 2, 3, 4]);
        assert_eq!(tier_positions(5, 3).unwrap(), [0, 2, 4]);
        assert_eq!(tier_positions(4, 3).unwrap(), [0, 2, 3]); // 1.5 rounds up
        assert_eq!(tier_positions(10, 4).unwrap(), [0, 3, 6, 9]);
        assert_eq!(tier_positions(2, 2).unwrap(), [0, 1]);
        for (m, n) in [(1, 2), (3, 4), (5, 1), (5, 0)] {
            match tier_positions(m, n) {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--count"),
                other => panic!("{m} {n}: {other:?}"),
            }
        }
    }

    #[test]
    fn positions_are_distinct_whenever_there_are_enough_elites() {
        for m in 2..40 {
            for n in 2..=m {
                let p = tier_positions(m, n).unwrap();
                assert!(p.windows(2).all(|w| w[0] < w[1]), "{m} {n}: {p:?}");
                assert_eq!((p[0], p[n - 1]), (0, m - 1));
            }
        }
    }

    #[test]
    fn ties_go_by_cell_index() {
        let c = [(7, 0.5), (2, 0.5), (4, 0.1), (9, 0.9)];
        assert_eq!(
            pick_tiers(&c, 4).unwrap(),
            [(4, 0.1), (2, 0.5), (7, 0.5), (9, 0.9)]
        );
        assert_eq!(pick_tiers(&c, 2).unwrap(), [(4, 0.1), (9, 0.9)]);
    }
}

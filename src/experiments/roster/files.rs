//! The roster's files in the run directory: `roster.toml` written and read back (bound to the
//! run), and the tables `roster_confusion.csv`, `roster_sizes.csv` and `roster_games.csv`
//! (formats in the [module docs](super)).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::assess::SizeResult;
use super::play::MemberGames;
use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::experiments::game_kind::program;
use crate::experiments::journal::fingerprint;
use crate::experiments::run_dir::{CONFIG_TOML, RunDir};
use crate::files::{TEXT_LIMIT, present, read_text, write_atomic};
use crate::limits;
use crate::report::csv::CsvTable;

/// File name of the roster in a run directory.
pub const ROSTER_TOML: &str = "roster.toml";
/// File name of the roster's 1-game confusion matrix.
pub const ROSTER_CONFUSION_CSV: &str = "roster_confusion.csv";
/// File name of the accuracy per roster size.
pub const ROSTER_SIZES_CSV: &str = "roster_sizes.csv";
/// File name of the members' games and statistics.
pub const ROSTER_GAMES_CSV: &str = "roster_games.csv";
/// File name of the roster's chart (PNG).
pub const ROSTER_PNG: &str = "roster.png";
/// File name of the roster's chart (SVG).
pub const ROSTER_SVG: &str = "roster.svg";
/// The journal of a roster under way.
pub const ROSTER_JOURNAL: &str = "roster.journal.json";
/// The completion record of a finished roster.
pub const ROSTER_DONE: &str = "roster.done.json";

/// `roster.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterFile {
    /// Members.
    pub count: usize,
    /// The roster's 1-game accuracy on held-out games.
    pub accuracy_1: f64,
    /// Its 3-game accuracy.
    pub accuracy_3: f64,
    /// The accuracy of a guess: 1 / count.
    pub chance: f64,
    /// How it was made.
    pub settings: RosterSettings,
    /// The personalities, in pick order.
    pub member: Vec<MemberFile>,
}

/// The settings a roster was made with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterSettings {
    /// `--count` (`8`, `auto:16`).
    pub count: String,
    /// `--target`.
    pub target: f64,
    /// The floor the candidates' lower bounds cleared.
    pub floor: f64,
    /// Where the candidates' figures come from (`reevaluated`, `archived`).
    pub source: String,
    /// The elites considered.
    pub elites: usize,
    /// The candidates kept.
    pub candidates: usize,
    /// Games per member on the training levels.
    pub train_games: u32,
    /// Games per member on the test levels.
    pub test_games: u32,
    /// The training levels.
    pub training_levels: Vec<String>,
    /// The test levels.
    pub test_levels: Vec<String>,
    /// The run's baseline.
    pub baseline: String,
    /// The run's seed.
    pub seed: u64,
    /// The per-game statistics measured.
    pub statistics: usize,
    /// The fingerprint of the run's `config.toml`.
    pub config: String,
}

/// One personality.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberFile {
    /// Its name, unique in the roster.
    pub name: String,
    /// Its elite's cell.
    pub cell: usize,
    /// Its agent spec.
    pub spec: String,
    /// Its win rate (re-played, or archived).
    pub win_rate: f64,
    /// The lower end of its 95 % interval.
    pub win_rate_lo: f64,
    /// Its win rate over its test games.
    pub held_out_win_rate: f64,
    /// The share of its held-out games named right, one game at a time.
    pub accuracy_1: f64,
    /// The share of its groups of three held-out games named right.
    pub accuracy_3: f64,
    /// Its held-out games named as each member, in member order (its row of the 1-game
    /// confusion matrix).
    pub named_as: Vec<u32>,
    /// What sets it apart, in words.
    pub style: Vec<String>,
}

/// `roster.toml`'s text: a comment saying what made it and how to use a member, then the file.
///
/// # Errors
///
/// [`Error::Config`] naming `roster` if it cannot be written as TOML (a seed above 2⁶³).
pub fn roster_text(file: &RosterFile) -> Result<String> {
    let body = toml::to_string(file).map_err(|e| Error::config("roster", e.to_string()))?;
    let example = file.member.first().map_or("NAME", |m| m.name.as_str());
    Ok(format!(
        "# A roster of personalities, written by `{} roster`. A member plays wherever an agent\n\
         # spec is taken as roster(file=RUN_DIR/{ROSTER_TOML},name={example}).\n{body}",
        program(),
    ))
}

/// The 1-game confusion matrix of `r`, its members named `names`.
pub fn confusion_table(names: &[String], r: &SizeResult) -> CsvTable {
    let mut header = vec!["member".to_string()];
    header.extend(names.iter().cloned());
    header.push("games".into());
    let mut t = CsvTable::new(header);
    for (name, row) in names.iter().zip(&r.confusion) {
        let mut cells = vec![name.clone()];
        cells.extend(row.iter().map(u32::to_string));
        cells.push(row.iter().sum::<u32>().to_string());
        t.rows.push(cells);
    }
    t
}

/// The accuracy of every size assessed, `chosen` the roster's.
pub fn sizes_table(sizes: &[SizeResult], chosen: usize) -> CsvTable {
    let mut t = CsvTable::new(
        [
            "size",
            "accuracy_1",
            "accuracy_3",
            "statistics",
            "shrinkage",
            "chosen",
        ]
        .map(String::from)
        .to_vec(),
    );
    for s in sizes {
        t.rows.push(vec![
            s.size.to_string(),
            s.accuracy_1.to_string(),
            s.accuracy_3.to_string(),
            s.statistics.to_string(),
            s.shrinkage.to_string(),
            (s.size == chosen).to_string(),
        ]);
    }
    t
}

/// Every game of `members` (in pick order) with the statistics `statistics`.
pub fn games_table(members: &[MemberGames], statistics: &[String]) -> CsvTable {
    let mut header: Vec<String> = [
        "order", "cell", "split", "level", "game", "won", "draw", "score",
    ]
    .map(String::from)
    .to_vec();
    header.extend(statistics.iter().cloned());
    let mut t = CsvTable::new(header);
    for (order, m) in members.iter().enumerate() {
        for (split, games) in [("train", &m.train), ("test", &m.test)] {
            for (i, g) in games.iter().enumerate() {
                let mut row = vec![
                    (order + 1).to_string(),
                    m.cell.to_string(),
                    split.to_string(),
                    g.level.clone(),
                    i.to_string(),
                    g.won.to_string(),
                    g.draw.to_string(),
                    g.score.to_string(),
                ];
                row.extend(
                    g.stats
                        .iter()
                        .map(|v| v.map_or_else(String::new, |x| x.to_string())),
                );
                t.rows.push(row);
            }
        }
    }
    t
}

/// Writes `roster.toml` into the run directory atomically.
///
/// # Errors
///
/// As [`roster_text`]; [`Error::Io`] if it cannot be written.
pub fn write_roster(run: &RunDir, file: &RosterFile) -> Result<()> {
    let text = roster_text(file)?;
    write_atomic(&run.dir.join(ROSTER_TOML), text.as_bytes())
}

/// The line of `key` in the `i`-th (0-based) `[[member]]` table of `text` (the table's header
/// line if the key is not there; 0 if the table is not).
fn member_line(text: &str, i: usize, key: &str) -> usize {
    let mut tables = 0;
    let mut header = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line == "[[member]]" {
            tables += 1;
            if tables == i + 2 {
                break;
            }
            header = n + 1;
        } else if tables == i + 1
            && line
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return n + 1;
        }
    }
    if tables > i { header } else { 0 }
}

/// The line of the first top-level `key = …` of `text` (0 if none).
fn top_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(0, |n| n + 1)
}

/// Reads `run`'s `roster.toml` (`None` if it has none) as `roster` wrote it, bound to the run:
/// its `settings.config` the fingerprint of the run's `config.toml`; 2 to
/// [`limits::MAX_ROSTER`] members, `count` of them, with unique names that a spec can name
/// (a letter, then letters, digits, `_`, `.`, `-`), each member's cell an elite of the run's
/// archive and its spec that elite's, its `named_as` a count per member adding up to the
/// held-out games; every accuracy and win rate in [0, 1].
///
/// # Errors
///
/// [`Error::Data`] naming the file and the line of the first value that is not so (another
/// run's roster, or one the run went on after: run `roster` again), or of a syntax error;
/// [`Error::Io`] if it cannot be read.
pub fn read_roster(run: &RunDir) -> Result<Option<RosterFile>> {
    let path = run.dir.join(ROSTER_TOML);
    if !present(&path)? {
        return Ok(None);
    }
    let text = read_text(&path, TEXT_LIMIT)?;
    let file: RosterFile = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(0, |s| {
            text[..s.start.min(text.len())].matches('\n').count() + 1
        });
        Error::data(&path, line, e.message().trim().to_string())
    })?;
    let again = format!("; make the roster again with `{} roster`", program());
    let n = file.member.len();
    if n < 2 || n as u64 > limits::MAX_ROSTER || file.count != n {
        return Err(Error::data(
            &path,
            top_line(&text, "count"),
            format!(
                "`count` is {} with {n} members: `roster` writes 2 to {} members and counts them",
                file.count,
                limits::MAX_ROSTER
            ),
        ));
    }
    let config = read_text(&run.dir.join(CONFIG_TOML), TEXT_LIMIT)?;
    if file.settings.config != fingerprint(&config) {
        return Err(Error::data(
            &path,
            top_line(&text, "config"),
            format!("`config`: not the roster of this run's {CONFIG_TOML}{again}"),
        ));
    }
    let rate = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
    for (key, x) in [
        ("accuracy_1", file.accuracy_1),
        ("accuracy_3", file.accuracy_3),
        ("chance", file.chance),
    ] {
        if !rate(x) {
            return Err(Error::data(
                &path,
                top_line(&text, key),
                format!("`{key}` is {x}, not a share in [0, 1]"),
            ));
        }
    }
    let mut names = BTreeSet::new();
    for (i, m) in file.member.iter().enumerate() {
        let bad = |key: &str, why: String| {
            Error::data(
                &path,
                member_line(&text, i, key),
                format!("member {}: `{key}`: {why}", i + 1),
            )
        };
        let word = AgentSpec::parse(&format!("x(name={})", m.name)).is_ok();
        if !word || !names.insert(m.name.as_str()) {
            return Err(bad(
                "name",
                format!("`{}` is not a unique name a spec can give", m.name),
            ));
        }
        for (key, x) in [
            ("win_rate", m.win_rate),
            ("win_rate_lo", m.win_rate_lo),
            ("held_out_win_rate", m.held_out_win_rate),
            ("accuracy_1", m.accuracy_1),
            ("accuracy_3", m.accuracy_3),
        ] {
            if !rate(x) {
                return Err(bad(key, format!("{x} is not a share in [0, 1]")));
            }
        }
        if m.named_as.len() != n
            || m.named_as.iter().map(|&x| u64::from(x)).sum::<u64>()
                != u64::from(file.settings.test_games)
        {
            return Err(bad(
                "named_as",
                format!(
                    "not {n} counts adding up to the {} held-out games of a member",
                    file.settings.test_games
                ),
            ));
        }
        let Some(row) = run.row(m.cell) else {
            return Err(bad(
                "cell",
                format!("cell {} has no elite in archive.csv{again}", m.cell),
            ));
        };
        if m.spec != run.agent_spec(row)? {
            return Err(bad(
                "spec",
                format!("not the spec of the elite of cell {}{again}", m.cell),
            ));
        }
    }
    Ok(Some(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_lines_find_the_key_or_the_header() {
        let text = "count = 2\n[settings]\nconfig = \"x\"\n[[member]]\nname = \"a\"\n\
                    cell = 1\n[[member]]\nname = \"b\"\n";
        assert_eq!(member_line(text, 0, "cell"), 6);
        assert_eq!(member_line(text, 1, "name"), 8);
        assert_eq!(member_line(text, 1, "cell"), 7);
        assert_eq!(member_line(text, 2, "cell"), 0);
        assert_eq!(top_line(text, "config"), 3);
    }
}

//! `playstyles tournament`: pairings of agents played over levels × repetitions with seats
//! rotated (spec §17), summarised as in the paper's Table I.
//!
//! A tournament config is a TOML file:
//!
//! ```toml
//! game = "tribes"
//! seed = 1
//! levels = "paper"          # or a list of level seeds and level files: [42, "maps/a.txt"]
//! repetitions = 20
//!
//! [rules]                   # the game's rules options (Tribes: compat, mode); optional
//! mode = "capitals"
//!
//! [[pairing]]
//! name = "pmcts-vs-mcts"
//! agents = ["pmcts(bias=true,pruning=true,budget=2000)", "mcts(budget=2000)"]
//! ```
//!
//! Every pairing plays the same series: game `i` is repetition `i % repetitions` of level
//! `i / repetitions`, with seed `derive_seed(seed, &[i])` (the same seeds in every pairing,
//! so pairings are compared on common random numbers), and participant `j` in seat
//! `(i + j) mod n` ([`crate::arena::series`]). The first agent of a pairing is the participant
//! the summary is about.
//!
//! The output folder (default `results/<config file stem>/`) receives, each written atomically:
//!
//! - `config.toml`: the resolved config (every default explicit, levels listed, agent specs
//!   in canonical form), written before the first game;
//! - `games.csv`: one row per game played ([`super::games_csv`]: pairing, game index, level,
//!   repetition, seed, seats, winner, ticks, and per participant the score, final statistics
//!   and actions), sorted by pairing (in config order), then game index;
//! - `summary.csv`: one row per pairing with at least one game, from its first participant's
//!   point of view, computed from the rows of `games.csv`: `pairing`, `agent`, `opponents`,
//!   `games`, `wins`, `draws`, `win_rate`, `win_rate_lo`, `win_rate_hi` (95 % Wilson interval;
//!   draws count as non-wins), `mean_score`, `techs_pct`, `cities`, `production`.
//!
//! Both CSV files are rewritten every [`SAVE_EVERY`] finished games and after each pairing, so
//! `games.csv` doubles as the checkpoint: a killed tournament loses at most the games running
//! and fewer than [`SAVE_EVERY`] finished ones. `--resume` continues the tournament in the
//! output folder if its `config.toml` is the resolved config of this run: the rows of
//! `games.csv` are checked against the series and only the missing games are played. Games
//! are determined by their index, so the files are byte-identical for any thread count, and a
//! tournament interrupted and resumed ends with the same files as an uninterrupted one.
//!
//! Existing result files are never overwritten without `--force` (which first removes them).

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::games_csv::{GameRow, num};
use super::run_dir::prepare_out_dir;
use super::tournament_rows::{GAMES_CSV, SUMMARY_CSV, TournamentRows};
use super::{GameKind, output_error};
use crate::agent::Agent;
use crate::agents::AgentSpec;
use crate::arena::series::Series;
use crate::arena::summary::PairingSummary;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::report::progress::Progress;
use crate::report::table::aligned;
use crate::report::write_atomic;

/// The resolved config in a tournament's output folder.
pub const CONFIG_TOML: &str = "config.toml";

/// The files a tournament writes into its output folder.
pub const RESULT_FILES: [&str; 3] = [CONFIG_TOML, GAMES_CSV, SUMMARY_CSV];

/// `games.csv` and `summary.csv` are rewritten after every this many finished games (and after
/// each pairing).
pub const SAVE_EVERY: usize = 10;

/// The word in `levels` that stands for the game's built-in experiment levels (the 25 levels of
/// the paper for Tribes).
pub const PAPER_LEVELS: &str = "paper";

/// A tournament config as written in TOML (the unvalidated form; see [`TournamentSpec`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentFile {
    /// The game (`tribes`).
    pub game: String,
    /// The game's rules options, read by the game's glue (Tribes: `TribesRules`).
    #[serde(default)]
    pub rules: toml::Table,
    /// The tournament seed.
    pub seed: u64,
    /// `"paper"`, or a list of level seeds and level files.
    pub levels: LevelsField,
    /// Games per level and pairing.
    pub repetitions: u32,
    /// The pairings, as `[[pairing]]` tables.
    #[serde(rename = "pairing")]
    pub pairings: Vec<PairingFile>,
}

/// The `levels` field: a word or a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelsField {
    /// A word naming a level set (only `"paper"`).
    Word(String),
    /// Level seeds and level files.
    List(Vec<LevelEntry>),
}

/// One entry of a `levels` list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelEntry {
    /// A level seed.
    Seed(u64),
    /// A level file (or a seed written as a string).
    File(String),
}

/// One `[[pairing]]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingFile {
    /// The pairing's name in reports.
    pub name: String,
    /// Agent specs, one per participant; the first is the one the summary is about.
    pub agents: Vec<String>,
}

/// Which levels a tournament plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSet {
    /// The game's built-in experiment levels.
    Paper,
    /// Level specs as the game's glue understands them (Tribes: a seed or a level file).
    List(Vec<String>),
}

/// One validated pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// Its name in reports (unique within the tournament).
    pub name: String,
    /// One agent per participant (at least two).
    pub agents: Vec<AgentSpec>,
}

impl Pairing {
    /// The agents' specs in canonical form.
    pub fn specs(&self) -> Vec<String> {
        self.agents.iter().map(ToString::to_string).collect()
    }
}

/// A validated tournament config.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSpec {
    /// The game.
    pub game: GameKind,
    /// The game's rules options, still to be read by the game's glue.
    pub rules: toml::Table,
    /// The tournament seed.
    pub seed: u64,
    /// The levels.
    pub levels: LevelSet,
    /// Games per level and pairing (at least 1).
    pub repetitions: u32,
    /// The pairings (at least one).
    pub pairings: Vec<Pairing>,
}

impl TournamentSpec {
    /// Parses and validates a tournament config.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field at fault (e.g. `repetitions`, `levels`,
    /// `pairing[1].agents`): a TOML syntax error (field `config`), an unknown or missing field,
    /// a value of the wrong type, an unknown game, a level word other than `"paper"`, no
    /// levels, zero repetitions, no pairings, an empty or repeated pairing name, a pairing with
    /// fewer than two agents, a malformed agent spec.
    pub fn parse(text: &str) -> Result<Self> {
        let file: TournamentFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        Self::validate(file)
    }

    /// Validates the TOML form; see [`TournamentSpec::parse`].
    ///
    /// # Errors
    ///
    /// As [`TournamentSpec::parse`], except for TOML errors.
    pub fn validate(file: TournamentFile) -> Result<Self> {
        let game: GameKind = file.game.parse()?;
        let levels = level_set(file.levels, "levels")?;
        if file.repetitions == 0 {
            return Err(Error::config("repetitions", "must be at least 1"));
        }
        if file.pairings.is_empty() {
            return Err(Error::config(
                "pairing",
                "give at least one [[pairing]] table",
            ));
        }
        let mut pairings: Vec<Pairing> = Vec::with_capacity(file.pairings.len());
        for (i, p) in file.pairings.into_iter().enumerate() {
            let name = p.name.trim().to_string();
            if name.is_empty() {
                return Err(Error::config(
                    format!("pairing[{i}].name"),
                    "must not be empty",
                ));
            }
            if pairings.iter().any(|q| q.name == name) {
                return Err(Error::config(
                    format!("pairing[{i}].name"),
                    format!("the name `{name}` is used by another pairing"),
                ));
            }
            let field = format!("pairing[{i}].agents");
            if p.agents.len() < 2 {
                return Err(Error::config(
                    field,
                    format!(
                        "a pairing needs at least two agents (got {}); the first is the one the summary is about",
                        p.agents.len()
                    ),
                ));
            }
            let agents = p
                .agents
                .iter()
                .map(|s| AgentSpec::parse(s).map_err(|e| within(&field, e)))
                .collect::<Result<_>>()?;
            pairings.push(Pairing { name, agents });
        }
        Ok(TournamentSpec {
            game,
            rules: file.rules,
            seed: file.seed,
            levels,
            repetitions: file.repetitions,
            pairings,
        })
    }

    /// The resolved config as TOML: `rules` as the glue read them (every default explicit),
    /// `levels` listed, agent specs in canonical form. It parses back to an equal spec (with
    /// `levels` listed).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `rules` if they cannot be written as TOML.
    pub fn resolved_toml(&self, rules: toml::Table, levels: &[String]) -> Result<String> {
        let file = TournamentFile {
            game: self.game.name().to_string(),
            rules,
            seed: self.seed,
            levels: LevelsField::List(
                levels
                    .iter()
                    .map(|l| match l.parse::<u64>() {
                        Ok(s) => LevelEntry::Seed(s),
                        Err(_) => LevelEntry::File(l.clone()),
                    })
                    .collect(),
            ),
            repetitions: self.repetitions,
            pairings: self
                .pairings
                .iter()
                .map(|p| PairingFile {
                    name: p.name.clone(),
                    agents: p.specs(),
                })
                .collect(),
        };
        toml::to_string(&file).map_err(|e| Error::config("rules", e.to_string()))
    }
}

/// Reads a game's rules options from the `[rules]` table of a config.
///
/// # Errors
///
/// [`Error::Config`] naming the field at fault under `rules` (e.g. `rules.mode`).
pub fn read_rules<R: serde::de::DeserializeOwned>(rules: &toml::Table) -> Result<R> {
    let text = toml::to_string(rules).map_err(|e| Error::config("rules", e.to_string()))?;
    toml::from_str(&text).map_err(|e| match toml_error(&text, &e) {
        Error::Config { field, reason } => {
            let field = if field == "config" {
                "rules".to_string()
            } else {
                format!("rules.{field}")
            };
            // The line number refers to the re-written table, not the config file.
            let reason = reason
                .rsplit_once(" (line ")
                .map_or(reason.clone(), |(r, _)| r.to_string());
            Error::config(field, reason)
        }
        e => e,
    })
}

/// Validated settings of `playstyles tournament`.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentConfig {
    /// The tournament itself.
    pub spec: TournamentSpec,
    /// The output folder.
    pub out: PathBuf,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Remove existing result files first.
    pub force: bool,
    /// Continue the tournament whose results are in `out` (see [`tournament`]).
    pub resume: bool,
    /// Stop once this many games have been played by this call (a hidden test hook
    /// simulating a killed run).
    pub stop_after_games: Option<u64>,
}

impl TournamentConfig {
    /// Reads the config file at `path` and validates it, with the output folder `out` or by
    /// default `results/<file stem>/`, the progress bar shown, nothing overwritten or resumed.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read; as [`TournamentSpec::parse`]; [`Error::Config`]
    /// naming `out` if no default folder can be made from the file name.
    pub fn load(path: &Path, out: Option<PathBuf>) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let spec = TournamentSpec::parse(&text).map_err(|e| match e {
            Error::Config { field, reason } => Error::Config {
                field,
                reason: format!("{reason} (in {})", path.display()),
            },
            e => e,
        })?;
        let out = match out {
            Some(dir) => dir,
            None => {
                let stem = path.file_stem().filter(|s| !s.is_empty()).ok_or_else(|| {
                    Error::config(
                        "out",
                        "cannot name the output folder after the config file; give --out",
                    )
                })?;
                Path::new("results").join(stem)
            }
        };
        Ok(TournamentConfig {
            spec,
            out,
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_games: None,
        })
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `threads` if `threads` is 0.
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        if threads == Some(0) {
            return Err(Error::config("threads", "must be at least 1"));
        }
        self.threads = threads;
        Ok(self)
    }
}

/// One pairing's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    /// The pairing's name.
    pub name: String,
    /// Its agents' specs in canonical form.
    pub agents: Vec<String>,
    /// The summary from the first agent's point of view.
    pub summary: PairingSummary,
}

/// What a tournament needs from its game beyond the [`Game`] API.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TournamentScales {
    /// Number of technologies the `techs` statistic counts out of (Tribes: 24), for the
    /// `techs_pct` column; `None` leaves it empty.
    pub techs_total: Option<f64>,
}

/// Plays the tournament `cfg` describes on `levels` (named for the reports) and writes its
/// result files and printed summary; with `cfg.resume`, plays only the games missing from the
/// output folder's `games.csv`.
///
/// `build` makes an agent from a spec string (for every game afresh); `config_toml` is the
/// resolved config written as `config.toml` ([`TournamentSpec::resolved_toml`]). Everything is
/// checked (agent specs, player counts, the output folder, the rows to resume from) before the
/// first game. Games run on a local rayon pool of `cfg.threads` threads; the files are
/// identical for any thread count, and for a resumed tournament and an uninterrupted one.
/// Returns the summary of every pairing with at least one game.
///
/// # Errors
///
/// [`Error::Config`] naming
/// - `pairing[i].agents` for an agent that cannot be built or a level with a different number
///   of players;
/// - `out` if result files exist and neither `cfg.force` nor `cfg.resume` is set;
/// - `resume` if the output folder holds no `config.toml` to resume, if its `config.toml`
///   differs from `config_toml`, or if `cfg.force` is set too;
/// - `threads` if the pool cannot be built.
///
/// [`Error::Io`] naming `games.csv`, the line and the column for a row to resume from that
/// does not parse or does not belong to the tournament ([`TournamentRows::read`]), and naming
/// any file that cannot be read or written.
pub fn tournament<G, B>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    build: B,
    cfg: &TournamentConfig,
    config_toml: &str,
    scales: TournamentScales,
    out: &mut impl Write,
) -> Result<Vec<PairingResult>>
where
    G: Game,
    B: Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
{
    let spec = &cfg.spec;
    let series = Series::new(levels, spec.repetitions, spec.seed);
    let specs: Vec<Vec<String>> = spec.pairings.iter().map(Pairing::specs).collect();
    for (i, s) in specs.iter().enumerate() {
        series
            .check(game, s, &build)
            .map_err(|e| within(&format!("pairing[{i}].agents"), e))?;
    }
    let rows = if cfg.resume {
        if cfg.force {
            return Err(Error::config(
                "resume",
                "resume and force exclude each other",
            ));
        }
        resume_rows(&cfg.out, config_toml, &spec.pairings, &series)?
    } else {
        prepare_out_dir(&cfg.out, "out", &RESULT_FILES, cfg.force, true)?;
        TournamentRows::new(&spec.pairings, series.len())
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::config("threads", e.to_string()))?;
    if !cfg.resume {
        write_atomic(&cfg.out.join(CONFIG_TOML), config_toml.as_bytes())?;
    }

    let stat_names = game.info().stats;
    let techs = scales.techs_total;
    let progress = Progress::new(rows.total() as u64, !cfg.quiet);
    progress.set_position(rows.done() as u64);
    // The rows and the games finished since they were last written; the files are written
    // under the lock, so never by two workers at once.
    let saving = Mutex::new((rows, 0usize));
    let mut budget = cfg.stop_after_games.unwrap_or(u64::MAX);
    for (p, (pairing, agents)) in spec.pairings.iter().zip(&specs).enumerate() {
        let mut todo = lock(&saving).0.missing(p);
        todo.truncate(usize::try_from(budget).unwrap_or(usize::MAX));
        budget -= todo.len() as u64;
        if !todo.is_empty() {
            pool.install(|| {
                series.run_each(game, agents, &build, &todo, |g| {
                    let row = GameRow::of(&pairing.name, &g, stat_names);
                    let mut guard = lock(&saving);
                    let (rows, unsaved) = &mut *guard;
                    rows.insert(p, row);
                    progress.inc();
                    *unsaved += 1;
                    if *unsaved >= SAVE_EVERY {
                        rows.write(&cfg.out, techs)?;
                        *unsaved = 0;
                    }
                    Ok(())
                })
            })?;
        }
        let mut guard = lock(&saving);
        guard.0.write(&cfg.out, techs)?;
        guard.1 = 0;
    }
    progress.finish();
    let (rows, _) = saving.into_inner().unwrap_or_else(PoisonError::into_inner);
    let results = rows.results(techs);
    write!(out, "{}", summary_table(&results)).map_err(output_error)?;
    if rows.done() < rows.total() {
        writeln!(
            out,
            "stopped with {} of {} games played; continue with --resume",
            rows.done(),
            rows.total()
        )
        .map_err(output_error)?;
    }
    Ok(results)
}

/// The rows a resumed tournament starts from: those of `games.csv` in `dir` (none if it is
/// missing), provided `dir` holds a `config.toml` equal to `config_toml`.
fn resume_rows<G: Game>(
    dir: &Path,
    config_toml: &str,
    pairings: &[Pairing],
    series: &Series<G>,
) -> Result<TournamentRows> {
    let config_path = dir.join(CONFIG_TOML);
    if !config_path.is_file() {
        return Err(Error::config(
            "resume",
            format!(
                "nothing to resume: {} holds no {CONFIG_TOML} (run without --resume to start \
                 the tournament)",
                dir.display()
            ),
        ));
    }
    let on_disk = std::fs::read_to_string(&config_path).map_err(|e| Error::io(&config_path, e))?;
    if on_disk != config_toml {
        return Err(Error::config(
            "resume",
            format!(
                "the config differs from the one that started the results in {} (see its \
                 {CONFIG_TOML}); resume with that config, or start afresh with --force",
                dir.display()
            ),
        ));
    }
    let games = dir.join(GAMES_CSV);
    if games.exists() {
        TournamentRows::read(&games, pairings, series)
    } else {
        Ok(TournamentRows::new(pairings, series.len()))
    }
}

/// Locks `m`, also after a worker panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The columns of `summary.csv`.
pub fn summary_header() -> Vec<String> {
    [
        "pairing",
        "agent",
        "opponents",
        "games",
        "wins",
        "draws",
        "win_rate",
        "win_rate_lo",
        "win_rate_hi",
        "mean_score",
        "techs_pct",
        "cities",
        "production",
    ]
    .map(String::from)
    .to_vec()
}

/// One row of `summary.csv` (see [`summary_header`]): `agents[0]` is the agent, the others are
/// joined with `;` as its opponents.
pub fn summary_row(pairing: &str, agents: &[String], s: &PairingSummary) -> Vec<String> {
    let opt = |x: Option<f64>| x.map_or_else(String::new, num);
    vec![
        pairing.to_string(),
        agents.first().cloned().unwrap_or_default(),
        agents.get(1..).unwrap_or_default().join(";"),
        s.games.to_string(),
        s.wins.to_string(),
        s.draws.to_string(),
        num(s.win_rate),
        num(s.win_rate_lo),
        num(s.win_rate_hi),
        opt(s.mean_score),
        opt(s.techs_pct),
        opt(s.cities),
        opt(s.production),
    ]
}

/// The printed summary: one aligned row per pairing.
pub fn summary_table(results: &[PairingResult]) -> String {
    let header: Vec<String> = [
        "pairing", "games", "wins", "draws", "win %", "95% CI", "score", "techs %", "cities",
        "prod",
    ]
    .map(String::from)
    .to_vec();
    let fixed =
        |x: Option<f64>, d: usize| x.map_or_else(|| "-".to_string(), |x| format!("{x:.d$}"));
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            let s = &r.summary;
            vec![
                r.name.clone(),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                format!("{:.1}", 100.0 * s.win_rate),
                format!("{:.1}-{:.1}", 100.0 * s.win_rate_lo, 100.0 * s.win_rate_hi),
                fixed(s.mean_score, 1),
                fixed(s.techs_pct, 1),
                fixed(s.cities, 2),
                fixed(s.production, 2),
            ]
        })
        .collect();
    aligned(&header, &rows)
}

/// Reports an error about a part of `field` (an agent spec inside `pairing[i].agents`) under
/// `field`, keeping the inner field's name in the reason.
fn within(field: &str, e: Error) -> Error {
    match e {
        Error::Config {
            field: inner,
            reason,
        } if inner == "agents" => Error::config(field, reason),
        Error::Config {
            field: inner,
            reason,
        } => Error::config(field, format!("`{inner}`: {reason}")),
        e => e,
    }
}

/// Turns a TOML error into [`Error::Config`] naming the field at fault: the key path at the
/// error's position (e.g. `pairing[1].agents`), plus the missing field's name for "missing
/// field" errors; `config` for syntax errors outside any field.
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> Error {
    let message = e.message().trim().to_string();
    let mut path = e
        .span()
        .and_then(|span| field_at(text, &span))
        .unwrap_or_default();
    if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next())
    {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(missing);
    }
    if path.is_empty() {
        path = "config".into();
    }
    let reason = match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("{message} (line {line})")
        }
        None => message,
    };
    Error::config(path, reason)
}

/// The key path (`pairing[1].agents`) of the innermost key or value of `text` whose span holds
/// `span`; `None` if `text` does not parse or `span` is outside every field.
///
/// Children are searched before their parents, and every child is searched whatever its
/// parent's span: the span of a `[[table]]` item covers only its header line.
fn field_at(text: &str, span: &Range<usize>) -> Option<String> {
    use toml::de::{DeTable, DeValue};

    fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
        outer.start <= inner.start && inner.end <= outer.end && outer.start < outer.end
    }

    fn in_value(value: &DeValue<'_>, span: &Range<usize>, path: &str) -> Option<String> {
        match value {
            DeValue::Table(t) => in_table(t, span, path),
            DeValue::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                let path = format!("{path}[{i}]");
                in_value(item.get_ref(), span, &path)
                    .or_else(|| holds(&item.span(), span).then_some(path))
            }),
            _ => None,
        }
    }

    fn in_table(table: &DeTable<'_>, span: &Range<usize>, path: &str) -> Option<String> {
        table.iter().find_map(|(key, value)| {
            let path = if path.is_empty() {
                key.get_ref().to_string()
            } else {
                format!("{path}.{}", key.get_ref())
            };
            in_value(value.get_ref(), span, &path).or_else(|| {
                (holds(&key.span(), span) || holds(&value.span(), span)).then_some(path)
            })
        })
    }

    let table = DeTable::parse(text).ok()?;
    in_table(table.get_ref(), span, "")
}

/// A validated level set from a `levels` field: `"paper"` or a non-empty list of level seeds
/// and files; errors name `field` (or `field[i]`).
///
/// # Errors
///
/// [`Error::Config`] for an unknown word, an empty list or an empty entry.
pub fn level_set(levels: LevelsField, field: &str) -> Result<LevelSet> {
    Ok(match levels {
        LevelsField::Word(w) if w == PAPER_LEVELS => LevelSet::Paper,
        LevelsField::Word(w) => {
            return Err(Error::config(
                field,
                format!(
                    "unknown level set `{w}` (give \"paper\" or a list of level seeds and files)"
                ),
            ));
        }
        LevelsField::List(entries) if entries.is_empty() => {
            return Err(Error::config(field, "give at least one level"));
        }
        LevelsField::List(entries) => LevelSet::List(
            entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| match e {
                    LevelEntry::Seed(s) => Ok(s.to_string()),
                    LevelEntry::File(f) if f.trim().is_empty() => Err(Error::config(
                        format!("{field}[{i}]"),
                        "an empty level (give a level seed or a level file)",
                    )),
                    LevelEntry::File(f) => Ok(f.trim().to_string()),
                })
                .collect::<Result<_>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
game = "tribes"
seed = 3
levels = [1, "maps/a.txt"]
repetitions = 2

[rules]
mode = "capitals"

[[pairing]]
name = "a"
agents = ["random", "end_turn"]

[[pairing]]
name = "b"
agents = ["end_turn", "random"]
"#;

    fn field_of(text: &str) -> String {
        match TournamentSpec::parse(text) {
            Err(Error::Config { field, .. }) => field,
            other => panic!("not a config error: {other:?}"),
        }
    }

    #[test]
    fn a_good_config_parses() {
        let spec = TournamentSpec::parse(GOOD).unwrap();
        assert_eq!(spec.game, GameKind::Tribes);
        assert_eq!(spec.seed, 3);
        assert_eq!(
            spec.levels,
            LevelSet::List(vec!["1".into(), "maps/a.txt".into()])
        );
        assert_eq!(spec.pairings.len(), 2);
        assert_eq!(spec.pairings[1].specs(), ["end_turn", "random"]);
        assert_eq!(
            spec.rules.get("mode").and_then(|v| v.as_str()),
            Some("capitals")
        );
    }

    #[test]
    fn the_resolved_config_parses_back() {
        let spec = TournamentSpec::parse(GOOD).unwrap();
        let text = spec
            .resolved_toml(spec.rules.clone(), &["1".into(), "maps/a.txt".into()])
            .unwrap();
        assert_eq!(TournamentSpec::parse(&text).unwrap(), spec);
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!(
            field_of(&GOOD.replace("seed = 3", "seed = 3\nsed = 4")),
            "sed"
        );
        assert_eq!(
            field_of(&GOOD.replace("repetitions = 2", "repetitions = \"x\"")),
            "repetitions"
        );
        assert_eq!(field_of(&GOOD.replace("seed = 3\n", "")), "seed");
        assert_eq!(
            field_of(&GOOD.replace("name = \"b\"", "name = \"b\"\nagent = 1")),
            "pairing[1].agent"
        );
        assert_eq!(
            field_of(&GOOD.replace("name = \"b\"\n", "")),
            "pairing[1].name"
        );
        assert_eq!(
            field_of(&GOOD.replace("game = \"tribes\"", "game = \"chess\"")),
            "game"
        );
        assert_eq!(
            field_of(&GOOD.replace("agents = [\"random\", \"end_turn\"]", "")),
            "pairing[0].agents"
        );
        assert_eq!(
            field_of(&GOOD.replace("levels = [1, ", "levels = [true, ")),
            "levels"
        );
        assert_eq!(field_of("game = \n"), "config");
    }
}

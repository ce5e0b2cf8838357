//! The ladder config file (format in [`super`]): its TOML form, the expansion of its `[[elites]]`
//! and `tiers` sources into agents, and its validated form.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::agent::{AgentSpec, Value};
use crate::error::{Error, Result};
use crate::experiments::GameKind;
use crate::experiments::agent_files::usable_anywhere;
use crate::experiments::config_file::{LevelSet, LevelsField, level_set, plain_name, toml_error};
use crate::experiments::run_dir::RunDir;
use crate::experiments::tournament_spec::within;
use crate::files::{TEXT_LIMIT, read_text};
use crate::limits;
use crate::report::printable::printable;

/// Half-width (Elo) of every adjacent difference's 95 % interval at which a ladder stops, when
/// a config gives none.
pub const DEFAULT_TARGET: f64 = 50.0;
/// Most games a ladder plays, when a config gives none.
pub const DEFAULT_MAX_GAMES: u64 = 5_000;
/// Games of every pair in the opening round robin, and of a pair each time the schedule picks
/// it, when a config gives none: one game in each seat order.
pub const DEFAULT_BATCH: u32 = 2;
/// BayesElo's virtual draws between every pair that met, when a config gives none.
pub const DEFAULT_PRIOR_DRAWS: f64 = 1.0;
/// Most agents a ladder rates (its opening round robin grows with their square).
pub const MAX_AGENTS: usize = 200;
/// Most games of a pair per round.
pub const MAX_BATCH: u32 = 1_000;

/// How a ladder picks its games after the opening round robin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// The pairs adjacent in rating whose difference is wider than the target
    /// ([`crate::ladder::schedule::next_games`]).
    #[default]
    Adaptive,
    /// Every pair, round after round, until every adjacent difference is within the target:
    /// the cost the adaptive schedule is measured against.
    RoundRobin,
}

/// A ladder config as written in TOML. `levels` is required, and at least two agents from
/// `[[agent]]` tables, `[[elites]]` and `tiers` together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderFile {
    /// The game (default: the first registered game).
    #[serde(default = "default_game")]
    pub game: String,
    /// The game's rules options (default: the game's).
    #[serde(default)]
    pub rules: toml::Table,
    /// The ladder seed (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `"paper"`/`"builtin"`, or a list of level seeds and level files.
    pub levels: LevelsField,
    /// The agent whose rating is 0 (default: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    /// Stop once every adjacent difference's 95 % interval is within ± this many Elo.
    #[serde(default = "default_target")]
    pub target: f64,
    /// An adjacent difference whose 95 % interval lies wholly above this many Elo is decided
    /// without reaching the target (none by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisive: Option<f64>,
    /// Most games in all.
    #[serde(default = "default_max_games")]
    pub max_games: u64,
    /// `"adaptive"` or `"round-robin"`.
    #[serde(default)]
    pub schedule: Schedule,
    /// Games of every pair in the opening round robin.
    #[serde(default = "default_batch")]
    pub start: u32,
    /// Games of a pair each time the schedule picks it.
    #[serde(default = "default_batch")]
    pub batch: u32,
    /// Virtual draws between every pair that met.
    #[serde(default = "default_prior_draws")]
    pub prior_draws: f64,
    /// Games per training level of each elite agent's style check against its run's
    /// baseline (0: no check; [`super::style`]).
    #[serde(default)]
    pub style_repetitions: u32,
    /// Elites of runs (and strength dials over them), as `[[elites]]` tables.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elites: Vec<ElitesFile>,
    /// A `tiers.toml` whose tiers join the ladder, each knowing its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiers: Option<String>,
    /// Agents, as `[[agent]]` tables.
    #[serde(default, rename = "agent", skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentEntry>,
}

fn default_game() -> String {
    GameKind::default().name().into()
}
fn default_seed() -> u64 {
    crate::experiments::tournament_spec::DEFAULT_SEED
}
fn default_target() -> f64 {
    DEFAULT_TARGET
}
fn default_max_games() -> u64 {
    DEFAULT_MAX_GAMES
}
fn default_batch() -> u32 {
    DEFAULT_BATCH
}
fn default_prior_draws() -> f64 {
    DEFAULT_PRIOR_DRAWS
}

/// One `[[agent]]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentEntry {
    /// The agent's name in the ladder (unique).
    pub name: String,
    /// Its agent spec.
    pub spec: String,
    /// The run directory it is an elite of (filled in for `[[elites]]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Its cell in that run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<usize>,
    /// Its place in an expected order, 1 the weakest (filled in for `tiers`): the ladder
    /// reports how far its ratings keep that order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<u32>,
    /// The dial setting it was made with (`budget=500`), for an elite at several strengths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dial: Option<String>,
}

/// One `[[elites]]` table: elites of a run, each the run's player with its weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElitesFile {
    /// The run directory.
    pub run: String,
    /// The cells (default: every elite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<usize>>,
    /// A strength dial: every elite at each value of one field of its spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dial: Option<DialFile>,
}

/// An `[[elites]]` table's `dial`: one field of the player spec and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DialFile {
    /// The field (`budget`).
    pub field: String,
    /// Its values (numbers), at least one.
    pub values: Vec<toml::Value>,
}

/// One agent of a validated ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderAgent {
    /// Its name.
    pub name: String,
    /// Its spec.
    pub spec: AgentSpec,
    /// The run and cell it is an elite of.
    pub elite: Option<(String, usize)>,
    /// Its place in an expected order (1 the weakest).
    pub tier: Option<u32>,
    /// Its dial setting.
    pub dial: Option<String>,
}

/// A validated ladder config.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderSpec {
    /// The game.
    pub game: GameKind,
    /// Its rules options, still to be read as the game's.
    pub rules: toml::Table,
    /// The seed.
    pub seed: u64,
    /// The levels.
    pub levels: LevelSet,
    /// Index of the anchor agent.
    pub anchor: usize,
    /// Target half-width (Elo) of adjacent differences.
    pub target: f64,
    /// Least Elo above which an adjacent difference's whole interval counts as decided.
    pub decisive: Option<f64>,
    /// Most games.
    pub max_games: u64,
    /// The schedule.
    pub schedule: Schedule,
    /// Opening games per pair.
    pub start: u32,
    /// Games per picked pair.
    pub batch: u32,
    /// Virtual draws per pair that met.
    pub prior_draws: f64,
    /// Games per training level of the elites' style check (0: none).
    pub style_repetitions: u32,
    /// The agents (at least two).
    pub agents: Vec<LadderAgent>,
}

impl LadderFile {
    /// Parses a config's text.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field for a TOML error, an unknown field or a wrong type.
    pub fn parse(text: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| toml_error(text, &e))
    }

    /// The config with `[[elites]]` and `tiers` turned into `[[agent]]` tables (elites first,
    /// then tiers, then the config's own agents), their specs naming files by paths usable
    /// from any working folder.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `elites[i].run` for a run that does not load or is of another
    /// game, `elites[i].cells[j]` for a cell without an elite, `elites[i].dial.field` or
    /// `elites[i].dial.values` for a bad dial, `tiers` for a file that does not read.
    pub fn expand(mut self) -> Result<Self> {
        let mut agents = Vec::new();
        for (i, e) in std::mem::take(&mut self.elites).iter().enumerate() {
            agents.extend(elite_agents(e, &self.game).map_err(|err| match err {
                Error::Config { field, reason } => {
                    Error::config(field.replacen("elites", &format!("elites[{i}]"), 1), reason)
                }
                err => err,
            })?);
        }
        if let Some(path) = self.tiers.take() {
            agents.extend(tier_agents(&path)?);
        }
        agents.append(&mut self.agents);
        self.agents = agents;
        Ok(self)
    }
}

/// The agents of `[[elites]]`.
fn elite_agents(e: &ElitesFile, game: &str) -> Result<Vec<AgentEntry>> {
    let dir = Path::new(&e.run);
    let run = RunDir::load(dir).map_err(|err| Error::config("elites.run", err.to_string()))?;
    if run.config.game.name() != game {
        return Err(Error::config(
            "elites.run",
            format!(
                "{} is a run of {}, not of {game}",
                e.run,
                run.config.game.name()
            ),
        ));
    }
    let cells: Vec<usize> = match &e.cells {
        None => run.archive.rows.iter().map(|r| r.cell).collect(),
        Some(cells) => cells.clone(),
    };
    let dial: Vec<(String, Value)> = match &e.dial {
        None => Vec::new(),
        Some(d) => {
            let field = d.field.trim();
            if !is_field_name(field) {
                return Err(Error::config(
                    "elites.dial.field",
                    format!("`{}` is not a spec field name", printable(field)),
                ));
            }
            if d.values.is_empty() {
                return Err(Error::config(
                    "elites.dial.values",
                    "give at least one value",
                ));
            }
            d.values
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    toml::Value::Integer(x) => Ok((field.to_string(), Value::Int(i128::from(*x)))),
                    toml::Value::Float(x) if x.is_finite() => {
                        Ok((field.to_string(), Value::Float(*x)))
                    }
                    v => Err(Error::config(
                        format!("elites.dial.values[{i}]"),
                        format!("`{v}` is not a finite number"),
                    )),
                })
                .collect::<Result<_>>()?
        }
    };
    let mut agents = Vec::new();
    for (i, &cell) in cells.iter().enumerate() {
        let row = run.row(cell).ok_or_else(|| {
            Error::config(
                format!("elites.cells[{i}]"),
                format!("cell {cell} has no elite in {}", e.run),
            )
        })?;
        let spec = usable_anywhere(&run.agent_spec(row)?, dir)?;
        let settings: Vec<Option<&(String, Value)>> = if dial.is_empty() {
            vec![None]
        } else {
            dial.iter().map(Some).collect()
        };
        for setting in settings {
            let (name, spec, dial) = match setting {
                None => (format!("cell-{cell}"), spec.clone(), None),
                Some((field, value)) => {
                    let mut parsed = AgentSpec::parse(&spec)?;
                    parsed.set(field, value.clone());
                    let text = format!("{parsed:#}");
                    (
                        format!("cell-{cell}@{field}={value}"),
                        text,
                        Some(format!("{field}={value}")),
                    )
                }
            };
            agents.push(AgentEntry {
                name,
                spec,
                run: Some(e.run.clone()),
                cell: Some(cell),
                tier: None,
                dial,
            });
        }
    }
    Ok(agents)
}

/// A `tiers.toml` as far as a ladder reads it.
#[derive(Deserialize)]
struct TiersRead {
    tier: Vec<TierRead>,
}

#[derive(Deserialize)]
struct TierRead {
    name: String,
    agent: String,
    #[serde(default)]
    cell: Option<usize>,
    #[serde(default)]
    run: Option<String>,
}

/// The agents of a `tiers.toml`, weakest first, each with its place.
fn tier_agents(path: &str) -> Result<Vec<AgentEntry>> {
    let text = read_text(Path::new(path), TEXT_LIMIT)
        .map_err(|e| Error::config("tiers", e.to_string()))?;
    let file: TiersRead = toml::from_str(&text)
        .map_err(|e| Error::config("tiers", format!("{path}: {}", e.message())))?;
    Ok(file
        .tier
        .into_iter()
        .enumerate()
        .map(|(i, t)| AgentEntry {
            name: t.name,
            spec: t.agent,
            run: t.run,
            cell: t.cell,
            tier: Some(i as u32 + 1),
            dial: None,
        })
        .collect())
}

/// True for a spec field name: a letter, then letters, digits and `_`.
fn is_field_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The game counts of a ladder of `agents` bounded before anything is played: the opening
/// round robin (pairs × `start`) by [`limits::games`], `max_games` enough for it to reach
/// every agent (else their ratings cannot be fitted), and the style check's elite agents ×
/// `style_repetitions` (each at one training level at least; [`super::style`] bounds the
/// games with each run's levels before the ladder plays).
fn check_games(
    agents: &[LadderAgent],
    start: u32,
    max_games: u64,
    style_repetitions: u32,
) -> Result<()> {
    let n = agents.len() as u64;
    let pairs = n * (n - 1) / 2;
    let start = u64::from(start);
    let opening = limits::games(
        &[(pairs, "pairs of agents"), (start, "games a pair (start)")],
        "start",
    )?;
    // The opening round robin's first n − 1 pairs are the first agent's with each other one:
    // its last agent plays its first game after (n − 2) × start games.
    let reach = (n - 2) * start + 1;
    if max_games < reach {
        return Err(Error::config(
            "max_games",
            format!(
                "{} games end the opening round robin ({pairs} pairs × {start} games = \
                 {opening}) before `{}` has played: its rating could not be fitted; give at \
                 least {reach} games ({opening} for the whole round robin)",
                max_games,
                agents[agents.len() - 1].name
            ),
        ));
    }
    let elites = agents.iter().filter(|a| a.elite.is_some()).count() as u64;
    if style_repetitions > 0 && elites > 0 {
        limits::games(
            &[
                (elites, "elite agents"),
                (u64::from(style_repetitions), "style_repetitions"),
            ],
            "style_repetitions",
        )?;
    }
    Ok(())
}

impl LadderSpec {
    /// Validates an expanded config ([`LadderFile::expand`]).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field at fault: `game`, `levels`, `target` and `decisive` (not a
    /// positive number), `max_games` (0 or above [`limits::MAX_GAMES`], or too few for the
    /// opening round robin to reach every agent: `(agents − 2) × start + 1`, its first pairs
    /// being the first agent's), `start` (the opening round robin's pairs × `start` above
    /// [`limits::MAX_GAMES`]), `start`/`batch` (0 or above [`MAX_BATCH`]), `prior_draws`
    /// (negative or not finite), `style_repetitions` (the elite agents × `style_repetitions`
    /// above [`limits::MAX_GAMES`], each playing one training level at least), `agent` (fewer
    /// than two agents, or more than [`MAX_AGENTS`]), `agent[i].name` (empty, repeated, a
    /// control character), `agent[i].spec` (malformed), `anchor` (no such agent).
    pub fn validate(file: LadderFile) -> Result<Self> {
        let game: GameKind = file.game.parse()?;
        let levels = level_set(file.levels, "levels")?;
        if !(file.target.is_finite() && file.target > 0.0) {
            return Err(Error::config(
                "target",
                format!("give a positive number of Elo, got {}", file.target),
            ));
        }
        if let Some(d) = file.decisive
            && !(d.is_finite() && d > 0.0)
        {
            return Err(Error::config(
                "decisive",
                format!("give a positive number of Elo, got {d}"),
            ));
        }
        if file.max_games == 0 {
            return Err(Error::config("max_games", "must be at least 1"));
        }
        limits::at_most(file.max_games, limits::MAX_GAMES, "max_games")?;
        for (v, field) in [(file.start, "start"), (file.batch, "batch")] {
            if v == 0 {
                return Err(Error::config(field, "must be at least 1"));
            }
            limits::at_most(u64::from(v), u64::from(MAX_BATCH), field)?;
        }
        if !(file.prior_draws.is_finite() && file.prior_draws >= 0.0) {
            return Err(Error::config(
                "prior_draws",
                format!("give a number of at least 0, got {}", file.prior_draws),
            ));
        }
        limits::at_most(
            u64::from(file.style_repetitions),
            limits::MAX_REPETITIONS,
            "style_repetitions",
        )?;
        if file.agents.len() < 2 {
            return Err(Error::config(
                "agent",
                format!(
                    "a ladder rates at least two agents (got {}): add [[agent]] tables, [[elites]] or tiers",
                    file.agents.len()
                ),
            ));
        }
        limits::at_most(file.agents.len() as u64, MAX_AGENTS as u64, "agent")?;
        let mut agents: Vec<LadderAgent> = Vec::with_capacity(file.agents.len());
        for (i, a) in file.agents.into_iter().enumerate() {
            let name = plain_name(
                &a.name,
                &format!("agent[{i}].name"),
                "agent",
                agents.iter().any(|b| b.name == a.name.trim()),
            )?;
            let field = format!("agent[{i}].spec");
            let spec = AgentSpec::parse(&a.spec).map_err(|e| within(&field, e))?;
            let elite = match (a.run, a.cell) {
                (Some(run), Some(cell)) => Some((run, cell)),
                (None, None) => None,
                _ => {
                    return Err(Error::config(
                        format!("agent[{i}].cell"),
                        "give both `run` and `cell`, or neither",
                    ));
                }
            };
            agents.push(LadderAgent {
                name,
                spec,
                elite,
                tier: a.tier,
                dial: a.dial,
            });
        }
        check_games(&agents, file.start, file.max_games, file.style_repetitions)?;
        let anchor = match &file.anchor {
            None => 0,
            Some(name) => agents
                .iter()
                .position(|a| a.name == name.trim())
                .ok_or_else(|| {
                    Error::config(
                        "anchor",
                        format!(
                            "no agent is named `{}` (the agents: {})",
                            printable(name),
                            agents
                                .iter()
                                .map(|a| a.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                })?,
        };
        Ok(LadderSpec {
            game,
            rules: file.rules,
            seed: file.seed,
            levels,
            anchor,
            target: file.target,
            decisive: file.decisive,
            max_games: file.max_games,
            schedule: file.schedule,
            start: file.start,
            batch: file.batch,
            prior_draws: file.prior_draws,
            style_repetitions: file.style_repetitions,
            agents,
        })
    }

    /// The agents' specs in canonical form (the alternate form, weights with a point).
    pub fn specs(&self) -> Vec<String> {
        self.agents
            .iter()
            .map(|a| format!("{:#}", a.spec))
            .collect()
    }

    /// The resolved config as TOML: rules as the game read them, levels listed, every agent
    /// an `[[agent]]` table with its spec in canonical form. It parses and validates back to
    /// an equal spec.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `rules` if they cannot be written as TOML.
    pub fn resolved_toml(&self, rules: toml::Table, levels: &[String]) -> Result<String> {
        let file = LadderFile {
            game: self.game.name().to_string(),
            rules,
            seed: self.seed,
            levels: LevelsField::listed(levels),
            anchor: Some(self.agents[self.anchor].name.clone()),
            target: self.target,
            decisive: self.decisive,
            max_games: self.max_games,
            schedule: self.schedule,
            start: self.start,
            batch: self.batch,
            prior_draws: self.prior_draws,
            style_repetitions: self.style_repetitions,
            elites: Vec::new(),
            tiers: None,
            agents: self
                .agents
                .iter()
                .map(|a| AgentEntry {
                    name: a.name.clone(),
                    spec: format!("{:#}", a.spec),
                    run: a.elite.as_ref().map(|e| e.0.clone()),
                    cell: a.elite.as_ref().map(|e| e.1),
                    tier: a.tier,
                    dial: a.dial.clone(),
                })
                .collect(),
        };
        toml::to_string(&file).map_err(|e| Error::config("rules", e.to_string()))
    }
}

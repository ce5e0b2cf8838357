//! The configuration of a MAP-Elites run (`playstyles evolve CONFIG.toml`): parsed from TOML,
//! validated with errors naming the field, and written back resolved into the run directory
//! (`config.toml`, every value explicit), where `validate`, `tiers`, `report` and `--resume`
//! read it.
//!
//! Only `[evaluation] levels` and the `[[features]]` are required; every other field has a
//! default, shown below (where the paper's use cases set a value, theirs):
//!
//! ```toml
//! name = "usecase1-attacks-vs-support"  # run directory name (default: the file's stem)
//! game = "tribes"                       # default: the first registered game (tribes)
//! seed = 1                              # default 1
//! batch_size = 10                       # default 10: genomes evaluated in parallel per batch
//!
//! [rules]                               # the game's rules options (default: the game's;
//! compat = "intended"                   # Tribes: compat = "intended", mode = "capitals")
//!
//! [evaluation]
//! levels = [1590557911279, 1588955551452]  # required: level seeds and files, or "paper"
//! repetitions = 4                       # games per level; seats rotate every game (default:
//!                                       # 20 games a genome, even per level: 4 on 5 levels,
//!                                       # 20 on one; 4 with "paper")
//! budget = 2000                         # default 2000: FM calls per action of the default
//!                                       # player and baseline (an error if both are given)
//! player = "pmcts(bias=true,pruning=false,budget=2000,expand=weighted,final=weighted,persona=auto)"
//!                                       # default; the genome adds `weights`; `auto`: the
//!                                       # style strength is calibrated (see [calibration])
//! baseline = "mcts(budget=2000)"        # default
//!
//! [genome]
//! scripts = ["spawn.strongest", "spawn.defensive"]  # default: with the default player
//!                                       # every script of the game's portfolio, else the
//!                                       # game's evolved set
//! values = [0.0, 0.25, 0.5, 0.75, 1.0]  # default; or: range = [0.0, 1.0]
//!
//! [[features]]                          # required: 1 to 3 axes
//! name = "attacks"
//! min = 0
//! max = 20
//! step = 2                              # or: bins = 10 (equal-width bins over [min, max])
//!
//! [map_elites]                          # the whole section is optional
//! one_hot = true                        # default true
//! random_init = 40                      # default 40
//! iterations = 500                      # default 500
//! replacement = "paper"                 # default; or "lower_confidence" (with z = 1.96)
//! emitter = "schedule"                  # default: the hill climber; for a `range` genome
//!                                       # also "gaussian" (with sigma, required: one number or
//!                                       # one per weight) or "iso_line_dd" (with
//!                                       # iso_sigma = 0.01, line_sigma = 0.2)
//!
//! [map_elites.adaptive]                 # optional: adaptive sampling (src/qd/adaptive.rs);
//!                                       # without the table, the defaults below
//!                                       # (`adaptive = false` under [map_elites]: off)
//! first_repetitions = 2                 # default max(2, max_repetitions / 5): a genome's
//!                                       # first games, per level
//! step_repetitions = 2                  # default first_repetitions: each further round
//! max_repetitions = 4                   # default [evaluation] repetitions: most per level
//! se_fraction = 0.5                     # default 0.5: play on while a feature's standard
//!                                       # error exceeds this × its cell width
//! z = 1.96                              # default 1.96: the win rate's Wilson interval
//! placement_z = 0.5                     # enter a cell only once every feature's mean ±
//!                                       # placement_z × SE lies in it (default 0.5; 0 in a
//!                                       # table that leaves it out)
//! min_win_rate = 0.5                    # enter only once the win rate's interval (at
//!                                       # floor_z) lies at or above this (default: a fair
//!                                       # share, 1 / players averaged over the training
//!                                       # levels; 0 in a table that leaves it out)
//! floor_z = 1.0                         # default 1 (z in a table that leaves it out)
//!
//! [calibration]                         # optional; only for a player whose style strength
//!                                       # (its declared field) says `auto`
//! strengths = [0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0]  # default: the player's ladder (here
//!                                       # Portfolio MCTS's `persona`)
//! floor = 0.5                           # default: a fair share of the training levels (the
//!                                       # mean of 1 / players); every extreme genome's win
//!                                       # rate must keep its lower bound at or above it
//! z = 1.0                               # default 1: the win rate's Wilson interval
//! repetitions = 4                       # default [evaluation] repetitions: games per level
//! chosen = 2.0                          # written by the calibration into the run's
//!                                       # config.toml, whose player then says `persona=2.0`
//! ```
//!
//! A player whose style strength says `auto` is calibrated before breeding
//! ([`crate::experiments::calibration`]): the extreme genomes are played at every strength of
//! the ladder on the training levels, and the strongest style whose extremes all keep their
//! win rate's lower bound at or above the floor is chosen and written into the run's
//! `config.toml`.
//!
//! **Noise-aware by default.** A config without `[map_elites.adaptive]` breeds with adaptive
//! sampling, a placement check and a strength floor, the settings that met every personality
//! goal on Puerto Rico (`experiments/puerto-rico-personas-sure.toml`) scaled to the run:
//! a first round of a fifth of the games (at least 2 per level: the Tribes and Prismata maps
//! started with 2, Puerto Rico and Pig with 20 of 100), more rounds while a feature's standard
//! error exceeds half a cell, a genome entering a cell only once its features' half-SE
//! interval lies inside it (Prismata's `placement_z = 0.5`; Puerto Rico's 1 needs about 100
//! games an elite) and its win rate surely reaches a fair share: the lower end of its
//! one-sigma interval. At 20 games (Tribes) that is 13 wins, what Tribes' and Prismata's floor
//! of 0.4 at 95 % asked; at 100 games of four players, 30 wins (Puerto Rico asked 0.25 at 95 %,
//! 34). `[map_elites] adaptive = false` turns it off: every genome plays `repetitions` games
//! per level at once. A table (`[map_elites.adaptive]`) sets the fields it names and leaves
//! placement and floor off unless it names them, as before these defaults.
//!
//! So a run needs about ten lines: `game`, `[evaluation] levels` (with a `budget`, or the
//! `player` and `baseline` it is about) and one `[[features]]` table; `experiments/minimal-*.toml`
//! are one such config per game.

use serde::{Deserialize, Serialize};

use super::GameKind;
use super::config_file::{LevelSet, LevelsField, level_set, toml_error};
use crate::agent::{AgentSpec, Value};
use crate::error::{Error, Result};
use crate::limits;
use crate::qd::{
    Adaptive, DEFAULT_ISO_SIGMA, DEFAULT_LINE_SIGMA, Domain, EmitterConfig, EmitterKind,
    FeatureAxis, GenomeSpace, MapElitesConfig, Replacement, Sigma,
};

/// The run seed when a config gives none: the seed of the quick start and use case I, so a
/// config without one still runs the same games every time.
pub const DEFAULT_SEED: i64 = 1;

/// Genomes per batch when a config gives none: the quick start's and the use cases' value; with
/// 4 repetitions on 5 levels a batch is 200 games to share between the threads, and a killed
/// run loses at most one batch.
pub const DEFAULT_BATCH_SIZE: i64 = 10;

/// Games per level when a config gives none and its levels are not listed (`"paper"`): the
/// paper's use cases (5 levels × 4 = 20 games a genome); even, so the player takes each seat
/// of a two-player level equally often (and each seat of a four-player one).
pub const DEFAULT_REPETITIONS: i64 = 4;

/// Games a genome plays when a config gives no `repetitions`: the paper's use cases' 20 (5
/// levels × 4), however many levels are listed ([`default_repetitions`]).
pub const DEFAULT_GAMES: u64 = 20;

/// Games per level when a config gives none for `levels` listed levels: enough for
/// [`DEFAULT_GAMES`] games a genome, rounded up to an even number so that a two-player level's
/// seats (and a four-player one's, at 20 games on one level) are taken equally often — 4 on
/// the use cases' 5 levels, 20 on one level (Puerto Rico's four-player map needed 20 to 100),
/// 6 on Prismata's 4.
pub fn default_repetitions(levels: usize) -> u32 {
    let per_level = DEFAULT_GAMES.div_ceil(levels.max(1) as u64).max(1);
    (per_level + per_level % 2) as u32
}

/// Random genomes after the one-hot ones when a config gives none: the paper's use cases.
pub const DEFAULT_RANDOM_INIT: i64 = 40;

/// Offspring when a config gives none: the paper's use cases, 500 after 11 one-hot and 40
/// random genomes, about four evaluations per cell of use case I's 12 × 11 map.
pub const DEFAULT_ITERATIONS: i64 = 500;

/// The TOML file as written (unknown keys are errors; a field left out takes its default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    /// Run name (default: the config file's stem).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game (default: the first registered game).
    #[serde(default = "default_game")]
    pub game: String,
    /// The run seed (default [`DEFAULT_SEED`]).
    #[serde(default = "default_seed")]
    pub seed: i64,
    /// Genomes per batch (default [`DEFAULT_BATCH_SIZE`]).
    #[serde(default = "default_batch")]
    pub batch_size: i64,
    /// The game's rules options (default: the game's).
    #[serde(default)]
    pub rules: toml::Table,
    /// How genomes are evaluated.
    pub evaluation: EvaluationFile,
    /// The evolved weights.
    #[serde(default)]
    pub genome: GenomeFile,
    /// The map's axes (1–3).
    pub features: Vec<FeatureFile>,
    /// The MAP-Elites schedule (default: [`MapElitesFile::default`]).
    #[serde(default)]
    pub map_elites: MapElitesFile,
    /// `[calibration]`: how the player's `auto` style strength is chosen (default: none; a
    /// run whose player says `auto` is written with every setting resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<CalibrationFile>,
}

fn default_game() -> String {
    super::GameKind::default().name().into()
}

fn default_seed() -> i64 {
    DEFAULT_SEED
}

fn default_batch() -> i64 {
    DEFAULT_BATCH_SIZE
}

/// `[evaluation]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluationFile {
    /// Training levels: `"paper"` or level seeds and files.
    pub levels: LevelsField,
    /// Games per level (default [`default_repetitions`] of the listed levels, else
    /// [`DEFAULT_REPETITIONS`]); a resolved config names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetitions: Option<i64>,
    /// FM calls per action of the default player and the default baseline (default
    /// [`DEFAULT_BUDGET`]); a resolved config names them instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<i64>,
    /// The evolved player's agent spec (its `weights` come from the genome; default
    /// [`default_player`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The opponent's agent spec (default [`default_baseline`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
}

/// FM calls per action of the default player and baseline when `[evaluation]` gives no
/// `budget`: the paper's.
pub const DEFAULT_BUDGET: u64 = 2000;

/// The player when `[evaluation]` names none: Portfolio MCTS steered by its weights
/// (progressive bias without unpruning, weighted expansion and final move, the persona term)
/// at `budget` FM calls, its persona's strength calibrated on the run's levels (`auto`).
pub fn default_player(budget: u64) -> String {
    format!(
        "pmcts(bias=true,pruning=false,budget={budget},expand=weighted,final=weighted,\
         persona=auto)"
    )
}

/// The baseline when `[evaluation]` names none: MCTS at `budget` FM calls.
pub fn default_baseline(budget: u64) -> String {
    format!("mcts(budget={budget})")
}

/// `[calibration]`; every field is optional (see the module docs for the defaults).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationFile {
    /// The style strengths tried, ascending (default: the player's declared ladder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strengths: Option<Vec<f64>>,
    /// The least win rate every extreme genome must surely reach (default: a fair share of
    /// the training levels, the mean of 1 / players).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<f64>,
    /// Width of the win rate's Wilson interval, in standard deviations (default
    /// [`DEFAULT_CALIBRATION_Z`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// Games per level of each genome (default `[evaluation] repetitions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetitions: Option<i64>,
    /// The strength chosen: written by the calibration into the run's `config.toml`, whose
    /// player then names it in place of `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<f64>,
}

/// `z` of `[calibration]` when it gives none: a one-sigma lower bound. Calibration plays few
/// games a genome (the evaluation's, typically 20) and every extreme of a rung must clear the
/// floor: at 20 games a floor of 50 % then asks for 13 wins (65 %), where the 95 % bound
/// (z = 1.96) would ask for 15 (75 %) of each extreme.
pub const DEFAULT_CALIBRATION_Z: f64 = 1.0;

/// `[calibration]` validated; the defaults that depend on the game (the ladder, the floor)
/// are filled in when the run is resolved for it ([`crate::experiments::calibration`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CalibrationConfig {
    /// The strengths tried (`None`: the player's declared ladder).
    pub strengths: Option<Vec<f64>>,
    /// The floor (`None`: the fair share of the training levels).
    pub floor: Option<f64>,
    /// Width of the Wilson interval.
    pub z: f64,
    /// Games per level of each genome.
    pub repetitions: u32,
    /// The strength chosen (a calibrated run's config).
    pub chosen: Option<f64>,
}

/// Checks a ladder of style strengths: 1 to [`limits::MAX_STRENGTHS`] finite numbers ≥ 0,
/// strictly ascending.
///
/// # Errors
///
/// [`Error::Config`] naming `field` and the value at fault.
pub fn check_strengths(strengths: &[f64], field: &str) -> Result<()> {
    if strengths.is_empty() {
        return Err(Error::config(field, "give at least one strength"));
    }
    limits::at_most(strengths.len() as u64, limits::MAX_STRENGTHS, field)?;
    for (i, &s) in strengths.iter().enumerate() {
        if !(s.is_finite() && s >= 0.0) {
            return Err(Error::config(
                field,
                format!("strength {s} is not a finite number ≥ 0"),
            ));
        }
        if i > 0 && s <= strengths[i - 1] {
            return Err(Error::config(
                field,
                format!(
                    "give the strengths in ascending order, each once: {s} after {}",
                    strengths[i - 1]
                ),
            ));
        }
    }
    Ok(())
}

/// The fields of `spec` whose value is the word `auto`.
pub fn auto_fields(spec: &AgentSpec) -> Vec<&str> {
    spec.fields()
        .iter()
        .filter(|(_, v)| matches!(v, Value::Word(w) if w == AUTO))
        .map(|(k, _)| k.as_str())
        .collect()
}

/// The value of a player's style-strength field that asks for calibration.
pub const AUTO: &str = "auto";

/// `[genome]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenomeFile {
    /// Evolved script names (default: the game's evolved set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scripts: Option<Vec<String>>,
    /// Discrete weight values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
    /// A continuous weight range `[lo, hi]` instead of values (exactly two numbers: TOML
    /// would drop a third, so the list is read whole and its length checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Vec<f64>>,
}

/// One `[[features]]` axis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureFile {
    /// Feature name ([`crate::features::Feature::resolve`] resolves it against the game).
    pub name: String,
    /// Lower end.
    pub min: f64,
    /// Upper end.
    pub max: f64,
    /// Bucket width (the reference's bucket rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// Or: number of equal-width bins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bins: Option<i64>,
}

/// `[map_elites]`; every field is optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapElitesFile {
    /// Start with the one-hot genomes (default true, as the paper's "master" runs).
    #[serde(default = "yes")]
    pub one_hot: bool,
    /// Random genomes after the one-hot ones (default [`DEFAULT_RANDOM_INIT`]).
    #[serde(default = "default_random_init")]
    pub random_init: i64,
    /// Offspring of elites (default [`DEFAULT_ITERATIONS`]).
    #[serde(default = "default_iterations")]
    pub iterations: i64,
    /// `paper` (the default, the reference's rule) or `lower_confidence`.
    #[serde(default = "default_replacement")]
    pub replacement: String,
    /// z of `lower_confidence` (default 1.96).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// How offspring are made: `schedule` (the default, the reference hill climber),
    /// `gaussian` or `iso_line_dd` (these two for a `range` genome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emitter: Option<String>,
    /// σ of `gaussian` (required): one number, or one per weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<Sigma>,
    /// σ_iso of `iso_line_dd` (default 0.01, as pyribs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iso_sigma: Option<f64>,
    /// σ_line of `iso_line_dd` (default 0.2, as pyribs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_sigma: Option<f64>,
    /// `[map_elites.adaptive]`: adaptive sampling (absent: the defaults, see the module docs;
    /// in a run directory's `config.toml`, which always writes it, absent means off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveField>,
}

/// `[map_elites] adaptive`: `false` (off), `true` (the defaults) or a table of settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AdaptiveField {
    /// `adaptive = false` or `adaptive = true`.
    Switch(bool),
    /// `[map_elites.adaptive]`.
    Settings(AdaptiveFile),
}

impl<'de> Deserialize<'de> for AdaptiveField {
    /// A boolean or a table; the table is read in place, so its errors (unknown keys, types)
    /// keep the position of the key at fault.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Field;
        impl<'de> serde::de::Visitor<'de> for Field {
            type Value = AdaptiveField;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`true`, `false` or a table of adaptive settings")
            }
            fn visit_bool<E: serde::de::Error>(
                self,
                on: bool,
            ) -> std::result::Result<Self::Value, E> {
                Ok(AdaptiveField::Switch(on))
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> std::result::Result<Self::Value, M::Error> {
                AdaptiveFile::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(AdaptiveField::Settings)
            }
        }
        d.deserialize_any(Field)
    }
}

/// `[map_elites.adaptive]`; every field is optional (see the module docs for the defaults).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveFile {
    /// Repetitions per level of a genome's first round (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_repetitions: Option<i64>,
    /// Repetitions per level of each further round (default `first_repetitions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_repetitions: Option<i64>,
    /// Most repetitions per level (default `[evaluation] repetitions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_repetitions: Option<i64>,
    /// Target standard error of a feature, as a fraction of its cell width (default 0.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub se_fraction: Option<f64>,
    /// Width of the win rate's Wilson interval in standard deviations (default 1.96).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// Standard errors of a feature's interval that must lie in the cell before a candidate
    /// enters it (default 0: no check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement_z: Option<f64>,
    /// The least win rate an elite must surely reach (the lower end of its interval at
    /// `floor_z`; default 0 in a table: no check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_win_rate: Option<f64>,
    /// Width of the interval the floor is checked on (default `z` in a table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_z: Option<f64>,
}

/// `first_repetitions` when `[map_elites.adaptive]` gives none.
pub const DEFAULT_FIRST_REPETITIONS: i64 = 4;

/// `se_fraction` when `[map_elites.adaptive]` gives none.
pub const DEFAULT_SE_FRACTION: f64 = 0.5;

/// `placement_z` of the default adaptive settings (a config without `[map_elites.adaptive]`):
/// Prismata's measured choice (`results/prismata-phases/`: 43 % of the re-played elites kept
/// their cell, held-out Spearman of aggression 0.95); Puerto Rico's 1 needs about 100 games an
/// elite to place any.
pub const DEFAULT_PLACEMENT_Z: f64 = 0.5;

/// `floor_z` of the default adaptive settings: the strength floor (a fair share) is met when
/// the lower end of the win rate's one-sigma Wilson interval reaches it.
pub const DEFAULT_FLOOR_Z: f64 = 1.0;

impl Default for MapElitesFile {
    /// The paper's use cases' schedule: the one-hot genomes, [`DEFAULT_RANDOM_INIT`] random
    /// ones, [`DEFAULT_ITERATIONS`] hill-climber offspring, the paper's replacement rule.
    fn default() -> Self {
        MapElitesFile {
            one_hot: true,
            random_init: DEFAULT_RANDOM_INIT,
            iterations: DEFAULT_ITERATIONS,
            replacement: default_replacement(),
            z: None,
            emitter: None,
            sigma: None,
            iso_sigma: None,
            line_sigma: None,
            adaptive: None,
        }
    }
}

fn yes() -> bool {
    true
}

fn default_random_init() -> i64 {
    DEFAULT_RANDOM_INIT
}

fn default_iterations() -> i64 {
    DEFAULT_ITERATIONS
}

fn default_replacement() -> String {
    "paper".into()
}

/// A validated run configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Run name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// Run seed.
    pub seed: u64,
    /// Genomes per batch.
    pub batch_size: usize,
    /// The game's rules options (read as the game's `GameKit::Rules`).
    pub rules: toml::Table,
    /// Training levels.
    pub levels: LevelSet,
    /// Games per level.
    pub repetitions: u32,
    /// The evolved player's spec (without weights).
    pub player: AgentSpec,
    /// The opponent's spec.
    pub baseline: AgentSpec,
    /// Evolved script names (`None`: the game's default set).
    pub scripts: Option<Vec<String>>,
    /// Weight domain.
    pub domain: Domain,
    /// The features' axes, each named after its feature (resolved against the game by the
    /// workflow, [`crate::features::Feature::resolve`]).
    pub features: Vec<FeatureAxis>,
    /// Emitter schedule.
    pub emitter: EmitterConfig,
    /// Replacement rule.
    pub replacement: Replacement,
    /// Adaptive sampling (`None`: off).
    pub adaptive: Option<Adaptive>,
    /// True while the default adaptive settings' `min_win_rate` still waits for the training
    /// levels' fair share ([`RunConfig::resolve_floor`]).
    pub floor_pending: bool,
    /// The calibration of the player's style strength: `Some` when a field of the player is
    /// `auto` ([`RunConfig::auto_field`]), or, with `chosen`, once it has been calibrated.
    pub calibration: Option<CalibrationConfig>,
    /// The file as given, to write back resolved.
    pub file: RunFile,
}

fn non_negative(v: i64, field: &str) -> Result<u64> {
    u64::try_from(v).map_err(|_| Error::config(field, format!("must be ≥ 0, got {v}")))
}

fn positive(v: i64, field: &str) -> Result<u64> {
    match non_negative(v, field)? {
        0 => Err(Error::config(field, "must be at least 1")),
        n => Ok(n),
    }
}

/// The run's name: `name`, else `stem`; it names a directory, so it must be a plain file name.
fn run_name(file: &RunFile, stem: &str) -> Result<String> {
    let name = file.name.clone().unwrap_or_else(|| stem.to_string());
    if name.trim().is_empty() || name.contains(['/', '\\']) {
        return Err(Error::config("name", "must be a non-empty file name"));
    }
    Ok(name)
}

/// `[evaluation]`, validated.
struct EvaluationParts {
    levels: LevelSet,
    repetitions: u32,
    player: AgentSpec,
    baseline: AgentSpec,
}

/// Parses an agent spec, errors naming `field`.
fn agent_spec(s: &str, field: &str) -> Result<AgentSpec> {
    AgentSpec::parse(s).map_err(|e| match e {
        Error::Config { reason, .. } => Error::config(field, reason),
        e => e,
    })
}

/// Validates `[evaluation]`: the levels, a positive repetition count, the budget (1 to
/// [`limits::MAX_BUDGET`], and only where it sets a default agent), and the two agent specs
/// (the player's without `weights`, which the genome sets, and with `auto` on one field at
/// most; the baseline's without `auto`).
fn evaluation(ev: &EvaluationFile) -> Result<EvaluationParts> {
    let levels = level_set(ev.levels.clone(), "evaluation.levels")?;
    let repetitions = match (ev.repetitions, &levels) {
        (Some(r), _) => positive(r, "evaluation.repetitions")?,
        (None, LevelSet::List(listed)) => u64::from(default_repetitions(listed.len())),
        (None, _) => DEFAULT_REPETITIONS as u64,
    };
    let repetitions = limits::at_most(
        repetitions,
        limits::MAX_REPETITIONS,
        "evaluation.repetitions",
    )? as u32;
    let budget = match ev.budget {
        None => DEFAULT_BUDGET,
        Some(_) if ev.player.is_some() && ev.baseline.is_some() => {
            return Err(Error::config(
                "evaluation.budget",
                "sets nothing: `player` and `baseline` are both given (give each its budget \
                 in its spec)",
            ));
        }
        Some(b) => limits::at_most(
            positive(b, "evaluation.budget")?,
            limits::MAX_BUDGET,
            "evaluation.budget",
        )?,
    };
    let player = match &ev.player {
        Some(p) => agent_spec(p, "evaluation.player")?,
        None => agent_spec(&default_player(budget), "evaluation.player")?,
    };
    let baseline = match &ev.baseline {
        Some(b) => agent_spec(b, "evaluation.baseline")?,
        None => agent_spec(&default_baseline(budget), "evaluation.baseline")?,
    };
    if player.fields().iter().any(|(k, _)| k == "weights") {
        return Err(Error::config(
            "evaluation.player",
            "the genome sets the weights: leave `weights` out of the player's spec",
        ));
    }
    if let [_, _, ..] = auto_fields(&player)[..] {
        return Err(Error::config(
            "evaluation.player",
            format!(
                "`auto` on {}: only the style strength is calibrated, one field",
                auto_fields(&player).join(" and ")
            ),
        ));
    }
    if let Some(k) = auto_fields(&baseline).first() {
        return Err(Error::config(
            "evaluation.baseline",
            format!("`{k}=auto`: only the player's style strength is calibrated"),
        ));
    }
    Ok(EvaluationParts {
        levels,
        repetitions,
        player,
        baseline,
    })
}

/// Validates `[genome]` and returns its weight domain, checked as every genome space checks
/// it ([`Domain::validate`]); the script list, if given, must be non-empty without repeats
/// (the names are checked later, by [`RunConfig::check_scripts`]).
fn genome(g: &GenomeFile) -> Result<Domain> {
    let domain = match (&g.values, g.range.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(Error::config(
                "genome",
                "give `values` or `range`, not both",
            ));
        }
        (Some(v), None) => Domain::Discrete(v.clone()),
        (None, Some(&[lo, hi])) => Domain::Range { lo, hi },
        (None, Some(range)) => {
            return Err(Error::config(
                "genome.range",
                format!("give two numbers `[lo, hi]`, got {}", range.len()),
            ));
        }
        (None, None) => Domain::default(),
    };
    domain.validate()?;
    if let Some(scripts) = &g.scripts {
        if scripts.is_empty() {
            return Err(Error::config("genome.scripts", "give at least one script"));
        }
        for (i, s) in scripts.iter().enumerate() {
            if scripts[..i].contains(s) {
                return Err(Error::config(
                    format!("genome.scripts[{i}]"),
                    format!("`{s}` is listed twice"),
                ));
            }
        }
    }
    Ok(domain)
}

/// Validates the `[[features]]` tables (1 to 3) into axes named after their features: distinct,
/// non-empty names (resolved against the game later, by the workflow), `min < max`, and
/// exactly one of `step` or `bins`, giving at most [`limits::MAX_AXIS_CELLS`] cells (the
/// heatmaps every batch draws); errors name `features[i].<key>`.
fn features(files: &[FeatureFile]) -> Result<Vec<FeatureAxis>> {
    if files.is_empty() || files.len() > 3 {
        return Err(Error::config(
            "features",
            format!("give 1 to 3 [[features]] tables, got {}", files.len()),
        ));
    }
    let mut features = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let field = |k: &str| format!("features[{i}].{k}");
        if f.name.trim().is_empty() {
            return Err(Error::config(field("name"), "a feature needs a name"));
        }
        if features.iter().any(|a: &FeatureAxis| a.name == f.name) {
            return Err(Error::config(field("name"), "the same feature twice"));
        }
        if !(f.min.is_finite() && f.max.is_finite()) || f.min >= f.max {
            return Err(Error::config(
                field("max"),
                format!("need min < max, got min {} and max {}", f.min, f.max),
            ));
        }
        let (axis, key) = match (f.step, f.bins) {
            (Some(step), None) => (FeatureAxis::bucket(&f.name, f.min, f.max, step), "step"),
            (None, Some(bins)) => {
                let bins = usize::try_from(positive(bins, &field("bins"))?).unwrap_or(usize::MAX);
                (FeatureAxis::bins(&f.name, f.min, f.max, bins), "bins")
            }
            _ => {
                return Err(Error::config(
                    field("step"),
                    "give `step` (buckets) or `bins`, exactly one",
                ));
            }
        };
        // The axis's own errors name the feature; here they name the key at fault.
        let axis = axis.map_err(|e| match e {
            Error::Config { reason, .. } if reason.starts_with("min and max") => {
                Error::config(field("max"), reason)
            }
            Error::Config { reason, .. } => Error::config(field(key), reason),
            e => e,
        })?;
        features.push(axis);
    }
    Ok(features)
}

/// The `[map_elites]` emitter kind: `emitter` with its σs (each σ given only with its own
/// emitter, `sigma` required by `gaussian`), pyribs' defaults for `iso_line_dd`. The σ values
/// are checked by [`EmitterConfig::validate`].
fn emitter_kind(m: &MapElitesFile) -> Result<EmitterKind> {
    let kind = match m.emitter.as_deref().unwrap_or("schedule") {
        "schedule" => EmitterKind::Schedule,
        "gaussian" => EmitterKind::Gaussian {
            sigma: m.sigma.clone().ok_or_else(|| {
                Error::config(
                    "map_elites.sigma",
                    "the `gaussian` emitter needs `sigma` (one number, or one per weight)",
                )
            })?,
        },
        "iso_line_dd" => EmitterKind::IsoLineDd {
            iso_sigma: m.iso_sigma.unwrap_or(DEFAULT_ISO_SIGMA),
            line_sigma: m.line_sigma.unwrap_or(DEFAULT_LINE_SIGMA),
        },
        other => {
            return Err(Error::config(
                "map_elites.emitter",
                format!("`{other}` is not `schedule`, `gaussian` or `iso_line_dd`"),
            ));
        }
    };
    let given = [
        ("sigma", m.sigma.is_some(), "gaussian"),
        ("iso_sigma", m.iso_sigma.is_some(), "iso_line_dd"),
        ("line_sigma", m.line_sigma.is_some(), "iso_line_dd"),
    ];
    for (key, is_given, owner) in given {
        if is_given && kind.name() != owner {
            return Err(Error::config(
                format!("map_elites.{key}"),
                format!(
                    "belongs to the `{owner}` emitter, but `emitter` is `{}`",
                    kind.name()
                ),
            ));
        }
    }
    Ok(kind)
}

/// What a run config without `[map_elites] adaptive` means: a user's config breeds with the
/// default settings ([`default_adaptive`]); a run directory's `config.toml`, which has written
/// the settings out since they became the default, was bred without when it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Absent {
    Defaults,
    Off,
}

/// The default adaptive settings for `repetitions` games per level (see the module docs):
/// their `min_win_rate` is the training levels' fair share, set by
/// [`RunConfig::resolve_floor`] once the levels are loaded.
pub fn default_adaptive(repetitions: u32) -> Adaptive {
    let first = (repetitions / 5).max(2).min(repetitions);
    Adaptive {
        first_repetitions: first,
        step_repetitions: first,
        max_repetitions: repetitions,
        se_fraction: DEFAULT_SE_FRACTION,
        z: 1.96,
        placement_z: DEFAULT_PLACEMENT_Z,
        min_win_rate: 0.0,
        floor_z: Some(DEFAULT_FLOOR_Z),
    }
}

/// Validates `[map_elites] adaptive`, `repetitions` the evaluation's (the default maximum):
/// `false` is off, `true` the defaults, absent as `absent` says; the error names the field.
/// The second value is true when the floor is the default one, still to be resolved.
fn adaptive(
    field: Option<&AdaptiveField>,
    repetitions: u32,
    absent: Absent,
) -> Result<(Option<Adaptive>, bool)> {
    let f = match field {
        Some(AdaptiveField::Settings(f)) => f,
        Some(AdaptiveField::Switch(false)) => return Ok((None, false)),
        None if absent == Absent::Off => return Ok((None, false)),
        Some(AdaptiveField::Switch(true)) | None => {
            return Ok((Some(default_adaptive(repetitions)), true));
        }
    };
    let count = |v: Option<i64>, default: u32, name: &str| -> Result<u32> {
        let field = format!("map_elites.adaptive.{name}");
        let n = positive(v.unwrap_or(i64::from(default)), &field)?;
        Ok(limits::at_most(n, limits::MAX_REPETITIONS, &field)? as u32)
    };
    let first = count(
        f.first_repetitions,
        DEFAULT_FIRST_REPETITIONS as u32,
        "first_repetitions",
    )?;
    let step = count(f.step_repetitions, first, "step_repetitions")?;
    let max = count(f.max_repetitions, repetitions, "max_repetitions")?;
    let settings = Adaptive {
        first_repetitions: first,
        step_repetitions: step,
        max_repetitions: max,
        se_fraction: f.se_fraction.unwrap_or(DEFAULT_SE_FRACTION),
        z: f.z.unwrap_or(1.96),
        placement_z: f.placement_z.unwrap_or(0.0),
        min_win_rate: f.min_win_rate.unwrap_or(0.0),
        floor_z: f.floor_z,
    };
    settings.validate()?;
    Ok((Some(settings), false))
}

/// Validates `[calibration]` for a player whose style field is `auto` (`auto`) or not, the
/// evaluation's `repetitions` being the default: `None` if there is nothing to calibrate;
/// errors name the field.
fn calibration(
    file: Option<&CalibrationFile>,
    auto: bool,
    repetitions: u32,
) -> Result<Option<CalibrationConfig>> {
    let f = match (file, auto) {
        (None, false) => return Ok(None),
        (Some(f), false) if f.chosen.is_none() => {
            return Err(Error::config(
                "calibration",
                "calibrates nothing: no field of `evaluation.player` is `auto`",
            ));
        }
        (Some(f), true) if f.chosen.is_some() => {
            return Err(Error::config(
                "calibration.chosen",
                "the player still says `auto`: a calibrated run's config names the chosen \
                 value in its place",
            ));
        }
        (Some(f), _) => f.clone(),
        (None, true) => CalibrationFile::default(),
    };
    if let Some(s) = &f.strengths {
        check_strengths(s, "calibration.strengths")?;
    }
    if let Some(floor) = f.floor
        && !(floor.is_finite() && (0.0..=1.0).contains(&floor))
    {
        return Err(Error::config(
            "calibration.floor",
            format!("must be a win rate from 0 to 1, got {floor}"),
        ));
    }
    let z = f.z.unwrap_or(DEFAULT_CALIBRATION_Z);
    if !(z.is_finite() && z >= 0.0) {
        return Err(Error::config(
            "calibration.z",
            format!("must be a finite number ≥ 0, got {z}"),
        ));
    }
    let field = "calibration.repetitions";
    let repetitions = match f.repetitions {
        None => repetitions,
        Some(r) => limits::at_most(positive(r, field)?, limits::MAX_REPETITIONS, field)? as u32,
    };
    if let Some(c) = f.chosen {
        let listed = f.strengths.as_ref().is_none_or(|s| s.contains(&c));
        if !(c.is_finite() && c >= 0.0 && listed) {
            return Err(Error::config(
                "calibration.chosen",
                format!("{c} is not one of the strengths tried"),
            ));
        }
    }
    Ok(Some(CalibrationConfig {
        strengths: f.strengths,
        floor: f.floor,
        z,
        repetitions,
        chosen: f.chosen,
    }))
}

/// Validates `[map_elites]`: the emitter schedule (`random_init` + `iterations` at most
/// [`limits::MAX_EVALUATIONS`]) and kind, and the replacement rule (`z` of `lower_confidence`
/// positive, 1.96 by default).
fn map_elites(m: &MapElitesFile) -> Result<(EmitterConfig, Replacement)> {
    let evaluations =
        |v, field| limits::at_most(non_negative(v, field)?, limits::MAX_EVALUATIONS, field);
    let random_init = evaluations(m.random_init, "map_elites.random_init")?;
    let iterations = evaluations(m.iterations, "map_elites.iterations")?;
    if random_init + iterations > limits::MAX_EVALUATIONS {
        return Err(Error::config(
            "map_elites.iterations",
            format!(
                "random_init + iterations = {} genomes, more than the maximum of {} a run evaluates",
                random_init + iterations,
                limits::MAX_EVALUATIONS
            ),
        ));
    }
    let emitter = EmitterConfig {
        one_hot: m.one_hot,
        random_init,
        iterations,
        kind: emitter_kind(m)?,
    };
    let replacement = match m.replacement.as_str() {
        "paper" => Replacement::Paper,
        "lower_confidence" => {
            let z = m.z.unwrap_or(1.96);
            if !(z.is_finite() && z > 0.0) {
                return Err(Error::config("map_elites.z", "must be a positive number"));
            }
            Replacement::LowerConfidence { z }
        }
        other => {
            return Err(Error::config(
                "map_elites.replacement",
                format!("`{other}` is not `paper` or `lower_confidence`"),
            ));
        }
    };
    Ok((emitter, replacement))
}

impl RunConfig {
    /// Parses and validates TOML text; `stem` names the run when the file has no `name`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field: unknown keys, bad types, an unknown feature or
    /// game, an empty level list, `min ≥ max`, a `range` that is not two numbers, an axis of
    /// more than [`limits::MAX_AXIS_CELLS`] cells, negative or zero counts, counts above their
    /// maxima in [`crate::limits`] (a batch's games with listed levels included, see
    /// [`RunConfig::check_batch_games`]), bad agent specs, an
    /// unknown emitter, a σ that is not positive or belongs to another emitter, a continuous
    /// emitter over discrete weights.
    /// (Script names are checked by [`RunConfig::check_scripts`], which needs the game.)
    pub fn parse(text: &str, stem: &str) -> Result<RunConfig> {
        let file: RunFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        Self::from_file(file, stem)
    }

    /// Parses a run directory's `config.toml`, as [`RunConfig::parse`] except that a file
    /// without `[map_elites] adaptive` was bred without adaptive sampling (written before the
    /// settings became the default, since when the resolved config writes them out).
    ///
    /// # Errors
    ///
    /// As [`RunConfig::parse`].
    pub fn parse_resolved(text: &str, stem: &str) -> Result<RunConfig> {
        let file: RunFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        Self::from_file_as(file, stem, Absent::Off)
    }

    /// Validates a parsed file: each section by its own function below, in the order the
    /// file lists them (so the first bad field is the one reported).
    ///
    /// # Errors
    ///
    /// As [`RunConfig::parse`].
    pub fn from_file(file: RunFile, stem: &str) -> Result<RunConfig> {
        Self::from_file_as(file, stem, Absent::Defaults)
    }

    /// [`RunConfig::from_file`], `absent` saying what a file without `[map_elites] adaptive`
    /// means.
    fn from_file_as(file: RunFile, stem: &str, absent: Absent) -> Result<RunConfig> {
        let name = run_name(&file, stem)?;
        let game: GameKind = file
            .game
            .parse()
            .map_err(|_| Error::config("game", format!("unknown game `{}`", file.game)))?;
        let seed = non_negative(file.seed, "seed")?;
        let batch_size = positive(file.batch_size, "batch_size")?;
        let batch_size = limits::at_most(batch_size, limits::MAX_GAMES, "batch_size")? as usize;
        let ev = evaluation(&file.evaluation)?;
        let domain = genome(&file.genome)?;
        let features = features(&file.features)?;
        let (emitter, replacement) = map_elites(&file.map_elites)?;
        let (adaptive, floor_pending) =
            adaptive(file.map_elites.adaptive.as_ref(), ev.repetitions, absent)?;
        let dim = file.genome.scripts.as_ref().map(Vec::len);
        emitter.validate(&domain, dim)?;
        let auto = !auto_fields(&ev.player).is_empty();
        let calibration = calibration(file.calibration.as_ref(), auto, ev.repetitions)?;
        let run = RunConfig {
            name,
            game,
            seed,
            batch_size,
            rules: file.rules.clone(),
            levels: ev.levels,
            repetitions: ev.repetitions,
            player: ev.player,
            baseline: ev.baseline,
            scripts: file.genome.scripts.clone(),
            domain,
            features,
            emitter,
            replacement,
            adaptive,
            floor_pending,
            calibration,
            file,
        };
        if let LevelSet::List(levels) = &run.levels {
            run.check_batch_games(levels.len())?;
        }
        Ok(run)
    }

    /// Checks that one genome's games (`levels` × repetitions) and one batch's (batch_size ×
    /// `levels` × repetitions) are at most [`limits::MAX_GAMES`]; `levels` is the number of
    /// training levels (known once a `"paper"` set is resolved for the game).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `evaluation.repetitions` or `batch_size`, showing the product.
    pub fn check_batch_games(&self, levels: usize) -> Result<()> {
        let levels = (levels as u64, "levels");
        let repetitions = (u64::from(self.max_repetitions()), "repetitions");
        limits::games(&[levels, repetitions], "evaluation.repetitions")?;
        limits::games(
            &[(self.batch_size as u64, "genomes"), levels, repetitions],
            "batch_size",
        )?;
        Ok(())
    }

    /// Sets the default strength floor (the default adaptive settings' `min_win_rate`) to the
    /// fair share of training levels of `players` players each: the mean of `1 / players`,
    /// what a player as strong as its opponents wins. Nothing changes for a config that set
    /// its floor or turned adaptive sampling off.
    pub fn resolve_floor(&mut self, players: &[usize]) {
        if !self.floor_pending || players.is_empty() {
            return;
        }
        if let Some(a) = &mut self.adaptive {
            let share: f64 =
                players.iter().map(|&p| 1.0 / p.max(1) as f64).sum::<f64>() / players.len() as f64;
            a.min_win_rate = share;
        }
        self.floor_pending = false;
    }

    /// The player's field that says `auto` (its style strength, to calibrate), if any.
    pub fn auto_field(&self) -> Option<&str> {
        auto_fields(&self.player).first().copied()
    }

    /// The most repetitions per level a genome plays: `max_repetitions` with adaptive
    /// sampling, else `repetitions`.
    pub fn max_repetitions(&self) -> u32 {
        self.adaptive
            .map_or(self.repetitions, |a| a.max_repetitions)
    }

    /// Checks the evolved script names against the game's portfolio.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `genome.scripts[i]` for an unknown script.
    pub fn check_scripts(&self, known: &[&str]) -> Result<()> {
        for (i, s) in self.scripts.iter().flatten().enumerate() {
            if !known.contains(&s.as_str()) {
                return Err(Error::config(
                    format!("genome.scripts[{i}]"),
                    format!("unknown script `{s}`"),
                ));
            }
        }
        Ok(())
    }

    /// The engine configuration for evolved scripts `scripts`.
    ///
    /// # Errors
    ///
    /// The engine's own validation errors (naming the field); `map_elites.adaptive.min_win_rate`
    /// while the default floor waits for [`RunConfig::resolve_floor`].
    pub fn map_elites(&self, scripts: &[String]) -> Result<MapElitesConfig> {
        if self.floor_pending {
            return Err(Error::config(
                "map_elites.adaptive.min_win_rate",
                "the default floor is the training levels' fair share: resolve it first \
                 (RunConfig::resolve_floor)",
            ));
        }
        let config = MapElitesConfig {
            seed: self.seed,
            batch_size: self.batch_size,
            space: GenomeSpace::new(scripts.to_vec(), self.domain.clone())?,
            axes: self.features.clone(),
            replacement: self.replacement,
            emitter: self.emitter.clone(),
            adaptive: self.adaptive,
        };
        config.validate()?;
        Ok(config)
    }

    /// The resolved TOML written into the run directory: every default made explicit (the
    /// emitter and its σs, the `z` of `lower_confidence` included), the levels listed, the
    /// evolved scripts named; the `[rules]` are written as given (the workflow puts the
    /// game's resolved rules in `file.rules` first). It parses back to the same run.
    ///
    /// # Errors
    ///
    /// Serialisation errors (not expected).
    pub fn resolved_toml(&self, levels: &[String], scripts: &[String]) -> Result<String> {
        let mut file = self.file.clone();
        file.name = Some(self.name.clone());
        let ev = &mut file.evaluation;
        ev.player.get_or_insert_with(|| self.player.to_string());
        ev.baseline.get_or_insert_with(|| self.baseline.to_string());
        ev.budget = None;
        ev.repetitions = Some(i64::from(self.repetitions));
        file.map_elites.emitter = Some(self.emitter.kind.name().to_string());
        if let Replacement::LowerConfidence { z } = self.replacement {
            file.map_elites.z = Some(z);
        }
        // Off, the defaults still waiting for their floor (resolved before a run writes its
        // config.toml), or every setting written out.
        file.map_elites.adaptive = Some(AdaptiveField::Switch(self.floor_pending));
        if let Some(a) = self.adaptive.filter(|_| !self.floor_pending) {
            file.map_elites.adaptive = Some(AdaptiveField::Settings(AdaptiveFile {
                first_repetitions: Some(i64::from(a.first_repetitions)),
                step_repetitions: Some(i64::from(a.step_repetitions)),
                max_repetitions: Some(i64::from(a.max_repetitions)),
                se_fraction: Some(a.se_fraction),
                z: Some(a.z),
                placement_z: (a.placement_z != 0.0).then_some(a.placement_z),
                min_win_rate: (a.min_win_rate != 0.0).then_some(a.min_win_rate),
                floor_z: a.floor_z,
            }));
        }
        file.evaluation.levels = LevelsField::listed(levels);
        file.genome.scripts = Some(scripts.to_vec());
        if file.genome.values.is_none()
            && file.genome.range.is_none()
            && let Domain::Discrete(v) = &self.domain
        {
            file.genome.values = Some(v.clone());
        }
        if let EmitterKind::IsoLineDd {
            iso_sigma,
            line_sigma,
        } = self.emitter.kind
        {
            file.map_elites.iso_sigma = Some(iso_sigma);
            file.map_elites.line_sigma = Some(line_sigma);
        }
        toml::to_string(&file).map_err(|e| Error::config("config", e.to_string()))
    }
}

/// Whether `text`, a run directory's `config.toml`, is the run whose resolved config is
/// `resolved` as an earlier version wrote it, leaving out a value now written explicitly
/// (`emitter = "schedule"`, the `z` of `lower_confidence`): resolving `text` again gives
/// `resolved` byte for byte.
pub fn older_form_of(text: &str, resolved: &str) -> bool {
    let Ok(run) = RunConfig::parse_resolved(text, "run") else {
        return false;
    };
    let (LevelSet::List(levels), Some(scripts)) = (&run.levels, &run.scripts) else {
        return false;
    };
    run.resolved_toml(levels, scripts)
        .is_ok_and(|again| again == resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
seed = 1
[evaluation]
levels = [1590557911279]
repetitions = 2
[[features]]
name = "attacks"
min = 0
max = 20
step = 2
[[features]]
name = "support_balance"
min = -5
max = 5
step = 1
[map_elites]
random_init = 4
iterations = 10
"#;

    fn field_of(text: &str) -> String {
        match RunConfig::parse(text, "t") {
            Err(Error::Config { field, .. }) => field,
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("accepted:\n{text}"),
        }
    }

    #[test]
    fn a_good_config_parses_with_defaults() {
        let c = RunConfig::parse(GOOD, "quick").unwrap();
        assert_eq!(c.name, "quick");
        assert_eq!(c.features.len(), 2);
        assert_eq!(c.batch_size, 10);
        assert_eq!(c.baseline.to_string(), "mcts(budget=2000)");
        let resolved = c
            .resolved_toml(&["1590557911279".into()], &["spawn.defensive".into()])
            .unwrap();
        let again = RunConfig::parse(&resolved, "other").unwrap();
        assert_eq!(again.name, "quick");
        assert_eq!(again.scripts, Some(vec!["spawn.defensive".to_string()]));
    }

    /// The levels and one feature: every other field left to its default.
    const MINIMAL: &str = r#"
[evaluation]
levels = [1590557911279]

[[features]]
name = "attacks"
min = 0
max = 20
step = 2
"#;

    #[test]
    fn a_minimal_config_takes_the_documented_defaults() {
        let c = RunConfig::parse(MINIMAL, "minimal").unwrap();
        assert_eq!(c.name, "minimal");
        assert_eq!(c.game, GameKind::default());
        assert_eq!(c.seed, 1);
        assert_eq!(c.batch_size, 10);
        assert!(c.rules.is_empty());
        // One level listed: 20 games a genome.
        assert_eq!(c.repetitions, 20);
        assert_eq!(
            [1, 2, 3, 4, 5, 25].map(default_repetitions),
            [20, 10, 8, 6, 4, 2]
        );
        assert_eq!(
            c.player.to_string(),
            "pmcts(bias=true,pruning=false,budget=2000,expand=weighted,final=weighted,\
             persona=auto)"
        );
        assert_eq!(c.baseline.to_string(), "mcts(budget=2000)");
        assert_eq!(c.auto_field(), Some("persona"));
        let cal = c.calibration.clone().unwrap();
        assert_eq!((cal.strengths, cal.floor), (None, None));
        assert_eq!((cal.z, cal.repetitions, cal.chosen), (1.0, 20, None));
        assert_eq!(c.scripts, None);
        assert_eq!(c.domain, Domain::default());
        assert_eq!(
            c.emitter,
            EmitterConfig {
                one_hot: true,
                random_init: 40,
                iterations: 500,
                kind: EmitterKind::Schedule,
            }
        );
        assert_eq!(c.replacement, Replacement::Paper);
    }

    #[test]
    fn the_resolved_config_writes_every_default_and_parses_back_to_the_same_run() {
        let mut c = RunConfig::parse(MINIMAL, "minimal").unwrap();
        c.resolve_floor(&[2]);
        let scripts = ["spawn.strongest".to_string(), "research.roads".into()];
        let resolved = c
            .resolved_toml(&["1590557911279".into()], &scripts)
            .unwrap();
        for line in [
            "name = \"minimal\"",
            "game = \"tribes\"",
            "seed = 1",
            "batch_size = 10",
            "levels = [1590557911279]",
            "repetitions = 20",
            "player = \"pmcts(bias=true,pruning=false,budget=2000,expand=weighted,final=weighted,persona=auto)\"",
            "baseline = \"mcts(budget=2000)\"",
            "scripts = [\"spawn.strongest\", \"research.roads\"]",
            "values = [0.0, 0.25, 0.5, 0.75, 1.0]",
            "one_hot = true",
            "random_init = 40",
            "iterations = 500",
            "replacement = \"paper\"",
            "emitter = \"schedule\"",
            "[map_elites.adaptive]",
            "first_repetitions = 4",
            "max_repetitions = 20",
            "placement_z = 0.5",
            "min_win_rate = 0.5",
            "floor_z = 1.0",
        ] {
            assert!(
                resolved.lines().any(|l| l == line),
                "{line} in:\n{resolved}"
            );
        }
        let again = RunConfig::parse(&resolved, "other").unwrap();
        assert_eq!((again.adaptive, again.floor_pending), (c.adaptive, false));
        assert_eq!(
            (
                again.name.as_str(),
                again.game,
                again.seed,
                again.batch_size
            ),
            ("minimal", c.game, c.seed, c.batch_size)
        );
        assert_eq!(
            (again.levels.clone(), again.repetitions),
            (c.levels, c.repetitions)
        );
        assert_eq!((&again.player, &again.baseline), (&c.player, &c.baseline));
        assert_eq!(again.scripts, Some(scripts.to_vec()));
        assert_eq!(
            (again.domain.clone(), again.features.clone()),
            (c.domain, c.features)
        );
        assert_eq!(
            (again.emitter.clone(), again.replacement),
            (c.emitter, c.replacement)
        );
        // Resolving the resolved config changes nothing.
        assert_eq!(
            again
                .resolved_toml(&["1590557911279".into()], &scripts)
                .unwrap(),
            resolved
        );

        // `lower_confidence` without `z` resolves with its z.
        let text = format!("{MINIMAL}[map_elites]\nreplacement = \"lower_confidence\"\n");
        let mut c = RunConfig::parse(&text, "t").unwrap();
        c.resolve_floor(&[2]);
        assert_eq!(c.replacement, Replacement::LowerConfidence { z: 1.96 });
        let resolved = c.resolved_toml(&["1".into()], &scripts).unwrap();
        assert!(resolved.lines().any(|l| l == "z = 1.96"), "{resolved}");
        assert_eq!(
            RunConfig::parse(&resolved, "t").unwrap().replacement,
            c.replacement
        );
    }

    #[test]
    fn adaptive_sampling_is_on_by_default_with_a_fair_share_floor_and_can_be_turned_off() {
        let mut c = RunConfig::parse(MINIMAL, "t").unwrap();
        assert!(c.floor_pending);
        c.resolve_floor(&[2, 4]);
        let a = c.adaptive.unwrap();
        assert_eq!(
            (a.first_repetitions, a.step_repetitions, a.max_repetitions),
            (4, 4, 20)
        );
        assert_eq!((a.placement_z, a.floor_z), (0.5, Some(1.0)));
        assert!((a.min_win_rate - 0.375).abs() < 1e-12, "{}", a.min_win_rate);
        // A fifth of the games first (at least 2 per level), then rounds of as many.
        let many = MINIMAL.replace("[evaluation]", "[evaluation]\nrepetitions = 100");
        let a = RunConfig::parse(&many, "t").unwrap().adaptive.unwrap();
        assert_eq!((a.first_repetitions, a.max_repetitions), (20, 100));
        let one = MINIMAL.replace("[evaluation]", "[evaluation]\nrepetitions = 1");
        let a = RunConfig::parse(&one, "t").unwrap().adaptive.unwrap();
        assert_eq!((a.first_repetitions, a.max_repetitions), (1, 1));
        // `adaptive = true` is the default; `false` turns it off and resolves as written.
        let on = format!("{MINIMAL}[map_elites]\nadaptive = true\n");
        assert_eq!(
            RunConfig::parse(&on, "t").unwrap().adaptive,
            RunConfig::parse(MINIMAL, "t").unwrap().adaptive
        );
        let off = format!("{MINIMAL}[map_elites]\nadaptive = false\n");
        let c = RunConfig::parse(&off, "t").unwrap();
        assert_eq!((c.adaptive, c.floor_pending), (None, false));
        let resolved = c.resolved_toml(&["1".into()], &["a".into()]).unwrap();
        assert!(
            resolved.lines().any(|l| l == "adaptive = false"),
            "{resolved}"
        );
        assert_eq!(RunConfig::parse(&resolved, "t").unwrap().adaptive, None);
        // A table keeps its old meaning: no placement check or floor unless it names them.
        let table = format!("{MINIMAL}[map_elites.adaptive]\nfirst_repetitions = 2\n");
        let c = RunConfig::parse(&table, "t").unwrap();
        let a = c.adaptive.unwrap();
        assert_eq!(
            (a.placement_z, a.min_win_rate, a.floor_z, c.floor_pending),
            (0.0, 0.0, None, false)
        );
        // A run directory's config.toml without the key was bred without adaptive sampling,
        // and is the older form of the same run resolved now.
        let old = RunConfig::parse_resolved(GOOD, "t").unwrap();
        assert_eq!(old.adaptive, None);
        let resolved = old
            .resolved_toml(&["1590557911279".into()], &["a".into()])
            .unwrap();
        let written_before = resolved.replace("adaptive = false\n", "");
        assert_ne!(written_before, resolved);
        assert!(older_form_of(&written_before, &resolved));
        // Bad values name their field.
        for (text, field) in [
            (
                format!("{MINIMAL}[map_elites]\nadaptive = 3\n"),
                "map_elites.adaptive",
            ),
            (
                format!("{MINIMAL}[map_elites.adaptive]\nfloor_z = -1\n"),
                "map_elites.adaptive.floor_z",
            ),
            (
                format!("{MINIMAL}[map_elites.adaptive]\nfloor = 1\n"),
                "map_elites.adaptive",
            ),
        ] {
            let got = field_of(&text);
            assert!(got.starts_with(field), "{got} for {text}");
        }
    }

    #[test]
    fn the_budget_sets_the_default_agents_and_nothing_else() {
        let with = |lines: &str| MINIMAL.replace("[evaluation]", &format!("[evaluation]\n{lines}"));
        let c = RunConfig::parse(&with("budget = 300"), "t").unwrap();
        assert!(c.player.to_string().contains("budget=300,"), "{}", c.player);
        assert_eq!(c.baseline.to_string(), "mcts(budget=300)");
        let c = RunConfig::parse(&with("budget = 300\nplayer = \"sa0\""), "t").unwrap();
        assert_eq!(c.baseline.to_string(), "mcts(budget=300)");
        assert_eq!((c.player.to_string(), c.calibration), ("sa0".into(), None));
        let c = RunConfig::parse(&with("budget = 300\nbaseline = \"random\""), "t").unwrap();
        assert!(c.player.to_string().contains("budget=300,"), "{}", c.player);
        // Resolved: the agents named, the budget gone (it parses back without the error).
        let resolved = c.resolved_toml(&["1".into()], &["a".into()]).unwrap();
        assert!(!resolved.contains("budget = "), "{resolved}");
        assert_eq!(RunConfig::parse(&resolved, "t").unwrap().player, c.player);
        for bad in [
            "budget = 300\nplayer = \"sa0\"\nbaseline = \"sa0\"",
            "budget = 0",
            "budget = -3",
            "budget = 1000001",
            "budget = \"many\"",
        ] {
            assert_eq!(field_of(&with(bad)), "evaluation.budget", "{bad}");
        }
    }

    #[test]
    fn calibration_settings_and_auto_are_checked_naming_the_field() {
        let with = |player: &str, section: &str| {
            MINIMAL.replace(
                "[evaluation]",
                &format!("{section}\n[evaluation]\nplayer = \"{player}\""),
            )
        };
        let auto = "pmcts(persona=auto)";
        let c = RunConfig::parse(
            &with(
                auto,
                "[calibration]\nstrengths = [0, 0.5, 3]\nfloor = 0.4\nz = 1.96\nrepetitions = 2",
            ),
            "t",
        )
        .unwrap();
        let cal = c.calibration.unwrap();
        assert_eq!(cal.strengths, Some(vec![0.0, 0.5, 3.0]));
        assert_eq!((cal.floor, cal.z, cal.repetitions), (Some(0.4), 1.96, 2));
        // A calibrated run's config: a concrete player and the value chosen.
        let c = RunConfig::parse(
            &with(
                "pmcts(persona=3.0)",
                "[calibration]\nstrengths = [0, 3]\nchosen = 3.0",
            ),
            "t",
        )
        .unwrap();
        assert_eq!(c.auto_field(), None);
        assert_eq!(c.calibration.unwrap().chosen, Some(3.0));
        let cases = [
            (
                with(auto, "[calibration]\nstrengths = []"),
                "calibration.strengths",
            ),
            (
                with(auto, "[calibration]\nstrengths = [1, 0]"),
                "calibration.strengths",
            ),
            (
                with(auto, "[calibration]\nstrengths = [0, 0]"),
                "calibration.strengths",
            ),
            (
                with(auto, "[calibration]\nstrengths = [-1, 0]"),
                "calibration.strengths",
            ),
            (
                with(auto, "[calibration]\nstrengths = \"all\""),
                "calibration.strengths",
            ),
            (
                with(auto, "[calibration]\nfloor = 1.5"),
                "calibration.floor",
            ),
            (with(auto, "[calibration]\nz = -1"), "calibration.z"),
            (
                with(auto, "[calibration]\nrepetitions = 0"),
                "calibration.repetitions",
            ),
            (
                with(auto, "[calibration]\nrepetitions = 100001"),
                "calibration.repetitions",
            ),
            (
                with(auto, "[calibration]\nchosen = 1.0"),
                "calibration.chosen",
            ),
            (with(auto, "[calibration]\nwhat = 1"), "calibration.what"),
            (with("sa0", "[calibration]\nfloor = 0.5"), "calibration"),
            (
                with(
                    "pmcts(persona=2.0)",
                    "[calibration]\nstrengths = [0, 1]\nchosen = 2.0",
                ),
                "calibration.chosen",
            ),
            (
                with("pmcts(persona=auto,style=auto)", ""),
                "evaluation.player",
            ),
            (
                MINIMAL.replace(
                    "[evaluation]",
                    "[evaluation]\nbaseline = \"mcts(budget=auto)\"",
                ),
                "evaluation.baseline",
            ),
        ];
        for (text, field) in cases {
            assert_eq!(field_of(&text), field, "{text}");
        }
        let many = format!(
            "[calibration]\nstrengths = [{}]",
            (0..101)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert_eq!(field_of(&with(auto, &many)), "calibration.strengths");
    }

    #[test]
    fn a_config_resolved_before_emitters_were_written_is_the_same_run() {
        let mut c = RunConfig::parse(GOOD, "t").unwrap();
        c.resolve_floor(&[2]);
        let scripts = ["spawn.defensive".to_string()];
        let resolved = c.resolved_toml(&["1".into()], &scripts).unwrap();
        let old = resolved.replace("emitter = \"schedule\"\n", "");
        assert_ne!(old, resolved);
        assert!(older_form_of(&old, &resolved));
        assert!(older_form_of(&resolved, &resolved));
        let other = old.replace("iterations = 10", "iterations = 11");
        assert!(!older_form_of(&other, &resolved));
        assert!(!older_form_of("seed = ", &resolved));
    }

    /// GOOD with continuous weights over three scripts and `map_elites` lines added.
    fn continuous(map_elites: &str) -> String {
        GOOD.replace(
            "[evaluation]",
            "[genome]\nscripts = [\"a\", \"b\", \"c\"]\nrange = [0.0, 1.0]\n[evaluation]",
        )
        .replace(
            "[map_elites]",
            &format!("[map_elites]\nadaptive = false\n{map_elites}"),
        )
    }

    #[test]
    fn emitters_parse_with_pyribs_defaults_and_resolve_explicitly() {
        let c = RunConfig::parse(GOOD, "t").unwrap();
        assert_eq!(c.emitter.kind, EmitterKind::Schedule);
        let resolved = c.resolved_toml(&["1".into()], &["a".into()]).unwrap();
        assert!(resolved.contains("emitter = \"schedule\""), "{resolved}");

        let c = RunConfig::parse(&continuous("emitter = \"gaussian\"\nsigma = 0.1"), "t").unwrap();
        assert_eq!(
            c.emitter.kind,
            EmitterKind::Gaussian {
                sigma: Sigma::Same(0.1)
            }
        );
        let c = RunConfig::parse(
            &continuous("emitter = \"gaussian\"\nsigma = [0.1, 1, 0.3]"),
            "t",
        )
        .unwrap();
        assert_eq!(
            c.emitter.kind,
            EmitterKind::Gaussian {
                sigma: Sigma::PerWeight(vec![0.1, 1.0, 0.3])
            }
        );

        let c = RunConfig::parse(&continuous("emitter = \"iso_line_dd\""), "t").unwrap();
        assert_eq!(
            c.emitter.kind,
            EmitterKind::IsoLineDd {
                iso_sigma: 0.01,
                line_sigma: 0.2
            }
        );
        let scripts = ["a".to_string(), "b".into(), "c".into()];
        let resolved = c.resolved_toml(&["1".into()], &scripts).unwrap();
        assert!(resolved.contains("iso_sigma = 0.01"), "{resolved}");
        assert!(resolved.contains("line_sigma = 0.2"), "{resolved}");
        assert_eq!(RunConfig::parse(&resolved, "t").unwrap().emitter, c.emitter);
        let me = c.map_elites(&scripts).unwrap();
        assert_eq!(me.emitter, c.emitter);
    }

    #[test]
    fn bad_emitter_fields_are_named() {
        let cases = [
            (continuous("emitter = \"cma_es\""), "map_elites.emitter"),
            (continuous("emitter = \"gaussian\""), "map_elites.sigma"),
            (
                continuous("emitter = \"gaussian\"\nsigma = -0.1"),
                "map_elites.sigma",
            ),
            (
                continuous("emitter = \"gaussian\"\nsigma = \"wide\""),
                "map_elites.sigma",
            ),
            (
                continuous("emitter = \"gaussian\"\nsigma = [0.1, 0, 0.1]"),
                "map_elites.sigma[1]",
            ),
            (
                continuous("emitter = \"gaussian\"\nsigma = [0.1, 0.1]"),
                "map_elites.sigma",
            ),
            (
                continuous("emitter = \"iso_line_dd\"\niso_sigma = 0"),
                "map_elites.iso_sigma",
            ),
            (
                continuous("emitter = \"iso_line_dd\"\nline_sigma = -1"),
                "map_elites.line_sigma",
            ),
            (continuous("sigma = 0.1"), "map_elites.sigma"),
            (
                continuous("emitter = \"gaussian\"\nsigma = 0.1\niso_sigma = 0.1"),
                "map_elites.iso_sigma",
            ),
            (
                continuous("emitter = \"iso_line_dd\"\nsigma = 0.1"),
                "map_elites.sigma",
            ),
            (
                GOOD.replace("[map_elites]", "[map_elites]\nemitter = \"iso_line_dd\""),
                "map_elites.emitter",
            ),
        ];
        for (text, field) in cases {
            assert_eq!(field_of(&text), field, "{text}");
        }
        // Without a script list the number of weights is the game's: a σ list is checked
        // against it when the engine's configuration is built.
        let text = GOOD.replace("[evaluation]", "[genome]\nrange = [0.0, 1.0]\n[evaluation]");
        let text = text.replace(
            "[map_elites]",
            "[map_elites]\nemitter = \"gaussian\"\nsigma = [0.1, 0.1]",
        );
        let mut c = RunConfig::parse(&text, "t").unwrap();
        c.resolve_floor(&[2]);
        match c.map_elites(&["a".into(), "b".into(), "c".into()]) {
            Err(Error::Config { field, .. }) => assert_eq!(field, "map_elites.sigma"),
            other => panic!("{other:?}"),
        }
        c.map_elites(&["a".into(), "b".into()]).unwrap();
    }

    #[test]
    fn a_weight_range_is_exactly_two_numbers() {
        let with_range = |range: &str| {
            GOOD.replace(
                "[evaluation]",
                &format!("[genome]\nrange = {range}\n[evaluation]"),
            )
        };
        let c = RunConfig::parse(&with_range("[0.0, 0.5]"), "t").unwrap();
        assert_eq!(c.domain, Domain::Range { lo: 0.0, hi: 0.5 });
        for range in ["[0.0, 0.5, 2.0]", "[0.5]", "[]"] {
            assert_eq!(field_of(&with_range(range)), "genome.range", "{range}");
        }
    }

    #[test]
    fn counts_above_their_maxima_name_the_field_before_anything_is_allocated() {
        let cases = [
            (
                GOOD.replace("repetitions = 2", "repetitions = 4294967295"),
                "evaluation.repetitions",
            ),
            (
                GOOD.replace("seed = 1", "seed = 1\nbatch_size = 1000000000"),
                "batch_size",
            ),
            (
                GOOD.replace("iterations = 10", "iterations = 9223372036854775807"),
                "map_elites.iterations",
            ),
            (
                GOOD.replace("random_init = 4", "random_init = 1000001"),
                "map_elites.random_init",
            ),
            (
                GOOD.replace("random_init = 4", "random_init = 600000")
                    .replace("iterations = 10", "iterations = 600000"),
                "map_elites.iterations",
            ),
            // One batch of 200,000 genomes × 1 level × 10 repetitions is 2,000,000 games.
            (
                GOOD.replace("seed = 1", "seed = 1\nbatch_size = 200000")
                    .replace("repetitions = 2", "repetitions = 10"),
                "batch_size",
            ),
            (
                GOOD.replace(
                    "levels = [1590557911279]",
                    &format!("levels = [{}]", vec!["1"; 10_001].join(", ")),
                ),
                "evaluation.levels",
            ),
            // 263 cells on an axis: more than a heatmap draws.
            (GOOD.replace("step = 2", "step = 0.075"), "features[0].step"),
            (GOOD.replace("step = 2", "bins = 201"), "features[0].bins"),
            (
                GOOD.replace("step = 2", "bins = 9223372036854775807"),
                "features[0].bins",
            ),
        ];
        for (text, field) in cases {
            assert_eq!(field_of(&text), field, "{text}");
        }
        // At the maxima, and with a resolved "paper" level set checked the same way.
        let c = RunConfig::parse(
            &GOOD
                .replace("step = 2", "bins = 200")
                .replace("repetitions = 2", "repetitions = 100000"),
            "t",
        )
        .unwrap();
        c.check_batch_games(1).unwrap();
        match c.check_batch_games(25) {
            Err(Error::Config { field, reason }) => {
                assert_eq!(field, "evaluation.repetitions");
                assert!(
                    reason.contains("25 levels × 100000 repetitions"),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_configs_name_the_field() {
        let cases = [
            (GOOD.replace("\"attacks\"", "\" \""), "features[0].name"),
            (
                GOOD.replace("levels = [1590557911279]", "levels = []"),
                "evaluation.levels",
            ),
            (GOOD.replace("max = 20", "max = 0"), "features[0].max"),
            (
                GOOD.replace("random_init = 4", "random_init = -4"),
                "map_elites.random_init",
            ),
            (
                GOOD.replace("iterations = 10", "iterations = -1"),
                "map_elites.iterations",
            ),
            (
                GOOD.replace("repetitions = 2", "repetitions = 0"),
                "evaluation.repetitions",
            ),
            (
                GOOD.replace("seed = 1", "seed = 1\nbatch_size = 0"),
                "batch_size",
            ),
            (GOOD.replace("step = 2", "bins = 0"), "features[0].bins"),
            (
                GOOD.replace("step = 2", "step = 2\nbins = 3"),
                "features[0].step",
            ),
            (GOOD.replace("seed = 1", "seed = 1\ncolour = 2"), "colour"),
            (
                GOOD.replace("[map_elites]", "[map_elites]\nreplacement = \"best\""),
                "map_elites.replacement",
            ),
            (
                GOOD.replace("repetitions = 2", "repetitions = 2\nplayer = \"pmcts(\""),
                "evaluation.player",
            ),
        ];
        for (text, field) in cases {
            assert_eq!(field_of(&text), field, "{text}");
        }
        let c = RunConfig::parse(
            &GOOD.replace(
                "[evaluation]",
                "[genome]\nscripts = [\"spawn.nope\"]\n[evaluation]",
            ),
            "t",
        )
        .unwrap();
        match c.check_scripts(&["spawn.defensive"]) {
            Err(Error::Config { field, .. }) => assert_eq!(field, "genome.scripts[0]"),
            other => panic!("{other:?}"),
        }
    }
}

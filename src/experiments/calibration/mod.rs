//! Calibration of the player's style strength: before a run breeds, it measures on its own
//! training levels, against its own baseline, how far the extreme genomes steer play and how
//! well they still play at a ladder of style strengths, and keeps the strongest style that
//! still plays well.
//!
//! **The field.** An agent declares which field of its spec is its style strength, and the
//! ladder of values to try ([`StyleField`]: Portfolio MCTS its `persona`, Puerto Rico's
//! `persona` and `thinking` their `style`, Prismata's Portfolio MCTS players theirs). A run
//! whose player says `auto` for that field (the default player does: `persona=auto`) is
//! calibrated; `auto` on any other field, or for an agent that declares none, is refused
//! naming `evaluation.player`.
//!
//! **What is played** ([`stage`]), on the training levels × `repetitions` games per genome, the
//! player (participant 0) against the baseline in every other seat, seats rotated, every genome
//! on the same games (common random numbers: the series seed `derive_seed(run seed,
//! [CALIBRATION_TAG])`, [`series_seed`]), exactly as `evolve` plays a genome:
//!
//! 1. at the top of the ladder, where steering is strongest, the genomes `sensitivity` plays
//!    to measure each weight's effect: `mid`, `all-low`, `all-high`, and `low:u`, `high:u`
//!    per evolved script ([`super::sensitivity::probes`]);
//! 2. from those effects, per feature `F`, the extreme genomes `min:F` and `max:F`
//!    ([`super::sensitivity::extreme_probes`]: every weight that clearly moves `F` at its end),
//!    then these extremes at every strength of the ladder (a genome with the spec of one
//!    already played takes over its games).
//!
//! **The choice** ([`tradeoff`]). At each strength: each extreme's win rate (draws are
//! non-wins) with its Wilson interval at `z`, and the *style spread* per feature, `max:F` −
//! `min:F` (paired over the games, in cell widths of the map's axis, with its 95 % interval). A
//! strength *passes* when every extreme's lower bound is at least the *floor*. The strength
//! chosen is the strongest before the first that fails ([`tradeoff::choose`]): the win rate
//! falls as the style grows, so a rung that passes above one that failed is most likely noise
//! on a style too strong. If the weakest fails, it is chosen all the same, and said so.
//!
//! **Settings** (`[calibration]` of the run config, every one optional; a resolved
//! `config.toml` writes them all): `strengths` (default: the player's declared ladder),
//! `floor` (default: a fair share of the training levels, the mean of 1 / players: half of a
//! two-player game), `z` (default [`DEFAULT_CALIBRATION_Z`]), `repetitions` (default the
//! evaluation's), and `chosen`, written by the calibration.
//!
//! **Outputs** in the run directory, each written atomically: `calibration.csv`
//! ([`CALIBRATION_CSV`]: a row per strength × genome played, as `sensitivity_genomes.csv`
//! with a leading `strength` column and the win rate's interval at `z`),
//! `calibration_strengths.csv` ([`STRENGTHS_CSV`], [`tradeoff::Tradeoff::table`]),
//! `calibration.png` and `.svg` (spread and lowest lower bound against strength, the floor and
//! the strength chosen marked), then `config.toml` again, the player naming the strength
//! chosen in place of `auto` and `[calibration]` its `chosen`: the completion record, which
//! `validate`, `reevaluate`, `tiers`, `report` and `ladder` read as any concrete player.
//!
//! **Interruptions.** `config.toml` is written first, with `auto`; the calibration's tasks
//! carry its fingerprint. Each genome's games are saved to `calibration.journal.json`
//! ([`JOURNAL_JSON`]) as they are played (bound to the same fingerprint); `--resume` continues
//! from it. Once `config.toml` records the strength chosen, the journal is deleted; a run
//! resumed after a kill at any point ends byte-identical to an uninterrupted one, whatever the
//! thread count. Through `ask`/`work`/`tell` the calibration is the first stage: `ask` writes
//! its games as task files (`batches/calibration-0/`, then `calibration-1/`), `tell` folds
//! their results into the journal and, after the last, chooses; the run directory then holds
//! what `evolve` writes, byte for byte.
//!
//! `sensitivity --strengths` draws the same trade-off ([`tradeoff`], [`chart`]) from its own
//! games.

pub mod chart;
pub mod stage;
pub mod tradeoff;

use crate::agent::{AgentSpec, SearchSupport, StyleField, Value};
use crate::agents::style_field;
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::derive_seed;

use super::run_config::{AUTO, CalibrationConfig, CalibrationFile};

pub use super::run_config::DEFAULT_CALIBRATION_Z;
pub use stage::{Calibrated, recorded, tidy};
pub use tradeoff::{Tradeoff, choose};

/// The table of genomes played, one row per strength × genome.
pub const CALIBRATION_CSV: &str = "calibration.csv";
/// The table of strengths: lowest lower bound, spread per feature, passes, chosen.
pub const STRENGTHS_CSV: &str = "calibration_strengths.csv";
/// The chart's PNG file.
pub const CHART_PNG: &str = "calibration.png";
/// The chart's SVG file.
pub const CHART_SVG: &str = "calibration.svg";
/// The journal of a calibration under way.
pub const JOURNAL_JSON: &str = "calibration.journal.json";

/// Every file a calibration writes into a run directory (the journal only while it runs).
pub const CALIBRATION_FILES: [&str; 5] = [
    CALIBRATION_CSV,
    STRENGTHS_CSV,
    CHART_PNG,
    CHART_SVG,
    JOURNAL_JSON,
];

/// Tag of the calibration's seed ("calibra" in ASCII); see [`series_seed`].
pub const CALIBRATION_TAG: u64 = 0x0063_616c_6962_7261;

/// The series seed every calibration genome plays: `derive_seed(run seed,
/// [CALIBRATION_TAG])`, apart from the run's evaluations (`derive_seed(run seed, [i])`).
pub fn series_seed(run_seed: u64) -> u64 {
    derive_seed(run_seed, &[CALIBRATION_TAG])
}

/// A calibration's settings, resolved for the game and the run's levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// The player's style-strength field.
    pub field: String,
    /// The strengths tried, ascending.
    pub strengths: Vec<f64>,
    /// The least lower bound every extreme must reach.
    pub floor: f64,
    /// Width of the win rate's Wilson interval.
    pub z: f64,
    /// Games per level of each genome.
    pub repetitions: u32,
}

impl Calibration {
    /// The settings of `config` for a player whose style strength is `style`, on levels of
    /// `players` players each: the declared ladder and the fair share ([`fair_share`]) where
    /// `config` gives none.
    pub fn resolve(config: &CalibrationConfig, style: StyleField, players: &[usize]) -> Self {
        Calibration {
            field: style.field.to_string(),
            strengths: config
                .strengths
                .clone()
                .unwrap_or_else(|| style.ladder.to_vec()),
            floor: config.floor.unwrap_or_else(|| fair_share(players)),
            z: config.z,
            repetitions: config.repetitions,
        }
    }

    /// The strongest strength of the ladder, where the weights' effects are measured.
    pub fn top(&self) -> f64 {
        self.strengths.last().copied().unwrap_or(0.0)
    }

    /// `[calibration]` as a resolved `config.toml` writes it, `chosen` once chosen.
    pub fn file(&self, chosen: Option<f64>) -> CalibrationFile {
        CalibrationFile {
            strengths: Some(self.strengths.clone()),
            floor: Some(self.floor),
            z: Some(self.z),
            repetitions: Some(i64::from(self.repetitions)),
            chosen,
        }
    }

    /// Checks that the calibration's games (every genome it may play × `per_genome` games) are
    /// at most [`limits::MAX_GAMES`]: the first genomes (3 + 2 per evolved script of
    /// `scripts`) and two extremes per feature of `features` at every strength.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `calibration.repetitions`, showing the product.
    pub fn check_games(&self, scripts: usize, features: usize, levels: usize) -> Result<()> {
        let genomes = 3 + 2 * scripts as u64 + 2 * (features * self.strengths.len()) as u64;
        limits::games(
            &[
                (genomes, "genomes"),
                (levels as u64, "levels"),
                (u64::from(self.repetitions), "repetitions"),
            ],
            "calibration.repetitions",
        )
        .map(|_| ())
    }
}

/// The fair share of a game's wins on levels of `players` players each: the mean of
/// 1 / players (½ for two-player levels); 1 without levels.
pub fn fair_share(players: &[usize]) -> f64 {
    if players.is_empty() {
        return 1.0;
    }
    players.iter().map(|&n| 1.0 / n.max(1) as f64).sum::<f64>() / players.len() as f64
}

/// `spec` with its field `field` set to the strength `s` (a number with a point: `2.0`).
pub fn at_strength(spec: &AgentSpec, field: &str, s: f64) -> AgentSpec {
    let mut spec = spec.clone();
    spec.set(field, Value::Float(s));
    spec
}

/// The style strength of the player `spec` for `game` as a run uses it: `None` for a player
/// without `auto` (and without a calibration to check), else its declared field, which must
/// be the one that says `auto` (`auto`), or, for a calibrated run (`chosen`), the one whose
/// value is `chosen`.
///
/// # Errors
///
/// [`Error::Config`] naming `field` (the setting that gave the player) for `auto` on a field
/// that is not the agent's style strength, or on an agent that declares none;
/// naming `calibration.chosen` if the calibrated player's style strength is not `chosen`.
pub fn style_of<G: SearchSupport>(
    game: &G,
    spec: &AgentSpec,
    auto: Option<&str>,
    chosen: Option<f64>,
    field: &str,
) -> Result<Option<StyleField>> {
    if auto.is_none() && chosen.is_none() {
        return Ok(None);
    }
    let declared = style_field(game, spec);
    if let Some(key) = auto {
        return match declared {
            Some(style) if style.field == key => Ok(Some(style)),
            Some(style) => Err(Error::config(
                field,
                format!(
                    "`{key}={AUTO}`: `{key}` is not the style strength of `{}`, which is `{}` \
                     (only the style strength is calibrated)",
                    spec.name(),
                    style.field
                ),
            )),
            None => Err(Error::config(
                field,
                format!(
                    "`{key}={AUTO}`: `{}` declares no style strength to calibrate",
                    spec.name()
                ),
            )),
        };
    }
    let chosen = chosen.unwrap_or_default();
    let value = declared.and_then(|style| {
        spec.fields()
            .iter()
            .find(|(k, _)| k == style.field)
            .map(|(_, v)| v.clone())
    });
    match (declared, value) {
        (Some(style), Some(Value::Float(x))) if x == chosen => Ok(Some(style)),
        _ => Err(Error::config(
            "calibration.chosen",
            format!("the calibrated player `{spec}` does not set its style strength to {chosen:?}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fair_share_is_the_mean_of_one_over_the_players() {
        assert_eq!(fair_share(&[2, 2]), 0.5);
        assert_eq!(fair_share(&[4]), 0.25);
        assert_eq!(fair_share(&[2, 4]), 0.375);
        assert_eq!(fair_share(&[]), 1.0);
    }

    #[test]
    fn a_strength_replaces_auto_in_place_with_a_point() {
        let spec = AgentSpec::parse("pmcts(budget=5,persona=auto,bias=true)").unwrap();
        let at = at_strength(&spec, "persona", 2.0);
        assert_eq!(at.to_string(), "pmcts(budget=5,persona=2.0,bias=true)");
        assert_eq!(AgentSpec::parse(&at.to_string()).unwrap(), at);
        let set = at_strength(&AgentSpec::parse("persona").unwrap(), "style", 0.25);
        assert_eq!(set.to_string(), "persona(style=0.25)");
    }

    #[test]
    fn settings_resolve_to_the_declared_ladder_and_the_fair_share() {
        let style = StyleField {
            field: "persona",
            ladder: &[0.0, 1.0],
        };
        let config = CalibrationConfig {
            strengths: None,
            floor: None,
            z: 1.0,
            repetitions: 3,
            chosen: None,
        };
        let c = Calibration::resolve(&config, style, &[2]);
        assert_eq!(
            (c.field.as_str(), c.strengths.clone()),
            ("persona", vec![0.0, 1.0])
        );
        assert_eq!((c.floor, c.z, c.repetitions, c.top()), (0.5, 1.0, 3, 1.0));
        let given = CalibrationConfig {
            strengths: Some(vec![0.5]),
            floor: Some(0.3),
            ..config
        };
        let c = Calibration::resolve(&given, style, &[2]);
        assert_eq!((c.strengths.clone(), c.floor), (vec![0.5], 0.3));
        let file = c.file(Some(0.5));
        assert_eq!(file.chosen, Some(0.5));
        assert_eq!(file.repetitions, Some(3));
        // 1,000,001 games: 3 + 2·10 + 2·2·1 = 27 genomes × 37,038 games is over the maximum.
        let many = Calibration {
            repetitions: 37_038,
            ..c
        };
        let e = many.check_games(10, 2, 1).unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "calibration.repetitions"),
            "{e}"
        );
        many.check_games(10, 2, 0).unwrap();
    }
}

//! `playstyles sensitivity CONFIG`: how far each evolved weight steers the player. For a
//! MAP-Elites run config (the one `evolve` reads) it plays a few fixed genomes and measures,
//! per weight, how much moving it from its lowest to its highest value moves every feature of
//! the map and the win rate, and how far the weights together can push each feature.
//!
//! **Genomes.** With `lo`, `hi` the smallest and largest weight of the config's `[genome]`
//! domain and `mid = (lo + hi) / 2`:
//!
//! - `mid`: every evolved weight at `mid`;
//! - `all-low`, `all-high`: every weight at `lo`, at `hi`;
//! - per *unit* `u`, `low:u` and `high:u`: the weights of `u` at `lo` (at `hi`), the others at
//!   `mid`. A unit is one evolved script, or a named group of them (`--group
//!   NAME=SCRIPT+SCRIPT`, repeatable), which then moves as one; scripts in no group are units
//!   of their own, in genome order (a group stands where its first script stands);
//! - per feature `F`, once the genomes above are played, `min:F` and `max:F`: the genome that
//!   pushes `F` down and the one that pushes it up as far as the measured effects show. In
//!   `max:F` each unit stands at `hi` where its effect on `F` (`high:u` − `low:u`) is clearly
//!   positive — its 95 % interval lies above 0 —, at `lo` where clearly negative, and at `mid`
//!   where the interval spans 0 (or there is none); `min:F` is its mirror image
//!   ([`extreme_probes`]). `all-low`/`all-high` are no such test: where the weights act
//!   relatively a uniform scale changes nothing, and the units pull features different ways.
//!   Units whose interval spans 0 stay at `mid` rather than follow the sign of their point
//!   estimate because the extremes are played on the same games that measured the effects: a
//!   sign chosen from those games' noise is right for those games, so `max:F` − `min:F` would
//!   gain the size of every unit's noise and overstate the steering. With the interval rule
//!   the extremes combine only effects the measurement has shown, and are both `mid` (effect
//!   0) where none has. An extreme with the weights of a genome already played (`mid`, or
//!   `low:u`/`high:u` where only `u` is clear) takes over its games, which are the very games
//!   it would play.
//!
//! **Games.** Each genome plays the config's evaluation as `evolve` would play it
//! ([`evaluate_player`](super::evaluate::evaluate_player)'s games: the player spec carrying the
//! genome's weights, [`AgentSpec::with_script_weights`], against the baseline in every other
//! seat, seats rotated, on the training levels × `repetitions`), with the *same* series seed for
//! every genome: `derive_seed(S, [SENSITIVITY_TAG])`, `S` being `--seed` or the run seed. Game
//! `j` of every genome is thus the same level, seat and dice (common random numbers), and an
//! effect is measured on paired games. `--repetitions` and `--player` replace the config's, to
//! tighten the intervals or to measure a variant of the player on the same map. Genomes and
//! games run in parallel on `--threads` threads; the results do not depend on their number.
//!
//! **Outputs**, written atomically into the output folder (default
//! `results/<config name>-sensitivity/`; never over earlier results without `--force`):
//!
//! - `sensitivity_genomes.csv` ([`GENOMES_CSV`]): one row per genome: `genome` (its label),
//!   `weight_<script>` per evolved script, `games`, `wins`, `draws`, `win_rate` with its 95 %
//!   Wilson interval `win_rate_lo`, `win_rate_hi` (draws are non-wins), and per feature `f`:
//!   `<f>_mean`, its 95 % interval `<f>_lo`, `<f>_hi` (Student's t over the games where it is
//!   defined), `<f>_sd` and `<f>_games`.
//! - `sensitivity_effects.csv` ([`EFFECTS_CSV`]): one row per unit and measure (the win rate,
//!   then each feature), and the same for `all` (`all-high` − `all-low`): `unit`, `scripts`
//!   (its scripts joined by `+`), `measure`, `low_mean`, `high_mean`, `effect` (high − low,
//!   the mean of the paired per-game differences), its 95 % interval `effect_lo`, `effect_hi`
//!   (Student's t over the `pairs`: the games where both genomes have the measure), `pairs`,
//!   `cell_width` (the feature's cell width on the map; empty for the win rate) and the effect
//!   and its interval in cell widths `effect_cells`, `effect_cells_lo`, `effect_cells_hi`.
//!   Then per feature `F` the rows of unit `extremes:F`: `max:F` − `min:F` (`low_mean` is
//!   `min:F`'s, `high_mean` `max:F`'s) on the win rate and every feature; their `scripts` are
//!   those the two genomes set apart (empty if none). Intervals of fewer than two pairs are
//!   empty.
//! - `sensitivity.png` and `sensitivity.svg`: one panel per feature, a bar per unit (then
//!   `all` and the extremes) of its effect in cell widths with its interval, and a panel of the
//!   win-rate effects.
//!
//! The effects are printed too, in cell widths.
//!
//! **Trade-off** (`--strengths LIST|auto`, and by default for a player whose style strength
//! says `auto`): the extremes are also played at every strength of the ladder (`auto`: the
//! config's `[calibration] strengths`, else the player's declared ladder), and
//! `sensitivity_strengths.csv`, `sensitivity_strengths.png` and `.svg` hold their trade-off as
//! a run's calibration writes it ([`crate::experiments::calibration::Tradeoff`]: per strength
//! the extremes' lowest win-rate lower bound, the style spread per feature, passes and the
//! strength a calibration would choose, with the config's floor and `z` or their defaults).
//! A player that says `auto` plays the other genomes at the top of the ladder. The ladder, floor
//! and `z` are settings of the journal and the completion record.
//!
//! **Interruptions.** Each genome's games are saved to `sensitivity.journal.json` as soon as
//! they are played; `--resume` continues a killed run from it. The journal records what the
//! games and tables depend on: the game, a fingerprint of its resolved `[rules]`, the levels,
//! `--repetitions`, the series seed, the player, the baseline, the `[genome]` domain and
//! scripts, the groups and the feature axes; resuming with any of them changed is refused,
//! naming it. An entry is taken only if it holds the games every genome plays (levels ×
//! repetitions, each with every feature); otherwise the journal is damaged, an error naming
//! it. The extremes follow from the other genomes' games, so a resumed run rebuilds the same
//! ones (a journalled extreme is kept only if its spec, weights included, is the one rebuilt).
//! Once the tables and the chart are written, the completion record `sensitivity.done.json`
//! ([`DONE_JSON`]: the journal's settings) is written last and the journal deleted. `--resume`
//! of a finished measurement is then nothing to do (exit 0, nothing written) if the record
//! holds the settings asked for, and an error naming the setting otherwise; outputs without a
//! record (an older version's) are finished, their settings unchecked. `--force` removes only
//! the files listed here, the journal and the record: anything else in the folder stays.
//!
//! **Bounds.** Every genome's games, the extremes included (genomes × levels ×
//! repetitions), are checked against [`limits::MAX_GAMES`] before any genome is built or
//! played.
//!
//! **The genome.** The `[genome]` domain is checked as `evolve` checks it (the config is read
//! by [`EvolveConfig::load`]; [`crate::qd::Domain::validate`]): at least two values, ascending,
//! or a range with `lo < hi`, so `lo` and `hi` are the smallest and largest weights.
//!
//! `run.rs` plays the genomes, journals them ([`crate::experiments::journal`]) and writes the
//! files, `tables.rs` computes the intervals and the tables, `chart.rs` draws the chart.

use std::path::{Path, PathBuf};

use super::GameKind;
use super::evolve::EvolveConfig;
use super::run_config::{AUTO, RunConfig, auto_fields, check_strengths};
use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::limits;

mod chart;
mod run;
pub mod tables;

pub use run::{
    SENSITIVITY_TAG, STRENGTHS_CSV, STRENGTHS_PNG, STRENGTHS_SVG, sensitivity, series_seed,
};
pub use tables::{EFFECTS_CSV, Effect, GENOMES_CSV, GenomeGames, PlayedGame, Sensitivity};

/// The chart's PNG file.
pub const CHART_PNG: &str = "sensitivity.png";
/// The chart's SVG file.
pub const CHART_SVG: &str = "sensitivity.svg";
/// The journal of a measurement under way.
pub const JOURNAL_JSON: &str = "sensitivity.journal.json";
/// The completion record of a finished measurement, written after its tables and chart.
pub const DONE_JSON: &str = "sensitivity.done.json";

/// Validated settings of `playstyles sensitivity`.
#[derive(Clone, Debug, PartialEq)]
pub struct SensitivityConfig {
    /// The run config measured.
    pub run: RunConfig,
    /// Where the config came from, for messages.
    pub source: String,
    /// The output folder.
    pub out: PathBuf,
    /// Games per level (`None`: the config's `repetitions`).
    pub repetitions: Option<u32>,
    /// The player spec, without weights (`None`: the config's `evaluation.player`).
    pub player: Option<AgentSpec>,
    /// Named groups of scripts that move together: (name, scripts).
    pub groups: Vec<(String, Vec<String>)>,
    /// The seed the games derive from (`None`: the run seed).
    pub seed: Option<u64>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace earlier results in the output folder.
    pub force: bool,
    /// Continue an interrupted measurement from its journal.
    pub resume: bool,
    /// Play at most this many genomes, then stop as if killed (for tests of `--resume`).
    pub stop_after_genomes: Option<u64>,
    /// `--strengths`: the style strengths whose trade-off to draw (`None`: the ladder where
    /// the player says `auto`, else none).
    pub strengths: Option<Strengths>,
}

/// The style strengths of `--strengths`.
#[derive(Clone, Debug, PartialEq)]
pub enum Strengths {
    /// `auto`: the config's `[calibration] strengths`, else the player's declared ladder.
    Auto,
    /// These strengths, ascending.
    List(Vec<f64>),
}

/// Parses `--strengths`: `auto` or a comma-separated list of strengths (checked as
/// [`check_strengths`]).
///
/// # Errors
///
/// [`Error::Config`] naming `--strengths` for anything else.
pub fn parse_strengths(flag: Option<&str>) -> Result<Option<Strengths>> {
    let Some(text) = flag else {
        return Ok(None);
    };
    if text.trim() == AUTO {
        return Ok(Some(Strengths::Auto));
    }
    let list = text
        .split(',')
        .map(|s| {
            s.trim().parse::<f64>().map_err(|_| {
                Error::config(
                    "--strengths",
                    format!(
                        "`{}` is not a number (give `auto` or a list such as 0,1,2)",
                        s.trim()
                    ),
                )
            })
        })
        .collect::<Result<Vec<f64>>>()?;
    check_strengths(&list, "--strengths")?;
    Ok(Some(Strengths::List(list)))
}

impl SensitivityConfig {
    /// Reads the run config at `path` ([`EvolveConfig::load`]); the output folder is `out` or
    /// `results/<config name>-sensitivity/`; the config's repetitions and player, the run seed,
    /// one thread per core, a progress bar, nothing overwritten or resumed.
    ///
    /// # Errors
    ///
    /// As [`EvolveConfig::load`].
    pub fn load(path: &Path, out: Option<PathBuf>) -> Result<Self> {
        let loaded = EvolveConfig::load(Some(path), None)?;
        let out = out.unwrap_or_else(|| {
            Path::new("results").join(format!("{}-sensitivity", loaded.run.name))
        });
        Ok(SensitivityConfig {
            run: loaded.run,
            source: loaded.source,
            out,
            repetitions: None,
            player: None,
            groups: Vec::new(),
            seed: None,
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_genomes: None,
            strengths: None,
        })
    }

    /// The game the config names.
    pub fn game(&self) -> GameKind {
        self.run.game
    }

    /// Games per level: `--repetitions` or the config's.
    pub fn repetitions(&self) -> u32 {
        self.repetitions.unwrap_or(self.run.repetitions)
    }

    /// The player spec without weights: `--player` or the config's.
    pub fn player(&self) -> &AgentSpec {
        self.player.as_ref().unwrap_or(&self.run.player)
    }

    /// The field naming the player in errors.
    pub fn player_field(&self) -> &'static str {
        if self.player.is_some() {
            "--player"
        } else {
            "evaluation.player"
        }
    }
}

/// Checks `--repetitions`.
///
/// # Errors
///
/// [`Error::Config`] naming `--repetitions` if it is 0 or above [`limits::MAX_REPETITIONS`].
pub fn check_repetitions(repetitions: Option<u32>) -> Result<Option<u32>> {
    if let Some(r) = repetitions {
        if r == 0 {
            return Err(Error::config("--repetitions", "must be at least 1"));
        }
        limits::at_most(u64::from(r), limits::MAX_REPETITIONS, "--repetitions")?;
    }
    Ok(repetitions)
}

/// Parses `--player` (the spec is built, and so checked further, before any game).
///
/// # Errors
///
/// [`Error::Config`] naming `--player` if the spec does not parse or already has weights.
pub fn parse_player(player: Option<&str>) -> Result<Option<AgentSpec>> {
    let Some(text) = player else {
        return Ok(None);
    };
    let spec = AgentSpec::parse(text).map_err(|e| Error::config("--player", reason_of(e)))?;
    if spec.fields().iter().any(|(k, _)| k == "weights") {
        return Err(Error::config(
            "--player",
            "give the spec without `weights`: the genomes set them",
        ));
    }
    if let [_, _, ..] = auto_fields(&spec)[..] {
        return Err(Error::config(
            "--player",
            "`auto` on more than one field: only the style strength takes it",
        ));
    }
    Ok(Some(spec))
}

/// Parses the `--group NAME=SCRIPT+SCRIPT...` flags into (name, scripts) (checked against the
/// evolved scripts later, [`units`]).
///
/// # Errors
///
/// [`Error::Config`] naming `--group` for a flag without `=`, an empty or repeated name,
/// an empty member, or no member.
pub fn parse_groups(flags: &[String]) -> Result<Vec<(String, Vec<String>)>> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for flag in flags {
        let bad = |why: &str| {
            Error::config(
                "--group",
                format!("`{flag}`: {why} (give NAME=SCRIPT+SCRIPT...)"),
            )
        };
        let (name, members) = flag.split_once('=').ok_or_else(|| bad("no `=`"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("the group has no name"));
        }
        if groups.iter().any(|(n, _)| n == name) {
            return Err(bad("a group of this name comes twice"));
        }
        let members: Vec<String> = members.split('+').map(|m| m.trim().to_string()).collect();
        if members.iter().all(String::is_empty) {
            return Err(bad("the group is empty"));
        }
        if members.iter().any(String::is_empty) {
            return Err(bad("a member is empty"));
        }
        groups.push((name.to_string(), members));
    }
    Ok(groups)
}

/// The reason of a config error (its field dropped, for errors re-named after a flag).
fn reason_of(e: Error) -> String {
    match e {
        Error::Config { field, reason } => format!("`{field}`: {reason}"),
        e => e.to_string(),
    }
}

/// What moves together in a genome: one script, or a named group of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The script's name, or the group's.
    pub name: String,
    /// The scripts' indices in the genome, in genome order.
    pub scripts: Vec<usize>,
}

/// The units of a genome of `scripts` with `groups`: scripts in genome order, each group where
/// its first script stands (see the [module docs](self)).
///
/// # Errors
///
/// [`Error::Config`] naming `--group` for a member that is not an evolved script, a script in
/// two groups (or twice in one), or a group named as a script outside it.
pub fn units(scripts: &[String], groups: &[(String, Vec<String>)]) -> Result<Vec<Unit>> {
    let mut group_of: Vec<Option<usize>> = vec![None; scripts.len()];
    for (g, (name, members)) in groups.iter().enumerate() {
        for m in members {
            let i = scripts.iter().position(|s| s == m).ok_or_else(|| {
                Error::config(
                    "--group",
                    format!(
                        "group `{name}`: `{m}` is not an evolved script (they are: {})",
                        scripts.join(", ")
                    ),
                )
            })?;
            if group_of[i].is_some() {
                return Err(Error::config(
                    "--group",
                    format!("`{m}` is in more than one group, or twice in `{name}`"),
                ));
            }
            group_of[i] = Some(g);
        }
        if let Some(i) = scripts.iter().position(|s| s == name)
            && group_of[i] != Some(g)
        {
            return Err(Error::config(
                "--group",
                format!("group `{name}` is named as a script it does not hold"),
            ));
        }
    }
    let mut out: Vec<Unit> = Vec::new();
    let mut placed = vec![false; groups.len()];
    for (i, script) in scripts.iter().enumerate() {
        match group_of[i] {
            None => out.push(Unit {
                name: script.clone(),
                scripts: vec![i],
            }),
            Some(g) if !placed[g] => {
                placed[g] = true;
                out.push(Unit {
                    name: groups[g].0.clone(),
                    scripts: (0..scripts.len())
                        .filter(|&k| group_of[k] == Some(g))
                        .collect(),
                });
            }
            Some(_) => {}
        }
    }
    Ok(out)
}

/// One genome played: its label and weights (one per evolved script).
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// `mid`, `all-low`, `all-high`, `low:<unit>`, `high:<unit>`, `min:<feature>` or
    /// `max:<feature>`.
    pub label: String,
    /// The weights, in genome order.
    pub values: Vec<f64>,
}

/// The way a unit's measured effect on a feature points: `1` where its 95 % interval lies above
/// 0, `-1` where below, `0` where it spans 0 or there is none (fewer than two pairs).
pub fn direction(effect: &Effect) -> i8 {
    match (effect.effect.lo, effect.effect.hi) {
        (Some(lo), _) if lo > 0.0 => 1,
        (_, Some(hi)) if hi < 0.0 => -1,
        _ => 0,
    }
}

/// The per-feature extreme genomes of a measurement over `scripts` evolved in `[lo, hi]`,
/// built from the one-at-a-time `effects` of `units` (see the [module docs](self)): for each of
/// `features` in order, `min:F` then `max:F`. In `max:F` a unit stands at `hi` where its effect
/// on `F` is clearly positive ([`direction`] 1), at `lo` where clearly negative, at the
/// midpoint where its interval spans 0; `min:F` is the mirror image.
pub fn extreme_probes(
    scripts: usize,
    units: &[Unit],
    features: &[String],
    effects: &[Effect],
    lo: f64,
    hi: f64,
) -> Vec<Probe> {
    let mid = (lo + hi) / 2.0;
    let mut out = Vec::with_capacity(2 * features.len());
    for f in features {
        let dirs: Vec<i8> = units
            .iter()
            .map(|u| {
                effects
                    .iter()
                    .find(|e| e.unit == u.name && &e.measure == f)
                    .map_or(0, direction)
            })
            .collect();
        for (side, sign) in [("min", -1), ("max", 1)] {
            let mut values = vec![mid; scripts];
            for (u, d) in units.iter().zip(&dirs) {
                let v = match d * sign {
                    1 => hi,
                    -1 => lo,
                    _ => mid,
                };
                for &i in &u.scripts {
                    values[i] = v;
                }
            }
            out.push(Probe {
                label: format!("{side}:{f}"),
                values,
            });
        }
    }
    out
}

/// The genomes of a measurement over `scripts` evolved in `[lo, hi]`, in the order played and
/// written: `mid`, `all-low`, `all-high`, then `low:u`, `high:u` for each of `units`.
pub fn probes(scripts: usize, units: &[Unit], lo: f64, hi: f64) -> Vec<Probe> {
    let mid = (lo + hi) / 2.0;
    let mut out = vec![
        Probe {
            label: "mid".into(),
            values: vec![mid; scripts],
        },
        Probe {
            label: "all-low".into(),
            values: vec![lo; scripts],
        },
        Probe {
            label: "all-high".into(),
            values: vec![hi; scripts],
        },
    ];
    for u in units {
        for (side, v) in [("low", lo), ("high", hi)] {
            let mut values = vec![mid; scripts];
            for &i in &u.scripts {
                values[i] = v;
            }
            out.push(Probe {
                label: format!("{side}:{}", u.name),
                values,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn groups_stand_where_their_first_script_stands() {
        let scripts = names(&["a", "b", "c", "d"]);
        let groups = vec![("bd".to_string(), names(&["d", "b"]))];
        let u = units(&scripts, &groups).unwrap();
        let got: Vec<(&str, &[usize])> = u
            .iter()
            .map(|u| (u.name.as_str(), u.scripts.as_slice()))
            .collect();
        assert_eq!(got, [("a", &[0][..]), ("bd", &[1, 3]), ("c", &[2])]);
        let p = probes(4, &u, 0.0, 2.0);
        let labels: Vec<&str> = p.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "mid", "all-low", "all-high", "low:a", "high:a", "low:bd", "high:bd", "low:c",
                "high:c"
            ]
        );
        assert_eq!(p[6].values, [1.0, 2.0, 1.0, 2.0]);
        assert_eq!(p[1].values, [0.0; 4]);
    }

    fn effect(unit: &str, measure: &str, mean: f64, lo: Option<f64>, hi: Option<f64>) -> Effect {
        Effect {
            unit: unit.into(),
            scripts: unit.into(),
            measure: measure.into(),
            low_mean: 0.0,
            high_mean: mean,
            effect: tables::Interval {
                mean,
                sd: 1.0,
                lo,
                hi,
                n: 10,
            },
            cell_width: Some(1.0),
        }
    }

    #[test]
    fn extremes_move_only_the_units_whose_interval_excludes_zero() {
        // Units a, bd (scripts 1 and 3), c; weights in [0, 2], midpoint 1.
        let scripts = names(&["a", "b", "c", "d"]);
        let groups = vec![("bd".to_string(), names(&["b", "d"]))];
        let u = units(&scripts, &groups).unwrap();
        let effects = [
            // f: a clearly up, bd clearly down, c spans 0 (its point estimate is large).
            effect("a", "f", 0.5, Some(0.1), Some(0.9)),
            effect("bd", "f", -2.0, Some(-3.0), Some(-1.0)),
            effect("c", "f", 5.0, Some(-0.5), Some(10.5)),
            // g: only c, clearly down; a has no interval; bd's interval touches 0.
            effect("a", "g", 3.0, None, None),
            effect("bd", "g", 1.0, Some(0.0), Some(2.0)),
            effect("c", "g", -1.0, Some(-1.5), Some(-0.5)),
            // The win rate is no feature here.
            effect("a", "win_rate", 1.0, Some(0.5), Some(1.5)),
        ];
        let p = extreme_probes(4, &u, &names(&["f", "g"]), &effects, 0.0, 2.0);
        let got: Vec<(&str, &[f64])> = p
            .iter()
            .map(|p| (p.label.as_str(), p.values.as_slice()))
            .collect();
        assert_eq!(
            got,
            [
                ("min:f", &[0.0, 2.0, 1.0, 2.0][..]),
                ("max:f", &[2.0, 0.0, 1.0, 0.0][..]),
                ("min:g", &[1.0, 1.0, 2.0, 1.0][..]),
                ("max:g", &[1.0, 1.0, 0.0, 1.0][..]),
            ]
        );
    }

    #[test]
    fn bad_groups_name_the_flag() {
        let scripts = names(&["a", "b"]);
        for groups in [
            vec![("g".to_string(), names(&["a", "z"]))],
            vec![("g".to_string(), names(&["a", "a"]))],
            vec![
                ("g".to_string(), names(&["a"])),
                ("h".to_string(), names(&["a", "b"])),
            ],
            vec![("b".to_string(), names(&["a"]))],
        ] {
            let e = units(&scripts, &groups).unwrap_err();
            assert!(
                matches!(&e, Error::Config { field, .. } if field == "--group"),
                "{e}"
            );
        }
    }
}

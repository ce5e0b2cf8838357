//! When a candidate replaces a cell's elite: explicit, configurable rules (design §4, *Noise*).

use serde::{Deserialize, Serialize};

use super::evaluation::Evaluation;
use crate::error::{Error, Result};

/// The rule deciding whether a candidate beats the elite of its cell.
///
/// Both rules are strict: a candidate equal to the elite on every compared number does not
/// replace it (the incumbent stays).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Replacement {
    /// The paper's rule (tribes-rules §16): strictly higher fitness (win rate), or equal
    /// fitness and strictly higher tie-break (mean score).
    #[default]
    Paper,
    /// Confidence-aware: compare the Wilson score interval's lower bound of `wins / games`
    /// at `z` standard deviations ([`wilson_lower_bound`]); equal bounds fall back to a
    /// strictly higher tie-break. Draws count as non-wins, as in the paper's win rate.
    /// A 9/10 record (bound 0.60 at z = 1.96) then beats a 1/1 record (0.21): a lucky
    /// genome evaluated on few games cannot displace a well-measured one.
    LowerConfidence {
        /// Width of the interval in standard deviations (≥ 0; 1.96 for 95 %). With `z = 0`
        /// the bound is the plain win rate `wins / games`.
        z: f64,
    },
}

impl Replacement {
    /// Checks the rule's parameters (`z` finite and ≥ 0).
    pub fn validate(&self) -> Result<()> {
        match *self {
            Replacement::Paper => Ok(()),
            Replacement::LowerConfidence { z } if z.is_finite() && z >= 0.0 => Ok(()),
            Replacement::LowerConfidence { z } => Err(Error::config(
                "replacement.z",
                format!("must be a finite number ≥ 0, got {z}"),
            )),
        }
    }

    /// True if `candidate` strictly beats `incumbent` under this rule.
    pub fn beats(&self, candidate: &Evaluation, incumbent: &Evaluation) -> bool {
        let (a, b) = match *self {
            Replacement::Paper => (candidate.fitness, incumbent.fitness),
            Replacement::LowerConfidence { z } => (
                wilson_lower_bound(candidate.wins, candidate.games, z),
                wilson_lower_bound(incumbent.wins, incumbent.games, z),
            ),
        };
        a > b || (a == b && candidate.tie_break > incumbent.tie_break)
    }
}

/// Lower bound of the Wilson score interval for `wins` successes in `games` trials at `z`
/// standard deviations:
/// `(p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)` with `p = wins/n`; 0 when `games = 0`.
pub fn wilson_lower_bound(wins: u32, games: u32, z: f64) -> f64 {
    if games == 0 {
        return 0.0;
    }
    let n = f64::from(games);
    let p = f64::from(wins) / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - margin) / (1.0 + z2 / n)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fitness: f64, tie_break: f64, wins: u32, games: u32) -> Evaluation {
        Evaluation {
            fitness,
            tie_break,
            wins,
            games,
            ..Evaluation::default()
        }
    }

    #[test]
    fn wilson_bound_matches_known_values() {
        assert_eq!(wilson_lower_bound(0, 0, 1.96), 0.0);
        assert!((wilson_lower_bound(9, 10, 1.96) - 0.5958).abs() < 1e-4);
        assert!((wilson_lower_bound(1, 1, 1.96) - 0.2065).abs() < 1e-4);
        assert_eq!(wilson_lower_bound(3, 4, 0.0), 0.75);
        assert!(wilson_lower_bound(0, 5, 1.96).abs() < 1e-12);
    }

    #[test]
    fn paper_rule_is_strict_with_score_tie_break() {
        let r = Replacement::Paper;
        assert!(r.beats(&eval(0.6, 0.0, 6, 10), &eval(0.5, 9.0, 5, 10)));
        assert!(r.beats(&eval(0.5, 2.0, 5, 10), &eval(0.5, 1.0, 5, 10)));
        assert!(!r.beats(&eval(0.5, 1.0, 5, 10), &eval(0.5, 1.0, 5, 10)));
        assert!(!r.beats(&eval(0.4, 9.0, 4, 10), &eval(0.5, 1.0, 5, 10)));
    }

    #[test]
    fn lower_confidence_rule_prefers_well_measured_records() {
        let r = Replacement::LowerConfidence { z: 1.96 };
        let lucky = eval(1.0, 0.0, 1, 1);
        let solid = eval(0.9, 0.0, 9, 10);
        assert!(r.beats(&solid, &lucky));
        assert!(!r.beats(&lucky, &solid));
        assert!(Replacement::Paper.beats(&lucky, &solid));
        // Equal records: the tie-break decides, strictly.
        assert!(r.beats(&eval(0.5, 2.0, 5, 10), &eval(0.5, 1.0, 5, 10)));
        assert!(!r.beats(&eval(0.5, 1.0, 5, 10), &eval(0.5, 1.0, 5, 10)));
    }

    #[test]
    fn bad_z_is_an_error() {
        assert!(Replacement::LowerConfidence { z: -1.0 }.validate().is_err());
        assert!(
            Replacement::LowerConfidence { z: f64::NAN }
                .validate()
                .is_err()
        );
        Replacement::LowerConfidence { z: 0.0 }.validate().unwrap();
    }
}

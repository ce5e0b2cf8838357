//! What evaluating one genome yields: the aggregate of its games.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The games played for one genome, aggregated.
///
/// The engine needs only `fitness`, `tie_break` and `descriptor_means`; the rest is kept with
/// the elite because a win rate over few games is noisy (design §4, *Noise*).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// The objective: the win rate, `wins / games`, in the reference MAP-Elites.
    pub fitness: f64,
    /// Breaks fitness ties (higher is better): the mean final score in the reference.
    pub tie_break: f64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn (neither won nor lost).
    pub draws: u32,
    /// Mean of each feature over the games, in axis order; places the genome on the map.
    pub descriptor_means: Vec<f64>,
    /// Standard deviation of each feature over the games, in axis order.
    pub descriptor_spreads: Vec<f64>,
    /// Further named statistics to keep with the elite (not used by the engine).
    pub extra: BTreeMap<String, f64>,
}

impl Evaluation {
    /// Checks that the evaluation fits an archive with `features` axes: one mean and one
    /// spread per feature, every number finite, spreads non-negative, `wins + draws ≤ games`.
    /// The error is a sentence naming the field.
    pub fn validate(&self, features: usize) -> std::result::Result<(), String> {
        for (name, v) in [
            ("descriptor_means", &self.descriptor_means),
            ("descriptor_spreads", &self.descriptor_spreads),
        ] {
            if v.len() != features {
                return Err(format!(
                    "{name} has {} values, expected {features} (one per feature)",
                    v.len()
                ));
            }
            if let Some(x) = v.iter().find(|x| !x.is_finite()) {
                return Err(format!("{name} holds the non-finite value {x}"));
            }
        }
        if let Some(x) = self.descriptor_spreads.iter().find(|&&x| x < 0.0) {
            return Err(format!("descriptor_spreads holds the negative value {x}"));
        }
        for (name, x) in [("fitness", self.fitness), ("tie_break", self.tie_break)] {
            if !x.is_finite() {
                return Err(format!("{name} is {x}, not a finite number"));
            }
        }
        if u64::from(self.wins) + u64::from(self.draws) > u64::from(self.games) {
            return Err(format!(
                "wins ({}) + draws ({}) exceed games ({})",
                self.wins, self.draws, self.games
            ));
        }
        if let Some((k, x)) = self.extra.iter().find(|(_, x)| !x.is_finite()) {
            return Err(format!("extra `{k}` is {x}, not a finite number"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Evaluation {
        Evaluation {
            fitness: 0.5,
            games: 4,
            wins: 2,
            draws: 1,
            descriptor_means: vec![1.0, 2.0],
            descriptor_spreads: vec![0.0, 0.5],
            ..Evaluation::default()
        }
    }

    #[test]
    fn validation_names_the_faulty_field() {
        ok().validate(2).unwrap();
        let e = ok().validate(3).unwrap_err();
        assert!(e.contains("descriptor_means"), "{e}");
        let mut bad = ok();
        bad.fitness = f64::NAN;
        assert!(bad.validate(2).unwrap_err().contains("fitness"));
        let mut bad = ok();
        bad.descriptor_spreads[1] = -1.0;
        assert!(bad.validate(2).unwrap_err().contains("negative"));
        let mut bad = ok();
        bad.wins = 4;
        assert!(bad.validate(2).unwrap_err().contains("exceed"));
        let mut bad = ok();
        bad.extra.insert("x".into(), f64::INFINITY);
        assert!(bad.validate(2).unwrap_err().contains("extra `x`"));
    }
}

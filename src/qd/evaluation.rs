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
    /// Games in which each feature was defined, in axis order: what [`Evaluation::merge`]
    /// needs to extend the means and spreads exactly, and the features' standard errors. The
    /// archive keeps them only with adaptive sampling ([`crate::qd::Adaptive`]); empty, they are
    /// left out of the JSON.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descriptor_counts: Vec<u32>,
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
        if !self.descriptor_counts.is_empty() {
            if self.descriptor_counts.len() != features {
                return Err(format!(
                    "descriptor_counts has {} values, expected {features} (one per feature)",
                    self.descriptor_counts.len()
                ));
            }
            if let Some(n) = self.descriptor_counts.iter().find(|&&n| n > self.games) {
                return Err(format!(
                    "descriptor_counts holds {n}, more than the {} games",
                    self.games
                ));
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

impl Evaluation {
    /// The evaluation of this one's games followed by `more`'s: counts added, fitness and
    /// draw rate recomputed, and every mean and (population) standard deviation — the
    /// tie-break score with `extra["score_sd"]`, each feature with its
    /// [`descriptor_counts`](Evaluation::descriptor_counts) — combined by Chan et al.'s
    /// pairwise rule, which equals the statistics of all the games up to rounding. Other
    /// `extra` values are averaged weighted by games. Both need `descriptor_counts`.
    pub fn merge(&self, more: &Evaluation) -> Evaluation {
        let games = self.games + more.games;
        let n = |g: u32| f64::from(g);
        let (tie_break, score_sd) = pooled(
            (n(self.games), self.tie_break, self.extra_or("score_sd")),
            (n(more.games), more.tie_break, more.extra_or("score_sd")),
        );
        let mut descriptor_means = Vec::new();
        let mut descriptor_spreads = Vec::new();
        let mut descriptor_counts = Vec::new();
        for k in 0..self.descriptor_means.len() {
            let count = |e: &Evaluation| e.descriptor_counts.get(k).copied().unwrap_or(0);
            let (a, b) = (count(self), count(more));
            let (mean, sd) = pooled(
                (n(a), self.descriptor_means[k], self.descriptor_spreads[k]),
                (n(b), more.descriptor_means[k], more.descriptor_spreads[k]),
            );
            descriptor_means.push(mean);
            descriptor_spreads.push(sd);
            descriptor_counts.push(a + b);
        }
        let wins = self.wins + more.wins;
        let draws = self.draws + more.draws;
        let mut extra = self.extra.clone();
        for (key, &x) in &more.extra {
            let y = self.extra.get(key).copied().unwrap_or(0.0);
            let mean = (y * n(self.games) + x * n(more.games)) / n(games.max(1));
            extra.insert(key.clone(), mean);
        }
        if self.extra.contains_key("score_sd") || more.extra.contains_key("score_sd") {
            extra.insert("score_sd".into(), score_sd);
        }
        if self.extra.contains_key("draw_rate") || more.extra.contains_key("draw_rate") {
            extra.insert("draw_rate".into(), n(draws) / n(games.max(1)));
        }
        Evaluation {
            fitness: n(wins) / n(games.max(1)),
            tie_break,
            games,
            wins,
            draws,
            descriptor_means,
            descriptor_spreads,
            descriptor_counts,
            extra,
        }
    }

    /// Standard error of feature `k`'s mean: the sample standard deviation (from the
    /// population one kept, × √(n/(n−1))) over √n, n its
    /// [`descriptor_counts`](Evaluation::descriptor_counts); infinite for one game, 0 for
    /// none (nothing to place) or without counts.
    pub fn standard_error(&self, k: usize) -> f64 {
        let n = f64::from(self.descriptor_counts.get(k).copied().unwrap_or(0));
        if n == 0.0 {
            0.0
        } else if n == 1.0 {
            f64::INFINITY
        } else {
            self.descriptor_spreads[k] / (n - 1.0).sqrt()
        }
    }

    fn extra_or(&self, key: &str) -> f64 {
        self.extra.get(key).copied().unwrap_or(0.0)
    }
}

/// Mean and population standard deviation of two groups given as (count, mean, sd).
fn pooled((na, ma, sa): (f64, f64, f64), (nb, mb, sb): (f64, f64, f64)) -> (f64, f64) {
    let n = na + nb;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    if nb == 0.0 {
        return (ma, sa);
    }
    if na == 0.0 {
        return (mb, sb);
    }
    let delta = mb - ma;
    let mean = ma + delta * nb / n;
    let m2 = sa * sa * na + sb * sb * nb + delta * delta * na * nb / n;
    (mean, (m2 / n).max(0.0).sqrt())
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
        let mut bad = ok();
        bad.descriptor_counts = vec![5, 1];
        assert!(bad.validate(2).unwrap_err().contains("descriptor_counts"));
    }

    /// The evaluation of `xs` (one feature, score = feature) as aggregated in one go.
    fn of(xs: &[f64], wins: u32) -> Evaluation {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt();
        Evaluation {
            fitness: f64::from(wins) / n,
            tie_break: mean,
            games: xs.len() as u32,
            wins,
            draws: 0,
            descriptor_means: vec![mean],
            descriptor_spreads: vec![sd],
            descriptor_counts: vec![xs.len() as u32],
            extra: BTreeMap::from([("score_sd".into(), sd), ("draw_rate".into(), 0.0)]),
        }
    }

    #[test]
    fn merging_equals_aggregating_all_the_games() {
        let (a, b) = ([1.0, 4.0, 2.0], [7.0, 0.0, 3.0, 5.0, 6.0]);
        let all: Vec<f64> = a.iter().chain(&b).copied().collect();
        let merged = of(&a, 1).merge(&of(&b, 3));
        let whole = of(&all, 4);
        assert_eq!((merged.games, merged.wins), (8, 4));
        assert_eq!(merged.fitness, 0.5);
        assert_eq!(merged.descriptor_counts, [8]);
        assert!((merged.descriptor_means[0] - whole.descriptor_means[0]).abs() < 1e-12);
        assert!((merged.descriptor_spreads[0] - whole.descriptor_spreads[0]).abs() < 1e-12);
        assert!((merged.extra["score_sd"] - whole.extra["score_sd"]).abs() < 1e-12);
        // Standard error: sample sd / sqrt(n).
        let sample_sd = whole.descriptor_spreads[0] * (8.0f64 / 7.0).sqrt();
        assert!((merged.standard_error(0) - sample_sd / 8.0f64.sqrt()).abs() < 1e-12);
        assert_eq!(of(&[3.0], 0).standard_error(0), f64::INFINITY);
    }
}

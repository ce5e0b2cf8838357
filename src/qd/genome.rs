//! Genomes: named vectors of script weights, and the operators that make them.
//!
//! A [`GenomeSpace`] names the weights and says which values they may take (a [`Domain`]). It
//! builds the genomes of the reference MAP-Elites (tribes-rules §16): one-hot genomes
//! ([`GenomeSpace::one_hot`]), uniform random genomes ([`GenomeSpace::random`]) and the
//! stochastic hill-climber mutation ([`GenomeSpace::mutate`]).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::rng::Rng;

/// One candidate: a value per weight, in the order of [`GenomeSpace::names`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Genome {
    /// The weights.
    pub values: Vec<f64>,
}

impl Genome {
    /// A genome with these weights.
    pub fn new(values: Vec<f64>) -> Self {
        Genome { values }
    }
}

/// The values a weight may take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    /// A finite set of values (sorted ascending, no duplicates).
    Discrete(Vec<f64>),
    /// Any value in `[lo, hi)` (`lo < hi`).
    Range {
        /// Smallest value.
        lo: f64,
        /// Upper bound (not drawn by [`GenomeSpace::random`]; one-hot genomes use it).
        hi: f64,
    },
}

impl Default for Domain {
    /// The paper's domain: {0, 0.25, 0.5, 0.75, 1}.
    fn default() -> Self {
        Domain::Discrete(vec![0.0, 0.25, 0.5, 0.75, 1.0])
    }
}

impl Domain {
    /// The smallest value.
    pub fn min(&self) -> f64 {
        match self {
            Domain::Discrete(v) => v[0],
            Domain::Range { lo, .. } => *lo,
        }
    }

    /// The largest value.
    pub fn max(&self) -> f64 {
        match self {
            Domain::Discrete(v) => v[v.len() - 1],
            Domain::Range { hi, .. } => *hi,
        }
    }

    /// True if `x` is a value of the domain (`lo ≤ x ≤ hi` for a range).
    pub fn contains(&self, x: f64) -> bool {
        match self {
            Domain::Discrete(v) => v.contains(&x),
            Domain::Range { lo, hi } => *lo <= x && x <= *hi,
        }
    }

    /// A uniformly drawn value.
    fn draw(&self, rng: &mut Rng) -> f64 {
        match self {
            Domain::Discrete(v) => v[rng.random_range(0..v.len())],
            Domain::Range { lo, hi } => rng.random_range(*lo..*hi),
        }
    }

    /// A uniformly drawn value different from `current`.
    fn draw_other(&self, current: f64, rng: &mut Rng) -> f64 {
        match self {
            Domain::Discrete(v) => {
                let others: Vec<f64> = v.iter().copied().filter(|&x| x != current).collect();
                others[rng.random_range(0..others.len())]
            }
            Domain::Range { .. } => loop {
                // `lo < hi`, so a redraw equals `current` with probability ~0.
                let x = self.draw(rng);
                if x != current {
                    return x;
                }
            },
        }
    }

    fn validate(&self) -> Result<()> {
        let field = "genome.domain";
        match self {
            Domain::Discrete(v) => {
                if v.len() < 2 {
                    return Err(Error::config(field, "needs at least two values"));
                }
                if v.iter().any(|x| !x.is_finite()) {
                    return Err(Error::config(field, "values must be finite"));
                }
                if v.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(Error::config(
                        field,
                        "values must be sorted ascending without duplicates",
                    ));
                }
            }
            Domain::Range { lo, hi } => {
                if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                    return Err(Error::config(
                        field,
                        format!("range needs finite lo < hi, got [{lo}, {hi}]"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The weights' names and the values they may take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenomeSpace {
    /// One name per weight (e.g. the portfolio's script names).
    pub names: Vec<String>,
    /// The values every weight may take.
    pub domain: Domain,
}

impl GenomeSpace {
    /// A validated space: at least one weight, unique non-empty names, a valid domain
    /// (≥ 2 sorted distinct finite values, or finite `lo < hi`).
    pub fn new(names: Vec<String>, domain: Domain) -> Result<Self> {
        let space = GenomeSpace { names, domain };
        space.validate()?;
        Ok(space)
    }

    /// Checks the invariants of [`GenomeSpace::new`] (for spaces built field by field or
    /// deserialised).
    pub fn validate(&self) -> Result<()> {
        if self.names.is_empty() {
            return Err(Error::config("genome.names", "needs at least one weight"));
        }
        for (i, n) in self.names.iter().enumerate() {
            if n.trim().is_empty() {
                return Err(Error::config("genome.names", format!("name {i} is empty")));
            }
            if self.names[..i].contains(n) {
                return Err(Error::config(
                    "genome.names",
                    format!("`{n}` appears twice"),
                ));
            }
        }
        self.domain.validate()
    }

    /// Number of weights.
    pub fn dim(&self) -> usize {
        self.names.len()
    }

    /// Checks that `genome` has one value per weight, each in the domain.
    pub fn check(&self, genome: &Genome) -> Result<()> {
        if genome.values.len() != self.dim() {
            return Err(Error::config(
                "genome",
                format!(
                    "has {} weights, expected {}",
                    genome.values.len(),
                    self.dim()
                ),
            ));
        }
        if let Some((i, x)) = genome
            .values
            .iter()
            .enumerate()
            .find(|(_, x)| !self.domain.contains(**x))
        {
            return Err(Error::config(
                format!("genome.{}", self.names[i]),
                format!("{x} is outside the domain"),
            ));
        }
        Ok(())
    }

    /// The one-hot genomes, in weight order: genome `i` has weight `i` at the domain's maximum
    /// and every other weight at its minimum.
    pub fn one_hot(&self) -> Vec<Genome> {
        (0..self.dim())
            .map(|i| {
                let mut values = vec![self.domain.min(); self.dim()];
                values[i] = self.domain.max();
                Genome { values }
            })
            .collect()
    }

    /// A genome with every weight drawn uniformly from the domain, in weight order.
    pub fn random(&self, rng: &mut Rng) -> Genome {
        Genome {
            values: (0..self.dim()).map(|_| self.domain.draw(rng)).collect(),
        }
    }

    /// The stochastic hill-climber mutation: a copy of `parent` with ONE uniformly chosen
    /// weight changed to a different value (another value of a discrete domain, drawn
    /// uniformly; for a range, a uniform redraw different from the current value).
    ///
    /// A parent with the wrong number of weights is mutated over its own length (an empty
    /// parent is returned unchanged); check it first with [`GenomeSpace::check`].
    pub fn mutate(&self, parent: &Genome, rng: &mut Rng) -> Genome {
        let mut child = parent.clone();
        if !child.values.is_empty() {
            let i = rng.random_range(0..child.values.len());
            child.values[i] = self.domain.draw_other(child.values[i], rng);
        }
        child
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::derive_rng;

    fn space(n: usize, domain: Domain) -> GenomeSpace {
        GenomeSpace::new((0..n).map(|i| format!("w{i}")).collect(), domain).unwrap()
    }

    #[test]
    fn one_hot_genomes_have_one_weight_at_max() {
        let s = space(11, Domain::default());
        let g = s.one_hot();
        assert_eq!(g.len(), 11);
        for (i, g) in g.iter().enumerate() {
            for (j, &x) in g.values.iter().enumerate() {
                assert_eq!(x, if i == j { 1.0 } else { 0.0 });
            }
        }
    }

    #[test]
    fn random_genomes_stay_in_the_domain() {
        let mut rng = derive_rng(1, &[]);
        for d in [Domain::default(), Domain::Range { lo: -1.0, hi: 2.0 }] {
            let s = space(5, d);
            for _ in 0..200 {
                s.check(&s.random(&mut rng)).unwrap();
            }
        }
    }

    #[test]
    fn mutation_changes_exactly_one_weight() {
        let mut rng = derive_rng(2, &[]);
        for d in [
            Domain::default(),
            Domain::Discrete(vec![0.0, 1.0]),
            Domain::Range { lo: 0.0, hi: 1.0 },
        ] {
            let s = space(7, d);
            for _ in 0..200 {
                let p = s.random(&mut rng);
                let c = s.mutate(&p, &mut rng);
                s.check(&c).unwrap();
                let diff = p.values.iter().zip(&c.values).filter(|(a, b)| a != b);
                assert_eq!(diff.count(), 1);
            }
        }
    }

    #[test]
    fn bad_spaces_are_errors() {
        let names = || vec!["a".to_string(), "b".to_string()];
        assert!(GenomeSpace::new(vec![], Domain::default()).is_err());
        assert!(GenomeSpace::new(vec!["a".into(), "a".into()], Domain::default()).is_err());
        assert!(GenomeSpace::new(names(), Domain::Discrete(vec![0.5])).is_err());
        assert!(GenomeSpace::new(names(), Domain::Discrete(vec![1.0, 0.0])).is_err());
        assert!(GenomeSpace::new(names(), Domain::Range { lo: 1.0, hi: 1.0 }).is_err());
        assert!(
            GenomeSpace::new(
                names(),
                Domain::Range {
                    lo: 0.0,
                    hi: f64::NAN
                }
            )
            .is_err()
        );
    }

    #[test]
    fn check_rejects_wrong_length_and_out_of_domain_values() {
        let s = space(2, Domain::default());
        assert!(s.check(&Genome::new(vec![0.0])).is_err());
        assert!(s.check(&Genome::new(vec![0.0, 0.3])).is_err());
        s.check(&Genome::new(vec![0.0, 0.75])).unwrap();
    }
}

//! Genomes: named vectors of script weights, and the operators that make them.
//!
//! A [`GenomeSpace`] names the weights and says which values they may take (a [`Domain`]). It
//! builds the genomes of the reference MAP-Elites (tribes-rules §16): one-hot genomes
//! ([`GenomeSpace::one_hot`]), uniform random genomes ([`GenomeSpace::random`]) and the
//! stochastic hill-climber mutation ([`GenomeSpace::mutate`]); and, for a continuous
//! [`Domain::Range`], pyribs' two standard variations: Gaussian noise
//! ([`GenomeSpace::gaussian`]) and Iso+LineDD ([`GenomeSpace::iso_line`]).

use rand::RngExt;
use rand_distr::StandardNormal;
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

    /// Checks the domain, the one check of a config's `[genome]` (`evolve`, `sensitivity` and
    /// every other reader of a run config) and of a genome space: at least two values, finite,
    /// sorted ascending without duplicates; or a finite range with `lo < hi`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `genome.values` or `genome.range`, the config key that gives
    /// the domain.
    pub fn validate(&self) -> Result<()> {
        match self {
            Domain::Discrete(v) => {
                let field = "genome.values";
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
                        "genome.range",
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

    /// pyribs' Gaussian variation: `parent` plus `N(0, sigma(i)²)` noise on every weight `i`,
    /// clipped to `[min, max]` of the domain.
    ///
    /// The child always differs from the parent: a draw that clips back onto the parent
    /// (a parent on the bounds, noise pointing out) is redrawn, and after [`MAX_REDRAWS`] such
    /// draws (in practice only with a σ too small to move an `f64`) the child is the hill
    /// climber's [`GenomeSpace::mutate`] instead. Meant for a [`Domain::Range`]: on a
    /// discrete domain the values are clipped but not rounded to the domain's values.
    pub fn gaussian(&self, parent: &Genome, sigma: impl Fn(usize) -> f64, rng: &mut Rng) -> Genome {
        self.perturbed(parent, rng, |i, x, rng| {
            x + sigma(i) * rng.sample::<f64, _>(StandardNormal)
        })
    }

    /// The Iso+LineDD variation (Vassiliades & Mouret 2018, pyribs' `IsoLineEmitter`):
    /// `x + iso_sigma · N(0, I) + line_sigma · N(0, 1) · (towards − x)`, clipped to `[min, max]`
    /// of the domain; one line draw per child, one isotropic draw per weight.
    ///
    /// The child always differs from `x`, as for [`GenomeSpace::gaussian`] (redrawn, then
    /// [`GenomeSpace::mutate`] after [`MAX_REDRAWS`] draws). `x` and `towards` must have the
    /// same length.
    pub fn iso_line(
        &self,
        x: &Genome,
        towards: &Genome,
        iso_sigma: f64,
        line_sigma: f64,
        rng: &mut Rng,
    ) -> Genome {
        debug_assert_eq!(x.values.len(), towards.values.len());
        let mut line = 0.0;
        self.perturbed(x, rng, |i, xi, rng| {
            if i == 0 {
                line = line_sigma * rng.sample::<f64, _>(StandardNormal);
            }
            xi + iso_sigma * rng.sample::<f64, _>(StandardNormal) + line * (towards.values[i] - xi)
        })
    }

    /// A child made weight by weight by `draw(i, parent value, rng)` (weights in order),
    /// clipped to the domain's bounds; redrawn while it equals `parent`, at most
    /// [`MAX_REDRAWS`] times, then [`GenomeSpace::mutate`].
    fn perturbed(
        &self,
        parent: &Genome,
        rng: &mut Rng,
        mut draw: impl FnMut(usize, f64, &mut Rng) -> f64,
    ) -> Genome {
        let (lo, hi) = (self.domain.min(), self.domain.max());
        for _ in 0..MAX_REDRAWS {
            let values: Vec<f64> = (parent.values.iter().enumerate())
                .map(|(i, &x)| draw(i, x, rng).clamp(lo, hi))
                .collect();
            if values != parent.values {
                return Genome { values };
            }
        }
        self.mutate(parent, rng)
    }
}

/// How many times [`GenomeSpace::gaussian`] and [`GenomeSpace::iso_line`] draw a child that
/// equals its parent before falling back on [`GenomeSpace::mutate`].
pub const MAX_REDRAWS: usize = 100;

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

    /// Sample mean and standard deviation.
    fn mean_sd(x: &[f64]) -> (f64, f64) {
        let m = x.iter().sum::<f64>() / x.len() as f64;
        let v = x.iter().map(|a| (a - m).powi(2)).sum::<f64>() / (x.len() - 1) as f64;
        (m, v.sqrt())
    }

    #[test]
    fn gaussian_children_stay_in_range_and_differ_from_their_parent() {
        let mut rng = derive_rng(3, &[]);
        for (lo, hi) in [(0.0, 1.0), (-1.0, 2.0)] {
            let s = space(11, Domain::Range { lo, hi });
            // One-hot parents sit on the bounds, where half the noise clips back; a σ too small
            // to move an f64 falls back on the one-weight mutation.
            let mut parents = s.one_hot();
            parents.extend((0..20).map(|_| s.random(&mut rng)));
            for p in parents {
                for sigma in [0.05, 1.0, 1e-300] {
                    for _ in 0..20 {
                        let c = s.gaussian(&p, |_| sigma, &mut rng);
                        s.check(&c).unwrap();
                        assert_ne!(c, p, "σ {sigma}");
                    }
                }
            }
        }
    }

    #[test]
    fn gaussian_noise_has_each_weights_sigma() {
        let s = space(2, Domain::Range { lo: 0.0, hi: 1.0 });
        let parent = Genome::new(vec![0.5, 0.5]);
        let sigma = [0.01, 0.1];
        let mut rng = derive_rng(4, &[]);
        let children: Vec<Genome> = (0..4000)
            .map(|_| s.gaussian(&parent, |i| sigma[i], &mut rng))
            .collect();
        for (i, &want) in sigma.iter().enumerate() {
            let xs: Vec<f64> = children.iter().map(|c| c.values[i]).collect();
            let (m, sd) = mean_sd(&xs);
            assert!(
                (m - 0.5).abs() < 4.0 * want / 4000f64.sqrt(),
                "weight {i}: mean {m}"
            );
            assert!(
                (sd / want - 1.0).abs() < 0.05,
                "weight {i}: sd {sd}, σ {want}"
            );
        }
    }

    #[test]
    fn iso_line_children_stay_in_range_and_differ_from_their_first_parent() {
        let mut rng = derive_rng(5, &[]);
        let s = space(11, Domain::Range { lo: 0.0, hi: 1.0 });
        let one_hot = s.one_hot();
        for x in &one_hot {
            for towards in [&one_hot[0], x] {
                for (iso, line) in [(0.01, 0.2), (0.05, 0.0), (1e-300, 0.0)] {
                    for _ in 0..20 {
                        let c = s.iso_line(x, towards, iso, line, &mut rng);
                        s.check(&c).unwrap();
                        assert_ne!(&c, x, "σ_iso {iso}, σ_line {line}");
                    }
                }
            }
        }
    }

    #[test]
    fn iso_line_steps_follow_the_line_between_the_parents() {
        // With almost no isotropic noise, a child lies on the line through x and towards, at
        // a N(0, σ_line²) multiple of their difference.
        let s = space(3, Domain::Range { lo: 0.0, hi: 1.0 });
        let x = Genome::new(vec![0.5, 0.5, 0.5]);
        let towards = Genome::new(vec![0.6, 0.4, 0.5]);
        let mut rng = derive_rng(6, &[]);
        let steps: Vec<f64> = (0..4000)
            .map(|_| {
                let c = s.iso_line(&x, &towards, 1e-9, 0.2, &mut rng);
                let t = (c.values[0] - 0.5) / 0.1;
                assert!((c.values[1] - (0.5 - 0.1 * t)).abs() < 1e-7, "{c:?}");
                assert!((c.values[2] - 0.5).abs() < 1e-7, "{c:?}");
                t
            })
            .collect();
        let (m, sd) = mean_sd(&steps);
        assert!(m.abs() < 4.0 * 0.2 / 4000f64.sqrt(), "mean step {m}");
        assert!((sd / 0.2 - 1.0).abs() < 0.05, "sd of the step {sd}");
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

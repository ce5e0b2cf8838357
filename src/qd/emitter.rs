//! The reference MAP-Elites schedule as an emitter (tribes-rules §16), with pyribs' two
//! standard variations as alternatives for continuous weights.
//!
//! Three phases, in order, each asked for in batches:
//!
//! 1. the one-hot genomes of the [`GenomeSpace`] (if `one_hot`), in weight order;
//! 2. `random_init` uniform random genomes;
//! 3. `iterations` offspring of elites. Parents are uniformly chosen elites (uniform over the
//!    occupied cells, taken in cell-index order so the choice depends only on the RNG), drawn
//!    from the archive as it is when the batch is asked for. [`EmitterKind`] says how a child
//!    is made:
//!    - [`EmitterKind::Schedule`] (the reference): copy a parent and mutate one weight
//!      ([`GenomeSpace::mutate`]);
//!    - [`EmitterKind::Gaussian`] (pyribs' `GaussianEmitter`): a parent plus `N(0, σᵢ²)` noise
//!      on every weight `i`, clipped to the range ([`GenomeSpace::gaussian`]);
//!    - [`EmitterKind::IsoLineDd`] (pyribs' `IsoLineEmitter`, Vassiliades & Mouret 2018): two
//!      parents `xᵢ`, `xⱼ` (drawn independently, so possibly the same), child
//!      `xᵢ + σ_iso · N(0, I) + σ_line · N(0, 1) · (xⱼ − xᵢ)`, clipped
//!      ([`GenomeSpace::iso_line`]).
//!
//!    The last two need a continuous [`Domain::Range`]; their children always differ from the
//!    (first) parent. If the archive is empty when this phase starts (say, with neither
//!    one-hot nor random genomes), every kind draws random genomes instead.
//!
//! A batch never mixes phases, since offspring need the earlier phases' results in the
//! archive. The emitter's whole state is three counters ([`EmitterState`]): every draw comes
//! from the batch's RNG, which the engine derives from (run seed, batch number), so a resumed
//! run draws what an uninterrupted one does without any RNG state in the checkpoint.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::archive::GridArchive;
use super::genome::{Domain, Genome, GenomeSpace};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// pyribs' default `iso_sigma` of the Iso+LineDD emitter.
pub const DEFAULT_ISO_SIGMA: f64 = 0.01;

/// pyribs' default `line_sigma` of the Iso+LineDD emitter.
pub const DEFAULT_LINE_SIGMA: f64 = 0.2;

/// The standard deviations of the Gaussian emitter: one for every weight, or one per weight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Sigma {
    /// The same σ for every weight.
    Same(f64),
    /// σ of each weight, in weight order.
    PerWeight(Vec<f64>),
}

impl Sigma {
    /// σ of weight `i` (`i` within the list's length for [`Sigma::PerWeight`]).
    pub fn of(&self, i: usize) -> f64 {
        match self {
            Sigma::Same(s) => *s,
            Sigma::PerWeight(v) => v[i],
        }
    }

    /// Checks that every σ is positive and finite and, given the number of weights `dim`,
    /// that a list has one σ per weight; errors name `map_elites.sigma` (`[i]` for a list
    /// entry).
    pub fn validate(&self, dim: Option<usize>) -> Result<()> {
        let bad = |s: f64| !(s.is_finite() && s > 0.0);
        match self {
            Sigma::Same(s) if bad(*s) => Err(Error::config(
                "map_elites.sigma",
                format!("must be a positive number, got {s}"),
            )),
            Sigma::Same(_) => Ok(()),
            Sigma::PerWeight(v) => {
                if let Some((i, s)) = v.iter().enumerate().find(|(_, s)| bad(**s)) {
                    return Err(Error::config(
                        format!("map_elites.sigma[{i}]"),
                        format!("must be a positive number, got {s}"),
                    ));
                }
                match dim {
                    Some(dim) if v.len() != dim => Err(Error::config(
                        "map_elites.sigma",
                        format!(
                            "gives {} values for {dim} weights: give one per weight, or one \
                             number for all",
                            v.len()
                        ),
                    )),
                    _ => Ok(()),
                }
            }
        }
    }
}

/// How the offspring phase makes a child from elites (`[map_elites] emitter`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmitterKind {
    /// The reference hill climber: one weight of a uniformly chosen elite redrawn.
    #[default]
    Schedule,
    /// pyribs' `GaussianEmitter`: a uniformly chosen elite plus Gaussian noise on every weight.
    Gaussian {
        /// Standard deviation of the noise, in weight units.
        sigma: Sigma,
    },
    /// pyribs' `IsoLineEmitter` (Iso+LineDD): isotropic noise plus noise along the line to a
    /// second elite.
    IsoLineDd {
        /// Standard deviation of the isotropic noise, in weight units.
        iso_sigma: f64,
        /// Standard deviation of the step along the line between the two elites, in units of
        /// their distance.
        line_sigma: f64,
    },
}

impl EmitterKind {
    /// The name used in configs: `schedule`, `gaussian` or `iso_line_dd`.
    pub fn name(&self) -> &'static str {
        match self {
            EmitterKind::Schedule => "schedule",
            EmitterKind::Gaussian { .. } => "gaussian",
            EmitterKind::IsoLineDd { .. } => "iso_line_dd",
        }
    }

    /// True for the reference schedule (left out of a config's JSON, so configs written before
    /// the other kinds existed keep their hash).
    pub fn is_schedule(&self) -> bool {
        *self == EmitterKind::Schedule
    }
}

/// The schedule's sizes and how offspring are made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmitterConfig {
    /// Start with the one-hot genomes (the reference's "master" run).
    pub one_hot: bool,
    /// Random genomes after the one-hot ones.
    pub random_init: u64,
    /// Offspring after the initial genomes.
    pub iterations: u64,
    /// How offspring are made.
    #[serde(default, skip_serializing_if = "EmitterKind::is_schedule")]
    pub kind: EmitterKind,
}

impl Default for EmitterConfig {
    /// One-hot genomes, no random ones, 100 hill-climber offspring.
    fn default() -> Self {
        EmitterConfig {
            one_hot: true,
            random_init: 0,
            iterations: 100,
            kind: EmitterKind::Schedule,
        }
    }
}

impl EmitterConfig {
    /// Checks the kind against the weights: the Gaussian and Iso+LineDD emitters need a
    /// [`Domain::Range`] (error naming `map_elites.emitter`) and positive finite σs
    /// (`map_elites.sigma`, `map_elites.iso_sigma`; `line_sigma` may be 0); given the number of
    /// weights `dim`, a σ list needs one σ per weight.
    pub fn validate(&self, domain: &Domain, dim: Option<usize>) -> Result<()> {
        if !self.kind.is_schedule() && matches!(domain, Domain::Discrete(_)) {
            return Err(Error::config(
                "map_elites.emitter",
                format!(
                    "`{}` needs continuous weights ([genome] range = [lo, hi]), but the \
                     weights take discrete values; use `schedule` or give a range",
                    self.kind.name()
                ),
            ));
        }
        match &self.kind {
            EmitterKind::Schedule => Ok(()),
            EmitterKind::Gaussian { sigma } => sigma.validate(dim),
            EmitterKind::IsoLineDd {
                iso_sigma,
                line_sigma,
            } => {
                if !(iso_sigma.is_finite() && *iso_sigma > 0.0) {
                    return Err(Error::config(
                        "map_elites.iso_sigma",
                        format!("must be a positive number, got {iso_sigma}"),
                    ));
                }
                if !(line_sigma.is_finite() && *line_sigma >= 0.0) {
                    return Err(Error::config(
                        "map_elites.line_sigma",
                        format!("must be a number ≥ 0, got {line_sigma}"),
                    ));
                }
                Ok(())
            }
        }
    }
}

/// How many genomes of each phase have been emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmitterState {
    /// One-hot genomes emitted.
    pub one_hot: u64,
    /// Random initial genomes emitted.
    pub random: u64,
    /// Offspring emitted (counting random stand-ins for an empty archive).
    pub mutants: u64,
}

impl EmitterState {
    /// Genomes emitted in all.
    pub fn total(&self) -> u64 {
        self.one_hot + self.random + self.mutants
    }
}

/// The phase a batch belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// One-hot genomes.
    OneHot,
    /// Random initial genomes.
    Random,
    /// Offspring of elites (made as [`EmitterKind`] says).
    Mutation,
}

/// The schedule: one-hot, then random genomes, then offspring of elites.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleEmitter {
    space: GenomeSpace,
    config: EmitterConfig,
    state: EmitterState,
}

impl ScheduleEmitter {
    /// A fresh emitter over `space`.
    pub fn new(space: GenomeSpace, config: EmitterConfig) -> Self {
        Self::with_state(space, config, EmitterState::default())
    }

    /// An emitter that has already emitted what `state` counts (for resuming).
    pub fn with_state(space: GenomeSpace, config: EmitterConfig, state: EmitterState) -> Self {
        ScheduleEmitter {
            space,
            config,
            state,
        }
    }

    /// The counters.
    pub fn state(&self) -> EmitterState {
        self.state
    }

    /// The schedule's sizes.
    pub fn config(&self) -> &EmitterConfig {
        &self.config
    }

    /// The genome space.
    pub fn space(&self) -> &GenomeSpace {
        &self.space
    }

    /// Genomes the whole schedule emits.
    pub fn total(&self) -> u64 {
        self.one_hot_total() + self.config.random_init + self.config.iterations
    }

    fn one_hot_total(&self) -> u64 {
        if self.config.one_hot {
            self.space.dim() as u64
        } else {
            0
        }
    }

    /// True if `state` could have been reached by this schedule (no phase over its size, and
    /// a later phase started only after the earlier ones finished).
    pub fn is_reachable(&self, state: EmitterState) -> bool {
        let oh = self.one_hot_total();
        let ri = self.config.random_init;
        state.one_hot <= oh
            && state.random <= ri
            && state.mutants <= self.config.iterations
            && (state.random == 0 || state.one_hot == oh)
            && (state.mutants == 0 || (state.one_hot == oh && state.random == ri))
    }

    /// The phase of the next batch; `None` when the schedule is done.
    pub fn phase(&self) -> Option<Phase> {
        if self.state.one_hot < self.one_hot_total() {
            Some(Phase::OneHot)
        } else if self.state.random < self.config.random_init {
            Some(Phase::Random)
        } else if self.state.mutants < self.config.iterations {
            Some(Phase::Mutation)
        } else {
            None
        }
    }

    /// Up to `batch_size` genomes of the current phase (fewer at the end of a phase; none when
    /// the schedule is done), drawing from `rng`.
    pub fn ask(&mut self, archive: &GridArchive, batch_size: usize, rng: &mut Rng) -> Vec<Genome> {
        let Some(phase) = self.phase() else {
            return Vec::new();
        };
        let size = match phase {
            Phase::OneHot => self.one_hot_total(),
            Phase::Random => self.config.random_init,
            Phase::Mutation => self.config.iterations,
        };
        let done = match phase {
            Phase::OneHot => &mut self.state.one_hot,
            Phase::Random => &mut self.state.random,
            Phase::Mutation => &mut self.state.mutants,
        };
        let n = (size - *done).min(batch_size as u64);
        let start = *done;
        *done += n;
        let n = n as usize;
        match phase {
            Phase::OneHot => self
                .space
                .one_hot()
                .into_iter()
                .skip(start as usize)
                .take(n)
                .collect(),
            Phase::Random => (0..n).map(|_| self.space.random(rng)).collect(),
            Phase::Mutation => {
                let parents: Vec<&Genome> = archive.elites().map(|(_, e)| &e.genome).collect();
                (0..n)
                    .map(|_| {
                        if parents.is_empty() {
                            self.space.random(rng)
                        } else {
                            self.offspring(&parents, rng)
                        }
                    })
                    .collect()
            }
        }
    }

    /// One child of uniformly chosen `parents` (not empty), made as the kind says.
    fn offspring(&self, parents: &[&Genome], rng: &mut Rng) -> Genome {
        let pick = |rng: &mut Rng| parents[rng.random_range(0..parents.len())];
        match &self.config.kind {
            EmitterKind::Schedule => self.space.mutate(pick(rng), rng),
            EmitterKind::Gaussian { sigma } => self.space.gaussian(pick(rng), |i| sigma.of(i), rng),
            EmitterKind::IsoLineDd {
                iso_sigma,
                line_sigma,
            } => {
                let (x, towards) = (pick(rng), pick(rng));
                self.space
                    .iso_line(x, towards, *iso_sigma, *line_sigma, rng)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qd::axis::FeatureAxis;
    use crate::qd::genome::Domain;
    use crate::qd::replacement::Replacement;
    use crate::rng::derive_rng;

    fn space() -> GenomeSpace {
        GenomeSpace::new(vec!["a".into(), "b".into(), "c".into()], Domain::default()).unwrap()
    }

    fn archive() -> GridArchive {
        let axis = FeatureAxis::bins("x", 0.0, 1.0, 4).unwrap();
        GridArchive::new(vec![axis], Replacement::Paper).unwrap()
    }

    #[test]
    fn reachable_states_follow_the_phase_order() {
        let e = ScheduleEmitter::new(
            space(),
            EmitterConfig {
                one_hot: true,
                random_init: 2,
                iterations: 5,
                ..EmitterConfig::default()
            },
        );
        let s = |one_hot, random, mutants| EmitterState {
            one_hot,
            random,
            mutants,
        };
        assert!(e.is_reachable(s(0, 0, 0)));
        assert!(e.is_reachable(s(3, 1, 0)));
        assert!(e.is_reachable(s(3, 2, 5)));
        assert!(!e.is_reachable(s(2, 1, 0)));
        assert!(!e.is_reachable(s(3, 1, 1)));
        assert!(!e.is_reachable(s(4, 0, 0)));
        assert!(!e.is_reachable(s(3, 2, 6)));
    }

    fn continuous_kinds() -> [EmitterKind; 3] {
        [
            EmitterKind::Gaussian {
                sigma: Sigma::Same(0.1),
            },
            EmitterKind::Gaussian {
                sigma: Sigma::PerWeight(vec![0.01, 0.1, 0.3]),
            },
            EmitterKind::IsoLineDd {
                iso_sigma: DEFAULT_ISO_SIGMA,
                line_sigma: DEFAULT_LINE_SIGMA,
            },
        ]
    }

    #[test]
    fn every_kinds_offspring_stay_in_range_and_differ_from_their_parent() {
        let range = GenomeSpace::new(
            vec!["a".into(), "b".into(), "c".into()],
            Domain::Range { lo: 0.0, hi: 1.0 },
        )
        .unwrap();
        let mut kinds = continuous_kinds().to_vec();
        kinds.push(EmitterKind::Schedule);
        for kind in kinds {
            // One elite, on the bounds: every child's parent (both parents for Iso+LineDD).
            let parent = range.one_hot()[1].clone();
            let mut archive = archive();
            let evaluation = crate::qd::Evaluation {
                descriptor_means: vec![0.5],
                descriptor_spreads: vec![0.0],
                ..Default::default()
            };
            archive.add(parent.clone(), evaluation).unwrap();
            let config = EmitterConfig {
                one_hot: false,
                random_init: 0,
                iterations: 300,
                kind: kind.clone(),
            };
            config.validate(&range.domain, Some(3)).unwrap();
            let mut e = ScheduleEmitter::new(range.clone(), config);
            let mut rng = derive_rng(8, &[]);
            let children = e.ask(&archive, 300, &mut rng);
            assert_eq!(children.len(), 300);
            for c in &children {
                range.check(c).unwrap();
                assert_ne!(c, &parent, "{kind:?}");
            }
        }
    }

    #[test]
    fn continuous_kinds_need_a_range_and_positive_sigmas() {
        let field = |kind: EmitterKind, domain: &Domain, dim| {
            let config = EmitterConfig {
                kind,
                ..EmitterConfig::default()
            };
            match config.validate(domain, dim) {
                Err(Error::Config { field, .. }) => field,
                other => panic!("{other:?}"),
            }
        };
        let range = Domain::Range { lo: 0.0, hi: 1.0 };
        for kind in continuous_kinds() {
            assert_eq!(
                field(kind.clone(), &Domain::default(), Some(3)),
                "map_elites.emitter"
            );
            EmitterConfig {
                kind,
                ..EmitterConfig::default()
            }
            .validate(&range, Some(3))
            .unwrap();
        }
        let gaussian = |sigma| EmitterKind::Gaussian { sigma };
        let iso = |iso_sigma, line_sigma| EmitterKind::IsoLineDd {
            iso_sigma,
            line_sigma,
        };
        let cases = [
            (gaussian(Sigma::Same(0.0)), "map_elites.sigma"),
            (gaussian(Sigma::Same(f64::NAN)), "map_elites.sigma"),
            (
                gaussian(Sigma::PerWeight(vec![0.1, -1.0, 0.1])),
                "map_elites.sigma[1]",
            ),
            (
                gaussian(Sigma::PerWeight(vec![0.1, 0.1])),
                "map_elites.sigma",
            ),
            (iso(0.0, 0.2), "map_elites.iso_sigma"),
            (iso(0.01, -0.2), "map_elites.line_sigma"),
            (iso(0.01, f64::INFINITY), "map_elites.line_sigma"),
        ];
        for (kind, want) in cases {
            assert_eq!(field(kind, &range, Some(3)), want);
        }
        // A list's length is checked only when the number of weights is known; σ_line may be 0.
        EmitterConfig {
            kind: gaussian(Sigma::PerWeight(vec![0.1, 0.1])),
            ..EmitterConfig::default()
        }
        .validate(&range, None)
        .unwrap();
        EmitterConfig {
            kind: iso(0.01, 0.0),
            ..EmitterConfig::default()
        }
        .validate(&range, Some(3))
        .unwrap();
    }

    #[test]
    fn an_empty_archive_gets_random_genomes_in_the_mutation_phase() {
        let mut e = ScheduleEmitter::new(
            space(),
            EmitterConfig {
                one_hot: false,
                random_init: 0,
                iterations: 4,
                ..EmitterConfig::default()
            },
        );
        let mut rng = derive_rng(0, &[]);
        let g = e.ask(&archive(), 10, &mut rng);
        assert_eq!(g.len(), 4);
        assert_eq!(e.phase(), None);
        assert!(e.ask(&archive(), 10, &mut rng).is_empty());
    }
}

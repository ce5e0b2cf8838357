//! The reference MAP-Elites schedule as an emitter (tribes-rules §16).
//!
//! Three phases, in order, each asked for in batches:
//!
//! 1. the one-hot genomes of the [`GenomeSpace`] (if `one_hot`), in weight order;
//! 2. `random_init` uniform random genomes;
//! 3. `iterations` hill-climber offspring: copy the genome of a uniformly chosen elite
//!    (uniform over the occupied cells, taken in cell-index order so the choice depends only
//!    on the RNG) and mutate one weight ([`GenomeSpace::mutate`]). Parents are drawn from the
//!    archive as it is when the batch is asked for. If the archive is empty when this phase
//!    starts (say, with neither one-hot nor random genomes), it draws random genomes instead.
//!
//! A batch never mixes phases, since mutation needs the earlier phases' results in the
//! archive. The emitter's whole state is three counters ([`EmitterState`]), so it needs no
//! RNG state to be checkpointed.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::archive::{Elite, GridArchive};
use super::genome::{Genome, GenomeSpace};
use crate::rng::Rng;

/// The schedule's sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmitterConfig {
    /// Start with the one-hot genomes (the reference's "master" run).
    pub one_hot: bool,
    /// Random genomes after the one-hot ones.
    pub random_init: u64,
    /// Hill-climber offspring after the initial genomes.
    pub iterations: u64,
}

impl Default for EmitterConfig {
    /// One-hot genomes, no random ones, 100 offspring.
    fn default() -> Self {
        EmitterConfig {
            one_hot: true,
            random_init: 0,
            iterations: 100,
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
    /// Hill-climber offspring.
    Mutation,
}

/// The reference schedule: one-hot, then random, then mutated elites.
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
                let parents: Vec<&Elite> = archive.elites().map(|(_, e)| e).collect();
                (0..n)
                    .map(|_| {
                        if parents.is_empty() {
                            self.space.random(rng)
                        } else {
                            let p = parents[rng.random_range(0..parents.len())];
                            self.space.mutate(&p.genome, rng)
                        }
                    })
                    .collect()
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

    #[test]
    fn an_empty_archive_gets_random_genomes_in_the_mutation_phase() {
        let mut e = ScheduleEmitter::new(
            space(),
            EmitterConfig {
                one_hot: false,
                random_init: 0,
                iterations: 4,
            },
        );
        let mut rng = derive_rng(0, &[]);
        let g = e.ask(&archive(), 10, &mut rng);
        assert_eq!(g.len(), 4);
        assert_eq!(e.phase(), None);
        assert!(e.ask(&archive(), 10, &mut rng).is_empty());
    }
}

//! Adaptive sampling: how many games a genome plays before the archive decides its place
//! (Justesen et al. 2019, "MAP-Elites for noisy domains by adaptive sampling"; the
//! re-sampled elites of Flageat et al. 2023, "Uncertain Quality-Diversity").
//!
//! A genome's games come in *rounds* of repetitions (each round plays every training level
//! that many more times): its first round has [`Adaptive::first_repetitions`], every later
//! one [`Adaptive::step_repetitions`], up to [`Adaptive::max_repetitions`] in all. After each
//! of its rounds a candidate is judged against the elite of the cell its record now places it
//! in ([`Adaptive::judge`]), with `lo`/`hi` the Wilson interval of a record's win rate at
//! [`Adaptive::z`], and *settled* meaning every feature's standard error is at most
//! [`Adaptive::se_fraction`] × that axis's cell width (or the candidate has played its
//! maximum). With [`Adaptive::placement_z`] > 0, settled also needs the candidate to be
//! *placed*: every feature's interval `mean ± placement_z · SE` lies in the mean's cell, so
//! that an elite is one whose cell a re-play is likely to confirm (in the spirit of
//! Grillotti et al. 2023, "Don't Bet on Luck Alone", which keeps elites of reproducible
//! behaviour); a candidate still not placed at its maximum is dropped. With
//! [`Adaptive::min_win_rate`] > 0, settled also needs the lower end of the candidate's win-rate
//! interval at or above it (a personality that surely still wins); one whose upper end lies
//! below is dropped at once, and one still unsure at its maximum is dropped.
//!
//! 1. an empty cell: a settled candidate enters it; an unsettled one plays another round;
//! 2. an occupied cell: a candidate clearly worse (its `hi` below the elite's `lo`) is
//!    dropped; an unsettled one plays another round; a settled one that does not beat the
//!    elite under the archive's [`Replacement`] rule is dropped; one clearly better (its `lo`
//!    above the elite's `hi`) replaces it;
//! 3. otherwise the decision lies within the intervals: the candidate *challenges* the elite.
//!    The first time it challenges this elite, the elite is re-played one round (unless it has
//!    played its maximum) while the candidate plays another (unless it has); after that the
//!    candidate plays rounds until it has played at least as many games as the elite (or its
//!    maximum), and then replaces it if it still beats it.
//!
//! An elite re-played adds the new games to its record; if its new means place it in another
//! cell, it leaves its cell and enters the new one as a candidate would at the end of its
//! rounds (if that cell is empty or it beats the elite there; otherwise it is dropped). With
//! `placement_z` or `min_win_rate`, a re-played elite that no longer qualifies
//! ([`Adaptive::qualifies`]) is dropped too, so that every elite of the archive does.
//! Every rule looks at the records only, so the outcome depends on nothing but the games.

use serde::{Deserialize, Serialize};

use super::archive::Elite;
use super::axis::FeatureAxis;
use super::evaluation::Evaluation;
use super::genome::Genome;
use super::replacement::{Replacement, wilson_lower_bound};
use crate::error::{Error, Result};

/// The settings of adaptive sampling (`[map_elites.adaptive]` of a run config).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adaptive {
    /// Repetitions (per level) of a genome's first round (≥ 1).
    pub first_repetitions: u32,
    /// Repetitions (per level) of every later round (≥ 1).
    pub step_repetitions: u32,
    /// Most repetitions (per level) a genome plays in all (≥ `first_repetitions`).
    pub max_repetitions: u32,
    /// A feature is settled when its standard error is at most this fraction of its axis's
    /// cell width (> 0).
    pub se_fraction: f64,
    /// Width of the win rate's Wilson interval in standard deviations (≥ 0; 1.96 for 95 %).
    pub z: f64,
    /// Width, in standard errors, of the feature interval that must lie in the candidate's
    /// cell before it may enter (≥ 0; 0, the default, checks nothing).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub placement_z: f64,
    /// The least win rate an elite must surely reach: the lower end of its Wilson interval at
    /// [`Adaptive::floor_z`] (in [0, 1]; 0, the default, checks nothing).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_win_rate: f64,
    /// Width of the Wilson interval that [`Adaptive::min_win_rate`] is checked on (≥ 0; `None`:
    /// [`Adaptive::z`]). A run's default strength floor is a fair share at one standard
    /// deviation (`floor_z = 1`) while duels keep 95 % (`z = 1.96`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_z: Option<f64>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// The Wilson interval of a record's win rate at `z` standard deviations.
fn wilson_interval(e: &Evaluation, z: f64) -> (f64, f64) {
    let lo = wilson_lower_bound(e.wins, e.games, z);
    let hi = 1.0 - wilson_lower_bound(e.games - e.wins, e.games, z);
    (lo, hi)
}

/// The config section the settings come from, naming fields in errors.
const SECTION: &str = "map_elites.adaptive";

impl Adaptive {
    /// Checks the settings; the error names the field (`map_elites.adaptive.<field>`).
    pub fn validate(&self) -> Result<()> {
        let field = |f: &str| format!("{SECTION}.{f}");
        if self.first_repetitions == 0 {
            return Err(Error::config(
                field("first_repetitions"),
                "must be at least 1",
            ));
        }
        if self.step_repetitions == 0 {
            return Err(Error::config(
                field("step_repetitions"),
                "must be at least 1",
            ));
        }
        if self.max_repetitions < self.first_repetitions {
            return Err(Error::config(
                field("max_repetitions"),
                format!(
                    "must be at least first_repetitions ({}), got {}",
                    self.first_repetitions, self.max_repetitions
                ),
            ));
        }
        if !(self.se_fraction.is_finite() && self.se_fraction > 0.0) {
            return Err(Error::config(
                field("se_fraction"),
                format!("must be a positive number, got {}", self.se_fraction),
            ));
        }
        if !(self.z.is_finite() && self.z >= 0.0) {
            return Err(Error::config(
                field("z"),
                format!("must be a finite number ≥ 0, got {}", self.z),
            ));
        }
        if !(self.placement_z.is_finite() && self.placement_z >= 0.0) {
            return Err(Error::config(
                field("placement_z"),
                format!("must be a finite number ≥ 0, got {}", self.placement_z),
            ));
        }
        if let Some(z) = self.floor_z
            && !(z.is_finite() && z >= 0.0)
        {
            return Err(Error::config(
                field("floor_z"),
                format!("must be a finite number ≥ 0, got {z}"),
            ));
        }
        if !(0.0..=1.0).contains(&self.min_win_rate) {
            return Err(Error::config(
                field("min_win_rate"),
                format!("must be a number in [0, 1], got {}", self.min_win_rate),
            ));
        }
        Ok(())
    }

    /// The repetitions of the next round of a genome that has played `played`: empty once
    /// it has played [`Adaptive::max_repetitions`].
    pub fn next_round(&self, played: u32) -> std::ops::Range<u32> {
        let size = if played == 0 {
            self.first_repetitions
        } else {
            self.step_repetitions
        };
        let end = played.saturating_add(size).min(self.max_repetitions);
        played.min(end)..end
    }

    /// True when every feature's standard error ([`Evaluation::standard_error`]) is at most
    /// `se_fraction` × its axis's cell width.
    pub fn settled(&self, evaluation: &Evaluation, axes: &[FeatureAxis]) -> bool {
        axes.iter()
            .enumerate()
            .all(|(k, a)| evaluation.standard_error(k) <= self.se_fraction * a.cell_width())
    }

    /// True when every feature's interval `mean ± placement_z · SE` lies in the cell of its
    /// mean (always with `placement_z` 0; edge cells are open outwards).
    pub fn placed(&self, evaluation: &Evaluation, axes: &[FeatureAxis]) -> bool {
        if self.placement_z == 0.0 {
            return true;
        }
        axes.iter().enumerate().all(|(k, a)| {
            let mean = evaluation.descriptor_means[k];
            let margin = self.placement_z * evaluation.standard_error(k);
            let cell = a.index_of(mean);
            margin.is_finite()
                && a.index_of(mean - margin) == cell
                && a.index_of(mean + margin) == cell
        })
    }

    /// True when a record may hold a cell: [placed](Adaptive::placed), and the lower end of its
    /// win rate's interval at [`Adaptive::floor_z`] at least [`Adaptive::min_win_rate`].
    pub fn qualifies(&self, evaluation: &Evaluation, axes: &[FeatureAxis]) -> bool {
        self.floor_interval(evaluation).0 >= self.min_win_rate && self.placed(evaluation, axes)
    }

    /// The Wilson interval of a record's win rate at [`Adaptive::z`].
    pub fn interval(&self, e: &Evaluation) -> (f64, f64) {
        wilson_interval(e, self.z)
    }

    /// The Wilson interval of a record's win rate at [`Adaptive::floor_z`], which the strength
    /// floor is checked on.
    pub fn floor_interval(&self, e: &Evaluation) -> (f64, f64) {
        wilson_interval(e, self.floor_z.unwrap_or(self.z))
    }

    /// What to do with `candidate` after its latest round, `incumbent` the elite of the cell
    /// its record places it in (see the [module docs](self) for the rules).
    pub fn judge(
        &self,
        candidate: &Pending,
        incumbent: Option<&Elite>,
        rule: Replacement,
        axes: &[FeatureAxis],
    ) -> Verdict {
        let c = &candidate.evaluation;
        let capped = candidate.repetitions >= self.max_repetitions;
        let (c_lo, c_hi) = self.interval(c);
        let qualifies = self.qualifies(c, axes);
        if self.floor_interval(c).1 < self.min_win_rate || (capped && !qualifies) {
            return Verdict::Drop;
        }
        let settled = capped || (qualifies && self.settled(c, axes));
        let Some(elite) = incumbent else {
            return if settled {
                Verdict::Enter
            } else {
                Verdict::Extend { replay: None }
            };
        };
        let e = &elite.evaluation;
        let (e_lo, e_hi) = self.interval(e);
        if c_hi < e_lo {
            return Verdict::Drop;
        }
        if !settled {
            return Verdict::Extend { replay: None };
        }
        if !rule.beats(c, e) {
            return Verdict::Drop;
        }
        if c_lo > e_hi {
            return Verdict::Enter;
        }
        let elite_capped = elite.repetitions >= self.max_repetitions;
        if candidate.challenged != Some(elite.index) && !elite_capped {
            return Verdict::Extend {
                replay: Some(elite.index),
            };
        }
        if !capped && c.games < e.games {
            return Verdict::Extend { replay: None };
        }
        Verdict::Enter
    }
}

/// A candidate whose place is not decided yet: it plays another round in the next batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// Its evaluation index.
    pub index: u64,
    /// The genome.
    pub genome: Genome,
    /// Its games so far.
    pub evaluation: Evaluation,
    /// Repetitions (per level) played so far.
    pub repetitions: u32,
    /// The elite (its evaluation index) it has had re-played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenged: Option<u64>,
}

/// The outcome of [`Adaptive::judge`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It takes its cell (empty, or replacing the elite).
    Enter,
    /// It is dropped.
    Drop,
    /// It plays another round (if it has repetitions left); `replay`: the elite (its
    /// evaluation index) to re-play one round alongside.
    Extend {
        /// The challenged elite to re-play, if any.
        replay: Option<u64>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Adaptive {
        Adaptive {
            first_repetitions: 2,
            step_repetitions: 3,
            max_repetitions: 10,
            se_fraction: 0.5,
            z: 1.96,
            placement_z: 0.0,
            min_win_rate: 0.0,
            floor_z: None,
        }
    }

    fn axes() -> Vec<FeatureAxis> {
        vec![FeatureAxis::bucket("a", 0.0, 20.0, 2.0).unwrap()]
    }

    /// A record of `games` games, `wins` won, feature mean 5 with standard error `se`.
    fn record(games: u32, wins: u32, se: f64) -> Evaluation {
        let n = f64::from(games);
        Evaluation {
            fitness: f64::from(wins) / n,
            games,
            wins,
            descriptor_means: vec![5.0],
            descriptor_spreads: vec![se * (n - 1.0).sqrt()],
            descriptor_counts: vec![games],
            ..Evaluation::default()
        }
    }

    fn pending(evaluation: Evaluation, repetitions: u32) -> Pending {
        Pending {
            index: 9,
            genome: Genome::new(vec![0.0]),
            evaluation,
            repetitions,
            challenged: None,
        }
    }

    fn elite(evaluation: Evaluation, repetitions: u32) -> Elite {
        Elite {
            index: 3,
            genome: Genome::new(vec![1.0]),
            evaluation,
            repetitions,
        }
    }

    #[test]
    fn bad_settings_name_their_field() {
        let field = |a: Adaptive| match a.validate() {
            Err(Error::Config { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        let s = settings();
        assert_eq!(
            field(Adaptive {
                first_repetitions: 0,
                ..s
            }),
            "map_elites.adaptive.first_repetitions"
        );
        assert_eq!(
            field(Adaptive {
                max_repetitions: 1,
                ..s
            }),
            "map_elites.adaptive.max_repetitions"
        );
        assert_eq!(
            field(Adaptive {
                se_fraction: 0.0,
                ..s
            }),
            "map_elites.adaptive.se_fraction"
        );
        assert_eq!(
            field(Adaptive { z: f64::NAN, ..s }),
            "map_elites.adaptive.z"
        );
        assert_eq!(
            field(Adaptive {
                placement_z: -1.0,
                ..s
            }),
            "map_elites.adaptive.placement_z"
        );
        assert_eq!(
            field(Adaptive {
                min_win_rate: 1.5,
                ..s
            }),
            "map_elites.adaptive.min_win_rate"
        );
        s.validate().unwrap();
    }

    #[test]
    fn rounds_start_small_and_stop_at_the_maximum() {
        let s = settings();
        assert_eq!(s.next_round(0), 0..2);
        assert_eq!(s.next_round(2), 2..5);
        assert_eq!(s.next_round(8), 8..10);
        assert!(s.next_round(10).is_empty());
    }

    #[test]
    fn a_candidate_plays_on_while_its_cell_is_uncertain() {
        let (s, rule) = (settings(), Replacement::Paper);
        // Cell width 2, se_fraction 0.5: settled when SE ≤ 1.
        let loose = pending(record(4, 2, 1.5), 2);
        let tight = pending(record(4, 2, 0.5), 2);
        assert_eq!(
            s.judge(&loose, None, rule, &axes()),
            Verdict::Extend { replay: None }
        );
        assert_eq!(s.judge(&tight, None, rule, &axes()), Verdict::Enter);
        // At the maximum it is placed whatever its error.
        let capped = pending(record(20, 2, 1.5), 10);
        assert_eq!(s.judge(&capped, None, rule, &axes()), Verdict::Enter);
    }

    #[test]
    fn a_challenge_replays_the_elite_once_then_needs_as_many_games() {
        let (s, rule) = (settings(), Replacement::Paper);
        let inc = elite(record(20, 10, 0.1), 5);
        // Clearly worse: dropped at once, even unsettled.
        let hopeless = pending(record(20, 0, 1.5), 10 - 5);
        assert_eq!(s.judge(&hopeless, Some(&inc), rule, &axes()), Verdict::Drop);
        // Settled but not better on the rule: dropped.
        let worse = pending(record(4, 1, 0.5), 2);
        assert_eq!(s.judge(&worse, Some(&inc), rule, &axes()), Verdict::Drop);
        // Better within the intervals: the elite is re-played.
        let mut better = pending(record(4, 3, 0.5), 2);
        assert_eq!(
            s.judge(&better, Some(&inc), rule, &axes()),
            Verdict::Extend { replay: Some(3) }
        );
        // Once challenged, it plays on until it has as many games as the elite.
        better.challenged = Some(3);
        assert_eq!(
            s.judge(&better, Some(&inc), rule, &axes()),
            Verdict::Extend { replay: None }
        );
        let caught_up = Pending {
            challenged: Some(3),
            ..pending(record(20, 12, 0.5), 10)
        };
        assert_eq!(
            s.judge(&caught_up, Some(&inc), rule, &axes()),
            Verdict::Enter
        );
        // Clearly better: enters at once.
        let strong = pending(record(40, 39, 0.1), 10);
        assert_eq!(s.judge(&strong, Some(&inc), rule, &axes()), Verdict::Enter);
    }

    #[test]
    fn with_placement_z_a_candidate_enters_only_well_inside_its_cell() {
        let rule = Replacement::Paper;
        let s = Adaptive {
            placement_z: 1.0,
            ..settings()
        };
        // Axis "a": buckets of width 2; mean 5 rounds into the cell of 5–6, whose values
        // are [4.5, 6.5). SE 0.4: 4.6–5.4 lies inside; SE 0.8: 4.2 falls in the cell below.
        let inside = record(40, 20, 0.4);
        let straddling = record(40, 20, 0.8);
        assert!(s.placed(&inside, &axes()));
        assert!(!s.placed(&straddling, &axes()));
        assert!(settings().placed(&straddling, &axes()));
        assert_eq!(
            s.judge(&pending(inside, 2), None, rule, &axes()),
            Verdict::Enter
        );
        // Settled by its error (≤ 1) but not placed: it plays on, and is dropped at its
        // maximum, even in an empty cell.
        assert_eq!(
            s.judge(&pending(straddling.clone(), 2), None, rule, &axes()),
            Verdict::Extend { replay: None }
        );
        assert_eq!(
            s.judge(&pending(straddling.clone(), 10), None, rule, &axes()),
            Verdict::Drop
        );
        // An edge cell is open outwards: a mean far below the axis is placed whatever its
        // error.
        let mut low = straddling;
        low.descriptor_means = vec![-10.0];
        assert!(s.placed(&low, &axes()));
    }

    #[test]
    fn with_min_win_rate_a_candidate_enters_only_when_it_surely_wins_that_often() {
        let rule = Replacement::Paper;
        let s = Adaptive {
            min_win_rate: 0.25,
            ..settings()
        };
        // 40 games at SE 0.4 (settled, placed): 20 won — interval [0.35, 0.65] — enters;
        // 12 won — [0.18, 0.46] — plays on, and is dropped at its maximum; 2 won —
        // [0.01, 0.17] — is dropped at once.
        let (sure, unsure, weak) = (record(40, 20, 0.4), record(40, 12, 0.4), record(40, 2, 0.4));
        assert!(s.qualifies(&sure, &axes()) && !s.qualifies(&unsure, &axes()));
        assert_eq!(
            s.judge(&pending(sure, 2), None, rule, &axes()),
            Verdict::Enter
        );
        assert_eq!(
            s.judge(&pending(unsure.clone(), 2), None, rule, &axes()),
            Verdict::Extend { replay: None }
        );
        assert_eq!(
            s.judge(&pending(unsure, 10), None, rule, &axes()),
            Verdict::Drop
        );
        assert_eq!(
            s.judge(&pending(weak, 2), None, rule, &axes()),
            Verdict::Drop
        );
    }

    #[test]
    fn the_strength_floor_is_checked_at_its_own_width() {
        // 13 of 20 won: the 95 % interval starts at 0.43, the one-sigma one at 0.54. A fair
        // share of a two-player game (0.5) is cleared at floor_z = 1, not at z = 1.96.
        let axes = axes();
        let e = record(20, 13, 0.1);
        let at_z = Adaptive {
            min_win_rate: 0.5,
            ..settings()
        };
        assert!(!at_z.qualifies(&e, &axes));
        let at_one = Adaptive {
            floor_z: Some(1.0),
            ..at_z
        };
        assert!(at_one.qualifies(&e, &axes));
        assert!((at_one.floor_interval(&e).0 - 0.539).abs() < 1e-3);
        match (Adaptive {
            floor_z: Some(-1.0),
            ..at_one
        })
        .validate()
        {
            Err(Error::Config { field, .. }) => assert_eq!(field, "map_elites.adaptive.floor_z"),
            other => panic!("{other:?}"),
        }
    }
}

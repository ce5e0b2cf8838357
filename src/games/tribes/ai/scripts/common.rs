//! Helpers shared by the scripts: Java's `normalise`, uniform tie-breaking without buffers, and
//! the "first action with the best attribute" selection of the max/min scripts.

use rand::RngExt;

use crate::games::tribes::Action;
use crate::rng::Rng;

/// Java's `Utils.normalise`: `(v − min) / (max − min)`, or `v` itself when the bounds are
/// empty or inverted.
#[inline]
pub fn normalise(v: f64, min: f64, max: f64) -> f64 {
    if min < max {
        (v - min) / (max - min)
    } else {
        v
    }
}

/// A uniform choice among the actions offered since the last reset (reservoir sampling: one
/// pass, no buffer, every offered action equally likely).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pick {
    chosen: Option<Action>,
    count: u32,
}

impl Pick {
    /// Forgets every candidate.
    #[inline]
    pub fn reset(&mut self) {
        *self = Pick::default();
    }

    /// Adds a candidate.
    #[inline]
    pub fn add(&mut self, a: Action, rng: &mut Rng) {
        self.count += 1;
        if self.count == 1 || rng.random_range(0..self.count) == 0 {
            self.chosen = Some(a);
        }
    }

    /// The chosen candidate, if any was offered.
    #[inline]
    pub fn get(&self) -> Option<Action> {
        self.chosen
    }
}

/// Keeps the highest value seen and a uniform choice among the actions that reach it
/// (ties with the starting value are kept, as in the Java helpers that start at 0).
#[derive(Clone, Copy, Debug)]
pub struct Best {
    /// The best value so far (the starting value until something beats it).
    pub value: f64,
    /// The actions tied at `value`.
    pub pick: Pick,
}

impl Best {
    /// Starts at `value` with no candidate.
    #[inline]
    pub fn from(value: f64) -> Self {
        Best {
            value,
            pick: Pick::default(),
        }
    }

    /// Offers `a` with value `v`.
    #[inline]
    pub fn offer(&mut self, a: Action, v: f64, rng: &mut Rng) {
        if v > self.value {
            self.value = v;
            self.pick.reset();
        }
        if v == self.value {
            self.pick.add(a, rng);
        }
    }

    /// The chosen action with the best value.
    #[inline]
    pub fn result(&self) -> Option<(Action, f64)> {
        self.pick.get().map(|a| (a, self.value))
    }
}

/// Java's `getActionByActorAttr`: the *first* action whose attribute is the best (highest when
/// `maximise`, else lowest), valued `normalise(best, 0, m)` where `m` is the largest running
/// best seen (so 1 for any positive maximum), or one minus that when minimising. Actions whose
/// attribute is `None` (no target) are skipped.
pub fn by_attr(
    actions: &[Action],
    maximise: bool,
    mut attr: impl FnMut(Action) -> Option<f64>,
) -> Option<(Action, f64)> {
    let mut best = if maximise {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let mut running_max = f64::NEG_INFINITY;
    let mut chosen = None;
    for &a in actions {
        let Some(v) = attr(a) else { continue };
        if (maximise && v > best) || (!maximise && v < best) {
            best = v;
            chosen = Some(a);
        }
        running_max = running_max.max(best);
    }
    let value = normalise(best, 0.0, running_max);
    chosen.map(|a| (a, if maximise { value } else { 1.0 - value }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tribes::ActionKind;
    use crate::rng::rng_from_seed;

    fn act(i: usize) -> Action {
        Action::new(ActionKind::Move, 0, 0, i)
    }

    #[test]
    fn normalise_returns_the_value_for_empty_bounds() {
        assert_eq!(normalise(3.0, 0.0, 6.0), 0.5);
        assert_eq!(normalise(0.0, 0.0, 0.0), 0.0);
        assert_eq!(normalise(0.0, -1.0, 1.0), 0.5);
    }

    #[test]
    fn by_attr_takes_the_first_best_and_values_like_java() {
        let acts: Vec<Action> = (0..4).map(act).collect();
        let vals = [2.0, 5.0, 5.0, 1.0];
        let max = by_attr(&acts, true, |a| Some(vals[a.target as usize])).unwrap();
        assert_eq!(max, (acts[1], 1.0));
        let min = by_attr(&acts, false, |a| Some(vals[a.target as usize])).unwrap();
        // Running minimum 2, 2, 2, 1: its largest value is the first attribute.
        assert_eq!(min, (acts[3], 0.5));
        let zero = by_attr(&acts, true, |_| Some(0.0)).unwrap();
        assert_eq!(zero, (acts[0], 0.0));
    }

    #[test]
    fn pick_is_roughly_uniform() {
        let mut rng = rng_from_seed(3);
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            let mut p = Pick::default();
            for i in 0..3 {
                p.add(act(i), &mut rng);
            }
            seen[p.get().unwrap().target as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn best_keeps_ties_with_the_start_value() {
        let mut rng = rng_from_seed(1);
        let mut b = Best::from(0.0);
        b.offer(act(0), -1.0, &mut rng);
        assert_eq!(b.result(), None);
        b.offer(act(1), 0.0, &mut rng);
        assert_eq!(b.result(), Some((act(1), 0.0)));
        b.offer(act(2), 0.5, &mut rng);
        assert_eq!(b.result(), Some((act(2), 0.5)));
    }
}

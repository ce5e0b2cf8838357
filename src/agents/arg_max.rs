//! Arg-max with uniformly random tie-breaking, with which OSLA, MCTS and Portfolio MCTS pick
//! their best action or child.

use rand::RngExt;

use crate::rng::Rng;

/// Arg-max with uniformly random tie-breaking (reservoir sampling over exact ties), which
/// picks the same distribution as the reference's multiplicative noise at a fraction of the
/// cost: a random number is drawn only on a tie.
pub struct ArgMax {
    best: f64,
    ties: u32,
    /// The chosen item (`u32::MAX` if nothing was offered).
    pub item: u32,
}

impl Default for ArgMax {
    fn default() -> Self {
        ArgMax {
            best: f64::NEG_INFINITY,
            ties: 0,
            item: u32::MAX,
        }
    }
}

impl ArgMax {
    /// Considers `item` with score `v`.
    #[inline]
    pub fn offer(&mut self, v: f64, item: u32, rng: &mut Rng) {
        if self.item == u32::MAX {
            (self.best, self.ties, self.item) = (v, 1, item);
        } else {
            self.step(v, item, rng);
        }
    }

    /// Considers `item` with score `v` once something was offered.
    #[inline(always)]
    fn step(&mut self, v: f64, item: u32, rng: &mut Rng) {
        if v > self.best {
            (self.best, self.ties, self.item) = (v, 1, item);
        } else if v == self.best {
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.item = item;
            }
        }
    }
}

/// The item of the highest score, ties broken as [`ArgMax`] breaks them (the same random
/// draws), `u32::MAX` if there is none; the first item needs no test in the loop.
#[inline(always)]
pub fn arg_max(mut scored: impl Iterator<Item = (f64, u32)>, rng: &mut Rng) -> u32 {
    let Some((best, item)) = scored.next() else {
        return u32::MAX;
    };
    let mut max = ArgMax {
        best,
        ties: 1,
        item,
    };
    for (v, i) in scored {
        max.step(v, i, rng);
    }
    max.item
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    #[test]
    fn arg_max_draws_as_arg_max_offers_and_breaks_ties_among_the_best_only() {
        let scores = [1.0, 3.0, 2.0, 3.0, 3.0, 0.5];
        for seed in 0..20 {
            let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
            let mut max = ArgMax::default();
            for (i, &v) in scores.iter().enumerate() {
                max.offer(v, i as u32, &mut a);
            }
            let item = arg_max(scores.iter().copied().zip(0..), &mut b);
            assert_eq!(item, max.item);
            assert!([1, 3, 4].contains(&item));
            assert_eq!(a.random::<u64>(), b.random::<u64>());
        }
        assert_eq!(arg_max(std::iter::empty(), &mut rng_from_seed(0)), u32::MAX);
    }
}

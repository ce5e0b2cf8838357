//! The only place random number generators are made, and the one weighted draw the agents
//! share ([`weighted_index`]).
//!
//! Every RNG is a portable PCG-64 (`rand_pcg::Pcg64Mcg`) seeded by hashing a run seed with a list
//! of tags (genome index, game index, …), so results do not depend on thread count, platform or
//! `rand`'s choice of `StdRng`.

use rand::{RngExt, SeedableRng};

/// The project's RNG: portable and reproducible from its seed.
pub type Rng = rand_pcg::Pcg64Mcg;

/// SplitMix64 finaliser: a fast, well-mixing 64-bit hash step.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stable 64-bit hash of `bytes` (FNV-1a, then [`mix64`]): the same on every platform and
/// build, for fingerprints stored in files (checkpoints, task files).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    mix64(h)
}

/// Derives a 64-bit seed from a run seed and tags (order matters).
pub fn derive_seed(seed: u64, tags: &[u64]) -> u64 {
    let mut h = mix64(seed);
    for &t in tags {
        h = mix64(h ^ mix64(t.wrapping_add(0x632B_E59B_D9B4_E019)));
    }
    h
}

/// An RNG derived from a run seed and tags.
pub fn derive_rng(seed: u64, tags: &[u64]) -> Rng {
    Rng::seed_from_u64(derive_seed(seed, tags))
}

/// An RNG from a plain seed.
pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// An index of `weights` drawn in proportion to its weight (one `f64` drawn from `rng`), or
/// `None`, drawing nothing, when the weights do not sum to a positive finite number. Where
/// rounding leaves the draw past the end, the last index of positive weight.
pub fn weighted_index<I>(weights: I, rng: &mut Rng) -> Option<usize>
where
    I: IntoIterator<Item = f64>,
    I::IntoIter: Clone,
{
    let weights = weights.into_iter();
    let total: f64 = weights.clone().sum();
    if !(total > 0.0 && total.is_finite()) {
        return None;
    }
    let mut r = rng.random::<f64>() * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if r < w {
            return Some(i);
        }
        r -= w;
        if w > 0.0 {
            last = i;
        }
    }
    Some(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    #[test]
    fn derived_seeds_depend_on_every_tag_and_their_order() {
        let a = derive_seed(7, &[1, 2]);
        assert_ne!(a, derive_seed(7, &[2, 1]));
        assert_ne!(a, derive_seed(8, &[1, 2]));
        assert_ne!(a, derive_seed(7, &[1, 2, 0]));
        assert_eq!(a, derive_seed(7, &[1, 2]));
    }

    #[test]
    fn derived_rngs_replay() {
        let mut r1 = derive_rng(42, &[3]);
        let mut r2 = derive_rng(42, &[3]);
        assert_eq!(r1.next_u64(), r2.next_u64());
    }

    #[test]
    fn weighted_index_draws_in_proportion_and_never_a_zero_weight() {
        let mut rng = rng_from_seed(3);
        let mut count = [0u32; 4];
        for _ in 0..20_000 {
            count[weighted_index([1.0, 0.0, 3.0, 0.0], &mut rng).unwrap()] += 1;
        }
        assert_eq!((count[1], count[3]), (0, 0));
        let share = f64::from(count[2]) / 20_000.0;
        assert!((share - 0.75).abs() < 0.02, "{share}");
        // Nothing to draw from: no number is drawn.
        let before = rng.clone();
        assert_eq!(weighted_index([0.0, 0.0], &mut rng), None);
        assert_eq!(weighted_index(std::iter::empty::<f64>(), &mut rng), None);
        assert_eq!(weighted_index([f64::INFINITY, 1.0], &mut rng), None);
        assert_eq!(rng.next_u64(), before.clone().next_u64());
    }
}

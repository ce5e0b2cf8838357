//! Pieces shared by the tree searches: value normalisation, tie-breaking noise, and the
//! selection value of a child for the player to move.

use crate::game::{Game, Player, Turn};

/// Small constant of the reference searches (`epsilon`).
pub const EPSILON: f64 = 1e-6;

/// Maps `v` from `[lo, hi]` to `[0, 1]`; returns `v` unchanged if the bounds are not valid.
#[inline]
pub fn normalise(v: f64, lo: f64, hi: f64) -> f64 {
    if lo < hi { (v - lo) / (hi - lo) } else { v }
}

/// The reference's tie-breaking noise: `(v + ε)(1 + ε(u − ½))` with `u` uniform in [0, 1).
#[inline]
pub fn noise(v: f64, u: f64) -> f64 {
    (v + EPSILON) * (1.0 + EPSILON * (u - 0.5))
}

/// Makes `states[idx]` the state of `states[parent]` after `action` (reusing the buffers of
/// a state left at `idx` by an earlier search, else pushing one) and returns who moves there.
/// Search trees keep one state per node, indexed like their nodes.
pub fn child_state<G: Game>(
    game: &G,
    states: &mut Vec<G::State>,
    idx: usize,
    parent: usize,
    action: G::Action,
) -> Option<Player> {
    if idx < states.len() {
        let (before, after) = states.split_at_mut(idx);
        after[0].clone_from(&before[parent]);
    } else {
        let s = states[parent].clone();
        states.push(s);
    }
    let state = &mut states[idx];
    game.apply(state, action);
    match game.turn(state) {
        Turn::Player(p) => Some(p),
        Turn::Terminal => None,
    }
}

/// Observed bounds of the values backed up through a node.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Smallest value seen.
    pub lo: f64,
    /// Largest value seen.
    pub hi: f64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            lo: f64::MAX,
            hi: -f64::MAX,
        }
    }
}

impl Bounds {
    /// Widens the bounds to include `v`.
    #[inline]
    pub fn add(&mut self, v: f64) {
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
    }
}

/// How a node chooses among its children: the searching player maximises its value; the
/// opponent's choice depends on the compatibility mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentModel {
    /// The opponent maximises `(1 − Q) + exploration` (the intended minimax-style rule).
    Adversarial,
    /// The opponent minimises `Q + exploration`, as the Java searches do.
    JavaMin,
}

/// The score used to select a child (`q` normalised to [0, 1], `explore` the UCB bonus, `bias`
/// a progressive-bias term); the child with the highest score is taken (ties at random).
#[inline]
pub fn selection_score(
    q: f64,
    explore: f64,
    bias: f64,
    my_move: bool,
    model: OpponentModel,
) -> f64 {
    match (my_move, model) {
        (true, _) => q + explore + bias,
        (false, OpponentModel::Adversarial) => (1.0 - q) + explore + bias,
        (false, OpponentModel::JavaMin) => -(q + explore + bias),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_maps_bounds_to_unit_interval_and_passes_invalid_bounds() {
        assert_eq!(normalise(5.0, 0.0, 10.0), 0.5);
        assert_eq!(normalise(3.0, 1.0, 1.0), 3.0);
    }

    #[test]
    fn noise_keeps_order_of_distinct_values() {
        assert!(noise(0.5, 0.99) < noise(0.5001, 0.0));
    }

    #[test]
    fn the_opponent_prefers_low_values_in_both_models() {
        for m in [OpponentModel::Adversarial, OpponentModel::JavaMin] {
            let low = selection_score(0.1, 0.0, 0.0, false, m);
            let high = selection_score(0.9, 0.0, 0.0, false, m);
            assert!(low > high, "{m:?}");
        }
    }
}

//! Pieces shared by the tree searches: the node statistics, value normalisation, and the
//! selection value of a child for the player to move. (Ties are broken at random by
//! [`super::mcts::ArgMax`], not by the reference's multiplicative noise.)

use super::search_loop::{NodeView, UNOPENED};
use crate::game::{Game, Player, Turn};

/// Small constant of the reference searches (`epsilon`).
pub const EPSILON: f64 = 1e-6;

/// Maps `v` from `[lo, hi]` to `[0, 1]`; returns `v` unchanged if the bounds are not valid.
#[inline]
pub fn normalise(v: f64, lo: f64, hi: f64) -> f64 {
    if lo < hi { (v - lo) / (hi - lo) } else { v }
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

/// `NodeHead::parent` of the root.
pub const NO_PARENT: u32 = u32::MAX;

/// What every node of MCTS and Portfolio MCTS keeps: its place in the tree, its statistics,
/// and the range of its child slots in the search's arenas (`len == UNOPENED` until the node
/// is first opened: most leaves are evaluated once and never opened).
#[derive(Clone, Debug)]
pub struct NodeHead {
    /// Parent node, or [`NO_PARENT`].
    pub parent: u32,
    /// Distance from the root.
    pub depth: u32,
    /// Who moves in the node's state; `None` if the game is over there.
    pub to_move: Option<Player>,
    /// Values backed up through the node.
    pub visits: u32,
    /// Their sum.
    pub total: f64,
    /// `total / (visits + ε)` and `1 / sqrt(visits + ε)`, kept up to date by [`NodeHead::add`]
    /// so that selection costs a few multiplications per child.
    pub mean: f64,
    /// See `mean`.
    pub inv_sqrt: f64,
    /// Smallest and largest value backed up.
    pub bounds: Bounds,
    /// First child slot.
    pub first: u32,
    /// Child slots, or [`UNOPENED`].
    pub len: u32,
    /// Child slots expanded so far.
    pub expanded: u32,
}

impl NodeHead {
    /// The root of a search for `me`, with no child slots yet.
    pub fn root(me: Player) -> Self {
        NodeHead {
            len: 0,
            ..NodeHead::child(NO_PARENT, 0, Some(me))
        }
    }

    /// A new, unopened node at `depth` below `parent`.
    pub fn child(parent: u32, depth: u32, to_move: Option<Player>) -> Self {
        NodeHead {
            parent,
            depth,
            to_move,
            visits: 0,
            total: 0.0,
            mean: 0.0,
            inv_sqrt: 1.0 / EPSILON.sqrt(),
            bounds: Bounds::default(),
            first: 0,
            len: UNOPENED,
            expanded: 0,
        }
    }

    /// What the search loop reads of the node.
    pub fn view(&self) -> NodeView {
        NodeView {
            terminal: self.to_move.is_none(),
            depth: self.depth,
            len: self.len,
            expanded: self.expanded,
        }
    }

    /// Counts one more backed-up value `v`.
    #[inline]
    pub fn add(&mut self, v: f64) {
        self.visits += 1;
        self.total += v;
        let nv = self.visits as f64 + EPSILON;
        self.mean = self.total / nv;
        self.inv_sqrt = 1.0 / nv.sqrt();
        self.bounds.add(v);
    }
}

/// A node type built on a [`NodeHead`], as [`backup`] needs it.
pub trait Headed {
    /// The node's head, mutably.
    fn head_mut(&mut self) -> &mut NodeHead;
}

impl Headed for NodeHead {
    fn head_mut(&mut self) -> &mut NodeHead {
        self
    }
}

/// Adds `v` to node `n` and every node above it.
pub fn backup<N: Headed>(nodes: &mut [N], mut n: u32, v: f64) {
    while n != NO_PARENT {
        let head = nodes[n as usize].head_mut();
        head.add(v);
        n = head.parent;
    }
}

/// Makes `states[0]` the root state of a new search, reusing its buffers: `observed`
/// determinised for `viewer` ([`Game::determinise`], drawing from `rng`), so that a search
/// never peeks at hidden information or future chance draws. One determinisation per
/// decision: the whole tree searches that one sampled world.
pub fn set_root_state<G: Game>(
    game: &G,
    states: &mut Vec<G::State>,
    observed: &G::State,
    viewer: Player,
    rng: &mut crate::rng::Rng,
) {
    if states.is_empty() {
        states.push(observed.clone());
    }
    game.determinise(observed, viewer, rng, &mut states[0]);
}

/// `observed` determinised for `viewer` ([`Game::determinise`]), for the searches that keep
/// no tree (RHEA, OSLA); `None` for a game with neither chance nor hidden information, which
/// is searched as observed.
pub fn determinised<G: Game>(
    game: &G,
    observed: &G::State,
    viewer: Player,
    rng: &mut crate::rng::Rng,
) -> Option<G::State> {
    game.info().needs_determinisation().then(|| {
        let mut s = observed.clone();
        game.determinise(observed, viewer, rng, &mut s);
        s
    })
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
    fn backup_counts_the_value_on_the_path_to_the_root_only() {
        let mut nodes = vec![NodeHead::root(0)];
        nodes.push(NodeHead::child(0, 1, Some(1)));
        nodes.push(NodeHead::child(0, 1, Some(1)));
        nodes.push(NodeHead::child(1, 2, None));
        backup(&mut nodes, 3, 2.0);
        backup(&mut nodes, 1, -1.0);
        let visits: Vec<u32> = nodes.iter().map(|n| n.visits).collect();
        assert_eq!(visits, [2, 2, 0, 1]);
        assert_eq!(nodes[0].total, 1.0);
        assert_eq!(nodes[0].mean, 1.0 / (2.0 + EPSILON));
        assert_eq!(nodes[0].inv_sqrt, 1.0 / (2.0 + EPSILON).sqrt());
        assert_eq!((nodes[1].bounds.lo, nodes[1].bounds.hi), (-1.0, 2.0));
        assert_eq!(nodes[2].view().len, UNOPENED);
        assert_eq!(nodes[0].view().len, 0);
        assert!(nodes[3].view().terminal);
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

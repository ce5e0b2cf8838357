//! Pieces shared by the tree searches: the node statistics and what the search loop reads of
//! a node ([`NodeView`]); the tree MCTS and Portfolio MCTS keep of a decision ([`Tree`]: its
//! nodes, their states and child slots, backup, and the root's final choice); value
//! normalisation, and the selection value of a child for the player to move. (Ties are broken
//! at random by [`ArgMax`], not by the reference's multiplicative noise.)
//!
//! This is the searches' lowest layer (only [`super::arg_max`] is below it): it knows neither
//! the compatibility mode ([`super::compat`] maps it onto [`OpponentModel`]) nor the loop
//! ([`super::search_loop`] runs over [`NodeView`]s).
//!
//! # Two players and more
//!
//! With two players a node keeps one value, the searching player's (`me`), and the opponent
//! chooses against it ([`OpponentModel`]: it maximises `1 − Q`, or minimises `Q` as the Java
//! searches do under `compat = "java"`). With more than two players that rule would make every
//! opponent a coalition against `me`, so the searches use **max^n** (Luckhardt & Irani 1986;
//! Sturtevant 2008, "An analysis of UCT in multi-player games"): a leaf is valued for every
//! player, each node keeps one total (and one pair of bounds) per player in [`PlayerValues`],
//! and the player who moves at a node selects by its *own* normalised mean plus exploration.
//! The root's final choice still uses `me`'s values. Whether a search uses max^n is decided
//! once per decision from the root's [`Game::num_players`]; the two-player search is
//! unchanged (the same arithmetic and random draws as before max^n existed).

use super::arg_max::ArgMax;
use crate::game::{Game, Player, Turn};
use crate::rng::Rng;

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
fn child_state<G: Game>(
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

/// `NodeView::len` of a node whose children are not listed yet.
pub const UNOPENED: u32 = u32::MAX;

/// What the search loop ([`run_search`](super::search_loop::run_search)) reads of a node.
#[derive(Clone, Copy, Debug)]
pub struct NodeView {
    /// The game is over in the node's state.
    pub terminal: bool,
    /// Distance from the root.
    pub depth: u32,
    /// Number of children, or [`UNOPENED`].
    pub len: u32,
    /// Children expanded so far.
    pub expanded: u32,
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

/// A node type built on a [`NodeHead`], as [`Tree`] needs it.
pub trait Headed {
    /// The node's head.
    fn head(&self) -> &NodeHead;
    /// The node's head, mutably.
    fn head_mut(&mut self) -> &mut NodeHead;
}

impl Headed for NodeHead {
    fn head(&self) -> &NodeHead {
        self
    }
    fn head_mut(&mut self) -> &mut NodeHead {
        self
    }
}

/// Adds `v` to node `n` and every node above it.
fn backup<N: Headed>(nodes: &mut [N], mut n: u32, v: f64) {
    while n != NO_PARENT {
        let head = nodes[n as usize].head_mut();
        head.add(v);
        n = head.parent;
    }
}

/// The per-player statistics of a max^n search (see the module docs), beside the nodes and
/// indexed like them: `n` totals and `n` bounds per node. Empty (`players() == 0`) in a
/// two-player search, which keeps only `me`'s value in each [`NodeHead`].
#[derive(Clone, Debug, Default)]
pub struct PlayerValues {
    n: usize,
    totals: Vec<f64>,
    bounds: Vec<Bounds>,
    /// The values of the last evaluated leaf, one per player (written by
    /// [`LeafValues::value`](super::search_loop::LeafValues::value)).
    pub leaf: Vec<f64>,
}

impl PlayerValues {
    /// Starts a search of `nodes` nodes (the root: 1) for `players` players; max^n, keeping
    /// per-player values, only if `players > 2`.
    pub fn reset(&mut self, players: usize, nodes: usize) {
        self.n = if players > 2 { players } else { 0 };
        self.totals.clear();
        self.bounds.clear();
        self.leaf.clear();
        self.leaf.resize(self.n, 0.0);
        for _ in 0..nodes {
            self.push_node();
        }
    }

    /// Players whose values are kept: 0 in a two-player search.
    #[inline]
    pub fn players(&self) -> usize {
        self.n
    }

    /// Adds the statistics of a new node (nothing in a two-player search).
    #[inline]
    pub fn push_node(&mut self) {
        if self.n > 0 {
            self.totals.extend(std::iter::repeat_n(0.0, self.n));
            self.bounds
                .extend(std::iter::repeat_n(Bounds::default(), self.n));
        }
    }

    /// Adds [`PlayerValues::leaf`] to node `n` and every node above it (nothing in a
    /// two-player search).
    pub fn backup<N: Headed>(&mut self, nodes: &[N], mut n: u32) {
        if self.n == 0 {
            return;
        }
        while n != NO_PARENT {
            let at = n as usize * self.n;
            for (p, &v) in self.leaf.iter().enumerate() {
                self.totals[at + p] += v;
                self.bounds[at + p].add(v);
            }
            n = nodes[n as usize].head().parent;
        }
    }

    /// The mean value for `player` of node `n`, which has been visited `visits` times
    /// (`total / (visits + ε)`, as [`NodeHead::mean`]).
    #[inline]
    pub fn mean(&self, n: u32, visits: u32, player: Player) -> f64 {
        self.totals[n as usize * self.n + player] / (visits as f64 + EPSILON)
    }

    /// The bounds of the values for `player` backed up through node `n`.
    #[inline]
    pub fn bounds(&self, n: u32, player: Player) -> Bounds {
        self.bounds[n as usize * self.n + player]
    }

    /// The player whose values select among the children of a node where `to_move` moves, in
    /// `me`'s search: the mover itself under max^n, `None` where the node keeps only `me`'s
    /// value (two players, or `me` moves), so that the caller uses the [`NodeHead`] and the
    /// [`OpponentModel`].
    #[inline]
    pub fn selector(&self, to_move: Option<Player>, me: Player) -> Option<Player> {
        match to_move {
            Some(p) if self.n > 0 && p != me => Some(p),
            _ => None,
        }
    }
}

/// A child slot's node before the child is expanded.
pub const UNEXPANDED: u32 = u32::MAX;

/// What MCTS and Portfolio MCTS keep of one decision's tree, beside their own data per node
/// and per child slot (kept at the same indices): the nodes (node 0 is the root, `N` a
/// [`NodeHead`] or a node built on one), one state per node, the per-player values of a
/// max^n search, and the child slots of the opened nodes. Its buffers grow once and are
/// reused by later decisions.
pub struct Tree<G: Game, N> {
    /// The nodes.
    pub nodes: Vec<N>,
    /// Per-player values of the nodes (max^n with more than two players).
    pub maxn: PlayerValues,
    /// Node `n`'s state is `states[n]`; states beyond the last node are buffers left by an
    /// earlier decision, reused by [`Tree::expand`].
    pub states: Vec<G::State>,
    /// Per child slot of the opened nodes (node `n`'s are `first..first + len` of its
    /// [`NodeHead`]): the child node, or [`UNEXPANDED`].
    pub slots: Vec<u32>,
}

impl<G: Game, N> Default for Tree<G, N> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            maxn: PlayerValues::default(),
            states: Vec::new(),
            slots: Vec::new(),
        }
    }
}

impl<G: Game, N: Headed> Tree<G, N> {
    /// Starts a decision's tree: `root` alone, unopened, in a game of `players` players (max^n
    /// if more than two).
    pub fn start(&mut self, root: N, players: usize) {
        self.nodes.clear();
        self.slots.clear();
        self.nodes.push(root);
        self.maxn.reset(players, 1);
    }

    /// Makes `states[0]` the root state, reusing its buffers: `observed` determinised for
    /// `viewer` ([`Game::determinise`], drawing from `rng`), so that a search never peeks at
    /// hidden information or future chance draws. One determinisation per decision: the whole
    /// tree searches that one sampled world.
    pub fn set_root_state(&mut self, game: &G, observed: &G::State, viewer: Player, rng: &mut Rng) {
        if self.states.is_empty() {
            self.states.push(observed.clone());
        }
        game.determinise(observed, viewer, rng, &mut self.states[0]);
    }

    /// Node `n`'s head.
    #[inline]
    pub fn head(&self, n: u32) -> &NodeHead {
        self.nodes[n as usize].head()
    }

    /// What the search loop reads of node `n`.
    #[inline]
    pub fn view(&self, n: u32) -> NodeView {
        self.head(n).view()
    }

    /// Gives node `n` `len` child slots, none expanded, after the last slot (where the caller
    /// adds its own data of each slot).
    pub fn open(&mut self, n: u32, len: usize) {
        let first = self.slots.len();
        self.slots.extend(std::iter::repeat_n(UNEXPANDED, len));
        let head = self.nodes[n as usize].head_mut();
        head.first = first as u32;
        head.len = len as u32;
    }

    /// Expands `slot` of node `parent`: adds the child, whose state is `parent`'s after
    /// `action` and whose node is `node` of its head, and returns it.
    #[inline]
    pub fn expand(
        &mut self,
        game: &G,
        parent: u32,
        slot: u32,
        action: G::Action,
        node: impl FnOnce(NodeHead) -> N,
    ) -> u32 {
        let idx = self.nodes.len();
        let to_move = child_state(game, &mut self.states, idx, parent as usize, action);
        let head = self.nodes[parent as usize].head_mut();
        head.expanded += 1;
        let depth = head.depth + 1;
        self.nodes
            .push(node(NodeHead::child(parent, depth, to_move)));
        self.maxn.push_node();
        self.slots[slot as usize] = idx as u32;
        idx as u32
    }

    /// Adds `v` (and under max^n every player's value of the last leaf,
    /// [`PlayerValues::leaf`]) to `leaf` and every node above it.
    #[inline]
    pub fn backup(&mut self, leaf: u32, v: f64) {
        backup(&mut self.nodes, leaf, v);
        self.maxn.backup(&self.nodes, leaf);
    }

    /// The root's expanded children: each one's slot and head.
    pub fn root_children(&self) -> impl Iterator<Item = (u32, &NodeHead)> + '_ {
        let root = self.head(0);
        (root.first..root.first + root.len).filter_map(|slot| {
            let child = self.slots[slot as usize];
            (child != UNEXPANDED).then(|| (slot, self.head(child)))
        })
    }

    /// The root's slot to play: the expanded child of the highest `key`, ties broken at random
    /// ([`ArgMax`]); the root's first slot if no child was expanded.
    pub fn best_root_slot(&self, key: impl Fn(&NodeHead) -> f64, rng: &mut Rng) -> u32 {
        let mut best = ArgMax::default();
        for (slot, child) in self.root_children() {
            best.offer(key(child), slot, rng);
        }
        if best.item == u32::MAX {
            self.head(0).first
        } else {
            best.item
        }
    }
}

/// `observed` determinised for `viewer` ([`Game::determinise`]), for the searches that keep
/// no tree (RHEA, OSLA); `None` for a game with neither chance nor hidden information, which
/// is searched as observed.
pub fn determinised<G: Game>(
    game: &G,
    observed: &G::State,
    viewer: Player,
    rng: &mut Rng,
) -> Option<G::State> {
    game.info().needs_determinisation().then(|| {
        let mut s = observed.clone();
        game.determinise(observed, viewer, rng, &mut s);
        s
    })
}

/// How a node of a two-player search chooses among its children: the searching player
/// maximises its value; the opponent's choice depends on the compatibility mode. (With more
/// players, each maximises its own value: [`PlayerValues::selector`].)
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
    fn player_values_back_up_a_value_per_player_only_beyond_two_players() {
        let mut nodes = vec![NodeHead::root(0)];
        nodes.push(NodeHead::child(0, 1, Some(1)));
        nodes.push(NodeHead::child(1, 2, None));
        let mut pv = PlayerValues::default();
        pv.reset(2, 3);
        assert_eq!(pv.players(), 0);
        assert_eq!(pv.selector(Some(1), 0), None);
        pv.backup(&nodes, 2);
        pv.reset(3, 3);
        assert_eq!(pv.selector(Some(1), 0), Some(1));
        assert_eq!(pv.selector(Some(0), 0), None);
        pv.leaf.copy_from_slice(&[1.0, 2.0, -3.0]);
        pv.backup(&nodes, 2);
        backup(&mut nodes, 2, 1.0);
        pv.leaf.copy_from_slice(&[0.0, 4.0, 1.0]);
        pv.backup(&nodes, 1);
        backup(&mut nodes, 1, 0.0);
        assert_eq!(pv.mean(0, nodes[0].visits, 1), 6.0 / (2.0 + EPSILON));
        assert_eq!(pv.mean(2, nodes[2].visits, 2), -3.0 / (1.0 + EPSILON));
        let b = pv.bounds(1, 2);
        assert_eq!((b.lo, b.hi), (-3.0, 1.0));
        assert_eq!(pv.mean(1, nodes[1].visits, 0), nodes[1].mean);
    }

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

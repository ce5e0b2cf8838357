//! What Prismata's two tree searches over whole turns ([`super::uct`] and [`super::pmcts`])
//! share: the node, the traversal (score a new leaf by one playout or a learned model, else
//! descend; back up the win credit for the searching player), and the UCT value of a child.
//!
//! These trees stay apart from the generic searches' [`crate::agents::tree`]: a move here is a
//! whole turn made by a portfolio of partial players (the child's state is kept in the node,
//! made once when the move is generated, lazily in the C++ iterator order), a leaf is worth
//! the C++ win credit (1, ½, 0) without normalisation, and ties go to the first child as in
//! the C++; the generic trees are arenas over single actions with normalised values, random
//! tie-breaks and max^n for more than two players.

use super::eval::{LearnedLeaf, LearnedVerdict, playout, win_credit};
use super::sequence::Sequence;
use crate::games::prismata::{Action, Library, State};
use crate::rng::Rng;

/// A tree node: the state after `actions` (a whole turn), played by `mover`; `extra` is what
/// the search keeps besides.
pub(super) struct TurnNode<X> {
    /// The state after the move.
    pub state: State,
    /// The player who made the move into this node.
    pub mover: u8,
    /// The move's actions.
    pub actions: Vec<Action>,
    /// Traversals through this node.
    pub visits: u32,
    /// The searching player's win credit summed over those traversals.
    pub wins: f64,
    /// The children made so far.
    pub children: Vec<TurnNode<X>>,
    /// The search's own statistics of the node.
    pub extra: X,
}

impl<X> TurnNode<X> {
    /// An unvisited node without children.
    pub fn new(state: State, mover: u8, actions: Vec<Action>, extra: X) -> TurnNode<X> {
        TurnNode {
            state,
            mover,
            actions,
            visits: 0,
            wins: 0.0,
            children: Vec::new(),
            extra,
        }
    }

    /// The win rate of the player who moved into this node (visited) plus `c`·√(`ln_n` / n).
    pub fn uct_value(&self, ln_n: f64, c: f64, max_player: u8) -> f64 {
        let n = f64::from(self.visits);
        let win_rate = self.wins / n;
        let q = if self.mover == max_player {
            win_rate
        } else {
            1.0 - win_rate
        };
        q + c * (ln_n / n).sqrt()
    }
}

/// A search over a tree of [`TurnNode`]s: how it grows a node and picks the child to descend
/// into. `'a` is how long the nodes may borrow the search and the library.
pub(super) trait TurnTree<'a> {
    /// What the search keeps in a node besides the shared statistics.
    type Extra;

    /// The playout player of both sides, which scores a node reached for the first time.
    fn playout_player(&self) -> &Sequence;

    /// The winner of a playout from `state` (`None`: a draw) for a search by `max_player`:
    /// by default [`Self::playout_player`] plays both sides.
    fn playout(
        &self,
        library: &Library,
        state: &State,
        _max_player: u8,
        rng: &mut Rng,
    ) -> Option<u8> {
        playout(library, state, self.playout_player(), rng).winner
    }

    /// The learned leaf that scores a node reached for the first time instead of a playout
    /// (`None`, the default: playouts); it looks ahead with [`Self::playout_player`].
    fn learned(&self) -> Option<&LearnedLeaf> {
        None
    }

    /// Grows `node` (its state not over, visited unless it is the root) as the search does, and
    /// returns the index of the child to descend into.
    fn descend(
        &'a self,
        library: &'a Library,
        node: &mut TurnNode<Self::Extra>,
        is_root: bool,
        max_player: u8,
        rng: &mut Rng,
    ) -> usize;
}

/// Runs `traversals` traversals (at least one) from a root at `state` and returns the root.
pub(super) fn grow<'a, T: TurnTree<'a>>(
    tree: &'a T,
    library: &'a Library,
    state: &State,
    traversals: u64,
    root_extra: T::Extra,
    rng: &mut Rng,
) -> TurnNode<T::Extra> {
    let max_player = state.active;
    let mut root = TurnNode::new(state.clone(), 1 - max_player, Vec::new(), root_extra);
    for _ in 0..traversals.max(1) {
        traverse(tree, library, &mut root, true, max_player, rng);
    }
    root
}

/// One traversal from `node`: a node other than the root reached for the first time is scored
/// by one playout (win 1, draw ½, loss 0 for `max_player`) or by the learned model's
/// probability that `max_player` wins, a finished game by its winner, any other node by the
/// traversal of the child [`TurnTree::descend`] picks. Returns the value it backs up.
fn traverse<'a, T: TurnTree<'a>>(
    tree: &'a T,
    library: &'a Library,
    node: &mut TurnNode<T::Extra>,
    is_root: bool,
    max_player: u8,
    rng: &mut Rng,
) -> f64 {
    let value = if !is_root && node.visits == 0 {
        match tree.learned() {
            Some(leaf) => {
                let playout = Some(tree.playout_player());
                match leaf.verdict(library, &node.state, max_player, playout, rng) {
                    LearnedVerdict::Ended(result) => win_credit(result.winner, max_player),
                    LearnedVerdict::Model(p) => p,
                }
            }
            None => win_credit(
                tree.playout(library, &node.state, max_player, rng),
                max_player,
            ),
        }
    } else if node.state.over {
        win_credit(node.state.winner, max_player)
    } else {
        let i = tree.descend(library, node, is_root, max_player, rng);
        traverse(tree, library, &mut node.children[i], false, max_player, rng)
    };
    node.visits += 1;
    node.wins += value;
    value
}

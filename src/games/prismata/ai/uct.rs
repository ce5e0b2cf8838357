//! UCT over whole-turn portfolio moves (C++ `UCTSearch`, `UCTNode`, spec §11.4).
//!
//! As the C++: a node adds one child per visit from its move iterator (the root portfolio at
//! the root, the inner one below) until the iterator is exhausted or the node has
//! `max_children`; an unvisited child is chosen first, then the highest win rate (for the
//! player who moved into it) plus `c`·√(ln N / n); a node reached for the first time is scored
//! by one playout (win 1, draw ½, loss 0 for the searching player), or, with a learned
//! model ([`Leaf::Learned`]), by its probability that the searching player wins; the most-visited root
//! child is played. The budget is `traversals` (the C++ `MaxTraversals`; we have no time
//! limit). `max_children` 0 means no limit (the C++ would then add no child at all). The node
//! and the traversal are `turn_tree`'s, shared with [`super::pmcts`].

use super::eval::{Leaf, LearnedLeaf};
use super::portfolio::{Children, PartialPortfolio};
use super::sequence::Sequence;
use super::turn_tree::{TurnNode, TurnTree, grow};
use crate::games::prismata::{Action, Library, State};
use crate::rng::Rng;

/// The search's settings.
#[derive(Clone, Debug)]
pub struct Uct {
    /// Moves at the root.
    pub root: PartialPortfolio,
    /// Moves below the root.
    pub inner: PartialPortfolio,
    /// Children per node (C++ `MaxChildren`; 0 = no limit).
    pub max_children: usize,
    /// Exploration constant (C++ `UCTConstant`, default 2).
    pub c: f64,
    /// Traversals per decision (C++ `MaxTraversals`).
    pub traversals: u64,
    /// The playout player of both sides.
    pub playout: Sequence,
    /// How a new node is scored: by a playout, or by a learned model.
    pub leaf: Leaf,
}

/// A node's move iterator, made on its first expansion.
type Node<'a> = TurnNode<Option<Children<'a>>>;

impl Uct {
    /// The whole-turn move for the player to act in `state`.
    pub fn search(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        let root = grow(self, library, state, self.traversals, None, rng);
        // The most-visited child, the first of equals.
        let mut best: Option<&Node> = None;
        for child in &root.children {
            if best.is_none_or(|b| child.visits > b.visits) {
                best = Some(child);
            }
        }
        best.expect("the root has a child after a traversal")
            .actions
            .clone()
    }

    /// Adds the node's next child, if its iterator has one and it has room.
    fn expand<'a>(
        &'a self,
        library: &'a Library,
        node: &mut Node<'a>,
        is_root: bool,
        rng: &mut Rng,
    ) {
        if self.max_children > 0 && node.children.len() >= self.max_children {
            return;
        }
        let portfolio = if is_root { &self.root } else { &self.inner };
        let moves = node
            .extra
            .get_or_insert_with(|| portfolio.children(library, &node.state));
        if let Some(turn) = moves.next_move(rng) {
            let mover = node.state.active;
            node.children
                .push(Node::new(turn.state, mover, turn.actions, None));
        }
    }

    /// The first unvisited child, else the best UCT value for the player who moved into it.
    fn select(&self, node: &Node, max_player: u8) -> usize {
        let mut best = (0, f64::MIN);
        let ln_n = f64::from(node.visits).ln();
        for (i, child) in node.children.iter().enumerate() {
            if child.visits == 0 {
                return i;
            }
            let value = child.uct_value(ln_n, self.c, max_player);
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

impl<'a> TurnTree<'a> for Uct {
    type Extra = Option<Children<'a>>;

    fn playout_player(&self) -> &Sequence {
        &self.playout
    }

    fn learned(&self) -> Option<&LearnedLeaf> {
        self.leaf.learned()
    }

    /// Adds a child if the node has room, then selects.
    fn descend(
        &'a self,
        library: &'a Library,
        node: &mut Node<'a>,
        is_root: bool,
        max_player: u8,
        rng: &mut Rng,
    ) -> usize {
        self.expand(library, node, is_root, rng);
        self.select(node, max_player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::sequence::tests::{first_or_wander, firsts};
    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;

    fn uct(traversals: u64) -> Uct {
        let portfolio = first_or_wander();
        Uct {
            root: portfolio.clone(),
            inner: portfolio,
            max_children: 40,
            c: 2.0,
            traversals,
            playout: Sequence { players: firsts() },
            leaf: Leaf::Playout,
        }
    }

    #[test]
    fn a_search_returns_a_legal_whole_turn_and_replays_from_its_seed() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 5).unwrap());
        for traversals in [1, 2, 50] {
            let actions = uct(traversals).search(lib, &s, &mut rng_from_seed(2));
            let mut replay = s.clone();
            for &a in &actions {
                assert!(rules::is_legal(lib, &replay, a));
                rules::apply(lib, &mut replay, a);
            }
            assert_eq!(replay.active, 1);
            assert_eq!(
                actions,
                uct(traversals).search(lib, &s, &mut rng_from_seed(2))
            );
        }
    }

    #[test]
    fn one_traversal_plays_the_first_move() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 6).unwrap());
        let search = uct(1);
        let mut rng = rng_from_seed(3);
        let first = search.root.children(lib, &s).next_move(&mut rng).unwrap();
        assert_eq!(search.search(lib, &s, &mut rng_from_seed(3)), first.actions);
    }
}

//! Portfolio MCTS over whole-turn portfolio moves: the P-MCTS of the Tribes paper
//! (progressive bias and progressive unpruning by script weights) with Prismata's partial
//! players as the scripts and the turn-level tree of [`super::uct`] (`turn_tree`).
//!
//! The root is opened on the first traversal, another node on its second visit (its first is a
//! playout): every distinct move of its portfolio (the root one at the root, the inner one
//! below) becomes a child, and each child gets a prior `v`, the mean
//! weight of the four partial players that make it (the best such mean when several
//! combinations make the same move; a player the weights do not name weighs 0.5). Selection
//! over the unpruned children takes an unvisited child first (the highest prior, then
//! enumeration order), else the best `Q + c·√(ln N / n) + v / (1 + n)` (the bias term only
//! with `bias`), `Q` being the win rate of the player who moved into the child. With
//! `pruning`, a node with `n` children keeps only its `max(1, ⌊n·k_init_mult⌋)` best-prior
//! children after `⌊n·t_mult⌋` visits and un-prunes the next best each time its visits pass
//! `⌊A·b^k⌋`, `A = ⌊T·a_mult⌋` ([`PmctsParams::unpruning`]). Leaves are scored by one playout
//! (win 1, draw ½, loss 0); the most-visited root child is played (among equals the best win
//! rate, then the best prior: at small budgets many root children have one visit). The budget
//! is `traversals`. The strength dial `blunder` (the generic P-MCTS's, [`PmctsParams::blunder`])
//! replays, with that probability, the chosen move with its own defense, ability and buy
//! players but a random breach player: the personality still decides what to build and how
//! much to attack, and breaches worse.

use std::sync::Arc;

use rand::RngExt;

use super::breach::BreachRandom;
use super::eval::{Leaf, LearnedLeaf, PLAYOUT_TURN_LIMIT, playout};
use super::partial::PpPhase;
use super::portfolio::{Generated, PartialPortfolio};
use super::sequence::Sequence;
use super::turn_tree::{TurnNode, TurnTree, grow};
use crate::agents::portfolio_mcts::PmctsParams;
use crate::games::prismata::{Action, Library, State};
use crate::rng::{Rng, weighted_index};

/// The weight of a partial player that the weights do not name.
pub const DEFAULT_WEIGHT: f64 = 0.5;

/// The search's settings.
#[derive(Clone, Debug)]
pub struct TurnPmcts {
    /// Moves at the root.
    pub root: PartialPortfolio,
    /// Moves below the root.
    pub inner: PartialPortfolio,
    /// Traversals per decision.
    pub traversals: u64,
    /// The playout player of both sides.
    pub playout: Sequence,
    /// Exploration constant `c`, `bias`, `pruning`, the unpruning schedule (`k_init_mult`,
    /// `t_mult`, `a_mult`, `b`) and the strength dial `blunder`; the other fields are not read.
    pub params: PmctsParams,
    /// Weights of partial players by name.
    pub weights: Vec<(String, f64)>,
    /// Style strength λ of the final-move rule (0, the default: the most-visited root child).
    /// With λ > 0 the visited root child of the best `Q + λ·v` is played, `Q` being its win
    /// rate and `v` its prior (the mean weight of its four partial players), the first on ties.
    pub style: f64,
    /// The searching player's side of every playout draws its buy partial player each turn
    /// from the root portfolio's buy players, in proportion to their weights (none weighted
    /// above 0: the playout player's); false, the default: the playout player plays both
    /// sides.
    pub persona_playouts: bool,
    /// How a new node is scored: by a playout, or by a learned model (which replaces the
    /// playout, persona or not).
    pub leaf: Leaf,
}

/// What a node keeps besides the shared statistics.
pub(super) struct Stats {
    /// The node's prior: the mean weight of the players making its move.
    prior: f64,
    /// The indices of the players (one per phase) of the best-prior combination making its
    /// move.
    players: [usize; 4],
    /// Per child: pruned now.
    pruned: Vec<bool>,
    /// Un-prunings done (0 before the first pruning).
    unprunings: u32,
}

/// A node; it has no child until it is opened (a portfolio always makes a move).
type Node = TurnNode<Stats>;

impl Stats {
    fn new(prior: f64, players: [usize; 4]) -> Stats {
        Stats {
            prior,
            players,
            pruned: Vec::new(),
            unprunings: 0,
        }
    }
}

impl TurnPmcts {
    /// The weight of the partial player called `name`.
    pub fn weight(&self, name: &str) -> f64 {
        self.weights
            .iter()
            .find(|(n, _)| n == name)
            .map_or(DEFAULT_WEIGHT, |&(_, w)| w)
    }

    /// Sets the weights of the partial players named in `weights`.
    ///
    /// # Errors
    ///
    /// A message (for the caller to put under its field name) for a name neither portfolio
    /// has, or a weight that is not a finite number ≥ 0.
    pub fn set_weights(&mut self, weights: Vec<(String, f64)>) -> Result<(), String> {
        for (name, w) in &weights {
            if !self
                .root
                .all_names()
                .chain(self.inner.all_names())
                .any(|n| n == name)
            {
                let mut known: Vec<&str> = self.root.all_names().collect();
                for n in self.inner.all_names() {
                    if !known.contains(&n) {
                        known.push(n);
                    }
                }
                return Err(format!(
                    "no partial player `{name}` in the searched portfolios (known: {})",
                    known.join(", ")
                ));
            }
            if !w.is_finite() || *w < 0.0 {
                return Err(format!(
                    "weight of `{name}` must be a finite number ≥ 0, got {w}"
                ));
            }
        }
        for (name, w) in weights {
            match self.weights.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = w,
                None => self.weights.push((name, w)),
            }
        }
        Ok(())
    }

    /// The whole-turn move for the player to act in `state`.
    pub fn search(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        let root = grow(
            self,
            library,
            state,
            self.traversals,
            Stats::new(0.0, [0; 4]),
            rng,
        );
        let chosen = if self.style > 0.0 {
            self.styled_choice(&root)
        } else {
            Self::most_visited(&root)
        };
        if self.params.blunder > 0.0 && rng.random::<f64>() < self.params.blunder {
            return self.blunder(library, state, chosen.extra.players, rng);
        }
        chosen.actions.clone()
    }

    /// The move of the root players `players` in defense, abilities and buying, and of a
    /// random breach player (the `blunder` dial's move).
    fn blunder(
        &self,
        library: &Library,
        state: &State,
        players: [usize; 4],
        rng: &mut Rng,
    ) -> Vec<Action> {
        let pick =
            |phase: PpPhase| self.root.phases[phase as usize][players[phase as usize]].clone();
        Sequence {
            players: [
                pick(PpPhase::Defense),
                pick(PpPhase::Ability),
                pick(PpPhase::Buy),
                Arc::new(BreachRandom),
            ],
        }
        .actions(library, state, rng)
    }

    /// The most-visited root child; among equals the best win rate, then the best prior, then
    /// the first.
    fn most_visited(root: &Node) -> &Node {
        let key = |n: &Node| (n.visits, n.wins / f64::from(n.visits.max(1)), n.extra.prior);
        let mut best: Option<&Node> = None;
        for child in &root.children {
            if best.is_none_or(|b| {
                let (k, kb) = (key(child), key(b));
                k.0 > kb.0 || (k.0 == kb.0 && (k.1, k.2) > (kb.1, kb.2))
            }) {
                best = Some(child);
            }
        }
        best.expect("the root has a child after a traversal")
    }

    /// The visited root child of the best `Q + style·prior` ([`Self::style`]).
    fn styled_choice<'n>(&self, root: &'n Node) -> &'n Node {
        let mut best: Option<(&Node, f64)> = None;
        for child in root.children.iter().filter(|c| c.visits > 0) {
            let q = child.wins / f64::from(child.visits);
            let score = q + self.style * child.extra.prior;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((child, score));
            }
        }
        best.expect("the root has a visited child after a traversal")
            .0
    }

    /// The playout player of the searching side when [`Self::persona_playouts`] is on: the
    /// playout player with its buy player drawn from the root portfolio's by weight.
    fn persona_sequence(&self, rng: &mut Rng) -> Option<Sequence> {
        let buy = PpPhase::Buy as usize;
        let weights: Vec<f64> = self.root.names[buy]
            .iter()
            .map(|n| self.weight(n))
            .collect();
        let pick = weighted_index(weights.iter().copied(), rng)?;
        let mut players = self.playout.players.clone();
        players[buy] = self.root.phases[buy][pick].clone();
        Some(Sequence { players })
    }

    /// Gives `node` a child per distinct move of its portfolio, with its prior.
    fn open(&self, library: &Library, node: &mut Node, is_root: bool, rng: &mut Rng) {
        let portfolio = if is_root { &self.root } else { &self.inner };
        let weights: [Vec<f64>; 4] = std::array::from_fn(|p| {
            portfolio.names[p]
                .iter()
                .map(|name| self.weight(name))
                .collect()
        });
        let prior = |indices: [usize; 4]| -> f64 {
            (0..4).map(|p| weights[p][indices[p]]).sum::<f64>() / 4.0
        };
        let mover = node.state.active;
        let mut children = Vec::new();
        let mut moves = portfolio.children(library, &node.state);
        while let Some(combination) = moves.next_combination(rng) {
            match combination {
                Generated::New(turn, indices) => {
                    children.push(Node::new(
                        turn.state,
                        mover,
                        turn.actions,
                        Stats::new(prior(indices), indices),
                    ));
                }
                Generated::Repeat(i, indices) => {
                    let child = &mut children[i].extra;
                    if prior(indices) > child.prior {
                        child.prior = prior(indices);
                        child.players = indices;
                    }
                }
            }
        }
        node.extra.pruned = vec![false; children.len()];
        node.children = children;
    }

    /// Progressive unpruning at `node` (opened): the first pruning after `T` visits, then one
    /// child back each time the visits pass the next threshold.
    fn update_pruning(&self, node: &mut Node) {
        if !self.params.pruning {
            return;
        }
        let children = &node.children;
        let stats = &mut node.extra;
        let sched = self.params.unpruning(children.len());
        // Children by prior, best first (ties: enumeration order).
        let by_prior = || {
            let mut order: Vec<usize> = (0..children.len()).collect();
            order.sort_by(|&i, &j| children[j].extra.prior.total_cmp(&children[i].extra.prior));
            order
        };
        if stats.unprunings == 0 {
            if node.visits < sched.t {
                return;
            }
            for (rank, i) in by_prior().into_iter().enumerate() {
                stats.pruned[i] = rank >= sched.k_init;
            }
            stats.unprunings = 1;
        } else if node.visits > self.params.unprune_threshold(sched.a, stats.unprunings) {
            if let Some(i) = by_prior().into_iter().find(|&i| stats.pruned[i]) {
                stats.pruned[i] = false;
            }
            stats.unprunings += 1;
        }
    }

    /// The unvisited unpruned child of the highest prior, else the best selection value.
    fn select(&self, node: &Node, max_player: u8) -> usize {
        let children = &node.children;
        let open = || (0..children.len()).filter(|&i| !node.extra.pruned[i]);
        let prior = |i: usize| children[i].extra.prior;
        let mut unvisited: Option<usize> = None;
        for i in open().filter(|&i| children[i].visits == 0) {
            if unvisited.is_none_or(|u| prior(i) > prior(u)) {
                unvisited = Some(i);
            }
        }
        if let Some(i) = unvisited {
            return i;
        }
        let ln_n = f64::from(node.visits).ln();
        let mut best = (0, f64::MIN);
        for i in open() {
            let child = &children[i];
            let mut value = child.uct_value(ln_n, self.params.c, max_player);
            if self.params.bias {
                value += prior(i) / (1.0 + f64::from(child.visits));
            }
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

impl TurnTree<'_> for TurnPmcts {
    type Extra = Stats;

    fn playout_player(&self) -> &Sequence {
        &self.playout
    }

    fn learned(&self) -> Option<&LearnedLeaf> {
        self.leaf.learned()
    }

    /// With [`TurnPmcts::persona_playouts`], the searching side plays its turns with a buy
    /// player drawn by weight each turn ([`TurnPmcts::persona_sequence`]).
    fn playout(
        &self,
        library: &Library,
        state: &State,
        max_player: u8,
        rng: &mut Rng,
    ) -> Option<u8> {
        if !self.persona_playouts {
            return playout(library, state, &self.playout, rng).winner;
        }
        let mut s = state.clone();
        let mut turns = 0;
        while !s.over && turns < PLAYOUT_TURN_LIMIT {
            let mine = if s.active == max_player {
                self.persona_sequence(rng)
            } else {
                None
            };
            let player = mine.as_ref().unwrap_or(&self.playout);
            s = player.turn(library, s, rng).state;
            turns += 1;
        }
        if s.over { s.winner } else { None }
    }

    /// Opens the node on its first descent, updates its pruning, then selects.
    fn descend(
        &self,
        library: &Library,
        node: &mut Node,
        is_root: bool,
        max_player: u8,
        rng: &mut Rng,
    ) -> usize {
        if node.children.is_empty() {
            self.open(library, node, is_root, rng);
        }
        self.update_pruning(node);
        self.select(node, max_player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::sequence::tests::{first_or_wander, firsts};
    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;

    fn pmcts(traversals: u64, bias: bool, pruning: bool) -> TurnPmcts {
        TurnPmcts {
            root: first_or_wander(),
            inner: first_or_wander(),
            traversals,
            playout: Sequence { players: firsts() },
            params: PmctsParams {
                c: 2.0,
                bias,
                pruning,
                t_mult: 1.0,
                ..PmctsParams::default()
            },
            weights: Vec::new(),
            style: 0.0,
            persona_playouts: false,
            leaf: Leaf::Playout,
        }
    }

    fn legal_turn(lib: &Library, s: &State, actions: &[Action]) -> bool {
        let mut replay = s.clone();
        for &a in actions {
            if !rules::is_legal(lib, &replay, a) {
                return false;
            }
            rules::apply(lib, &mut replay, a);
        }
        replay.over || replay.active != s.active
    }

    #[test]
    fn a_search_returns_a_legal_whole_turn_and_replays_from_its_seed() {
        let lib = Library::builtin();
        for seed in 0..4 {
            let s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            for (bias, pruning) in [(false, false), (true, false), (true, true)] {
                let search = pmcts(60, bias, pruning);
                let actions = search.search(lib, &s, &mut rng_from_seed(seed));
                assert!(legal_turn(lib, &s, &actions));
                assert_eq!(actions, search.search(lib, &s, &mut rng_from_seed(seed)));
            }
        }
    }

    #[test]
    fn one_traversal_plays_the_move_of_the_heaviest_players() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 6).unwrap());
        let mut search = pmcts(1, true, false);
        // Wander in every phase: the last combination, the only one of prior 1.
        let wander: Vec<(String, f64)> = ["defense#1", "ability#1", "buy#1", "breach#1"]
            .iter()
            .map(|n| (n.to_string(), 1.0))
            .collect();
        search.set_weights(wander).unwrap();
        let mut rng = rng_from_seed(3);
        let mut moves = search.root.children(lib, &s);
        let (mut made, mut expected) = (Vec::new(), None);
        while let Some(c) = moves.next_combination(&mut rng) {
            match c {
                Generated::New(turn, indices) => {
                    if indices == [1; 4] {
                        expected = Some(turn.actions.clone());
                    }
                    made.push(turn.actions);
                }
                Generated::Repeat(i, [1, 1, 1, 1]) => expected = Some(made[i].clone()),
                Generated::Repeat(..) => {}
            }
        }
        let played = search.search(lib, &s, &mut rng_from_seed(3));
        assert_eq!(Some(played), expected);
    }

    #[test]
    fn pruning_keeps_the_best_prior_children_then_unprunes_them_in_order() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 2).unwrap());
        let search = pmcts(1, true, true);
        let mut root = Node::new(s.clone(), 1, Vec::new(), Stats::new(0.0, [0; 4]));
        let mut rng = rng_from_seed(1);
        search.open(lib, &mut root, true, &mut rng);
        let n = root.children.len();
        let sched = search.params.unpruning(n);
        for (i, c) in root.children.iter_mut().enumerate() {
            c.extra.prior = i as f64;
        }
        root.visits = sched.t;
        search.update_pruning(&mut root);
        let kept: Vec<usize> = (0..n).filter(|&i| !root.extra.pruned[i]).collect();
        assert_eq!(kept, (n - sched.k_init..n).collect::<Vec<_>>());
        if n > sched.k_init {
            root.visits = search.params.unprune_threshold(sched.a, 1) + 1;
            search.update_pruning(&mut root);
            assert!(
                !root.extra.pruned[n - sched.k_init - 1],
                "the next best is back"
            );
        }
    }

    /// At `blunder = 1` the chosen combination's defense, ability and buy players replay the
    /// move and a random breach player breaches: the same actions outside the breach.
    #[test]
    fn a_blunder_changes_only_the_breach() {
        let lib = Library::builtin();
        let mut search = pmcts(1, true, false);
        // First in defense, abilities and buying (deterministic), Wander in the breach: the
        // one combination of prior 1, played at one traversal.
        let heaviest: Vec<(String, f64)> = ["defense#0", "ability#0", "buy#0", "breach#1"]
            .iter()
            .map(|n| (n.to_string(), 1.0))
            .collect();
        search.set_weights(heaviest).unwrap();
        let mut blundering = search.clone();
        blundering.params.blunder = 1.0;
        let outside_breach = |actions: &[Action]| -> Vec<Action> {
            actions
                .iter()
                .copied()
                .filter(|a| !matches!(a, Action::Breach(_)))
                .collect()
        };
        let playout = Sequence { players: firsts() };
        let mut rng = rng_from_seed(5);
        let (mut turns, mut breaches) = (0, 0);
        for seed in 0..3 {
            let mut s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            while !s.over && s.ply < 120 {
                let played = search.search(lib, &s, &mut rng_from_seed(turns));
                let blundered = blundering.search(lib, &s, &mut rng_from_seed(turns));
                assert!(legal_turn(lib, &s, &blundered));
                assert_eq!(outside_breach(&played), outside_breach(&blundered));
                breaches += usize::from(blundered.iter().any(|a| matches!(a, Action::Breach(_))));
                turns += 1;
                s = playout.turn(lib, s, &mut rng).state;
            }
        }
        assert!(breaches > 0, "no breach in {turns} turns");
    }

    /// With a strong style the played move is the visited root child of the highest prior.
    #[test]
    fn a_strong_style_plays_the_best_prior_among_the_visited() {
        let lib = Library::builtin();
        for seed in 0..3 {
            let s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            let mut search = pmcts(12, true, false);
            search
                .set_weights(vec![("buy#1".to_string(), 1.0), ("buy#0".to_string(), 0.0)])
                .unwrap();
            search.style = 1000.0;
            let root = grow(
                &search,
                lib,
                &s,
                12,
                Stats::new(0.0, [0; 4]),
                &mut rng_from_seed(seed),
            );
            let top = root
                .children
                .iter()
                .filter(|c| c.visits > 0)
                .map(|c| c.extra.prior)
                .fold(f64::MIN, f64::max);
            let played = search.search(lib, &s, &mut rng_from_seed(seed));
            let child = root.children.iter().find(|c| c.actions == played).unwrap();
            assert!(child.visits > 0);
            assert_eq!(child.extra.prior, top);
        }
    }

    /// Persona playouts draw the searching side's buy player by weight: none weighted, the
    /// playout player's; one weighted, always that one.
    #[test]
    fn persona_playouts_draw_the_buy_player_by_weight() {
        let mut search = pmcts(8, true, false);
        search.persona_playouts = true;
        search
            .set_weights(vec![("buy#0".to_string(), 0.0), ("buy#1".to_string(), 0.0)])
            .unwrap();
        assert!(search.persona_sequence(&mut rng_from_seed(1)).is_none());
        search
            .set_weights(vec![("buy#1".to_string(), 2.0)])
            .unwrap();
        let buy = PpPhase::Buy as usize;
        for seed in 0..5 {
            let seq = search.persona_sequence(&mut rng_from_seed(seed)).unwrap();
            assert!(std::sync::Arc::ptr_eq(
                &seq.players[buy],
                &search.root.phases[buy][1]
            ));
            assert!(std::sync::Arc::ptr_eq(
                &seq.players[0],
                &search.playout.players[0]
            ));
        }
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 4).unwrap());
        let actions = search.search(lib, &s, &mut rng_from_seed(4));
        assert!(legal_turn(lib, &s, &actions));
        assert_eq!(actions, search.search(lib, &s, &mut rng_from_seed(4)));
    }

    #[test]
    fn unknown_or_negative_weights_are_refused_naming_the_player() {
        let mut search = pmcts(1, true, true);
        let e = search
            .set_weights(vec![("nope".to_string(), 1.0)])
            .unwrap_err();
        assert!(e.contains("nope"), "{e}");
        let e = search
            .set_weights(vec![("buy#0".to_string(), -1.0)])
            .unwrap_err();
        assert!(e.contains("buy#0"), "{e}");
        search
            .set_weights(vec![("buy#0".to_string(), 0.9)])
            .unwrap();
        assert_eq!(search.weight("buy#0"), 0.9);
        assert_eq!(search.weight("buy#1"), DEFAULT_WEIGHT);
    }
}
